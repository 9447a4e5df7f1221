"""Teaching traces: each algorithm step by step, as docs/algorithms.md defines it (Knuth & Moore; Stockman).

Sources, as fixed in docs/algorithms.md: Knuth, D. E. & Moore, R. W. (1975),
An analysis of alpha-beta pruning, Artificial Intelligence 6(4) (procedures F,
F1 and F2); Stockman, G. C. (1979), A minimax algorithm better than alpha-beta?,
Artificial Intelligence 12(2) (SSS*, the Gamma operator, cases 1-6);
Marsland, Reinefeld & Schaeffer (1987) and Sun & Ma (1993) (DUAL*, bounded starts).

These are not the fast implementations of :mod:`gtsearch.algorithms`: they
follow the textbook form literally so that every step can be shown, and they
yield one event (a small frozen dataclass) per step.  They evaluate exactly the
same leaves, in the same order, and return the same value as the fast ones
(the tests check it over random trees).

- The depth-first searches (``minimax``, ``f1``, ``alphabeta``) are written in
  the MAX/MIN form with the window (alpha, beta) in MAX's terms at every node,
  which is Knuth & Moore's negamax F, F1 and fail-soft F2 with the signs
  unfolded.  F1 passes one bound only: a MAX node is cut when its value
  reaches beta (the MIN parent's best so far), a MIN node when it falls to
  alpha.  They run on an explicit stack, so deep trees do not recurse.
- SSS* and DUAL* keep OPEN as a list of states (node, LIVE/SOLVED, h) in the
  order they will be taken (highest h first for SSS*, lowest for DUAL*; ties
  to the leftmost node) and apply Stockman's cases 1-6 one state at a time.

Every number is in MAX's terms; leaf values are the file's numbers (3 stays
3, 2.5 stays 2.5); infinities are ``float('inf')``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..numbers import INF, Number, exact
from ..tree import Tree
from .base import window_kind
from .chance_steps import CHANCE_TRACERS
from .events import (
    LIVE,
    SOLVED,
    Cutoff,
    Enter,
    Event,
    Leaf,
    Result,
    Return,
    Start,
    State,
    Take,
    Value,
)
from .explored import RangeTracker
from .mcts_steps import trace_mcts
from .params import Params, SearchParams, check, leaf_bounds, refuse_chance
from .registry import Algorithm, find_algorithm

if TYPE_CHECKING:
    from typing_extensions import Unpack


def trace(
    tree: Tree,
    algorithm: str | Algorithm = "alphabeta",
    *,
    open_lists: bool = False,
    **params: Unpack[SearchParams],
) -> Iterator[Event]:
    """The events of one search, from :class:`Start` to :class:`Result`.

    ``params`` as for :func:`gtsearch.search`.  ``open_lists`` puts a copy of
    OPEN into every SSS*/DUAL* step (costs time on large trees).  The traces
    of expectiminimax, star1 and star2 live in :mod:`.chance_steps`.
    """
    algo = algorithm if isinstance(algorithm, Algorithm) else find_algorithm(algorithm)
    if params.get("tt") and algo.name != "alphabeta":
        raise UsageError(
            f"trace --tt follows alphabeta with its table, not {algo.name}: drop --tt or "
            "choose alphabeta"
        )
    tracer = TRACERS.get(algo.name)
    if tracer is None:
        raise UsageError(
            f"there is no step-by-step trace of {algo.name}; traced algorithms: "
            + ", ".join(TRACERS)
        )
    _, checked = check(algo, **params)
    refuse_chance(algo, tree)
    if checked.get("tt"):  # alpha-beta with a table: its own trace (docs/algorithms.md)
        from .tabled_steps import trace_with_table

        return trace_with_table(tree, dict(checked))
    bounds = None
    if tree.has_chance:  # an unknown subtree is worth what the leaf bounds allow
        given = checked.get("leaf_bounds")
        (lo, hi), _ = leaf_bounds(tree, given if isinstance(given, tuple) else None)
        bounds = (exact(lo), exact(hi))
    return proven(tree, tracer(tree, checked, open_lists), bounds)


def proven(
    tree: Tree, events: Iterator[Event], bounds: tuple[Value, Value] | None
) -> Iterator[Event]:
    """The events, each Return with what the leaves read so far prove of its node (``lo``,
    ``hi``): the range ``show`` draws, so that trace and show say the same of every node.
    A node with no leaf read below it (Star1's chance node that the leaf bounds alone
    decide) keeps ``lo`` and ``hi`` None: show draws it pruned."""
    ranges = RangeTracker(tree, bounds)
    for ev in events:
        if isinstance(ev, Leaf):
            ranges.add(ev.node)
        elif isinstance(ev, Return) and ev.node in ranges.ranges:  # a leaf below was read
            lo, hi = ranges.ranges[ev.node]
            ev = replace(ev, lo=lo, hi=hi)
        yield ev


# -- depth-first: F, F1, F2 -------------------------------------------------------------
class _Frame:
    """A node on the depth-first stack: its window, best value so far, next child."""

    __slots__ = ("node", "is_max", "alpha", "beta", "best", "next", "cut")

    def __init__(
        self, node: int, is_max: bool, alpha: Number, beta: Number, hard: bool = False
    ) -> None:
        self.node = node
        self.is_max = is_max
        self.alpha = alpha
        self.beta = beta
        # F2 as printed (fail-hard) starts from the window's edge, fail-soft from -inf/+inf
        self.best: Number = (alpha if is_max else beta) if hard else (-INF if is_max else INF)
        self.next = node + 1
        self.cut = False

    def take(self, t: Number) -> bool:
        """Count a child's value; True when it improved the best (strictly, as F2 does)."""
        if t > self.best if self.is_max else t < self.best:
            self.best = t
            return True
        return False

    def reached(self) -> bool:
        """Whether the best so far has reached the bound that ends the search here."""
        return self.best >= self.beta if self.is_max else self.best <= self.alpha


