"""Iterative deepening: alpha-beta to depth 1, 2, ... with one transposition table (``eval --iterative``).

Slate, D. J. & Atkin, L. R. (1977). CHESS 4.5: the Northwestern University
chess program (iterative deepening, the previous iteration's best move first).

Each iteration is a fail-soft alpha-beta (:class:`.tabled.TableSearch`) of
the tree cut at depth D, where a node at depth D is worth its static value
(as with ``--depth D``) and counts as a leaf evaluated; the table is kept from
one iteration to the next and each node's best move from it is searched
first.  The iterations stop at the tree's height, at ``max_depth``, or when
``seconds`` have passed (an iteration that has started is finished); on a
game searched on demand, whose height is not known, at the first iteration
that reached no horizon.
docs/algorithms.md ("Iterative deepening") defines it.
"""

from __future__ import annotations

import math
import time

from ..errors import UsageError
from ..numbers import Number
from ..result import SearchResult
from ..tree import Tree
from .base import Stats
from .table import Table
from .tabled import TableSearch


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
    tree: Tree, tt: int, max_depth: int | None = None, seconds: float | None = None
) -> list[SearchResult]:
    """One SearchResult per iteration, depth 1, 2, ...: the value of the tree cut there."""
    height = None if tree.on_demand else tree.max_depth()  # on demand: not known
    known = [d for d in (height, max_depth) if d is not None]
    last = min(known) if known else None
    table = Table(tt)
    t0 = time.perf_counter()
    out: list[SearchResult] = []
    depth = 0
    while last is None or depth < max(last, 1):
        depth += 1
        stats = Stats()
        t1 = time.perf_counter()
        search = TableSearch(
            tree, stats, table, limit=depth, order=True, horizon=lambda n: static(tree, n)
        )
        score, exhausted = search.root()
        value = score if tree.root_max else -score
        line = search.line()
        number: Number = tree.number(line[-1]) if tree.values[line[-1]] == value else value
        out.append(
            SearchResult(
                algorithm="alphabeta",
                value=number,
                exact=True,
                bound=None,
                pv=tuple(tree.path_of(line[-1])) if len(line) > 1 else (),
                pv_labels=tuple(map(tree.names.get, line[1:])),
                leaves=len(stats.leaves),
                leaves_total=tree.n_leaves,
                seconds=time.perf_counter() - t1,
                nodes=search.entered,
                params={"tt": tt, "iteration": depth},
                extra={"expanded": search.expanded, "tt": table.counts()},
                tree=tree,
            )
        )
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        if height is None and exhausted:  # the game searched to its end
            break
    return out
