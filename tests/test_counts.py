"""Every count an algorithm reports, against small recursive references written here.

docs/algorithms.md, "What is counted", says what each figure counts: ``leaves`` (every
reading, in order: ``leaf_order``), ``nodes`` (per family), ``distinct_leaves`` and
``re_evaluations``, SSS*'s and DUAL*'s ``open_max``, the MT family's ``passes`` and
Star2's ``probes``.  The references below count exactly those things the obvious way, on
nested lists (a number is a leaf), independently of gtsearch.algorithms:

- the depth-first searches are Knuth & Moore's negamax F, F1 and fail-soft F2 as the docs
  write them; ``nodes`` is one per call, the root and the leaves included;
- SSS* keeps OPEN as a plain list of Stockman's states and purges case 5's states at once,
  so its length is OPEN's size; DUAL* is SSS* on the mirrored tree (leaves negated, the
  players exchanged), as the docs define it;
- NegaScout and SCOUT count one node per call (TEST and EVAL alike) and per leaf read;
- MT and MTD run on the ranks of the leaf values with integer null windows, as Plaat et
  al. write them; ``nodes`` is the size of the table at the end;
- Star1 and Star2 are tests/test_chance.py's ``RefStar``, which counts the nodes it
  enters and the probes it makes.

Each test runs under whichever core the suite runs with (GTSEARCH_PURE=1 for the pure one),
on random trees with ties and both root players, and compares the whole of ``extra``.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import Stats, search
from gtsearch.algorithms.vector import minimax_levels
from gtsearch.tree import Tree

from .strategies import trees
from .test_chance import RefStar, chance_trees, leaf_values, leaves_of, q

INF = math.inf
BIG = 10**9  # the papers' integer infinity, beyond every rank
Path_ = tuple[int, ...]
Nested = Any
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


class Count:
    """What a reference counted: the leaves read (paths, in order), nodes and the extra figures."""

    def __init__(self) -> None:
        self.leaves: list[Path_] = []
        self.nodes = 0
        self.extra: dict[str, Any] = {}


def at(nested: Nested, path: Path_) -> Nested:
    for i in path:
        nested = nested[i]
    return nested


def is_leaf(node: Nested) -> bool:
    return not isinstance(node, list)


def n_nodes(node: Nested) -> int:
    return 1 if is_leaf(node) else 1 + sum(n_nodes(c) for c in node)


def check(tree: Tree, name: str, ref: Count, **params: Any) -> Any:
    """Run ``name`` and compare every count with the reference's."""
    r = search(tree, name, leaf_order=True, **params)
    assert [tuple(p) for p in r.leaf_order] == ref.leaves, f"{name}: leaf order"
    assert r.leaves == len(ref.leaves), f"{name}: leaves"
    assert r.leaves_total == sum(1 for n in range(tree.n_nodes) if tree.is_leaf(n))
    assert r.nodes == ref.nodes, f"{name}: nodes {r.nodes}, reference {ref.nodes}"
    extra = {k: v for k, v in r.extra.items() if k != "value_exact"}
    assert extra == ref.extra, f"{name}: {extra}, reference {ref.extra}"
    return r


def distinct(c: Count) -> Count:
    """Add the re-read figures: distinct leaves read, and the readings that were repeats."""
    c.extra["distinct_leaves"] = len(set(c.leaves))
    c.extra["re_evaluations"] = len(c.leaves) - len(set(c.leaves))
    return c


# -- minimax, F1, alpha-beta: negamax as docs/algorithms.md writes them -----------------------
def ref_negamax(
    node: Nested, sign: int, alpha: float, beta: float, how: str, c: Count, path: Path_ = ()
) -> float:
    """F (``how`` "f"), F1 ("f1": a child gets the bound -m only) or fail-soft F2 ("f2")."""
    c.nodes += 1
    if is_leaf(node):
        c.leaves.append(path)
        return sign * node  # type: ignore[no-any-return]
    m = -INF
    for i, child in enumerate(node):
        if how == "f":
            t = -ref_negamax(child, -sign, -INF, INF, how, c, path + (i,))
        else:
            a = -beta if how == "f2" else -INF
            t = -ref_negamax(child, -sign, a, -max(alpha, m), how, c, path + (i,))
        m = max(m, t)
        if how != "f" and m >= beta:
            break
    return m


