"""Games searched on demand (docs/sources.md, "Games searched on demand"): the same results as
the counted tree where both apply, connect4 and othello searched whole by mcts and iterative
deepening under a limit, and one line for what needs the states counted."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from array import array
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import compiled, search
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.iterative import iterate
from gtsearch.cli import cli
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.sources import open_source, whole
from gtsearch.sources.games import GameTree
from gtsearch.sources.gamespec import load_game
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.protocol import Game, GameError

from .test_play import PROMPT, Terminal

ROOT = Path(__file__).resolve().parent.parent
#: small games (and cuts) whose states are counted in an instant: both trees apply
SMALL = [
    ("tictactoe", None),
    ("nim:7", None),
    ("nim:heap=9,take=2,misere=true", None),
    ("pig:target=4,die=3,horizon=3", None),
    ("dotsandboxes", None),
    ("hexapawn", None),
    ("connect4:rows=3,columns=4,k=3", None),
    ("connect4", 4),
    ("othello", 3),
]
SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("mcts", {"iterations": 300, "seed": 5, "leaf_bounds": 1}),
    ("mcts", {"iterations": 100, "seed": 2, "leaf_bounds": 2, "playout_depth": 2}),
    # tables that lose no entry: the two trees number their positions in other orders (counted,
    # met), so a table that overwrites loses other entries on each (docs/sources.md)
    ("alphabeta", {"tt": 16}),
    ("negascout", {"tt": 16}),
    # the depth-first and chance searches, walked over children lists (no table: exact order)
    ("minimax", {}),
    ("f1", {}),
    ("f1", {"bound": 0}),
    ("alphabeta", {}),
    ("alphabeta", {"alpha": 0, "beta": 1}),
    ("alphabeta", {"variant": "fail-hard"}),
    ("alphabeta", {"variant": "fail-hard", "alpha": -0.5, "beta": 0.5}),
    ("alphabeta", {"variant": "fail-hard", "alpha": 1, "beta": 2}),
    ("expectiminimax", {}),
    ("star1", {"leaf_bounds": 1, "tt": 0}),
    ("star2", {"leaf_bounds": 1, "tt": 0}),
    ("star1", {"leaf_bounds": 1, "tt": 16}),
    ("star2", {"leaf_bounds": 2, "tt": 16}),
]
#: the searches that take chance nodes (the others are refused on a tree that has some)
CHANCE = {"mcts", "expectiminimax", "star1", "star2"}


#: the searches that walk children() and the leaf test on demand, without a table (and the MT
#: family with one): every bound on each side of some game's value, and at it
WALKS: list[tuple[str, dict[str, Any]]] = [
    ("negascout", {}),
    ("scout", {}),
    ("sss", {}),
    ("sss-bounded", {"bound": 0}),
    ("sss-bounded", {"bound": 0.5}),
    ("sss-bounded", {"bound": -1}),
    ("dual", {}),
    ("dual-bounded", {"bound": 0}),
    ("dual-bounded", {"bound": -0.5}),
    ("dual-bounded", {"bound": 1}),
    ("mt-sss", {}),
    ("mt-dual", {}),
    ("mtdf", {}),
    ("mtdf", {"bound": 1}),
    ("mtdf", {"bound": -0.25}),
    ("mt-sss", {"tt": 16}),
    ("mtdf", {"tt": 16}),
]


def both(spec: str, depth: int | None) -> tuple[GameTree, OnDemandTree]:
    obj, name = load_game(spec)
    counted = GameTree(Game(obj, name), source=name, limit=depth)
    return counted, OnDemandTree(Game(obj, name), source=name, limit=depth)


def same(a: Any, b: Any) -> None:
    assert (a.value, a.exact, a.bound, a.pv, a.pv_labels, a.leaves, a.leaf_order, a.nodes) == (
        b.value,
        b.exact,
        b.bound,
        b.pv,
        b.pv_labels,
        b.leaves,
        b.leaf_order,
        b.nodes,
    )
    assert a.extra == b.extra
    assert a.extra.get("tt", {}).get("overwrites", 0) == 0


@pytest.mark.parametrize(("spec", "depth"), SMALL)
def test_on_demand_equals_counted(spec: str, depth: int | None) -> None:
    """Value, PV, leaves in order (as paths), every count: as the counted tree gives them."""
    counted, open_ = both(spec, depth)
    for name, params in SEARCHES:
        if counted.has_chance and name not in CHANCE:
            continue
        if name == "mcts" and "playout_depth" in params and not counted.game.has_estimate:
            continue
        if "leaf_bounds" in params:  # the game's bounds (times k): the same on both trees
            k = params["leaf_bounds"]
            params = {**params, "leaf_bounds": tuple(k * b for b in counted.game.obj.bounds)}
        same(
            search(counted, name, leaf_order=True, **params),
            search(open_, name, **params, leaf_order=True),
        )
    assert open_.n_leaves is None and counted.n_leaves > 0


@pytest.mark.parametrize(("spec", "depth"), [s for s in SMALL if not s[0].startswith("pig")])
@pytest.mark.parametrize(("name", "params"), WALKS, ids=lambda x: x if isinstance(x, str) else "")
def test_the_walks_of_children_on_demand_equal_counted(
    spec: str, depth: int | None, name: str, params: dict[str, Any]
) -> None:
    """NegaScout, SCOUT, SSS*, DUAL* (bounded too) and the MT family on a tree numbered as met:
    value, bound, PV, leaves in order (as paths), nodes and every extra figure (open_max,
    passes, re_evaluations, the table's) as on the counted tree (searched by the compiled
    core where it runs, by the preorder walks under GTSEARCH_PURE=1)."""
    counted, open_ = both(spec, depth)
    a = search(counted, name, leaf_order=True, **params)
    b = search(open_, name, leaf_order=True, **params)
    same(a, b)
    assert b.leaves > 0 and len(open_.keys) <= len(counted.end)


@settings(max_examples=40, deadline=None)
@given(
    game=st.one_of(
        st.tuples(  # cut or not (connect4 has an estimate)
            st.builds(
                "connect4:rows={},columns={},k={}".format,
                st.integers(1, 3),
                st.integers(1, 4),
                st.integers(2, 3),
            ),
            st.one_of(st.none(), st.integers(1, 6)),
        ),
        st.tuples(
            st.builds(
                "nim:heap={},take={},misere={}".format,
                st.integers(1, 12),
                st.integers(1, 4),
                st.sampled_from(["true", "false"]),
            ),
            st.none(),
        ),
    ),
    walk=st.sampled_from(WALKS),
    bound=st.sampled_from([None, -1, -0.5, 0, 0.5, 1]),
)
def test_the_walks_on_demand_equal_counted_on_small_games(
    game: tuple[str, int | None], walk: tuple[str, dict[str, Any]], bound: float | None
) -> None:
    counted, open_ = both(*game)
    name, params = walk
    if "bound" in params and bound is not None:
        params = {**params, "bound": bound}
    same(
        search(counted, name, leaf_order=True, **params),
        search(open_, name, leaf_order=True, **params),
    )


class Nested:
    """A game over a tree written as nested lists (an int is a leaf worth it): its state is
    the path to a node, so the counted tree and the one numbered as met are the same tree."""

    bounds = (-2, 2)

    def __init__(self, tree: Any) -> None:
        self.tree = tree

    def initial(self) -> tuple[int, ...]:
        return ()

    def at(self, s: tuple[int, ...]) -> Any:
        t = self.tree
        for i in s:
            t = t[i]
        return t

    def moves(self, s: tuple[int, ...]) -> list[int]:
        t = self.at(s)
        return list(range(len(t))) if isinstance(t, list) else []

    def play(self, s: tuple[int, ...], m: int) -> tuple[int, ...]:
        return (*s, m)

    def utility(self, s: tuple[int, ...]) -> int:
        return int(self.at(s))


@settings(max_examples=60, deadline=None)
@given(
    tree=st.recursive(
        st.integers(-2, 2), lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40
    ),
    walk=st.sampled_from(WALKS),
    bound=st.sampled_from([None, -2, -1, 0, 1, 2]),
)
def test_the_walks_on_demand_equal_counted_on_trees_with_ties(
    tree: Any, walk: tuple[str, dict[str, Any]], bound: float | None
) -> None:
    """Random trees with few values (ties everywhere: SSS*'s OPEN list takes the leftmost of
    equal states, and purges below a solved MAX node by paths on demand), a leaf at the root
    and forced moves (a node with one child) among them."""
    game = Game(Nested(tree), "game:nested")
    counted = GameTree(game, source="game:nested")
    open_ = OnDemandTree(Game(Nested(tree), "game:nested"), source="game:nested")
    name, params = walk
    if "bound" in params and bound is not None:
        params = {**params, "bound": bound}
    same(
        search(counted, name, leaf_order=True, **params),
        search(open_, name, leaf_order=True, **params),
    )


#: a game that comes back to its first state after 40 moves, whichever is played: it never ends
ENDLESS = """class Game:
    bounds = (-1, 1)

    def initial(self):
        return 0

    def moves(self, s):
        return [0, 1]

    def play(self, s, m):
        return (s + 1 + m) % 40

    def utility(self, s):
        return 0
