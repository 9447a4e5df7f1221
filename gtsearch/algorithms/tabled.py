"""The searches with a transposition table (``--tt MIB``): alpha-beta, NegaScout and the MT family.

docs/algorithms.md ("Transposition tables") defines what each one probes and
stores.  Alpha-beta and NegaScout are one fail-soft negamax (:class:`TableSearch`)
that probes every node it enters, answers a node from an entry whose bounds
decide it for its window, and stores what it proved; the MT family runs
:mod:`.mt`'s passes over the table (:class:`TableMemory`) instead of MT's own.
Keys are positions (:meth:`gtsearch.tree.Tree.position`): a file's nodes, a
game's states.  The same search also runs depth-limited, with moves ordered
by the table, for iterative deepening (:mod:`.solve`).  Under the compiled core
the same searches run in C (gtsearch/_native/search_tabled.c, through
:func:`.compiled.tabled`; on a game searched on demand search_tabled_ondemand.c,
through :func:`.compiled.tabled_on_demand`), with the same results, on the trees
it takes.

Plaat, A., Schaeffer, J., Pijls, W. & de Bruin, A. (1996). Best-first
fixed-depth minimax algorithms. Artificial Intelligence 87(1-2), 255-293.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from math import nextafter
from typing import TYPE_CHECKING

from ..errors import OutOfTime
from ..numbers import INF
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, Step, count_rereadings, drive
from .mt import Memory, mtd
from .ordering import MoveOrder, counts
from .table import FULL, Table

if TYPE_CHECKING:
    from .tabled_steps import TableTrace

#: how many MiB a table for the PV's uncounted searches holds
PV_TABLE_MIB = 16


class TableMemory(Memory):
    """MT's memory kept in a transposition table, keyed by position."""

    def __init__(self, tree: Tree, table: Table) -> None:
        self.table = table
        self.position = tree.position
        self.seen: set[Hashable] = set()

    def recall(self, n: int) -> list[float] | None:
        e = self.table.probe(self.position(n))
        return None if e is None else [e[1], e[2]]

    def prove(self, n: int, lower: float, upper: float) -> None:
        key = self.position(n)
        self.seen.add(key)
        self.table.store(key, lower, upper, FULL, -1)

    def cut(self) -> None:
        self.table.cuts += 1

    def size(self) -> int:
        return len(self.seen)