def depth_first(nested: Nested, root_max: bool, how: str, lo: float, hi: float) -> Count:
    """The root searched with the window (lo, hi) in MAX's terms (F1: hi is the bound)."""
    c = Count()
    sign = 1 if root_max else -1
    a, b = (lo, hi) if root_max else (-hi, -lo)
    ref_negamax(nested, sign, a, b, how, c)
    return c


# -- SSS* and DUAL*: OPEN as a list of Stockman's states --------------------------------------
LIVE, SOLVED = "live", "solved"


def ref_sss(nested: Nested, root_max: bool, h0: float) -> tuple[float, Count]:
    """Stockman's cases 1-6; ties to the leftmost node (the smallest path is first in preorder).

    ``nodes``: the states given LIVE (the root, case 3's children, cases 4 and 6);
    ``open_max``: the longest OPEN got.
    """
    c = Count()

    def is_max(path: Path_) -> bool:
        return root_max == (len(path) % 2 == 0)

    open_: list[tuple[float, Path_, str]] = [(h0, (), LIVE)]
    c.nodes = peak = 1
    while True:
        state = min(open_, key=lambda s: (-s[0], s[1]))
        open_.remove(state)
        h, path, status = state
        node = at(nested, path)
        if status == SOLVED:
            if not path:  # case 1
                c.extra["open_max"] = peak
                return h, c
            parent = path[:-1]
            if is_max(parent):  # case 5
                k = len(parent)
                open_ = [s for s in open_ if not (len(s[1]) > k and s[1][:k] == parent)]
                open_.append((h, parent, SOLVED))
            elif path[-1] + 1 < len(at(nested, parent)):  # case 6
                open_.append((h, parent + (path[-1] + 1,), LIVE))
                c.nodes += 1
            else:
                open_.append((h, parent, SOLVED))
        elif is_leaf(node):  # case 2
            c.leaves.append(path)
            open_.append((min(h, node), path, SOLVED))
        elif is_max(path):  # case 3
            open_ += [(h, path + (i,), LIVE) for i in range(len(node))]
            c.nodes += len(node)
        else:  # case 4
            open_.append((h, path + (0,), LIVE))
            c.nodes += 1
        peak = max(peak, len(open_))


def mirrored(node: Nested) -> Nested:
    return -node if is_leaf(node) else [mirrored(c) for c in node]


def ref_dual(nested: Nested, root_max: bool, l0: float) -> tuple[float, Count]:
    """DUAL*: SSS* with the roles of MAX and MIN exchanged."""
    h, c = ref_sss(mirrored(nested), not root_max, -l0)
    return -h, c


# -- NegaScout and SCOUT: one node per call and per leaf read ---------------------------------
def ranked(nested: Nested) -> Nested:
    """Every leaf replaced by its rank among the distinct leaf values: searches that only
    compare values decide the same on the ranks, where (a, a + 1) is an exact null window."""
    rank = {v: i for i, v in enumerate(sorted(set(leaf_values(nested))))}

    def build(node: Nested) -> Nested:
        return rank[node] if is_leaf(node) else [build(c) for c in node]

    return build(nested)


def ref_negascout(
    node: Nested, sign: int, alpha: float, beta: float, c: Count, path: Path_ = ()
) -> float:
    """Reinefeld's NegaScout, fail-soft; a leaf child is read once and never re-searched."""
    c.nodes += 1
    if is_leaf(node):
        c.leaves.append(path)
        return sign * node  # type: ignore[no-any-return]
    m = -INF
    for i, child in enumerate(node):
        here = path + (i,)
        if is_leaf(child):
            c.nodes += 1
            c.leaves.append(here)
            t = sign * child
        elif i == 0:
            t = -ref_negascout(child, -sign, -beta, -alpha, c, here)
        else:
            a = max(alpha, m)
            t = -ref_negascout(child, -sign, -(a + 1), -a, c, here)
            if a < t < beta:  # failed high inside the window: searched again
                t = -ref_negascout(child, -sign, -beta, -t, c, here)
        m = max(m, t)
        if m >= beta:
            break
    return m


