"""NegaScout and SCOUT against minimax, textbook versions on integer ranks, and alpha-beta."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import find_algorithm, search
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

from .strategies import minimax, trees

INF = math.inf
Path_ = tuple[int, ...]
T = TypeVar("T")
NAMES = ("negascout", "scout")


# -- textbook versions over nested lists -----------------------------------------------
# They run on the tree with every leaf replaced by its rank among the distinct
# leaf values: a search only compares values, so it takes the same decisions
# on the ranks, where the integer null window (a, a + 1) of the papers is
# exact.  Equal leaf orders therefore show that gtsearch's float null windows
# are exact too.


def last_tree(f: Callable[[Any], T]) -> Callable[[Any], T]:
    """``f`` remembering its result for the last tree it was given (that very object).

    The reference searches of one tree (the 549,946-node tic-tac-toe tree, once per
    algorithm) then rank it once, not once per search.  Trees are never changed in place.
    """
    last: list[Any] = []

    @functools.wraps(f)
    def remembered(nested: Any) -> T:
        if not last or last[0] is not nested:
            last[:] = [nested, f(nested)]
        return last[1]

    return remembered


@last_tree
def ranked(nested: Any) -> Any:
    """The tree with each leaf value replaced by its rank (0, 1, ...) among the distinct values."""
    found: list[float] = []

    def collect(node: Any) -> None:
        if isinstance(node, list):
            for c in node:
                collect(c)
        else:
            found.append(node)

    collect(nested)
    rank = {v: i for i, v in enumerate(sorted(set(found)))}

    def build(node: Any) -> Any:
        return [build(c) for c in node] if isinstance(node, list) else rank[node]

    return build(nested)


def ref_negascout(
    node: Any, sign: int, alpha: float, beta: float, path: Path_, out: list[Path_]
) -> float:
    """Reinefeld's NegaScout, fail-soft, integer null windows; a leaf child is not re-searched."""
    if not isinstance(node, list):
        out.append(path)
        return sign * node
    m = -INF
    for i, c in enumerate(node):
        here = path + (i,)
        if not isinstance(c, list):
            out.append(here)
            t: float = sign * c
        elif i == 0:
            t = -ref_negascout(c, -sign, -beta, -alpha, here, out)
        else:
            a = max(alpha, m)
            t = -ref_negascout(c, -sign, -(a + 1), -a, here, out)
            if a < t < beta:
                t = -ref_negascout(c, -sign, -beta, -t, here, out)
        m = max(m, t)
        if m >= beta:
            break
    return m


def ref_test(node: Any, v: float, op: str, is_max: bool, path: Path_, out: list[Path_]) -> bool:
    """Pearl's TEST(S, v, op), op '>' or '>=': does the value of S satisfy it?"""
    if not isinstance(node, list):
        out.append(path)
        return node > v if op == ">" else node >= v
    for i, c in enumerate(node):
        ok = ref_test(c, v, op, not is_max, path + (i,), out)
        if is_max and ok:
            return True
        if not is_max and not ok:
            return False
    return not is_max


def ref_scout(node: Any, is_max: bool, path: Path_, out: list[Path_]) -> float:
    """Pearl's EVAL: MAX EVALs S.k when TEST(S.k, v, >), MIN when not TEST(S.k, v, >=)."""
    if not isinstance(node, list):
        out.append(path)
        return node  # type: ignore[no-any-return]
    v = ref_scout(node[0], not is_max, path + (0,), out)
    for i, c in enumerate(node[1:], 1):
        here = path + (i,)
        if not isinstance(c, list):  # testing a leaf is reading it: once
            out.append(here)
            if (c > v) if is_max else (c < v):
                v = c
        elif is_max and ref_test(c, v, ">", False, here, out):
            v = ref_scout(c, False, here, out)
        elif not is_max and not ref_test(c, v, ">=", True, here, out):
            v = ref_scout(c, True, here, out)
    return v


def unrank(nested: Any, rank: float) -> Any:
    """The leaf value of ``nested`` whose rank is ``rank``."""
    return distinct_values(nested)[int(rank)]


@last_tree
def distinct_values(nested: Any) -> list[Any]:
    """The distinct leaf values, in increasing order (ranks index them)."""
    return sorted(set(leaf_values(nested)))


def leaf_values(nested: Any) -> list[Any]:
    stack, out = [nested], []
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
        else:
            out.append(node)
    return out


def reference(name: str, nested: Any, root_max: bool) -> tuple[Any, list[Path_]]:
    """(value, evaluated leaves as paths) of the textbook ``negascout`` or ``scout`` on the ranks."""
    tree = ranked(nested)
    out: list[Path_] = []
    if name == "negascout":
        sign = 1 if root_max else -1
        rank = sign * ref_negascout(tree, sign, -INF, INF, (), out)
    else:
        rank = ref_scout(tree, root_max, (), out)
    return unrank(nested, rank), out


# -- helpers -------------------------------------------------------------------------------
def evaluated(tree: Tree, r: Any) -> list[int]:
    assert r.leaf_order is not None
    return [tree.node_at(p) for p in r.leaf_order]


def assert_valid_pv(tree: Tree, nested: Any, r: Any) -> None:
    """The PV reaches a leaf and every node on it has the root's minimax value."""
    value = minimax(nested, tree.root_max)
    node, is_max = nested, tree.root_max
    for i in r.pv:
        assert isinstance(node, list) and 0 <= i < len(node)
        node, is_max = node[i], not is_max
        assert minimax(node, is_max) == value, f"PV {r.pv} leaves the value {value}"
    assert not isinstance(node, list)


