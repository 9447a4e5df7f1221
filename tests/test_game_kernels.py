"""The built-in games counted in C (game_kernels.c) and searched from their graph (game_graph.c).

Tic-tac-toe's rules are also the C core's kernel 0: ``count_game`` counts its entries as
GameTree._count does, and the C searches read the tree from the graph of those entries
instead of a tree written out.  The Python game is the reference: a subclass of it (which has
no kernel) is counted in Python and written out as before, and everything must be the same:
the entries, in order, with their children, sizes, leaves, heights and values; and every
search's result (value, PV, leaves in order, nodes, the table's figures).  Skipped when the C
core is not built.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import search, solve
from gtsearch.algorithms.chance import tree_leaf_bounds
from gtsearch.algorithms.ordering import MoveOrder
from gtsearch.errors import GtsearchError
from gtsearch.sources import open_source
from gtsearch.sources.builtin_games import TicTacToe
from gtsearch.sources.gamecount import Counted, TooMany
from gtsearch.sources.games import Game, GameTree

from .test_tt_native import seen

pytestmark = pytest.mark.skipif(core.native() is None, reason="needs the C core")
native: Any = core.native()

SOURCE = "game:tictactoe"
#: the searches the C core runs, each with and without a table where it takes one
SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("minimax", {}),
    ("alphabeta", {}),
    ("f1", {}),
    ("sss", {}),
    ("dual", {}),
    ("negascout", {}),
    ("scout", {}),
    ("mtdf", {}),
    ("mt-sss", {}),
    ("alphabeta", {"tt": 1}),
    ("alphabeta", {"tt": 16}),
    ("negascout", {"tt": 1}),
    ("mt-sss", {"tt": 1}),
    ("mt-dual", {"tt": 1}),
    ("mtdf", {"tt": 1}),
    ("mcts", {"iterations": 2_000, "seed": 5}),
]


class PlainTicTacToe(TicTacToe):
    """The same rules, counted in Python: a subclass has no kernel (it may change the rules)."""


def tree_of(obj: Any, **where: Any) -> GameTree:
    return GameTree(Game(obj, SOURCE), source=SOURCE, **where)


def played(*squares: int) -> int:
    """The state after these squares are played in turn, X first."""
    game, state = TicTacToe(), TicTacToe().initial()
    for sq in squares:
        state = game.play(state, sq)
    return state


def python_graph(tree: GameTree) -> tuple[list[Any], ...]:
    """The entries GameTree._count counted, in order: states, children's numbers, sizes,
    leaves, heights and values."""
    info = tree.info
    ids = {key: i for i, key in enumerate(info)}
    entries = list(info.values())
    return (
        list(info),
        [[ids[k] for k in e.kids] for e in entries],
        [e.size for e in entries],
        [e.leaves for e in entries],
        [e.height for e in entries],
        [tree._value(e) for e in entries],
    )


def c_graph(arrays: tuple[Any, ...]) -> tuple[list[Any], ...]:
    states, first, kids, sizes, leaves, heights, values = arrays
    return (
        list(states),
        [list(kids[first[i] : first[i + 1]]) for i in range(len(states))],
        list(sizes),
        list(leaves),
        list(heights),
        list(values),
    )


def same_values(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(
        x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b, strict=True)
    )


# -- the count --------------------------------------------------------------------------------------
def check_count(state: int) -> None:
    reference = python_graph(tree_of(PlainTicTacToe(), start=state))
    counted = c_graph(native.count_game(0, state, 10**6))
    assert counted[:5] == reference[:5]
    assert same_values(counted[5], reference[5])


def test_the_whole_game_is_counted_as_python_counts_it() -> None:
    check_count(0)
    tree = open_source(SOURCE)
    assert isinstance(tree, GameTree) and isinstance(tree.info, Counted)
    assert (len(tree.info), len(tree.end), tree.n_leaves, tree.max_depth()) == (
        5_478,
        549_946,
        255_168,
        9,
    )


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(9)), st.integers(0, 9))
def test_every_position_is_counted_as_python_counts_it(order: list[int], moves: int) -> None:
    state = 0
    game = TicTacToe()
    for sq in order[:moves]:
        if not game.moves(state):
            break
        state = game.play(state, sq)
    check_count(state)


def test_states_no_game_reaches_are_counted_by_the_same_rules() -> None:
    """O to move on the empty board, a board already won, a full board: the rules as written."""
    for state in (1 << 19, played(0, 3, 1, 4, 2), 0b111000111 | 0b000111000 << 9):
        check_count(state)


def test_the_arrays_grow_from_any_first_size() -> None:
    whole = c_graph(native.count_game(0, 0, 10**6))
    for room in (1, 2, 100, 5_478):
        grown = c_graph(native.count_game(0, 0, 10**6, room))
        assert grown[:5] == whole[:5] and same_values(grown[5], whole[5])


def test_most_entries_as_python_counts_them() -> None:
    """More than `most` entries: None, and GameTree's TooMany, at the same count as Python's."""
    assert native.count_game(0, 0, 5_478) is not None
    assert native.count_game(0, 0, 5_477) is None
    for obj in (TicTacToe(), PlainTicTacToe()):
        with pytest.raises(TooMany, match="more than 5,477 distinct states"):
            tree_of(obj, max_nodes=5_477)


@pytest.mark.parametrize(
    "args",
    [
        (-1, 0, 10),
        (1, 0, 10),
        (0, -1, 10),
        (0, 1 << 20, 10),
        (0, 0, 0),
        (0, 0, 10, -1),
        (0, 0, 10, 5_479),
    ],
)
def test_count_game_refuses_what_is_not_its_parameters(args: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="count_game: parameters out of range"):
        native.count_game(*args)


def test_a_state_the_kernel_does_not_hold_is_counted_in_python() -> None:
    """A start state out of the kernel's range (or not an int) is the Python game's to count."""
    tree = tree_of(TicTacToe(), start=1 << 21)  # a bit no state has; X to move on an empty board
    assert tree.counted is None and not isinstance(tree.info, Counted)
    assert (len(tree.info), len(tree.end)) == (5_478, 549_946)


def test_a_game_with_a_key_or_an_estimate_is_counted_in_python() -> None:
    """The kernel counts states as entries, without values inside: a tic-tac-toe given its own
    key() or estimate() is another count, Python's."""
    keyed, estimated = TicTacToe(), TicTacToe()
    keyed.key = lambda state: state & 0x3FFFF  # type: ignore[attr-defined]
    estimated.estimate = lambda state: 0  # type: ignore[attr-defined]
    for obj in (keyed, estimated):
        tree = tree_of(obj, start=played(4, 0, 8))
        assert tree.counted is None and tree.native_view() is None