def _depth_first(
    tree: Tree, mode: str, params: dict[str, Number], variant: str | None = None
) -> Iterator[Event]:
    """F (``mode`` "minimax"), F1 ("f1") or F2 ("alphabeta"), unfolded to MAX/MIN; F2 is
    fail-soft, or with ``variant`` "fail-hard" as Knuth & Moore print it (m := alpha)."""
    hard = variant == "fail-hard"
    end = tree.end
    number = tree.number
    root_max = tree.root_max
    if mode == "alphabeta":
        alpha0: Number = params.get("alpha", -INF)
        beta0: Number = params.get("beta", INF)
    elif mode == "f1":
        # the user's bound is in MAX's terms: a MAX root stops at value >= bound,
        # a MIN root at value <= bound (gtsearch.algorithms.depthfirst.f1)
        given = params.get("bound")
        alpha0, beta0 = (
            (-INF, INF if given is None else given)
            if root_max
            else (-INF if given is None else given, INF)
        )
    else:
        alpha0, beta0 = -INF, INF
    yield Start(0, mode, {**params, **({"variant": variant} if variant else {})}, None)
    if end[0] == 1:
        v = number(0)
        yield Leaf(0, v, 1, None)
        yield Result(0, v, _outcome(window_kind(v, alpha0, beta0)), 1)
        return
    rank = 0
    yield Enter(0, alpha0, beta0)
    stack = [_Frame(0, root_max, alpha0, beta0, hard)]
    while True:
        f = stack[-1]
        stop = end[f.node]
        c = f.next
        if c < stop and not f.cut:
            f.next = end[c]
            if end[c] == c + 1:
                rank += 1
                t = number(c)
                improved = f.take(t)
                yield Leaf(c, t, rank, f.best)
                if improved and f.reached():
                    yield from _cut(tree, f)
                continue
            if mode == "alphabeta":
                a, b = (
                    (max(f.alpha, f.best), f.beta) if f.is_max else (f.alpha, min(f.beta, f.best))
                )
            elif mode == "f1":
                a, b = (f.best, INF) if f.is_max else (-INF, f.best)
            else:
                a, b = -INF, INF
            yield Enter(c, a, b)
            stack.append(_Frame(c, not f.is_max, a, b, hard))
            continue
        stack.pop()
        kind = window_kind(f.best, f.alpha, f.beta)
        if not stack:
            yield Return(f.node, f.best, kind, None)
            yield Result(0, f.best, _outcome(kind), rank)
            return
        p = stack[-1]
        improved = p.take(f.best)
        yield Return(f.node, f.best, kind, p.best)
        if improved and p.reached():
            yield from _cut(tree, p)


def _cut(tree: Tree, f: _Frame) -> Iterator[Cutoff]:
    """Stop searching f's node; say so when it skips children."""
    f.cut = True
    end = tree.end
    skipped: list[int] = []
    c, stop = f.next, end[f.node]
    while c < stop:
        skipped.append(c)
        c = end[c]
    if skipped:
        leaves = sum(_leaves_below(tree, s) for s in skipped)
        side, bound = ("beta", f.beta) if f.is_max else ("alpha", f.alpha)
        yield Cutoff(f.node, f.best, side, bound, tuple(skipped), leaves)


def _leaves_below(tree: Tree, n: int) -> int:
    end = tree.end
    return sum(1 for m in range(n, end[n]) if end[m] == m + 1)


def _outcome(kind: str) -> str | None:
    return None if kind == "exact" else kind


