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

# A tic-tac-toe state is one int: X's squares in bits 0-8, O's in bits 9-17, bit 18 when
# the player who just moved has won, bit 19 when O is to move.  (One int hashes and
# compares faster than a board of nine: a game's states are counted, hashed and compared
# once each before the search.)  The tables below are indexed by a player's 9 bits.
_O_SHIFT = 9
_WON = 1 << 18
_O_TO_MOVE = 1 << 19
_SQUARES = (1 << 9) - 1
#: _WINS[bits]: whether these squares hold a line
_WINS = tuple(any(all(bits >> sq & 1 for sq in line) for line in LINES) for bits in range(512))
#: _FREE[occupied]: the empty squares, in square order
_FREE = tuple(tuple(sq for sq in range(9) if not occupied >> sq & 1) for occupied in range(512))


class TicTacToe:
    """Tic-tac-toe from the empty board, X (MAX) first."""

    title = "Tic-tac-toe: the complete game tree"
    root = "max"
    root_label = "start"
    cumulative_labels = True
    trusted = True

    def initial(self) -> int:
        return 0

    def moves(self, state: int) -> tuple[int, ...]:
        if state & _WON:
            return ()
        return _FREE[(state | state >> _O_SHIFT) & _SQUARES]

    def play(self, state: int, move: int) -> int:
        if state & _O_TO_MOVE:  # O plays; X moves next
            o = (state >> _O_SHIFT | 1 << move) & _SQUARES
            return (state & _SQUARES) | o << _O_SHIFT | (_WON if _WINS[o] else 0)
        x = (state | 1 << move) & _SQUARES
        return x | (state & _SQUARES << _O_SHIFT) | _O_TO_MOVE | (_WON if _WINS[x] else 0)

    def utility(self, state: int) -> int:
        if not state & _WON:
            return 0  # a full board
        return -1 if not state & _O_TO_MOVE else 1  # the player who just moved won

    def label(self, state: int, move: int) -> str:
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
