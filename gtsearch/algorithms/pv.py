"""The PV rule (docs/algorithms.md, "Principal variation") and the proofs it rests on.

principal_variation() finds a line of best moves from the leaves an algorithm
evaluated; Prover decides, from the same leaves, whether they prove a bound
on a node's value.  Both run in one pass over the explored part of the tree,
on explicit stacks.  likeliest_outcome() is the PV's step through a chance node.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome


def principal_variation(tree: Tree, evaluated: Sequence[int], outcome: Outcome) -> list[int]:
    """The PV as nodes from the root to a leaf.

    An algorithm that knows a valid line hands it over in ``outcome.pv``.
    Otherwise the evaluated leaves decide, in one linear pass: they bound
    every node's value to an interval [lo, hi] (an unevaluated subtree is
    (-inf, +inf)).  For an exact value v the walk takes, at a MAX node, the
    first child with lo = v, and at a MIN node the first child with hi = v:
    such a child is worth exactly v, so every move keeps the minimax value.
    For a lower bound the walk follows lo (the line that proves value >= lo),
    for an upper bound hi.  Any correct algorithm's leaves determine its
    answer, so the walk always exists; when it does not, the algorithm has a
    bug and we say so.
    """
    if outcome.pv is not None:
        return outcome.pv
    if tree.on_demand:
        return _met_principal_variation(tree, evaluated, outcome)
    line = compiled.principal_variation(tree, evaluated, outcome)
    if line is not None:
        return line
    end = tree.end
    vals = tree.values
    done = set(int(n) for n in evaluated)
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    lo_get = lo.get
    hi_get = hi.get
    for n, is_max in reversed(_explored(tree, sorted(done))):
        c = n + 1
        stop = end[n]
        if stop == c:
            if n in done:
                lo[n] = hi[n] = vals[n]
            continue
        low = high = -INF if is_max else INF
        while c < stop:
            x = lo_get(c, -INF)
            y = hi_get(c, INF)
            if (x > low) if is_max else (x < low):
                low = x
            if (y > high) if is_max else (y < high):
                high = y
            c = end[c]
        lo[n] = low
        hi[n] = high
    return _walk_down(tree, lo, hi, outcome)


def _check_root(lo: dict[int, float], hi: dict[int, float], outcome: Outcome) -> None:
    """An AssertionError (a bug) unless the leaves' bounds of the root prove the outcome."""
    v = outcome.value
    top_lo, top_hi = lo.get(0, -INF), hi.get(0, INF)
    if (
        outcome.bound is None
        and not top_lo == top_hi == v
        or (outcome.bound == "lower" and not top_lo >= v)
        or (outcome.bound == "upper" and not top_hi <= v)
    ):
        raise AssertionError(
            f"bug: the evaluated leaves bound the root to [{top_lo}, {top_hi}], "
            f"which does not prove the {outcome.bound or 'exact'} value {v}"
        )


def met_above(tree: Tree, evaluated: Iterable[int]) -> list[int]:
    """The evaluated leaves and every node above them on a tree numbered as the search met
    its nodes (``tree.on_demand``), children first: a node's children are numbered after it,
    so in descending numbers each node comes after its children (the order of a pass up)."""
    up: Sequence[int] = tree.up  # type: ignore[attr-defined]
    seen: set[int] = set()
    for n in evaluated:
        n = int(n)
        while n >= 0 and n not in seen:
            seen.add(n)
            n = up[n]
    return sorted(seen, reverse=True)


def on_demand_ranges(
    tree: Tree, evaluated: Iterable[int]
) -> tuple[dict[int, float], dict[int, float]]:
    """The bounds [lo, hi] the evaluated leaves prove for each node at or above one of them,
    on a tree numbered as met (``tree.on_demand``, no chance nodes): one pass up from the
    evaluated leaves, their parents found by ``tree.up`` (:func:`met_above`), children listed
    by ``tree.children``."""
    end, vals, depth, root_max = tree.end, tree.values, tree.depth, tree.root_max
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    lo_get = lo.get
    hi_get = hi.get
    for n in met_above(tree, set(int(n) for n in evaluated)):
        if end[n] == n + 1:  # an evaluated leaf (no other leaf is above one)
            lo[n] = hi[n] = vals[n]
            continue
        is_max = root_max == (depth[n] % 2 == 0)
        low = high = -INF if is_max else INF
        for c in tree.children(n):
            x = lo_get(c, -INF)
            y = hi_get(c, INF)
            if (x > low) if is_max else (x < low):
                low = x
            if (y > high) if is_max else (y < high):
                high = y
        lo[n] = low
        hi[n] = high
    return lo, hi


def _met_principal_variation(tree: Tree, evaluated: Sequence[int], outcome: Outcome) -> list[int]:
    """:func:`principal_variation`'s rule on a tree numbered as met: the same bounds [lo, hi]
    of the explored nodes (:func:`on_demand_ranges`), and the same walk down."""
    lo, hi = on_demand_ranges(tree, evaluated)
    return _walk_down(tree, lo, hi, outcome)


