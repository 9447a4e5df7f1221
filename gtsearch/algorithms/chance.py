"""Trees with chance nodes: expectiminimax, and Ballard's Star1 and Star2, exact in rationals.

Ballard, B. W. (1983). The *-minimax search procedure for trees containing
chance nodes. Artificial Intelligence 21(3), 327-350 (Star1, Star2).
Hauk, T., Buro, M. & Schaeffer, J. (2004). Rediscovering *-Minimax Search.
Computers and Games 2004, LNCS 3846, 35-50 (the pseudocode of Star1 and
Star2: A = N(alpha - U) + U, B = N(beta - L) + L, updated by A += U - v,
B += L - v after each outcome; Star2's probing phase).
Expectiminimax: Michie, D. (1966), Game-playing and game-learning automata;
Russell & Norvig, Artificial Intelligence: A Modern Approach, "Stochastic games".

docs/algorithms.md, "Chance nodes", is the contract; in short:

- ``expectiminimax`` reads every leaf once, left to right: a decision node
  takes the max or min of its children, a chance node the probability-weighted
  sum of all of them.
- ``star1`` is fail-soft alpha-beta (exactly gtsearch's alphabeta) at decision
  nodes.  At a chance node with window (alpha, beta), leaf bounds L <= every
  leaf <= U and outcomes c_1..c_n of probability p_1..p_n, outcome i is
  searched with (max(A_i, L), min(B_i, U)), where, with S the weighted sum of
  the values found so far,
  A_i = (alpha - S - U * sum_{j>i} p_j) / p_i and
  B_i = (beta - S - L * sum_{j>i} p_j) / p_i;
  v_i <= A_i fails low (return S + p_i v_i + U * sum_{j>i} p_j, an upper
  bound), v_i >= B_i fails high (S + p_i v_i + L * sum_{j>i} p_j, a lower
  bound).  Outcomes of probability 0 are never searched, and a chance node
  whose window already excludes [L, U] returns L or U at once.
- ``star2`` first probes, where a probe can make a cutoff: each outcome that
  is a decision node has its first child searched, which bounds it (from
  below where MAX moves, from above where MIN does); the probe bounds stand in
  for L or U of the outcomes not searched yet, in the cutoff tests and in the
  windows of the search phase, which then searches every outcome again in full
  (the probed leaves below it are read again, as the sources do without a
  transposition table).

Every value is exact: leaves are ints or Fractions (a float counts as the
decimal it prints as, :func:`gtsearch.numbers.exact`), probabilities are
Fractions, and the windows' infinities only ever meet comparisons.  The
searches run as generators on a trampoline, so a chain of any depth searches
without recursion.
"""

from __future__ import annotations

import math
from array import array
from fractions import Fraction
from typing import Any, TypeAlias

from ..numbers import INF, Exact, Number, exact, fraction_text
from ..tree import NUMPY_MIN_NODES, Tree
from .base import Outcome, Stats, Step, count_rereadings, drive
from .pv import likeliest_outcome

#: a window edge: an exact value, or -inf / +inf
Edge: TypeAlias = "Exact | float"


def tree_leaf_bounds(tree: Tree) -> tuple[Number, Number]:
    """The least and the greatest leaf value of the tree, as written (the first of equal ones)."""
    own = getattr(tree, "leaf_extremes", None)  # a game's: from its distinct entries
    found = own() if own is not None else None
    if found is not None:
        return found  # type: ignore[no-any-return]
    end = tree.end
    values = tree.values
    if len(end) >= NUMPY_MIN_NODES and isinstance(end, array) and isinstance(values, array):
        from ..flat import leaf_extremes  # numpy, for the trees where a scan in Python is slow

        found = leaf_extremes(end, values)
        if found is not None:
            return tree.number(found[0]), tree.number(found[1])
    lo = hi = -1
    for n in range(len(end)):
        if end[n] == n + 1:
            if lo < 0 or values[n] < values[lo]:
                lo = n
            if hi < 0 or values[n] > values[hi]:
                hi = n
    return tree.number(lo), tree.number(hi)


