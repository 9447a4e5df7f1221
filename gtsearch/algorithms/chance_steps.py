"""Teaching traces of expectiminimax, Star1 and Star2 (Ballard 1983; Hauk, Buro & Schaeffer 2004).

The step-by-step versions of :mod:`gtsearch.algorithms.chance`, written the
way docs/algorithms.md ("Chance nodes") words the algorithms, in MAX/MIN form
with every window in MAX's terms, and yielding one event per step: entering a
node with its window (chance nodes included), every leaf read, at a chance
node the window of each outcome (:class:`~.events.Window`, with the a and b it
comes from), Star2's probes (:class:`~.events.Probe`, :class:`~.events.Probed`),
the cutoffs at decision nodes (:class:`~.events.Cutoff`) and at chance nodes
(:class:`~.events.ChanceCutoff`), and every value handed back.  They read the
same leaves in the same order as the fast versions, with the same value (the
tests check it on random trees).

Each search is a generator that yields either an event, passed on, or the
generator of a sub-search, run by :func:`gtsearch.algorithms.base.trampoline` on an explicit stack, so
that a tree of any depth is traced without recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from ..numbers import INF, Exact, exact
from ..tree import Tree
from .base import Step, trampoline, window_kind
from .chance import tree_leaf_bounds
from .events import (
    ChanceCutoff,
    Cutoff,
    Enter,
    Event,
    Leaf,
    Probe,
    Probed,
    Result,
    Return,
    Start,
    Value,
    Window,
)
from .params import Params, leaf_bounds


class _Tracer:
    """One traced search: the tree, L and U, the leaf count, and Star2's switch."""

    def __init__(self, tree: Tree, lo: Exact, hi: Exact, probing: bool) -> None:
        self.tree = tree
        self.end = tree.end
        self.L, self.U = lo, hi
        self.probing = probing
        self.rank = 0
        self.read: set[int] = set()

    def leaf(self, n: int, parent_best: Value | None) -> tuple[Exact, Leaf]:
        self.rank += 1
        self.read.add(n)
        number = self.tree.number(n)
        return exact(number), Leaf(n, number, self.rank, parent_best)

    def unread_leaves(self, nodes: tuple[int, ...]) -> int:
        end = self.end
        return sum(
            1 for c in nodes for m in range(c, end[c]) if end[m] == m + 1 and m not in self.read
        )

    # -- expectiminimax: every leaf ---------------------------------------------------------
    def full(self, n: int) -> Step:
        tree, end = self.tree, self.end
        if tree.is_chance(n):
            total: Exact = 0
            for c, p in zip(tree.children(n), tree.probabilities(n), strict=True):
                if end[c] == c + 1:
                    v, ev = self.leaf(c, None)
                    total += p * v
                    yield Leaf(ev.node, ev.value, ev.rank, total)
                    continue
                yield Enter(c, -INF, INF)
                v = yield self.full(c)
                total += p * v
                yield Return(c, v, "exact", total)
            return total
        is_max = tree.is_max(n)
        m: Value = -INF if is_max else INF
        for c in tree.children(n):
            if end[c] == c + 1:
                v, ev = self.leaf(c, None)
                m = max(m, v) if is_max else min(m, v)
                yield Leaf(ev.node, ev.value, ev.rank, m)
                continue
            yield Enter(c, -INF, INF)
            v = yield self.full(c)
            m = max(m, v) if is_max else min(m, v)
            yield Return(c, v, "exact", m)
        return m

    # -- Star1 and Star2 --------------------------------------------------------------------
    def search(self, n: int, alpha: Value, beta: Value) -> Step:
        """Node n with the window (alpha, beta); its Enter was yielded by the caller."""
        if self.tree.is_chance(n):
            return self.chance(n, alpha, beta)
        return self.decision(n, alpha, beta)

    def child(self, c: int, alpha: Value, beta: Value, parent: Value | None) -> Step:
        """Search or read child c: its events, and its value (for a chance parent, ``parent``
        is what the parent's running sum becomes, computed by the caller once it knows it)."""
        if self.end[c] == c + 1:
            v, ev = self.leaf(c, None)
            return v, ev
        yield Enter(c, alpha, beta)
        v = yield self.search(c, alpha, beta)
        return v, Return(c, v, window_kind(v, alpha, beta), None)

    def decision(self, n: int, alpha: Value, beta: Value) -> Step:
        """Fail-soft alpha-beta: child i gets (max(alpha, best), beta) at MAX, (alpha, min) at MIN."""
        tree = self.tree
        is_max = tree.is_max(n)
        m: Value = -INF if is_max else INF
        kids = list(tree.children(n))
        for i, c in enumerate(kids):
            a, b = (max(alpha, m), beta) if is_max else (alpha, min(beta, m))
            v, ev = yield self.child(c, a, b, None)
            better = v > m if is_max else v < m
            if better:
                m = v
            yield _with_parent(ev, m)
            if better and (m >= beta if is_max else m <= alpha):
                skipped = tuple(kids[i + 1 :])
                if skipped:
                    side, bound = ("beta", beta) if is_max else ("alpha", alpha)
                    yield Cutoff(n, m, side, bound, skipped, self.unread_leaves(skipped))
                break
        return m

    def chance(self, n: int, alpha: Value, beta: Value) -> Step:
        """Star1 at a chance node, with Star2's probing phase first when ``probing``."""
        tree, end = self.tree, self.end
        L, U = self.L, self.U
        kids = list(tree.children(n))
        if L >= beta or U <= alpha:  # [L, U] lies outside the window: nothing to read
            side, value, bound = ("beta", L, beta) if L >= beta else ("alpha", U, alpha)
            skipped = tuple(kids)
            yield ChanceCutoff(
                n,
                value,
                side,
                bound,
                "bounds",
                None,
                None,
                None,
                skipped,
                self.unread_leaves(skipped),
            )
            return value
        outcomes = [
            (i, c, p) for i, (c, p) in enumerate(zip(kids, tree.probabilities(n), strict=True)) if p
        ]
        lo = {c: L for _, c, _ in outcomes}  # what is known of each outcome
        hi = {c: U for _, c, _ in outcomes}
        known: dict[int, Exact] = {}

        result: Exact = 0

        def low() -> Exact:  # the chance node's value is at least this, and at most high()
            return sum((p * lo[c] for _, c, p in outcomes), Fraction(0))

        def high() -> Exact:
            return sum((p * hi[c] for _, c, p in outcomes), Fraction(0))

        def stop(i: int, phase: str, child: int | None, v: Any, edge: Any) -> Iterator[Event]:
            nonlocal result
            side = "beta" if low() >= beta else "alpha"
            result = low() if side == "beta" else high()
            skipped = tuple(kids[i + 1 :])
            bound = beta if side == "beta" else alpha
            yield ChanceCutoff(
                n, result, side, bound, phase, child, v, edge, skipped, self.unread_leaves(skipped)
            )

        if self.probing and (alpha > -INF or beta < INF):
            for i, c, p in outcomes:
                if end[c] == c + 1:  # a leaf outcome is read now, once, and used below
                    value, ev = self.leaf(c, None)
                    yield ev
                    lo[c] = hi[c] = known[c] = value
                elif tree.is_chance(c):
                    continue
                elif tree.is_max(c):
                    if beta == INF:
                        continue
                    b = (beta - (low() - p * L)) / p
                    lo[c] = yield self.probe(c, n, "lower", L, min(b, U))
                    yield Probed(c, lo[c], "lower", low(), high())
                else:
                    if alpha == -INF:
                        continue
                    a = (alpha - (high() - p * U)) / p
                    hi[c] = yield self.probe(c, n, "upper", max(a, L), U)
                    yield Probed(c, hi[c], "upper", low(), high())
                if low() >= beta or high() <= alpha:
                    yield from stop(i, "probe", c, None, None)
                    return result
        total: Exact = 0
        for i, c, p in outcomes:
            # the outcomes before this one are known exactly now: low() and high() both
            # hold total for them, so what remains is the outcomes after it
            rest_lo = low() - total - p * lo[c]
            rest_hi = high() - total - p * hi[c]
            a = -INF if alpha == -INF else (alpha - total - rest_hi) / p
            b = INF if beta == INF else (beta - total - rest_lo) / p
            wa, wb = max(a, L), min(b, U)
            yield Window(n, c, p, total, rest_lo, rest_hi, a, b, wa, wb)
            if c in known:
                v: Exact = known[c]
                done: Event | None = None
            else:
                v, done = yield self.child(c, wa, wb, None)
            lo[c] = hi[c] = v
            if done is not None:
                yield _with_parent(done, total + p * v)
            if v <= a or v >= b:
                yield from stop(i, "search", c, v, a if v <= a else b)
                return result
            total += p * v
        return total

    def probe(self, c: int, chance: int, side: str, alpha: Value, beta: Value) -> Step:
        """Star2: search only the first child of outcome c, for a bound on c."""
        yield Probe(c, chance, side, alpha, beta)
        first = c + 1
        v, ev = yield self.child(first, alpha, beta, None)
        yield _with_parent(ev, v)
        return v


