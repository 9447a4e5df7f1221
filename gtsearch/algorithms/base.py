"""What every algorithm shares: the Stats counter, the Outcome (value and bound kind), the trampoline."""

from __future__ import annotations

from array import array
from collections.abc import Generator, Mapping, MutableSequence
from types import GeneratorType
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

    def number(self, tree: Tree, pv: list[int], params: Mapping[str, Any]) -> Number:
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


def count_rereadings(stats: Stats, distinct: int | None = None) -> None:
    """``distinct_leaves`` and ``re_evaluations`` (the readings beyond the first) among the extra
    figures: the searches that may read a leaf more than once report them.  ``distinct``: the
    different leaves, when the compiled core counted them."""
    if distinct is None:
        distinct = len(set(stats.leaves))
    stats.extra["distinct_leaves"] = distinct
    stats.extra["re_evaluations"] = len(stats.leaves) - distinct


def window_kind(value: Any, alpha: Any, beta: Any) -> str:
    """A fail-soft value against its window (alpha, beta), MAX's terms: ``"upper"`` (a bound
    from above: it failed low), ``"lower"`` (failed high) or ``"exact"``."""
    if value <= alpha:
        return "upper"
    if value >= beta:
        return "lower"
    return "exact"


def window_outcome(value: float, alpha: float, beta: float, pv: list[int] | None = None) -> Outcome:
    """Classify a fail-soft result against the window (alpha, beta), MAX's terms."""
    kind = window_kind(value, alpha, beta)
    return Outcome(value, None if kind == "exact" else kind, pv=pv)


#: a search step of the searches written as generators: it yields the sub-search it needs
#: (a generator) and receives its result, and returns its own; a teaching trace's steps also
#: yield events
Step = Generator[Any, Any, Any]


def trampoline(root: Step) -> Generator[Any, None, Any]:
    """Run a search written as nested generators on an explicit stack, without nesting calls.

    A generator that a step yields is a sub-search: it runs in its place and its
    return value is sent back to the step.  Anything else a step yields (an event
    of a teaching trace) is passed on.  Returns the root's value: a tree a million
    levels deep searches without recursion.
    """
    stack = [root]
    reply: Any = None
    while True:
        try:
            item = stack[-1].send(reply)
        except StopIteration as done:
            stack.pop()
            if not stack:
                return done.value
            reply = done.value
            continue
        reply = None
        if isinstance(item, GeneratorType):
            stack.append(item)
        else:
            yield item


def drive(root: Step) -> Any:
    """The value of a search written as nested generators that yield only sub-searches."""
    steps = trampoline(root)
    try:
        item = next(steps)
    except StopIteration as done:
        return done.value
    raise AssertionError(f"bug: a search step yielded {item!r}, not a sub-search")


def span(tree: Tree, n: int) -> range:
    """The children of the inner node n of a tree numbered as a search meets its nodes
    (``tree.on_demand``): the first listing gives them the next free numbers, left to right,
    so they are consecutive, and the next sibling of child c is c + 1 (docs/sources.md):
    the OnDemandTree's own :meth:`~gtsearch.sources.ondemand.OnDemandTree.open`."""
    return tree.open(n)  # type: ignore[attr-defined,no-any-return]


def place(tree: Tree, n: int) -> tuple[int, ...]:
    """Node n's path from the root (its index among its siblings at each step) on a tree
    numbered as met: paths sort as preorder numbers do (a node before its descendants, and
    they before its next sibling), so they stand for them where a search compares nodes."""
    return tuple(tree.path_of(n))
