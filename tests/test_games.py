"""``game:`` sources: built-in and user games searched as their expanded trees (docs/sources.md)."""

from __future__ import annotations

import importlib.util
import json
import textwrap
from array import array
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings

from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.algorithms.chance import tree_leaf_bounds
from gtsearch.cli import cli
from gtsearch.errors import GtsearchError
from gtsearch.formats import dump_tree, loads_tree
from gtsearch.sources import games, open_source, unique_names, whole
from gtsearch.sources.builtin_games import Nim, TicTacToe
from gtsearch.sources.games import Game, GameTree
from gtsearch.tree import Tree

from .strategies import trees

ROOT = Path(__file__).resolve().parent.parent
TWO_PLAYER = [a for a in ALGORITHMS if not a.chance]


def params(algo: Any) -> dict[str, Any]:
    return {"bound": 0} if algo.needs_bound else {}


def same_results(game: Tree, flat: Tree) -> None:
    for algo in TWO_PLAYER:
        a = search(game, algo, leaf_order=True, **params(algo))
        b = search(flat, algo, leaf_order=True, **params(algo))
        assert (a.value, a.exact, a.pv, a.pv_labels, a.leaves, a.leaf_order, a.nodes, a.extra) == (
            b.value,
            b.exact,
            b.pv,
            b.pv_labels,
            b.leaves,
            b.leaf_order,
            b.nodes,
            b.extra,
        ), algo.name


class Wrapped:
    """A flat tree as a game: a state is a path; moves are child indices; labels name them."""

    def __init__(self, nested: Any, root: str = "max") -> None:
        self.nested = nested
        self.root = root

    def node(self, state: tuple[int, ...]) -> Any:
        t = self.nested
        for i in state:
            t = t[i]
        return t

    def initial(self) -> tuple[int, ...]:
        return ()

    def moves(self, state: tuple[int, ...]) -> list[int]:
        t = self.node(state)
        return list(range(len(t))) if isinstance(t, list) else []

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return (*state, move)

    def utility(self, state: tuple[int, ...]) -> Any:
        return self.node(state)

    def label(self, state: tuple[int, ...], move: int) -> str:
        return f"m{move}"


def labelled(nested: Any, root_max: bool) -> Tree:
    """The flat tree of ``Wrapped(nested)``, its nodes named as the game names them."""
    tree = Tree.from_nested(nested, root_max=root_max)
    names = {n: f"m{tree.path_of(n)[-1]}" for n in range(1, len(tree.end))}
    return Tree(tree.end, tree.values, names=names, floats=tree.floats, root_max=root_max)


@settings(max_examples=25, deadline=None)
@given(trees)
def test_games_search_as_their_trees(nested: Any) -> None:
    """Random flat trees wrapped as games: every algorithm alike, leaf for leaf, both roots;
    the game computed on demand (the pure core) and written out whole in C (the C core)."""
    for root in ("max", "min"):
        with core.pure():
            lazy = GameTree(Game(Wrapped(nested, root), "game:test"), source="game:test")
        game = GameTree(Game(Wrapped(nested, root), "game:test"), source="game:test")
        assert lazy.lazy and not isinstance(lazy.end, array)
        assert game.lazy is (core.native() is None)
        flat = labelled(nested, root == "max")
        assert whole(lazy) == flat == whole(game)
        if not game.lazy:
            assert list(game.end) == list(flat.end)
            assert list(map(repr, game.values)) == list(map(repr, flat.values))  # NaN too
            assert game.with_root(not game.root_max).end is game.end
        with core.pure():
            same_results(lazy, flat)
            same_results(game, flat)
        same_results(lazy, flat)
        same_results(game, flat)


class Faulty(Wrapped):
    """A game whose utility raises at the leaves worth ``bad``."""

    def __init__(self, nested: Any, bad: int) -> None:
        super().__init__(nested)
        self.bad = bad

    def utility(self, state: tuple[int, ...]) -> Any:
        v = self.node(state)
        if v == self.bad:
            raise RuntimeError("no value here")
        return v


def test_a_game_failing_where_no_search_looks_stays_on_demand() -> None:
    """Written out whole, every leaf's utility would be asked for: a game that raises at a
    leaf alpha-beta prunes stays computed on demand, and alpha-beta succeeds, as it would
    have before; the search that reaches the leaf reports the error."""
    nested = [[3, 12, 8], [2, 99, 14], [1, 5, 2]]  # alpha-beta never reads 99
    game = GameTree(Game(Faulty(nested, 99), "game:faulty"), source="game:faulty")
    assert game.lazy
    r = search(game, "alphabeta")
    assert (r.value, r.leaves) == (3, 5)
    with pytest.raises(GtsearchError, match=r"utility\(\) raised RuntimeError: no value here"):
        search(game, "minimax")