# -- properties ------------------------------------------------------------------------------
@settings(max_examples=250, deadline=None)
@given(trees, st.booleans(), st.sampled_from(NAMES))
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True, "negascout")
@example([[[1, 2], [3, 0]], [[2, 5], [4, 1]]], False, "scout")
@example(7, True, "scout")
@example([[0.1, 0.30000000000000004], [0.3, 0.2]], True, "negascout")
def test_exact_like_minimax_and_the_textbook(nested: Any, root_max: bool, name: str) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    r = search(tree, name, leaf_order=True)
    assert r.exact and r.bound is None
    assert r.value == minimax(nested, root_max)
    assert_valid_pv(tree, nested, r)

    leaves = evaluated(tree, r)
    assert r.leaves == len(leaves), "leaves counts every evaluation, re-reads included"
    assert r.extra["distinct_leaves"] == len(set(leaves))
    assert r.extra["re_evaluations"] == r.leaves - len(set(leaves))
    assert all(tree.is_leaf(n) for n in leaves)

    ref_value, ref_leaves = reference(name, nested, root_max)
    assert [tuple(p) for p in r.leaf_order or ()] == ref_leaves
    assert ref_value == r.value


@settings(max_examples=250, deadline=None)
@given(trees, st.booleans())
def test_negascout_reads_no_leaf_that_alphabeta_skips(nested: Any, root_max: bool) -> None:
    """Reinefeld: NegaScout never examines a node that alpha-beta prunes."""
    tree = Tree.from_nested(nested, root_max=root_max)
    ab = set(evaluated(tree, search(tree, "alphabeta", leaf_order=True)))
    assert set(evaluated(tree, search(tree, "negascout", leaf_order=True))) <= ab


def test_scout_may_read_a_leaf_that_alphabeta_skips() -> None:
    """SCOUT's dominance is weaker: its EVAL of a child that passed TEST has no window.

    Root MAX, the left half is worth 2.  TEST(right half, 2, >) passes, so SCOUT
    EVALs it, and EVAL reads both leaves of [0, 0], where alpha-beta, with 2
    already in hand, stops at the first 0.
    """
    nested = [[[[4, 1], [9, 6]], [[8, 2], [9, 0]]], [[[0, 0], [4, 3]], [[7, 6], [3, 7]]]]
    tree = Tree.from_nested(nested)
    ab = search(tree, "alphabeta", leaf_order=True).leaf_order or ()
    sc = search(tree, "scout", leaf_order=True).leaf_order or ()
    assert set(sc) - set(ab) == {(1, 0, 0, 1)}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("b, d", [(b, d) for b in (2, 3, 4) for d in range(1, 7)])
def test_best_first_is_the_minimal_tree_without_re_searches(name: str, b: int, d: int) -> None:
    tree = uniform_tree(b, d, seed=b * 10 + d, order="best")
    r = search(tree, name)
    assert r.leaves == b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert r.extra["re_evaluations"] == 0


def test_float_null_windows_are_exact() -> None:
    """Values one ulp apart: an epsilon or +1 null window would merge them."""
    x = 0.1
    y = math.nextafter(x, INF)
    z = math.nextafter(y, INF)
    nested = [[x, z], [y, z], [z, x], [[y, z], [z, y]]]
    for root_max in (True, False):
        true = minimax(nested, root_max)
        for name in NAMES:
            tree = Tree.from_nested(nested, root_max=root_max)
            r = search(tree, name, leaf_order=True)
            assert r.value == true, (name, root_max)
            assert [tuple(p) for p in r.leaf_order or ()] == reference(name, nested, root_max)[1]


def test_re_searches_are_counted() -> None:
    # the second child fails high on its null window and is searched again
    tree = Tree.from_nested([[1, 2], [[5, 6], [7, 8]]])
    r = search(tree, "negascout", leaf_order=True)
    assert r.value == 6
    assert r.extra["re_evaluations"] > 0
    assert r.leaves == r.extra["distinct_leaves"] + r.extra["re_evaluations"]
    assert len(r.leaf_order or ()) == r.leaves


@pytest.mark.parametrize("name", NAMES)
def test_deep_comb_does_not_recurse(name: str) -> None:
    """5,000 levels, each a leaf and a subtree: far beyond Python's recursion limit."""
    rng = random.Random(1)
    nested: Any = 0
    for _ in range(5000):
        nested = (
            [rng.randint(-9, 9), nested] if rng.random() < 0.5 else [nested, rng.randint(-9, 9)]
        )
    tree = Tree.from_nested(nested)
    r = search(tree, name)
    assert r.value == search(tree, "minimax").value


def test_registry_entries() -> None:
    assert find_algorithm("PVS").name == "negascout"
    assert find_algorithm("pearl-scout").name == "scout"
    for name in NAMES:
        algo = find_algorithm(name)
        assert algo.takes is None and not algo.needs_bound and algo.source


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_core_is_asked_first(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """compiled.negascout / compiled.scout get the search's own tree and stats; what the core
    answers is the answer, and only when it declines (None, as under the pure core) does
    Python search.  (Found by mutation testing, docs/development.md.)"""
    from gtsearch.algorithms import Outcome, Stats, compiled, scout

    tree = Tree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    calls: list[tuple[Any, ...]] = []
    answer: list[Outcome | None] = [None]

    def core(*args: Any) -> Outcome | None:
        calls.append(args)
        return answer[0]

    monkeypatch.setattr(compiled, name, core)
    stats = Stats()
    assert getattr(scout, name)(tree, stats).value == 3
    assert calls == [(tree, stats)] and len(stats.leaves) > 0
    answer[0] = Outcome(-99.0)
    stats = Stats()
    assert getattr(scout, name)(tree, stats) == Outcome(-99.0) and len(stats.leaves) == 0
