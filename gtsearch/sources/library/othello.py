"""Othello (Reversi) on small boards: 4x4 and 6x6 are second player's wins (6x6: 16-20,
Feinstein 1993), 8x8 a draw (Takizawa 2023).

Black (MAX) moves first.  A move places a disc that flanks a line of the
other's discs between it and one of the mover's own, in any of the eight
directions, and turns them; a player without such a move passes (the other
moves again: a forced ``pass`` in gtsearch's tree), and the game ends when
neither can move.  The value is Black's discs minus White's.  A state is
``(black, white, black to move)``, the discs as bitboards row by row from the
top left; moves are squares in that order, named by column letter and row
number (``b3``), as OpenSpiel orders its actions.

The moves are found for all squares at once on the bitboards (a flanked run
grown in each direction by shifts, as bitboard engines do), not square by
square along the rays: a search on demand asks who moves and the moves of
every child it lists, and Othello on 8x8 spent nearly all its time there.
"""

from __future__ import annotations

from ..protocol import MAX, MIN

State = tuple[int, int, bool]


class Othello:
    """Othello on ``rows`` x ``columns`` squares (both even), Black (MAX) first."""

    trusted = True
    #: its rules in C (gtsearch/_native/game_othello.c; gtsearch.sources.gamerules)
    rules = "othello"

    def __init__(self, rows: int = 4, columns: int = 4) -> None:
        if rows % 2 or columns % 2:
            raise ValueError(f"the board's sides must be even, got {rows} x {columns}")
        self.rows, self.columns = rows, columns
        self.title = f"Othello on {rows} x {columns}"
        size = rows * columns
        #: the least and the greatest utility (mcts scales its rewards by them on demand)
        self.bounds = (-size, size)
        self.names = [f"{chr(ord('a') + s % columns)}{s // columns + 1}" for s in range(size)]
        #: for each square, the lines of squares from it outwards in the eight directions
        self.rays: list[list[list[int]]] = []
        self.full = (1 << size) - 1
        #: for each of the eight directions, the shift of a square to its neighbour that way
        #: (left: to a greater square; right: to a lesser one) and the squares that may be
        #: reached so (a step east must not wrap from the last column to the next row's first)
        first = sum(1 << (r * columns) for r in range(rows))
        last = first << (columns - 1)
        steps = [
            (dr * columns + dc, self.full & ~(first if dc == 1 else last if dc == -1 else 0))
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if dr or dc
        ]
        self.left = [(shift, reach) for shift, reach in steps if shift > 0]
        self.right = [(-shift, reach) for shift, reach in steps if shift < 0]
        #: a run of the other's discs is grown to the longest a move can flank
        self.grow = range(max(rows, columns) - 3)
        #: the last state asked of, and its turn (:meth:`_turn`)
        self._last: tuple[State | None, tuple[int, int, bool, int]] = (None, (0, 0, True, 0))
        for s in range(size):
            r, c = divmod(s, columns)
            rays = []
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if dr or dc:
                        ray, rr, cc = [], r + dr, c + dc
                        while 0 <= rr < rows and 0 <= cc < columns:
                            ray.append(rr * columns + cc)
                            rr, cc = rr + dr, cc + dc
                        if len(ray) > 1:
                            rays.append(ray)
            self.rays.append(rays)
        corners = (0, columns - 1, size - columns, size - 1)
        self.corners = sum(1 << s for s in corners)
        top, left = rows // 2 - 1, columns // 2 - 1
        square = top * columns + left
        self.start = (
            1 << (square + 1) | 1 << (square + columns),
            1 << square | 1 << (square + columns + 1),
        )

    def initial(self) -> State:
        return (*self.start, True)

    def _flips(self, mine: int, theirs: int, s: int) -> int:
        """The discs a disc of the mover's on the empty square s turns (0: not a move)."""
        flips = 0
        for ray in self.rays[s]:
            line = 0
            for t in ray:
                if theirs >> t & 1:
                    line |= 1 << t
                elif mine >> t & 1:
                    flips |= line
                    break
                else:
                    break
        return flips

    def _move_squares(self, mine: int, theirs: int) -> int:
        """The empty squares where a disc of the mover's flanks a line of the other's, as a
        bitboard: from each of the mover's discs, a run of the other's grown one square at a
        time in each direction, and the empty square just past it."""
        empty = self.full & ~(mine | theirs)
        found = 0
        grow = self.grow
        for shift, reach in self.left:
            flanked = theirs & reach
            run = (mine << shift) & flanked
            for _ in grow:
                run |= (run << shift) & flanked
            found |= (run << shift) & reach & empty
        for shift, reach in self.right:
            flanked = theirs & reach
            run = (mine >> shift) & flanked
            for _ in grow:
                run |= (run >> shift) & flanked
            found |= (run >> shift) & reach & empty
        return found

    def _turn(self, state: State) -> tuple[int, int, bool, int]:
        """(the mover's discs, the other's, whether Black moves, the mover's move squares):
        the player to move, or the other when the player to move has no move.  Kept for the
        last state asked: player(), moves() and play() of each move ask of one state in a
        row."""
        last, turn = self._last
        if last == state:
            return turn
        black, white, black_moves = state
        mine, theirs = (black, white) if black_moves else (white, black)
        squares = self._move_squares(mine, theirs)
        if not squares:
            mine, theirs, black_moves = theirs, mine, not black_moves
            squares = self._move_squares(mine, theirs)
        turn = mine, theirs, black_moves, squares
        self._last = state, turn
        return turn

    def words(self, state: State, forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: Black's discs, White's, and bit 0 when Black is to move, bit
        1 where the other moves (the tree's entry below a forced pass); ``forced``: the entry
        of the forced pass itself, whose player is the one to move."""
        black, white, black_moves = state
        passed = not forced and self.player(state) not in (None, MAX if black_moves else MIN)
        return (black, white, black_moves | passed << 1, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[State, bool]:
        """The state of C words, and whether they are the tree's forced pass."""
        state = (words[0], words[1], bool(words[2] & 1))
        if words[2] & 2:
            return state, False
        return state, self.player(state) not in (None, MAX if state[2] else MIN)

    def player(self, state: State) -> str | None:
        _, _, black_moves, squares = self._turn(state)
        if not squares:
            return None
        return MAX if black_moves else MIN

    def moves(self, state: State) -> list[int]:
        """The mover's moves, squares in order."""
        found = self._turn(state)[3]
        squares = []
        while found:
            low = found & -found
            squares.append(low.bit_length() - 1)
            found ^= low
        return squares

    def play(self, state: State, move: int) -> State:
        mine, theirs, black_moves, _ = self._turn(state)
        flips = self._flips(mine, theirs, move)
        mine |= flips | 1 << move
        theirs &= ~flips
        if black_moves:
            return (mine, theirs, False)
        return (theirs, mine, True)

    def utility(self, state: State) -> int:
        return bin(state[0]).count("1") - bin(state[1]).count("1")

    def label(self, state: State, move: int) -> str:
        return self.names[move]

    def estimate(self, state: State) -> int:
        """Black's discs - White's, a corner counting 4."""
        black, white, _ = state
        corners = bin(black & self.corners).count("1") - bin(white & self.corners).count("1")
        return self.utility(state) + 3 * corners

    def render(self, state: State) -> str:
        black, white, black_moves = state
        letters = "  " + " ".join(chr(ord("a") + c) for c in range(self.columns))
        out = [letters]
        for r in range(self.rows):
            row = []
            for c in range(self.columns):
                s = r * self.columns + c
                row.append("X" if black >> s & 1 else "O" if white >> s & 1 else ".")
            out.append(f"{r + 1} " + " ".join(row))
        out.append(
            f"X (Black, MAX) {bin(black).count('1')}, O (White, MIN) {bin(white).count('1')}"
        )
        return "\n".join(out)
