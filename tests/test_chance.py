"""Chance nodes: expectiminimax, Star1 and Star2 against references written here, and their invariants.

The references work on nested lists (a list is a decision node, a mapping
``{"chance": [...], "weights": [...]}`` a chance node, a number a leaf) with
plain recursion and exact Fractions, independently of gtsearch.algorithms:
- ``ref_value``: expectiminimax by brute force;
- ``RefStar``: Star1 and Star2 as docs/algorithms.md defines them, recomputing
  every sum from the outcomes' bounds, with the leaves read in order.
The invariants are those of docs/algorithms.md ("What must always hold").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.errors import UsageError
from gtsearch.tree import Tree

from .strategies import trees

INF = math.inf
Nested = Any
Path_ = tuple[int, ...]
CHANCE_ALGOS = ("expectiminimax", "star1", "star2")


# -- the references ---------------------------------------------------------------------------
def q(x: Any) -> Fraction:
    """A number as the exact value it stands for (a float: the decimal it prints as)."""
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def is_chance(node: Nested) -> bool:
    return isinstance(node, dict)


def kids(node: Nested) -> list[Nested]:
    return node["chance"] if is_chance(node) else node  # type: ignore[no-any-return]


def probs(node: Nested) -> list[Fraction]:
    w = node.get("weights") or [1] * len(node["chance"])
    total = sum(q(x) for x in w)
    return [q(x) / total for x in w]


def ref_value(node: Nested, max_moves: bool) -> Fraction:
    """Expectiminimax; ``max_moves``: MAX moves at this decision node (or right below this
    chance node)."""
    if not isinstance(node, (list, dict)):
        return q(node)
    if is_chance(node):
        return sum(
            (p * ref_value(c, max_moves) for c, p in zip(kids(node), probs(node), strict=True)),
            Fraction(0),
        )
    values = [ref_value(c, not max_moves) for c in node]
    return max(values) if max_moves else min(values)


def leaves_of(node: Nested, path: Path_ = ()) -> list[Path_]:
    if not isinstance(node, (list, dict)):
        return [path]
    return [p for i, c in enumerate(kids(node)) for p in leaves_of(c, path + (i,))]


class RefStar:
    """Star1 (``probing`` False) and Star2, recursive, as docs/algorithms.md words them.

    It counts what docs/algorithms.md's ``nodes`` counts besides the leaves read: the inner
    nodes entered, and the outcome a probe enters; and Star2's probes.
    """

    def __init__(self, L: Fraction, U: Fraction, probing: bool) -> None:
        self.L, self.U, self.probing = L, U, probing
        self.read: list[Path_] = []
        self.entered = 0
        self.probes = 0

    def value(self, node: Nested, path: Path_, max_moves: bool, alpha: Any, beta: Any) -> Any:
        if not isinstance(node, (list, dict)):
            self.read.append(path)
            return q(node)
        self.entered += 1
        if is_chance(node):
            return self.chance(node, path, max_moves, alpha, beta)
        m = -INF if max_moves else INF
        for i, c in enumerate(node):
            if max_moves:
                t = self.value(c, path + (i,), False, max(alpha, m), beta)
                if t > m:
                    m = t
                    if m >= beta:
                        break
            else:
                t = self.value(c, path + (i,), True, alpha, min(beta, m))
                if t < m:
                    m = t
                    if m <= alpha:
                        break
        return m

    def probe(self, node: Nested, path: Path_, max_moves: bool, alpha: Any, beta: Any) -> Any:
        """Star2's probe: enter the outcome ``node`` and search its first child only."""
        self.entered += 1
        self.probes += 1
        return self.value(node[0], path + (0,), max_moves, alpha, beta)

    def chance(self, node: Nested, path: Path_, max_moves: bool, alpha: Any, beta: Any) -> Any:
        L, U = self.L, self.U
        if L >= beta:
            return L
        if U <= alpha:
            return U
        outs = [
            (i, c, p) for i, (c, p) in enumerate(zip(kids(node), probs(node), strict=True)) if p
        ]
        lo = {i: L for i, _, _ in outs}
        hi = {i: U for i, _, _ in outs}
        exact: dict[int, Fraction] = {}

        def lower() -> Any:  # what the chance node is worth at least, and at most
            return sum((p * lo[i] for i, _, p in outs), Fraction(0))

        def upper() -> Any:
            return sum((p * hi[i] for i, _, p in outs), Fraction(0))

        if self.probing and (alpha > -INF or beta < INF):
            for i, c, p in outs:
                if not isinstance(c, (list, dict)):
                    self.read.append(path + (i,))
                    lo[i] = hi[i] = exact[i] = q(c)
                elif is_chance(c):
                    continue
                elif max_moves:  # a MAX outcome: its first child bounds it from below
                    if beta == INF:
                        continue
                    b = (beta - (lower() - p * lo[i])) / p
                    lo[i] = self.probe(c, path + (i,), False, L, min(b, U))
                else:
                    if alpha == -INF:
                        continue
                    a = (alpha - (upper() - p * hi[i])) / p
                    hi[i] = self.probe(c, path + (i,), True, max(a, L), U)
                if lower() >= beta:
                    return lower()
                if upper() <= alpha:
                    return upper()
        for i, c, p in outs:
            rest_lo, rest_hi = lower() - p * lo[i], upper() - p * hi[i]
            a = -INF if alpha == -INF else (alpha - rest_hi) / p
            b = INF if beta == INF else (beta - rest_lo) / p
            if i in exact:
                v = exact[i]
            else:
                v = self.value(c, path + (i,), max_moves, max(a, L), min(b, U))
            lo[i] = hi[i] = v
            if v <= a:
                return upper()
            if v >= b:
                return lower()
        return lower()


