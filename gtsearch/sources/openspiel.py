"""``game:openspiel:NAME(PARAMS)``: OpenSpiel's games through the game protocol (extra ``openspiel``).

:class:`OpenSpielGame` answers the protocol's questions from an OpenSpiel
state (Lanctot et al. 2019, "OpenSpiel: A Framework for Reinforcement
Learning in Games"): ``player()`` from ``current_player()`` (player 0 is MAX,
player 1 MIN, OpenSpiel's chance player chance, a terminal state None),
``moves()`` from ``legal_actions()`` in OpenSpiel's order, ``outcomes()``
from ``chance_outcomes()`` (in a game with explicit chance only:
:class:`OpenSpielChanceGame`), ``play()`` from ``child()``, ``utility()`` from
``returns()[0]`` (an integral float as an int), ``label()`` from
``action_to_string()`` and ``render()`` from ``str(state)``.  Two-player,
zero-sum, perfect-information, sequential games only, deterministic or with
explicit chance; anything else is refused in one line.

A state is keyed (docs/sources.md, "OpenSpiel's games"), in a deterministic game, by
who moves and ``str(state)``: OpenSpiel's ``State::ToString()``, which its
``State::operator==`` compares ("two states are equal if they are the same world
state ... in perfect information games such as Tic-Tac-Toe, only the current board
state is necessary", open_spiel/spiel.h) and its value iteration keys states by; so
transpositions are one state.  In a game with chance, by its history of actions, which
is always right: there ``ToString()`` need not hold the whole state (pig's leaves out
the number of decisions its horizon counts, so that its states would come back along a
line of play).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import UsageError
from .protocol import CHANCE, MAX, MIN

INSTALL = "pip install 'gtsearch[openspiel]'"


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """OpenSpiel's C++ prints its errors on file descriptor 2 before it raises: hidden, so
    that the error is one line, ours."""
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2 to hide
        yield
        return
    try:
        sys.stderr.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Position:
    """An OpenSpiel state, hashable by what identifies it: ``ident``, who moves and
    ``str(state)`` in a deterministic game, its history of actions in a game with chance
    (:meth:`OpenSpielGame.position`)."""

    __slots__ = ("state", "history", "ident", "hashed")

    def __init__(self, state: Any, history: tuple[int, ...], ident: Any) -> None:
        self.state = state
        self.history = history
        self.ident = ident
        self.hashed = hash(ident)  # asked again at every lookup of the states' table

    def __hash__(self) -> int:
        return self.hashed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.ident == other.ident

    def __repr__(self) -> str:
        return f"Position{self.history!r}"


def _refusal(game: Any, pyspiel: Any) -> str | None:
    """Why gtsearch cannot search ``game``, or None."""
    kind = game.get_type()
    types = pyspiel.GameType
    if game.num_players() != 2:
        return f"it has {game.num_players()} players"
    if kind.utility != types.Utility.ZERO_SUM:
        return f"its utility is {kind.utility.name.lower().replace('_', '-')}, not zero-sum"
    if kind.information != types.Information.PERFECT_INFORMATION:
        return "its players do not see everything (imperfect information)"
    if kind.dynamics != types.Dynamics.SEQUENTIAL:
        return "its players move at the same time (simultaneous moves)"
    if kind.chance_mode == types.ChanceMode.SAMPLED_STOCHASTIC:
        return "its chance is sampled, without the outcomes' probabilities"
    return None


def _number(value: float) -> int | float:
    """One of OpenSpiel's doubles as gtsearch gives a utility: an int where it is one."""
    return int(value) if float(value).is_integer() else float(value)


