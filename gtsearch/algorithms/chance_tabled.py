"""Star1 and Star2 with a transposition table (``--tt MIB``): docs/algorithms.md.

Ballard, B. W. (1983). The *-minimax search procedure for trees containing
chance nodes. Artificial Intelligence 21(3), 327-350.
Hauk, T., Buro, M. & Schaeffer, J. (2004). Rediscovering *-Minimax Search.
Computers and Games 2004, LNCS 3846, 35-50 (Star2 with a table).

The searches of :mod:`.chance`, with every inner node searched through the
table (an entry whose bounds decide the node for its window answers it; what
a search proved is stored: exact, a lower bound on a fail high, an upper
bound on a fail low, in MAX's terms and exact rationals) and every leaf read
through it (stored as [v, v] when read).  Star2's search phase then finds what
its probes proved, and reads no probed leaf again while the table holds it.
"""

from __future__ import annotations

from ..numbers import INF, Exact, Number, exact
from ..tree import Tree
from .base import Outcome, Stats, Step
from .chance import ChanceRun, Edge, ListedRun, chance_outcome, root_value
from .table import ENTRIES_PER_MIB, FULL, Table

#: the buckets of one MiB of table (two entries each)
BUCKETS_PER_MIB = ENTRIES_PER_MIB // 2


def default_table(tree: Tree) -> int | None:
    """The MiB of the table Star1 and Star2 take on ``tree`` when ``--tt`` is not given: on a
    source with positions (a game counted whole), the smallest whole number of MiB whose
    buckets outnumber its position keys, at least 1; None (no table) elsewhere (files,
    ``random:`` sources).  A game searched on demand has no more position keys than twice
    the nodes it may number (--max-nodes): the table whose buckets outnumber those.

    A game's position keys are the numbers 0 .. K - 1 (docs/algorithms.md, "The key"), and
    key k goes to bucket k mod buckets: with K buckets or more no two keys ever share a
    bucket, so no store loses another key's entry, every leaf position is read at most once,
    and neither search evaluates more leaves than expectiminimax (docs/algorithms.md,
    "Star1 and Star2 on a game").  The pure core's table holds only the entries it fills.
    """
    if not tree.transpositions:
        return None
    if tree.on_demand:  # each position key is a node's (twice: who moves), none met twice
        most: int = 2 * tree.max_nodes  # type: ignore[attr-defined]  # a GameTree's
        return max(1, -(-most // BUCKETS_PER_MIB))
    numbers = tree.position_numbers()  # type: ignore[attr-defined]  # a GameTree's
    keys = (max(numbers.values(), default=0) + 1) * (1 if tree.general else 2)  # type: ignore[attr-defined]
    return max(1, -(-keys // BUCKETS_PER_MIB))


class TableRun(ChanceRun):
    """One Star1 or Star2 search with a transposition table."""

    def __init__(
        self, tree: Tree, stats: Stats, bounds: tuple[Number, Number] | None, table: Table
    ) -> None:
        super().__init__(tree, stats, bounds)
        self.table = table

    def leaf(self, n: int) -> Exact:
        key = self.tree.position(n)
        e = self.table.probe(key)
        if e is not None:
            self.table.cuts += 1
            known: Exact = e[1]
            return known
        v = super().leaf(n)
        self.table.store(key, v, v, FULL, -1)
        return v

    def search(self, n: int, alpha: Edge, beta: Edge) -> Step:
        key = self.tree.position(n)
        e = self.table.probe(key)
        if e is not None:
            lo, hi = e[1], e[2]
            if lo >= beta or lo == hi:
                self.table.cuts += 1
                return lo
            if hi <= alpha:
                self.table.cuts += 1
                return hi
        v = yield super().search(n, alpha, beta)
        lower, upper = (v, INF) if v >= beta else (-INF, v) if v <= alpha else (v, v)
        self.table.store(key, lower, upper, FULL, -1)
        return v


class ListedTableRun(TableRun, ListedRun):
    """A :class:`TableRun` on a game searched on demand."""


def star(
    tree: Tree,
    stats: Stats,
    tt: int,
    leaf_bounds: tuple[Number, Number] | None = None,
    probing: bool = False,
) -> Outcome:
    """Star1 (Star2 with ``probing``) with a table of ``tt`` MiB; exact (root window +-inf)."""
    table = Table(tt)
    if tree.on_demand:
        done = _star_in_c(tree, stats, table, leaf_bounds, probing)
        if done is not None:
            stats.extra["tt"] = table.counts()
            return done
    run = (ListedTableRun if tree.on_demand else TableRun)(tree, stats, leaf_bounds, table)
    run.probing = probing
    done = run.outcome(root_value(run, lambda n: run.search(n, -INF, INF)), stats)
    stats.extra["tt"] = table.counts()
    return done


def _star_in_c(
    tree: Tree,
    stats: Stats,
    table: Table,
    bounds: tuple[Number, Number] | None,
    probing: bool,
) -> Outcome | None:
    """:func:`star` on a game searched on demand, in C over its rules
    (search_chance_ondemand.c, :func:`.compiled.chance_on_demand` with ``table``'s buckets):
    the same value, PV, leaves and counts, the table's counters to ``table`` and the positions
    numbered to the tree; None when the Python search runs (the pure core, no C rules of the
    game, positions numbered before on this tree, or a value out of the C rationals' range)."""
    from .compiled import chance_on_demand, fresh

    if not fresh(tree) or tree.numbers[1] or tree.c_positions is not None:  # type: ignore[attr-defined]
        return None
    if bounds is None:  # ChanceRun's
        bounds = (0, 0)
    ends = (exact(bounds[0]), exact(bounds[1]))
    which = "star2" if probing else "star1"
    done = chance_on_demand(tree, stats, which, ends, table.buckets)
    if done is None:
        return None
    value, line, entered, probes, counts, positions = done
    tree.numbered_positions(positions)  # type: ignore[attr-defined]
    table.take(counts)
    return chance_outcome(value, stats, entered, probes if probing else None, line)
