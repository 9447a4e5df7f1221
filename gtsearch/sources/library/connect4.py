"""Connect Four on any board: rows, columns and k in a line (Allis 1988 solved 6x7: a first
player's win; Tromp's tables give the smaller boards).

A state is ``(x, o, won)``: X's and O's discs as bitboards, column by column,
``rows + 1`` bits a column (the top bit of a column stays empty, so that no
line wraps into the next column), and ``won`` +1 when X just made a line, -1
when O did.  X (MAX) drops first; the moves are the columns not full, left to
right, named 1, 2, ... as OpenSpiel orders its actions 0, 1, ...
"""

from __future__ import annotations


class ConnectFour:
    """Connect Four: X (MAX) and O drop discs in turn; k in a line wins (+1 X, -1 O, 0 drawn)."""

    root = "max"
    trusted = True
    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)
    #: its rules in C (gtsearch/_native/game_rules.c; gtsearch.sources.gamerules)
    rules = "connect4"

    def __init__(self, rows: int = 6, columns: int = 7, k: int = 4) -> None:
        self.rows, self.columns, self.k = rows, columns, k
        self.title = f"Connect Four on {rows} rows and {columns} columns, {k} in a line"
        self.height = rows + 1  # bits a column
        self.full = sum(((1 << rows) - 1) << (c * self.height) for c in range(columns))
        #: the shifts of a bitboard that step along a column, a row and the two diagonals
        self.steps = (1, self.height, self.height + 1, self.height - 1)
        self.windows = [w for w in self._windows()]
        #: a power of two above the number of lines, so that estimates stay within (-1, 1)
        self.scale = 1 << len(self.windows).bit_length()

    def _windows(self) -> list[int]:
        """Every line of k squares on the board, as a bitboard."""
        out = []
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(c + i * dc, r + i * dr) for i in range(self.k)]
                    if all(0 <= cc < self.columns and 0 <= rr < self.rows for cc, rr in cells):
                        out.append(sum(1 << (cc * self.height + rr) for cc, rr in cells))
        return out

    def initial(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def words(self, state: tuple[int, int, int], forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: X's discs, O's, and 1 when X just won, 2 when O did."""
        x, o, won = state
        return (x, o, 1 if won == 1 else 2 if won == -1 else 0, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[tuple[int, int, int], bool]:
        return (words[0], words[1], (0, 1, -1)[words[2]]), False

    def moves(self, state: tuple[int, int, int]) -> list[int]:
        x, o, won = state
        taken = x | o
        if won or taken == self.full:
            return []
        top = self.rows - 1
        return [c for c in range(self.columns) if not taken >> (c * self.height + top) & 1]

    def _line(self, discs: int) -> bool:
        for step in self.steps:
            run = discs
            for i in range(1, self.k):
                run &= discs >> (i * step)
            if run:
                return True
        return False

    def play(self, state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
        x, o, _ = state
        taken = x | o
        column = taken >> (move * self.height) & ((1 << self.height) - 1)
        disc = 1 << (move * self.height + column.bit_length())
        if bin(x).count("1") == bin(o).count("1"):  # X to move
            return (x | disc, o, 1 if self._line(x | disc) else 0)
        return (x, o | disc, -1 if self._line(o | disc) else 0)

    def utility(self, state: tuple[int, int, int]) -> int:
        return state[2]

    def label(self, state: tuple[int, int, int], move: int) -> str:
        return str(move + 1)

    def estimate(self, state: tuple[int, int, int]) -> int | float:
        """(lines holding X's discs and none of O's - the other way round) / a power of two
        above the number of lines: within (-1, 1), so below a win; a win or a loss as itself."""
        x, o, won = state
        if won:
            return won
        mine = sum(1 for w in self.windows if w & x and not w & o)
        theirs = sum(1 for w in self.windows if w & o and not w & x)
        return (mine - theirs) / self.scale

    def render(self, state: tuple[int, int, int]) -> str:
        x, o, _ = state
        rows = []
        for r in range(self.rows - 1, -1, -1):
            cells = []
            for c in range(self.columns):
                bit = 1 << (c * self.height + r)
                cells.append("X" if x & bit else "O" if o & bit else ".")
            rows.append(" ".join(cells))
        rows.append(" ".join(str(c + 1)[-1] for c in range(self.columns)))
        return "\n".join(rows)
