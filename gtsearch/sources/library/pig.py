"""Pig, a dice game with chance nodes, as OpenSpiel plays it (``pig(winscore, diceoutcomes,
horizon)``), for two players.

On your turn you roll the die as often as you like: a 1 loses what the turn
had gained and ends it, any other face adds to the turn's total; when you
stop, the total goes to your score.  The first to reach the target wins (+1
for MAX, -1); a player whose score and turn total reach it must stop.  After
``horizon`` decisions (rolls and stops) the game is drawn (0): without it a
game could go on for ever.  The roll is a chance node of ``die`` equally
likely faces, and after a face other than 1 the same player decides again: a
repeated turn, so gtsearch's tree has a forced ``pass`` of the other player
there.  A state is ``(score of MAX, score of MIN, turn total, decisions so
far, MAX's turn, rolling)``.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import CHANCE, MAX, MIN

State = tuple[int, int, int, int, bool, bool]


class Pig:
    """Pig for two players to ``target`` points with a die of ``die`` faces."""

    #: the least and the greatest utility (mcts scales its rewards by them on demand)
    bounds = (-1, 1)

    trusted = True
    #: its rules in C (gtsearch/_native/game_pig.c; gtsearch.sources.gamerules)
    rules = "pig"

    def __init__(self, target: int = 6, die: int = 6, horizon: int = 6) -> None:
        self.target, self.die, self.horizon = target, die, horizon
        self.title = f"Pig to {target} with a die of {die} faces, drawn after {horizon} decisions"

    def initial(self) -> State:
        return (0, 0, 0, 0, True, False)

    def words(self, state: State, forced: bool = False) -> tuple[int, int, int, int]:
        """The state's words in C: MAX's score, MIN's, the turn total, and the decisions with
        bit 32 for MAX's turn, 33 for rolling, 34 for the forced pass before the state."""
        mine, theirs, turn, decided, max_turn, rolling = state
        flags = decided | max_turn << 32 | rolling << 33 | forced << 34
        return (mine, theirs, turn, flags)

    def state_of(self, words: tuple[int, ...]) -> tuple[State, bool]:
        mine, theirs, turn, flags = words
        state = (
            mine,
            theirs,
            turn,
            flags & 0xFFFFFFFF,
            bool(flags >> 32 & 1),
            bool(flags >> 33 & 1),
        )
        return state, bool(flags >> 34 & 1)

    def move_code(self, state: State, move: str | int) -> int:
        """A move in C: "roll" 0, "stop" 1, a face of the die itself."""
        return {"roll": 0, "stop": 1}[move] if isinstance(move, str) else move

    def move_of(self, state: State, code: int) -> str | int:
        return code if state[5] else ("roll", "stop")[code]

    def _over(self, state: State) -> bool:
        mine, theirs, _, decided, _, _ = state
        return decided >= self.horizon or mine >= self.target or theirs >= self.target

    def player(self, state: State) -> str | None:
        if self._over(state):
            return None
        if state[5]:
            return CHANCE
        return MAX if state[4] else MIN

    def outcomes(self, state: State) -> list[tuple[int, Fraction]]:
        p = Fraction(1, self.die)
        return [(face, p) for face in range(1, self.die + 1)]

    def moves(self, state: State) -> list[str]:
        score = state[0] if state[4] else state[1]
        return ["stop"] if score + state[2] >= self.target else ["roll", "stop"]

    def play(self, state: State, move: str | int) -> State:
        mine, theirs, turn, decided, max_turn, rolling = state
        if rolling:  # the die's face
            if move == 1:
                return (mine, theirs, 0, decided, not max_turn, False)
            return (mine, theirs, turn + int(move), decided, max_turn, False)
        if move == "roll":
            return (mine, theirs, turn, decided + 1, max_turn, True)
        if max_turn:
            return (mine + turn, theirs, 0, decided + 1, False, False)
        return (mine, theirs + turn, 0, decided + 1, True, False)

    def utility(self, state: State) -> int:
        if state[0] >= self.target:
            return 1
        return -1 if state[1] >= self.target else 0

    def label(self, state: State, move: str | int) -> str:
        return str(move)

    def estimate(self, state: State) -> float:
        """(MAX's score - MIN's score, the turn total counted for the player whose turn it is)
        / (2 target): within (-1, 1), below a win."""
        if self._over(state):
            return self.utility(state)
        mine, theirs, turn, _, max_turn, _ = state
        return (mine - theirs + (turn if max_turn else -turn)) / (2 * self.target)

    def render(self, state: State) -> str:
        mine, theirs, turn, decided, max_turn, rolling = state
        who = "MAX" if max_turn else "MIN"
        doing = ", rolling" if rolling else ""
        return (
            f"MAX {mine}, MIN {theirs} (target {self.target}); {who}'s turn: {turn} so far"
            f"{doing}; decision {decided} of {self.horizon}"
        )