def ref_test(node: Nested, v: float, greater: bool, is_max: bool, c: Count, path: Path_) -> bool:
    """Pearl's TEST: is the value of ``node`` > v (``greater``), or < v?"""
    c.nodes += 1
    if is_leaf(node):
        c.leaves.append(path)
        return node > v if greater else node < v  # type: ignore[no-any-return]
    answers = (ref_test(k, v, greater, not is_max, c, path + (i,)) for i, k in enumerate(node))
    # the player to move decides where the question is the one they want answered yes
    return any(answers) if is_max == greater else all(answers)


def ref_scout(node: Nested, is_max: bool, c: Count, path: Path_ = ()) -> float:
    """Pearl's EVAL: a later inner child is EVALuated when TEST says it beats the best so far."""
    c.nodes += 1
    if is_leaf(node):
        c.leaves.append(path)
        return node  # type: ignore[no-any-return]
    v = ref_scout(node[0], not is_max, c, path + (0,))
    for i, child in enumerate(node[1:], 1):
        here = path + (i,)
        if is_leaf(child):  # reading a leaf tests and evaluates it
            c.nodes += 1
            c.leaves.append(here)
            v = max(v, child) if is_max else min(v, child)
        elif ref_test(child, v, is_max, not is_max, c, here):
            v = ref_scout(child, not is_max, c, here)
    return v


# -- MT and MTD: Plaat et al. on the ranks, with a transposition table -------------------------
def ref_mt(
    node: Nested,
    gamma: int,
    is_max: bool,
    table: dict[Path_, list[int]],
    c: Count,
    path: Path_ = (),
) -> int:
    """MT(n, gamma): is the value >= gamma?  The table keeps [lower, upper] per node."""
    if path in table:
        lo, hi = table[path]
        if lo >= gamma:
            return lo
        if hi < gamma:
            return hi
    if is_leaf(node):
        c.leaves.append(path)
        table[path] = [node, node]
        return node  # type: ignore[no-any-return]
    g = -BIG if is_max else BIG
    for i, child in enumerate(node):
        if (g >= gamma) if is_max else (g < gamma):
            break
        t = ref_mt(child, gamma, not is_max, table, c, path + (i,))
        g = max(g, t) if is_max else min(g, t)
    entry = table.setdefault(path, [-BIG, BIG])
    entry[0 if g >= gamma else 1] = g
    return g


def ref_mtd(nested: Nested, root_max: bool, first: float) -> Count:
    """MTD(first): passes until the bounds meet; after a pass that proved g a lower bound the
    next asks "value > g?" (gamma = g + 1 on the ranks), else "value >= g?"."""
    values = sorted(set(leaf_values(nested)))
    tree = ranked(nested)
    g = BIG if first == INF else -BIG if first == -INF else bisect_left(values, first)
    c = Count()
    table: dict[Path_, list[int]] = {}
    lower, upper, passes = -BIG, BIG, 0
    while lower < upper:
        gamma = g + 1 if g == lower else g
        g = ref_mt(tree, gamma, root_max, table, c)
        passes += 1
        if g >= gamma:
            lower = g
        else:
            upper = g
    c.nodes = len(table)
    c.extra["passes"] = passes
    return c


# -- the properties ----------------------------------------------------------------------------
bounds = st.integers(-22, 22).map(float) | st.sampled_from([0.5, -1.25, 2.0, 3.0])


@settings(max_examples=150, deadline=None)
@given(trees, st.booleans(), bounds, bounds)
@example(AIMA, True, 3.0, 5.0)
@example(AIMA, False, 4.0, 2.0)
@example(7, False, 0.0, 1.0)
def test_depth_first_counts(nested: Nested, root_max: bool, x: float, y: float) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    full = check(tree, "minimax", depth_first(nested, root_max, "f", -INF, INF))
    assert full.nodes == n_nodes(nested) == tree.n_nodes, "minimax enters every node"
    check(tree, "f1", depth_first(nested, root_max, "f1", -INF, INF))
    # F1's bound in MAX's terms: it bounds MAX from above, or MIN from below
    lo, hi = (-INF, x) if root_max else (x, INF)
    check(tree, "f1", depth_first(nested, root_max, "f1", lo, hi), bound=x)
    check(tree, "alphabeta", depth_first(nested, root_max, "f2", -INF, INF))
    if x != y:
        lo, hi = min(x, y), max(x, y)
        r = check(tree, "alphabeta", depth_first(nested, root_max, "f2", lo, hi), alpha=lo, beta=hi)
        assert r.exact == (lo < r.value < hi)
    stats = Stats()  # the level-by-level minimax of large trees counts the same
    minimax_levels(tree, stats)
    assert stats.nodes == tree.n_nodes and len(stats.leaves) == full.leaves


