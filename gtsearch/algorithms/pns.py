"""Depth-first proof-number search (df-pn) with a transposition table: ``solve -a pns``.

Allis, L. V. (1994). Searching for solutions in games and artificial
intelligence. PhD thesis, University of Limburg (proof-number search).
Nagai, A. (2002). Df-pn algorithm for searching AND/OR trees and its
applications. PhD thesis, University of Tokyo (its depth-first form).

df-pn answers a yes-or-no question about the root; win, draw or loss takes
two: "does the player to move win?" and, if not, "does the player to move at
least draw?".  In negamax form every node has a proof number phi (how many
leaves at least must still be proved to show that the player to move there
reaches the goal) and a disproof number delta; a leaf is (0, INF) or (INF, 0),
an unexplored node (1, 1), and an inner node phi = min of its children's
delta, delta = sum of their phi.  MID(n, thphi, thdelta) expands n's most
proving child (least delta) with the thresholds thphi' = thdelta + phi(c) -
delta and thdelta' = min(thphi, delta2 + 1), delta2 the second least, until n's
numbers reach its thresholds.  The numbers live in a transposition table of
the same layout (:mod:`.table`: phi as the entry's first number, delta as its
second), keyed by position, one table for each question.
docs/algorithms.md ("Solving") defines what it reports.
"""

from __future__ import annotations

import time
from typing import Any

from ..tree import Tree
from .base import Step, drive
from .solve import refuse_chance_nodes
from .table import FULL, Table

#: a proof or disproof number that means proved (the other is 0)
INF = 2**40


class ProofSearch:
    """df-pn for one question: does the player to move at the root reach ``goal``?

    ``goal`` +1: a win; 0: a draw or better (outcomes for the root's player).
    """

    def __init__(self, tree: Tree, table: Table, goal: int, positions: set[Any]) -> None:
        self.tree, self.table, self.goal = tree, table, goal
        self.positions = positions
        self.nodes = 0  # MID calls: nodes entered, repeats included
        self.leaves = 0  # leaves read (once each: the table keeps them)

    def numbers(self, n: int) -> tuple[int, int]:
        """(phi, delta) of node n as the table knows it; (1, 1) when unknown."""
        e = self.table.probe(self.tree.position(n))
        if e is None:
            return 1, 1
        return e[1], e[2]

    def _leaf(self, n: int, depth: int) -> tuple[int, int]:
        """A leaf's numbers for its mover: (0, INF) if the mover reaches the goal there."""
        self.leaves += 1
        tree = self.tree
        root_mover = 1 if tree.root_max else -1
        v = tree.values[n] * root_mover  # the root player's payoff
        outcome = (v > 0) - (v < 0)
        reached = outcome >= self.goal
        if depth % 2:  # the opponent of the root's player moves here: the goal is the reverse
            reached = not reached
        return (0, INF) if reached else (INF, 0)

    def mid(self, n: int, depth: int, thphi: int, thdelta: int) -> Step:
        """Search node n until its (phi, delta) reaches (thphi, thdelta); store them."""
        self.nodes += 1
        tree = self.tree
        key = tree.position(n)
        self.positions.add(key)
        if tree.end[n] == n + 1:
            phi, delta = self._leaf(n, depth)
            self.table.store(key, phi, delta, FULL, -1, merge=False)
            return phi, delta
        kids = list(tree.children(n))
        while True:
            known = [self.numbers(c) for c in kids]
            phi = min(d for _p, d in known)
            delta = min(INF, sum(p for p, _d in known))
            if phi >= thphi or delta >= thdelta:
                best = min(range(len(kids)), key=lambda i: known[i][1])
                self.table.store(key, phi, delta, FULL, best, merge=False)
                return phi, delta
            order = sorted(range(len(kids)), key=lambda i: known[i][1])
            best = order[0]
            delta2 = known[order[1]][1] if len(order) > 1 else INF
            child_phi, child_delta = known[best]
            yield self.mid(
                kids[best],
                depth + 1,
                min(INF, thdelta + child_phi - delta),
                min(thphi, delta2 + 1),
            )

    def prove(self) -> bool:
        """Whether the root's player reaches the goal."""
        phi, _delta = drive(self.mid(0, 0, INF, INF))
        return bool(phi == 0)

    def line(self) -> list[int]:
        """The proof's line: where the prover moves, a child that proves it (delta 0 for the
        mover there), elsewhere the first child."""
        tree = self.tree
        path = [0]
        n = 0
        while tree.end[n] != n + 1:
            kids = list(tree.children(n))
            nxt = kids[0]
            for c in kids:
                e = self.table.peek(tree.position(c))
                if e is not None and e[2] == 0:
                    nxt = c
                    break
            path.append(nxt)
            n = nxt
        return path


def solve_pns(tree: Tree, tt: int) -> dict[str, Any]:
    """Win, draw or loss for the player to move by df-pn: the result, its proof line and counts.
    A tree with chance nodes is a UsageError, as for :func:`.solve.solve`."""
    with tree.searched(refuse_chance_nodes(tree, "solve -a pns")):
        return _solve_pns(tree, tt)


def _solve_pns(tree: Tree, tt: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    positions: set[Any] = set()
    win = ProofSearch(tree, Table(tt), 1, positions)
    searches = [win]
    if win.prove():
        result, used = "win", win
    else:
        draw = ProofSearch(tree, Table(tt), 0, positions)
        searches.append(draw)
        result, used = ("draw", draw) if draw.prove() else ("loss", draw)
    pv = used.line()
    counts: dict[str, int] = {}
    for s in searches:
        for k, v in s.table.counts().items():
            counts[k] = v if k in ("mib", "entries") else counts.get(k, 0) + v
    return {
        "result": result,
        "distance": None,  # df-pn proves the result, not the shortest win or longest loss
        "pv": pv,
        "positions": len(positions),
        "nodes": sum(s.nodes for s in searches),
        "leaves": sum(s.leaves for s in searches),
        "questions": len(searches),
        "tt": counts,
        "seconds": time.perf_counter() - t0,
    }
