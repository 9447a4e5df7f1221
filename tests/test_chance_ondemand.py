"""Expectiminimax, Star1 and Star2 on a game with chance nodes searched on demand in C over
its rules (search_chance_ondemand.c), against the Python searches (chance.ListedRun).

Everything is compared: the exact value and its type (an int or a Fraction), the PV, the
leaves in the order read, the nodes, every figure (probes, distinct leaves, re-reads), and
the tree's numbering after the search (each node's first child, parent, depth and turns).
Where the C rationals cannot hold a value (past 2**CHANCE_BITS) the Python search runs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import chance, compiled, search
from gtsearch.algorithms.base import Stats
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.numbers import Exact
from gtsearch.sources import open_source
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.tree import DEFAULT_MAX_NODES, Tree

from .interrupt import assert_interrupted

native = core.native()
needs_core = pytest.mark.skipif(native is None, reason="the compiled core does not run")

SEARCHES = ["expectiminimax", "star1", "star2"]


def opened(
    spec: str,
    depth: int | None = None,
    moves: str | None = None,
    root_max: bool | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Tree:
    tree = open_source(
        f"game:{spec}", on_demand=True, depth=depth, moves=moves, max_nodes=max_nodes
    )
    assert isinstance(tree, OnDemandTree)
    if root_max is not None:
        tree = tree.with_root(root_max)
    return tree


def run(tree: Tree, name: str, python: bool, **params: Any) -> tuple[Any, ...]:
    """The search's result and exact value's type, the tree's numbering after it, and whether
    the C search ran; ``python``: the Python search."""
    kept = compiled.chance_on_demand
    ran: list[bool] = []

    def c_search(*args: Any) -> Any:
        done = None if python else kept(*args)
        ran.append(done is not None)
        return done

    if name != "expectiminimax":
        params.setdefault("tt", 0)
    compiled.chance_on_demand = c_search  # type: ignore[assignment]
    try:
        r = search(tree, name, leaf_order=True, **params)
    finally:
        compiled.chance_on_demand = kept  # type: ignore[assignment]
    t: Any = tree
    numbering = (list(t.first), list(t.up), list(t.depths), list(t.turn_counts))
    return r._replace(seconds=0.0, tree=None), numbering, ran == [True]


def same_in_both(
    spec: str,
    name: str,
    depth: int | None = None,
    moves: str | None = None,
    root_max: bool | None = None,
    in_c: bool = True,
    **params: Any,
) -> Any:
    """The search in C and in Python on two trees opened alike: everything equal; the first
    in C where the core runs (and ``in_c``)."""
    a = run(opened(spec, depth, moves, root_max), name, False, **params)
    b = run(opened(spec, depth, moves, root_max), name, True, **params)
    assert a[:2] == b[:2]
    assert a[2] == (native is not None and in_c) and not b[2]
    return a[0]


def walk(spec: str, picks: list[int]) -> str | None:
    """The moves of a line of play down the tree (child ``pick % count`` at each node), as
    --moves names them (the tree's forced passes left out): a random position."""
    tree: Any = opened(spec)
    names, n = [], 0
    for pick in picks:
        kids = list(tree.open(n))
        if not kids:
            break
        n = kids[pick % len(kids)]
        name = tree.name_at(n)
        if name != "pass":
            names.append(name)
    return " ".join(names) or None


@settings(max_examples=80, deadline=None)
@given(
    game=st.tuples(st.integers(2, 8), st.integers(2, 4), st.integers(1, 6)),
    depth=st.one_of(st.none(), st.integers(0, 6)),
    picks=st.lists(st.integers(0, 5), max_size=8),
    root=st.sampled_from([None, True, False]),
    name=st.sampled_from(SEARCHES),
    bounds=st.sampled_from([None, (-1, 1), (0, 1), (-1, 0), (-0.25, 0.5), (-2, 1.5), (0, 0)]),
)
def test_random_positions_the_same_in_both(
    game: tuple[int, int, int],
    depth: int | None,
    picks: list[int],
    root: bool | None,
    name: str,
    bounds: tuple[float, float] | None,
) -> None:
    """Random positions of pig with random targets, dice and horizons, cut by --depth (the
    estimate's decimals) or searched to the end, either player at the root; Star1's and
    Star2's leaf bounds the game's or given, wider or narrower than its values (a chance
    node whose window excludes [L, U] is decided at once)."""
    target, die, horizon = game
    spec = f"pig:target={target},die={die},horizon={horizon}"
    try:
        moves = walk(spec, picks)
        opened(spec, depth, moves)
    except UsageError:  # a line of play that leaves no decision to the moves
        assume(False)
    given = {} if bounds is None or name == "expectiminimax" else {"leaf_bounds": bounds}
    same_in_both(spec, name, depth, moves, root, **given)


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize(
    ("spec", "depth"),
    [
        ("pig:target=6,die=3,horizon=6", None),
        ("pig:target=7,die=6,horizon=10", 4),  # sevenths and sixths: long decimals
        ("pig:target=1000,die=3,horizon=8", 6),  # estimates like 0.0015
        # denominators of 10**17 * 6**k: comparisons whose cross products pass 128 bits
        ("pig:target=7,die=6,horizon=20", 9),
    ],
)
def test_games_larger_and_finer_the_same_in_both(spec: str, depth: int | None, name: str) -> None:
    r = same_in_both(spec, name, depth)
    assert r.leaves > 8
    for root_max in (True, False):
        same_in_both(spec, name, depth, "roll 2", root_max)


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize(
    ("root_max", "moves", "value"),
    [(True, None, Fraction(4, 9)), (False, None, 0), (True, "roll 2 stop", 1)],
)
def test_the_value_is_a_fraction_or_an_int_as_in_python(
    name: str, root_max: bool, moves: str | None, value: Exact
) -> None:
    """The exact value (Outcome.exact) of the same type in both: a Fraction where it is not
    whole, an int where it is (the C rules' utility 1.0 an int too)."""
    spec, depth = "pig:target=2,die=3,horizon=3" if moves else "pig:target=4,die=3,horizon=3", None
    found = []
    for python in (False, True):
        kept = compiled.chance_on_demand
        if python:
            compiled.chance_on_demand = lambda *args: None  # type: ignore[assignment]
        try:
            tree = opened(spec, depth, moves, root_max)
            bounds = None if name == "expectiminimax" else ((-1, 1),)
            found.append(getattr(chance, name)(tree, Stats(), *(bounds or ())).exact)
        finally:
            compiled.chance_on_demand = kept  # type: ignore[assignment]
    assert found[0] == found[1] == value and type(found[0]) is type(found[1]) is type(value)
    r = same_in_both(spec, name, depth, moves, root_max)
    assert ("value_exact" in r.extra) == (type(value) is Fraction)


@pytest.mark.parametrize("name", SEARCHES)
def test_the_root_a_leaf(name: str) -> None:
    r = same_in_both("pig:target=4,die=3,horizon=3", name, depth=0)
    assert r.leaves == 1 and r.nodes == 1


@needs_core
@pytest.mark.parametrize("name", SEARCHES)
def test_past_the_c_rationals_the_python_search_runs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Narrower rationals (CHANCE_BITS): the C search runs while they hold every value, and
    from the first width that does not, the Python search runs: the same result either way."""
    spec, depth = "pig:target=7,die=3,horizon=8", 4
    expected = run(opened(spec, depth), name, True)[:2]
    ran = []
    for bits in (2, 8, 16, 24, 32, 48, 56, 64, 72, 80, 96, 126):
        monkeypatch.setattr(compiled, "CHANCE_BITS", bits)
        got = run(opened(spec, depth), name, False)
        assert got[:2] == expected
        ran.append(got[2])
    assert ran[0] is False and ran[-1] is True
    assert ran == sorted(ran)  # once wide enough, wider still is


@needs_core
def test_leaf_bounds_past_64_bits_run_the_python_search() -> None:
    big = 1e30  # exact: 10**30
    same_in_both("pig:target=4,die=3,horizon=3", "star2", in_c=False, leaf_bounds=(-big, big))
    r = same_in_both("pig:target=4,die=3,horizon=3", "star1", leaf_bounds=(-2, 1.5))
    assert r.params["leaf_bounds"] == (-2, 1.5)


@needs_core
def test_the_c_search_numbers_on_after_a_python_search() -> None:
    """Nodes numbered before (a Python search on the same tree) keep their numbers; the C
    search numbers on, and a Python search with a table then reads the tree it left."""
    spec = "pig:target=5,die=3,horizon=5"
    tree, other = opened(spec), opened(spec)
    run(tree, "star1", True, leaf_bounds=(0, 1))
    run(other, "star1", True, leaf_bounds=(0, 1))
    a, b = run(tree, "star2", False), run(other, "star2", True)
    assert a[:2] == b[:2] and a[2]
    tabled = [search(t, "star2", leaf_order=True) for t in (tree, other)]
    assert tabled[0]._replace(seconds=0.0, tree=None) == tabled[1]._replace(seconds=0.0, tree=None)
    assert a[0].pv_labels == tuple(tree.move_names(a[0].pv))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", SEARCHES)
def test_max_nodes_is_the_trees_limit_error(name: str) -> None:
    for python in (False, True):
        tree = opened("pig:target=10,die=3,horizon=8", max_nodes=300)
        with pytest.raises(NodeLimit):
            run(tree, name, python)


@needs_core
def test_the_c_search_refuses_what_it_cannot_search() -> None:
    assert native is not None
    from array import array

    one = array("q", [-1])
    args = ("pig", (4, 3, 3), (0, 0, 0, 1 << 32), True, -1, 1000, one)
    assert (
        native.game_chance("nogame", (), (), True, -1, 10, one, 0, 0, 1, 0, 1, 126, 0, 0, None)
        is None
    )
    assert native.game_chance(*args, 1, -1, 1, 1, 0, 126, 0, 0, None) is None  # a denominator 0
    assert native.game_chance(*args, 1, 2**62, 1, 1, 1, 8, 0, 0, None) is None  # past 2**bits
    for which in (-1, 3):
        with pytest.raises(ValueError):
            native.game_chance(*args, which, 0, 1, 0, 1, 126, 0, 0, None)
    with pytest.raises(ValueError):
        native.game_chance(*args, 0, 0, 1, 0, 1, 1, 0, 0, None)
    with pytest.raises(TypeError):
        native.game_chance(*args, 0, 0, 1, 0, 1, 126)
    with pytest.raises(TypeError):
        native.game_chance("pig", 5, (0,), True, -1, 10, one, 0, 0, 1, 0, 1, 126, 0, 0, None)
    # the rules refuse a die past GAME_MAX_MOVES: None, the Python rules run
    assert (
        native.game_chance(
            "pig", (4, 300, 3), (0,), True, -1, 10, one, 0, 0, 1, 0, 1, 126, 0, 0, None
        )
        is None
    )
    done = native.game_chance(*args, 0, 0, 1, 0, 1, 126, 0, 0, None)
    assert done is not None and (done[0], done[1]) == (4, 9)


@needs_core
@pytest.mark.slow
def test_ctrl_c_interrupts_the_c_search() -> None:
    """Ctrl-C during expectiminimax in C on a large pig: 'interrupted', status 130."""
    pig = "game:pig:target=30,die=6,horizon=40"
    assert_interrupted(["eval", pig, "-a", "expectiminimax", "--max-nodes", "4000000000"])


@pytest.mark.parametrize(
    ("spec", "depth"),
    [
        ("connect4", 3),
        ("nim:heap=9,take=3", None),
        ("othello", 3),  # 4x4: forced passes
        ("dotsandboxes:rows=1,columns=2", None),  # repeated turns: forced passes
        ("hexapawn", 4),
    ],
)
@pytest.mark.parametrize("name", SEARCHES)
def test_games_without_chance_nodes_the_same_in_both(
    spec: str, depth: int | None, name: str
) -> None:
    """The other built-in games with C rules, which have no chance nodes: expectiminimax is
    minimax there, Star1 and Star2 alpha-beta, in C as in Python, either player at the root."""
    bounds = {} if name == "expectiminimax" else {"leaf_bounds": (-1, 1)}
    for root_max in (None, False):
        same_in_both(spec, name, depth, None, root_max, **bounds)
