"""Null-window depth-first searches without memory: NegaScout / PVS and Pearl's SCOUT.

Pearl, J. (1980). Asymptotic properties of minimax trees and game-searching
procedures. Artificial Intelligence 14(2), 113-138; and SCOUT: a simple
game-searching algorithm with proven optimal properties. Proc. AAAI-80, 143-145.
Reinefeld, A. (1983). An improvement of the Scout tree-search algorithm.
ICCA Journal 6(4), 4-14 (NegaScout).
Marsland, T. A. & Campbell, M. (1982). Parallel search of strongly ordered game
trees. ACM Computing Surveys 14(4), 533-551 (PVS, the same idea).

SCOUT decides, for every child after the first, whether it can beat the best
value so far with a boolean TEST, and only then EVALuates it.  NegaScout is
its negamax, fail-soft refinement: the first child gets the full window, the
others a null window around the best value so far, and a child that fails
high inside the window is searched again with the window (t, beta), as
Reinefeld does.

**Exact null windows.**  The null window above ``a`` is (a, nextafter(a, +inf)):
no float lies strictly inside it, so the search answers exactly "value > a?"
for integer and float leaves alike (on integers it takes the same decisions
as Reinefeld's (a, a + 1)).  SCOUT's TEST compares with ``>`` and ``<``.

**Counting re-searches.**  Neither algorithm has a memory, so a re-search
reads the leaves below it again.  ``leaves`` counts every reading (docs/algorithms.md's
"number of leaf evaluations"), the evaluated-leaf order lists each reading
where it happens, and the extra figures give ``distinct_leaves`` and
``re_evaluations`` (= leaves - distinct_leaves).  A leaf child is never
searched twice: its value is exact the first time (Reinefeld's "no re-search
at the last ply"; for SCOUT, testing a leaf is reading it).  ``nodes`` counts
node visits, re-visits included.

Both run as generators on an explicit stack (a trampoline), so a tree a
million levels deep cannot overflow Python's stack.  On a game searched on demand
(``tree.on_demand``: nodes numbered as met, not in preorder) the same searches walk
``children(n)`` and the leaf test instead of the preorder arrays (:func:`_met`).
"""

from __future__ import annotations

from collections.abc import Callable
from math import nextafter

from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, Step, count_rereadings, drive


def negascout(tree: Tree, stats: Stats) -> Outcome:
    """Reinefeld's NegaScout, fail-soft, root window (-inf, +inf); exact."""
    return _search(tree, stats, compiled.negascout, pearl=False)


def scout(tree: Tree, stats: Stats) -> Outcome:
    """Pearl's SCOUT: EVAL with a boolean TEST before every later child; exact."""
    return _search(tree, stats, compiled.scout, pearl=True)