class ChanceRun:
    """One search of one tree: the counters, the leaf bounds and each decision node's best move."""

    def __init__(self, tree: Tree, stats: Stats, bounds: tuple[Number, Number] | None) -> None:
        self.tree = tree
        self.end = tree.end
        self.chance = tree.chance
        self.visit = stats.leaves.append
        if bounds is None and tree.on_demand:  # expectiminimax's, which takes none
            bounds = (0, 0)
        lo, hi = tree_leaf_bounds(tree) if bounds is None else bounds
        self.lo: Exact = exact(lo)
        self.hi: Exact = exact(hi)
        self.probing = False
        #: inner nodes entered, a probe's entry into an outcome included
        self.entered = 0
        self.probes = 0
        #: decision node -> the child that set its value, the last time it was searched
        self.best: dict[int, int] = {}
        self._probs: dict[int, tuple[Exact, ...]] = {}
        self._plans: dict[int, list[tuple[int, Exact, bool, Exact, Exact]]] = {}

    def leaf(self, n: int) -> Exact:
        self.visit(n)
        return exact(self.tree.number(n))

    def is_chance(self, n: int) -> bool:
        return self.chance is not None and bool(self.chance[n])

    def outcomes(self, n: int) -> list[tuple[int, Exact]]:
        """A chance node's children with their probabilities, in order (1 and 0 as ints)."""
        probs = self._probs.get(n)
        if probs is None:
            probs = self._probs[n] = tuple(exact(p) for p in self.tree.probabilities(n))
        return list(zip(self.tree.children(n), probs, strict=True))

    # -- expectiminimax ----------------------------------------------------------------
    def full(self, n: int) -> Step:
        """The exact value of the inner node n: every leaf below it, left to right."""
        self.entered += 1
        end = self.end
        if self.is_chance(n):
            total: Exact = 0
            for c, p in self.outcomes(n):
                v = self.leaf(c) if end[c] == c + 1 else (yield self.full(c))
                total += p * v
            return total
        is_max = self.tree.is_max(n)
        m: Edge = -INF if is_max else INF
        best = -1
        for c in self.tree.children(n):
            t = self.leaf(c) if end[c] == c + 1 else (yield self.full(c))
            if (t > m) if is_max else (t < m):
                m, best = t, c
        self.best[n] = best
        return m

    # -- Star1 and Star2 -----------------------------------------------------------------
    def search(self, n: int, alpha: Edge, beta: Edge) -> Step:
        """The inner node n searched with the window (alpha, beta), fail-soft."""
        if self.is_chance(n):
            return self.chance_node(n, alpha, beta)
        return self.decision(n, alpha, beta)

    def decision(self, n: int, alpha: Edge, beta: Edge) -> Step:
        """Fail-soft alpha-beta, as gtsearch's alphabeta: the same windows, the same cutoffs."""
        self.entered += 1
        end = self.end
        is_max = self.tree.is_max(n)
        m: Edge = -INF if is_max else INF
        best = -1
        c = n + 1
        stop = end[n]
        while c < stop:
            e = end[c]
            if e == c + 1:
                t = self.leaf(c)
            elif is_max:
                t = yield self.search(c, alpha if alpha > m else m, beta)
            else:
                t = yield self.search(c, alpha, beta if beta < m else m)
            if (t > m) if is_max else (t < m):
                m, best = t, c
                if (m >= beta) if is_max else (m <= alpha):
                    break
            c = e
        self.best[n] = best
        return m

    def probe(self, c: int, alpha: Edge, beta: Edge) -> Step:
        """Star2's probe of outcome c: its first child only, searched with (alpha, beta)."""
        self.entered += 1
        self.probes += 1
        first = c + 1
        if self.end[first] == first + 1:
            return self.leaf(first)
        return (yield self.search(first, alpha, beta))

    def plan(self, n: int) -> list[tuple[int, Exact, bool, Exact, Exact]]:
        """A chance node's outcomes of probability > 0: (node, p, is it a leaf, L and U times
        the probability of the outcomes after it), worked out once."""
        got = self._plans.get(n)
        if got is None:
            end = self.end
            kept = [(c, p) for c, p in self.outcomes(n) if p]
            after: Exact = sum((p for _, p in kept), 0)
            got = []
            for c, p in kept:
                after = exact(after - p)
                got.append((c, p, end[c] == c + 1, self.lo * after, self.hi * after))
            self._plans[n] = got
        return got

    def chance_node(self, n: int, alpha: Edge, beta: Edge) -> Step:
        """Star1 (Star2 with its probing phase) at a chance node; fail-soft."""
        self.entered += 1
        L, U = self.lo, self.hi
        if L >= beta:  # the value is at least L: nothing to read
            return L
        if U <= alpha:
            return U
        plan = self.plan(n)
        lo: list[Exact] | None = None
        hi: list[Exact] = []
        known: list[bool] = []
        if self.probing and (alpha > -INF or beta < INF):
            # what is known of each outcome: [lo, hi], and whether that is its exact value
            k = len(plan)
            lo, hi, known = [L] * k, [U] * k, [False] * k
            low: Exact = L  # the chance node's bounds from what is known so far
            high: Exact = U
            for i, (c, p, leaf, _, _) in enumerate(plan):
                if leaf:  # a leaf is read once, here, and reused below
                    lo[i] = hi[i] = self.leaf(c)
                    known[i] = True
                elif self.is_chance(c):
                    continue
                elif self.tree.is_max(c):  # its first child bounds it from below
                    if beta == INF:
                        continue
                    b = _over(beta - (low - p * L), p)
                    lo[i] = yield self.probe(c, L, U if b > U else b)
                else:  # from above
                    if alpha == -INF:
                        continue
                    a = _over(alpha - (high - p * U), p)
                    hi[i] = yield self.probe(c, L if a < L else a, U)
                low += p * (lo[i] - L)
                high += p * (hi[i] - U)
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
            rest_lo: Exact = sum((e[1] * x for e, x in zip(plan, lo, strict=True)), 0)
            rest_hi: Exact = sum((e[1] * x for e, x in zip(plan, hi, strict=True)), 0)
        total: Exact = 0
        for i, (c, p, leaf, l_after, u_after) in enumerate(plan):
            if lo is None:  # Star1: L and U stand for the outcomes after this one
                rest_lo, rest_hi = l_after, u_after
            else:  # Star2: their probe bounds do
                rest_lo -= p * lo[i]
                rest_hi -= p * hi[i]
            a_i: Edge = -INF if alpha == -INF else _over(alpha - total - rest_hi, p)
            b_i: Edge = INF if beta == INF else _over(beta - total - rest_lo, p)
            if lo is not None and known[i]:
                v = lo[i]
            elif leaf:
                v = self.leaf(c)
            else:
                v = yield self.search(c, L if a_i < L else a_i, U if b_i > U else b_i)
            if v <= a_i:
                return total + p * v + rest_hi
            if v >= b_i:
                return total + p * v + rest_lo
            total += p * v
        return total

    # -- the answer ------------------------------------------------------------------------
    def outcome(
        self, value: Exact, stats: Stats, line: list[int] | None = None, distinct: int | None = None
    ) -> Outcome:
        """The exact value with its PV, and the figures every chance algorithm reports (``line``
        and ``distinct``, the different leaves, as the compiled core found them)."""
        probes = self.probes if self.probing else None
        line = self.line() if line is None else line
        return chance_outcome(value, stats, self.entered, probes, line, distinct)

    def line(self) -> list[int]:
        """The PV, root to leaf: each decision node's best move (the child that set its value),
        each chance node's most probable outcome (docs/algorithms.md, "The PV through chance
        nodes").

        A decision node on the line that the search never chose a move at is one whose first
        child is known to be worth its value (a Star2 probe proved it), or one below which
        every leaf has the same value (the leaf bounds L = U decided it): its first child.
        """
        end = self.end
        best = self.best
        line = [0]
        n = 0
        while end[n] != n + 1:
            n = likeliest_outcome(self.tree, n) if self.is_chance(n) else best.get(n, n + 1)
            line.append(n)
        return line


