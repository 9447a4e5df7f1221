"""numbers.py: parse option values, print values as written, compare a bound with an expectation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gtsearch.numbers import agrees, format_number, fraction_text, parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("-4", -4),
        ("+7", 7),
        (" 12 ", 12),
        ("1_000", 1000),
        ("2.5", 2.5),
        ("-0.5", -0.5),
        ("1e3", 1000.0),
        ("3.0", 3.0),
        (".5", 0.5),
    ],
)
def test_parse_number(text: str, value: float) -> None:
    parsed = parse_number(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(
    "text", ["", "abc", "3x", "inf", "-inf", "Infinity", "nan", "1e999", "0x10", "1,5"]
)
def test_parse_number_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="number"):
        parse_number(text)


@given(st.integers() | st.floats(allow_nan=False, allow_infinity=False))
def test_parse_format_round_trip(v: float) -> None:
    back = parse_number(format_number(v))
    assert back == v and type(back) is type(v)


def test_format_number() -> None:
    assert [format_number(v) for v in (3, 2.5, 3.0, -0.0, 10**20)] == [
        "3",
        "2.5",
        "3.0",
        "-0.0",
        "100000000000000000000",
    ]


def test_agrees() -> None:
    assert agrees(3, None, 3) and agrees(3, None, 3.0) and not agrees(3, None, 4)
    assert agrees(3, "lower", 3) and agrees(3, "lower", 7) and not agrees(3, "lower", 2.5)
    assert agrees(4, "upper", 4) and agrees(4, "upper", -1) and not agrees(4, "upper", 5)
    with pytest.raises(ValueError):
        agrees(1, "sideways", 1)


def test_exact_values_as_text() -> None:
    assert fraction_text(Fraction(4, 2)) == "2" and fraction_text(7) == "7"
    assert fraction_text(Fraction(13, 3)) == "13/3"


def test_probabilities_print_short() -> None:
    """p/q when short; about four significant digits when the fraction would be long."""
    from fractions import Fraction

    from gtsearch.numbers import format_probability

    cases = {
        Fraction(1, 6): "1/6",
        Fraction(1, 10**6): "1/1000000",
        Fraction(1, 10**300): "≈1e-300",
        1 - Fraction(1, 10**300): "≈1",
        Fraction(123456789, 1000000007): "≈0.1235",
        1: "1",
    }
    assert {q: format_probability(q) for q in cases} == cases