# -- the searches -------------------------------------------------------------------------------------
def both_trees(**where: Any) -> tuple[GameTree, GameTree]:
    """The game counted in C (read from its graph) and in Python (written out)."""
    graph, flat = tree_of(TicTacToe(), **where), tree_of(PlainTicTacToe(), **where)
    assert graph.native_view() is not None and graph.lazy
    assert flat.native_view() is None and not flat.lazy
    return graph, flat


@pytest.mark.parametrize(("name", "params"), SEARCHES, ids=lambda x: str(x))
def test_every_c_search_reads_the_graph_as_the_tree_written_out(name: str, params: Any) -> None:
    for start in (None, played(4), played(0, 4, 8)):
        graph, flat = both_trees(start=start)
        a = search(graph, name, leaf_order=start is not None, **params)
        b = search(flat, name, leaf_order=start is not None, **params)
        assert seen(a) == seen(b), (name, params, start)


@pytest.mark.parametrize("root_max", [True, False])
def test_solve_and_the_other_root(root_max: bool) -> None:
    graph, flat = both_trees(start=played(0), start_max=root_max)
    for tree in (graph, flat):
        assert tree.root_max is root_max
    a, b = solve.solve(graph), solve.solve(flat)
    assert a._replace(seconds=0, iterations=[]) == b._replace(seconds=0, iterations=[])
    assert [i._replace(seconds=0) for i in a.iterations] == [
        i._replace(seconds=0) for i in b.iterations
    ]
    other_a, other_b = graph.with_root(not root_max), flat.with_root(not root_max)
    for name, params in (("alphabeta", {"tt": 1}), ("sss", {}), ("mtdf", {})):
        assert seen(search(other_a, name, **params)) == seen(search(other_b, name, **params))