class TableSearch:
    """Fail-soft negamax with a transposition table over one tree.

    ``scout``: NegaScout's null windows after the first child; ``limit``: the
    depth of the horizon (a node there that is not a leaf scores 0 and is not
    exhausted); ``order``: an entry's best move is searched first; ``score``
    turns a leaf's value for the player to move and its depth into the score
    searched (the value itself by default), and ``relative`` a score at a depth
    into the score kept in the table (and back, with the depth negated);
    ``moves``: the history heuristic and killer moves (:mod:`.ordering`);
    ``observer``: told of every step, for ``gtsearch trace --tt``.
    """

    def __init__(
        self,
        tree: Tree,
        stats: Stats,
        table: Table,
        *,
        scout: bool = False,
        limit: int | None = None,
        order: bool = False,
        score: Callable[[float, int], float] | None = None,
        relative: Callable[[float, int], float] | None = None,
        seen: set[Hashable] | None = None,
        horizon: Callable[[int], float] | None = None,
        moves: MoveOrder | None = None,
        observer: TableTrace | None = None,
    ) -> None:
        self.tree, self.stats, self.table = tree, stats, table
        self.scout, self.limit = scout, limit
        self.order = order or moves is not None
        self.score = score
        self.relative = relative
        #: the positions entered (expanded or read), when given
        self.seen = seen
        #: a node's static value at the horizon (MAX's terms), read as a leaf; None: 0
        self.horizon = horizon
        self.moves = moves
        #: what a step-by-step trace is told of each step (:mod:`.tabled_steps`), or None
        self.observer = observer
        #: the draft a node's history credit counts without a horizon: the tree's height
        self.height = tree.max_depth() if moves is not None and limit is None else 0
        #: node -> its best child, as this search found it (or the table's move)
        self.best: dict[int, int] = {}
        #: inner nodes whose children were generated, repeats included
        self.expanded = 0
        #: nodes entered that the table did not answer: inner nodes expanded, leaves read
        self.entered = 0
        #: time.perf_counter() past which the search stops with OutOfTime (--time), or None
        self.deadline: float | None = None

    def value(self, n: int, depth: int, alpha: float = -INF, beta: float = INF) -> float:
        """Node n's value in MAX's terms, searched with the window (alpha, beta) (MAX's terms)."""
        s = 1.0 if self.tree.root_max == (depth % 2 == 0) else -1.0
        a, b = (alpha, beta) if s > 0 else (-beta, -alpha)
        v, _ = drive(self.node(n, a, b, s, depth))
        return float(s * v)

    def root(self) -> tuple[float, bool]:
        """The root's score for the player to move there, and whether it is exhausted."""
        s = 1.0 if self.tree.root_max else -1.0
        done: tuple[float, bool] = drive(self.node(0, -INF, INF, s, 0))
        return done

    def _stored(self, lo: float, hi: float, s: float, depth: int) -> tuple[float, float]:
        """The mover's bounds at ``depth`` as the table keeps them: MAX's terms, relative."""
        rel = self.relative
        if rel is not None:
            lo, hi = rel(lo, depth), rel(hi, depth)
        return (lo, hi) if s > 0 else (-hi, -lo)

    def _recalled(self, lo: float, hi: float, s: float, depth: int) -> tuple[float, float]:
        """The table's bounds as the mover's at ``depth`` (the inverse of :meth:`_stored`)."""
        if s < 0:
            lo, hi = -hi, -lo
        rel = self.relative
        if rel is not None:
            lo, hi = rel(lo, -depth), rel(hi, -depth)
        return lo, hi

    def node(self, n: int, alpha: float, beta: float, s: float, depth: int) -> Step:
        """The fail-soft negamax value of node n for the mover (s = +1: MAX) with the window
        (alpha, beta), and whether it is exhausted (no horizon below it)."""
        tree, table = self.tree, self.table
        end = tree.end
        key = tree.position(n)
        limit = self.limit
        need = FULL if limit is None else limit - depth
        first = -1
        entry = table.probe(key)
        obs = self.observer
        if obs is not None:
            obs.probe(n, entry)
        if entry is not None:
            move = entry[4]
            if entry[3] >= need:
                lo, hi = self._recalled(entry[1], entry[2], s, depth)
                if lo >= beta or hi <= alpha or lo == hi:
                    table.cuts += 1
                    if move >= 0:
                        self.best[n] = tree.child(n, move)
                    v = hi if hi <= alpha else lo
                    if obs is not None:
                        obs.cut(n, entry, s * v)
                    return v, entry[3] == FULL
            if self.order and move >= 0:
                table.orders += 1
                first = move
                if obs is not None:
                    obs.order(n, move)
        if self.seen is not None:
            self.seen.add(key)
        if end[n] == n + 1:  # a leaf: read, and kept as [v, v]
            self.entered += 1
            self.stats.leaves.append(n)
            v = s * tree.values[n]
            if self.score is not None:
                v = self.score(v, depth)
            if obs is not None:
                obs.leaf(n)
            table.store(key, *self._stored(v, v, s, depth), FULL, -1)
            if obs is not None:
                obs.store(n, key)
            return v, True
        if limit is not None and depth >= limit:  # the horizon: its static value, or 0
            if self.horizon is None:
                return 0.0, False
            self.stats.leaves.append(n)
            v = s * self.horizon(n)
            table.store(key, *self._stored(v, v, s, depth), 0, -1)
            return v, False
        self.entered += 1
        self.expanded += 1
        if (
            self.deadline is not None
            and not self.expanded & 1023
            and time.perf_counter() >= self.deadline
        ):
            raise OutOfTime
        if obs is not None:
            obs.enter(n, *((alpha, beta) if s > 0 else (-beta, -alpha)))
        kids = list(tree.children(n))
        heuristics = self.moves
        if heuristics is not None:
            moves = heuristics.moves(n, len(kids))
            order, killed = heuristics.order(moves, depth, first)
        else:
            moves, killed = [], 0
            order = list(range(len(kids)))
            if first > 0:
                order.remove(first)
                order.insert(0, first)
        m, bi, done = -INF, -1, True
        k = 0
        for k, i in enumerate(order):
            c = kids[i]
            a = alpha if alpha > m else m
            if self.scout and k and end[c] != c + 1:
                t, ex = yield self.node(c, -nextafter(a, INF), -a, -s, depth + 1)
                t = -t
                if a < t < beta:  # failed high inside the window: find the value
                    t, ex = yield self.node(c, -beta, -t, -s, depth + 1)
                    t = -t
            else:
                t, ex = yield self.node(c, -beta, -a, -s, depth + 1)
                t = -t
            done = done and ex
            if t > m:
                m, bi = t, i
                if m >= beta:
                    if obs is not None and k + 1 < len(order):
                        obs.cutoff(n, [kids[j] for j in order[k + 1 :]], s * m, s * beta)
                    break
        if bi >= 0:
            self.best[n] = kids[bi]
            if heuristics is not None and m > alpha:  # a cutoff or a value: not a fail low
                cut = m >= beta
                if cut:
                    heuristics.cutoffs += 1
                    heuristics.first_cuts += k == 0
                    lead = int(first >= 0)  # the killers follow the table's move
                    heuristics.killer_cuts += lead <= k < lead + killed
                togo = (limit if limit is not None else self.height) - depth
                heuristics.credit(moves, bi, depth, togo, cut)
        lo, hi = (m, INF) if m >= beta else (-INF, m) if m <= alpha else (m, m)
        # a horizon FULL or more plies down is kept as FULL - 1, not as searched to the leaves
        draft = FULL if done else min(need, FULL - 1)
        table.store(key, *self._stored(lo, hi, s, depth), draft, bi)
        if obs is not None:
            obs.store(n, key)
            obs.leave(n, s * m)
        return m, done

    def line(self, n: int = 0, depth: int = 0) -> list[int]:
        """The line of best children from node n to a leaf: this search's, else the table's
        move, else an uncounted search below the node (docs/algorithms.md, "The PV")."""
        tree, end = self.tree, self.tree.end
        path = [n]
        limit = self.limit
        while end[n] != n + 1 and (limit is None or depth < limit):
            c = self.best.get(n)
            if c is None:
                e = self.table.peek(tree.position(n))
                if e is not None and e[4] >= 0 and e[3] == FULL:
                    c = tree.child(n, e[4])
                else:
                    helper = TableSearch(
                        tree,
                        Stats(),
                        Table(PV_TABLE_MIB),
                        score=self.score,
                        relative=self.relative,
                        limit=limit,
                        horizon=self.horizon,
                    )
                    helper.value(n, depth)
                    c = helper.best[n]
                    self.best.update(helper.best)
            path.append(c)
            n = c
            depth += 1
        return path