"""


@pytest.mark.parametrize("name", sorted({w[0] for w in WALKS}) + ["mt-sss --tt 1", "mcts"])
def test_a_game_that_never_ends_is_one_line_on_demand(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Searched on demand (nothing counted first): the state that comes back is found as the
    search lists it, one line, exit 2; and in the library, a GameError."""
    (tmp_path / "endless.py").write_text(ENDLESS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "endless", raising=False)
    args = ["eval", "game:endless:Game", "-a", *name.split()]
    if "bounded" in name:
        args += ["--bound", "0"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    assert "game:endless:Game: the game does not end: state " in r.output
    tree = open_source("game:endless:Game", on_demand=True)
    assert isinstance(tree, OnDemandTree)
    params = {"bound": 0} if "bounded" in name else {"tt": 1} if "--tt" in name else {}
    with pytest.raises(GameError, match="the game does not end"):
        search(tree, name.split()[0], **params)


def too_big_for_c(source: str, rules: str) -> list[str]:
    """What a search under the C core says once on standard error of a game whose parameters
    its rules in C cannot hold (gamerules.rules_of): the Python rules run."""
    if core.native() is None:
        return []
    return [
        f"note: {source}: too big for the C core's rules of {rules} "
        '(docs/core.md, "Games in C"): the Python rules run'
    ]


@pytest.mark.parametrize("name", ["scout", "sss", "dual", "mtdf"])
def test_a_game_too_deep_stops_at_max_nodes_on_demand(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """nim with a heap of 10**21: every line is longer than any --max-nodes; one line, exit 2
    (after the note, under the C core, that its C rules cannot hold the heap)."""
    from gtsearch.sources import gamerules

    monkeypatch.setattr(gamerules, "_said", set())  # said once a process: this one afresh
    heap = "1" + "0" * 21
    r = CliRunner().invoke(cli, ["eval", f"game:nim:{heap}", "-a", name, "--max-nodes", "3000"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert r.output.strip().splitlines()[-1] == (
        f"game:nim:{heap}: the search visited more than --max-nodes 3,000 nodes; raise --max-nodes"
    )
    # said where a search in C over the rules was asked for (every one of these)
    assert r.output.strip().splitlines()[:-1] == too_big_for_c(f"game:nim:{heap}", "nim")


@pytest.mark.parametrize(
    ("spec", "depth"), [("tictactoe", None), ("pig:target=4,die=3,horizon=3", None)]
)
def test_star_takes_a_table_by_default_on_demand(spec: str, depth: int | None) -> None:
    """Star1 and Star2 on a game take a table by default on demand too: one whose buckets
    outnumber twice --max-nodes (each position key is a node's), so it loses no entry and
    they evaluate what they evaluate on the counted game with its own default table; only
    the table's size differs.  Without --leaf-bounds the bounds are the game's."""
    counted, open_ = both(spec, depth)
    bounds = counted.game.obj.bounds
    for name in ("star1", "star2"):
        a = search(counted, name, leaf_order=True, leaf_bounds=bounds)
        b = search(open_, name, leaf_order=True)
        assert b.params["leaf_bounds_from"] == "game" and b.params["tt_from"] == "game"
        assert b.params["tt"] == -(-2 * open_.max_nodes // 16384)
        size = ("mib", "entries")
        a_tt = {k: v for k, v in a.extra.pop("tt").items() if k not in size}
        b_tt = {k: v for k, v in b.extra.pop("tt").items() if k not in size}
        assert a_tt == b_tt and b_tt["overwrites"] == 0
        same(a, b)
        assert b.leaves <= search(open_, "expectiminimax").leaves


def test_the_depth_first_walk_on_demand_is_not_recursive() -> None:
    """A line 50,000 deep (far beyond Python's recursion limit): minimax, alpha-beta and
    expectiminimax walk it on demand, as on the counted tree."""
    deep = 50_000
    edges = [[s + 1] for s in range(deep)] + [[]]
    for name in ("minimax", "alphabeta", "expectiminimax", "star1"):
        tree = OnDemandTree(Game(Graph(edges, False), "game:line"), source="game:line")
        r = search(tree, name)
        assert (r.value, r.leaves, len(r.pv)) == (Graph(edges, False).utility(deep), 1, deep)
        assert r.nodes == deep + 1


def test_star1_on_demand_needs_bounds_from_the_game_or_the_option() -> None:
    class Dice:
        def initial(self) -> int:
            return 0

        def player(self, state: int) -> str | None:
            return "chance" if state == 0 else None

        def outcomes(self, state: int) -> list[tuple[int, Fraction]]:
            return [(1, Fraction(1, 2)), (2, Fraction(1, 2))]

        def moves(self, state: int) -> list[int]:
            return []

        def play(self, state: int, move: int) -> int:
            return move

        def utility(self, state: int) -> int:
            return state

    tree = OnDemandTree(Game(Dice(), "game:dice"), source="game:dice")
    for name in ("star1", "star2"):
        with pytest.raises(UsageError, match="star1 and star2 need --leaf-bounds L:U"):
            search(tree, name)
        assert search(tree, name, leaf_bounds=(1, 2)).value == 1.5
    assert search(tree, "expectiminimax").value == 1.5


@pytest.mark.parametrize("pure", [False, True])
def test_eval_of_a_game_counts_nothing_first(pure: bool, tmp_path: Path) -> None:
    """eval of the whole connect4 by alpha-beta at a depth, and a star1 of a game without
    bounds: searched from the start, one line for what cannot run; both cores."""
    env = {"GTSEARCH_PURE": "1"} if pure else {}
    runner = CliRunner(env=env)
    r = runner.invoke(
        cli,
        ["eval", "game:connect4", "-a", "minimax,f1,alphabeta", "--depth", "2", "--format", "json"],
    )
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.output.splitlines()]
    assert [x["leaves_total"] for x in recs] == [None] * 3
    assert [x["leaves"] for x in recs][0] == 49 and len({x["value"] for x in recs}) == 1
    r = runner.invoke(
        cli, ["eval", "game:connect4", "-a", "sss,dual", "--depth", "2", "--format", "json"]
    )
    assert r.exit_code == 0, r.output
    assert [json.loads(line)["leaves_total"] for line in r.output.splitlines()] == [None] * 2
    (tmp_path / "endless.py").write_text(
        "class Endless:\n"
        "    def initial(self): return 0\n"
        "    def moves(self, s): return [0, 1]\n"
        "    def play(self, s, m): return (s + m) % 3\n"
        "    def utility(self, s): return s\n"
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(tmp_path))
        mp.delitem(sys.modules, "endless", raising=False)  # another test's endless.py
        for algo in ("minimax", "f1", "alphabeta", "expectiminimax", "star1", "star2"):
            bounds = ["--leaf-bounds", "0:2"] if algo.startswith("star") else []
            r = runner.invoke(cli, ["eval", "game:endless:Endless", "-a", algo, *bounds])
            assert r.exit_code == 2, r.output
            assert r.output.strip().splitlines() == [
                "game:endless:Endless: the game does not end: state 0 comes back along a line "
                "of play"
            ]
        r = runner.invoke(cli, ["eval", "game:endless:Endless", "-a", "star1"])
        assert r.exit_code == 2 and r.output.strip().splitlines() == [
            "game:endless:Endless: searched on demand, the game's leaves are not known: mcts, "
            "star1 and star2 need --leaf-bounds L:U (the least and the greatest utility), or "
            "the game's bounds"
        ]


@pytest.mark.parametrize("spec", ["dotsandboxes", "hexapawn", "connect4:rows=3,columns=4,k=3"])
def test_iterative_deepening_on_demand_equals_counted(spec: str) -> None:
    counted, open_ = both(spec, None)
    a, b = iterate(counted, 16), iterate(open_, 16)
    assert len(a) == len(b) == counted.max_depth()  # the last iteration reaches every end
    for x, y in zip(a, b, strict=True):
        same(x._replace(leaves_total=0), y._replace(leaves_total=0))


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(1, 3),
    columns=st.integers(1, 4),
    k=st.integers(2, 3),
    depth=st.one_of(st.none(), st.integers(1, 6)),
    seed=st.integers(0, 99),
)
def test_on_demand_equals_counted_on_small_boards(
    rows: int, columns: int, k: int, depth: int | None, seed: int
) -> None:
    counted, open_ = both(f"connect4:rows={rows},columns={columns},k={k}", depth)
    for name, params in (
        ("mcts", {"iterations": 50, "seed": seed, "leaf_bounds": (-1, 1)}),
        # a table that loses nothing (the two trees put positions in other buckets): at
        # most about 600 stores here, in 64 MiB
        ("alphabeta", {"tt": 64}),
        ("minimax", {}),
        ("f1", {"bound": seed % 3 - 1}),
        ("alphabeta", {"alpha": seed % 3 - 2, "beta": seed % 3}),
        ("alphabeta", {"variant": "fail-hard", "alpha": seed % 3 - 2, "beta": seed % 3 - 1}),
        ("star2", {"leaf_bounds": (-1, 1), "tt": 0}),
    ):
        a = search(counted, name, leaf_order=True, **params)
        same(a, search(open_, name, leaf_order=True, **params))


class Drawn:
    """A game drawn by hypothesis: a state is the path to it in ``shape``, where a node is a
    leaf's value or (who moves: "max", "min" or "chance", its children)."""

    bounds = (-3, 3)

    def __init__(self, shape: Any) -> None:
        self.shape = shape

    def at(self, s: tuple[int, ...]) -> Any:
        node = self.shape
        for i in s:
            node = node[1][i]
        return node

    def initial(self) -> tuple[int, ...]:
        return ()

    def player(self, s: tuple[int, ...]) -> str | None:
        node = self.at(s)
        return None if isinstance(node, int) else str(node[0])

    def moves(self, s: tuple[int, ...]) -> list[int]:
        node = self.at(s)
        return [] if isinstance(node, int) else list(range(len(node[1])))

    def play(self, s: tuple[int, ...], m: int) -> tuple[int, ...]:
        return (*s, m)

    def utility(self, s: tuple[int, ...]) -> int:
        return int(self.at(s))


class DrawnWithChance(Drawn):
    """A drawn game that may have chance nodes (searched on demand, one that has outcomes() is
    taken to have some: only the searches of chance nodes run on it)."""

    def outcomes(self, s: tuple[int, ...]) -> list[tuple[int, Fraction]]:
        kids = self.at(s)[1]
        weights = [1 + i % 2 for i in range(len(kids))]
        return [(i, Fraction(w, sum(weights))) for i, w in enumerate(weights)]


SHAPES = st.recursive(
    st.integers(-3, 3),
    lambda kids: st.tuples(
        st.sampled_from(["max", "min", "chance"]), st.lists(kids, min_size=1, max_size=3)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(shape=SHAPES, lo=st.integers(-3, 2))
def test_on_demand_equals_counted_on_drawn_games_with_chance(shape: Any, lo: int) -> None:
    """Every search of the slice on small drawn games (chance nodes and players moving twice
    included): the same as on the counted game."""
    game = (DrawnWithChance if "chance" in repr(shape) else Drawn)(shape)
    counted = GameTree(Game(game, "game:drawn"), source="game:drawn")
    open_ = OnDemandTree(Game(game, "game:drawn"), source="game:drawn")
    names: list[tuple[str, dict[str, Any]]] = [
        ("expectiminimax", {}),
        ("star1", {"leaf_bounds": (-3, 3), "tt": 0}),
        ("star2", {"leaf_bounds": (-3, 3), "tt": 0}),
        ("star2", {"leaf_bounds": (-3, 3), "tt": 4}),
        ("mcts", {"leaf_bounds": (-3, 3), "iterations": 60, "seed": lo}),
    ]
    if not counted.has_chance:
        names += [
            ("minimax", {}),
            ("f1", {"bound": lo}),
            ("alphabeta", {"alpha": lo, "beta": lo + 1}),
            ("alphabeta", {"variant": "fail-hard", "alpha": lo, "beta": lo + 2}),
        ]
    else:
        with pytest.raises(UsageError, match="the tree has chance nodes"):
            search(open_, "alphabeta")
    for name, params in names:
        same(
            search(counted, name, leaf_order=True, **params),
            search(open_, name, leaf_order=True, **params),
        )


def test_connect4_searched_whole_by_mcts_reproducibly() -> None:
    """The full game (4,531,985,219,092 positions) by mcts: the same numbers from one seed."""
    runs = [
        search(open_source("game:connect4", on_demand=True), "mcts", iterations=300, seed=3)
        for _ in range(2)
    ]
    assert isinstance(runs[0].tree, OnDemandTree)
    assert runs[0].leaves_total is None and runs[0].leaves == 300
    assert runs[0].params["leaf_bounds_from"] == "game"
    same(runs[0], runs[1])
    assert runs[0].pv and runs[0].pv_labels[0] == str(runs[0].pv[0] + 1)
    # a notebook's table of it: the leaves not counted are "?" (was a TypeError)
    from gtsearch.render.notebook import result_table

    assert "300 of ? evaluated" in result_table(runs[0])


def test_othello_searched_whole_by_iterative_deepening() -> None:
    """Othello 6x6, too big to count, deepened to depth 4: the same results each time."""
    first, again = (
        iterate(open_source("game:othello:rows=6,columns=6", on_demand=True), 1, max_depth=4)
        for _ in range(2)
    )
    assert [r.params["iteration"] for r in first] == [1, 2, 3, 4]
    for x, y in zip(first, again, strict=True):
        same(x, y)
    assert first[0].pv_labels[0] in ("c2", "b3", "e4", "d5")


def test_eval_of_a_huge_game_on_demand() -> None:
    runner = CliRunner()
    r = runner.invoke(
        cli, ["eval", "game:connect4", "-a", "mcts", "--iterations", "50", "--format", "csv"]
    )
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[1].split(",")[8] == ""  # leaves_total: not counted
    r = runner.invoke(cli, ["compare", "game:connect4", "-a", "mcts", "--iterations", "20"])
    assert r.exit_code == 0 and '"leaves_total": null' in r.output and '"share": null' in r.output
    r = runner.invoke(cli, ["eval", "game:connect4", "--iterative", "--time", "30", "--depth", "3"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(
        cli, ["eval", "game:connect4", "-a", "alphabeta", "--tt", "1", "--max-nodes", "2000"]
    )
    assert r.exit_code == 2 and "visited more than --max-nodes 2,000 nodes" in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_max_nodes_ends_the_deepening_on_demand_as_time_does() -> None:
    """eval --iterative on a game searched on demand: the depth that would pass --max-nodes is
    dropped, the depths before it are printed (the last marked), one line on stderr, exit 0;
    when not even depth 1 fits, the error of --max-nodes."""
    tree = open_source("game:connect4", on_demand=True, max_nodes=2000)
    found = iterate(tree, 1)
    whole = iterate(open_source("game:connect4", on_demand=True), 1, max_depth=len(found))
    assert [r.params["iteration"] for r in found] == list(range(1, len(found) + 1))
    assert found[-1].extra["stopped"] == "max_nodes" and len(found) >= 3
    assert all("stopped" not in r.extra for r in found[:-1])
    for x, y in zip(found, whole, strict=True):  # the same depths as without the budget
        assert (x.value, x.pv, x.leaves, x.nodes) == (y.value, y.pv, y.leaves, y.nodes)
    r = CliRunner().invoke(
        cli, ["eval", "game:connect4", "--iterative", "--max-nodes", "2000", "--format", "json"]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    stop = f"depth {len(found) + 1} would number more than --max-nodes 2,000 nodes"
    assert stop in lines[0] and f"stops at depth {len(found)}" in lines[0]
    assert len(lines) == 1 + len(found) and '"stopped": "max_nodes"' in lines[-1]
    r = CliRunner().invoke(cli, ["eval", "game:connect4", "--iterative", "--max-nodes", "5"])
    assert r.exit_code == 2 and "visited more than --max-nodes 5 nodes" in r.output
    with pytest.raises(NodeLimit):
        iterate(open_source("game:connect4", on_demand=True, max_nodes=5), 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-a", "sss"], "search it on demand (-a alphabeta, minimax, mcts, ...: docs/sources.md)"),
        (["-a", "mcts,sss"], "distinct states"),
        (["-a", "alphabeta,sss", "--depth", "6"], "distinct states"),
    ],
)
def test_what_needs_the_states_counted_is_refused(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search that does not run on demand (none of gtsearch's does now: sss stands for one
    added without a walk of children lists) counts the game first, bounded."""
    from gtsearch.sources import games, ondemand

    monkeypatch.setattr(games, "MAX_STATES", 2000)
    monkeypatch.setattr(ondemand, "ON_DEMAND_ALGORITHMS", ondemand.ON_DEMAND_ALGORITHMS - {"sss"})
    r = CliRunner().invoke(cli, ["eval", "game:connect4", *args])
    assert r.exit_code == 2 and message in r.output, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_a_search_that_needs_preorder_numbers_stops_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search of the library's that needs preorder numbers stops with one line; the whole
    tree is counted first, bounded as every count is."""
    from gtsearch.sources import games

    tree = open_source("game:connect4", on_demand=True)
    with pytest.raises(UsageError, match="needs its nodes in preorder"):
        _ = tree.end[0] + 1  # the first child of node 0 in preorder
    with pytest.raises(UsageError, match="needs its nodes in preorder"):
        _ = tree.end[0] < 3
    monkeypatch.setattr(games, "MAX_STATES", 2000)
    with pytest.raises(NodeLimit, match="more than 2,000 distinct states"):
        whole(tree)
    small = open_source("game:nim:5", on_demand=True)
    assert isinstance(small, OnDemandTree)
    counted = open_source("game:nim:5")
    a, b = whole(small), whole(counted)
    assert (list(a.end), repr(list(a.values))) == (list(b.end), repr(list(b.values)))


def test_mcts_needs_bounds_from_the_game_or_the_option() -> None:
    class Endless:
        def initial(self) -> int:
            return 0

        def moves(self, state: int) -> list[int]:
            return [1, 2] if state < 40 else []

        def play(self, state: int, move: int) -> int:
            return state + move

        def utility(self, state: int) -> int:
            return state % 3 - 1

    tree = OnDemandTree(Game(Endless(), "game:endless"), source="game:endless")
    with pytest.raises(UsageError, match="mcts, star1 and star2 need --leaf-bounds L:U"):
        search(tree, "mcts", iterations=10)
    assert search(tree, "mcts", iterations=10, leaf_bounds=(-1, 1)).leaves == 10
    tree = OnDemandTree(Game(Endless(), "game:endless"), source="game:endless", max_nodes=100)
    with pytest.raises(NodeLimit, match="more than --max-nodes 100 nodes"):
        search(tree, "mcts", iterations=1000, leaf_bounds=(-1, 1))


def test_interrupt_ends_cleanly() -> None:
    """Ctrl-C during mcts on the full connect4: 'interrupted', status 130, no traceback.

    The child takes Python's own SIGINT handler first, as in a terminal: a process started
    with SIGINT ignored (this suite run from a background job, say) hands that on, and Python
    then never turns SIGINT into KeyboardInterrupt."""
    child = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from gtsearch.cli import cli; print('ready', file=sys.stderr, flush=True); "
        "cli(sys.argv[1:], prog_name='gtsearch')"
    )
    argv = ["eval", "game:connect4", "-a", "mcts", "--time", "60"]
    proc = subprocess.Popen(
        [sys.executable, "-c", child, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    try:
        # the handler is in place once the child says so (a SIGINT before it, on a loaded
        # machine, would be ignored as the child inherited it); then the search starts
        assert proc.stderr is not None and proc.stderr.readline() == "ready\n"
        time.sleep(2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_play_the_full_connect4_against_mcts_in_a_terminal(tmp_path: Path) -> None:
    """``play connect4`` without --depth: mcts searches the full game on demand, move after
    move, through a real pseudo-terminal; a person quits after three moves."""
    term = Terminal(["connect4", "-a", "mcts", "--iterations", "40", "--seed", "1"], tmp_path)
    out = term.read_until(PROMPT)
    assert out.startswith("Connect Four on 6 rows and 7 columns, 4 in a line\n")
    for move in ("4", "4", "3"):
        term.type(move)
        out = term.read_until(PROMPT, timeout=120)
        assert "MIN (mcts) plays " in out and " leaves, " in out and " of " not in out, out
    term.type("q")
    assert "quit" in term.read_until("quit\n")
    assert term.close() == 0


def test_play_refuses_to_count_a_huge_game_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that searches a game's states counted (sss) is refused after the count; one
    that searches on demand (alpha-beta) counts nothing and stops at --max-nodes."""
    from gtsearch.sources import games, ondemand

    monkeypatch.setattr(games, "MAX_STATES", 2000)
    monkeypatch.setattr(ondemand, "ON_DEMAND_ALGORITHMS", ondemand.ON_DEMAND_ALGORITHMS - {"sss"})
    r = CliRunner().invoke(cli, ["play", "connect4", "--human", "none", "-a", "sss"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1] == (
        "game:connect4: more than 2,000 distinct states, and sss searches a game's states "
        "counted: give the engine --time SECONDS (deepening) or --depth, or play with -a mcts"
    )
    r = CliRunner().invoke(cli, ["play", "connect4", "--human", "none", "--max-nodes", "3000"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1] == (
        "game:connect4: the search visited more than --max-nodes 3,000 nodes; raise --max-nodes"
    )


class Coin:
    """A coin (heads 1/10) and then MAX picks a or b: a chance node that is not uniform."""

    bounds = (0, 5)

    def initial(self) -> tuple[str, int]:
        return ("coin", 0)

    def player(self, state: tuple[str, int]) -> str | None:
        return {"coin": "chance", "move": "max"}.get(state[0])

    def outcomes(self, state: tuple[str, int]) -> list[tuple[str, Fraction]]:
        return [("heads", Fraction(1, 10)), ("tails", Fraction(9, 10))]

    def moves(self, state: tuple[str, int]) -> list[str]:
        return ["a", "b"] if state[0] == "move" else []

    def play(self, state: tuple[str, int], move: str) -> tuple[str, int]:
        if state[0] == "coin":
            return ("move", 1 if move == "heads" else 0)
        return ("end", state[1] * 10 + (move == "a"))

    def utility(self, state: tuple[str, int]) -> int:
        return {0: 0, 1: 1, 10: 5, 11: 2}[state[1]]


def test_mcts_draws_a_games_chance_by_its_weights() -> None:
    """A game's tree computed on demand (the pure core's, and one searched on demand) draws
    chance's outcomes by their weights, as the tree written out does (value 1.4)."""
    with core.pure():
        counted = GameTree(Game(Coin(), "game:coin"), source="game:coin")
        flat = whole(counted)
        results = [
            search(t, "mcts", iterations=2000, seed=1, leaf_bounds=(0, 5))
            for t in (flat, counted, OnDemandTree(Game(Coin(), "game:coin"), source="game:coin"))
        ]
    assert len({(r.value, r.pv, r.nodes) for r in results}) == 1
    assert abs(results[0].value - 1.4) < 0.15


def test_the_on_demand_tree_reads_as_far_as_it_is_numbered() -> None:
    """Its arrays hold the nodes numbered so far (indexed, iterated, out of range as a
    sequence is); children are numbered once; what needs the whole tree refuses."""
    counted, tree = both("nim", None)
    values = tree.values
    assert len(values) == 1 and list(values) == [values[0]]  # the root alone, so far
    kids = tree.kids(0)
    assert kids == list(tree.children(0)) == [tree.child(0, i) for i in range(len(kids))]
    assert len(values) == 1 + len(kids) and list(values)[1:] == [values[k] for k in kids]
    for bad in (len(values), -1, "0"):
        with pytest.raises(IndexError):
            values[bad]
    with pytest.raises(IndexError, match="has no child"):
        tree.child(0, len(kids))
    assert tree.name_at(0) == counted.name_at(0) and tree.max_depth() == 1
    assert tree.chance_nodes() == 0 and tree.with_root(tree.root_max) is tree
    other = tree.with_root(not tree.root_max)  # on demand too, numbered afresh
    assert isinstance(other, OnDemandTree) and len(other.values) == 1
    same(
        search(counted.with_root(not tree.root_max), "alphabeta", leaf_order=True),
        search(other, "alphabeta", leaf_order=True),
    )
    again = tree.reopened(source=tree.source)  # on demand again: nothing counted
    assert type(again) is OnDemandTree and len(list(again.children(0))) == len(kids)
    assert search(again, "alphabeta").value == search(counted, "alphabeta").value


class Graph:
    """A game on a small graph of states: state s's moves lead to ``edges[s]``, which may come
    back to a state on the line (a game that does not end); with ``turns``, MAX moves from the
    even states and MIN from the odd ones (a player who moves twice: a forced pass between)."""

    bounds = (-1, 1)

    def __init__(self, edges: list[list[int]], turns: bool) -> None:
        self.edges = edges
        if turns:
            self.player = lambda s: None if not edges[s] else "max" if s % 2 == 0 else "min"

    def initial(self) -> int:
        return 0

    def moves(self, s: int) -> list[int]:
        return list(range(len(self.edges[s])))

    def play(self, s: int, m: int) -> int:
        return self.edges[s][m]

    def utility(self, s: int) -> int:
        return s % 3 - 1


def comes_back(tree: OnDemandTree, n: int) -> str | None:
    """The state of the entry nearest to node n, on the line from the root to n, that is also
    one of n's children's entries, walked up to the root as the definition says (None: none)."""
    kids = set(tree.expand(n).kids)
    m = n
    while m >= 0:
        key = tree.keys[m]
        if key in kids:
            return repr(key[1] if tree.general else key)
        m = tree.up[m]
    return None


@settings(max_examples=150, deadline=None)
@given(
    edges=st.integers(1, 7).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, k - 1), max_size=3), min_size=k, max_size=k)
    ),
    turns=st.booleans(),
    picks=st.lists(st.integers(0, 10**6), max_size=40),
)
def test_a_state_that_comes_back_is_found_as_the_walk_to_the_root_finds_it(
    edges: list[list[int]], turns: bool, picks: list[int]
) -> None:
    """Nodes listed in any order (a search jumps from line to line): listing a node's children
    fails exactly when one of their entries is on the line from the root to it, naming the
    nearest such entry, as walking the line up to the root says; else they are numbered."""
    tree = OnDemandTree(Game(Graph(edges, turns), "game:graph"), source="game:graph")
    for pick in picks:
        n = pick % len(tree.keys)
        state = None if tree.first[n] >= 0 else comes_back(tree, n)
        if state is None:
            assert len(tree.kids(n)) == len(tree.expand(n).kids)
            continue
        with pytest.raises(GameError) as e:
            tree.kids(n)
        assert str(e.value) == (
            f"game:graph: the game does not end: state {state} comes back along a line of play"
        )
        return


class Reads(array):  # type: ignore[type-arg]
    """An array('q') that counts the items read from it."""

    reads = 0

    def __getitem__(self, i: Any) -> Any:
        Reads.reads += 1
        return super().__getitem__(i)


def test_listing_a_node_costs_no_more_with_its_depth() -> None:
    """Nodes listed one below the other, 3,000 deep, then mcts's playouts down a heap of 10**21:
    the line check reads each node's parent and depth a bounded number of times per node
    listed (walking each line back to the root read them 4.5 million times for the first)."""
    deep = 3000
    edges = [[s + 1] for s in range(deep)] + [[]]
    tree = OnDemandTree(Game(Graph(edges, False), "game:line"), source="game:line")
    tree.up, tree.depths = Reads("q", tree.up), Reads("q", tree.depths)
    Reads.reads = 0
    n = 0
    for _ in range(deep):
        n = tree.child(n, 0)
    assert tree.depths[n] == deep and Reads.reads <= 10 * deep
    obj, name = load_game("nim:heap=" + "1" + "0" * 21)
    tree = OnDemandTree(Game(obj, name), source=name, max_nodes=30_000)
    tree.up, tree.depths = Reads("q", tree.up), Reads("q", tree.depths)
    Reads.reads = 0
    with pytest.raises(NodeLimit, match="more than --max-nodes 30,000 nodes"):
        search(tree, "mcts", iterations=5, seed=1)
    assert Reads.reads <= 10 * len(tree.keys)


class Met(dict):  # type: ignore[type-arg]
    """A dict that counts the keys its iterators give (from either end)."""

    given = 0

    def __iter__(self) -> Iterator[Any]:
        for key in super().__iter__():
            Met.given += 1
            yield key

    def __reversed__(self) -> Iterator[Any]:
        for key in super().__reversed__():
            Met.given += 1
            yield key


def test_each_position_is_numbered_once_on_demand(monkeypatch: pytest.MonkeyPatch) -> None:
    """alpha-beta with a table on demand numbers each entry met once: the entries read from
    the tree's table of entries stay in proportion to the entries (reading them all again for
    each new position read them 3.8 million times for 5,000 nodes).  The Python search's
    (the compiled core's numbers positions in C: tests/test_tabled_ondemand.py)."""
    monkeypatch.setattr(compiled, "_on_demand", lambda *args: None)
    tree = open_source("game:connect4", on_demand=True, max_nodes=5_000)
    assert isinstance(tree, OnDemandTree)
    tree.info = Met(tree.info)
    Met.given = 0
    with pytest.raises(NodeLimit):
        search(tree, "alphabeta", tt=1)
    numbers = tree.position_numbers()
    assert len(numbers) == len(tree.info) > 1000 and Met.given <= 2 * len(tree.info)
    assert sorted(set(numbers.values())) == list(range(len(set(numbers.values()))))


@pytest.mark.slow
def test_a_line_too_deep_for_max_nodes_answers_in_time() -> None:
    """mcts on nim with a heap of 10**21 (a playout never ends) stops at --max-nodes in a time
    in proportion to it: 500,000 nodes took minutes when each listing walked its line."""
    heap = "1" + "0" * 21
    r = subprocess.run(
        [sys.executable, "-m", "gtsearch", "eval", f"game:nim:{heap}", "-a", "mcts"]
        + ["--iterations", "3", "--max-nodes", "500000"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1] == (
        f"game:nim:{heap}: the search visited more than --max-nodes 500,000 nodes; raise "
        "--max-nodes"
    )
    assert r.stderr.strip().splitlines()[:-1] == too_big_for_c(f"game:nim:{heap}", "nim")


@pytest.mark.parametrize(
    ("spec", "depth"), [("pig:target=4,die=3,horizon=3", None), ("tictactoe", None)]
)
def test_a_depth_first_search_lets_go_of_the_subtrees_it_has_left(
    spec: str, depth: int | None
) -> None:
    """Expectiminimax, minimax and alphabeta without a table keep the entries of the line they
    search, not of every node met; what they report is the counted tree's, and a table search
    after them on the same tree (its entries met again) too."""
    counted, open_ = both(spec, depth)
    first = "expectiminimax" if counted.has_chance else "minimax"
    a = search(counted, first, leaf_order=True)
    b = search(open_, first, leaf_order=True)
    same(a, b)
    kept = sum(1 for e in open_.entries if e is not None)
    assert len(open_.info) < b.nodes // 4 and kept < b.nodes // 4, (len(open_.info), kept)
    later = "star2" if counted.has_chance else "alphabeta"
    params: dict[str, Any] = {"tt": 16}
    if counted.has_chance:
        params["leaf_bounds"] = counted.game.obj.bounds
    x = search(counted, later, leaf_order=True, **params)
    y = search(open_, later, leaf_order=True, **params)
    for r in (x, y):
        r.extra.pop("tt")
    same(x, y)
    same(search(counted, first, leaf_order=True), search(open_, first, leaf_order=True))


class TwoNames:
    """A game whose moves below the first move's second child share one name (with label())."""

    def initial(self) -> tuple[int, ...]:
        return ()

    def moves(self, s: tuple[int, ...]) -> list[int]:
        return [0, 1] if len(s) < 2 else []

    def play(self, s: tuple[int, ...], m: int) -> tuple[int, ...]:
        return (*s, m)

    def utility(self, s: tuple[int, ...]) -> int:
        return 1 if s == (0, 0) else 0

    def label(self, s: tuple[int, ...], m: int) -> str:
        return "same" if s == (1,) else f"m{m}"


def test_a_moves_names_are_checked_when_one_is_used() -> None:
    """The names of a state's moves are asked and checked where one is used (the PV, a
    drawing), not as the search expands the state: off the PV, two moves of one name are not
    read; on it, one line."""
    for tree in (
        OnDemandTree(Game(TwoNames(), "two"), source="two"),
        GameTree(Game(TwoNames(), "two"), source="two"),
    ):
        r = search(tree, "alphabeta")
        assert (r.value, r.pv_labels) == (0, ("m0", "m1"))
        with pytest.raises(GameError, match="label\\(\\) gives two moves the same name: 'same'"):
            tree.move_names([1, 0])


class Plays(Nested):
    """A Nested game that counts its moves played (a playout's included)."""

    played = 0

    def play(self, s: tuple[int, ...], m: int) -> tuple[int, ...]:
        Plays.played += 1
        return (*s, m)


@settings(max_examples=60, deadline=None)
@given(
    tree=st.recursive(
        st.integers(-2, 2), lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40
    ),
    seed=st.integers(0, 2**64 - 1),
    iterations=st.integers(1, 120),
)
def test_mcts_playouts_on_demand_equal_counted(tree: Any, seed: int, iterations: int) -> None:
    """mcts's playouts on demand play only the drawn move, numbering nothing: value, PV, the
    leaves in order (as paths), nodes and every count as on the counted tree, in both cores
    (the counted one searched in C where it runs); a leaf a playout reached, read again once
    the search tree holds it, is one leaf (``distinct_leaves``); the leaves only playouts
    reached are known by their paths, and the nodes numbered are those the selection listed."""
    for pure in (False, True):
        with core.pure() if pure else contextlib.nullcontext():
            counted = GameTree(Game(Nested(tree), "game:nested"), source="game:nested")
            open_ = OnDemandTree(Game(Nested(tree), "game:nested"), source="game:nested")
            params: dict[str, Any] = {"iterations": iterations, "seed": seed}
            params["leaf_bounds"] = (-2, 2)
            a = search(counted, "mcts", leaf_order=True, **params)
            stats = Stats()
            b = search(open_, "mcts", leaf_order=True, stats=stats, **params)
            same(a, b)
            listed = [n for n in range(len(open_.keys)) if open_.first[n] >= 0]
            assert len(listed) <= b.extra["tree_nodes"]
            assert {tuple(open_.path_of(n)) for n in stats.leaves if n < 0} <= set(open_.loose)


def test_a_loose_leaf_read_again_from_the_search_tree_is_one_leaf() -> None:
    """A playout reaches a leaf (not numbered: known by its path), the selection numbers it
    later and ends there: the two readings are of one leaf, under its first number."""
    tree = [[1, 2], [-1, 0]]
    open_ = OnDemandTree(Game(Nested(tree), "game:nested"), source="game:nested")
    stats = Stats()
    r = search(open_, "mcts", iterations=40, seed=1, leaf_bounds=(-2, 2), stats=stats)
    assert min(stats.leaves) < 0 and any(open_.first[n] >= 0 for n in range(1, 3))
    loose = {~i for i in range(len(open_.loose_paths))}
    assert len(loose) == 2 and len(set(stats.leaves)) == 4 and loose < set(stats.leaves)
    assert (r.extra["distinct_leaves"], r.extra["re_evaluations"]) == (4, 36)
    assert sorted(open_.path_of(n) for n in set(stats.leaves)) == [[0, 0], [0, 1], [1, 0], [1, 1]]


def test_a_playout_plays_only_the_drawn_moves() -> None:
    """Each playout move plays one move of the game: play() is called once per playout move
    and per child of a node the selection lists, not for every child of every node passed
    (which listed, numbered and kept them all), and the game's states asked are those."""
    deep: Any = 1
    for _ in range(12):
        deep = [deep, deep, deep, deep]
    Plays.played = 0
    open_ = OnDemandTree(Game(Plays(deep), "game:plays"), source="game:plays")
    r = search(open_, "mcts", iterations=50, seed=3, leaf_bounds=(-2, 2))
    listed = len(open_.keys) - 1  # the children numbered: 4 for each node listed
    assert r.extra["playouts"] == 50 and r.nodes > 500
    assert Plays.played <= listed + r.nodes and listed <= 4 * r.extra["tree_nodes"]
    assert len(open_.info) <= r.extra["tree_nodes"] + 1


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
def test_a_playout_cut_without_a_static_value_on_demand(pure: bool) -> None:
    """--playout-depth on a game without estimate(): the playout stops at a node not numbered
    (it is then, to be named): the counted tree's error, word for word."""
    obj, name = load_game("nim:9")
    errors = []
    with core.pure() if pure else contextlib.nullcontext():
        for tree in (
            GameTree(Game(obj, name), source=name),
            OnDemandTree(Game(obj, name), source=name),
        ):
            with pytest.raises(UsageError) as e:
                search(tree, "mcts", iterations=5, seed=2, playout_depth=2, leaf_bounds=(-1, 1))
            errors.append(str(e.value))
    assert errors[0] == errors[1] and "$[0][" in errors[0] and "no static value" in errors[0]


@settings(max_examples=80, deadline=None)
@given(
    edges=st.integers(1, 7).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, k - 1), max_size=3), min_size=k, max_size=k)
    ),
    turns=st.booleans(),
    seed=st.integers(0, 2**64 - 1),
)
def test_mcts_on_a_graph_that_may_not_end(edges: list[list[int]], turns: bool, seed: int) -> None:
    """mcts's playouts on demand on a game over a small graph, which may come back to a state
    on a line (forced passes too, with ``turns``): where the counted game exists, the same
    search; where it does not end, a GameError naming a state that comes back, or a search
    whose lines never met one (a playout checks the line it plays); nothing else."""
    game = Game(Graph(edges, turns), "game:graph")
    params: dict[str, Any] = {"iterations": 30, "seed": seed, "leaf_bounds": (-1, 1)}
    try:
        counted = GameTree(game, source="game:graph")
    except GameError:
        counted = None
    open_ = OnDemandTree(Game(Graph(edges, turns), "game:graph"), source="game:graph")
    try:
        b = search(open_, "mcts", leaf_order=True, **params)
    except GameError as e:
        assert counted is None and "the game does not end: state " in str(e)
        return
    if counted is not None:
        same(search(counted, "mcts", leaf_order=True, **params), b)


def test_repr_says_what_is_numbered_so_far() -> None:
    """An OnDemandTree has no s-expression before a search has walked it (Tree's repr read
    its unlisted root as a leaf, ``Tree(())``): its repr names the source and the nodes
    numbered so far, and the player at the root."""
    tree = open_source("game:nim:4", on_demand=True)
    assert isinstance(tree, OnDemandTree)
    assert repr(tree) == "OnDemandTree('game:nim:4', 1 node numbered)"
    search(tree, "minimax")
    assert repr(tree) == f"OnDemandTree('game:nim:4', {len(tree.keys):,} nodes numbered)"
    assert len(tree.keys) > 1
    other = tree.with_root(False)
    assert repr(other) == "OnDemandTree('game:nim:4', 1 node numbered, root=min)"