def test_games_beyond_max_nodes_stay_on_demand() -> None:
    """--max-nodes bounds the nodes a search visits: a tree larger than that (nim:6 has 12
    distinct states, 52 nodes) is not written out, and the search stops at the limit."""
    nim = Game(Nim(6), "game:nim:6")
    assert GameTree(nim, source="game:nim:6", max_nodes=52).lazy is (core.native() is None)
    big = GameTree(nim, source="game:nim:6", max_nodes=51)
    assert big.lazy
    with pytest.raises(GtsearchError, match="visited more than --max-nodes 51"):
        search(big, "minimax")


def test_tictactoe_is_counted_and_read_from_its_graph_in_c() -> None:
    """Under the C core its states are counted in C and its tree is never written out: the C
    searches read it from the graph of its states (tests/test_game_kernels.py); nim is written
    out, as any game the core has no kernel for."""
    tree = open_source("game:tictactoe")
    assert isinstance(tree, GameTree) and tree.lazy
    assert (tree.native_view() is not None) is (core.native() is not None)
    nim = open_source("game:nim:5")
    assert isinstance(nim, GameTree) and nim.native_view() is None
    assert nim.lazy is (core.native() is None)
    if not nim.lazy:
        assert (nim.end.typecode, nim.values.typecode) == ("i", "d")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "depth"),
    [
        ("nim:5", None),
        ("hexapawn", None),
        ("othello:rows=2,columns=4", None),
        ("pig:target=3,die=3,horizon=3", None),
        ("dotsandboxes:rows=1,columns=1", None),
        ("connect4:rows=3,columns=4,k=3", 3),
    ],
)
def test_leaf_bounds_are_read_from_the_entries(spec: str, depth: int | None) -> None:
    """The least and the greatest leaf (star1's, star2's and mcts's bounds) from the game's
    distinct entries: what the tree's leaves give one by one (the first of equal ones), an
    estimate at the --depth cut too, a million times fewer cursor steps on tic-tac-toe."""
    tree = open_source(f"game:{spec}", depth=depth)
    assert isinstance(tree, GameTree)
    end, values = tree.end, tree.values
    leaves = [n for n in range(len(end)) if end[n] == n + 1]
    least = min(leaves, key=values.__getitem__)  # the first of equal ones
    greatest = max(leaves, key=values.__getitem__)
    found = tree_leaf_bounds(tree)
    assert found == (tree.number(least), tree.number(greatest))
    assert [type(v) for v in found] == [type(tree.number(least)), type(tree.number(greatest))]


def test_a_game_on_demand_has_no_leaf_bounds_from_its_entries() -> None:
    """Searched on demand, not every entry is known: the bounds are the game's own (mcts)."""
    tree = open_source("game:connect4", on_demand=True)
    assert tree.on_demand and tree.leaf_extremes() is None  # type: ignore[attr-defined]


# -- the built-in games -------------------------------------------------------------------------
def test_tictactoe_counts() -> None:
    tree = open_source("game:tictactoe")
    assert (len(tree.end), tree.n_leaves) == (549_946, 255_168)
    counts = {a: search(tree, a).leaves for a in ("alphabeta", "f1", "sss", "dual")}
    assert counts == {"alphabeta": 7330, "f1": 12352, "sss": 7153, "dual": 6792}
    r = search(tree, "alphabeta")
    assert r.value == 0 and r.pv_labels[:2] == ("1", "5")


