"""The depth-first searches of a game on demand in C, over the game's C rules (game_tree.c).

A built-in game whose rules are in the C core (:func:`gtsearch.sources.gamerules.rules_of`)
searched on demand by minimax, F1 or alpha-beta runs in C: the tree numbered as OnDemandTree
numbers it, the search step for step _negamax_on_demand's.  The Python search on the same
game is the reference: over random positions, cut by --depth or not, with either player at
the root and every window, the value, the PV and its names, the leaves in order, the nodes,
and afterwards the tree itself (every node's parent, first child, depth, and the paths, names
and positions it answers) must be the same.  Skipped when the C core is not built.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import compiled, depthfirst, mt, scout, search
from gtsearch.algorithms.base import Stats
from gtsearch.errors import NodeLimit
from gtsearch.sources.gamerules import rules_of
from gtsearch.sources.gamespec import game_of
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.protocol import Game

pytestmark = pytest.mark.skipif(core.native() is None, reason="needs the C core")
native: Any = core.native()

#: every built-in game, small enough that the Python search of a random position is quick,
#: with the --depth cuts tried (None: searched to the end); those whose rules are in C are
#: tested (GAMES), the others wait for their rules
SPECS: list[tuple[str, list[int | None]]] = [
    ("connect4", [0, 1, 2, 4]),
    ("connect4:rows=3,columns=4,k=3", [2, 5]),
    ("connect4:rows=3,columns=3,k=3", [2, None]),
    ("connect4:rows=2,columns=4,k=3", [None]),
    ("connect4:rows=2,columns=3,k=2", [None]),
    ("othello:rows=4,columns=4", [1, 3]),
    ("othello", [2]),
    ("tictactoe", [None]),
    ("hexapawn", [3, None]),
    ("nim:7", [None]),
    ("dotsandboxes:rows=1,columns=2", [2, None]),
]
GAMES = [
    (spec, depth)
    for spec, depths in SPECS
    if rules_of(game_of(spec)) is not None
    for depth in depths
]
#: (algorithm, its parameters) as ``search`` takes them: every window of the three
SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("minimax", {}),
    ("f1", {}),
    ("f1", {"bound": 0}),
    ("f1", {"bound": 0.03}),
    ("alphabeta", {}),
    ("alphabeta", {"alpha": -0.05, "beta": 0.05}),
    ("alphabeta", {"alpha": 0, "beta": 1}),
    ("alphabeta", {"variant": "fail-hard"}),
    ("alphabeta", {"variant": "fail-hard", "alpha": -0.02, "beta": 0.02}),
    ("alphabeta", {"variant": "fail-hard", "alpha": 0.5, "beta": 1}),
    ("negascout", {}),
    ("scout", {}),
    ("mtdf", {}),
    ("mtdf", {"bound": 0.05}),
    ("mt-sss", {}),
    ("mt-dual", {}),
]
#: the searches that release no entry (the Python ones keep every entry they meet, numbered
#: as positions in that order; the C ones keep none: docs/core.md)
KEEPING = {"negascout", "scout", "mtdf", "mt-sss", "mt-dual"}


def test_connect_four_is_searched_in_c() -> None:
    """The games with C rules include Connect Four, of any size that fits 64 bits."""
    assert ("connect4", 4) in GAMES
    assert rules_of(game_of("connect4:rows=7,columns=8")) is not None
    # a subclass or a game with --estimate may change the rules: the Python rules run
    obj = game_of("connect4").obj

    class Mine(type(obj)):  # type: ignore[misc]
        pass

    assert rules_of(Game(Mine(), "game:mine")) is None


@contextlib.contextmanager
def pure() -> Iterator[None]:
    """The searches of a game on demand in Python (the rest of the core as it is)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled, "_on_demand", lambda *args: None)
        yield


@contextlib.contextmanager
def in_c() -> Iterator[None]:
    """The searches of a game on demand in C only: the Python walk refuses to run."""

    def refuse(*args: Any) -> Any:
        raise AssertionError("the Python search ran")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(depthfirst, "_negamax_on_demand", refuse)
        mp.setattr(scout, "_met", refuse)
        mp.setattr(mt, "mtd", refuse)
        yield


