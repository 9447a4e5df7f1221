"""The searches with a transposition table in C (search_tabled.c, table.c) against the reference.

Each search runs under the compiled core and under the pure-Python core (``core.pure()``), and
everything a caller sees must be the same: the value, the PV, the leaves in order, the nodes,
every figure of ``extra`` and the ``tt`` object; on random trees (both roots, ties, windows,
depth limits), on tables of one to three buckets where entries are lost all the time, on
``random:`` sources computed on demand and on the built-in games, whose positions are numbers
the same in both cores.  Skipped when the C core is not built.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import iterative, search, solve, tabled
from gtsearch.algorithms.registry import TABLE_ALGORITHMS
from gtsearch.cli import cli
from gtsearch.result import SearchResult
from gtsearch.sources import open_source
from gtsearch.sources.randomtree import LazyTree, RandomSpec
from gtsearch.tree import Tree

from .strategies import trees
from .tables import tiny_tables

pytestmark = pytest.mark.skipif(core.native() is None, reason="needs the C core")

#: the table searches of trees without chance nodes (Star1's and Star2's stay in Python)
NAMES = tuple(a for a in TABLE_ALGORITHMS if a not in ("star1", "star2"))
#: a table's size: MiB, or ("tiny", buckets): a 1 MiB table cut down to that many buckets
SIZES = st.sampled_from([1, 64, ("tiny", 1), ("tiny", 2), ("tiny", 3)])


@contextmanager
def table_of(size: Any) -> Iterator[int]:
    """The --tt to pass for ``size``, with the tables cut down to a few buckets if tiny."""
    if not isinstance(size, tuple):
        yield size
        return
    with tiny_tables(size[1], tabled, iterative, solve):
        yield 1


def seen(r: SearchResult) -> tuple[Any, ...]:
    """Everything a caller of search() sees of a result but the time."""
    return (
        r.value,
        type(r.value),
        r.exact,
        r.bound,
        r.pv,
        r.pv_labels,
        r.leaves,
        r.nodes,
        r.leaf_order,
        json.dumps(r.extra, sort_keys=False),
        r.params,
    )


def both(run: Callable[[], Any]) -> tuple[Any, Any]:
    """run() under the compiled core, then under the pure-Python one."""
    compiled = run()
    with core.pure():
        reference = run()
    return compiled, reference


def agree(tree: Callable[[], Tree], name: str, size: Any, **params: Any) -> SearchResult:
    """The search with a table in both cores: the same results; the compiled one's."""
    with table_of(size) as tt:
        c, p = both(lambda: search(tree(), name, tt=tt, leaf_order=True, **params))
    assert seen(c) == seen(p)
    return c  # type: ignore[no-any-return]


# -- random trees -----------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(trees, st.booleans(), st.sampled_from(NAMES), SIZES)
def test_the_cores_agree_on_random_trees(nested: Any, root_max: bool, name: str, size: Any) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    agree(lambda: tree, name, size)


