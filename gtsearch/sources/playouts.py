"""mcts's playouts on a game searched on demand: only the drawn move played at each node passed.

A playout needs, at each node it passes, who moves, how many moves there are and the
one child its random number draws: :func:`playout` asks the game for exactly that, and
numbers, lists and keeps nothing it passes (docs/sources.md, "Node numbers").  The leaf it
reaches is known by its path (:meth:`.ondemand.OnDemandTree.loose_leaf`) unless a listing
numbered it.  An OpenSpiel game plays the moves in place on one copy of its state, as
OpenSpiel's RandomRolloutEvaluator does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .games import CHANCE_TAGS, EXPECTED_MOVER, OTHER_PLAYER
from .gameviews import DECIDE, FORCED, as_floats
from .openspiel import OpenSpielGame
from .position import EstimatedGame
from .protocol import CHANCE, MAX, GameError

if TYPE_CHECKING:
    from .ondemand import OnDemandTree

__all__ = ["Reached", "answers_of", "child_entry", "playout"]


class Reached(NamedTuple):
    """Where a playout ended (:meth:`OnDemandTree.playout`): the leaf (its number, or a loose
    leaf's), or where a static value was read (-1; the node, numbered, when it has none: NaN),
    the value, the moves played, and whether it is a leaf."""

    node: int
    value: float
    moves: int
    leaf: bool


def playout(
    tree: OnDemandTree,
    n: int,
    uniform: Callable[[int], int],
    weighted: Callable[[Sequence[float]], int],
    most: int | None,
) -> Reached:
    """mcts's playout from node n (an inner node whose children are not listed): a move
    drawn at each node passed, by ``uniform(k)`` among its k moves or ``weighted(weights)``
    among a chance node's outcomes, one number each, to a leaf or, with ``most``, after
    that many moves.  Only the drawn move is played: nothing passed is numbered, listed or
    kept (docs/sources.md, "Node numbers"), and the leaf reached is known by its path
    (:meth:`loose_leaf`).  The line from the root is checked as a listing checks it (a
    state that comes back: the game does not end), the drawn child against it, and the
    nodes numbered, the loose leaves and the moves of the playout together stay within
    --max-nodes.  An OpenSpiel game plays its moves on one copy of the state, in place
    (its games end within ``max_game_length()`` moves, and its keys are not asked)."""
    game = tree.game
    general, limit = tree.general, tree.limit
    key = tree.keys[n]
    if key is None:  # released by a search before this one (release)
        key = tree._key(n)
    tag: int
    depth: Any
    tag, state, depth = key if general else (DECIDE, key, None)
    answers: tuple[str | None, Sequence[Any], Any] | None = None
    if general:  # node n's state's answers, asked as its parent was listed
        st = tree._state(state)
        answers = (st.player, st.moves, st.weights)
    obj = game.obj.wrapped if isinstance(game.obj, EstimatedGame) else game.obj
    fast = isinstance(obj, OpenSpielGame)
    ask: tuple[Callable[[Any], Any], Callable[[Any], Any]] = (game.player, game.moves)
    if fast:  # OpenSpiel's answers as the adapter gives them (ours: not checked again)
        state, apply = obj.playout_copy(state)
        ask = (obj.player, obj.moves)
    else:
        play = game.obj.play
        on_line = tree._walk_to(n)
        passed: set[Any] = set()
    budget = tree.max_nodes - len(tree.keys) - len(tree.loose_paths)
    suffix: list[int] = []
    moves = 0
    while True:
        if general:
            who, options, weights = answers  # type: ignore[misc]
            if tag == DECIDE and not options:  # the end
                return tree.reached_leaf(n, suffix, game.number("utility", state), moves)
            if limit is not None and depth >= limit:  # the --depth cut: a leaf
                return tree.reached_leaf(n, suffix, game.number("estimate", state), moves)
        else:
            options = game.moves(state)
            if not options:
                return tree.reached_leaf(n, suffix, game.number("utility", state), moves)
        if most is not None and moves == most:  # an inner node's static value
            if game.has_estimate:
                return Reached(-1, float(game.number("estimate", state)), moves, False)
            for i in suffix:  # numbered to be named in mcts's error
                n = tree.child(n, i)
            return Reached(n, math.nan, moves, False)
        moves += 1
        if moves > budget:
            raise tree.limit_error()
        if tag == FORCED:  # the pass: one child, the same state, the other player's
            suffix.append(uniform(1))
            child = state
            kid: Any = (DECIDE, state, None if depth is None else depth + 1)
        else:
            if tag == DECIDE:
                i = uniform(len(options))
            else:
                i = weighted(as_floats(weights))  # type: ignore[arg-type]
            suffix.append(i)
            below = None if depth is None else depth + 1
            if fast:
                apply(options[i])
                child = state
            else:
                try:
                    child = play(state, options[i])
                except BaseException as e:  # the user's code
                    raise game.error("play", e) from None
            if general:
                after = answers_of(tree, child, *ask)
                kid = child_entry(tree, tag, who, child, after, below)
                answers = after
            else:
                kid = child
        if not fast:
            try:
                back = kid in on_line or kid in passed
            except TypeError:  # a state that cannot be a key
                game.key(child, "play")
                raise
            if back:
                raise GameError(
                    f"{game.name}: the game does not end: state "
                    f"{(kid[1] if general else kid)!r} comes back along a line of play"
                )
            passed.add(kid)
        if general:
            tag, state, depth = kid
        else:
            state = kid


def answers_of(
    tree: OnDemandTree, state: Any, player: Callable[[Any], Any], moves: Callable[[Any], Any]
) -> tuple[str | None, Sequence[Any], Any]:
    """Who moves at ``state`` (``player``), the moves (``moves``; a chance state's
    outcomes) and their weights (None but at chance), asked and not kept (a playout's)."""
    game = tree.game
    who = player(state) if game.has_player else MAX
    if who == CHANCE:
        outcomes, weights = game.outcomes(state)
        return who, outcomes, weights
    return who, (() if who is None else moves(state)), None


def child_entry(
    tree: OnDemandTree,
    tag: int,
    player: str | None,
    child: Any,
    answers: tuple[Any, ...],
    depth: Any,
) -> Any:
    """The key of the entry of ``child``, a child state of an entry tagged ``tag`` whose
    state's ``player`` moves, from the child's own ``answers`` (who moves there, its moves)
    given rather than asked and kept: ``GameTree._entry``'s, for a playout, which keeps no
    state."""
    if not tree.game.has_player:
        return (DECIDE, child, depth)
    expected = OTHER_PLAYER.get(player, MAX) if tag == DECIDE else EXPECTED_MOVER[tag]  # type: ignore[arg-type]
    if answers[0] == CHANCE:
        return (CHANCE_TAGS[expected], child, depth)
    if answers[0] == expected or not answers[1]:
        return (DECIDE, child, depth)
    return (FORCED, child, depth)