def _walk_down(
    tree: Tree, lo: dict[int, float], hi: dict[int, float], outcome: Outcome
) -> list[int]:
    """The line the bounds [lo, hi] prove the outcome by, once :func:`_check_root` has checked
    that they do: from the root, at each node the first child whose bound is the node's (its
    value where exact; its lower bound for a lower bound, its upper for an upper), children
    listed by ``tree.children`` (preorder or as met)."""
    _check_root(lo, hi, outcome)
    end, v = tree.end, outcome.value
    path = [0]
    n, is_max = 0, tree.root_max
    while end[n] != n + 1:
        if outcome.bound is None:
            table, want = (lo, v) if is_max else (hi, v)
        elif outcome.bound == "lower":
            table, want = lo, lo[n]
        else:
            table, want = hi, hi[n]
        for c in tree.children(n):
            if table.get(c) == want:
                break
        path.append(c)
        n, is_max = c, not is_max
    return path


def likeliest_outcome(tree: Tree, n: int) -> int:
    """The PV's step through chance node n: its most probable outcome, the leftmost of equals.

    Nobody chooses a chance node's outcome, so the PV follows the one most likely to come
    (docs/algorithms.md, "The PV through chance nodes"); an outcome of probability 0 is
    never taken, since some outcome has a positive one.
    """
    from fractions import Fraction

    best, top = -1, Fraction(-1)
    for c, p in zip(tree.children(n), tree.probabilities(n), strict=True):
        if p > top:
            best, top = c, p
    return best


def _explored(tree: Tree, ev: list[int]) -> list[tuple[int, bool]]:
    """The nodes above the (sorted) evaluated leaves ``ev``, MAX-to-move flags, in preorder."""
    end = tree.end
    out: list[tuple[int, bool]] = []
    count = len(ev)
    if not count:
        return out
    stack: list[tuple[int, bool]] = [(0, tree.root_max)]
    while stack:
        n, is_max = stack.pop()
        out.append((n, is_max))
        stop = end[n]
        kids = []
        c = n + 1
        i = bisect_left(ev, c)
        while c < stop and i < count:
            e = end[c]
            if ev[i] < e:  # an evaluated leaf lies below c
                kids.append((c, not is_max))
                i = bisect_left(ev, e, i)
            c = e
        stack.extend(reversed(kids))
    return out


class Prover:
    """Decides "value(n) >= v" (``lower``) or "value(n) <= v" from the evaluated leaves.

    One question for one v per instance, answers remembered per node, so a
    walk that asks it of every node on a line costs at most one pass over the
    explored tree.  An unevaluated leaf proves nothing.  The test
    short-circuits like a null-window search (one child suffices where the
    player to move chooses, all are needed where the opponent does), never
    enters a subtree without evaluated leaves, and runs on an explicit stack.
    """

    def __init__(self, tree: Tree, evaluated: Sequence[int], v: float, lower: bool) -> None:
        self.tree = tree
        self.ev = sorted(set(int(n) for n in evaluated))
        self.done = set(self.ev)
        self.v = v
        self.lower = lower
        self.known: dict[int, bool] = {}
        if tree.on_demand:
            self._met_proofs()

    def _met_proofs(self) -> None:
        """Every answer at once on a tree numbered as met (no preorder intervals to tell which
        subtrees hold evaluated leaves): one pass up from the evaluated leaves, a node's answer
        from its children's as :meth:`proves` short-circuits them; a node left out (an
        unevaluated leaf, an unexplored subtree) proves nothing."""
        tree, known, lower = self.tree, self.known, self.lower
        end, depth, root_max = tree.end, tree.depth, tree.root_max
        for n in met_above(tree, self.ev):
            if end[n] == n + 1:
                known[n] = self._leaf(n)
                continue
            anyone = (root_max == (depth[n] % 2 == 0)) == lower
            ok = not anyone
            for c in tree.children(n):
                if known.get(c, False) == anyone:
                    ok = anyone
                    break
            known[n] = ok

    def _leaf(self, k: int) -> bool:
        if k not in self.done:
            return False
        x = self.tree.values[k]
        return x >= self.v if self.lower else x <= self.v

    def _explored(self, n: int) -> bool:
        ev = self.ev
        i = bisect_left(ev, n)
        return i < len(ev) and ev[i] < self.tree.end[n]

    def proves(self, n: int, is_max: bool) -> bool:
        """Whether the evaluated leaves prove the bound for node n (MAX to move there?)."""
        if self.tree.on_demand:  # every answer known (:meth:`_met_proofs`)
            return self.known.get(n, False)
        end = self.tree.end
        if end[n] == n + 1:
            return self._leaf(n)
        known = self.known
        if n in known:
            return known[n]
        lower = self.lower
        # a frame: the node, its next child, its end, "one child suffices", children MAX?
        stack: list[tuple[int, int, int, bool, bool]] = []
        m, c, stop, anyone, kid_max = n, n + 1, end[n], is_max == lower, not is_max
        while True:
            while c < stop:
                if end[c] == c + 1:
                    ok = self._leaf(c)
                elif c in known:
                    ok = known[c]
                elif not self._explored(c):
                    ok = known[c] = False
                else:
                    stack.append((m, c, stop, anyone, kid_max))
                    m, c, stop, anyone, kid_max = c, c + 1, end[c], kid_max == lower, not kid_max
                    continue
                if ok == anyone:  # decided: one success suffices, or one failure sinks
                    break
                c = end[c]
            else:
                ok = not anyone  # every child failed (one would do) or passed (all needed)
            known[m] = ok
            # hand the answer up: the parent goes on with its next child, or is decided too
            while stack:
                m, c, stop, anyone, kid_max = stack.pop()
                if ok == anyone:
                    known[m] = ok
                    continue
                c = end[c]
                break
            else:
                return ok
