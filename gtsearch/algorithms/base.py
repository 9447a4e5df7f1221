"""What every algorithm shares: the Stats counter, the Outcome, and the PV rule."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from ..result import Number
from ..tree import Tree

INF = float("inf")


class Stats:
    """Counters an algorithm fills in: the evaluated leaves in order, nodes touched."""

    __slots__ = ("leaves", "nodes", "extra")

    def __init__(self) -> None:
        #: node numbers of the evaluated leaves, in evaluation order
        self.leaves: list[int] = []
        #: nodes the algorithm generated (entered, or gave a state), leaves included
        self.nodes = 0
        #: algorithm-specific figures (peak OPEN size, ...), reported as they are
        self.extra: dict[str, Any] = {}


@dataclass(frozen=True)
class Outcome:
    """An algorithm's answer in MAX's terms: the value and what kind of bound it is.

    ``bound`` is None (exact), ``"lower"`` (true value >= value) or ``"upper"``.
    """

    value: float
    bound: str | None = None
    #: the PV as nodes from the root, when the algorithm knows one that is valid
    pv: list[int] | None = None
    #: node -> parent for every node the search generated (for the general PV rule)
    explored: dict[int, int] | None = None

    def number(self, tree: Tree, pv: list[int], params: dict[str, Number]) -> Number:
        """The value as the user wrote it: the PV leaf's own number, or the bound given."""
        v = self.value
        if pv and tree.values[pv[-1]] == v:
            return tree.number(pv[-1])
        for given in params.values():
            if given == v:
                return given
        if float(v).is_integer() and tree.floats is None:
            return int(v)
        return float(v)


def window_outcome(value: float, alpha: float, beta: float) -> Outcome:
    """Classify a fail-soft result against the window (alpha, beta), MAX's terms."""
    if value <= alpha:
        return Outcome(value, "upper")
    if value >= beta:
        return Outcome(value, "lower")
    return Outcome(value)


def principal_variation(tree: Tree, evaluated: list[int], outcome: Outcome) -> list[int]:
    """The PV as nodes from the root to a leaf, proved by the evaluated leaves alone.

    An algorithm that tracks its own best moves hands them over in
    ``outcome.pv``.  Otherwise: from the evaluated leaves we know, for every
    node, the interval [lo, hi] its minimax value must lie in (an unevaluated
    subtree is (-inf, +inf)).  For an exact value v the walk takes, at a MAX
    node, the first child with lo = v, and at a MIN node the first child with
    hi = v: such a child has exactly the value v, so every move keeps the
    minimax value.  For a lower bound it follows lo (the line that proves
    value >= lo), for an upper bound hi.  Any correct algorithm's leaves
    determine its answer, so the walk always exists; if it does not, the
    algorithm has a bug and we say so.
    """
    if outcome.pv is not None:
        return outcome.pv
    if not evaluated:
        return [0]
    end = tree.end
    vals = tree.values
    done = set(evaluated)
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    for n, is_max in reversed(_explored(tree, evaluated, outcome.explored)):
        if end[n] == n + 1:
            if n in done:
                lo[n] = hi[n] = vals[n]
            continue
        los = []
        his = []
        c = n + 1
        stop = end[n]
        while c < stop:
            los.append(lo.get(c, -INF))
            his.append(hi.get(c, INF))
            c = end[c]
        if is_max:
            lo[n], hi[n] = max(los), max(his)
        else:
            lo[n], hi[n] = min(los), min(his)

    v = outcome.value
    top_lo, top_hi = lo.get(0, -INF), hi.get(0, INF)
    if outcome.bound is None:
        if not top_lo == top_hi == v:
            raise AssertionError(
                f"bug: the evaluated leaves bound the root to [{top_lo}, {top_hi}], "
                f"not to the exact value {v}")
    elif outcome.bound == "lower" and not top_lo >= v:
        raise AssertionError(f"bug: the evaluated leaves do not prove value >= {v} (only {top_lo})")
    elif outcome.bound == "upper" and not top_hi <= v:
        raise AssertionError(f"bug: the evaluated leaves do not prove value <= {v} (only {top_hi})")

    path = [0]
    n, is_max = 0, tree.root_max
    while end[n] != n + 1:
        c = n + 1
        stop = end[n]
        if outcome.bound is None:
            table, want = (lo, v) if is_max else (hi, v)
        elif outcome.bound == "lower":
            table, want = lo, lo[n]
        else:
            table, want = hi, hi[n]
        while c < stop and table.get(c) != want:
            c = end[c]
        if c >= stop:  # pragma: no cover - the proof above guarantees a child
            raise AssertionError(f"bug: no child of node {n} carries the value {want}")
        path.append(c)
        n, is_max = c, not is_max
    return path


def _explored(tree: Tree, evaluated: list[int], parent: dict[int, int] | None) -> list[tuple[int, bool]]:
    """The nodes above the evaluated leaves, with MAX-to-move flags, in preorder.

    ``parent`` (node -> parent of every generated node) is used when the
    algorithm kept it; otherwise a walk from the root enters a child only when
    an evaluated leaf lies in its preorder interval.
    """
    end = tree.end
    out: list[tuple[int, bool]] = []
    if parent is not None:
        side: dict[int, bool] = {}
        for n in sorted(parent):
            p = parent[n]
            m = tree.root_max if p < 0 else not side[p]
            side[n] = m
            out.append((n, m))
        return out
    ev = sorted(set(evaluated))
    count = len(ev)
    stack: list[tuple[int, bool]] = [(0, tree.root_max)]
    while stack:
        n, is_max = stack.pop()
        out.append((n, is_max))
        stop = end[n]
        if stop == n + 1:
            continue
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
