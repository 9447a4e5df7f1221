"""What a search explored: the nodes above its evaluated leaves, the value ranges they prove, node types.

Pure functions of a tree and the leaves an algorithm evaluated, for every
algorithm alike (docs/algorithms.md, "Node types"):

- :func:`searched_nodes`: the nodes at or above an evaluated leaf; the others
  were pruned.
- :func:`value_ranges`: the interval [lo, hi] that the evaluated leaves prove
  for each searched node (Russell & Norvig's Figure 5.5): an evaluated leaf is
  [f, f], an unexplored subtree (-inf, +inf), a MAX node the max of its
  children's ends, a MIN node the min.
- :func:`knuth_moore_types`: Knuth & Moore's node types of any tree by their
  positional rule (1975, section 6): type 1 (PV), type 2 (CUT), type 3 (ALL),
  the nodes of the minimal tree (those alpha-beta examines when the children
  are ordered best-first); :func:`type_notes`: where a search behaved
  otherwise than its type says (a CUT node that did not cut, an ALL node that
  was cut, a typed node pruned, a node off the minimal tree searched, a node
  entered with another window).
- :func:`search_types`: the types as one search found them, from its evaluated
  leaves and its PV: PV nodes on the PV, CUT where the bound proved favours the
  player to move (the rest was cut), ALL where it goes against them (every move
  was searched and failed); nodes with an exact value or both bounds follow
  their parent by Knuth & Moore's rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from ..errors import UsageError
from ..numbers import INF, exact, format_number
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


class RangeTracker:
    """Value ranges kept up to date one evaluated leaf at a time (the replay, the traces).

    After the leaves added so far, ``ranges[n]`` is what :func:`value_ranges` gives
    for them: the range show draws.
    """

    def __init__(self, tree: Tree, bounds: tuple[Value, Value] | None = None) -> None:
        self.tree = tree
        self.bounds = bounds
        self.ranges: dict[int, tuple[Value, Value]] = {}

    def add(self, leaf: int) -> list[int]:
        """Count an evaluated leaf; return the nodes whose range changed, leaf first."""
        tree = self.tree
        parent = tree.parent
        ranges = self.ranges
        ranges[leaf] = node_range(tree, leaf, ranges, self.bounds)
        changed = [leaf]
        n = parent[leaf]
        while n >= 0:
            r = node_range(tree, n, ranges, self.bounds)
            if ranges.get(n) == r:
                break
            ranges[n] = r
            changed.append(n)
            n = parent[n]
        return changed


def child_type(parent_type: str, first: bool) -> str:
    """Knuth & Moore's rule: the type of a child from its parent's type and its place."""
    if parent_type == PV:
        return PV if first else CUT
    if parent_type == CUT:
        return ALL  # only the first child of a CUT node is searched on a best-first tree
    return CUT  # every child of an ALL node


def knuth_moore_types(tree: Tree) -> dict[int, str]:
    """The type of every node of the minimal tree by Knuth & Moore's positional rule (1975,
    section 6), on any tree.

    A node is named by its path a_1 ... a_l of child numbers from 1; it is
    *critical* when a_i = 1 for every even i or for every odd i.  A critical
    node is type 1 when every a_i is 1; otherwise, with a_j the first a_i
    above 1, type 2 when l - j is even and type 3 when it is odd.  So the root
    is type 1 (PV); the first child of a PV node is PV, its other children CUT
    (type 2); the first child of a CUT node is ALL (type 3), and its other
    children are not critical (they get no type); every child of an ALL node
    is CUT.  The rule depends on the places of the nodes only: on a tree
    ordered best-first these are the nodes alpha-beta examines.  A tree with
    chance nodes has no such types (a UsageError).
    """
    if tree.has_chance:
        raise UsageError(
            f"{tree.source}: Knuth & Moore's node types are defined for trees of two players; "
            "this tree has chance nodes"
        )
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
    return dict(sorted(types.items()))  # in preorder


def _edge(v: Value) -> str:
    return "+∞" if v == INF else "-∞" if v == -INF else format_number(v)


def type_notes(
    tree: Tree,
    types: dict[int, str],
    evaluated: Iterable[int],
    windows: dict[int, tuple[Value, Value]] | None = None,
) -> dict[int, str]:
    """What a search did where it behaved otherwise than Knuth & Moore's types (``types``) say.

    From the leaves it evaluated, for every algorithm: a CUT node whose search
    went past its first child ("cut only after 2 of 3 children", "no cutoff: all
    3 children searched"), a PV
    or ALL node some of whose children were pruned ("cut after 1 of 3
    children"), a typed node that was pruned, a node outside the minimal tree
    that was searched (said at the head of such a subtree only).  From
    ``windows`` (the depth-first traces' windows, in MAX's terms): a PV node
    entered with a window other than (-inf, +inf), a CUT or ALL node entered
    with a window bounded on both sides.
    """
    searched = searched_nodes(tree, evaluated)
    notes: dict[int, str] = {}
    for n in range(tree.n_nodes):
        kind = types.get(n)
        said: list[str] = []
        if not searched[n]:
            if kind is not None and searched[max(tree.parent[n], 0)]:
                said.append("pruned")
            if said:
                notes[n] = "; ".join(said)
            continue
        if kind is None:
            if types.get(tree.parent[n]) is not None:  # say it once, at the subtree's head
                said.append("not in the minimal tree, searched")
        elif not tree.is_leaf(n):
            kids = list(tree.children(n))
            seen = sum(1 for c in kids if searched[c])
            if kind == CUT and seen == len(kids) > 1:
                said.append(f"no cutoff: all {seen} children searched")
            elif kind == CUT and seen > 1:
                said.append(f"cut only after {seen} of {len(kids)} children")
            elif kind != CUT and seen < len(kids):
                said.append(f"cut after {seen} of {len(kids)} children")
        window = None if windows is None else windows.get(n)
        if window is not None and kind is not None:
            a, b = window
            if kind == PV and (a != -INF or b != INF) or kind != PV and -INF < a and b < INF:
                said.append(f"entered with α = {_edge(a)}, β = {_edge(b)}")
        if said:
            notes[n] = "; ".join(said)
    return notes


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
    "RangeTracker",
    "CUT",
    "PV",
    "TYPE_NUMBER",
    "child_type",
    "knuth_moore_types",
    "minimal_tree_counts",
    "search_types",
    "type_notes",
    "searched_nodes",
    "value_ranges",
]
