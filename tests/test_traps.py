"""The trap model of random: sources (docs/sources.md): by hand, in both cores, its promise."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core, search
from gtsearch.errors import UsageError
from gtsearch.research.mcts_sweep import move_values
from gtsearch.sources import open_source, traps
from gtsearch.sources.randomtree import LazyTree, RandomSpec, materialize, native_whole
from gtsearch.sources.splitmix import root_key
from tests.test_native import TWO_PLAYER

needs_c = pytest.mark.skipif(core.native() is None, reason="needs the compiled core")


def test_trap_tree_by_hand() -> None:
    """random:b=2,d=3,seed=1,model=trap from the definition, draw by draw (mid = 0):

    the root (MAX, FREE, 3 levels below >= k + 1 = 2): draw 1 makes child 1 safe; child 0's
    draw 2 is 0.152 < p = 0.5: a trap for MAX.  Under it MIN's refutation (draw 1) is child
    0, lost for MAX: (-100 -100); child 1 is GOOD for MAX, leaves in [0, 99]: (36 72).
    Child 1 (MIN, FREE, 2 levels below): child 1 safe, child 0's draw 2 is 0.023: a trap for
    MIN, whose MAX node refutes with child 1 (lost for MIN: 100), child 0 GOOD for MIN in
    [-99, 0]: -9.  Child 1 is FREE, 1 level below: no traps, leaves in [-99, 99]."""
    expected = [[[-100, -100], [36, 72]], [[-9, 100], [27, -47]]]
    tree = materialize(open_source("random:b=2,d=3,seed=1,model=trap"))
    assert tree.to_nested() == expected
    with core.pure():
        assert materialize(open_source("random:b=2,d=3,seed=1,model=trap")).to_nested() == expected
    kids = [traps.child_state(traps.ROOT, root_key(1), 0, i, 2, 3, 0.5, 1) for i in range(2)]
    assert kids == [(traps.TRAP, 0, 1), traps.ROOT]
    assert search(tree, "alphabeta").value == 27 and move_values(tree, 2, 3) == [-100, 27]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("random:b=2,d=3,model=trap,values=0:1", "HI - LO >= 2"),
        ("random:b=2,d=3,model=trap,k=0", "k (the traps' depth) must be 1 to 2**24"),
        ("random:b=2,d=3,k=2", "k applies to model=trap only"),
        ("random:b=2,d=3,model=trap,order=best", "order best"),
    ],
)
def test_bad_trap_specs(spec: str, message: str) -> None:
    with pytest.raises(UsageError) as e:
        open_source(spec)
    assert message in str(e.value)


@st.composite
def trap_specs(draw: Any) -> RandomSpec:
    lo = draw(st.integers(-(2**53), 2**53 - 2))
    hi = min(lo + draw(st.integers(2, 50) | st.sampled_from([2**31, 2**53])), 2**53)
    return RandomSpec(
        draw(st.integers(1, 4)),
        draw(st.integers(0, 5)),
        seed=draw(st.integers(-(2**70), 2**70)),
        model="trap",
        lo=lo,
        hi=hi,
        p=draw(st.floats(0, 1)),
        k=draw(st.integers(1, 4)),
    )


@needs_c
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trap_specs(), st.booleans())
def test_trap_sources_alike_in_both_cores(spec: RandomSpec, root_max: bool) -> None:
    """The C builder and the C cursor give the Python cursor's trap tree, node for node, and
    every search of it the same result."""
    built = native_whole(spec)
    with core.pure():
        reference = materialize(LazyTree(spec))
    assert built is not None
    assert list(built.end) == list(reference.end)
    assert [repr(v) for v in built.values] == [repr(v) for v in reference.values]
    for algo in TWO_PLAYER:
        params = {"bound": 0} if algo.needs_bound else {}
        ours = search(LazyTree(spec, root_max=root_max), algo, leaf_order=True, **params)
        with core.pure():
            ref = search(LazyTree(spec, root_max=root_max), algo, leaf_order=True, **params)
        assert ours._replace(seconds=0.0, tree=None) == ref._replace(seconds=0.0, tree=None)


@settings(max_examples=40, deadline=None)
@given(trap_specs())
def test_a_trap_is_never_optimal(spec: RandomSpec) -> None:
    """The model's promise: a planted trap at the root is worth MAX's worst (LO), every other
    move more, so minimax never takes a trap while a safe move exists."""
    if spec.d < 1:
        return
    tree = materialize(LazyTree(spec))
    values = move_values(tree, spec.b, spec.d)
    key = root_key(spec.seed)
    for i, v in enumerate(values):
        state = traps.child_state(traps.ROOT, key, 0, i, spec.b, spec.d, spec.p, spec.k)
        assert (v == spec.lo) == traps.is_trap(state)
    assert max(values) > spec.lo


@needs_c
def test_the_c_generator_checks_the_trap_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """What RandomSpec refuses, the C builder and cursor refuse too (never a wrong tree)."""
    native = core.native()
    assert native is not None
    _end, values = native.random_tree(2, 2, 4, 1, -100, 100, 0.5, False, 1)
    expected = materialize(open_source("random:b=2,d=2,seed=1,model=trap")).values
    assert [repr(v) for v in values] == [repr(v) for v in expected]
    for lo, hi, k in ((0, 1, 1), (0, 9, 0), (0, 9, 2**24 + 1)):
        with pytest.raises(ValueError, match="out of range"):
            native.random_tree(2, 2, 4, 1, lo, hi, 0.5, False, k)
    tree = LazyTree(RandomSpec(2, 2, model="trap"))
    view = tree.native_view()
    assert view is not None
    bad = (*view[:4], 0, 1, *view[6:9], 1, view[-1])  # values 0:1
    monkeypatch.setattr(LazyTree, "native_view", lambda self: bad)
    with pytest.raises(ValueError, match="out of range"):
        search(tree, "alphabeta")