class ListedRun(ChanceRun):
    """A :class:`ChanceRun` on a game searched on demand (docs/sources.md): the same searches
    over the children each node lists as the search enters it (``tree.open(n)``, an empty
    range at a leaf) instead of preorder numbers; the same leaves in the same order, the same
    counts.  Star1's and Star2's leaf bounds are given (the game's, or --leaf-bounds)."""

    def __init__(self, tree: Tree, stats: Stats, bounds: tuple[Number, Number] | None) -> None:
        super().__init__(tree, stats, bounds)
        self.listed = tree.open  # type: ignore[attr-defined]  # an OnDemandTree's
        self.value = tree.raw_value  # type: ignore[attr-defined]
        #: expectiminimax leaves a node for good: its children's entries are let go
        self.release = tree.release  # type: ignore[attr-defined]
        #: a chance node's weights -> its probabilities, and the same as integers over their
        #: common denominator (a game's chance nodes share a few lists of weights)
        self._by_weights: dict[Any, tuple[tuple[Exact, ...], tuple[int, ...], int]] = {}

    def leaf(self, n: int) -> Exact:
        self.visit(n)
        return exact(self.value(n))

    def is_chance(self, n: int) -> bool:
        return self.tree.is_chance(n)

    def weighed(self, n: int) -> tuple[tuple[Exact, ...], tuple[int, ...], int]:
        """Chance node n's probabilities, and as integers over their least common denominator."""
        weights = self.tree.weights.get(n)
        got = self._by_weights.get(weights)
        if got is None:
            probs = tuple(exact(p) for p in self.tree.probabilities(n))
            scale = math.lcm(*(Fraction(p).denominator for p in probs))
            got = probs, tuple(int(p * scale) for p in probs), scale
            self._by_weights[weights] = got
        return got

    def outcomes(self, n: int) -> list[tuple[int, Exact]]:
        return list(zip(self.listed(n), self.weighed(n)[0], strict=True))

    def full(self, n: int) -> Step:
        self.entered += 1
        listed = self.listed
        if self.is_chance(n):
            # the weighted sum over the common denominator: in integers while the values are
            total: Exact = 0
            _, scaled, scale = self.weighed(n)
            for c, k in zip(listed(n), scaled, strict=True):
                v = (yield self.full(c)) if listed(c) else self.leaf(c)
                total += k * v
            self.release(n)
            return exact(Fraction(total, scale) if type(total) is int else total / scale)
        is_max = self.tree.is_max(n)
        m: Edge = -INF if is_max else INF
        best = -1
        for c in listed(n):
            t = (yield self.full(c)) if listed(c) else self.leaf(c)
            if (t > m) if is_max else (t < m):
                m, best = t, c
        self.best[n] = best
        self.release(n)
        return m

    def decision(self, n: int, alpha: Edge, beta: Edge) -> Step:
        self.entered += 1
        listed = self.listed
        is_max = self.tree.is_max(n)
        m: Edge = -INF if is_max else INF
        best = -1
        for c in listed(n):
            if not listed(c):
                t = self.leaf(c)
            elif is_max:
                t = yield self.search(c, alpha if alpha > m else m, beta)
            else:
                t = yield self.search(c, alpha, beta if beta < m else m)
            if (t > m) if is_max else (t < m):
                m, best = t, c
                if (m >= beta) if is_max else (m <= alpha):
                    break
        self.best[n] = best
        return m

    def probe(self, c: int, alpha: Edge, beta: Edge) -> Step:
        self.entered += 1
        self.probes += 1
        first = self.listed(c)[0]
        if not self.listed(first):
            return self.leaf(first)
        return (yield self.search(first, alpha, beta))

    def plan(self, n: int) -> list[tuple[int, Exact, bool, Exact, Exact]]:
        got = self._plans.get(n)
        if got is None:
            listed = self.listed
            kept = [(c, p) for c, p in self.outcomes(n) if p]
            after: Exact = sum((p for _, p in kept), 0)
            got = []
            for c, p in kept:
                after = exact(after - p)
                got.append((c, p, not listed(c), self.lo * after, self.hi * after))
            self._plans[n] = got
        return got

    def line(self) -> list[int]:
        listed = self.listed
        line = [0]
        n = 0
        kids = listed(0)
        while kids:
            n = likeliest_outcome(self.tree, n) if self.is_chance(n) else self.best.get(n, kids[0])
            line.append(n)
            kids = listed(n)
        return line


