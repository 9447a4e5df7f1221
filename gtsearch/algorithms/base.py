"""What every algorithm shares: the Stats counter and the Outcome (value and bound kind)."""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from typing import Any, NamedTuple

from ..numbers import Exact, Number, exact, nearest
from ..tree import Tree


class Stats:
    """Counters an algorithm fills in: the evaluated leaves in order, nodes touched."""

    __slots__ = ("leaves", "nodes", "extra", "progress")

    def __init__(self) -> None:
        #: node numbers of the evaluated leaves, in evaluation order (a list, or an
        #: ``array`` of them when the compiled core searched)
        self.leaves: MutableSequence[int] = []
        #: nodes the algorithm generated (entered, or gave a state), leaves included
        self.nodes = 0
        #: algorithm-specific figures (peak OPEN size, ...), reported as they are
        self.extra: dict[str, Any] = {}
        #: where the compiled core publishes the leaves evaluated so far, while it searches
        self.progress = array("q", [0])

    def count(self) -> int:
        """The leaves evaluated so far, for a progress display (also during a compiled search)."""
        return max(len(self.leaves), self.progress[0])


class Outcome(NamedTuple):
    """An algorithm's answer in MAX's terms: the value and what kind of bound it is.

    ``bound`` is None (exact), ``"lower"`` (true value >= value) or ``"upper"``.
    """

    value: float
    bound: str | None = None
    #: the PV as nodes from the root, when the algorithm knows one that is valid
    pv: list[int] | None = None
    #: the exact value, from the algorithms that compute in rationals (chance nodes)
    exact: Exact | None = None

    def number(self, tree: Tree, pv: list[int], params: dict[str, Any]) -> Number:
        """The value as the user wrote it: the PV leaf's own number, or the bound given.

        An exact value that is no leaf's is an int when integral, else the nearest float.
        """
        q = self.exact
        if q is not None:
            if pv and tree.is_leaf(pv[-1]) and exact(tree.number(pv[-1])) == q:
                return tree.number(pv[-1])
            return nearest(q)
        v = self.value
        if pv and tree.values[pv[-1]] == v:
            return tree.number(pv[-1])
        for given in params.values():
            if isinstance(given, (int, float)) and given == v:
                return given
        if float(v).is_integer() and tree.floats is None:
            return int(v)
        return float(v)


def window_outcome(value: float, alpha: float, beta: float, pv: list[int] | None = None) -> Outcome:
    """Classify a fail-soft result against the window (alpha, beta), MAX's terms."""
    if value <= alpha:
        return Outcome(value, "upper", pv=pv)
    if value >= beta:
        return Outcome(value, "lower", pv=pv)
    return Outcome(value, pv=pv)