def test_tictactoe_is_the_scripts_tree() -> None:
    """The first 25,000 nodes in preorder: the same names, leaves and values as the script's."""
    spec = importlib.util.spec_from_file_location("gen_ttt", ROOT / "scripts" / "gen_tictactoe.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    tree = open_source("game:tictactoe")
    assert isinstance(tree, GameTree)
    n = 0
    for ev in islice(script.events(), 40_000):
        if ev[0] == "close":
            continue
        assert tree.names.get(n) == ev[1], n
        if ev[0] == "leaf":
            assert tree.end[n] == n + 1 and tree.values[n] == ev[2], n
        else:
            assert tree.end[n] > n + 1
        n += 1
    assert n > 25_000


def test_nim() -> None:
    for heap in range(0, 9):
        tree = open_source(f"game:nim:{heap}")
        r = search(tree, "alphabeta")
        if heap == 0:
            assert (len(tree.end), r.value) == (1, 0)
        else:
            assert r.value == (-1 if heap % 4 == 0 else 1), heap
    r = search(open_source("game:nim:5"), "alphabeta")
    assert r.pv_labels[0] == "take 1"


# -- a user's game ------------------------------------------------------------------------------
def example_game() -> str:
    """The example game of docs/sources.md, as the page shows it."""
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    start = text.index("```python\n") + len("```python\n")
    return text[start : text.index("```", start)]


def test_the_docs_example_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "takeaway.py").write_text(example_game(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    runner = CliRunner()
    r = runner.invoke(cli, ["eval", "game:takeaway:TakeAway", "--format", "csv"])
    assert r.exit_code == 0, r.output
    game = open_source("game:takeaway:TakeAway")
    flat = whole(game)
    same_results(game, flat)
    r = runner.invoke(cli, ["convert", "game:takeaway:TakeAway", "--to", "json"])
    assert r.exit_code == 0 and r.output.startswith("{")


BROKEN = {
    "raises": (
        "def moves(self, s):\n        return [1] if s < 2 else 1 / 0",
        "game:broken:Game: moves() raised ZeroDivisionError: division by zero (",
    ),
    "not_a_sequence": (
        "def moves(self, s):\n        return {1: 2} if s == 0 else []",
        "moves() must return a sequence (a list or a tuple), got dict",
    ),
    "bad_utility": (
        "def moves(self, s):\n        return []\n    def utility(self, s):\n        return 'win'",
        "utility() must return a finite number, got 'win'",
    ),
    "same_labels": (
        "def moves(self, s):\n        return [1, 2] if s == 0 else []\n"
        "    def label(self, s, m):\n        return 'x'",
        "label() gives two moves the same name",
    ),
    "unhashable": (
        "def initial(self):\n        return [0]",
        "states must be hashable",
    ),
    "cycle": (
        "def moves(self, s):\n        return [1]\n    def play(self, s, m):\n        return s",
        "the game does not end",
    ),
    "play_raises": (
        "def moves(self, s):\n        return [1] if s == 0 else []\n"
        "    def play(self, s, m):\n        raise KeyError(m)",
        "game:broken:Game: play() raised KeyError: 1 (",
    ),
    "label_not_text": (
        "def moves(self, s):\n        return [1] if s == 0 else []\n"
        "    def label(self, s, m):\n        return 7",
        "label() must return a str, got 7",
    ),
    "unhashable_child": (
        "def moves(self, s):\n        return [1] if s == 0 else []\n"
        "    def play(self, s, m):\n        return [s]",
        "states must be hashable (tuples, not lists), got list",
    ),
    "bad_root": ("root = 'both'", "root must be 'max' or 'min', got 'both'"),
    "moves_not_a_list": (
        "def moves(self, s):\n        return 'ab' if s == 0 else []",
        "moves() must return a sequence (a list or a tuple), got str",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_games(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    method, message = BROKEN[case]
    body = textwrap.dedent(
        """\
        class Game:
            def initial(self):
                return 0
            def play(self, s, m):
                return s + m
            def utility(self, s):
                return 1
            def moves(self, s):
                return []
        """
    )
    # the case's methods come last: they replace the defaults
    body += "    " + method + "\n"
    (tmp_path / "broken.py").write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "broken", raising=False)
    with pytest.raises(GtsearchError) as info:
        search(open_source("game:broken:Game"), "alphabeta")
    assert message in str(info.value)
    if case == "raises":
        assert "broken.py:" in str(info.value)
    monkeypatch.delitem(__import__("sys").modules, "broken", raising=False)
    r = CliRunner().invoke(cli, ["eval", "game:broken:Game"])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("game:chess", "no such built-in game"),
        ("game:nim:x", "game:nim:x: bad number heap='x' (heap is an integer of at least 0)"),
        ("game:no_such_module_here:G", "cannot import module 'no_such_module_here'"),
        ("game:json:Nope", "module json has no attribute 'Nope'"),
        ("game:json:JSONDecoder", "the game has no method initial()"),
        ("game:tictactoe:3", "game:tictactoe:3: the game takes no parameters, got '3'"),
        ("game:nim:-1", "game:nim:-1: heap must be an integer of at least 0, got -1"),
    ],
)
def test_bad_game_specs(spec: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", spec])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_huge_games_are_refused_while_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's distinct states are counted before a search that needs them (sss): at most
    --max-nodes and MAX_STATES of them, then one line and exit 2 (nim:1000000000 would count
    for hours); a search on demand (alpha-beta) counts nothing and stops at --max-nodes.  (Every
    search of gtsearch's runs on demand: sss stands for one added without a walk of children.)"""
    from gtsearch.sources import ondemand

    monkeypatch.setattr(ondemand, "ON_DEMAND_ALGORITHMS", ondemand.ON_DEMAND_ALGORITHMS - {"sss"})
    runner = CliRunner()
    r = runner.invoke(cli, ["eval", "game:nim:30", "-a", "sss", "--max-nodes", "10"])
    assert r.exit_code == 2 and "more than 10 distinct states" in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    r = runner.invoke(cli, ["eval", "game:nim:30", "--max-nodes", "10"])
    assert r.exit_code == 2 and r.output == (
        "game:nim:30: the search visited more than --max-nodes 10 nodes; raise --max-nodes\n"
    )
    monkeypatch.setattr(games, "MAX_STATES", 1000)
    r = runner.invoke(cli, ["eval", "game:nim:1000000000", "-a", "sss"])
    assert r.exit_code == 2 and "more than 1,000 distinct states" in r.output


def test_a_game_without_moves_is_one_node() -> None:
    game = GameTree(Game(Wrapped(7), "game:one"), source="game:one")
    assert len(game.end) == 1 and search(game, "alphabeta").value == 7


def test_depth_uses_estimate_and_names_are_the_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "takeaway.py").write_text(example_game(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = open_source("game:takeaway:TakeAway")
    flat = whole(game)
    assert flat.names[2] == "take 1"  # the move labels, as the game searched lazily gives them
    r = CliRunner().invoke(cli, ["convert", "game:takeaway:TakeAway", "--to", "sexp"])
    # a file's names differ among siblings only: the move labels, as the game gives them
    assert r.exit_code == 0 and '("take 1" ' in r.output and "/" not in r.output
    assert loads_tree(r.output, "sexp").n_leaves == flat.n_leaves
    for limit in (1, 2, 3):
        cut = game.truncated(limit)
        expected = search(unique_names(flat).truncated(limit), "alphabeta")
        assert search(cut, "alphabeta").value == expected.value
        assert cut.max_depth() == limit
    with pytest.raises(GtsearchError, match="--depth needs the game's estimate"):
        open_source("game:tictactoe").truncated(2)


def test_a_game_computed_on_demand_reads_like_its_tree() -> None:
    """The lazy game tree's arrays (end, values, floats, depth) and names are views computed
    on demand: indexed, sliced, negative, iterated and out of range as the flat tree's are."""
    nested = [[3, 12.0, 8], [2, [4, 6]], 14]
    with core.pure():
        game = GameTree(Game(Wrapped(nested), "game:test"), source="game:test")
    flat = labelled(nested, True)
    assert game.lazy
    n = len(flat.end)
    for view, flat_view in ((game.end, flat.end), (game.values, flat.values)):
        want = list(map(repr, flat_view))  # inner nodes' values are NaN
        assert len(view) == n and list(map(repr, view)) == want
        assert repr(view[-1]) == want[-1]
        assert list(map(repr, view[2:7:2])) == want[2:7:2]
        assert list(map(repr, view[::-1])) == want[::-1]
        with pytest.raises(IndexError):
            view[n]
        with pytest.raises(IndexError):
            view[-n - 1]
    assert game.floats is not None and list(game.floats) == [
        1 if n == flat.node_at((0, 1)) else 0 for n in range(len(flat.end))
    ]
    assert list(game.depth) == [len(flat.path_of(k)) for k in range(n)]
    assert [game.names.get(k) for k in range(n)] == [flat.names.get(k) for k in range(n)]
    assert game.names[1] == "m0" and len(game.names) == 1 and list(game.names) == []
    with pytest.raises(KeyError):
        game.names[0]  # the root has no label


def test_unique_names_tells_siblings_apart() -> None:
    """A game that gives two moves of one position the same label is written to a file with
    the repeats numbered among those siblings, as the .efg reader numbers Gambit's repeated
    labels (x_1, x_2); names repeated only across other nodes stay as they are, and a label
    with no room left for its number is dropped (a file's name has 1000 characters at most)."""
    shape = Tree.from_nested([[1, 2], [3, 4]])
    long = "y" * 1000
    names = {1: "x", 4: "x", 2: "a", 3: "a", 5: "a", 6: long}
    tree = unique_names(Tree(shape.end, shape.values, names=names))
    assert tree.names == {1: "x_1", 4: "x_2", 2: "a_1", 3: "a_2", 5: "a", 6: long}
    assert loads_tree(dump_tree(tree, "json"), "json").names == tree.names  # a file again
    twice = Tree(shape.end, shape.values, names={1: "x", 4: "x", 2: long, 3: long})
    assert unique_names(twice).names == {1: "x_1", 4: "x_2"}
    same = Tree(shape.end, shape.values, names={1: "x", 4: "y", 2: "a", 5: "a"})
    assert unique_names(same) is same


#: tic-tac-toe's PV from the empty board, the moves' own names
TICTACTOE_PV = ["1", "5", "2", "3", "7", "4", "6", "8", "9"]


def cli_output(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_a_games_pv_is_its_moves_everywhere() -> None:
    """Tic-tac-toe's nodes are named as positions, by every square so far (``15``); its PV is
    the moves' own names in eval (text and JSON), solve and play alike, whether the game is
    counted or built whole, and a node keeps its own name."""
    line = " → ".join(TICTACTOE_PV)
    assert json.loads(cli_output("eval", "game:tictactoe"))["pv_labels"] == TICTACTOE_PV
    assert f"│ {line} │" in cli_output("eval", "game:tictactoe", "--format", "table")
    solved = cli_output("solve", "game:tictactoe", "--format", "json")
    assert json.loads(solved)["pv_labels"] == TICTACTOE_PV
    assert f"PV: {line}\n" in cli_output("solve", "game:tictactoe")
    played = cli_output("play", "tictactoe", "--human", "none")
    assert f"MAX (alphabeta) plays 1: value 0, PV {line}, " in played
    tree = open_source("game:tictactoe")
    one = tree.child(0, 0)
    node = tree.child(one, 3)
    assert (tree.names.get(node), tree.line_labels([0, one, node])) == ("15", ("1", "5"))
    # built whole (show, trace): from a position after 1 and 5, the moves from there
    start = GameTree(Game(TicTacToe(), "ttt"), source="ttt", start=0b10000 << 9 | 1)
    built = whole(start)
    assert type(built).__name__ == "CumulativeTree"
    r = search(built, "alphabeta")
    assert r.pv_labels == tuple(TICTACTOE_PV[2:]) == search(start, "alphabeta").pv_labels
    assert built.names.get(built.child(0, 0)) == "2"
    assert built.names.get(built.child(built.child(0, 0), 0)) == "23"


@pytest.mark.slow  # show and trace build the whole game: 549,946 nodes, seconds
def test_show_and_trace_tell_a_games_pv_in_its_moves() -> None:
    line = " → ".join(TICTACTOE_PV)
    shown = cli_output("show", "game:tictactoe")
    assert f"alphabeta: value 0, PV {line}, 7330 of" in shown
    assert "after 15:\n" in shown  # a position keeps its name
    traced = cli_output(
        "trace", "game:tictactoe", "-a", "mcts", "--iterations", "30", "--format", "json"
    )
    decide = [json.loads(t) for t in traced.splitlines() if '"decide"' in t][-1]
    assert len(decide["pv_labels"]) >= 2 and all(len(m) == 1 for m in decide["pv_labels"])


@pytest.mark.parametrize("collecting", [True, False])
def test_counting_leaves_the_cycle_collector_as_it_was(collecting: bool) -> None:
    """The count pauses Python's cycle collector (its collections walked every entry made so
    far) and gives it back as it found it, after a refusal too, whose entries it frees first."""
    import gc

    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        seen: list[bool] = []

        class Watched(Nim):
            def moves(self, state: tuple[int, bool]) -> list[int]:
                seen.append(gc.isenabled())
                return super().moves(state)

        tree = GameTree(Game(Watched(7), "game:nim:7"), source="game:nim:7")
        assert tree.n_leaves and gc.isenabled() == collecting
        with pytest.raises(games.TooMany) as refused:
            GameTree(Game(Watched(10**9), "game:huge"), source="game:huge", most=1000)
        assert gc.isenabled() == collecting and seen and not any(seen)
        assert "more than 1,000 distinct states" in str(refused.value)
    finally:
        (gc.enable if was else gc.disable)()
