"""Memory-enhanced test (MT) and the MTD drivers: MT-SSS*, MT-DUAL*, MTD(f).

Plaat, A., Schaeffer, J., Pijls, W. & de Bruin, A. (1996). Best-first
fixed-depth minimax algorithms. Artificial Intelligence 87(1-2), 255-293.

MT(n, gamma) is a null-window alpha-beta search with a transposition table
that answers one question about the minimax value: "is it >= gamma?" (or,
with ``strict``, "is it > gamma?").  The test is written with comparisons
only, so it is exact for integer and float leaves alike: no ``gamma - 1`` or
epsilon steps, which go wrong on floats and loop forever when the value
equals a starting bound.  The table keeps the bounds of every node it has
searched, leaves included (a leaf is stored as [v, v]), so ``leaves`` counts
distinct evaluations; a re-evaluation would be reported under
``re_evaluations`` in the extra figures (the table never forgets, so there are none).

MTD(+inf) is MT-SSS*: it evaluates the same leaves as SSS* in the same order.
MTD(-inf) is MT-DUAL*: the same leaf set as DUAL*.  MTD(f) starts from a guess.
The registry names them ``mt-sss``, ``mt-dual`` and ``mtdf``; MTD(f)'s first
guess is its ``bound`` (``--bound F`` in ``eval``, ``--guess F`` in ``compare``
and ``experiment``), 0 when none is given.  ``passes`` in the extra figures
counts the MT passes.

On a game searched on demand (``tree.on_demand``: nodes numbered as met) a
pass walks a node's children as consecutive numbers (:func:`.base.span`)
instead of preorder ranges: the same passes, leaves and counts (MT's own table
is keyed by node, and a node keeps its number for the whole search).
"""

from __future__ import annotations

from collections.abc import Callable

from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, span


class Memory:
    """What MT's passes remember of the nodes: bounds in MAX's terms (MT's own table)."""

    def recall(self, n: int) -> list[float] | None:
        """[lower, upper] known of node n, or None."""
        raise NotImplementedError

    def prove(self, n: int, lower: float, upper: float) -> None:
        """Node n's value lies in [lower, upper] (kept with what was known)."""
        raise NotImplementedError

    def cut(self) -> None:
        """What was recalled answered the node (a transposition table counts it)."""

    def size(self) -> int:
        """The distinct nodes remembered (``nodes``)."""
        raise NotImplementedError


class NodeMemory(Memory):
    """MT's own table: every node the passes searched, never forgotten."""

    def __init__(self) -> None:
        #: node -> [lower bound, upper bound] on its minimax value
        self.table: dict[int, list[float]] = {}

    def recall(self, n: int) -> list[float] | None:
        return self.table.get(n)

    def prove(self, n: int, lower: float, upper: float) -> None:
        entry = self.table.setdefault(n, [-INF, INF])
        if lower > entry[0]:
            entry[0] = lower
        if upper < entry[1]:
            entry[1] = upper

    def size(self) -> int:
        return len(self.table)