def _result(
    stats: Stats,
    entered: int,
    expanded: int,
    table: Table,
    moves: MoveOrder | None = None,
    distinct: int | None = None,
) -> None:
    """The counts of a search with a table (docs/algorithms.md, "The counts"), and those of
    its move ordering (``moves``); ``distinct``: the different leaves, when the compiled core
    counted them."""
    stats.nodes += entered
    count_rereadings(stats, distinct)
    stats.extra["expanded"] = expanded
    stats.extra["tt"] = table.counts()
    stats.extra.update(counts(moves))


def alphabeta(
    tree: Tree,
    stats: Stats,
    tt: int,
    alpha: float | None = None,
    beta: float | None = None,
    moves: MoveOrder | None = None,
) -> Outcome:
    """Fail-soft alpha-beta with a table of ``tt`` MiB; window in MAX's terms; ``moves``: the
    history heuristic and killers."""
    from .base import window_outcome

    table = Table(tt)
    lo = -INF if alpha is None else alpha
    hi = INF if beta is None else beta
    # in C, but not with the history heuristic or killers (Python's)
    done = None
    if moves is None:
        done = (
            compiled.tabled_on_demand(tree, stats, table, Table(PV_TABLE_MIB), "alphabeta", lo, hi)
            if tree.on_demand
            else compiled.tabled(tree, stats, table, "alphabeta", lo, hi)
        )
    if done is not None:
        _result(stats, done.entered, done.expanded, table, distinct=done.distinct)
        return window_outcome(done.value, lo, hi, done.line)
    search = TableSearch(tree, stats, table, moves=moves)
    v = search.value(0, 0, lo, hi)
    _result(stats, search.entered, search.expanded, table, moves)
    return window_outcome(v, lo, hi, search.line())