# -- SSS*, DUAL* and the bounded forms -----------------------------------------------------
class _Open:
    """Stockman's OPEN list: states kept in the order they will be taken.

    Keys are (-h, node) for SSS* (highest h first) and (h, node) for DUAL*
    (lowest first); ties go to the smallest preorder number, the leftmost
    node.  A node has at most one state in OPEN; the sorted list of those
    nodes lets case 5 find every state below a node as one interval.
    """

    def __init__(self, dual: bool) -> None:
        self.sign = 1 if dual else -1
        self.keys: list[tuple[Number, int]] = []
        self.states: dict[int, State] = {}
        self.nodes: list[int] = []

    def insert(self, s: State) -> None:
        if s.node in self.states:
            raise AssertionError(f"bug: node {s.node} has two states in OPEN")
        self.states[s.node] = s
        insort(self.keys, (self.sign * s.h, s.node))
        insort(self.nodes, s.node)

    def take(self) -> State:
        _, n = self.keys.pop(0)
        del self.nodes[bisect_left(self.nodes, n)]
        return self.states.pop(n)

    def purge_below(self, p: int, stop: int) -> tuple[State, ...]:
        """Remove every state of a node p+1 .. stop-1 (the descendants of p)."""
        i = bisect_right(self.nodes, p)
        j = bisect_left(self.nodes, stop, i)
        gone = [self.states.pop(n) for n in self.nodes[i:j]]
        del self.nodes[i:j]
        for s in gone:
            del self.keys[bisect_left(self.keys, (self.sign * s.h, s.node))]
        return tuple(sorted(gone, key=lambda s: (self.sign * s.h, s.node)))

    def snapshot(self) -> tuple[State, ...]:
        return tuple(self.states[n] for _, n in self.keys)


def _best_first(
    tree: Tree, name: str, dual: bool, params: dict[str, Number], open_lists: bool
) -> Iterator[Event]:
    """SSS* (``dual`` False) or DUAL*, from (root, LIVE, bound) or (root, LIVE, ±inf)."""
    end = tree.end
    number = tree.number
    parent = tree.parent
    h0: Number = params.get("bound", -INF if dual else INF)
    merge = max if dual else min
    opened = _Open(dual)
    opened.insert(State(0, LIVE, h0))
    yield Start(0, name, dict(params), opened.snapshot() if open_lists else None)
    rank = 0
    while True:
        s = opened.take()
        n, h = s.node, s.h
        inserted: list[State] = []
        purged: tuple[State, ...] = ()
        leaf_value: Number | None = None
        taken_rank: int | None = None
        if s.status == SOLVED and n == 0:
            case = 1
        elif s.status == LIVE:
            if end[n] == n + 1:
                case = 2  # the only leaf evaluation
                rank += 1
                taken_rank = rank
                leaf_value = number(n)
                inserted.append(State(n, SOLVED, merge(h, leaf_value)))
            elif tree.is_max(n) != dual:
                case = 3  # SSS*: a MAX node (DUAL*: a MIN node) gets all its children
                inserted.extend(State(c, LIVE, h) for c in tree.children(n))
            else:
                case = 4  # the other player's node: its first child only
                inserted.append(State(n + 1, LIVE, h))
        else:
            p = parent[n]
            if tree.is_max(p) != dual:
                case = 5  # the parent is solved by this child; its other subtrees go
                inserted.append(State(p, SOLVED, h))
                purged = opened.purge_below(p, end[p])
            else:
                case = 6  # the next sibling, or the parent solved after its last child
                c = end[n]
                inserted.append(State(c, LIVE, h) if c < end[p] else State(p, SOLVED, h))
        for new in inserted:
            opened.insert(new)
        yield Take(
            n,
            s,
            case,
            tuple(inserted),
            purged,
            leaf_value,
            taken_rank,
            opened.snapshot() if open_lists else None,
        )
        if case == 1:
            exact = h > h0 if dual else h < h0
            yield Result(0, h, None if exact else ("upper" if dual else "lower"), rank)
            return


def _numbers(params: Params) -> dict[str, Number]:
    """The numeric parameters (bound, alpha, beta)."""
    return {k: v for k, v in params.items() if isinstance(v, (int, float))}


TRACERS: dict[str, Callable[[Tree, Params, bool], Iterator[Event]]] = {
    "minimax": lambda t, p, o: _depth_first(t, "minimax", _numbers(p)),
    "f1": lambda t, p, o: _depth_first(t, "f1", _numbers(p)),
    "alphabeta": lambda t, p, o: _depth_first(t, "alphabeta", _numbers(p), p.get("variant")),
    "sss": lambda t, p, o: _best_first(t, "sss", False, _numbers(p), o),
    "sss-bounded": lambda t, p, o: _best_first(t, "sss-bounded", False, _numbers(p), o),
    "dual": lambda t, p, o: _best_first(t, "dual", True, _numbers(p), o),
    "dual-bounded": lambda t, p, o: _best_first(t, "dual-bounded", True, _numbers(p), o),
    **CHANCE_TRACERS,
    "mcts": trace_mcts,
}


__all__ = ["TRACERS", "proven", "trace"]
