"""Dots and boxes, with repeated turns: whoever closes a box scores it and moves again.

The lines are numbered as OpenSpiel numbers its actions: the horizontal
lines row by row (``h(r,c)``: row r of dots, between columns c and c + 1),
then the vertical ones (``v(r,c)``); the moves are the lines not drawn, in
that order, so that a search of ``game:dotsandboxes`` reads the leaves
OpenSpiel's ``dots_and_boxes`` gives it.  A state is ``(lines drawn, MAX's
boxes - MIN's, MAX to move)``; the game ends when every line is drawn: +1 if
MAX has more boxes, -1 if fewer, 0 drawn.
"""

from __future__ import annotations

from ..protocol import MAX, MIN

State = tuple[int, int, bool]


class DotsAndBoxes:
    """Dots and boxes on ``rows`` x ``columns`` boxes, MAX first."""

    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)

    trusted = True
    #: its rules in C (gtsearch/_native/game_dotsandboxes.c; gtsearch.sources.gamerules)
    rules = "dotsandboxes"

    def __init__(self, rows: int = 1, columns: int = 2) -> None:
        self.rows, self.columns = rows, columns
        self.title = f"Dots and boxes: {rows} x {columns} boxes"
        horizontal = (rows + 1) * columns
        self.names = [f"h({r},{c})" for r in range(rows + 1) for c in range(columns)]
        self.names += [f"v({r},{c})" for r in range(rows) for c in range(columns + 1)]
        self.all = (1 << len(self.names)) - 1
        #: each box's four lines as a bitmask, and the boxes beside each line
        self.boxes = [
            1 << (r * columns + c)
            | 1 << ((r + 1) * columns + c)
            | 1 << (horizontal + r * (columns + 1) + c)
            | 1 << (horizontal + r * (columns + 1) + c + 1)
            for r in range(rows)
            for c in range(columns)
        ]
        self.beside = [[b for b in self.boxes if b >> line & 1] for line in range(len(self.names))]

    def initial(self) -> State:
        return (0, 0, True)

    def words(self, state: State, forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: the lines drawn, MAX's boxes - MIN's (two's complement),
        bit 0 MAX to move and bit 1 the forced pass before the state."""
        drawn, diff, max_to_move = state
        return (drawn, diff & (1 << 64) - 1, max_to_move | forced << 1, 0)

    def state_of(self, words: tuple[int, ...]) -> tuple[State, bool]:
        drawn, diff, flags, _ = words
        return (drawn, diff - (diff >> 63 << 64), bool(flags & 1)), bool(flags & 2)

    def player(self, state: State) -> str | None:
        if state[0] == self.all:
            return None
        return MAX if state[2] else MIN

    def moves(self, state: State) -> list[int]:
        drawn = state[0]
        return [line for line in range(len(self.names)) if not drawn >> line & 1]

    def play(self, state: State, move: int) -> State:
        drawn, diff, max_to_move = state
        drawn |= 1 << move
        closed = sum(1 for box in self.beside[move] if drawn & box == box)
        if not closed:
            return (drawn, diff, not max_to_move)
        return (drawn, diff + closed if max_to_move else diff - closed, max_to_move)

    def utility(self, state: State) -> int:
        return (state[1] > 0) - (state[1] < 0)

    def label(self, state: State, move: int) -> str:
        return self.names[move]

    def estimate(self, state: State) -> float:
        """(MAX's boxes - MIN's) / (boxes + 1): within (-1, 1), below a win."""
        return state[1] / (len(self.boxes) + 1)

    def render(self, state: State) -> str:
        drawn, diff, max_to_move = state
        horizontal = (self.rows + 1) * self.columns
        out = []
        for r in range(self.rows + 1):
            line = "+"
            for c in range(self.columns):
                line += ("---" if drawn >> (r * self.columns + c) & 1 else "   ") + "+"
            out.append(line)
            if r == self.rows:
                break
            line = ""
            for c in range(self.columns + 1):
                line += "|" if drawn >> (horizontal + r * (self.columns + 1) + c) & 1 else " "
                line += "   " if c < self.columns else ""
            out.append(line)
        who = "MAX" if max_to_move else "MIN"
        out.append(f"MAX's boxes - MIN's: {diff}; {who} to move")
        return "\n".join(out)