def negascout(tree: Tree, stats: Stats, tt: int) -> Outcome:
    """NegaScout with a table of ``tt`` MiB; exact."""
    table = Table(tt)
    done = (
        compiled.tabled_on_demand(tree, stats, table, Table(PV_TABLE_MIB), "negascout")
        if tree.on_demand
        else compiled.tabled(tree, stats, table, "negascout", line=tree.transpositions)
    )
    if done is not None:
        _result(stats, done.entered, done.expanded, table, distinct=done.distinct)
        return Outcome(done.value, pv=done.line)
    search = TableSearch(tree, stats, table, scout=True)
    v = search.value(0, 0)
    _result(stats, search.entered, search.expanded, table)
    return Outcome(v, pv=_pv(tree, search))


def _pv(tree: Tree, search: TableSearch) -> list[int] | None:
    """None on a tree whose positions are its nodes (the PV rule over the leaves gives the line
    it gives without a table); on a game, the table's line."""
    return search.line() if tree.transpositions else None


def mt_family(tree: Tree, stats: Stats, tt: int, first: float) -> Outcome:
    """MTD(first) with a table of ``tt`` MiB: MT's passes over positions."""
    table = Table(tt)
    # on a game the leaves read need not prove the value: the line of an uncounted search
    done = (
        compiled.tabled_on_demand(tree, stats, table, Table(PV_TABLE_MIB), "mtd", first)
        if tree.on_demand
        else compiled.tabled(tree, stats, table, "mtd", first, line=tree.transpositions)
    )
    if done is not None:
        v, pv = done.value, done.line
        stats.nodes = done.positions
        stats.extra["passes"] = done.passes
    else:
        v = mtd(tree, stats, first, TableMemory(tree, table))
        pv = TableSearch(tree, Stats(), Table(PV_TABLE_MIB)).line() if tree.transpositions else None
    count_rereadings(stats, None if done is None else done.distinct)
    stats.extra["tt"] = table.counts()
    return Outcome(v, pv=pv)


def move_order(tree: Tree, params: dict[str, object]) -> MoveOrder | None:
    """The history heuristic and killer moves the parameters ask for, or None."""
    history, killers = bool(params.get("history")), bool(params.get("killers"))
    return MoveOrder(tree, history, killers) if history or killers else None


def run(tree: Tree, stats: Stats, name: str, tt: int, params: dict[str, object]) -> Outcome:
    """The algorithm ``name`` of :data:`TABLE_ALGORITHMS` with a table of ``tt`` MiB."""
    if name == "alphabeta":
        alpha, beta = params.get("alpha"), params.get("beta")
        moves = move_order(tree, params)
        return alphabeta(tree, stats, tt, alpha, beta, moves)  # type: ignore[arg-type]
    if name == "negascout":
        return negascout(tree, stats, tt)
    if name in ("star1", "star2"):
        from .chance_tabled import star

        bounds = params.get("leaf_bounds")
        return star(tree, stats, tt, bounds, probing=name == "star2")  # type: ignore[arg-type]
    first = {"mt-sss": INF, "mt-dual": -INF}.get(name)
    if first is None:
        bound = params.get("bound")
        first = 0.0 if bound is None else float(bound)  # type: ignore[arg-type]
    return mt_family(tree, stats, tt, first)
