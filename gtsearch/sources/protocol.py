"""The game protocol: a game's answers, asked of its code and checked (docs/sources.md, "Games").

A game is an object with ``initial()``, ``moves(state)``, ``play(state, move)``
and ``utility(state)``, and optionally ``player(state)`` (who is to move:
``"max"``, ``"min"`` or ``"chance"``, None at the end), ``outcomes(state)``
(a chance state's moves with their probabilities), ``label(state, move)``,
``estimate(state)``, ``render(state)`` and ``root``.  :class:`Game` asks each
question through one checked call: an exception raised by the game's code is
reported on one line naming the method and the place in the user's file, and
an answer that breaks the protocol (a probability that is not a number, odds
that do not add up to 1, a state that cannot be a key, a name holding a
newline) on one line naming the method and where it is defined.  This module
is the boundary with code that is not ours, the one place that catches every
exception of a call: BaseException too (``sys.exit()``, GeneratorExit,
StopIteration, RecursionError, MemoryError), all but KeyboardInterrupt, which
stays ^C (:func:`caught`).
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import re
import traceback
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from ..errors import GtsearchError, clipped, shown
from ..numbers import MAX_EXACT_INT, exact, format_probability

MAX, MIN, CHANCE = "max", "min", "chance"
#: the name of the move of a player who has no choice but to let the other move again
PASS = "pass"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class GameError(GtsearchError):
    """The game's code raised, or broke the protocol (docs/sources.md)."""


#: characters a move's name may not hold: it is printed on one line (the PV, CSV, a drawing)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def ours(err: BaseException) -> bool:
    """Whether ``err`` is not the user's to see as a game's error: ^C (exit status 130) and the
    errors gtsearch words itself."""
    return isinstance(err, (KeyboardInterrupt, GtsearchError))


def described(obj: Any, limit: int = 60) -> str:
    """``repr(obj)`` of a value a game gave, for a message: shortened, and never raising (the
    object's own ``__repr__`` is the user's code)."""
    try:
        return shown(obj, limit)
    except KeyboardInterrupt:
        raise
    except BaseException:  # the user's __repr__: any failure is theirs
        return f"<a {type(obj).__name__} whose repr() raised>"


def said(err: BaseException, limit: int = 200) -> str:
    """What an exception of the user's code says, ``: message`` (nothing when it says nothing),
    on one line and shortened; its ``__str__`` is the user's code too."""
    try:
        text = str(err)
    except KeyboardInterrupt:
        raise
    except BaseException:  # the user's __str__
        return ""
    text = " ".join(text.split())
    return f": {clipped(text, limit)}" if text else ""


def place(err: BaseException) -> str:
    """file:line of the innermost frame of the traceback outside gtsearch."""
    frames = [f for f in _frames(err) if f.filename]
    for frame in reversed(frames):
        if not os.path.abspath(frame.filename).startswith(_PACKAGE + os.sep):
            return f"{frame.filename}:{frame.lineno}"
    last = frames[-1] if frames else None
    return f"{last.filename}:{last.lineno}" if last else "?"


def _frames(err: BaseException) -> list[traceback.FrameSummary]:
    # the lines of the files are not read: a file may be gone, huge, or not text
    return list(
        traceback.StackSummary.extract(traceback.walk_tb(err.__traceback__), lookup_lines=False)
    )


def caught(err: BaseException, what: str) -> BaseException:
    """The exception to raise for ``err``, raised by the user's code while it ``what`` (``moves()
    raised``, ``importing takeaway raised``): ``err`` itself when it is :func:`ours`, else one
    line naming the exception, what it said and the place in the user's file (a MemoryError:
    out of memory, and where)."""
    if ours(err):
        return err
    if isinstance(err, MemoryError):
        return GameError(f"{what.rsplit(' ', 1)[0]} ran out of memory ({place(err)})")
    return GameError(f"{what} {type(err).__name__}{said(err)} ({place(err)})")


def defined_at(function: Any) -> str:
    """file:line where a method of the game is defined ('?' for one that is not Python's)."""
    try:
        code = getattr(inspect.unwrap(getattr(function, "__func__", function)), "__code__", None)
    except KeyboardInterrupt:
        raise
    except BaseException:  # the user's __getattr__ on a callable of theirs
        return "?"
    if code is None:
        return "?"
    return f"{code.co_filename}:{code.co_firstlineno}"