def chance_outcome(
    value: Exact,
    stats: Stats,
    entered: int,
    probes: int | None,
    line: list[int],
    distinct: int | None = None,
) -> Outcome:
    """A chance search's answer: the exact value with its PV, and the figures every chance
    algorithm reports (``probes``: Star2's, None for the others; ``distinct``: the different
    leaves, when the compiled core counted them)."""
    q = exact(value)
    if not isinstance(q, int):
        stats.extra["value_exact"] = fraction_text(q)
    count_rereadings(stats, distinct)
    if probes is not None:
        stats.extra["probes"] = probes
    stats.nodes += entered + len(stats.leaves)
    return Outcome(float(q), pv=line, exact=q)


def _in_c(tree: Tree, stats: Stats, which: str, bounds: tuple[Number, Number] | None) -> Any:
    """The search ``which`` of a game searched on demand, in C over its rules
    (:func:`.compiled.chance_on_demand`): its Outcome, or None (the Python search runs)."""
    if not tree.on_demand:
        return None
    if bounds is None:  # expectiminimax's, which takes none (ChanceRun's)
        bounds = (0, 0)
    from .compiled import chance_on_demand

    done = chance_on_demand(tree, stats, which, (exact(bounds[0]), exact(bounds[1])))
    if done is None:
        return None
    value, line, entered, probes = done[:4]
    return chance_outcome(value, stats, entered, probes if which == "star2" else None, line)


