"""Move ordering for alpha-beta with a table: the history heuristic and killer moves.

docs/algorithms.md ("Move ordering: history and killers") defines both.  At a
node the table did not answer, the moves are searched in this order: the
table's best move, then the killer moves of the node's ply (the newer first)
that are moves here, then the rest by history score (higher first), ties and
moves without a score by child index.  When a node's search ends with a best
move (a cutoff, or a value inside the window: not a fail low), that move's
history score grows by 2**d, d the node's remaining depth (its draft); a
move that cuts off becomes the first killer of its ply, the previous first
the second.  A move is a child index on a tree, the game's move (its name)
on a game.

Schaeffer, J. (1989). The history heuristic and alpha-beta search
enhancements in practice. IEEE Transactions on Pattern Analysis and Machine
Intelligence 11(11), 1203-1212 (the history heuristic, credited 2**depth);
Akl, S. G. & Newborn, M. M. (1977). The principal continuation and the
killer heuristic. ACM Annual Conference, 466-473 (killer moves).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from ..tree import Tree

#: the ordering heuristics that can be asked for, in the order their counts are shown
HEURISTICS = ("history", "killers")
#: killer moves kept per ply
KILLERS_PER_PLY = 2


class MoveOrder:
    """The history table and the killer moves of one search (kept across iterations)."""

    def __init__(self, tree: Tree, history: bool = False, killers: bool = False) -> None:
        self.tree = tree
        #: move -> its score, or None without the history heuristic
        self.history: dict[Hashable, int] | None = {} if history else None
        #: ply -> its killer moves, the newer first, or None without killers
        self.killers: dict[int, list[Hashable]] | None = {} if killers else None
        #: nodes where a killer was searched ahead of the other moves
        self.killer_tries = 0
        #: cutoffs made by a killer move searched ahead
        self.killer_cuts = 0
        #: cutoffs, and those made by the first move searched
        self.cutoffs = 0
        self.first_cuts = 0
        #: history credits given
        self.credits = 0

    def moves(self, n: int, count: int) -> list[Hashable]:
        """The moves from node n to its ``count`` children: indices on a tree, a game's moves
        on a game."""
        return list(self.tree.moves(n, count))

    def order(self, moves: Sequence[Hashable], ply: int, first: int) -> tuple[list[int], int]:
        """The child indices in search order, and how many killers lead (after the table's
        move); ``moves`` are the node's moves, ``first`` the table's move (-1: none)."""
        ahead = [first] if first >= 0 else []
        killed = 0
        if self.killers is not None:
            for k in self.killers.get(ply, ()):
                if k in moves:
                    i = moves.index(k)
                    if i not in ahead:
                        ahead.append(i)
                        killed += 1
        rest = [i for i in range(len(moves)) if i not in ahead]
        if self.history is not None:
            score = self.history
            rest.sort(key=lambda i: (-score.get(moves[i], 0), i))
        if killed:
            self.killer_tries += 1
        return ahead + rest, killed

    def credit(self, moves: Sequence[Hashable], i: int, ply: int, draft: int, cut: bool) -> None:
        """Credit the best move ``i`` of a node searched with ``draft`` to go; ``cut``: it cut
        off the rest."""
        m = moves[i]
        if self.history is not None:
            self.history[m] = self.history.get(m, 0) + 2**draft
            self.credits += 1
        if cut and self.killers is not None:
            kept = self.killers.setdefault(ply, [])
            if not kept or kept[0] != m:
                kept.insert(0, m)
                del kept[KILLERS_PER_PLY:]

    def asked(self) -> dict[str, bool]:
        """The heuristics in use, as a search's parameters show them."""
        return {
            name: True
            for name, on in (("history", self.history), ("killers", self.killers))
            if on is not None
        }

    def counts(self) -> dict[str, int]:
        """The ``ordering`` object of a result (docs/algorithms.md)."""
        out = {"cutoffs": self.cutoffs, "first_move_cutoffs": self.first_cuts}
        if self.history is not None:
            out.update(credits=self.credits, history_moves=len(self.history))
        if self.killers is not None:
            out.update(killer_tries=self.killer_tries, killer_cutoffs=self.killer_cuts)
        return out


def counts(moves: MoveOrder | None) -> dict[str, dict[str, int]]:
    """A result's ``ordering`` counts, when its search ordered its moves; else nothing."""
    return {} if moves is None else {"ordering": moves.counts()}
