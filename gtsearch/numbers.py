"""Numbers: the one ``Number`` type, the ±2**53 rule, parsing and printing values as written.

Owns every rule about a single number, wherever it comes from (a tree file,
a command-line option, a library call): integers stay exact only within
±2**53 (the range a float64 holds exactly), values are finite, and a value
prints as the user wrote it (3 stays 3, 2.5 stays 2.5, 3.0 stays 3.0).
Exact values (chance nodes average their children) are rationals: an int
stays itself and a float counts as the decimal it prints as (:func:`exact`:
0.1 is 1/10, 2.5 is 5/2), so no float drift can change a value or a cutoff.
Imports nothing of gtsearch but :mod:`gtsearch.errors`, and :mod:`fractions` (with the
:mod:`decimal` it imports) only when a value is made exact: a search of integers, the
start-up of a small ``eval``, needs neither (:func:`is_fraction`).
"""

from __future__ import annotations

import math
import re
import sys
from typing import TYPE_CHECKING, Any, TypeAlias, TypeGuard

from .errors import shown

if TYPE_CHECKING:
    from fractions import Fraction

Number = int | float
#: an exact value: an int, or a Fraction where it is not an integer
Exact: TypeAlias = "int | Fraction"

INF = float("inf")
#: integers beyond this (in absolute value) would not survive the float64 arrays exactly
MAX_EXACT_INT = 2**53
#: the greatest count the compiled core holds (a signed 64-bit integer): every integer option
#: (iterations, --depth, --max-nodes, -b, ...) is at most this (docs/commands.md)
MAX_COUNT = 2**63 - 1
#: how messages write MAX_COUNT
MAX_COUNT_TEXT = "2**63 - 1"

#: an integer as int() reads it (compiled on first use, into re's cache: not at start-up)
_INT = r"[+-]?[0-9]+(?:_[0-9]+)*"


def parse_number(text: str) -> Number:
    """An int when ``text`` has integer syntax, else a finite float.

    Raises ValueError with a message that quotes the text.
    """
    s = text.strip()
    if re.fullmatch(_INT, s):
        return int(s)
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{text!r} is not a finite number")
    return v


def is_fraction(v: object) -> TypeGuard[Fraction]:
    """Whether ``v`` is a Fraction, without importing :mod:`fractions`: before that module is
    imported, no value is one."""
    fractions = sys.modules.get("fractions")
    return fractions is not None and isinstance(v, fractions.Fraction)


def format_number(v: Number | Fraction) -> str:
    """A value as the file wrote it: 3 stays 3, 2.5 stays 2.5, 3.0 stays 3.0 (exact ones: 7/3)."""
    if is_fraction(v):
        return format_exact(v)
    return repr(v) if isinstance(v, float) else str(v)


def exact(v: Number | Fraction) -> Exact:
    """A value as an exact rational: an int as itself, a float as the decimal it prints as.

    ``exact(0.1) == Fraction(1, 10)``, ``exact(2.5) == Fraction(5, 2)``, ``exact(3) == 3``.
    """
    if isinstance(v, float):
        from fractions import Fraction

        q = Fraction(repr(v))
        return q.numerator if q.denominator == 1 else q
    if is_fraction(v):
        return v.numerator if v.denominator == 1 else v
    return v


def format_exact(q: Exact) -> str:
    """An exact value for people: ``3``; ``2.5`` or ``0.1`` when a float prints it exactly; else ``7/3``."""
    if isinstance(q, int) or q.denominator == 1:
        return str(int(q))
    from fractions import Fraction

    f = float(q)
    text = repr(f)
    if Fraction(text) == q:
        return text
    return f"{q.numerator}/{q.denominator}"


def fraction_text(q: Exact) -> str:
    """An exact value as ``p/q`` (``value_exact`` in JSON), or the integer."""
    if isinstance(q, int) or q.denominator == 1:
        return str(int(q))
    return f"{q.numerator}/{q.denominator}"


#: the longest ``p/q`` a probability prints as; a longer one prints as a decimal
PROBABILITY_TEXT = 12


def format_probability(q: Exact) -> str:
    """A probability for people: ``p/q`` when short (``1/6``, ``8/27``, ``1/1000000``), else
    about four significant digits (``≈1e-300``, ``≈0.3333``), never a fraction of hundreds of
    digits (a float probability of 1e-300 is the fraction 1/10**300 exactly)."""
    text = fraction_text(q)
    if len(text) <= PROBABILITY_TEXT:
        return text
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 4
        near = Decimal(q.numerator) / Decimal(q.denominator)
    return f"≈{near.normalize():g}"


def nearest(q: Exact) -> Number:
    """An exact value as a JSON number: the int when integral, else the nearest float."""
    if isinstance(q, int):
        return q
    return q.numerator if q.denominator == 1 else float(q)


#: what a value's kind puts in front of it: a bound's side, or an estimate's ≈
BOUND_PREFIX = {"lower": "≥ ", "upper": "≤ ", "estimate": "≈ "}


def format_bounded(value: Number, bound: str | None) -> str:
    """A value with ``≥``/``≤`` in front when it is only a ``"lower"``/``"upper"`` bound, ``≈``
    when it is an ``"estimate"`` (MCTS's)."""
    prefix = BOUND_PREFIX.get(bound or "", "")
    return prefix + format_number(value)


def format_stored(v: float, is_float: int) -> str:
    """A value kept as float64 in a tree, printed as written: ints as ints, floats with repr()."""
    return repr(v) if is_float else str(int(v))


def too_large(text: str, what: str = "value") -> str:
    """The message for an integer outside ±2**53 (``text`` as written, shortened when long)."""
    if len(text) > 40:
        text = f"{text[:12]}... ({len(text):,} characters)"
    return f"{what} {text} is too large: integers must lie within ±2**53 to stay exact"


def check_number(v: Any, what: str = "value") -> tuple[float, bool]:
    """Check a parsed value; return it as a float and whether it was a float.

    Raises ValueError with a message (the caller adds the place).
    """
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if v is None:
            raise ValueError(f"{what} is null, expected a number")
        if isinstance(v, bool):
            raise ValueError(f"{what} {str(v).lower()!s} is a boolean, expected a number")
        raise ValueError(f"{what} {shown(v)} is not a number")
    if isinstance(v, int):
        if -MAX_EXACT_INT <= v <= MAX_EXACT_INT:
            return float(v), False
        # str() of an integer past 4,300 digits raises; such a number is described instead
        text = str(v) if v.bit_length() < 14_000 else f"<an integer of {v.bit_length():,} bits>"
        raise ValueError(too_large(text, what))
    if not math.isfinite(v):
        raise ValueError(f"{what} {v!r} is not a finite number")
    return v, True


def agrees(value: Number | Fraction, bound: str | None, expected: Number | Fraction) -> bool:
    """Whether a result (``value``, exact or a ``"lower"``/``"upper"`` bound) allows ``expected``.

    An ``"estimate"`` (MCTS's) proves nothing, so it contradicts no value.
    """
    if bound == "estimate":
        return True
    if bound is None:
        return value == expected
    if bound == "lower":
        return expected >= value
    if bound == "upper":
        return expected <= value
    raise ValueError(f"unknown bound kind {bound!r}")
