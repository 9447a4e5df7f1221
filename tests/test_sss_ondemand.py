"""SSS*, DUAL*, their bounded forms and the MT family (MT's own table) on a game searched on
demand over its C rules (search_sss_ondemand.c; the MT family's game_tree.c) against the same
searches in Python (sss._met_sss_core and _met_solution_line; mt.mtd's _met_pass and
pv._met_principal_variation) on the same OnDemandTree: the value, the bound, the PV, the
leaves in order, the nodes, open_max and passes, and the nodes numbered (each node's first
child, parent and depth), over random Connect Four positions, boards of every size, with and
without --depth, either player to move at the root.  Under GTSEARCH_PURE=1 both sides are
Python's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import compiled, search
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.sources import open_source
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.tree import DEFAULT_MAX_NODES, Tree

from .interrupt import assert_interrupted

native = core.native()
needs_core = pytest.mark.skipif(native is None, reason="the compiled core does not run")

#: each search, and the bounds its bounded form (MTD(f): its first guess) is given
SEARCHES = ["sss", "dual", "sss-bounded", "dual-bounded", "mt-sss", "mt-dual", "mtdf"]
#: the searches that take a bound
BOUNDED = {"sss-bounded", "dual-bounded", "mtdf"}
#: the C form of each search, in gtsearch.algorithms.compiled
C_FORM = {name: "mtd_on_demand" if name[:2] == "mt" else "sss_on_demand" for name in SEARCHES}
BOUNDS = [-1.0, -0.25, 0.0, 0.03125, 0.25, 1.0]


def opened(
    spec: str,
    depth: int | None,
    moves: str | None,
    root_max: bool | None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Tree:
    tree = open_source(
        f"game:{spec}", on_demand=True, depth=depth, moves=moves, max_nodes=max_nodes
    )
    assert isinstance(tree, OnDemandTree)
    if root_max is not None:
        tree = tree.with_root(root_max)
    return tree


def run(tree: Tree, name: str, bound: float | None, python: bool) -> tuple[Any, ...]:
    """The search's result, the tree's numbering after it, and whether the C search ran;
    ``python``: the Python form."""
    params = {} if bound is None else {"bound": bound}
    form = C_FORM[name]
    kept = getattr(compiled, form)
    ran: list[bool] = []

    def c_search(*args: Any) -> Any:
        done = None if python else kept(*args)
        ran.append(done is not None)
        return done

    setattr(compiled, form, c_search)
    try:
        r = search(tree, name, leaf_order=True, **params)
    finally:
        setattr(compiled, form, kept)
    numbering = (list(tree.first), list(tree.up), list(tree.depths))  # type: ignore[attr-defined]
    return r._replace(seconds=0.0, tree=None), numbering, ran == [True]


def same_in_both(
    spec: str,
    depth: int | None,
    name: str,
    bound: float | None,
    moves: str | None = None,
    root_max: bool | None = None,
    in_c: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Any:
    """The search in C and in Python on two trees opened alike: everything equal; the first
    in C where the core runs (and ``in_c``: the board fits its rules)."""
    a = run(opened(spec, depth, moves, root_max, max_nodes), name, bound, python=False)
    b = run(opened(spec, depth, moves, root_max, max_nodes), name, bound, python=True)
    assert a[:2] == b[:2]
    assert a[2] == (native is not None and in_c) and not b[2]
    return a[0]


@pytest.mark.parametrize("name", SEARCHES)
def test_connect4_at_depth_4_the_same_in_both(name: str) -> None:
    r = same_in_both("connect4", 4, name, 0.0 if name in BOUNDED else None)
    assert r.leaves > 100 and r.extra.get("open_max", r.extra.get("passes")) > 1


@pytest.mark.parametrize("bound", [*BOUNDS, 0.0703125])
@pytest.mark.parametrize("name", ["sss-bounded", "dual-bounded"])
def test_the_bounded_forms_on_each_side_of_the_value(name: str, bound: float) -> None:
    """connect4 at depth 3 is worth 0.0703125 from the start: bounds below, at and above it;
    exact where the bound is above the value (SSS*'s) or below it (DUAL*'s)."""
    value = same_in_both("connect4", 3, "sss", None).value
    assert value == 0.0703125
    r = same_in_both("connect4", 3, name, bound)
    exact = value < bound if name == "sss-bounded" else value > bound
    assert (r.bound is None) == exact
    if exact:
        assert r.value == value
    else:  # a lower bound of the value (SSS*'s), an upper bound (DUAL*'s)
        assert r.value <= value if name == "sss-bounded" else r.value >= value


@settings(max_examples=60, deadline=None)
@given(
    board=st.tuples(st.integers(1, 6), st.integers(1, 7), st.integers(2, 4)),
    depth=st.one_of(st.none(), st.integers(0, 5)),
    moves=st.lists(st.integers(1, 7), max_size=8),
    root=st.sampled_from([None, True, False]),
    name=st.sampled_from(SEARCHES),
    bound=st.sampled_from(BOUNDS),
)
def test_random_positions_the_same_in_both(
    board: tuple[int, int, int],
    depth: int | None,
    moves: list[int],
    root: bool | None,
    name: str,
    bound: float,
) -> None:
    """Random positions of random boards, cut or searched to the end where the board is small
    (at most 12 squares), either player to move at the root."""
    rows, columns, k = board
    assume(depth is not None or rows * columns <= 12)
    spec = f"connect4:rows={rows},columns={columns},k={k}"
    text = " ".join(str(m) for m in moves if m <= columns) or None
    try:
        opened(spec, depth, text, None)
    except UsageError:  # a move into a full column, or after the game ended
        assume(False)
    bound_ = bound if name in BOUNDED else None
    same_in_both(spec, depth, name, bound_, text, root, (rows + 1) * columns <= 64)


@settings(max_examples=25, deadline=None)
@given(
    depth=st.integers(1, 4),
    moves=st.lists(st.integers(1, 7), max_size=24),
    root=st.sampled_from([None, True, False]),
    name=st.sampled_from(SEARCHES),
    bound=st.sampled_from(BOUNDS),
)
def test_random_positions_of_the_full_board_the_same_in_both(
    depth: int, moves: list[int], root: bool | None, name: str, bound: float
) -> None:
    """Random positions of the 6 x 7 board, up to 24 moves in, cut at depths 1 to 4."""
    text = " ".join(map(str, moves)) or None
    try:
        opened("connect4", depth, text, None)
    except UsageError:  # a move into a full column, or after the game ended
        assume(False)
    same_in_both("connect4", depth, name, bound if name in BOUNDED else None, text, root)


@pytest.mark.parametrize("name", ["sss", "mt-sss"])
def test_a_win_at_once_then_a_move_that_goes_on(name: str) -> None:
    """X to move after 1 2 1 3 wins at once in the first column, and its other moves go on:
    with X the MIN player at the root, SSS*'s case 4 reads that leaf first and, OPEN being
    empty, goes on to the next child, which is no leaf (case 6)."""
    spec = "connect4:rows=4,columns=4,k=3"
    tree = opened(spec, 3, "1 2 1 3", False)
    kids = tree.open(0)  # type: ignore[attr-defined]
    assert tree.end[kids[0]] == kids[0] + 1 and tree.end[kids[1]] != kids[1] + 1
    assert same_in_both(spec, 3, name, None, "1 2 1 3", False).leaves > 1


def test_a_game_deeper_than_the_packed_paths() -> None:
    """Connect Four 3 x 6, three in a row, to the end: lines 18 moves deep, past the 16 levels
    whose paths OPEN packs into 128 bits (deeper nodes are compared by walking up)."""
    r = same_in_both("connect4:rows=3,columns=6,k=3", None, "sss", None)
    assert len(r.pv) > 1


@pytest.mark.parametrize("name", ["sss", "mt-dual"])
def test_a_budget_past_2_31_nodes(name: str) -> None:
    """--max-nodes past 2**31: the leaves listed as 8-byte numbers, the same search."""
    assert same_in_both("connect4", 3, name, None, max_nodes=3 * 10**9).leaves > 1


def test_a_board_too_big_for_the_c_rules_runs_the_python_rules() -> None:
    """Eight rows by eight columns do not fit the C bitboard: the Python search runs (None)."""
    same_in_both("connect4:rows=8,columns=8,k=4", 2, "sss", None, in_c=False)


@needs_core
def test_the_c_search_numbers_what_the_python_search_does() -> None:
    """Nodes numbered before (a search in Python on the same tree) keep their numbers; the C
    search continues the numbering, and the tree then answers paths and names of its nodes."""
    tree = opened("connect4", 3, None, None)
    first = run(tree, "sss-bounded", -1.0, python=True)
    again = run(tree, "sss", None, python=False)
    other = opened("connect4", 3, None, None)
    run(other, "sss-bounded", -1.0, python=True)
    assert run(other, "sss", None, python=True)[:2] == again[:2]
    assert len(again[1][0]) > len(first[1][0])
    r = again[0]
    assert r.pv_labels == tuple(tree.move_names(r.pv))


@needs_core
@pytest.mark.parametrize("name", ["sss", "dual", "mt-sss"])
def test_max_nodes_is_the_trees_limit_error(name: str) -> None:
    tree = open_source("game:connect4", on_demand=True, depth=6, max_nodes=500)
    with pytest.raises(NodeLimit):
        search(tree, name)


@needs_core
def test_the_c_search_refuses_what_is_not_a_tree_of_its_own() -> None:
    assert native is not None
    from array import array

    one = array("q", [-1])
    args = ("connect4", (6, 7, 4), (0, 0, 0), True, 2, 1000)
    assert native.game_sss("nogame", (), (), True, -1, 10, one, one, one, 1.0, 1.0, None) is None
    with pytest.raises(ValueError):
        native.game_sss(*args, array("q"), array("q"), array("q"), 1.0, 1.0, None)
    with pytest.raises(ValueError):
        native.game_sss(*args, one, array("q"), one, 1.0, 1.0, None)
    with pytest.raises(ValueError):
        native.game_sss(*args, one, one, array("q"), 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss(*args, array("d", [1.0]), one, one, 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss(*args, one, array("d", [1.0]), one, 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss(*args, one, one, array("d", [1.0]), 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss("connect4", 5, (0, 0, 0), True, -1, 10, one, one, one, 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss("connect4", (6, 7, 4), 5, True, -1, 10, one, one, one, 1.0, 1.0, None)
    listed = native.game_sss(
        "connect4", [6, 7, 4], [0, 0, 0], True, 1, 99, one, one, one, 9, 1, None
    )
    # lists for tuples; the start one move deep, the centre best
    assert listed is not None and listed[:2] == (
        same_in_both("connect4", 1, "sss", None).value,
        [0, 4],
    )
    with pytest.raises(OverflowError):
        native.game_sss("connect4", (6, 7, 4), (-1,), True, -1, 10, one, one, one, 1.0, 1.0, None)
    with pytest.raises(TypeError):
        native.game_sss("connect4", (6, 7, 4), (0, 0, 0), True, -1, 10, one, one, one)
    with pytest.raises(TypeError):  # a progress that is not an array
        native.game_sss("connect4", (6, 7, 4), (0, 0, 0), True, -1, 10, one, one, one, 1.0, 1.0, 5)


@needs_core
@pytest.mark.slow
def test_ctrl_c_interrupts_the_c_search() -> None:
    """Ctrl-C during SSS* in C on the whole of Connect Four: 'interrupted', status 130."""
    assert_interrupted(["eval", "game:connect4", "-a", "sss", "--depth", "12"])


@pytest.mark.parametrize(
    ("spec", "depth", "moves"),
    [
        ("othello", None, None),  # 4x4: forced passes
        ("othello:rows=6,columns=6", 4, "c2"),
        ("hexapawn", None, None),
        ("hexapawn:rows=4,columns=4", 6, None),
        ("nim:heap=12,take=3", None, None),
        ("nim:heap=9,misere=true", None, None),
        ("dotsandboxes:rows=1,columns=2", None, None),  # repeated turns: forced passes
        ("dotsandboxes:rows=2,columns=2", 5, None),
    ],
)
@pytest.mark.parametrize("name", SEARCHES)
def test_every_game_with_c_rules_the_same_in_both(
    spec: str, depth: int | None, moves: str | None, name: str
) -> None:
    """The other built-in games without chance whose rules are in C (gamerules.rules_of):
    passes, repeated turns, ties and cuts, the same in C as in Python."""
    for root_max in (None, False):
        same_in_both(spec, depth, name, 0.0 if name in BOUNDED else None, moves, root_max)
