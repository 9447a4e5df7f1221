"""The invariants of docs/algorithms.md ("What must always hold") over random trees."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import ALGORITHMS, Stats, find_algorithm, search
from gtsearch.algorithms.mt import mt_dual, mt_sss, mtdf
from gtsearch.errors import UsageError
from gtsearch.tree import Tree

from .strategies import minimax, order, trees, uniform_from

roots = st.booleans()


def leaves_of(tree: Tree, name: str, **params: float) -> tuple[object, list[int]]:
    r = search(tree, name, leaf_order=True, **params)
    assert r.leaf_order is not None
    nodes = [tree.node_at(p) for p in r.leaf_order]
    assert r.leaves == len(nodes) == len(set(nodes))
    assert all(tree.is_leaf(n) for n in nodes)
    return r, nodes


def node_values(tree: Tree) -> dict[int, float]:
    """Minimax value of every node, by the oracle over nested lists."""
    out = {}
    for n in range(tree.n_nodes):
        depth = len(tree.path_of(n))
        out[n] = minimax(tree.to_nested(n), tree.root_max == (depth % 2 == 0))
    return out


def check_pv(tree: Tree, r: object, values: dict[int, float]) -> None:
    pv = list(r.pv)  # type: ignore[attr-defined]
    node = tree.node_at(pv)
    assert tree.is_leaf(node), "the PV ends at a leaf"
    path_nodes = [tree.node_at(pv[:k]) for k in range(len(pv) + 1)]
    if r.exact:  # type: ignore[attr-defined]
        assert all(values[n] == values[0] for n in path_nodes), "every PV move keeps the value"
    assert len(r.pv_labels) == len(pv)  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(trees, roots)
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True)
@example(5, False)
@example([[1]], True)
def test_invariants(nested: object, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    values = node_values(tree)
    assert values[0] == true

    mm, mm_leaves = leaves_of(tree, "minimax")
    f1, f1_leaves = leaves_of(tree, "f1")
    ab, ab_leaves = leaves_of(tree, "alphabeta")
    sss, sss_leaves = leaves_of(tree, "sss")
    dual, dual_leaves = leaves_of(tree, "dual")
    for r in (mm, f1, ab, sss, dual):
        assert r.exact and r.bound is None  # type: ignore[attr-defined]
        assert r.value == true  # type: ignore[attr-defined]
        check_pv(tree, r, values)
    assert mm_leaves == [n for n in range(tree.n_nodes) if tree.is_leaf(n)]
    assert set(ab_leaves) <= set(f1_leaves) <= set(mm_leaves)
    assert set(sss_leaves) <= set(ab_leaves)
    assert set(dual_leaves) <= set(ab_leaves)

    stats = Stats()
    assert mt_sss(tree, stats).value == true
    assert list(stats.leaves) == sss_leaves, "SSS* evaluates MT-SSS*'s leaves in the same order"
    stats = Stats()
    assert mt_dual(tree, stats).value == true
    assert sorted(stats.leaves) == sorted(dual_leaves), "DUAL* evaluates MT-DUAL*'s leaf set"


bounds = st.integers(-22, 22).map(float) | st.sampled_from([0.5, -1.25, 2.0, 3.0])


@settings(max_examples=300, deadline=None)
@given(trees, roots, bounds)
def test_bounded_searches(nested: object, root_max: bool, bound: float) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    values = node_values(tree)
    _, ab_leaves = leaves_of(tree, "alphabeta")

    r, leaves = leaves_of(tree, "sss-bounded", bound=bound)
    assert set(leaves) <= set(ab_leaves)
    if true < bound:
        assert r.exact and r.value == true
    else:
        assert not r.exact and r.bound == "lower" and r.value == bound
    check_pv(tree, r, values)

    r, leaves = leaves_of(tree, "dual-bounded", bound=bound)
    assert set(leaves) <= set(ab_leaves)
    if true > bound:
        assert r.exact and r.value == true
    else:
        assert not r.exact and r.bound == "upper" and r.value == bound
    check_pv(tree, r, values)

    # F1 with a bound, in MAX's terms: one-sided for the player to move at the root
    r, leaves = leaves_of(tree, "f1", bound=bound)
    _, f1_full = leaves_of(tree, "f1")
    assert set(leaves) <= set(f1_full)
    if r.exact:
        assert r.value == true
        assert (true < bound) if root_max else (true > bound)
    elif r.bound == "lower":
        assert root_max and true >= r.value >= bound
    else:
        assert not root_max and true <= r.value <= bound

    # MTD(f) from any first guess, including the value itself
    for first in (bound, true):
        stats = Stats()
        assert mtdf(tree, stats, first).value == true


@settings(max_examples=300, deadline=None)
@given(trees, roots, bounds, bounds)
def test_alphabeta_window(nested: object, root_max: bool, a: float, b: float) -> None:
    if a == b:
        b = a + 1
    alpha, beta = min(a, b), max(a, b)
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    r, leaves = leaves_of(tree, "alphabeta", alpha=alpha, beta=beta)
    _, full = leaves_of(tree, "alphabeta")
    assert set(leaves) <= set(full)
    if alpha < true < beta:
        assert r.exact and r.value == true
    elif true <= alpha:
        assert r.bound == "upper" and true <= r.value <= alpha
    else:
        assert r.bound == "lower" and beta <= r.value <= true


@settings(max_examples=200, deadline=None)
@given(trees, roots)
def test_vectorised_minimax_matches_node_by_node(nested: object, root_max: bool) -> None:
    from gtsearch.algorithms import depthfirst
    from gtsearch.algorithms.vector import minimax_levels

    tree = Tree.from_nested(nested, root_max=root_max)
    plain = search(tree, "minimax", leaf_order=True)
    stats = Stats()
    outcome = minimax_levels(tree, stats)
    assert outcome.value == plain.value
    assert outcome.pv is not None and tuple(tree.path_of(outcome.pv[-1])) == plain.pv
    assert [tuple(tree.path_of(int(n))) for n in stats.leaves] == list(plain.leaf_order or ())
    assert len(tree.end) < depthfirst.VECTOR_MIN_NODES


def km_minimal(b: int, d: int) -> int:
    return b ** math.ceil(d / 2) + b ** (d // 2) - 1


@pytest.mark.parametrize("b", [2, 3, 4, 5])
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("root_max", [True, False])
def test_knuth_moore_minimal_tree(b: int, d: int, root_max: bool) -> None:
    rng = random.Random(b * 100 + d)
    nested = uniform_from([rng.randint(-100, 100) for _ in range(b**d)], b, d)
    tree = Tree.from_nested(order(nested, root_max, best_first=True), root_max=root_max)
    for name in ("alphabeta", "sss", "dual"):
        assert search(tree, name).leaves == km_minimal(b, d), name


@pytest.mark.parametrize("b", [2, 3, 4])
@pytest.mark.parametrize("d", [1, 2, 3])
def test_worst_first_shallow_evaluates_everything(b: int, d: int) -> None:
    rng = random.Random(7 * b + d)
    distinct = rng.sample(range(-1000, 1000), b**d)
    for root_max in (True, False):
        nested = order(uniform_from(distinct, b, d), root_max, best_first=False)
        tree = Tree.from_nested(nested, root_max=root_max)
        assert search(tree, "alphabeta").leaves == b**d


def test_root_is_a_leaf() -> None:
    tree = Tree.from_nested(7)
    for algo in ALGORITHMS:
        # bounds on the side that leaves the value exact: 7 < 10 for SSS-bounded, 7 > 0 for DUAL-bounded
        params = {"bound": 0 if algo.name.startswith("dual") else 10} if algo.needs_bound else {}
        r = search(tree, algo, **params)
        assert (r.value, r.exact, r.leaves, r.pv) == (7, True, 1, ())


# A 100,000-deep chain searched by every algorithm without a stack overflow: in
# tests/test_hostile.py (test_100k_deep_chains_with_every_algorithm), on the chain from_nested
# builds and on the chains every reader loads, once per distinct layout.


def test_values_print_as_written() -> None:
    tree = Tree.from_nested([[3, 2.5], [2.0, 9]])
    assert search(tree, "minimax").value == 2.5
    tree = Tree.from_nested([[3, 4], [2.0, 9]])
    r = search(tree, "minimax")
    assert r.value == 3 and isinstance(r.value, int)
    r = search(Tree.from_nested([[3.0, 4]]), "minimax")
    assert isinstance(r.value, float)
    r = search(Tree.from_nested([[3, 4], [5, 6]]), "sss-bounded", bound=2)
    assert r.value == 2 and isinstance(r.value, int) and r.bound == "lower"


def test_registry_and_usage_errors() -> None:
    assert find_algorithm("AB").name == "alphabeta"
    assert find_algorithm("sss*").name == "sss"
    assert find_algorithm("dual*").name == "dual"
    assert find_algorithm("bs*").name == "sss-bounded"
    assert find_algorithm("f2").name == "alphabeta"
    names = [a.name for a in ALGORITHMS]
    assert len(names) == len(set(names))
    tree = Tree.from_nested([[1, 2]])
    with pytest.raises(UsageError, match="unknown algorithm"):
        find_algorithm("nope")
    with pytest.raises(UsageError, match="needs --bound"):
        search(tree, "sss-bounded")
    with pytest.raises(UsageError, match="does not apply"):
        search(tree, "minimax", bound=3)
    with pytest.raises(UsageError, match="alpha < beta"):
        search(tree, "alphabeta", alpha=3, beta=3)


def test_sss_open_list_is_reported() -> None:
    tree = Tree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    r = search(tree, "sss")
    assert r.extra["open_max"] == 3