def _search(
    tree: Tree, stats: Stats, native: Callable[[Tree, Stats], Outcome | None], pearl: bool
) -> Outcome:
    """NegaScout (``pearl`` False) or SCOUT, with what they share: the compiled core when it
    takes the tree, the arrays, the count of nodes visited, a leaf at the root read at once,
    and the re-readings counted after."""
    done = native(tree, stats)
    if done is not None:
        return done
    if tree.on_demand:
        return _met(tree, stats, pearl)
    end = tree.end
    vals = tree.values
    visit = stats.leaves.append
    nodes = 1

    # -- NegaScout ---------------------------------------------------------------------------
    def search(n: int, alpha: float, beta: float, s: float) -> Step:
        """Fail-soft negamax value of the internal node n for the player to move (s = +1: MAX)."""
        nonlocal nodes
        m = -INF
        c = n + 1
        stop = end[n]
        first = True
        while c < stop:
            e = end[c]
            nodes += 1
            if e == c + 1:  # a leaf is exact: no window, no re-search
                visit(c)
                t = s * vals[c]
            elif first:
                t = -(yield search(c, -beta, -alpha, -s))
            else:
                a = alpha if alpha > m else m
                t = -(yield search(c, -nextafter(a, INF), -a, -s))
                if a < t < beta:  # failed high inside the window: find the value
                    nodes += 1
                    t = -(yield search(c, -beta, -t, -s))
            first = False
            if t > m:
                m = t
                if m >= beta:
                    break
            c = e
        return m

    # -- SCOUT: TEST and EVAL ----------------------------------------------------------------
    def test(n: int, v: float, greater: bool, is_max: bool) -> Step:
        """TEST(n, v): is the value of the internal node n > v (``greater``), or < v?"""
        nonlocal nodes
        # where the player to move wants the answer, one child saying yes suffices;
        # where the opponent moves, one child saying no does
        anyone = is_max == greater
        c = n + 1
        stop = end[n]
        while c < stop:
            e = end[c]
            nodes += 1
            if e == c + 1:
                visit(c)
                x = vals[c]
                ok = x > v if greater else x < v
            else:
                ok = yield test(c, v, greater, not is_max)
            if ok == anyone:
                return ok
            c = e
        return not anyone

    def evaluate(n: int, is_max: bool) -> Step:
        """EVAL(n): the minimax value of the internal node n, in MAX's terms."""
        nonlocal nodes
        c = n + 1
        stop = end[n]
        v = 0.0
        first = True
        while c < stop:
            e = end[c]
            nodes += 1
            if e == c + 1:  # reading a leaf both tests and evaluates it
                visit(c)
                x = vals[c]
                if first or (x > v if is_max else x < v):
                    v = x
            elif first:
                v = yield evaluate(c, not is_max)
            elif (yield test(c, v, is_max, not is_max)):
                nodes += 1
                v = yield evaluate(c, not is_max)
            first = False
            c = e
        return v

    if end[0] == 1:
        visit(0)
        value = vals[0]
    elif pearl:
        value = drive(evaluate(0, tree.root_max))
    else:
        sign = 1.0 if tree.root_max else -1.0
        value = sign * drive(search(0, -INF, INF, sign))
    stats.nodes += nodes
    count_rereadings(stats)
    return Outcome(value)


def _met(tree: Tree, stats: Stats, pearl: bool) -> Outcome:
    """:func:`_search` on a tree numbered as the search meets its nodes (a game searched on
    demand): the same steps, the same leaves in the same order and the same counts, with a
    node's children listed by ``tree.children(n)`` instead of walked by preorder numbers."""
    end = tree.end  # the leaf test only: end[c] == c + 1
    vals = tree.values
    visit = stats.leaves.append
    children = tree.children
    nodes = 1

    def search(n: int, alpha: float, beta: float, s: float) -> Step:
        nonlocal nodes
        m = -INF
        first = True
        for c in children(n):
            nodes += 1
            if end[c] == c + 1:
                visit(c)
                t = s * vals[c]
            elif first:
                t = -(yield search(c, -beta, -alpha, -s))
            else:
                a = alpha if alpha > m else m
                t = -(yield search(c, -nextafter(a, INF), -a, -s))
                if a < t < beta:
                    nodes += 1
                    t = -(yield search(c, -beta, -t, -s))
            first = False
            if t > m:
                m = t
                if m >= beta:
                    break
        return m

    def test(n: int, v: float, greater: bool, is_max: bool) -> Step:
        nonlocal nodes
        anyone = is_max == greater
        for c in children(n):
            nodes += 1
            if end[c] == c + 1:
                visit(c)
                x = vals[c]
                ok = x > v if greater else x < v
            else:
                ok = yield test(c, v, greater, not is_max)
            if ok == anyone:
                return ok
        return not anyone

    def evaluate(n: int, is_max: bool) -> Step:
        nonlocal nodes
        v = 0.0
        first = True
        for c in children(n):
            nodes += 1
            if end[c] == c + 1:
                visit(c)
                x = vals[c]
                if first or (x > v if is_max else x < v):
                    v = x
            elif first:
                v = yield evaluate(c, not is_max)
            elif (yield test(c, v, is_max, not is_max)):
                nodes += 1
                v = yield evaluate(c, not is_max)
            first = False
        return v

    if end[0] == 1:
        visit(0)
        value = vals[0]
    elif pearl:
        value = drive(evaluate(0, tree.root_max))
    else:
        sign = 1.0 if tree.root_max else -1.0
        value = sign * drive(search(0, -INF, INF, sign))
    stats.nodes += nodes
    count_rereadings(stats)
    return Outcome(value)
