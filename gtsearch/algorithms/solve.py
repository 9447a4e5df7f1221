"""Solving a game of wins, draws and losses: alpha-beta by iterative deepening with a table.

docs/algorithms.md ("Solving: win, draw and loss") defines it.  Depth 1, 2,
... up to the height of the tree, each iteration a fail-soft alpha-beta
(:class:`.tabled.TableSearch`) over one transposition table that keeps what
the iterations proved, each node's moves ordered by its entry's best move.
A leaf scores, for the player to move, W - p for a win p plies from the root,
-(W - p) for a loss, 0 for a draw, and so does a position at the horizon; the
table keeps scores relative to their position, so a transposition reached at
another depth reads them right.  An iteration decides when it proves a win
or a loss, or when no horizon was met.

Slate, D. J. & Atkin, L. R. (1977). CHESS 4.5: the Northwestern University
chess program (iterative deepening); Breuker, Uiterwijk & van den Herik (1994)
(the two-tier table).
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from ..errors import UsageError
from ..tree import Tree
from . import compiled
from .iterative import deepening
from .ordering import MoveOrder, counts
from .params import refused
from .table import Table
from .tabled import PV_TABLE_MIB

#: a win's score: W - p for a win p plies away (no game is 2**19 plies deep)
W = 2**20
#: scores beyond this are wins or losses
DECIDED = W // 2
#: the table's size without --tt
DEFAULT_TT = 16


class Iteration(NamedTuple):
    """One depth of the iterative deepening: its score for the player to move and its counts."""

    depth: int
    score: int
    nodes: int
    leaves: int
    seconds: float
    expanded: int = 0
    pv: tuple[int, ...] = ()  # this iteration's line, nodes from the root


class Solution(NamedTuple):
    """What ``gtsearch solve`` reports (docs/algorithms.md)."""

    result: str  # "win", "draw" or "loss", for the player to move at the root
    distance: int  # plies to the end along the PV
    pv: list[int]  # nodes from the root
    positions: int  # distinct positions searched
    nodes: int  # nodes entered over all iterations
    leaves: int  # leaves evaluated over all iterations
    expanded: int  # inner nodes expanded over all iterations
    iterations: list[Iteration]
    tt: dict[str, int]
    seconds: float
    #: the history heuristic's and the killers' counts, when asked for
    ordering: dict[str, dict[str, int]] = {}


def _score(v: float, depth: int) -> float:
    """A leaf's value for the player to move as a score: the sooner a win, the higher."""
    if v > 0:
        return float(W - depth)
    if v < 0:
        return float(depth - W)
    return 0.0


def _relative(score: float, depth: int) -> float:
    """A score at the root's scale as the score at a node ``depth`` plies down (depth < 0: back)."""
    if score > DECIDED:
        return score + depth
    if score < -DECIDED:
        return score - depth
    return score


def refuse_chance_nodes(tree: Tree, how: str) -> UsageError | None:
    """A UsageError for a tree with chance nodes: a win, a draw or a loss is not what a die
    decides, and reading a chance node as a player gave wrong results (docs/algorithms.md).
    Returned, not raised, on a game that may have some without any known yet: the search
    raises it at the first it meets (:func:`.params.refused`)."""
    if not tree.has_chance:
        return None
    return refused(
        tree,
        UsageError(
            f"{tree.source}: the tree has chance nodes: {how} proves wins, draws and losses, "
            "which dice do not; its exact expected value is "
            f"gtsearch eval {tree.source} -a expectiminimax"
        ),
    )


def solve(tree: Tree, tt: int = DEFAULT_TT, moves: MoveOrder | None = None) -> Solution:
    """The game-theoretic result of ``tree`` for the player to move at its root; ``moves``:
    the history heuristic and killers (docs/algorithms.md).  A tree with chance nodes is a
    UsageError (:func:`refuse_chance_nodes`)."""
    with tree.searched(refuse_chance_nodes(tree, "solve")):
        return _solve(tree, tt, moves)


def _solve(tree: Tree, tt: int, moves: MoveOrder | None) -> Solution:
    t0 = time.perf_counter()
    table = Table(tt)
    # a game searched on demand has no height yet (max_depth() is the deepest node numbered so
    # far): its deepening ends where an iteration meets no horizon
    height = None if tree.on_demand else tree.max_depth()
    iterations: list[Iteration] = []
    # in C: the same iterations (not with the history heuristic or killers: Python's)
    found = None
    if moves is None and height is None:  # a game on demand: over its rules in C
        ran = compiled.tabled_iterate_on_demand(tree, table, Table(PV_TABLE_MIB), None, solve=True)
        found = None if ran is None else (ran[0], ran[1], -1)
    elif moves is None and height is not None:
        found = compiled.tabled_iterate(tree, table, height, solve=True)
    if found is not None:
        done, distinct, _ = found
        for depth, it in enumerate(done, 1):
            counted = (it.entered, it.leaves, it.seconds, it.expanded)
            iterations.append(Iteration(depth, int(it.value), *counted, tuple(it.line)))
        table.take(done[-1].counts)
        return _solution(int(done[-1].value), distinct, iterations, table, t0)
    positions: set[Any] = set()
    for search in deepening(tree, table, moves, score=_score, relative=_relative, seen=positions):
        depth, stats = search.limit or 0, search.stats
        t1 = time.perf_counter()
        v, exhausted = search.root()
        score = int(v)
        seconds = time.perf_counter() - t1
        line = tuple(search.line())  # not timed: its searches are not counted
        counted = (search.entered, len(stats.leaves), seconds, search.expanded)
        iterations.append(Iteration(depth, score, *counted, line))
        if exhausted or score != 0 or (height is not None and depth >= height):
            break
    return _solution(score, len(positions), iterations, table, t0, moves)


def _solution(
    score: int,
    positions: int,
    iterations: list[Iteration],
    table: Table,
    t0: float,
    moves: MoveOrder | None = None,
) -> Solution:
    """The Solution of the last iteration's score and line, the iterations' counts."""
    pv = list(iterations[-1].pv)
    if score > 0:
        result, distance = "win", W - score
    elif score < 0:
        result, distance = "loss", W + score
    else:
        result, distance = "draw", len(pv) - 1
    return Solution(
        result,
        distance,
        pv,
        positions,
        sum(it.nodes for it in iterations),
        sum(it.leaves for it in iterations),
        sum(it.expanded for it in iterations),
        iterations,
        table.counts(),
        time.perf_counter() - t0,
        counts(moves),
    )