def chance_run(tree: Tree, stats: Stats, bounds: tuple[Number, Number] | None) -> ChanceRun:
    """The run of a chance search on ``tree``: over preorder numbers, or on demand."""
    return (ListedRun if tree.on_demand else ChanceRun)(tree, stats, bounds)


def _over(x: Any, p: Exact) -> Any:
    """x / p, exactly: never an int divided by an int (which would be a float)."""
    if p == 1:
        return x
    return x / p if isinstance(p, Fraction) else Fraction(x) / p


def root_value(run: ChanceRun, step: Any) -> Exact:
    """The root's exact value: read when it is a leaf, else searched by ``step(0)``."""
    tree = run.tree
    if tree.end[0] == 1:
        return run.leaf(0)
    return drive(step(0))  # type: ignore[no-any-return]


def expectiminimax(tree: Tree, stats: Stats) -> Outcome:
    """Every leaf once: max/min at decision nodes, the probability-weighted sum at chance nodes."""
    done = _in_c(tree, stats, "expectiminimax", None)
    if done is not None:
        return done  # type: ignore[no-any-return]
    run = chance_run(tree, stats, None)
    if tree.on_demand:
        from . import compiled

        done = compiled.expectiminimax_on_objects(tree, stats)
        if done is not None:  # the same search in C, over the game's states
            value, line, run.entered, distinct = done
            return run.outcome(value, stats, line, distinct)
    return run.outcome(root_value(run, run.full), stats)


def star1(tree: Tree, stats: Stats, leaf_bounds: tuple[Number, Number] | None = None) -> Outcome:
    """Ballard's Star1: alpha-beta with windows through chance nodes; exact (root window ±inf).

    ``leaf_bounds`` (L, U) bound every leaf; default: the tree's least and greatest leaf.
    """
    done = _in_c(tree, stats, "star1", leaf_bounds)
    if done is not None:
        return done  # type: ignore[no-any-return]
    run = chance_run(tree, stats, leaf_bounds)
    return run.outcome(root_value(run, lambda n: run.search(n, -INF, INF)), stats)


def star2(tree: Tree, stats: Stats, leaf_bounds: tuple[Number, Number] | None = None) -> Outcome:
    """Ballard's Star2: Star1 with a probing phase at chance nodes; exact (root window ±inf)."""
    done = _in_c(tree, stats, "star2", leaf_bounds)
    if done is not None:
        return done  # type: ignore[no-any-return]
    run = chance_run(tree, stats, leaf_bounds)
    run.probing = True
    return run.outcome(root_value(run, lambda n: run.search(n, -INF, INF)), stats)


__all__ = ["expectiminimax", "star1", "star2", "tree_leaf_bounds"]
