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
the leftmost node (the rule of docs/algorithms.md; it makes SSS* evaluate exactly
the leaves of MT-SSS*).  The nodes with a state in OPEN are also kept in a
sorted list, so the purge of case 5 removes every state below a node by one
interval cut (descendants of p are p+1 .. end[p]-1 in preorder) instead of
walking ancestors state by state.  Stale heap entries are skipped on pop.

On a game searched on demand (``tree.on_demand``) nodes are numbered as the
search meets them, not in preorder, and a subtree is no interval of numbers.
There a node stands in OPEN by its path from the root (:func:`.base.place`),
which sorts as preorder numbers do: the heap's ties go to the smaller path (the
leftmost node), and the purge of case 5 cuts, from the sorted paths of the
states in OPEN, the interval of those that start with the parent's path (up to
the path of the parent's next sibling).  A node's children are consecutive
numbers (:func:`.base.span`), its parent ``tree.up``: the same states in the
same order, the same leaves and counts (:func:`_met_sss_core`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from heapq import heappop, heappush

from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, place, span
from .pv import Prover

LIVE = 0
SOLVED = 1


def _sss_core(tree: Tree, stats: Stats, h0: float, mirror: float) -> tuple[float, dict[int, int]]:
    """SSS* from the state (root, LIVE, h0) on the tree mirrored by ``mirror`` (+1 or -1).

    Returns the h of the solved root, in the mirrored tree's terms, and for
    every MAX node solved by case 5 the child that solved it.

    The states are exactly Stockman's; three shortcuts keep most of them out
    of the heap without changing which state is taken next:

    - The state the operator produces is usually the very next one OPEN
      would hand out, and is then processed at once: the popped state
      (n, s, h) had the highest h and the leftmost node among equals, so
      (first child, h) in cases 3-4, (parent, h) in case 5 and (next sibling
      or parent, h) in case 6 come next again (a state left of them with the
      same h would have been taken before n; those between are n's
      descendants, of which OPEN has none, or the parent's, which case 5
      purges).  Only when case 2 lowers h is the heap's top consulted.
    - Case 3 parks the siblings of the first child as one entry for the whole
      run (they share h and are taken left to right), re-parked one shorter
      each time the leftmost is taken.
    - Case 3 on a node whose children are all leaves: they are taken one
      after another (all have the highest h, leftmost first) until a leaf
      worth >= h solves the node; if none is, the best child's solved state
      stands for all of them (the others can only be purged by it).

    ``size`` follows the true number of states in OPEN, entries standing for
    several states included, so the reported peak is Stockman's.
    """
    end = tree.end
    vals = tree.values
    visit = stats.leaves.append
    heap: list[tuple[float, int, int, bool, bool]] = []
    # parked node -> (h, status, how many states the entry stands for); their nodes, sorted
    parked: dict[int, tuple[float, int, int]] = {}
    in_heap: list[int] = []
    parent: dict[int, int] = {0: -1}
    solver: dict[int, int] = {}
    size = open_max = generated = 1

    n, status, h, weight = 0, LIVE, h0, 1
    is_max = tree.root_max if mirror > 0 else not tree.root_max
    while True:
        if status == LIVE:
            stop = end[n]
            if stop == n + 1:  # case 2: the only leaf evaluation
                visit(n)
                status = SOLVED
                v = mirror * vals[n]
                if v >= h:
                    continue
                h = v
            elif is_max:  # case 3: every child, with h
                first = n + 1
                count = 0
                leaves_only = True
                c = first
                while c < stop:
                    count += 1
                    e = end[c]
                    if e != c + 1:
                        leaves_only = False
                    c = e
                generated += count
                size += count - 1
                if size > open_max:
                    open_max = size
                if not leaves_only:
                    parent[first] = n
                    if count > 1:
                        second = end[first]
                        parent[second] = n
                        parked[second] = (h, LIVE, count - 1)
                        at = bisect_left(in_heap, second)
                        in_heap.insert(at, second)
                        heappush(heap, (-h, second, LIVE, False, True))
                    n, is_max = first, False
                    continue
                best_c, best_v = -1, h
                c = first
                while c < stop:
                    parent[c] = n
                    visit(c)
                    v = mirror * vals[c]
                    if v >= h:
                        break
                    if best_c < 0 or v > best_v:
                        best_c, best_v = c, v
                    c += 1
                if c < stop:  # (c, SOLVED, h) is next, and case 5 solves n, purging the rest
                    solver[n] = c
                    size -= count - 1
                    status = SOLVED
                    continue
                # every child solved below h: the best one stands for them all
                n, status, h, is_max, weight = best_c, SOLVED, best_v, False, count
            else:  # case 4: the first child; leaves are taken here, case 6 after each
                c = n + 1
                if end[c] != c + 1:
                    parent[c] = n
                    generated += 1
                    n, is_max = c, True
                    continue
                # the best parked state, which a falling h may let ahead of us
                top_h, top_n = -INF, -1
                while heap:
                    top = heap[0]
                    entry = parked.get(top[1])
                    if entry is None or entry[0] != -top[0] or entry[1] != top[2]:
                        heappop(heap)
                        continue
                    top_h, top_n = -top[0], top[1]
                    break
                while True:
                    parent[c] = n
                    generated += 1
                    visit(c)
                    v = mirror * vals[c]
                    if v < h:
                        h = v
                        if top_h > h or top_h == h and top_n < c:
                            break  # a parked state is ahead of (c, SOLVED, h) now
                    c = end[c]
                    if c >= stop or end[c] != c + 1:
                        break
                if c >= stop:  # case 6 after the last child: the MIN node is solved
                    status = SOLVED
                    continue
                if end[c] != c + 1:  # case 6: the next child is no leaf
                    parent[c] = n
                    generated += 1
                    n, is_max = c, True
                    continue
                n, status, is_max = c, SOLVED, True
            # h went down (case 2, or case 3 over leaves): is a parked state now ahead?
            while heap:
                top = heap[0]
                k = top[1]
                entry = parked.get(k)
                if entry is None or entry[0] != -top[0] or entry[1] != top[2]:
                    heappop(heap)  # purged, or taken already
                    continue
                if (top[0], k) < (-h, n):
                    parked[n] = (h, status, weight)
                    in_heap.insert(bisect_left(in_heap, n), n)
                    heappush(heap, (-h, n, status, is_max, False))
                    neg, n, status, is_max, run = heappop(heap)
                    h = -neg
                    weight = parked.pop(n)[2]
                    del in_heap[bisect_left(in_heap, n)]
                    if run:
                        if weight > 1:  # the rest of the run of siblings stays parked
                            nxt = end[n]
                            parent[nxt] = parent[n]
                            parked[nxt] = (h, LIVE, weight - 1)
                            in_heap.insert(bisect_left(in_heap, nxt), nxt)
                            heappush(heap, (-h, nxt, LIVE, is_max, True))
                        weight = 1
                break
        else:
            p = parent[n]
            if p < 0:  # case 1: the root is solved
                stats.nodes += generated
                stats.extra["open_max"] = open_max
                return h, solver
            if not is_max:  # case 5: the parent is a MAX node: solved; purge below it
                size -= weight - 1
                i = bisect_right(in_heap, p)
                j = bisect_left(in_heap, end[p], i)
                if i < j:
                    for k in in_heap[i:j]:
                        size -= parked.pop(k)[2]
                    del in_heap[i:j]
                solver[p] = n
                n, is_max, weight = p, True, 1
            else:  # case 6: the parent is a MIN node: the next sibling, or the parent solved
                c = end[n]
                if c < end[p]:
                    parent[c] = p
                    generated += 1
                    n, status = c, LIVE
                else:
                    n, is_max = p, False


def _solution_line(
    tree: Tree, stats: Stats, h: float, exact: bool, mirror: float, solver: dict[int, int]
) -> list[int]:
    """The PV from the solved solution tree, in the mirrored tree's terms.

    The last solution tree SSS* solved proves value >= h (mirrored): at its
    MAX nodes it holds the child that solved them, at MIN nodes all children.
    For an exact h the line must also stay within value <= h: at MIN nodes it
    takes the first child whose evaluated leaves prove that (one question,
    remembered per node, so the walk is linear at worst).  For a bound it
    takes the first child.
    """
    end = tree.end
    root_max = tree.root_max if mirror > 0 else not tree.root_max
    prover = Prover(tree, stats.leaves, mirror * h, lower=mirror < 0) if exact else None
    line = [0]
    n, is_max = 0, root_max
    while end[n] != n + 1:
        if is_max:
            c = solver[n]
        else:
            c = n + 1
            if prover is not None:
                while not prover.proves(c, is_max if mirror < 0 else not is_max):
                    c = end[c]
        line.append(c)
        n, is_max = c, not is_max
    return line


def _solve(tree: Tree, stats: Stats, h0: float, mirror: float) -> tuple[float, list[int]]:
    """SSS* from (root, LIVE, h0) on the mirrored tree: the solved root's h and the PV.

    The result is exact when h < h0 (in the mirrored tree's terms).
    """
    done = compiled.sss(tree, stats, h0, mirror)
    if done is not None:
        return done
    if tree.on_demand:
        done = compiled.sss_on_demand(tree, stats, h0, mirror)
        if done is not None:
            return done
        h, solver = _met_sss_core(tree, stats, h0, mirror)
        return h, _met_solution_line(tree, stats, h, h < h0, mirror, solver)
    h, solver = _sss_core(tree, stats, h0, mirror)
    return h, _solution_line(tree, stats, h, h < h0, mirror, solver)


def _met_sss_core(
    tree: Tree, stats: Stats, h0: float, mirror: float
) -> tuple[float, dict[int, int]]:
    """:func:`_sss_core` on a tree numbered as met: a node in OPEN by its path (``place``),
    a node's children by :func:`.base.span`, its next sibling the next number, its parent
    ``tree.up``; the same states taken in the same order, the same shortcuts and counts."""
    end = tree.end  # the leaf test only: end[c] == c + 1
    vals = tree.values
    up = tree.up  # type: ignore[attr-defined]
    visit = stats.leaves.append
    Path = tuple[int, ...]
    # (-h, path, node, status, MAX to move?, a run of siblings?)
    heap: list[tuple[float, Path, int, int, bool, bool]] = []
    # a parked node's path -> (h, status, how many states the entry stands for); the paths, sorted
    parked: dict[Path, tuple[float, int, int]] = {}
    in_heap: list[Path] = []
    solver: dict[int, int] = {}
    size = open_max = generated = 1

    def park(
        key: Path, node: int, h: float, status: int, weight: int, is_max: bool, run: bool
    ) -> None:
        parked[key] = (h, status, weight)
        insort(in_heap, key)
        heappush(heap, (-h, key, node, status, is_max, run))

    n, status, h, weight = 0, LIVE, h0, 1
    is_max = tree.root_max if mirror > 0 else not tree.root_max
    while True:
        if status == LIVE:
            if end[n] == n + 1:  # case 2: the only leaf evaluation
                visit(n)
                status = SOLVED
                v = mirror * vals[n]
                if v >= h:
                    continue
                h = v
            elif is_max:  # case 3: every child, with h
                kids = span(tree, n)
                first, stop, count = kids.start, kids.stop, len(kids)
                leaves_only = all(end[c] == c + 1 for c in kids)
                generated += count
                size += count - 1
                if size > open_max:
                    open_max = size
                if not leaves_only:
                    if count > 1:
                        park(place(tree, first + 1), first + 1, h, LIVE, count - 1, False, True)
                    n, is_max = first, False
                    continue
                best_c, best_v = -1, h
                c = first
                while c < stop:
                    visit(c)
                    v = mirror * vals[c]
                    if v >= h:
                        break
                    if best_c < 0 or v > best_v:
                        best_c, best_v = c, v
                    c += 1
                if c < stop:  # (c, SOLVED, h) is next, and case 5 solves n, purging the rest
                    solver[n] = c
                    size -= count - 1
                    status = SOLVED
                    continue
                # every child solved below h: the best one stands for them all
                n, status, h, is_max, weight = best_c, SOLVED, best_v, False, count
            else:  # case 4: the first child; leaves are taken here, case 6 after each
                kids = span(tree, n)
                c, stop = kids.start, kids.stop
                if end[c] != c + 1:
                    generated += 1
                    n, is_max = c, True
                    continue
                # the best parked state, which a falling h may let ahead of us
                top_h, top_key = -INF, None
                while heap:
                    top = heap[0]
                    entry = parked.get(top[1])
                    if entry is None or entry[0] != -top[0] or entry[1] != top[3]:
                        heappop(heap)
                        continue
                    top_h, top_key = -top[0], top[1]
                    break
                while True:
                    generated += 1
                    visit(c)
                    v = mirror * vals[c]
                    if v < h:
                        h = v
                        if top_h > h or (
                            top_h == h and (top_key is None or top_key < place(tree, c))
                        ):
                            break  # a parked state is ahead of (c, SOLVED, h) now
                    c += 1
                    if c >= stop or end[c] != c + 1:
                        break
                if c >= stop:  # case 6 after the last child: the MIN node is solved
                    status = SOLVED
                    continue
                if end[c] != c + 1:  # case 6: the next child is no leaf
                    generated += 1
                    n, is_max = c, True
                    continue
                n, status, is_max = c, SOLVED, True
            # h went down (case 2, or case 3 over leaves): is a parked state now ahead?
            while heap:
                top = heap[0]
                key = top[1]
                entry = parked.get(key)
                if entry is None or entry[0] != -top[0] or entry[1] != top[3]:
                    heappop(heap)  # purged, or taken already
                    continue
                here = place(tree, n)
                if (top[0], key) < (-h, here):
                    park(here, n, h, status, weight, is_max, False)
                    neg, key, n, status, is_max, run = heappop(heap)
                    h = -neg
                    weight = parked.pop(key)[2]
                    del in_heap[bisect_left(in_heap, key)]
                    if run:
                        if weight > 1:  # the rest of the run of siblings stays parked
                            after = (*key[:-1], key[-1] + 1)
                            park(after, n + 1, h, LIVE, weight - 1, is_max, True)
                        weight = 1
                break
        else:
            p = up[n]
            if p < 0:  # case 1: the root is solved
                stats.nodes += generated
                stats.extra["open_max"] = open_max
                return h, solver
            if not is_max:  # case 5: the parent is a MAX node: solved; purge below it
                size -= weight - 1
                key = place(tree, p)
                i = bisect_right(in_heap, key)
                # the paths that start with p's: up to its next sibling's (all, at the root)
                j = bisect_left(in_heap, (*key[:-1], key[-1] + 1), i) if key else len(in_heap)
                if i < j:
                    for k in in_heap[i:j]:
                        size -= parked.pop(k)[2]
                    del in_heap[i:j]
                solver[p] = n
                n, is_max, weight = p, True, 1
            else:  # case 6: the parent is a MIN node: the next sibling, or the parent solved
                if n + 1 < span(tree, p).stop:
                    generated += 1
                    n, status = n + 1, LIVE
                else:
                    n, is_max = p, False


def _met_solution_line(
    tree: Tree, stats: Stats, h: float, exact: bool, mirror: float, solver: dict[int, int]
) -> list[int]:
    """:func:`_solution_line` on a tree numbered as met (children by :func:`.base.span`)."""
    end = tree.end
    root_max = tree.root_max if mirror > 0 else not tree.root_max
    prover = Prover(tree, stats.leaves, mirror * h, lower=mirror < 0) if exact else None
    line = [0]
    n, is_max = 0, root_max
    while end[n] != n + 1:
        if is_max:
            c = solver[n]
        else:
            c = span(tree, n).start
            if prover is not None:
                while not prover.proves(c, is_max if mirror < 0 else not is_max):
                    c += 1
        line.append(c)
        n, is_max = c, not is_max
    return line


def sss(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """SSS* (``bound`` None) or SSS-bounded from (root, LIVE, bound): exact if the value < bound."""
    h0 = INF if bound is None else bound
    h, line = _solve(tree, stats, h0, 1.0)
    return Outcome(h, None if h < h0 else "lower", pv=line)


def dual(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """DUAL* (``bound`` None) or DUAL-bounded from (root, LIVE, bound): exact if the value > bound."""
    l0 = -INF if bound is None else bound
    h, line = _solve(tree, stats, -l0, -1.0)
    return Outcome(-h, None if -h > l0 else "upper", pv=line)