def opened(spec: str, depth: int | None, moves: list[int], root: bool | None = None) -> Any:
    """An OnDemandTree of the game after ``moves`` (each an index into the moves there, taken
    modulo their number; stops where the game ends), cut at ``depth``; with the other player at
    the root when ``root`` says so."""
    game = game_of(spec)
    obj = game.obj
    state, max_to_move = obj.initial(), game.root_max
    for k in moves:
        legal = obj.moves(state)
        if not legal:
            break
        state = obj.play(state, legal[k % len(legal)])
        max_to_move = not max_to_move
    tree = OnDemandTree(
        game, source=f"game:{spec}", limit=depth, start=state, start_max=max_to_move
    )
    return tree if root is None or root == tree.root_max else tree.with_root(root)


def result_of(
    tree: Any, name: str, params: dict[str, Any], positions: bool = True
) -> tuple[Any, ...]:
    """Everything a search reports, and what the tree answers after it (its positions too,
    when asked: the tree then numbers its positions, as a table does)."""
    stats = Stats()
    r = search(tree, name, leaf_order=True, stats=stats, **params)
    leaves = [int(n) for n in stats.leaves]  # their numbers (leaf_order: their paths)
    sample = [0, *leaves[:: max(1, len(leaves) // 40)], *leaves[-1:]]
    return (
        r.value,
        r.exact,
        r.bound,
        r.pv,
        r.pv_labels,
        r.leaves,
        r.nodes,
        r.leaf_order,
        leaves,
        len(tree.keys),
        tree.deepest,
        list(tree.up),
        list(tree.first),
        list(tree.depths),
        [tree.path_of(n) for n in sample],
        [tree.name_at(n) for n in sample],
        # a Python NegaScout keeps every entry it met, numbered as positions in that order;
        # the C one keeps none (docs/core.md), so positions are numbered as asked afterwards
        [] if name in KEEPING or not positions else [tree.position(n) for n in sample],
    )


def both(make: Any, name: str, params: dict[str, Any]) -> tuple[Any, Any]:
    with pure():
        expected = result_of(make(), name, params)
    with in_c():
        found = result_of(make(), name, params)
    return expected, found


@pytest.mark.parametrize(("spec", "depth"), GAMES)
@pytest.mark.parametrize(("name", "params"), SEARCHES)
def test_the_c_search_on_demand_is_the_pythons(
    spec: str, depth: int | None, name: str, params: dict[str, Any]
) -> None:
    """From the start, both players at the root."""
    for root in (None, False):
        expected, found = both(partial(opened, spec, depth, [], root), name, params)
        assert found == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    search_=st.sampled_from(SEARCHES),
    moves=st.lists(st.integers(0, 63), max_size=30),
    other_root=st.booleans(),
)
def test_the_c_search_on_demand_is_the_pythons_on_random_positions(
    game: tuple[str, int | None],
    search_: tuple[str, dict[str, Any]],
    moves: list[int],
    other_root: bool,
) -> None:
    """Random positions (an end of the game among them: the root a leaf), either root."""
    spec, depth = game
    name, params = search_

    def make() -> Any:
        tree = opened(spec, depth, moves)
        return tree.with_root(not tree.root_max) if other_root else tree

    expected, found = both(make, name, params)
    assert found == expected


def test_ties_keep_the_first_best_child() -> None:
    """Connect Four on a 2x3 board with 2 in a line: most lines tie; the PV and the leaves are
    the Python search's (the first child that set the value)."""
    for name, params in SEARCHES:
        expected, found = both(
            lambda: opened("connect4:rows=2,columns=3,k=2", None, []), name, params
        )
        assert found == expected


def test_a_root_where_the_game_ends_or_the_cut_is() -> None:
    """The root a leaf: at the cut (--depth 0) the estimate, at the end the utility."""
    for depth, moves in ((0, [3, 3, 2]), (None, [0, 1, 0, 1, 0, 1, 0]), (2, [0, 1, 0, 1, 0, 1, 0])):
        for name, params in SEARCHES:
            expected, found = both(partial(opened, "connect4", depth, moves), name, params)
            assert found == expected
            assert found[5] == 1 and found[6] == 1 and found[3] == ()


def test_searches_one_after_another_on_one_tree() -> None:
    """A tree searched again keeps its numbers: C after Python, Python after C, C after C,
    and a search with a table (the positions of the nodes the C search numbered rebuilt from
    the root) after them, all as the Python searches on one tree; once a table has numbered
    positions, the Python searches run."""
    plan = [
        ("alphabeta", {}, "c"),
        ("minimax", {}, "python"),
        ("f1", {"bound": 0}, "c"),
        ("alphabeta", {"alpha": -0.1, "beta": 0.1}, "c"),
        ("alphabeta", {"tt": 1}, "python"),
        # a table numbered positions: the Python search runs (it keeps the entries it meets)
        ("minimax", {}, "either"),
        ("negascout", {}, "either"),
    ]
    reference, tree = opened("connect4", 3, [3, 2]), opened("connect4", 3, [3, 2])
    for name, params, where in plan:
        with pure():
            expected = result_of(reference, name, params, positions=False)
        with in_c() if where == "c" else pure() if where == "python" else contextlib.nullcontext():
            found = result_of(tree, name, params, positions=False)
        assert found == expected, (name, params)


def test_the_c_search_lists_no_more_than_max_nodes() -> None:
    """--max-nodes: the same error at the same listing as the Python tree's; the tree keeps
    the nodes of no search stopped so."""
    for most, name in itertools.product((1, 7, 8, 50, 57, 400), ("alphabeta", "scout")):
        errors = []
        for context in (pure, in_c):
            tree = OnDemandTree(
                game_of("connect4"), source="game:connect4", limit=4, max_nodes=most
            )
            with context(), pytest.raises(NodeLimit) as caught:
                search(tree, name)
            errors.append(str(caught.value))
        assert (
            errors[0]
            == errors[1]
            == (
                f"game:connect4: the search visited more than --max-nodes {most:,} nodes; "
                "raise --max-nodes"
            )
        )
    tree = OnDemandTree(game_of("connect4"), source="game:connect4", limit=2, max_nodes=57)
    with in_c():
        assert search(tree, "minimax").leaves == 49  # 1 + 7 + 49 nodes: just enough


def test_the_core_declines_rules_it_does_not_have() -> None:
    """A game the core has no rules of, or parameters its representation cannot hold: None
    (the Python search runs); arguments that are not the core's: an exception."""
    from array import array

    root = array("q", [-1])
    args = (True, -1, 10**6, root, -1.0, 1.0, True, True, False, None)
    assert native.game_negamax("chess", (), (0,), *args) is None
    assert native.game_negamax("connect4", (8, 8, 4), (0, 0, 0), *args) is None  # 72 bits
    assert native.game_negamax("connect4", (6, 7), (0, 0, 0), *args) is None
    assert native.game_negamax("connect4", (6, 7, 4, 1, 1), (0, 0, 0), *args) is None
    assert native.game_negamax("connect4", [-1, 7, 4], [0, 0, 0], *args) is None
    with pytest.raises(ValueError, match="more words"):
        native.game_negamax("connect4", (6, 7, 4), (0, 0, 0, 0, 0), *args)
    with pytest.raises(TypeError):
        native.game_negamax("connect4", 6, (0, 0, 0), *args)
    with pytest.raises(TypeError):
        native.game_negamax("connect4", (6, "7", 4), (0, 0, 0), *args)
    with pytest.raises(TypeError):
        native.game_negamax("connect4", (6, 7, 4), 0, *args)
    with pytest.raises(OverflowError):
        native.game_negamax("connect4", (6, 7, 4), (-1, 0, 0), *args)
    with pytest.raises(TypeError):
        native.game_negamax("connect4", (6, 7, 4), (0, 0, 0), True, -1, 10**6, [-1], *args[4:])
    with pytest.raises(ValueError, match="no root"):
        native.game_negamax(
            "connect4", (6, 7, 4), (0, 0, 0), True, -1, 10**6, array("q"), *args[4:]
        )
    with pytest.raises(TypeError):
        native.game_negamax("connect4", (6, 7, 4), (0, 0, 0), *args[:-1], [0])
    m, line, leaves, nodes, first, up, depth = native.game_negamax(
        "connect4",
        [6, 7, 4],
        [0, 0, 0, 0],
        True,
        1,
        10**6,
        root,
        -1.0,
        1.0,
        True,
        True,
        False,
        array("q", [0]),
    )
    assert (list(leaves), nodes, list(up), list(depth)) == (list(range(1, 8)), 8, [0] * 7, [1] * 7)
    assert list(first) == [1] + [-1] * 7 and line == [0, 4]
    # words the rules never make (every square X's) are the rules' to read: no check, no crash
    done = native.game_negamax("connect4", (6, 7, 4), (2**64 - 1, 0, 0), *args)
    assert done[3] == 1 and list(done[2]) == [0]


def test_a_long_game_is_searched_on_an_explicit_stack() -> None:
    """A board of 10 rows and 2 columns, 10 in a line: lines of 20 plies (a column of ten
    discs of one player's the only win), some 180,000 of them; minimax to the end (a frame a
    level), and alpha-beta to the end and with a cut as the Python search."""
    game = game_of("connect4:rows=10,columns=2,k=10")
    tree = OnDemandTree(game, source="game:c")
    with in_c():
        r = search(tree, "minimax")
    assert tree.deepest == 20 and r.leaves > 100_000
    for depth in (None, 3):
        expected, found = both(
            partial(OnDemandTree, game, source="game:c", limit=depth), "alphabeta", {}
        )
        assert found == expected


def test_a_board_the_c_rules_cannot_hold_is_searched_in_python() -> None:
    """10 rows and 10 columns are 110 bits: the core declines, the Python search runs."""
    with pure():
        expected = result_of(opened("connect4:rows=10,columns=10", 2, []), "alphabeta", {})
    assert result_of(opened("connect4:rows=10,columns=10", 2, []), "alphabeta", {}) == expected
    tree = opened("connect4:rows=10,columns=10", 1, [])
    assert compiled.negamax_on_demand(tree, Stats(), -1, 1, True, True, False) is None


def test_memory_what_the_c_search_keeps() -> None:
    """The C search keeps a frame a level of the path; the tree keeps three numbers a node
    numbered, as the Python one, and the same entries: the root's and those the PV's names
    were read from (rebuilt from the root as for a node a Python search released)."""
    kept = []
    for context in (pure, in_c):
        tree = opened("connect4", 4, [])
        with context():
            r = search(tree, "alphabeta")
        assert len(tree.keys) == len(tree.up) == len(tree.first) == len(tree.depths) > r.nodes
        kept.append([n for n, e in enumerate(tree.entries) if e is not None])
        assert len(kept[-1]) <= len(r.pv) + 1
    assert kept[0] == kept[1]


def test_progress_is_published() -> None:
    """The leaves read so far go to the progress array, as the C searches of files do."""
    from array import array

    tree = opened("connect4", 5, [])
    stats = Stats()
    stats.progress = array("q", [0])
    with in_c():
        search(tree, "minimax", stats=stats)
    assert 0 < stats.progress[0] <= len(stats.leaves)


def test_random_positions_of_the_full_board_cut_deeper() -> None:
    """A few deeper cuts of the full board from random positions (a seeded sample, alpha-beta,
    the search the goals measure)."""
    rng = random.Random(36)
    for _ in range(3):
        moves = [rng.randrange(7) for _ in range(rng.randrange(12))]
        expected, found = both(partial(opened, "connect4", 5, moves), "alphabeta", {})
        assert found == expected


def test_eval_of_a_game_on_demand_is_the_same_in_c() -> None:
    """`eval game:connect4 --depth 3` with several searches (one tree), the leaves shown: the
    same output but for the times."""
    from click.testing import CliRunner

    from gtsearch.cli import cli

    argv = ["eval", "game:connect4", "--depth", "3", "--leaves", "-a", "alphabeta", "-a", "minimax"]
    argv += ["-a", "f1", "--moves", "4 4 3"]
    outputs = []
    for context in (pure, in_c):
        with context():
            r = CliRunner().invoke(cli, argv)
        assert r.exit_code == 0, r.output
        outputs.append(
            [
                {k: v for k, v in json.loads(line).items() if "seconds" not in k}
                for line in r.output.splitlines()
            ]
        )
    assert outputs[0] == outputs[1] and len(outputs[0]) == 3


def test_ctrl_c_stops_the_c_search_and_leaves_the_tree_as_it_was() -> None:
    """A SIGINT while the C search runs: KeyboardInterrupt at its next tick, nothing of the
    search taken by the tree."""
    import signal

    def interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    for name in ("minimax", "scout"):
        tree = OnDemandTree(
            game_of("connect4"), source="game:connect4", limit=12, max_nodes=20_000_000
        )
        old = signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            with in_c(), pytest.raises(KeyboardInterrupt):
                search(tree, name)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        assert len(tree.keys) == len(tree.up) == 1 and list(tree.first) == [-1]


@pytest.mark.parametrize("name", ["negascout", "scout"])
def test_scouts_in_c_with_leaves_read_before(name: str) -> None:
    """A Stats that holds leaves of a search before: the PV is the Python walk's over them all
    (the C one is taken only when the leaves are the search's own), the same either way; the
    core's call (game_negascout, game_scout) without and with the line."""
    from array import array

    found = []
    for context in (pure, in_c):
        tree = opened("connect4", 3, [3])
        stats = Stats()
        with context():
            search(tree, "alphabeta", stats=stats)
            r = search(tree, name, stats=stats)
        found.append((r.value, r.pv, r.pv_labels, r.leaves, r.nodes, r.extra))
    assert found[0] == found[1]
    call = getattr(native, f"game_{name}")
    args = ((6, 7, 4), (0, 0, 0), True, 2, 10**6, array("q", [-1]))
    value, line, leaves, nodes, distinct = call("connect4", *args, False, None)[:5]
    with pure():
        r = search(opened("connect4", 2, []), name, leaf_order=True)
    assert line is None and (value, len(leaves), nodes) == (r.value, r.leaves, r.nodes)
    assert distinct == r.extra["distinct_leaves"] < len(leaves)
    line = call("connect4", *args, True, None)[1]
    assert line[0] == 0 and len(line) == len(r.pv) + 1 == 3
    # rules that cannot hold the game's parameters (a board of more than 64 bits)
    assert call("connect4", (8, 8, 4), *args[1:], True, None) is None
    with pytest.raises(TypeError, match=f"game_{name}"):
        call("connect4", *args)


def test_mtd_in_c_with_leaves_read_before() -> None:
    """MTD(f) after another search with the same Stats: the PV is the Python walk's over all
    the leaves; the core's arguments as game_negascout's, and the first guess."""
    from array import array

    found = []
    for context in (pure, in_c):
        tree = opened("connect4", 3, [2])
        stats = Stats()
        with context():
            search(tree, "minimax", stats=stats)
            r = search(tree, "mtdf", stats=stats, bound=0.5)
        found.append((r.value, r.pv, r.pv_labels, r.leaves, r.nodes, r.extra))
    assert found[0] == found[1]
    root = array("q", [-1])
    args = ((6, 7, 4), (0, 0, 0), True, 2, 10**6, root, 0.0)
    lower, line, leaves, nodes, passes = native.game_mtd("connect4", *args, False, None)[:5]
    with pure():
        r = search(opened("connect4", 2, []), "mtdf")
    assert line is None and (lower, len(leaves), nodes) == (r.value, r.leaves, r.nodes)
    assert passes == r.extra["passes"]
    assert native.game_mtd("othello", *args, True, None) is None


def test_a_cut_of_a_game_without_an_estimate_is_the_pythons_error() -> None:
    """Tic-tac-toe has no estimate: cut at --depth 2, the C search declines the tree (its
    rules have none), and the Python one words the error, as under the pure core."""
    from gtsearch.sources.protocol import GameError

    errors = []
    for context in (pure, contextlib.nullcontext):
        with context(), pytest.raises(GameError) as caught:
            search(opened("tictactoe", 2, []), "alphabeta")
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    assert "estimate" in errors[0]
