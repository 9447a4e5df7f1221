"""Hexapawn (Gardner 1962) on any board: on 3x3 Black wins (1.b2 axb2 2.cxb2 c2 3.a2 c1),
on 4x4 (octapawn) White does.

Each side has a pawn on every square of its first row, White (MAX) on row 1
moving up, Black on the last row moving down.  A pawn steps forward onto an
empty square or takes diagonally forward; whoever reaches the far row, or
leaves the other without a move (no pawn left counts), wins (+1 White, -1
Black).  A state is ``(white, black, white to move)``, the pawns as bitboards
row by row from row 1; moves are (from, to) pairs, named as in chess: ``b2``
for a step, ``axb2`` for a capture.
"""

from __future__ import annotations

State = tuple[int, int, bool]


class Hexapawn:
    """Hexapawn on ``rows`` x ``columns`` squares, White (MAX) first."""

    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)

    root = "max"
    trusted = True
    #: its rules in C (gtsearch/_native/game_hexapawn.c; gtsearch.sources.gamerules)
    rules = "hexapawn"

    def __init__(self, rows: int = 3, columns: int = 3) -> None:
        self.rows, self.columns = rows, columns
        self.title = f"Hexapawn on {rows} x {columns}"
        self.first = (1 << columns) - 1
        self.last = self.first << (columns * (rows - 1))
        self.scale = 2 * rows * columns

    def _name(self, s: int) -> str:
        return f"{chr(ord('a') + s % self.columns)}{s // self.columns + 1}"

    def initial(self) -> State:
        return (self.first, self.last, True)

    def words(self, state: State, forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: White's pawns, Black's, 1 when White is to move."""
        return (state[0], state[1], 1 if state[2] else 0, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[State, bool]:
        return (words[0], words[1], bool(words[2])), False

    def move_code(self, state: State, move: tuple[int, int]) -> int:
        """A move (from, to) in C: from * 64 + to."""
        return move[0] * 64 + move[1]

    def move_of(self, state: State, code: int) -> tuple[int, int]:
        return divmod(code, 64)

    def moves(self, state: State) -> list[tuple[int, int]]:
        white, black, white_moves = state
        if white & self.last or black & self.first:
            return []
        mine, theirs, step = (white, black, 1) if white_moves else (black, white, -1)
        out = []
        for s in range(self.rows * self.columns):
            if not mine >> s & 1:
                continue
            r, c = divmod(s, self.columns)
            ahead = r + step  # on the board: a pawn on the far row has ended the game
            for dc in (-1, 0, 1):
                if 0 <= c + dc < self.columns:
                    t = ahead * self.columns + c + dc
                    if (theirs >> t & 1) if dc else not (mine | theirs) >> t & 1:
                        out.append((s, t))
        return out

    def play(self, state: State, move: tuple[int, int]) -> State:
        white, black, white_moves = state
        s, t = move
        if white_moves:
            return (white & ~(1 << s) | 1 << t, black & ~(1 << t), False)
        return (white & ~(1 << t), black & ~(1 << s) | 1 << t, True)

    def utility(self, state: State) -> int:
        white, black, white_moves = state
        if white & self.last:
            return 1
        if black & self.first:
            return -1
        return -1 if white_moves else 1  # the player to move cannot

    def label(self, state: State, move: tuple[int, int]) -> str:
        s, t = move
        if s % self.columns == t % self.columns:
            return self._name(t)
        return f"{self._name(s)[0]}x{self._name(t)}"

    def estimate(self, state: State) -> float:
        """(White's pawns - Black's + White's furthest row - Black's) / (2 rows columns)."""
        white, black, _ = state
        if not self.moves(state):
            return self.utility(state)
        far_white = (white.bit_length() - 1) // self.columns
        far_black = self.rows - 1 - ((black & -black).bit_length() - 1) // self.columns
        pawns = bin(white).count("1") - bin(black).count("1")
        return (pawns + far_white - far_black) / self.scale

    def render(self, state: State) -> str:
        white, black, white_moves = state
        out = []
        for r in range(self.rows - 1, -1, -1):
            cells = []
            for c in range(self.columns):
                s = r * self.columns + c
                cells.append("W" if white >> s & 1 else "B" if black >> s & 1 else ".")
            out.append(f"{r + 1} " + " ".join(cells))
        out.append("  " + " ".join(chr(ord("a") + c) for c in range(self.columns)))
        out.append(("White" if white_moves else "Black") + " to move")
        return "\n".join(out)