@functools.lru_cache(maxsize=4096)
def simplest_fraction(x: float) -> Fraction:
    """The fraction of least denominator that rounds to the float ``x`` (``1/6`` for
    0.16666666666666666, ``1/10`` for 0.1): how a probability given as a float is read.
    Remembered (a game gives the same few probabilities at every chance state)."""
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
            if not callable(self.attribute(method)):
                raise GameError(f"{name}: the game has no method {method}(); docs/sources.md")
        self.has_label = callable(self.attribute("label"))
        self.has_estimate = callable(self.attribute("estimate"))
        self.has_render = callable(self.attribute("render"))
        #: whether the game says who moves (player()), else the players alternate
        self.has_player = callable(self.attribute("player"))
        root = self.attribute("root")
        if root is not None and self.has_player:
            raise GameError(
                f"{name}: root and player() both say who moves first; drop root "
                f"({defined_at(obj.player)})"
            )
        if not (type(root) is str and root in (MAX, MIN)) and root is not None:
            raise GameError(f"{name}: root must be 'max' or 'min', got {described(root)}")
        self.root_max = root != MIN
        #: built-in games' names are the moves so far (tic-tac-toe: "5", "51", ...)
        self.cumulative = self.attribute("cumulative_labels") is True
        self.root_label: str | None = self.text_attribute("root_label")
        self.title: str | None = self.text_attribute("title")
        #: built-in games are trusted to give distinct labels (checked by the tests)
        self.trusted = self.attribute("trusted") is True
        #: the least and the greatest utility (``bounds``), checked; None when not given
        self.bounds = self.check_bounds(self.attribute("bounds"))
        #: the probabilities of a chance state's outcomes, as given (each with its type) ->
        #: their weights, for the lists already checked (:meth:`outcomes`)
        self.weighed: dict[tuple[tuple[type, Any], ...], tuple[int, ...] | tuple[float, ...]] = {}

    def attribute(self, name: str) -> Any:
        """The game's attribute ``name``, None when it has none (its ``__getattr__`` is the
        user's code: what it raises is reported as any call's exception)."""
        try:
            return getattr(self.obj, name, None)
        except BaseException as e:  # the user's __getattr__ or property
            raise caught(e, f"{self.name}: reading the game's {name} raised") from None

    def text_attribute(self, name: str) -> str | None:
        """An attribute that must be one line of text (``title``, ``root_label``), or None."""
        value = self.attribute(name)
        if value is None or (type(value) is str and not _CONTROL.search(value)):
            return value
        raise GameError(
            f"{self.name}: {name} must be one line of text (a str without control characters), "
            f"got {described(value)}"
        )

    def check_bounds(self, bounds: Any) -> tuple[int | float, int | float] | None:
        """``bounds``: two numbers as utilities are (finite, integers within ±2**53), least
        first; one line saying what is wrong, else."""
        if bounds is None:
            return None
        ok = type(bounds) in (tuple, list) and len(bounds) == 2
        if ok:
            lo, hi = bounds
            ok = all(
                type(b) is float and math.isfinite(b) or type(b) is int and abs(b) <= MAX_EXACT_INT
                for b in (lo, hi)
            )
            if ok and not lo <= hi:
                raise GameError(
                    f"{self.name}: bounds must be (least, greatest) utility, the least first, "
                    f"got {described(bounds)}"
                )
        if not ok:
            raise GameError(
                f"{self.name}: bounds must be (least, greatest) utility, two finite numbers "
                f"(integers within ±2**53), got {described(bounds)}"
            )
        return bounds[0], bounds[1]

    # -- calls ---------------------------------------------------------------------------------
    def call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.obj, method)(*args)
        except BaseException as e:  # the user's code: theirs to see, on one line
            raise self.error(method, e) from None

    def error(self, method: str, e: BaseException) -> BaseException:
        """What to raise for an exception of the game's ``method``: one line naming it, what it
        said and the place (^C and gtsearch's own errors as they are: :func:`caught`)."""
        return caught(e, f"{self.name}: {method}() raised")

    def broken(self, method: str, what: str) -> GameError:
        """The one line that reports an answer of ``method`` that breaks the protocol."""
        return GameError(f"{self.name}: {method}() {what} ({defined_at(self.attribute(method))})")

    def number(self, method: str, state: Any) -> int | float:
        v = self.call(method, state)
        # a subclass (numpy.float64, an IntEnum) as the plain number, none of its own code run
        if isinstance(v, int) and not isinstance(v, bool):
            v = int.__int__(v)
        elif isinstance(v, float):
            v = float.__float__(v)
        if type(v) is int:
            if -MAX_EXACT_INT <= v <= MAX_EXACT_INT:
                return v
            # within ±2**128 the digits as they are; beyond, how long it is (10**400 has 1,329 bits)
            text = str(v) if v.bit_length() <= 128 else f"an integer of {v.bit_length():,} bits"
            raise self.broken(method, f"returned {text}, beyond 2**53")
        if type(v) is float and math.isfinite(v):
            return v
        raise self.broken(method, f"must return a finite number, got {described(v)}")

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
        except BaseException as e:  # the state's own __hash__ or __eq__ raised
            raise self.error(method, e) from None
        if not same:
            raise self.broken(
                method, f"gave a state that is not equal to itself: {described(state)}"
            )
        return state

    def sequence(self, method: str, moves: Any) -> tuple[Any, ...]:
        if type(moves) is not list and type(moves) is not tuple:
            if not isinstance(moves, Sequence) or isinstance(moves, (str, bytes)):
                raise self.broken(
                    method,
                    "must return a sequence (a list or a tuple), got " + type(moves).__name__,
                )
            try:  # the user's own sequence: its __len__, __getitem__ and __iter__ are theirs
                return tuple(moves)
            except BaseException as e:
                if ours(e):
                    raise
                what = (
                    "more items than memory holds"
                    if isinstance(e, MemoryError)
                    else f"items that cannot be read: {type(e).__name__}{said(e)}"
                )
                raise self.broken(
                    method, f"gave a sequence of {what}, {described(moves)}"
                ) from None
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
        for pair in pairs:
            if type(pair) not in (tuple, list) or len(pair) != 2:
                raise self.broken(
                    "outcomes", f"must give (move, probability) pairs, got {described(pair)}"
                )
        given = tuple((type(pair[1]), pair[1]) for pair in pairs)
        if all(kind in (int, float, Fraction) for kind, _ in given):  # hashable, and plain
            known = self.weighed.get(given)
            if known is not None:  # the same probabilities as a state checked before
                return tuple(pair[0] for pair in pairs), known
        moves, weights = self.checked_outcomes(pairs)
        if len(self.weighed) < 4096 and all(kind in (int, float, Fraction) for kind, _ in given):
            self.weighed[given] = weights  # a few lists are common; each list once
        return moves, weights

    def checked_outcomes(
        self, pairs: Sequence[Any]
    ) -> tuple[tuple[Any, ...], tuple[int, ...] | tuple[float, ...]]:
        """(move, probability) pairs checked: each probability a number from 0 to 1 and all of
        them adding up to 1 exactly; the moves and their weights."""
        moves, probs = [], []
        for pair in pairs:
            p = probability(pair[1])
            if p is None or p < 0:
                raise self.broken(
                    "outcomes",
                    f"gave the move {described(pair[0])} the probability {described(pair[1])}: "
                    "a probability is a number from 0 to 1 (an int, a Fraction or a float)",
                )
            moves.append(pair[0])
            probs.append(p)
        if not moves:
            raise self.broken("outcomes", "gave no outcome at a chance state")
        total = sum(probs, Fraction(0))
        if total != 1:
            shown_probs = ", ".join(format_probability(p) for p in probs[:8])
            raise self.broken(
                "outcomes",
                f"gave probabilities that add up to {format_probability(total)}, not 1: "
                + shown_probs
                + (f", ... ({len(probs)} of them)" if len(probs) > 8 else ""),
            )
        return tuple(moves), integer_weights(probs)

    def chance_weights(self, probs: tuple[Any, ...]) -> tuple[tuple[int, ...], int] | None:
        """A chance state's probabilities (as the game gives them) as the searches of chance
        nodes read them (chance.ListedRun.weighed): each over their least common denominator,
        and that denominator; None beyond 2**62 (the compiled core's exact values,
        search_objects.c).  Checked as :meth:`outcomes` checks them (one line, raised)."""
        _, weights = self.checked_outcomes(list(enumerate(probs)))
        ws = [Fraction(exact(w)) for w in weights]
        total = sum(ws, Fraction(0))
        ps = [w / total for w in ws]
        scale = math.lcm(*(p.denominator for p in ps))
        scaled = tuple(int(p * scale) for p in ps)
        if scale > 2**62 or max(scaled) > 2**62:
            return None
        return scaled, scale

    def label(self, state: Any, move: Any) -> str:
        label = self.call("label", state, move)
        if not isinstance(label, str):
            raise self.broken("label", f"must return a str, got {described(label)}")
        label = str.__str__(label)  # a subclass as the plain str: its __eq__ is not ours to run
        if _CONTROL.search(label):
            raise self.broken(
                "label",
                f"gave the move {described(move)} the name {described(label)}, which holds a "
                "control character (a newline, a tab, NUL...): a move's name is one line",
            )
        return label

    def labels(self, state: Any, moves: Sequence[Any]) -> tuple[str, ...]:
        """The names of a state's moves, each checked (:meth:`label`), and distinct among
        them (built-in games are trusted to give distinct names): asked only where a name
        is used (a PV, a drawing, --moves, play), never as a search expands a state."""
        labels = tuple([self.label(state, m) for m in moves])
        if not self.trusted and len(set(labels)) != len(labels):
            twice = next(x for i, x in enumerate(labels) if x in labels[:i])
            raise self.broken("label", f"gives two moves the same name: {described(twice)}")
        return labels

    def render(self, state: Any) -> str | None:
        """The position drawn as text, or None when the game does not draw."""
        if not self.has_render:
            return None
        text = self.call("render", state)
        if not isinstance(text, str):
            raise self.broken("render", f"must return a str, got {type(text).__name__}")
        return text
