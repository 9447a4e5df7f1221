"""The built-in games of ``game:NAME[:KEY=VALUE,...]``: the registry, tic-tac-toe and Nim.

:data:`GAMES` lists every built-in game once: its name, what it is, its
parameters (:class:`~.gamespec.Param`) and the class that plays it, imported
when the game is opened; ``gtsearch games`` lists it, the specs read it, the
tests search every game in it.  Each game is a plain object of the game
protocol (:mod:`.protocol`), and an example of it.  ``tictactoe`` is exactly
the tree of scripts/gen_tictactoe.py: the empty board with X (MAX) to move,
children in square order 1..9, a leaf at a win (+1 X, -1 O) or at a full
board (0), nodes named by the squares played so far ("5", "51", ...), the root
"start".  The other games live in :mod:`.library`.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from .gamespec import Param

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

    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)

    title = "Tic-tac-toe: the complete game tree"
    root = "max"
    root_label = "start"
    cumulative_labels = True
    trusted = True
    #: its rules are also the C core's kernel 0 (game_kernels.c), which counts its states
    #: (gtsearch.sources.games.GameTree); the tests compare the two state for state
    kernel = 0
    #: its rules in C (gtsearch/_native/game_tictactoe.c; gtsearch.sources.gamerules)
    rules = "tictactoe"

    def initial(self) -> int:
        return 0

    def words(self, state: int, forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: the state itself."""
        return (state, 0, 0, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[int, bool]:
        return words[0], False

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

    def render(self, state: int) -> str:
        """The board, X and O, the empty squares by their numbers (1-3 top row)."""
        cells = [
            "X" if state >> sq & 1 else "O" if state >> (sq + _O_SHIFT) & 1 else str(sq + 1)
            for sq in range(9)
        ]
        return "\n".join(" ".join(cells[row * 3 : row * 3 + 3]) for row in range(3))


class Nim:
    """One heap of N; a move takes 1 to ``take``; whoever takes the last wins (+1/-1 for MAX),
    or loses in the misère game."""

    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)

    root = "max"
    trusted = True
    #: its rules in C (gtsearch/_native/game_nim.c; gtsearch.sources.gamerules)
    rules = "nim"

    def __init__(self, heap: int, take: int = 3, misere: bool = False) -> None:
        self.heap = heap
        self.take = take
        self.misere = misere
        most = "1, 2 or 3" if take == 3 else f"1 to {take}"
        ending = "loses" if misere else "wins"
        self.title = f"Nim: a heap of {heap}, take {most}, taking the last {ending}"

    def initial(self) -> tuple[int, bool]:
        return (self.heap, True)  # (what is left, MAX to move)

    def words(self, state: tuple[int, bool], forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: what is left, 1 when MAX is to move."""
        return (state[0], 1 if state[1] else 0, 0, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[tuple[int, bool], bool]:
        return (words[0], bool(words[1])), False

    def moves(self, state: tuple[int, bool]) -> list[int]:
        return list(range(1, min(self.take, state[0]) + 1))

    def play(self, state: tuple[int, bool], move: int) -> tuple[int, bool]:
        return (state[0] - move, not state[1])

    def utility(self, state: tuple[int, bool]) -> int:
        # the player who just moved took the last: the one not to move now
        if self.heap == 0:
            return 0
        return -1 if state[1] != self.misere else 1

    def label(self, state: tuple[int, bool], move: int) -> str:
        return f"take {move}"

    def render(self, state: tuple[int, bool]) -> str:
        return f"{state[0]} left" + (": " + "|" * state[0] if state[0] else "")


class BuiltinGame(NamedTuple):
    """A built-in game: its name, what it is, its parameters and the class that plays it."""

    name: str
    summary: str
    params: tuple[Param, ...]
    #: "module:Class" under gtsearch.sources, imported when the game is opened
    target: str
    #: the parameter a bare value sets (game:nim:6 is game:nim:heap=6)
    positional: str | None = None
    #: how --depth values a position, for ``gtsearch games``
    estimate: str = ""

    def make(self, **kwargs: Any) -> Any:
        """The game object with these parameters (ValueError when they do not fit together)."""
        module, _, attr = self.target.partition(":")
        cls = getattr(importlib.import_module(f"gtsearch.sources.{module}"), attr)
        return cls(**kwargs)


def _size(name: str, default: int, lo: int, hi: int, what: str) -> Param:
    return Param(name, int, default, what, lo, hi)


GAMES: tuple[BuiltinGame, ...] = (
    BuiltinGame(
        "tictactoe",
        "tic-tac-toe from the empty board, X (MAX) first; +1, -1 or 0 for X",
        (),
        "builtin_games:TicTacToe",
        estimate="none: the whole game (549,946 nodes) is searched",
    ),
    BuiltinGame(
        "nim",
        "one heap; a move takes 1 to `take`; whoever takes the last wins (+1 or -1 for MAX), "
        "or loses (misere)",
        (
            Param("heap", int, 10, "counters in the heap", 0, None),
            Param("take", int, 3, "the most a move takes", 1, None),
            Param("misere", bool, False, "whoever takes the last loses"),
        ),
        "builtin_games:Nim",
        positional="heap",
        estimate="none (its tree is golden: whoever faces a multiple of take + 1 loses; in the "
        "misère game, one more than a multiple)",
    ),
    BuiltinGame(
        "connect4",
        "Connect Four: drop discs into columns; k in a row, column or diagonal wins",
        (
            _size("rows", 6, 1, 10, "rows of the board"),
            _size("columns", 7, 1, 10, "columns of the board"),
            _size("k", 4, 1, 10, "discs in a line that win"),
        ),
        "library.connect4:ConnectFour",
        estimate="(lines open to MAX's discs only - to MIN's only) / a power of 2 above the "
        "lines, in (-1, 1)",
    ),
    BuiltinGame(
        "pig",
        "Pig, a dice game with chance nodes: roll to add to your turn, a 1 loses it; stop to "
        "bank it; the first to the target wins",
        (
            _size("target", 6, 1, 1000, "the score that wins"),
            _size("die", 6, 2, 100, "faces of the die"),
            _size("horizon", 6, 1, 1000, "decisions (rolls and stops) after which it is a draw"),
        ),
        "library.pig:Pig",
        estimate="(MAX's score - MIN's score, the turn total counted for the player rolling) "
        "/ 2 target, in (-1, 1)",
    ),
    BuiltinGame(
        "dotsandboxes",
        "dots and boxes: draw a line; whoever closes a box scores it and moves again",
        (
            _size("rows", 1, 1, 4, "rows of boxes"),
            _size("columns", 2, 1, 4, "columns of boxes"),
        ),
        "library.dotsandboxes:DotsAndBoxes",
        estimate="(MAX's boxes - MIN's boxes) / (boxes + 1), in (-1, 1)",
    ),
    BuiltinGame(
        "othello",
        "Othello on a small board: place a disc that flanks the other's discs, which turn; "
        "a player without a move passes; MAX's discs - MIN's at the end",
        (
            _size("rows", 4, 2, 8, "rows of the board (even)"),
            _size("columns", 4, 2, 8, "columns of the board (even)"),
        ),
        "library.othello:Othello",
        estimate="MAX's discs - MIN's discs, a corner counting 4",
    ),
    BuiltinGame(
        "hexapawn",
        "Hexapawn (Gardner 1962): pawns step forward or take diagonally; reaching the far row "
        "or leaving the other without a move wins",
        (
            _size("rows", 3, 3, 8, "rows of the board"),
            _size("columns", 3, 1, 8, "columns of the board (pawns a side)"),
        ),
        "library.hexapawn:Hexapawn",
        estimate="(MAX's pawns - MIN's + MAX's furthest advance - MIN's) / (2 rows columns), "
        "in (-1, 1)",
    ),
)


def find_game(name: str) -> BuiltinGame | None:
    """The built-in game called ``name``, or None."""
    return next((g for g in GAMES if g.name == name), None)