@settings(max_examples=80, deadline=None)
@given(trees, st.booleans(), st.integers(-5, 5), st.integers(1, 6), SIZES)
def test_alphabeta_windows_and_mtdf_guesses(
    nested: Any, root_max: bool, alpha: int, width: int, size: Any
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    agree(lambda: tree, "alphabeta", size, alpha=alpha, beta=alpha + width)
    agree(lambda: tree, "mtdf", size, bound=alpha)


@st.composite
def estimated(draw: st.DrawFn) -> Tree:
    """A random tree whose inner nodes have static values (what --depth and --iterative read)."""
    tree = Tree.from_nested(draw(trees), root_max=draw(st.booleans()))
    values = array("d", tree.values)
    for n in range(len(values)):
        if not tree.is_leaf(n):
            values[n] = draw(st.integers(-6, 6))
    return Tree(tree.end, values, root_max=tree.root_max)


@settings(max_examples=80, deadline=None)
@given(estimated(), st.integers(1, 4), st.sampled_from(NAMES), SIZES)
def test_depth_limits(tree: Tree, depth: int, name: str, size: Any) -> None:
    agree(lambda: tree.truncated(depth), name, size)


def deepened(tree: Tree, size: Any, max_depth: int | None = None) -> tuple[Any, ...]:
    with table_of(size) as tt:
        return tuple(
            seen(r)[:-4] + (r.nodes, json.dumps(r.extra), r.params)
            for r in iterative.iterate(tree, tt, max_depth)
        )


@settings(max_examples=80, deadline=None)
@given(estimated(), SIZES, st.none() | st.integers(1, 3))
def test_iterative_deepening(tree: Tree, size: Any, max_depth: int | None) -> None:
    c, p = both(lambda: deepened(tree, size, max_depth))
    assert c == p


def test_iterative_deepening_stops_at_a_node_without_a_static_value() -> None:
    tree = Tree.from_nested([[1, 2], [3, [4, 5]]])
    c, p = both(lambda: _error(lambda: iterative.iterate(tree, 1)))
    assert c == p and "has no static value" in c


def _error(run: Callable[[], Any]) -> str:
    try:
        run()
    except Exception as e:  # noqa: BLE001  # the message is compared
        return str(e)
    raise AssertionError("no error")


def solved(tree: Tree, size: Any) -> Any:
    with table_of(size) as tt:
        done = solve.solve(tree, tt)
    return done._replace(seconds=0, iterations=[i._replace(seconds=0) for i in done.iterations])


wdl = st.recursive(
    st.sampled_from([-1, 0, 1, -2, 3]),
    lambda kids: st.lists(kids, min_size=1, max_size=3),
    max_leaves=30,
)


@settings(max_examples=100, deadline=None)
@given(wdl, st.booleans(), SIZES)
def test_solve(nested: Any, root_max: bool, size: Any) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    c, p = both(lambda: solved(tree, size))
    assert c == p


# -- random: sources computed on demand, and games --------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [1, ("tiny", 2)])
def test_random_sources_computed_on_demand(name: str, size: Any) -> None:
    agree(lambda: LazyTree(RandomSpec(3, 5, seed=11)), name, size)
    agree(lambda: LazyTree(RandomSpec(4, 4, seed=2, order="best")), name, size)


GAMES = [
    "game:tictactoe",
    "game:nim:9",
    "game:nim:heap=8,take=2,misere=true",
    "game:hexapawn",
    "game:dotsandboxes",
    "game:othello:rows=2,columns=4",
    "game:connect4:rows=3,columns=4,k=3",
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [1, ("tiny", 3)])
def test_games(game: str, name: str, size: Any) -> None:
    r = agree(lambda: open_source(game), name, size)
    assert r.extra["tt"]["entries"] == 32_768


@pytest.mark.parametrize("game", GAMES)
def test_games_solved_and_deepened(game: str) -> None:
    for size in (16, ("tiny", 5)):
        c, p = both(lambda s=size: solved(open_source(game), s))  # type: ignore[misc]
        assert c == p
    depth_cut = open_source("game:connect4:rows=3,columns=4,k=3", depth=4)
    c, p = both(lambda: deepened(depth_cut, 1))
    assert c == p


def test_a_games_positions_are_numbers() -> None:
    """A game's positions are ints numbered in the order the states were counted: the same in
    both cores and in every run (Python's hash() of a string state is not)."""
    game = open_source("game:nim:5")
    keys = [game.position(n) for n in range(len(game))]
    assert all(type(k) is int for k in keys)
    assert list(game.position_keys()) == keys  # type: ignore[arg-type]
    # the same heap with the other player to move is another position
    assert len(set(keys)) == 2 * len({k // 2 for k in keys}) or len(set(keys)) > 1


# -- golden figures ------------------------------------------------------------------------------
def test_tictactoe_golden() -> None:
    """alpha-beta with a 16 MiB table and solve on tic-tac-toe, figures of the reference."""
    r = search(open_source("game:tictactoe"), "alphabeta", tt=16)
    assert (r.value, r.leaves, r.nodes, r.extra["expanded"]) == (0, 517, 2693, 2176)
    done = solve.solve(open_source("game:tictactoe"))
    assert (done.result, done.distance, done.positions, done.nodes, done.leaves) == (
        "draw",
        9,
        2510,
        3877,
        498,
    )
    assert done.tt == {
        "mib": 16,
        "entries": 524288,
        "probes": 7850,
        "hits": 3744,
        "cuts": 2172,
        "orders": 1572,
        "stores": 3877,
        "overwrites": 0,
        "used": 2305,
    }


def test_the_command_line_is_the_same_in_both_cores(sample_trees: Any) -> None:
    path = str(sample_trees / "aima-fig5-2.yaml")

    def run(*args: str) -> str:
        out = CliRunner().invoke(cli, [*args, "--format", "json"])
        assert out.exit_code == 0, out.output
        return out.output

    for args in (
        ("eval", path, "-a", "all", "--tt", "1"),
        ("eval", "game:nim:7", "-a", "alphabeta,negascout,mtdf", "--tt", "1"),
        ("solve", "game:nim:6"),
    ):
        c, p = both(lambda a=args: _untimed(run(*a)))  # type: ignore[misc]
        assert c == p


def _untimed(output: str) -> str:
    import re

    return re.sub(r'"(load_)?seconds": [0-9.e-]+', "", output)


# -- the core's functions themselves ---------------------------------------------------------------
def test_the_core_refuses_keys_that_are_not_one_int_per_node() -> None:
    native = core.native()
    assert native is not None
    tree = Tree.from_nested([[1, 2], [3, 4]])
    args = (tree.end, tree.values, True)
    with pytest.raises(TypeError, match="one key per node"):
        native.tabled(*args, array("q", [0]), 4, 0, 0.0, 0.0, True, None)
    with pytest.raises(TypeError, match="one key per node"):
        native.tabled(*args, array("d", [0.0] * 7), 4, 0, 0.0, 0.0, True, None)
    value, *_ = native.tabled(*args, None, 0, 0, float("-inf"), float("inf"), True, None)
    assert value == 3  # no buckets asked for: one
    found, positions, bad = native.tabled_iterate(*args, None, 1, False, 2, -1.0, None)
    assert (found, positions, bad) == ([], 0, 1)  # node 1 at the horizon has no static value


def test_the_core_refuses_what_is_not_its_arguments() -> None:
    native = core.native()
    assert native is not None
    tree = Tree.from_nested([[1, 2], [3, 4]])
    good = (None, 4, 0, 0.0, 0.0, True, None)
    with pytest.raises(TypeError):
        native.tabled(tree.end, tree.values, True, [0] * 7, *good[1:])  # keys: no buffer
    with pytest.raises(TypeError):
        native.tabled(array("d", [1.0]), tree.values, True, *good)  # not a tree's arrays
    with pytest.raises(TypeError):
        native.tabled(tree.end, tree.values, True, *good[:-1], [0])  # progress
    with pytest.raises(TypeError):
        native.tabled(tree.end, tree.values, True)
    with pytest.raises(TypeError):
        native.tabled_iterate(tree.end, tree.values, True)
    with pytest.raises(TypeError):  # a game's positions that are not array('q')
        native.expand_states(
            array("q", [0, 0]), array("q"), array("q", [1]), None, 0, True, array("d", [0.0]), -1
        )


def test_keys_that_merge_unlike_nodes_do_not_crash_the_core() -> None:
    """Every node one position (a game's key() that merges states with other moves): the
    table's moves may name children a node does not have; the core ignores them."""
    native = core.native()
    assert native is not None
    tree = Tree.from_nested([[1, [2, 3, 4]], [[5, 6], 7, 8], 9])
    keys = array("q", [0] * len(tree))
    for kind in (0, 1, 2):
        native.tabled(tree.end, tree.values, True, keys, 1, kind, -1e9, 1e9, True, None)
    native.tabled_iterate(tree.end, tree.values, True, keys, 1, True, 3, -1.0, None)


def test_iterative_deepening_with_no_time_left_stops_after_one_iteration() -> None:
    tree = Tree(array("i", [7, 4, 3, 4, 7, 6, 7]), array("d", [0, 1, 2, 3, 4, 5, 6]), root_max=True)
    c, p = both(lambda: len(iterative.iterate(tree, 1, seconds=0.0)))
    assert c == p == 1


# -- the memory kept from one table to the next (table.c) ---------------------------------------
def _searched(tree: Tree, tt: int) -> tuple[Any, ...]:
    return seen(search(tree, "alphabeta", tt=tt, leaf_order=True))


def test_a_kept_table_is_empty_to_the_next_search() -> None:
    """Each table is the next generation of a kept block: what the searches before wrote is
    not there (the same results as in a fresh process), whatever sizes came before."""
    native = core.native()
    assert native is not None
    a = Tree.from_nested([[[1, 5], [2, 7]], [[3, 4], [9, 0]], [[8, 2], [6, 6]]])
    b = Tree.from_nested([[[4, 2], [8, 1]], [[5, 5], [0, 3]]], root_max=False)
    native.release_tables()
    fresh = {tt: _searched(b, tt) for tt in (1, 3)}
    for before in (1, 3, 4):  # the same block, a larger one, one larger than b's
        native.release_tables()
        _searched(a, before)
        for tt in (1, 3):
            assert _searched(b, tt) == fresh[tt]
    was = native.keep_tables(0)  # nothing kept: a block of its own for every table
    try:
        assert [_searched(b, tt) for tt in (1, 3)] == [fresh[1], fresh[3]]
        assert native.keep_tables(1) == 0
        assert [_searched(b, tt) for tt in (1, 3)] == [fresh[1], fresh[3]]
    finally:
        native.keep_tables(was)
    for bad in (-1, 4):
        with pytest.raises(ValueError, match="0 to 3"):
            native.keep_tables(bad)
    with pytest.raises(TypeError):
        native.keep_tables("1")


def test_a_kept_tables_generation_goes_round() -> None:
    """65,536 tables on one block: the 16-bit generation goes round, the block is cleared, and
    the entries of the table before are still not seen."""
    native = core.native()
    assert native is not None
    tree = Tree.from_nested([[3, 1], [2, 5]])
    args = (tree.end, tree.values, True, None, 1, 0, float("-inf"), float("inf"), False, None)
    native.release_tables()
    first = native.tabled(*args)
    for _ in range(65_536):
        again = native.tabled(*args)
    assert again == first
    assert first[-1][:2] == (7, 0)  # every probe missed: nothing was left of the tables before


def test_a_table_opened_while_the_kept_blocks_are_in_use_gets_a_block_of_its_own() -> None:
    """MTD(f)'s line comes from a search with a table of its own, opened while the search's
    table is open: with one block kept, that table gets a block of its own (as would a search
    started by another thread while this one lets the interpreter go at a tick)."""
    native = core.native()
    assert native is not None
    game = open_source("game:nim:7")
    alone = agree(lambda: game, "mtdf", 1)
    was = native.keep_tables(1)
    try:
        assert seen(search(game, "mtdf", tt=1, leaf_order=True)) == seen(alone)
    finally:
        native.keep_tables(was)
