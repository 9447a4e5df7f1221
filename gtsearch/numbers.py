"""Numbers as users type them and as gtsearch prints them: parse, format, compare with a bound."""

from __future__ import annotations

import math
import re
from typing import Union

Number = Union[int, float]

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


def agrees(value: Number, bound: str | None, expected: Number) -> bool:
    """Whether a result (``value``, exact or a ``"lower"``/``"upper"`` bound) allows ``expected``."""
    if bound is None:
        return value == expected
    if bound == "lower":
        return expected >= value
    if bound == "upper":
        return expected <= value
    raise ValueError(f"unknown bound kind {bound!r}")