def _with_parent(ev: Event, parent_best: Value | None) -> Event:
    """A Leaf or Return event with the parent's best so far (or running sum) filled in."""
    if isinstance(ev, Leaf):
        return Leaf(ev.node, ev.value, ev.rank, parent_best)
    if isinstance(ev, Return):
        return Return(ev.node, ev.value, ev.kind, parent_best)
    return ev


def _trace(tree: Tree, name: str, params: Params) -> Iterator[Event]:
    if name == "expectiminimax":
        shown: dict[str, Any] = {}
        lo, hi = tree_leaf_bounds(tree)
    else:
        given = params.get("leaf_bounds")
        (lo, hi), origin = leaf_bounds(tree, given if isinstance(given, tuple) else None)
        shown = {"leaf_bounds": (lo, hi), "leaf_bounds_from": origin}
    run = _Tracer(tree, exact(lo), exact(hi), name == "star2")
    yield Start(0, name, shown, None)
    if tree.end[0] == 1:
        v, ev = run.leaf(0, None)
        yield ev
        yield Result(0, v, None, 1)
        return
    yield Enter(0, -INF, INF)
    step = run.full(0) if name == "expectiminimax" else run.search(0, -INF, INF)
    value = yield from trampoline(step)
    yield Return(0, value, "exact", None)
    yield Result(0, value, None, run.rank)


CHANCE_TRACERS: dict[str, Callable[[Tree, Params, bool], Iterator[Event]]] = {
    "expectiminimax": lambda t, p, o: _trace(t, "expectiminimax", p),
    "star1": lambda t, p, o: _trace(t, "star1", p),
    "star2": lambda t, p, o: _trace(t, "star2", p),
}

__all__ = ["CHANCE_TRACERS"]