class OpenSpielGame:
    """One of OpenSpiel's games as a game of the protocol (docs/sources.md)."""

    def __init__(self, game: Any, pyspiel: Any) -> None:
        self.game = game
        self.chance_player = pyspiel.PlayerId.CHANCE
        #: a deterministic game's states are keyed by who moves and ToString(), the others'
        #: by their history (the module's docstring)
        self.by_string = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        self.title = f"OpenSpiel's {game}"
        #: the least and the greatest utility (mcts scales its rewards by them on demand)
        self.bounds = (_number(game.min_utility()), _number(game.max_utility()))

    @classmethod
    def load(cls, text: str, name: str) -> OpenSpielGame:
        """The game ``pyspiel.load_game(text)`` gives, checked; a UsageError says why not."""
        try:
            import pyspiel
        except ImportError:
            raise UsageError(f"{name}: OpenSpiel is not installed: {INSTALL}") from None
        if not text:
            raise UsageError(f"{name}: name the game, as in game:openspiel:tic_tac_toe")
        try:
            with _quiet_stderr():
                game = pyspiel.load_game(text)
        except pyspiel.SpielError as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else "refused"
            raise UsageError(f"{name}: OpenSpiel: {first}") from None
        why = _refusal(game, pyspiel)
        if why is not None:
            raise UsageError(
                f"{name}: gtsearch searches two-player, zero-sum, perfect-information, sequential "
                f"games; {game.get_type().short_name} is not one: {why}"
            )
        deterministic = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        return (cls if deterministic else OpenSpielChanceGame)(game, pyspiel)

    def position(self, state: Any, history: tuple[int, ...]) -> Position:
        """The state as gtsearch keys it: by who moves and ``str(state)`` in a deterministic
        game, by its history in a game with chance."""
        if self.by_string:
            return Position(state, history, (state.current_player(), str(state)))
        return Position(state, history, history)

    def initial(self) -> Position:
        return self.position(self.game.new_initial_state(), ())

    def player(self, position: Position) -> str | None:
        state = position.state
        if state.is_terminal():
            return None
        who = state.current_player()
        if who == self.chance_player:
            return CHANCE
        return MAX if who == 0 else MIN

    def moves(self, position: Position) -> list[int]:
        return position.state.legal_actions()  # type: ignore[no-any-return]

    def play(self, position: Position, move: int) -> Position:
        return self.position(position.state.child(move), (*position.history, move))

    def playout_copy(self, position: Position) -> tuple[Position, Any]:
        """A copy of the state for a playout on demand, and the function that plays a move on
        it in place (``apply_action``, as OpenSpiel's own rollouts play): its key is not kept
        up to date, and a playout asks for none (sources.ondemand.OnDemandTree.playout)."""
        state = position.state.clone()
        return Position(state, position.history, None), state.apply_action

    def utility(self, position: Position) -> int | float:
        return _number(position.state.returns()[0])

    def label(self, position: Position, move: int) -> str:
        state = position.state
        return state.action_to_string(state.current_player(), move)  # type: ignore[no-any-return]

    def render(self, position: Position) -> str:
        return str(position.state).rstrip("\n")

    def user_state(self, position: Position) -> Any:
        """The state a function of the user's is given (--estimate): OpenSpiel's own
        ``pyspiel.State``, as its ``alpha_beta_search`` gives its ``value_function``; a copy,
        so that the function cannot change the search's."""
        return position.state.clone()


def c_states(game: Any, position: Any) -> tuple[int, int] | None:
    """For the compiled core to call OpenSpiel's states itself as this adapter does
    (search_objects.c): OpenSpiel's chance player (an int), and how states are keyed: 0 by
    history; by string, 1 each state's asked (as :class:`Position` asks it), 2 asked only
    where two states may be compared; plus 4 where the root's ``position`` holds one of
    pyspiel's own states (whose methods are C++'s: the string ``ToString()``, asked only where
    compared, and the methods of its class called as functions of the state).  None for any
    other game, a subclass of the adapter's included (its answers may differ)."""
    if type(game) not in (OpenSpielGame, OpenSpielChanceGame):
        return None
    own = type(position.state).__module__.partition(".")[0] == "pyspiel"
    keyed = (2 if own else 1) if game.by_string else 0
    return int(game.chance_player), keyed | (4 if own else 0)


class OpenSpielChanceGame(OpenSpielGame):
    """One of OpenSpiel's games with explicit chance: the only ones with ``outcomes()``, so that
    a deterministic game searched on demand is known to have no chance node (docs/sources.md)."""

    def outcomes(self, position: Position) -> list[tuple[int, float]]:
        return position.state.chance_outcomes()  # type: ignore[no-any-return]
