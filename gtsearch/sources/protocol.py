"""The game protocol: a game's answers, asked of its code and checked (docs/sources.md, "Games").

A game is an object with ``initial()``, ``moves(state)``, ``play(state, move)``
and ``utility(state)``, and optionally ``player(state)`` (who is to move:
``"max"``, ``"min"`` or ``"chance"``, None at the end), ``outcomes(state)``
(a chance state's moves with their probabilities), ``label(state, move)``,
``estimate(state)``, ``render(state)`` and ``root``.  :class:`Game` asks each
question through one checked call: an exception raised by the game's code is
reported on one line naming the method and the place in the user's file, and
an answer that breaks the protocol (a probability that is not a number, odds
that do not add up to 1, a state that cannot be a key) on one line naming the
method and where it is defined.  This module is the boundary with code that
is not ours, the one place that catches every exception of a call.
"""

from __future__ import annotations

import inspect
import math
import os
import traceback
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from ..errors import GtsearchError, shown
from ..numbers import MAX_EXACT_INT

MAX, MIN, CHANCE = "max", "min", "chance"
#: the name of the move of a player who has no choice but to let the other move again
PASS = "pass"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class GameError(GtsearchError):
    """The game's code raised, or broke the protocol (docs/sources.md)."""


def place(err: BaseException) -> str:
    """file:line of the innermost frame of the traceback outside gtsearch."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename]
    for frame in reversed(frames):
        if not os.path.abspath(frame.filename).startswith(_PACKAGE + os.sep):
            return f"{frame.filename}:{frame.lineno}"
    last = frames[-1] if frames else None
    return f"{last.filename}:{last.lineno}" if last else "?"


def defined_at(function: Any) -> str:
    """file:line where a method of the game is defined ('?' for one that is not Python's)."""
    code = getattr(inspect.unwrap(getattr(function, "__func__", function)), "__code__", None)
    if code is None:
        return "?"
    return f"{code.co_filename}:{code.co_firstlineno}"


def simplest_fraction(x: float) -> Fraction:
    """The fraction of least denominator that rounds to the float ``x`` (``1/6`` for
    0.16666666666666666, ``1/10`` for 0.1): how a probability given as a float is read."""
    if x == 0 or not math.isfinite(x):
        return Fraction(x)
    lo = (Fraction(x) + Fraction(math.nextafter(x, -math.inf))) / 2
    hi = (Fraction(x) + Fraction(math.nextafter(x, math.inf))) / 2
    # continued fractions of the interval's ends, as far as they agree (Stern and Brocot)
    terms: list[int] = []
    while True:
        whole = lo.numerator // lo.denominator
        if whole != lo and whole + 1 <= hi:  # an integer lies in (lo, hi]: the simplest there
            terms.append(whole + 1)
            break
        terms.append(whole)
        if whole == lo:
            break
        lo, hi = 1 / (hi - whole), 1 / (lo - whole)
    q = Fraction(terms.pop())
    for term in reversed(terms):
        q = term + 1 / q
    return q if float(q) == x else Fraction(x)


def probability(p: Any) -> Fraction | None:
    """A probability as the protocol reads it: an int or a Fraction as itself, a float as its
    :func:`simplest_fraction`; None when ``p`` is not a number at all."""
    if isinstance(p, bool) or not isinstance(p, (int, float, Fraction)):
        return None
    if isinstance(p, float):
        return simplest_fraction(p) if math.isfinite(p) else None
    return Fraction(p)


def integer_weights(probs: Sequence[Fraction]) -> tuple[int, ...] | tuple[float, ...]:
    """Exact probabilities as a chance node's weights: the least integers of the same
    proportions (1/6 six times: six 1s), or the floats themselves beyond ±2**53."""
    scale = math.lcm(*(q.denominator for q in probs))
    ints = [int(q * scale) for q in probs]
    common = math.gcd(*ints) or 1
    if max(ints) // common > MAX_EXACT_INT:
        return tuple(float(q) for q in probs)
    return tuple(x // common for x in ints)


class Game:
    """A game object behind the protocol's calls, every call checked."""

    def __init__(self, obj: Any, name: str) -> None:
        self.obj = obj
        self.name = name
        for method in ("initial", "moves", "play", "utility"):
            if not callable(getattr(obj, method, None)):
                raise GameError(f"{name}: the game has no method {method}(); docs/sources.md")
        self.has_label = callable(getattr(obj, "label", None))
        self.has_estimate = callable(getattr(obj, "estimate", None))
        self.has_render = callable(getattr(obj, "render", None))
        #: whether the game says who moves (player()), else the players alternate
        self.has_player = callable(getattr(obj, "player", None))
        root = getattr(obj, "root", None)
        if root is not None and self.has_player:
            raise GameError(
                f"{name}: root and player() both say who moves first; drop root "
                f"({defined_at(obj.player)})"
            )
        if root not in (None, MAX, MIN):
            raise GameError(f"{name}: root must be 'max' or 'min', got {shown(str(root))}")
        self.root_max = root != MIN
        #: built-in games' names are the moves so far (tic-tac-toe: "5", "51", ...)
        self.cumulative = bool(getattr(obj, "cumulative_labels", False))
        self.root_label: str | None = getattr(obj, "root_label", None)
        self.title: str | None = getattr(obj, "title", None)
        #: built-in games are trusted to give distinct labels (checked by the tests)
        self.trusted = bool(getattr(obj, "trusted", False))

    # -- calls ---------------------------------------------------------------------------------
    def call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.obj, method)(*args)
        except GtsearchError:
            raise
        except Exception as e:  # the user's code: any exception is theirs to see, on one line
            raise self.error(method, e) from None

    def error(self, method: str, e: Exception) -> GameError:
        """The one line that reports an exception of the game's ``method``."""
        return GameError(f"{self.name}: {method}() raised {type(e).__name__}: {e} ({place(e)})")

    def broken(self, method: str, what: str) -> GameError:
        """The one line that reports an answer of ``method`` that breaks the protocol."""
        return GameError(
            f"{self.name}: {method}() {what} ({defined_at(getattr(self.obj, method))})"
        )

    def number(self, method: str, state: Any) -> int | float:
        v = self.call(method, state)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.broken(method, f"must return a finite number, got {v!r}")
        if isinstance(v, int) and abs(v) > MAX_EXACT_INT:
            raise self.broken(method, f"returned {v}, beyond 2**53")
        return v

    def key(self, state: Any, method: str) -> Any:
        """``state`` checked as a key of the states' table (hashable, equal to itself)."""
        if not isinstance(state, Hashable):
            raise self.broken(
                method,
                "gave a state that cannot be a key: states must be hashable (tuples, not "
                f"lists), got {type(state).__name__}",
            )
        try:
            same = hash(state) == hash(state) and bool(state == state)
        except Exception as e:  # the state's own __hash__ or __eq__ raised
            raise self.error(method, e) from None
        if not same:
            raise self.broken(method, f"gave a state that is not equal to itself: {state!r}")
        return state

    def sequence(self, method: str, moves: Any) -> tuple[Any, ...]:
        if type(moves) is not list and type(moves) is not tuple:
            if not isinstance(moves, Sequence) or isinstance(moves, (str, bytes)):
                raise self.broken(
                    method,
                    "must return a sequence (a list or a tuple), got " + type(moves).__name__,
                )
        return tuple(moves)

    def moves(self, state: Any) -> tuple[Any, ...]:
        return self.sequence("moves", self.call("moves", state))

    def player(self, state: Any) -> str | None:
        """Who is to move: MAX, MIN, CHANCE, or None where the game is over."""
        who = self.call("player", state)
        if who not in (MAX, MIN, CHANCE, None):
            raise self.broken("player", f"must return 'max', 'min', 'chance' or None, got {who!r}")
        return who  # type: ignore[no-any-return]

    def outcomes(self, state: Any) -> tuple[tuple[Any, ...], tuple[int, ...] | tuple[float, ...]]:
        """A chance state's moves and their weights, the probabilities checked exactly."""
        if not callable(getattr(self.obj, "outcomes", None)):
            raise self.broken("player", "said 'chance' but the game has no method outcomes()")
        pairs = self.sequence("outcomes", self.call("outcomes", state))
        moves, probs = [], []
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise self.broken("outcomes", f"must give (move, probability) pairs, got {pair!r}")
            p = probability(pair[1])
            if p is None or p < 0:
                raise self.broken(
                    "outcomes",
                    f"gave the move {pair[0]!r} the probability {pair[1]!r}: a probability is "
                    "a number from 0 to 1 (an int, a Fraction or a float)",
                )
            moves.append(pair[0])
            probs.append(p)
        if not moves:
            raise self.broken("outcomes", "gave no outcome at a chance state")
        total = sum(probs, Fraction(0))
        if total != 1:
            raise self.broken(
                "outcomes",
                f"gave probabilities that add up to {total}, not 1: "
                + ", ".join(str(p) for p in probs),
            )
        return tuple(moves), integer_weights(probs)

    def label(self, state: Any, move: Any) -> str:
        label = self.call("label", state, move)
        if not isinstance(label, str):
            raise self.broken("label", f"must return a str, got {label!r}")
        return label

    def check_labels(self, state: Any, moves: Sequence[Any]) -> None:
        """Sibling moves must have distinct names (built-in games are trusted)."""
        if self.has_label and moves and not self.trusted:
            labels = [self.label(state, m) for m in moves]
            if len(set(labels)) != len(labels):
                raise self.broken("label", f"gives two moves the same name: {labels}")

    def render(self, state: Any) -> str | None:
        """The position drawn as text, or None when the game does not draw."""
        if not self.has_render:
            return None
        text = self.call("render", state)
        if not isinstance(text, str):
            raise self.broken("render", f"must return a str, got {type(text).__name__}")
        return text
