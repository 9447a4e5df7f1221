"""SSS*, DUAL* and their bounded forms: best-first search with an OPEN list of states.

Stockman, G. C. (1979). A minimax algorithm better than alpha-beta?
Artificial Intelligence 12(2), 179-196 (the Gamma operator, cases 1-6).
Marsland, T. A., Reinefeld, A. & Schaeffer, J. (1987). Low overhead
alternatives to SSS*. Artificial Intelligence 31(2), 185-199 (DUAL*).
Sun, W. & Ma, J. (1993), on SSS*, DUAL* and the bounded start (BS*).

One routine serves all four.  DUAL* is SSS* with the roles of MAX and MIN
exchanged, which is exactly SSS* run on the mirrored tree: every leaf value
negated and every node's player swapped.  So DUAL* calls the SSS* core with
``mirror=-1`` and negates the answer; the leaves and their order are the same.

OPEN is a heap keyed by (-h, preorder number): highest merit first, ties to
the leftmost node (the spec's rule; it is what makes SSS* evaluate exactly
the leaves of MT-SSS*).  The nodes with a state in OPEN are also kept in a
sorted list, so the purge of case 5 removes every state below a node by one
interval cut (descendants of p are p+1 .. end[p]-1 in preorder) instead of
walking ancestors state by state.  Stale heap entries are skipped on pop.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from heapq import heappop, heappush

from ..tree import Tree
from .base import INF, Outcome, Stats

LIVE = 0
SOLVED = 1


def _sss_core(tree: Tree, stats: Stats, h0: float, mirror: float) -> float:
    """SSS* from the state (root, LIVE, h0) on the tree mirrored by ``mirror`` (+1 or -1).

    Returns the h of the solved root, in the mirrored tree's terms.
    """
    end = tree.end
    vals = tree.values
    visit = stats.leaves.append
    root_max = tree.root_max if mirror > 0 else not tree.root_max

    heap: list[tuple[float, int, int]] = []
    # node -> (h, status) of its state in OPEN; info: node -> (parent, MAX to move?)
    state: dict[int, tuple[float, int]] = {}
    info: dict[int, tuple[int, bool]] = {0: (-1, root_max)}
    in_open: list[int] = []  # nodes with a state in OPEN, sorted by preorder number
    open_max = 0

    def insert(n: int, status: int, h: float) -> None:
        state[n] = (h, status)
        insort(in_open, n)
        heappush(heap, (-h, n, status))

    insert(0, LIVE, h0)
    generated = 1
    while True:
        if len(in_open) > open_max:
            open_max = len(in_open)
        while True:
            neg_h, n, status = heappop(heap)
            if state.get(n) == (-neg_h, status):
                break
        h = -neg_h
        del state[n]
        del in_open[bisect_left(in_open, n)]
        parent, is_max = info[n]
        if status == LIVE:
            stop = end[n]
            if stop == n + 1:  # case 2: the only leaf evaluation
                visit(n)
                v = mirror * vals[n]
                insert(n, SOLVED, v if v < h else h)
            elif is_max:  # case 3: every child, all with h
                c = n + 1
                while c < stop:
                    info[c] = (n, False)
                    insert(c, LIVE, h)
                    generated += 1
                    c = end[c]
            else:  # case 4: the first child
                info[n + 1] = (n, True)
                insert(n + 1, LIVE, h)
                generated += 1
        elif parent < 0:  # case 1: the root is solved
            stats.nodes += generated
            stats.extra["open_max"] = open_max
            return h
        elif not is_max:  # case 5: the parent is a MAX node: it is solved, purge below it
            pstop = end[parent]
            i = bisect_right(in_open, parent)
            j = bisect_left(in_open, pstop, i)
            for k in in_open[i:j]:
                del state[k]
            del in_open[i:j]
            insert(parent, SOLVED, h)
        else:  # case 6: the parent is a MIN node: the next sibling, or the parent solved
            c = end[n]
            if c < end[parent]:
                info[c] = (parent, True)
                insert(c, LIVE, h)
                generated += 1
            else:
                insert(parent, SOLVED, h)


def sss(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """SSS* (``bound`` None) or SSS-bounded from (root, LIVE, bound): exact if the value < bound."""
    h0 = INF if bound is None else bound
    h = _sss_core(tree, stats, h0, 1.0)
    return Outcome(h, "lower" if h >= h0 else None)


def dual(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """DUAL* (``bound`` None) or DUAL-bounded from (root, LIVE, bound): exact if the value > bound."""
    l0 = -INF if bound is None else bound
    h = -_sss_core(tree, stats, -l0, -1.0)
    return Outcome(h, "upper" if h <= l0 else None)
