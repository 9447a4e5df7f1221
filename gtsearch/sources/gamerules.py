"""The built-in games' rules in C (gtsearch/_native/game.h): which they are, and the states and
moves of the Python games as the C rules write them (docs/core.md, "Games in C").

Each built-in game's class names its rules in C (``rules = "othello"``, on the class
itself: a subclass may change the rules, and keeps the Python ones) and converts its states
to the C rules' four words and back (``words(state, forced)``, ``state_of(words)``); a game
whose moves are not already the C rules' ints converts them too (``move_code(state,
move)``, ``move_of(state, code)``: Pig's ``roll`` and ``stop``, Hexapawn's (from, to)).  The
C rules describe gtsearch's tree of the game (gtsearch.sources.games.GameTree): where the
tree has a forced pass (an entry tagged FORCED), the state's words say so (``forced``), and
the pass is the move :data:`PASS_CODE`.  The Python game stays the reference; the C rules are
tested equal to it state for state (tests/test_game_rules.py).

:func:`rules_of` is what a search in C asks: the rules' name and parameters for a game, or
None when the Python rules run (the pure core, a game of the user's, a subclass, or a
board the C representation cannot hold: then said once on standard error).
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from ..core import native
from .builtin_games import find_game
from .gameviews import FORCED
from .protocol import CHANCE, MAX, MIN, PASS, Game

#: the move of a forced pass in the C rules (game.h's GAME_PASS)
PASS_CODE = -1
#: the words of a state (game.h's GState)
Words = tuple[int, int, int, int]
#: what an int64 holds
_INT64 = 1 << 63
#: the games already said to run on the Python rules (said once a process)
_said: set[str] = set()


class Rules(NamedTuple):
    """A game's rules in C: its name in GAME_RULES and its parameters, in the order of the
    game's Param list (gtsearch.sources.builtin_games.GAMES)."""

    name: str
    params: tuple[int, ...]


def rules_of(game: Game) -> Rules | None:
    """The C rules of ``game`` (a built-in game of exactly its class), or None: the compiled
    core does not run, the game is not a built-in one, or its parameters do not fit the C
    representation (a Connect Four board of more than 64 bits, a Nim heap beyond 2**63): said
    once on standard error, and the Python rules run."""
    core, obj = native(), game.obj
    name = vars(type(obj)).get("rules")
    found = find_game(name) if isinstance(name, str) else None
    if core is None or found is None:
        return None
    params = tuple(int(getattr(obj, p.name)) for p in found.params)
    fits = all(-_INT64 <= p < _INT64 for p in params)
    if fits and core.game_initial(name, params) is not None:
        return Rules(name, params)
    if game.name not in _said:
        _said.add(game.name)
        sys.stderr.write(
            f"note: {game.name}: too big for the C core's rules of {name} "
            '(docs/core.md, "Games in C"): the Python rules run\n'
        )
    return None


def words(obj: Any, state: Any, forced: bool = False) -> Words:
    """The C words of a built-in game's state (``forced``: at the tree's forced pass before
    it, the entry tagged FORCED)."""
    return obj.words(state, forced)  # type: ignore[no-any-return]


def entry_words(obj: Any, key: Any, general: bool) -> Words:
    """The C words of an entry of a GameTree (``general``: its keys are ``(tag, state,
    depth)``, else the state itself)."""
    if general:
        return words(obj, key[1], key[0] == FORCED)
    return words(obj, key)


def state_of(obj: Any, w: Words) -> tuple[Any, bool]:
    """The Python state of C words, and whether the tree has a forced pass there."""
    return obj.state_of(tuple(w))  # type: ignore[no-any-return]


def move_code(obj: Any, state: Any, move: Any) -> int:
    """The C rules' int of a move of the Python game at ``state`` (the pass: PASS_CODE)."""
    if move == PASS and type(move) is str:
        return PASS_CODE
    convert = getattr(obj, "move_code", None)
    return move if convert is None else convert(state, move)  # type: ignore[no-any-return]


def move_of(obj: Any, state: Any, code: int) -> Any:
    """The Python game's move at ``state`` of the C rules' int ``code``."""
    if code == PASS_CODE:
        return PASS
    convert = getattr(obj, "move_of", None)
    return code if convert is None else convert(state, code)


def perft(obj: Any, depth: int, start: Any = None) -> int:
    """The leaves of gtsearch's tree of a built-in game from its initial state (or ``start``)
    to ``depth``, walked over the Python rules: the states ``depth`` moves below (a forced
    pass and a chance outcome are moves too) and those where the game ends above; the C
    rules' count is the core's ``game_perft`` (docs/core.md)."""
    has_player = callable(getattr(obj, "player", None))
    state = obj.initial() if start is None else start
    who = obj.player(state) if has_player else None
    # (state, the player the tree expects there, the moves left to the depth)
    todo = [(state, who, depth)]
    leaves = 0
    while todo:
        state, expected, left = todo.pop()
        if has_player:
            who = obj.player(state)
            if who is None or left == 0:
                leaves += 1
            elif who == CHANCE:
                todo.extend(
                    (obj.play(state, m), expected, left - 1) for m, _ in obj.outcomes(state)
                )
            elif who != expected:  # the forced pass, then the same state
                todo.append((state, who, left - 1))
            else:
                other = MIN if who == MAX else MAX
                todo.extend((obj.play(state, m), other, left - 1) for m in obj.moves(state))
        else:
            moves = obj.moves(state) if left else ()
            if not moves:
                leaves += 1
            todo.extend((obj.play(state, m), None, left - 1) for m in moves)
    return leaves