def ref_star(
    nested: Nested, root_max: bool, name: str, bounds: Any = None
) -> tuple[Any, list[Path_]]:
    leaves = [q(x) for x in leaf_values(nested)]
    L, U = bounds if bounds is not None else (min(leaves), max(leaves))
    ref = RefStar(q(L), q(U), name == "star2")
    return ref.value(nested, (), root_max, -INF, INF), ref.read


def leaf_values(node: Nested) -> list[Any]:
    if not isinstance(node, (list, dict)):
        return [node]
    return [v for c in kids(node) for v in leaf_values(c)]


def exact_value(r: Any) -> Fraction:
    """A result's exact value: value_exact when it has one, else its value."""
    text = r.extra.get("value_exact")
    return Fraction(text) if text is not None else q(r.value)


# -- random trees with chance nodes -----------------------------------------------------------
DECIMALS = st.sampled_from([0.1, 0.2, 0.3, -0.7, 2.5, 1e-3])
LEAVES = {
    "int": st.integers(-20, 20),
    "ties": st.integers(0, 2),
    "float": st.floats(-10, 10, allow_nan=False, width=32).map(float) | DECIMALS,
}
WEIGHTS = st.integers(0, 3) | st.sampled_from([0.1, 0.25, 1.5, 0.0, 2])


@st.composite
def chance_trees(draw: st.DrawFn, max_leaves: int = 30) -> Nested:
    """Trees of any shape with chance nodes anywhere (the root, under chance nodes, above
    leaves), weights or none, zero weights (never all of them), ties, ints and decimals."""
    leaf = LEAVES[draw(st.sampled_from(sorted(LEAVES)))]

    def node(children: st.SearchStrategy[Nested]) -> st.SearchStrategy[Nested]:
        lists = st.lists(children, min_size=1, max_size=4)
        return lists | lists.flatmap(chance_of)

    def chance_of(cs: list[Nested]) -> st.SearchStrategy[Nested]:
        weights = st.lists(WEIGHTS, min_size=len(cs), max_size=len(cs)).filter(
            lambda w: sum(q(x) for x in w) > 0
        )
        return st.just({"chance": cs}) | weights.map(lambda w: {"chance": cs, "weights": w})

    return draw(st.recursive(leaf, node, max_leaves=max_leaves))


WORKED = [
    {"chance": [[5, 9], [6, 4]], "weights": [1, 2]},
    {"chance": [[3, 8], [2, 9]], "weights": [1, 3]},
]