@settings(max_examples=150, deadline=None)
@given(trees, st.booleans(), bounds)
@example(AIMA, True, 3.0)
@example(AIMA, False, 3.0)
@example(7, True, 7.0)
def test_sss_and_dual_counts(nested: Nested, root_max: bool, bound: float) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    for name, ref, start, params in (
        ("sss", ref_sss, INF, {}),
        ("dual", ref_dual, -INF, {}),
        ("sss-bounded", ref_sss, bound, {"bound": bound}),
        ("dual-bounded", ref_dual, bound, {"bound": bound}),
    ):
        value, counts = ref(nested, root_max, start)
        r = check(tree, name, counts, **params)
        assert r.value == value, name


@settings(max_examples=150, deadline=None)
@given(trees, st.booleans())
@example(AIMA, True)
@example([[[1, 2], [3, 0]], [[2, 5], [4, 1]]], False)
@example(7, True)
def test_negascout_and_scout_counts(nested: Nested, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    c = Count()
    sign = 1 if root_max else -1
    ref_negascout(ranked(nested), sign, -INF, INF, c)
    check(tree, "negascout", distinct(c))
    c = Count()
    ref_scout(nested, root_max, c)
    check(tree, "scout", distinct(c))


guesses = bounds | st.floats(-12, 12, allow_nan=False, width=32).map(float)


@settings(max_examples=150, deadline=None)
@given(trees, st.booleans(), guesses)
@example(AIMA, True, 0.0)
@example([[0.1, 0.2], [0.30000000000000004, 0.3]], True, 0.30000000000000004)
@example(7, False, 7.0)
def test_mt_counts(nested: Nested, root_max: bool, first: float) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    check(tree, "mt-sss", ref_mtd(nested, root_max, INF))
    check(tree, "mt-dual", ref_mtd(nested, root_max, -INF))
    check(tree, "mtdf", ref_mtd(nested, root_max, 0.0))
    check(tree, "mtdf", ref_mtd(nested, root_max, first), bound=first)


WORKED = [
    {"chance": [[5, 9], [6, 4]], "weights": [1, 2]},
    {"chance": [[3, 8], [2, 9]], "weights": [1, 3]},
]


def ref_chance(nested: Nested, root_max: bool, name: str, bounds: Any = None) -> Count:
    """Star1 or Star2 by RefStar: nodes are the inner nodes it entered plus the leaves read."""
    leaves = [q(x) for x in leaf_values(nested)]
    lo, hi = bounds if bounds is not None else (min(leaves), max(leaves))
    ref = RefStar(q(lo), q(hi), name == "star2")
    ref.value(nested, (), root_max, -INF, INF)
    c = Count()
    c.leaves, c.nodes = ref.read, ref.entered + len(ref.read)
    if name == "star2":
        c.extra["probes"] = ref.probes
    return distinct(c)


@settings(max_examples=150, deadline=None)
@given(chance_trees(), st.booleans(), st.sampled_from([None, (-20, 20), (-1, 1)]))
@example(WORKED, True, None)
@example(WORKED, False, (2, 9))
@example(5, True, None)
def test_chance_counts(nested: Nested, root_max: bool, leaf_bounds: Any) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    c = Count()
    c.leaves, c.nodes = leaves_of(nested), tree.n_nodes  # every leaf, every node, once
    check(tree, "expectiminimax", distinct(c))
    values = [q(x) for x in leaf_values(nested)]
    if leaf_bounds is not None and not (
        leaf_bounds[0] <= min(values) <= max(values) <= leaf_bounds[1]
    ):
        leaf_bounds = None  # bounds that some leaf breaks are refused (tests/test_params.py)
    params = {} if leaf_bounds is None else {"leaf_bounds": leaf_bounds}
    for name in ("star1", "star2"):
        check(tree, name, ref_chance(nested, root_max, name, leaf_bounds), **params)
