"""The built-in games of ``game:NAME[:ARG]``: tic-tac-toe and Nim (docs/sources.md).

Each is a plain object of the game protocol (:mod:`.games`), and an example
of it.  ``tictactoe`` is exactly the tree of scripts/gen_tictactoe.py: the
empty board with X (MAX) to move, children in square order 1..9, a leaf at a
win (+1 X, -1 O) or at a full board (0), nodes named by the squares played so
far ("5", "51", ...), the root "start".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import UsageError

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = tuple(tuple(line for line in LINES if sq in line) for sq in range(9))

#: a tic-tac-toe state: the board (0 empty, 1 X, -1 O), the player to move, the winner so far
Board = tuple[tuple[int, ...], int, int]


class TicTacToe:
    """Tic-tac-toe from the empty board, X (MAX) first."""

    title = "Tic-tac-toe: the complete game tree"
    root = "max"
    root_label = "start"
    cumulative_labels = True
    trusted = True

    def initial(self) -> Board:
        return ((0,) * 9, 1, 0)

    def moves(self, state: Board) -> list[int]:
        board, _player, winner = state
        if winner:
            return []
        return [sq for sq in range(9) if not board[sq]]

    def play(self, state: Board, move: int) -> Board:
        board, player, _ = state
        after = board[:move] + (player,) + board[move + 1 :]
        for a, b, c in LINES_THROUGH[move]:
            if after[a] == after[b] == after[c]:
                return (after, -player, player)
        return (after, -player, 0)

    def utility(self, state: Board) -> int:
        return state[2]

    def label(self, state: Board, move: int) -> str:
        return str(move + 1)


class Nim:
    """One heap of N; a move takes 1, 2 or 3; whoever takes the last wins (+1/-1 for MAX)."""

    root = "max"
    trusted = True

    def __init__(self, heap: int) -> None:
        self.heap = heap
        self.title = f"Nim: a heap of {heap}, take 1, 2 or 3, taking the last wins"

    def initial(self) -> tuple[int, bool]:
        return (self.heap, True)  # (what is left, MAX to move)

    def moves(self, state: tuple[int, bool]) -> list[int]:
        return [k for k in (1, 2, 3) if k <= state[0]]

    def play(self, state: tuple[int, bool], move: int) -> tuple[int, bool]:
        return (state[0] - move, not state[1])

    def utility(self, state: tuple[int, bool]) -> int:
        # the player who just moved took the last: the one not to move now
        if self.heap == 0:
            return 0
        return -1 if state[1] else 1

    def label(self, state: tuple[int, bool], move: int) -> str:
        return f"take {move}"


def _tictactoe(arg: str) -> Any:
    if arg:
        raise UsageError(f"game:tictactoe takes no argument, got {arg!r}")
    return TicTacToe()


def _nim(arg: str) -> Any:
    try:
        heap = int(arg)
    except ValueError:
        raise UsageError(f"game:nim:N takes the heap size N, a whole number, got {arg!r}") from None
    if heap < 0:
        raise UsageError(f"game:nim:N needs N >= 0, got {heap}")
    return Nim(heap)


BUILTIN: dict[str, Callable[[str], Any]] = {"tictactoe": _tictactoe, "nim": _nim}