# -- the invariants ---------------------------------------------------------------------------
@settings(max_examples=250, deadline=None)
@given(chance_trees(), st.booleans())
@example(WORKED, True)
@example({"chance": [0.1, 0.2], "weights": [1, 2]}, False)
@example({"chance": [{"chance": [[1, 2], 3]}, 4], "weights": [0, 1]}, True)
def test_chance_algorithms_agree_with_the_references(nested: Nested, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = ref_value(nested, root_max)
    full = search(tree, "expectiminimax", leaf_order=True)
    assert exact_value(full) == true and full.exact
    assert [tuple(p) for p in full.leaf_order or ()] == leaves_of(nested)
    assert full.nodes == tree.n_nodes
    everything = set(leaves_of(nested))
    for name in ("star1", "star2"):
        r = search(tree, name, leaf_order=True)
        assert r.exact and exact_value(r) == true, name
        ref_v, ref_read = ref_star(nested, root_max, name)
        assert ref_v == true
        assert [tuple(p) for p in r.leaf_order or ()] == ref_read, name
        distinct = set(map(tuple, r.leaf_order or ()))
        assert distinct <= everything and len(distinct) == r.extra["distinct_leaves"]
        assert r.leaves == r.extra["distinct_leaves"] + r.extra["re_evaluations"]
        assert r.params["leaf_bounds_from"] == "tree"
    for r in (full, search(tree, "star1"), search(tree, "star2")):
        check_pv(tree, nested, r, true)
        assert r.value == float(true) or (r.value == true)
        assert ("value_exact" in r.extra) == (true.denominator != 1)


def check_pv(tree: Tree, nested: Nested, r: Any, true: Fraction) -> None:
    """The PV (docs/algorithms.md, "The PV through chance nodes"), from the root to a leaf:
    at a decision node a move that keeps the node's value, at a chance node its most
    probable outcome, the leftmost of equals."""
    node, max_moves, value = nested, tree.root_max, true
    for i in r.pv:
        assert isinstance(node, (list, dict)), "the PV goes on below a leaf"
        if is_chance(node):
            p = probs(node)
            assert i == p.index(max(p)), "not the most probable outcome, the leftmost of equals"
            node = node["chance"][i]
            value = ref_value(node, max_moves)
        else:
            node, max_moves = node[i], not max_moves
            assert ref_value(node, max_moves) == value, "a move that does not keep the value"
    assert not isinstance(node, (list, dict)), "the PV stops before a leaf"
    assert len(r.pv_labels or r.pv) == len(r.pv)


@settings(max_examples=120, deadline=None)
@given(chance_trees(), st.booleans(), st.data())
def test_any_leaf_bounds_that_bound_the_leaves(nested: Nested, root_max: bool, data: Any) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = ref_value(nested, root_max)
    values = leaf_values(nested)
    lo = min(values) - data.draw(st.sampled_from([0, 1, 7, 0.5]))
    hi = max(values) + data.draw(st.sampled_from([0, 2, 100, 0.25]))
    for name in ("star1", "star2"):
        r = search(tree, name, leaf_bounds=(lo, hi), leaf_order=True)
        assert r.exact and exact_value(r) == true
        assert r.params["leaf_bounds"] == (lo, hi) and r.params["leaf_bounds_from"] == "option"
        _, ref_read = ref_star(nested, root_max, name, (lo, hi))
        assert [tuple(p) for p in r.leaf_order or ()] == ref_read
        check_pv(tree, nested, r, true)
    if min(values) != max(values):
        mid = (min(values) + max(values)) / 2
        for bad in ((lo, mid), (mid, hi)):
            with pytest.raises(UsageError, match="lies outside --leaf-bounds"):
                search(tree, "star1", leaf_bounds=bad)


@settings(max_examples=200, deadline=None)
@given(trees, st.booleans())
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True)
@example(5, False)
def test_on_trees_without_chance_nodes(nested: Nested, root_max: bool) -> None:
    """expectiminimax is minimax; star1 and star2 are alphabeta, leaf for leaf."""
    tree = Tree.from_nested(nested, root_max=root_max)
    mm = search(tree, "minimax", leaf_order=True)
    ab = search(tree, "alphabeta", leaf_order=True)
    emm = search(tree, "expectiminimax", leaf_order=True)
    assert (emm.value, emm.leaf_order, emm.pv, emm.nodes) == (
        mm.value,
        mm.leaf_order,
        mm.pv,
        mm.nodes,
    )
    assert type(emm.value) is type(mm.value)
    for name in ("star1", "star2"):
        r = search(tree, name, leaf_order=True)
        assert (r.value, r.leaf_order, r.pv, r.nodes) == (ab.value, ab.leaf_order, ab.pv, ab.nodes)
        assert type(r.value) is type(ab.value) and r.extra["re_evaluations"] == 0


