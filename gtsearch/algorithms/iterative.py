"""Iterative deepening: alpha-beta to depth 1, 2, ... with one transposition table (``eval --iterative``).

Slate, D. J. & Atkin, L. R. (1977). CHESS 4.5: the Northwestern University
chess program (iterative deepening, the previous iteration's best move first).

Each iteration is a fail-soft alpha-beta (:class:`.tabled.TableSearch`) of
the tree cut at depth D, where a node at depth D is worth its static value
(as with ``--depth D``) and counts as a leaf evaluated; the table is kept from
one iteration to the next and each node's best move from it is searched
first.  The iterations stop at the tree's height, at ``max_depth``, or when
``seconds`` have passed (an iteration after the first still running then is
dropped, and the ones before it are the result); on a
game searched on demand, whose height is not known, at the first iteration
that reached no horizon, or at the first that would number more nodes than
--max-nodes: the iterations before it are the result, the last marked
``extra["stopped"] = "max_nodes"`` (with none before it, the error).
docs/algorithms.md ("Iterative deepening") defines it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

from ..errors import NodeLimit, OutOfTime, UsageError
from ..numbers import Number
from ..result import SearchResult
from ..tree import Tree
from . import compiled
from .base import Stats
from .ordering import MoveOrder, counts
from .params import refuse_chance
from .registry import find_algorithm
from .table import Table
from .tabled import PV_TABLE_MIB, TableSearch


def static(tree: Tree, n: int) -> float:
    """Node n's static value at the horizon (MAX's terms); an error without one."""
    v = tree.values[n]
    if math.isnan(v):
        raise UsageError(
            f"{tree.source}: node {tree.describe(n)} lies at the horizon of an iteration and "
            "has no static value (in a file, a value: beside its children:; in a game, the "
            "game's estimate(state)); --iterative needs one on every inner node it reaches"
        )
    return float(v)


def iterate(
    tree: Tree,
    tt: int,
    max_depth: int | None = None,
    seconds: float | None = None,
    moves: MoveOrder | None = None,
) -> list[SearchResult]:
    """One SearchResult per iteration, depth 1, 2, ...: the value of the tree cut there;
    ``moves``: the history heuristic and killers, kept from one iteration to the next.  A tree
    with chance nodes is refused as alphabeta refuses it (:func:`.params.refuse_chance`)."""
    with tree.searched(refuse_chance(find_algorithm("alphabeta"), tree)):
        return _iterate(tree, tt, max_depth, seconds, moves)


def _iterate(
    tree: Tree, tt: int, max_depth: int | None, seconds: float | None, moves: MoveOrder | None
) -> list[SearchResult]:
    height = None if tree.on_demand else tree.max_depth()  # on demand: not known
    known = [d for d in (height, max_depth) if d is not None]
    last = min(known) if known else None
    table = Table(tt)
    t0 = time.perf_counter()
    out: list[SearchResult] = []
    # in C: the same iterations (not with the history heuristic or killers: Python's)
    found = None
    if moves is None and tree.on_demand:  # a game on demand: over its rules in C
        ran = compiled.tabled_iterate_on_demand(
            tree, table, Table(PV_TABLE_MIB), max_depth, seconds
        )
        if ran is not None:
            done, _, stopped = ran
            for depth, it in enumerate(done, 1):
                table.take(it.counts)
                counted = (it.leaves, it.entered, it.expanded, it.seconds)
                out.append(_result(tree, tt, depth, it.value, it.line, counted, table))
            if stopped:  # --max-nodes ended the deepening, as in the loop below
                out[-1] = out[-1]._replace(extra={**out[-1].extra, "stopped": "max_nodes"})
            return out
    elif moves is None and last is not None:
        found = compiled.tabled_iterate(tree, table, last, seconds)
    if found is not None:
        iterations, _, bad = found
        if bad >= 0:
            static(tree, bad)  # the error of the node at the horizon without a static value
        for depth, it in enumerate(iterations, 1):
            table.take(it.counts)
            counted = (it.leaves, it.entered, it.expanded, it.seconds)
            out.append(_result(tree, tt, depth, it.value, it.line, counted, table))
        return out
    for search in deepening(tree, table, moves, horizon=lambda n: static(tree, n)):
        depth, stats = search.limit or 0, search.stats
        t1 = time.perf_counter()
        if seconds is not None and depth > 1:  # the first iteration always finishes
            search.deadline = t0 + seconds
        try:
            score, exhausted = search.root()
        except OutOfTime:  # --time ran out in this iteration: the ones before it
            break
        except NodeLimit:  # on demand: --max-nodes ends the deepening, as --time does
            if not (tree.on_demand and out):
                raise
            out[-1] = out[-1]._replace(extra={**out[-1].extra, "stopped": "max_nodes"})
            break
        value = score if tree.root_max else -score
        line = search.line()
        counted = (len(stats.leaves), search.entered, search.expanded, time.perf_counter() - t1)
        out.append(_result(tree, tt, depth, value, line, counted, table, moves))
        if last is not None and depth >= max(last, 1):
            break
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        if height is None and exhausted:  # the game searched to its end
            break
    return out


def _result(
    tree: Tree,
    tt: int,
    depth: int,
    value: float,
    line: list[int],
    counted: tuple[int, int, int, float],
    table: Table,
    moves: MoveOrder | None = None,
) -> SearchResult:
    """The SearchResult of one iteration (depth): its value and line, its counts (leaves,
    nodes entered, nodes expanded, seconds), the table's and the move ordering's."""
    leaves, entered, expanded, seconds = counted
    number: Number = tree.number(line[-1]) if tree.values[line[-1]] == value else value
    ordering = {} if moves is None else moves.asked()
    return SearchResult(
        algorithm="alphabeta",
        value=number,
        exact=True,
        bound=None,
        pv=tuple(tree.path_of(line[-1])) if len(line) > 1 else (),
        pv_labels=tree.line_labels(line),
        leaves=leaves,
        leaves_total=tree.n_leaves,
        seconds=seconds,
        nodes=entered,
        params={"tt": tt, **ordering, "iteration": depth},
        extra={"expanded": expanded, "tt": table.counts(), **counts(moves)},
        tree=tree,
    )


def deepening(
    tree: Tree, table: Table, moves: MoveOrder | None = None, **options: Any
) -> Iterator[TableSearch]:
    """The searches of depth 1, 2, ... over one table, not yet run: each a :class:`TableSearch`
    with its own Stats, its moves ordered by the table (and ``moves``); ``options`` as
    TableSearch takes them (a horizon's value, scores, the positions seen)."""
    depth = 0
    while True:
        depth += 1
        yield TableSearch(tree, Stats(), table, limit=depth, order=True, moves=moves, **options)