def test_the_golden_figures_hold_on_the_graph() -> None:
    """tests/test_tt_native.py's figures of alpha-beta with a table and solve, on the graph."""
    tree = open_source(SOURCE)
    assert isinstance(tree, GameTree) and tree.counted is not None
    r = search(tree, "alphabeta", tt=16)
    assert (r.value, r.leaves, r.nodes, r.extra["expanded"], r.pv_labels[:2]) == (
        0,
        517,
        2693,
        2176,
        ("1", "5"),
    )
    done = solve.solve(tree)
    assert (done.result, done.distance, done.positions) == ("draw", 9, 2510)


def test_the_python_searches_read_the_same_tree() -> None:
    """Under the pure core, or where a search is Python's, the counted entries are the tree."""
    graph, flat = both_trees(start=played(4, 0))
    with core.pure():
        for name, params in (("alphabeta", {"tt": 1}), ("negascout", {}), ("sss", {})):
            assert seen(search(graph, name, **params)) == seen(search(flat, name, **params))
    # solve with the history heuristic: Python's, the C core not asked
    a = solve.solve(graph, moves=MoveOrder(graph, history=True, killers=True))
    b = solve.solve(flat, moves=MoveOrder(flat, history=True, killers=True))
    assert a._replace(seconds=0, iterations=[]) == b._replace(seconds=0, iterations=[])
    assert graph.whole(10**6) == flat.whole(10**6)
    assert tree_leaf_bounds(graph) == tree_leaf_bounds(flat) == (-1, 1)
    assert [type(v) for v in tree_leaf_bounds(graph)] == [int, int]
    keys = [graph.position(n) for n in range(len(graph))]
    assert keys == list(flat.position_keys())  # type: ignore[arg-type]


def test_the_entries_are_built_when_asked_for() -> None:
    tree = tree_of(TicTacToe(), start=played(0, 1, 2))
    info = tree.info
    assert isinstance(info, Counted)
    flat = tree_of(PlainTicTacToe(), start=played(0, 1, 2))
    assert list(info) == list(flat.info) and len(info) == len(flat.info)
    deep = list(flat.info)[-1]  # not reached from its parent: found by its number
    assert deep in info and 12345 not in info
    for key in (deep, *flat.info):
        a, b = info[key], flat.info[key]
        assert (a.state, a.moves, a.kids, a.starts, a.size, a.leaves, a.height, a.kind) == (
            b.state,
            b.moves,
            b.kids,
            b.starts,
            b.size,
            b.leaves,
            b.height,
            b.kind,
        )
    with pytest.raises(KeyError):
        info[12345]


# -- --max-nodes ----------------------------------------------------------------------------------------
def test_a_tree_larger_than_max_nodes_is_searched_until_the_limit() -> None:
    """5,478 entries fit --max-nodes 10,000, the 549,946 nodes do not: the search visits at
    most 10,000 nodes, in C as in Python, as for the tree counted in Python."""
    for obj in (TicTacToe(), PlainTicTacToe()):
        tree = tree_of(obj, max_nodes=10_000)
        assert tree.lazy
        with pytest.raises(GtsearchError, match="visited more than --max-nodes 10,000"):
            search(tree, "minimax")
    tree = tree_of(TicTacToe(), max_nodes=10_000)
    r = search(tree, "alphabeta", tt=16)  # 2,693 nodes: within the limit
    assert (r.value, r.leaves) == (0, 517) and 0 < tree.visited <= 10_000


# -- the graph, checked ------------------------------------------------------------------------------
def spec(**change: Any) -> tuple[Any, ...]:
    """A graph: a root with two leaves (entries 1 and 2), as native_view hands it over."""
    parts = {
        "first": array("q", [0, 2, 2, 2]),
        "kids": array("q", [1, 2]),
        "sizes": array("q", [3, 1, 1]),
        "values": array("d", [math.nan, 1.0, 2.0]),
        "positions": None,
        "root": 0,
        "parity": 1,
        "counter": array("q", [0, 2**62]),
    }
    parts.update(change)
    return ("graph", *parts.values())