def test_star1_and_star2_never_read_more_distinct_leaves_on_regular_trees() -> None:
    from gtsearch.sources.uniform import uniform_tree

    for seed in range(12):
        for b, d, c in ((2, 2, 2), (3, 2, 3), (2, 3, 2)):
            tree = uniform_tree(b, d, seed=seed, chance=c)
            full = search(tree, "expectiminimax")
            for name in ("star1", "star2"):
                r = search(tree, name)
                assert r.extra["distinct_leaves"] <= full.leaves
                assert exact_value(r) == exact_value(full)


# -- exactness, refusals, depth --------------------------------------------------------------
def test_values_are_exact_rationals() -> None:
    # 0.1 + 0.2 is not 0.3 in floats; here it is 3/20 exactly (the average of 0.1 and 0.2)
    tree = Tree.from_nested({"chance": [0.1, 0.2]})
    for name in CHANCE_ALGOS:
        r = search(tree, name)
        assert r.extra["value_exact"] == "3/20" and r.value == 0.15
        assert r.to_dict()["value_exact"] == "3/20"
    thirds = search(Tree.from_nested({"chance": [1, 2, 4]}), "star1")
    assert thirds.value == 7 / 3 and thirds.extra["value_exact"] == "7/3"
    whole = search(Tree.from_nested({"chance": [1.5, 2.5]}), "expectiminimax")
    assert whole.value == 2 and type(whole.value) is int and "value_exact" not in whole.extra
    # a cutoff that float arithmetic would get wrong: 0.1 + 0.2 == 0.3 exactly, so the chance
    # node's value equals the MAX node's first child and star1 must not call it "better"
    tree = Tree.from_nested([0.15, {"chance": [0.1, 0.2]}])
    for name in CHANCE_ALGOS:
        r = search(tree, name)
        assert r.extra["value_exact"] == "3/20" and r.pv == (0,)


@pytest.mark.parametrize("algo", [a for a in ALGORITHMS if not a.chance], ids=lambda a: a.name)
def test_other_algorithms_refuse_chance_trees(algo: Any) -> None:
    from gtsearch.algorithms.steps import TRACERS, trace

    tree = Tree.from_nested([{"chance": [1, 2]}, 3], source="dice.json")
    params = {"bound": 1} if algo.needs_bound else {}
    with pytest.raises(UsageError) as e:
        search(tree, algo, **params)
    assert str(e.value) == (
        f"dice.json: the tree has chance nodes, which {algo.name} cannot search; "
        "use expectiminimax, star1 or star2"
    )
    if algo.name in TRACERS:
        with pytest.raises(UsageError, match="which .* cannot search"):
            list(trace(tree, algo, **params))


def test_leaf_bounds_are_checked() -> None:
    tree = Tree.from_nested([{"chance": [1, 2]}, 3])
    for bad, message in (
        ((3, 1), "--leaf-bounds needs L <= U, got 3:1"),
        ((0, math.inf), "--leaf-bounds inf is not a finite number"),
        ((0, 2**60), "too large"),
    ):
        with pytest.raises(UsageError, match=message):
            search(tree, "star1", leaf_bounds=bad)
    with pytest.raises(UsageError, match=r"leaf \$\[1\] = 3 lies outside --leaf-bounds 0:2"):
        search(tree, "star2", leaf_bounds=(0, 2))
    with pytest.raises(UsageError, match="--leaf-bounds applies to star1, star2 and mcts only"):
        search(tree, "expectiminimax", leaf_bounds=(0, 5))