class MTSearch:
    """A transposition table and the MT test over one tree, in MAX's terms."""

    def __init__(self, tree: Tree, stats: Stats, memory: Memory | None = None) -> None:
        self.tree = tree
        self.stats = stats
        #: what the passes proved of each node: MT's own table, or a transposition table
        self.memory = memory if memory is not None else NodeMemory()
        self.passes = 0

    def test(self, gamma: float, strict: bool) -> float:
        """One MT pass from the root: returns g; value >= g if g passes, else value <= g.

        "passes" means g >= gamma, or g > gamma when ``strict``.
        """
        self.passes += 1
        tree = self.tree
        end = tree.end
        vals = tree.values
        memory = self.memory
        recall, prove = memory.recall, memory.prove
        stats = self.stats
        visit = stats.leaves.append

        def passes(g: float) -> bool:
            return g > gamma if strict else g >= gamma

        def probe(n: int) -> float | None:
            """The answer the table already knows for node n, or None."""
            entry = recall(n)
            if entry is None:
                if end[n] == n + 1:  # a leaf: evaluated, remembered as [v, v]
                    visit(n)
                    v = vals[n]
                    prove(n, v, v)
                    return v
                return None
            lo, hi = entry
            if passes(lo):
                memory.cut()
                return lo
            if not passes(hi):
                memory.cut()
                return hi
            return None

        known = probe(0)
        if known is not None:
            return known
        if tree.on_demand:
            return self._met_pass(probe, passes)
        # frames: node, next child, subtree end, g so far, MAX to move?
        stack: list[tuple[int, int, int, float, bool]] = []
        n, c, stop, is_max = 0, 1, end[0], tree.root_max
        g = -INF if is_max else INF
        while True:
            descended = False
            while c < stop:
                t = probe(c)
                if t is None:
                    stack.append((n, c, stop, g, is_max))
                    n, stop, is_max = c, end[c], not is_max
                    c = n + 1
                    g = -INF if is_max else INF
                    descended = True
                    break
                if is_max:
                    if t > g:
                        g = t
                    if passes(g):
                        break
                else:
                    if t < g:
                        g = t
                    if not passes(g):
                        break
                c = end[c]
            if descended:
                continue
            # node n is finished with g: remember the bound it proved
            if passes(g):
                prove(n, g, INF)
            else:
                prove(n, -INF, g)
            if not stack:
                return g
            t = g
            n, c, stop, g, is_max = stack.pop()
            if is_max:
                if t > g:
                    g = t
                if passes(g):
                    c = stop
                    continue
            else:
                if t < g:
                    g = t
                if not passes(g):
                    c = stop
                    continue
            c = end[c]

    def _met_pass(
        self, probe: Callable[[int], float | None], passes: Callable[[float], bool]
    ) -> float:
        """The rest of :meth:`test` below a root the table did not answer, on a tree numbered
        as met: a node's children are consecutive numbers (:func:`.base.span`), its next
        sibling the next number."""
        tree, prove = self.tree, self.memory.prove
        stack: list[tuple[int, int, int, float, bool]] = []
        kids = span(tree, 0)
        n, c, stop, is_max = 0, kids.start, kids.stop, tree.root_max
        g = -INF if is_max else INF
        while True:
            descended = False
            while c < stop:
                t = probe(c)
                if t is None:
                    stack.append((n, c, stop, g, is_max))
                    kids = span(tree, c)
                    n, c, stop, is_max = c, kids.start, kids.stop, not is_max
                    g = -INF if is_max else INF
                    descended = True
                    break
                if is_max:
                    if t > g:
                        g = t
                    if passes(g):
                        break
                else:
                    if t < g:
                        g = t
                    if not passes(g):
                        break
                c += 1
            if descended:
                continue
            if passes(g):
                prove(n, g, INF)
            else:
                prove(n, -INF, g)
            if not stack:
                return g
            t = g
            n, c, stop, g, is_max = stack.pop()
            if is_max:
                if t > g:
                    g = t
                if passes(g):
                    c = stop
                    continue
            else:
                if t < g:
                    g = t
                if not passes(g):
                    c = stop
                    continue
            c += 1


def mtd(tree: Tree, stats: Stats, first: float, memory: Memory | None = None) -> float:
    """MTD(first): MT passes from a first guess until the lower and upper bounds meet.

    When g is the proven lower bound the next pass asks "value > g?", else
    "value >= g?": comparisons only, so floats and a value equal to the first
    guess (or to +-inf's first pass) terminate exactly.  ``memory``: a
    transposition table in place of MT's own (:mod:`.tabled`), in Python.
    """
    done = None if memory is not None else compiled.mtd(tree, stats, first)
    if done is not None:
        return done
    search = MTSearch(tree, stats, memory)
    lower, upper = -INF, INF
    g = first
    while lower < upper:
        gamma = g
        if gamma == lower:
            g = search.test(gamma, strict=True)
            if g > gamma:
                lower = g
            else:
                upper = g
        else:
            g = search.test(gamma, strict=False)
            if g >= gamma:
                lower = g
            else:
                upper = g
    stats.nodes = search.memory.size()
    stats.extra["passes"] = search.passes
    return lower


def _mtd_outcome(tree: Tree, stats: Stats, first: float) -> Outcome:
    """MTD(first)'s exact value; on a game searched on demand over its rules in C, with the PV
    the C search found (pv._met_principal_variation's)."""
    done = compiled.mtd_on_demand(tree, stats, first) if tree.on_demand else None
    if done is not None:
        return Outcome(done[0], pv=done[1])
    return Outcome(mtd(tree, stats, first))


def mt_sss(tree: Tree, stats: Stats) -> Outcome:
    """MT-SSS*: MTD(+inf)."""
    return _mtd_outcome(tree, stats, INF)


def mt_dual(tree: Tree, stats: Stats) -> Outcome:
    """MT-DUAL*: MTD(-inf)."""
    return _mtd_outcome(tree, stats, -INF)


def mtdf(tree: Tree, stats: Stats, bound: float | None = None) -> Outcome:
    """MTD(f) from the first guess ``bound`` (default 0)."""
    return _mtd_outcome(tree, stats, 0.0 if bound is None else bound)
