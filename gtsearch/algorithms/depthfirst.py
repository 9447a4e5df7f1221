"""Depth-first searches: minimax (F), F1 and alpha-beta (F2).

Knuth, D. E. & Moore, R. W. (1975). An analysis of alpha-beta pruning.
Artificial Intelligence 6(4), 293-326: procedures F, F1 and F2.

All three are one negamax routine over the flat tree, iterative so that a
tree a million levels deep cannot overflow the stack.  They differ only in
the window a child is searched with:

- F (minimax): every child with (-inf, +inf); no cutoff;
- F1(p, bound): child with bound -m, i.e. the window (-inf, -m); cut at m >= bound;
- F2(p, alpha, beta), fail-soft: child with (-beta, -max(alpha, m)); cut at m >= beta;
- F2 as Knuth & Moore print it (``variant="fail-hard"``): m starts from alpha
  instead of -inf, so a node that fails low returns alpha itself.

Both forms of F2 give every child the same window, so they evaluate the same
leaves in the same order; fail-soft only returns tighter bounds outside the
window.  The fail-hard form runs in Python in both cores (the compiled core
has the fail-soft one), with the same results.

A game searched on demand (``tree.on_demand``, docs/sources.md) has no
preorder numbers: :func:`_negamax_on_demand` is the same negamax over the
children each node lists (``tree.open(n)``, an empty range at a leaf), with
the same windows, cutoffs and counts, so it evaluates the same leaves in the
same order as the search of the counted tree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, window_outcome

#: trees this large use the vectorised bottom-up pass for full minimax (numpy)
VECTOR_MIN_NODES = 200_000


def _negamax(
    tree: Tree,
    stats: Stats,
    alpha: float,
    beta: float,
    deep: bool,
    prune: bool,
    hard: bool = False,
) -> tuple[float, list[int]]:
    """Negamax value of the root for the player to move there, searched with (alpha, beta).

    ``prune`` False: no cutoffs at all (minimax); ``deep`` False: children get no
    lower window edge (F1's one-sided bound); ``hard``: every node's m starts
    from its alpha (F2 as printed), not from -inf.  Returns the value (fail-soft
    unless ``hard``) and the line of best moves (each node's first child that
    set its value).
    """
    if tree.on_demand:
        done = compiled.negamax_on_demand(
            tree, stats, alpha, beta, deep, prune, hard
        ) or compiled.negamax_on_objects(tree, stats, alpha, beta, deep, prune, hard)
        if done is not None:
            return done
        return _negamax_on_demand(tree, stats, alpha, beta, deep, prune, hard)
    done = None if hard else compiled.negamax(tree, stats, alpha, beta, deep, prune)
    if done is not None:
        return done
    end = tree.end
    vals = tree.values
    visit = stats.leaves.append
    sign = 1.0 if tree.root_max else -1.0
    if end[0] == 1:
        visit(0)
        stats.nodes += 1
        return sign * vals[0], [0]
    nodes = 1  # inner nodes entered; the leaves are counted at the end
    best: dict[int, int] = {}
    stack: list[tuple[int, int, int, float, float, float, float, int]] = []
    push = stack.append
    pop = stack.pop
    # the node n being searched: its next child c, its subtree end, best value so
    # far m and the child bc that gave it, the window (a, b), and s = +1 where MAX
    # is to move, -1 where MIN is
    n, c, stop, m, a, b, s, bc = 0, 1, end[0], alpha if hard else -INF, alpha, beta, sign, -1
    while True:
        while c < stop:
            e = end[c]
            if e == c + 1:
                visit(c)
                t = s * vals[c]
            else:
                nodes += 1
                if prune:
                    child_b = -(a if a > m else m)
                    child_a = -b if deep else -INF
                else:
                    child_a, child_b = -INF, INF
                # Search child c in place while its children are leaves (most nodes visited
                # sit just above the leaves); a frame is pushed only when c has an inner child.
                k = c + 1
                cm = child_a if hard else -INF
                cbc = -1
                cs = -s  # the player to move at c
                while k < e:
                    ek = end[k]
                    if ek != k + 1:
                        break
                    visit(k)
                    u = cs * vals[k]
                    if u > cm:
                        cm = u
                        cbc = k
                        if cm >= child_b:
                            k = e
                            break
                    k = ek
                if k < e:  # c has an inner child: c gets a frame of its own
                    push((n, c, stop, m, a, b, s, bc))
                    n, c, stop, m, a, b, s, bc = c, k, e, cm, child_a, child_b, cs, cbc
                    continue
                best[c] = cbc  # c is finished without a frame
                t = -cm
            # child c is worth t to the player to move at n
            if t > m:
                m = t
                bc = c
                if m >= b:
                    break
            c = e
        # node n is finished with value m: hand it to the parent
        best[n] = bc
        while stack:
            t = -m
            child = n
            n, c, stop, m, a, b, s, bc = pop()
            if t > m:
                m = t
                bc = child
                if m >= b:
                    best[n] = bc
                    continue
            c = end[c]
            break
        else:
            stats.nodes += nodes + len(stats.leaves)
            return m, _best_line(best)


def _negamax_on_demand(
    tree: Tree,
    stats: Stats,
    alpha: float,
    beta: float,
    deep: bool,
    prune: bool,
    hard: bool = False,
) -> tuple[float, list[int]]:
    """:func:`_negamax` on a tree searched on demand: each node's children listed as the search
    enters it (``tree.open``), one frame per inner node on the line, no recursion."""
    listed = tree.open  # type: ignore[attr-defined]  # an OnDemandTree's
    value = tree.value_at  # type: ignore[attr-defined]
    release = tree.release  # type: ignore[attr-defined]  # a node left is not entered again
    visit = stats.leaves.append
    sign = 1.0 if tree.root_max else -1.0
    kids = listed(0)
    if not kids:
        visit(0)
        stats.nodes += 1
        return sign * value(0), [0]
    nodes = 1  # inner nodes entered; the leaves are counted at the end
    best: dict[int, int] = {}
    stack: list[tuple[int, Iterator[int], float, float, float, float, int]] = []
    push = stack.append
    pop = stack.pop
    # the node n being searched: the iterator over its children, its best value so far m
    # and the child bc that gave it, the window (a, b), and s = +1 where MAX is to move
    n, todo, m, a, b, s, bc = 0, iter(kids), alpha if hard else -INF, alpha, beta, sign, -1
    while True:
        entered = False
        for c in todo:
            kids = listed(c)
            if kids:  # an inner child: searched in a frame of its own
                nodes += 1
                if prune:
                    child_b = -(a if a > m else m)
                    child_a = -b if deep else -INF
                else:
                    child_a, child_b = -INF, INF
                push((n, todo, m, a, b, s, bc))
                n, todo, a, b, s, bc = c, iter(kids), child_a, child_b, -s, -1
                m = child_a if hard else -INF
                entered = True
                break
            visit(c)
            t = s * value(c)
            if t > m:
                m = t
                bc = c
                if m >= b:
                    break
        if entered:
            continue
        # node n is finished with value m: hand it to the parent
        best[n] = bc
        release(n)
        while stack:
            t = -m
            child = n
            n, todo, m, a, b, s, bc = pop()
            if t > m:
                m = t
                bc = child
                if m >= b:
                    best[n] = bc
                    release(n)
                    continue
            break
        else:
            stats.nodes += nodes + len(stats.leaves)
            return m, _best_line(best)


def _best_line(best: dict[int, int]) -> list[int]:
    """The line of best moves: from the root, each node's first child that set its value
    (-1 where none did: a node cut before any child, or a leaf)."""
    line = [0]
    k = best[0]
    while k >= 0:
        line.append(k)
        k = best.get(k, -1)
    return line


def minimax(tree: Tree, stats: Stats) -> Outcome:
    """Knuth's F(p): every leaf, left to right."""
    if len(tree.end) >= VECTOR_MIN_NODES and not tree.lazy and compiled.takes(tree) is None:
        from .vector import MAX_LEVELS, minimax_levels

        # one numpy pass per level: worth it for bushy trees, not for long chains
        if tree.max_depth() < MAX_LEVELS:
            return minimax_levels(tree, stats)
    s = 1.0 if tree.root_max else -1.0
    m, line = _negamax(tree, stats, -INF, INF, deep=False, prune=False)
    return Outcome(s * m, pv=line)


def f1(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """Knuth & Moore's F1(root, bound): exact when F(root) < bound, else F(root) >= result.

    ``bound`` is in MAX's terms: with a MIN root the search stops as soon as
    MIN has a line worth at most ``bound``, so the result is exact when the
    value is above it and an upper bound otherwise.
    """
    if tree.root_max:
        b = INF if bound is None else bound
        m, line = _negamax(tree, stats, -INF, b, deep=False, prune=True)
        return Outcome(m, "lower" if m >= b else None, pv=line)
    b = INF if bound is None else -bound
    m, line = _negamax(tree, stats, -INF, b, deep=False, prune=True)
    return Outcome(-m, "upper" if m >= b else None, pv=line)


def alphabeta(
    tree: Tree,
    stats: Stats,
    alpha: float | None = None,
    beta: float | None = None,
    variant: str | None = None,
) -> Outcome:
    """Knuth & Moore's F2(root, alpha, beta), fail-soft, or with ``variant="fail-hard"`` as
    they print it (m := alpha); window in MAX's terms."""
    lo = -INF if alpha is None else alpha
    hi = INF if beta is None else beta
    hard = variant == "fail-hard"
    if tree.root_max:
        v, line = _negamax(tree, stats, lo, hi, deep=True, prune=True, hard=hard)
    else:
        v, line = _negamax(tree, stats, -hi, -lo, deep=True, prune=True, hard=hard)
        v = -v
    done = window_outcome(v, lo, hi, line)
    if hard and done.bound is not None:
        # alpha or beta itself is no leaf's value: the line is the one that proves the
        # tighter bound the same leaves prove (fail-soft's value), which proves this one too
        from .explored import value_ranges
        from .pv import on_demand_ranges, principal_variation

        if tree.on_demand:
            los, his = on_demand_ranges(tree, stats.leaves)
            proved: tuple[Any, Any] = (los[0], his[0])
        else:
            proved = value_ranges(tree, stats.leaves)[0]
        proven = Outcome(float(proved[1] if done.bound == "upper" else proved[0]), done.bound)
        done = done._replace(pv=principal_variation(tree, stats.leaves, proven))
    return done