@pytest.mark.parametrize(
    ("nested", "pv"),
    [
        # the most probable outcome (weights 1, 3: the second), then MAX's best move (below a
        # chance root, the root player moves)
        ({"chance": [[4, 6], [2, 8]], "weights": [1, 3]}, (1, 1)),
        # equally likely outcomes: the leftmost; zero weights are never taken
        ({"chance": [[4, 6], [2, 8]]}, (0, 1)),
        ({"chance": [[4, 6], [2, 8], 9], "weights": [0, 2, 2]}, (1, 1)),
        # MAX over two chance nodes (3/2 and 8/5): the second, then its likeliest outcome
        ([{"chance": [1, 3], "weights": [3, 1]}, {"chance": [[5, 0], 2], "weights": [1, 4]}],
         (1, 1)),
        # one leaf value everywhere (L = U): nothing is read, and the line still reaches a leaf
        ({"chance": [{"chance": [[7, 7]]}, [7]]}, (0, 0, 0)),
    ],
)  # fmt: skip
def test_the_pv_runs_through_chance_nodes(nested: Nested, pv: Path_) -> None:
    """docs/algorithms.md, "The PV through chance nodes": every chance algorithm, the same
    line here (no ties between moves)."""
    tree = Tree.from_nested(nested)
    for name in CHANCE_ALGOS:
        r = search(tree, name)
        assert r.pv == pv, name
        check_pv(tree, nested, r, ref_value(nested, True))


def test_deep_chains_of_chance_nodes() -> None:
    """100,000 levels, chance and decision nodes alternating: no recursion anywhere."""
    depth = 100_000
    text = '{"chance": [' * (depth // 2) + "[" * (depth // 2) + "7" + "]" * (depth // 2)
    text += "]}" * (depth // 2)
    from gtsearch.formats import loads_tree

    tree = loads_tree(text, "json")
    assert tree.max_depth() == depth and tree.chance_nodes() == depth // 2
    for name in CHANCE_ALGOS:
        bounds = {} if name == "expectiminimax" else {"leaf_bounds": (0, 10)}
        r = search(tree, name, **bounds)  # type: ignore[arg-type]
        # a chance root: the PV runs through every chance node's one outcome to the leaf
        assert (r.value, r.extra["distinct_leaves"], r.pv) == (7, 1, (0,) * depth)
        # star2 probes the one outcome below the deepest chance node, then searches it
        assert r.leaves == (2 if name == "star2" else 1)
    # with L = U (one leaf value), the leaf bounds alone give the value: nothing is read
    small = Tree.from_nested({"chance": [{"chance": [[7]]}]})
    assert search(small, "star1").leaves == 0 and search(small, "star1").value == 7
    # decision nodes first, then through the chance node down to a leaf
    tree = Tree.from_nested([[[{"chance": [[1, 2]]}]]])
    assert search(tree, "star2").pv == (0, 0, 0, 0, 0)


@settings(max_examples=100, deadline=None)
@given(trees, st.booleans())
def test_leaf_bounds_vectorised_agree_with_the_scan(nested: Nested, root_max: bool) -> None:
    """tree_leaf_bounds reads large trees with numpy (gtsearch.flat.leaf_extremes): the same
    leaves as the scan, the first of equal values included (trees with few distinct values)."""
    from array import array

    from gtsearch import flat
    from gtsearch.algorithms import chance

    tree = Tree.from_nested(nested, root_max=root_max)
    end, values = array("q", tree.end), array("d", tree.values)
    leaves = [n for n in range(len(end)) if end[n] == n + 1]
    lo = min(leaves, key=lambda n: (values[n], n))
    hi = min(leaves, key=lambda n: (-values[n], n))
    assert flat.leaf_extremes(end, values) == (lo, hi)
    scanned = chance.tree_leaf_bounds(tree)
    old = chance.NUMPY_MIN_NODES
    try:
        chance.NUMPY_MIN_NODES = 0  # every tree takes the numpy path
        assert chance.tree_leaf_bounds(tree) == scanned == (tree.number(lo), tree.number(hi))
    finally:
        chance.NUMPY_MIN_NODES = old


def test_leaf_bounds_vectorised_decline_nan_and_leafless() -> None:
    from array import array

    from gtsearch import flat

    assert flat.leaf_extremes(array("q"), array("d")) is None  # no leaf
    assert flat.leaf_extremes(array("q", [3, 2, 3]), array("d", [0.0, math.nan, 1.0])) is None
