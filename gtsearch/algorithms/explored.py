"""What a search explored: the nodes above its evaluated leaves, the value ranges they prove, node types.

Pure functions of a tree and the leaves an algorithm evaluated, for every
algorithm alike (docs/algorithms.md, "Node types"):

- :func:`searched_nodes`: the nodes at or above an evaluated leaf; the others
  were pruned.
- :func:`value_ranges`: the interval [lo, hi] that the evaluated leaves prove
  for each searched node (Russell & Norvig's Figure 5.5): an evaluated leaf is
  [f, f], an unexplored subtree (-inf, +inf), a MAX node the max of its
  children's ends, a MIN node the min.
- :func:`knuth_moore_types`: Knuth & Moore's node types of a tree by their rule
  (1975, section 6): type 1 (PV), type 2 (CUT), type 3 (ALL), the nodes of the
  minimal tree when the children are ordered best-first.
- :func:`search_types`: the types as one search found them, from its evaluated
  leaves and its PV: PV nodes on the PV, CUT where the bound proved favours the
  player to move (the rest was cut), ALL where it goes against them (every move
  was searched and failed); nodes with an exact value or both bounds follow
  their parent by Knuth & Moore's rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from ..numbers import INF, exact
from ..tree import Tree
from .events import Value

PV = "PV"
CUT = "CUT"
ALL = "ALL"
#: Knuth & Moore's numbers for the three types
TYPE_NUMBER = {PV: 1, CUT: 2, ALL: 3}


def searched_nodes(tree: Tree, leaves: Iterable[int]) -> bytearray:
    """1 for every node at or above an evaluated leaf."""
    parent = tree.parent
    out = bytearray(tree.n_nodes)
    for n in leaves:
        while n >= 0 and not out[n]:
            out[n] = 1
            n = parent[n]
    return out


def value_ranges(
    tree: Tree, leaves: Iterable[int], bounds: tuple[Value, Value] | None = None
) -> dict[int, tuple[Value, Value]]:
    """The (lo, hi) that the evaluated leaves prove, for every node above one of them.

    ``bounds``: what stands for an unknown subtree (chance trees: L and U), else (-inf, +inf).
    """
    done = set(leaves)
    searched = searched_nodes(tree, done)
    ranges: dict[int, tuple[Value, Value]] = {}
    for n in range(tree.n_nodes - 1, -1, -1):  # children before their parent
        if searched[n]:
            ranges[n] = node_range(tree, n, ranges, bounds)
    return ranges


def node_range(
    tree: Tree,
    n: int,
    ranges: dict[int, tuple[Value, Value]],
    bounds: tuple[Value, Value] | None,
) -> tuple[Value, Value]:
    """One node's range from its children's (a leaf: its own value).

    A MAX node is [max lo, max hi] of its children, a MIN node [min lo, min hi], a
    chance node [sum p lo, sum p hi] (exact); an unknown child is ``bounds``.
    """
    if tree.end[n] == n + 1:
        v: Value = tree.number(n) if bounds is None else exact(tree.number(n))
        return v, v
    unknown: tuple[Value, Value] = (-INF, INF) if bounds is None else bounds
    kids = [ranges.get(c, unknown) for c in tree.children(n)]
    if tree.is_chance(n):
        probs = tree.probabilities(n)
        lo = sum((p * x for p, (x, _) in zip(probs, kids, strict=True)), Fraction(0))
        hi = sum((p * y for p, (_, y) in zip(probs, kids, strict=True)), Fraction(0))
        return exact(lo), exact(hi)
    pick = max if tree.is_max(n) else min
    return pick(x for x, _ in kids), pick(y for _, y in kids)


def child_type(parent_type: str, first: bool) -> str:
    """Knuth & Moore's rule: the type of a child from its parent's type and its place."""
    if parent_type == PV:
        return PV if first else CUT
    if parent_type == CUT:
        return ALL  # only the first child of a CUT node is searched on a best-first tree
    return CUT  # every child of an ALL node


def knuth_moore_types(tree: Tree) -> dict[int, str]:
    """The type of every node of a best-first tree by Knuth & Moore's rule (1975, section 6).

    The root is type 1 (PV); the first child of a PV node is PV, its other
    children CUT (type 2); the first child of a CUT node is ALL (type 3), and
    its other children are not in the minimal tree (they get no type); every
    child of an ALL node is CUT.  Only the nodes of the minimal tree appear.
    """
    types = {0: PV}
    stack = [0]
    while stack:
        n = stack.pop()
        t = types[n]
        for i, c in enumerate(tree.children(n)):
            if t == CUT and i > 0:
                break
            types[c] = child_type(t, i == 0)
            if tree.end[c] != c + 1:
                stack.append(c)
    return types


def search_types(tree: Tree, evaluated: Iterable[int], pv: Sequence[int]) -> dict[int, str]:
    """The type of every node a search reached, as it found it (docs/algorithms.md, "Node types").

    ``evaluated`` are the leaves it evaluated (node numbers), ``pv`` its PV as
    nodes from the root.  A node on the PV is PV.  Any other searched node is
    CUT when its evaluated leaves prove only a bound in favour of the player to
    move there (≥ at a MAX node, ≤ at a MIN node: a good enough move was found
    and the others were cut), ALL when they prove only a bound against that
    player (every move was searched and none was good enough).  A node whose
    value they prove exactly, or between two bounds, takes the type Knuth &
    Moore's rule gives a child of its parent's type (a PV node's children off
    the PV are CUT, a CUT node's children ALL, an ALL node's children CUT).
    Pruned nodes get no type.
    """
    ranges = value_ranges(tree, evaluated)
    on_pv = set(pv)
    types: dict[int, str] = {}
    for n in sorted(ranges):  # preorder: a parent before its children
        if n in on_pv:
            types[n] = PV
            continue
        lo, hi = ranges[n]
        favours_max = lo > -INF and hi == INF  # only "≥ lo" is proved
        favours_min = hi < INF and lo == -INF  # only "≤ hi"
        if favours_max or favours_min:
            types[n] = CUT if favours_max == tree.is_max(n) else ALL
        else:
            types[n] = child_type(types[tree.parent[n]], False)
    return types


def minimal_tree_counts(branching: int, depth: int) -> dict[str, int]:
    """How many nodes of each type a uniform tree's minimal tree has (leaves included).

    At depth k ≥ 1 there is 1 PV node, b^⌈k/2⌉ − 1 CUT nodes and b^⌊k/2⌋ − 1 ALL
    nodes, b^⌈k/2⌉ + b^⌊k/2⌋ − 1 in all (Knuth & Moore 1975, section 6).
    """
    b = branching
    counts = {PV: depth + 1, CUT: 0, ALL: 0}
    for k in range(1, depth + 1):
        counts[CUT] += b ** ((k + 1) // 2) - 1
        counts[ALL] += b ** (k // 2) - 1
    return counts


__all__ = [
    "ALL",
    "CUT",
    "PV",
    "TYPE_NUMBER",
    "child_type",
    "knuth_moore_types",
    "minimal_tree_counts",
    "search_types",
    "searched_nodes",
    "value_ranges",
]
