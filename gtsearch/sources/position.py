"""A game's position after moves named as the game names them (``--moves``), and an estimate
given on the command line (``--estimate MODULE:ATTRIBUTE``); docs/sources.md, "A position:
--moves", "An estimate of your own: --estimate".

A move is named as ``play`` lists it: the game's ``label(state, move)`` (OpenSpiel's action
strings such as ``x(1,1)``; chance's outcomes too), or its number 1, 2, ... among the
position's moves for a game without labels.  ``--moves "M1 M2 ..."`` names the moves played
from the start, separated by spaces; a name that holds spaces itself (nim's ``take 2``) is
read whole, the longest name of the position's moves that the text starts with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import UsageError, shown
from .gamespec import import_attribute
from .protocol import CHANCE, MAX, MIN, Game

__all__ = [
    "EstimatedGame",
    "after_moves",
    "load_estimate",
    "mover",
    "named_line",
    "named_moves",
]


def mover(game: Game, state: Any, max_to_move: bool) -> str | None:
    """MAX, MIN or CHANCE to move at ``state``, or None when the game is over (``max_to_move``
    says whose turn it is in a game whose players alternate)."""
    who = game.player(state) if game.has_player else (MAX if max_to_move else MIN)
    if who is None or (who != CHANCE and not game.moves(state)):
        return None
    return who


def named_moves(game: Game, state: Any, who: str | None) -> list[tuple[Any, str]]:
    """The moves of ``state`` (its outcomes at a chance state) with their names."""
    moves = game.outcomes(state)[0] if who == CHANCE else game.moves(state)
    if not game.has_label:
        return [(m, str(i + 1)) for i, m in enumerate(moves)]
    return list(zip(moves, game.labels(state, moves), strict=True))


def after_moves(game: Game, text: str, *, where: str = "--moves") -> tuple[Any, bool, list[str]]:
    """The state after the moves ``text`` names from the start, whether MAX is to move there
    (in a game whose players alternate), and the moves' names (:func:`named_line`)."""
    state = game.key(game.call("initial"), "initial")
    max_to_move = game.root_max

    def moves_here() -> list[tuple[Any, str]] | None:
        who = mover(game, state, max_to_move)
        return None if who is None else named_moves(game, state, who)

    played: list[str] = []
    for move, name in named_line(game.name, text, moves_here, where):
        state = game.key(game.call("play", state, move), "play")
        if not game.has_player:
            max_to_move = not max_to_move
        played.append(name)
    return state, max_to_move, played


def named_line(
    source: str,
    text: str,
    moves_here: Callable[[], list[tuple[Any, str]] | None],
    where: str = "--moves",
) -> Iterator[tuple[Any, str]]:
    """Each move ``text`` names, with its name, in turn: the caller plays it before it asks
    for the next, and ``moves_here()`` gives the position's moves with their names then (None
    when the game is over).  Names are separated by spaces; each move is the longest name
    of the position's moves that the rest of the text starts with (``take 2`` holds a
    space).  A UsageError names the move that is not legal, with the position's moves, or
    a move after the end of the game."""
    played: list[str] = []
    rest = " ".join(text.split())
    while rest:
        moves = moves_here()
        here = f"{source}: {where}: move {len(played) + 1}, {shown(rest)}"
        if moves is None:
            raise UsageError(f"{here}: the game is over after {' '.join(played) or 'no move'}")
        fits = [(m, n) for m, n in moves if rest == n or rest.startswith(n + " ")]
        if not fits:
            names = ", ".join(n for _, n in moves)
            raise UsageError(f"{here}, is not a legal move here (the moves: {names})")
        move, name = max(fits, key=lambda pair: len(pair[1]))
        rest = rest[len(name) :].lstrip(" ")
        played.append(name)
        yield move, name


def load_estimate(spec: str) -> Any:
    """The callable ``--estimate MODULE:ATTRIBUTE`` names (imported because the command line
    names it, from the current folder as a game module is); a UsageError when it is not one,
    one line for what the module raises as it is imported."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise UsageError(f"--estimate takes MODULE:ATTRIBUTE, got {shown(spec)}")
    fn = import_attribute(module_name, attr, f"--estimate {spec}")
    if fn is None:
        raise UsageError(f"--estimate {spec}: module {module_name} has no {attr!r}")
    if not callable(fn):
        raise UsageError(f"--estimate {spec}: {module_name}.{attr} is not callable")
    return fn


class EstimatedGame:
    """A game object with the command line's estimate in place of its own: every other
    attribute is the game's.  The function is given the state as the game's users know it:
    an OpenSpiel game's ``pyspiel.State`` (``user_state``), so that the function OpenSpiel's
    ``alpha_beta_search`` takes as ``value_function`` serves as it is."""

    def __init__(self, obj: Any, fn: Any) -> None:
        self._obj = obj
        user_state = getattr(obj, "user_state", None)
        if user_state is None:
            self.estimate = fn
        else:

            @functools.wraps(fn)  # messages name the user's function and its place
            def estimate(state: Any) -> Any:
                return fn(user_state(state))

            self.estimate = estimate

    @property
    def wrapped(self) -> Any:
        """The game object whose estimate this one replaces."""
        return self._obj

    def __getattr__(self, name: str) -> Any:
        return getattr(self._obj, name)