def test_a_graph_is_searched_as_its_tree() -> None:
    value, _, leaves, _ = native.negamax(spec(), None, True, -math.inf, math.inf, False, True, None)
    assert (value, list(leaves)) == (2.0, [1, 2])
    value, _, leaves, _ = native.negamax(
        spec(), None, False, -math.inf, math.inf, False, True, None
    )
    assert (value, list(leaves)) == (-1.0, [1, 2])  # negamax's: the player to move's terms
    found = native.tabled(
        spec(positions=array("q", [5, 6, 7])),
        None,
        True,
        None,
        4,
        0,
        -math.inf,
        math.inf,
        True,
        None,
    )
    assert found[0] == 2.0 and found[1] == [0, 2]


def test_a_graph_of_one_leaf_and_positions_as_given() -> None:
    """A game over at its root (no child at all); positions kept as they are (parity -1: a
    game whose entries say who moves), and keys given by node, which come first."""
    leaf = spec(
        first=array("q", [0, 0]),
        kids=array("q"),
        sizes=array("q", [1]),
        values=array("d", [3.0]),
    )
    assert native.negamax(leaf, None, True, -math.inf, math.inf, False, True, None)[0] == 3.0
    same = array("q", [4, 9, 9])  # both leaves one position: the second is the first's
    kept = spec(positions=same, parity=-1)
    found = native.tabled(kept, None, True, None, 4, 0, -math.inf, math.inf, True, None)
    assert (found[0], list(found[2])) == (1.0, [1])
    by_node = array("q", [0, 1, 2])  # keys by node: every node a position of its own
    found = native.tabled(kept, None, True, by_node, 4, 0, -math.inf, math.inf, True, None)
    assert (found[0], list(found[2])) == (2.0, [1, 2])


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"first": array("q", [0, 2, 2])}, "do not fit"),
        ({"first": array("q", [1, 2, 2, 2])}, "do not fit"),
        ({"first": array("q", [0, 2, 2, 1])}, "do not fit"),
        ({"sizes": array("q", [3, 2**62 - 1, 1])}, "child's number or size"),
        ({"first": array("q", [0, 2, 1, 2])}, "children or size"),
        ({"sizes": array("q", [0, 1, 1])}, "children or size"),
        ({"kids": array("q", [1, 3])}, "child's number"),
        ({"kids": array("q", [1, -1])}, "child's number"),
        ({"sizes": array("q", [4, 1, 1])}, "1 \\+ its children's sizes"),
        (
            {"kids": array("q", [0, 2]), "sizes": array("q", [3, 1, 1])},
            "child's number or size|1 \\+",
        ),
        ({"values": array("d", [1.0])}, "do not fit"),
        ({"positions": array("q", [1])}, "do not fit"),
        ({"counter": array("q", [0])}, "do not fit"),
        ({"root": 3}, "do not fit"),
        ({"root": -1}, "do not fit"),
        ({"parity": 2}, "do not fit"),
        ({"parity": -2}, "do not fit"),
    ],
)
def test_a_bad_graph_is_refused(change: dict[str, Any], error: str) -> None:
    counter = array("q", [7, 2**62])
    change = {"counter": counter, **change}
    with pytest.raises(ValueError, match=error):
        native.negamax(spec(**change), None, True, -math.inf, math.inf, False, True, None)
    assert change["counter"] is not counter or counter[0] == 7  # no visits written back


@pytest.mark.parametrize(
    "change",
    [
        {"first": array("i", [0, 2, 2, 2])},
        {"kids": [1, 2]},
        {"sizes": array("d", [3, 1, 1])},
        {"values": array("q", [0, 1, 2])},
        {"positions": array("d", [0, 1, 2])},
        {"counter": array("d", [0, 1])},
    ],
)
def test_arrays_of_another_type_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        native.negamax(spec(**change), None, True, -math.inf, math.inf, False, True, None)


def test_a_spec_that_is_not_a_graph_is_refused() -> None:
    with pytest.raises(TypeError):
        native.negamax(("graph", 1, 2), None, True, -math.inf, math.inf, False, True, None)
    with pytest.raises(TypeError):
        native.count_game("tictactoe", 0, 10)


def test_the_counter_counts_the_visits() -> None:
    counter = array("q", [0, 1])
    native.negamax(spec(counter=counter), None, True, -math.inf, math.inf, False, True, None)
    assert counter[0] == 2  # one step down to each leaf: past its most (compiled._call says so)
