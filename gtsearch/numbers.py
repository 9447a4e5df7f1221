"""Numbers: the one ``Number`` type, the ±2**53 rule, parsing and printing values as written.

Owns every rule about a single number, wherever it comes from (a tree file,
a command-line option, a library call): integers stay exact only within
±2**53 (the range a float64 holds exactly), values are finite, and a value
prints as the user wrote it (3 stays 3, 2.5 stays 2.5, 3.0 stays 3.0).
Imports nothing of gtsearch but :mod:`gtsearch.errors`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from .errors import shown

Number = int | float

INF = float("inf")
#: integers beyond this (in absolute value) would not survive the float64 arrays exactly
MAX_EXACT_INT = 2**53

_INT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")


def parse_number(text: str) -> Number:
    """An int when ``text`` has integer syntax, else a finite float.

    Raises ValueError with a message that quotes the text.
    """
    s = text.strip()
    if _INT.fullmatch(s):
        return int(s)
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{text!r} is not a finite number")
    return v


def format_number(v: Number) -> str:
    """A value as the file wrote it: 3 stays 3, 2.5 stays 2.5, 3.0 stays 3.0."""
    return repr(v) if isinstance(v, float) else str(v)


def format_bounded(value: Number, bound: str | None) -> str:
    """A value with ``≥``/``≤`` in front when it is only a ``"lower"``/``"upper"`` bound."""
    prefix = {"lower": "≥ ", "upper": "≤ "}.get(bound or "", "")
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


def agrees(value: Number, bound: str | None, expected: Number) -> bool:
    """Whether a result (``value``, exact or a ``"lower"``/``"upper"`` bound) allows ``expected``."""
    if bound is None:
        return value == expected
    if bound == "lower":
        return expected >= value
    if bound == "upper":
        return expected <= value
    raise ValueError(f"unknown bound kind {bound!r}")
