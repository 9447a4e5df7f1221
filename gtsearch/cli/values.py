"""The values options take: click parameter types that parse and check them, one line when wrong.

Every number an option takes is checked here as the command line is read,
and a bad one is one line that names the option, says what it takes and
quotes what it got, as the library's own checks read (``--branching must be 1
or more, got 0``): ``OPTION takes WHAT, got 'TEXT'`` for what is not a number
of that kind, ``OPTION must be RANGE, got VALUE`` for one out of range, and
for an integer beyond ±2**53 the words of a file's leaves
(:func:`gtsearch.numbers.too_large`).  The error is a
:class:`gtsearch.errors.UsageError`, which the group reports as every error
(exit status 2, no usage lines); docs/commands.md, "What the commands share".
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..errors import UsageError, clipped, shown
from ..numbers import MAX_COUNT, MAX_COUNT_TEXT, MAX_EXACT_INT, Number, parse_number, too_large

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

_DIGITS = r"[+-]?[0-9]+"  # compiled on first use, not at start-up
N = TypeVar("N", int, float)


def option_name(param: click.Parameter | None) -> str:
    """How a message names an option: by its long name (``--branching``, not ``-b``)."""
    names = param.opts if param is not None else []
    return max(names, key=len) if names else "the value"


def refuse(param: click.Parameter | None, rule: str, got: str) -> NoReturn:
    """Refuse an option's value: ``{option} {rule}, got {got}`` (``got`` as the user typed it).

    ``rule`` says what the option takes (``takes an integer 0 or more``) or
    which of its values are allowed (``must be 0 or more``), as the library's
    checks say it (``--branching must be 1 or more, got 0``).
    """
    raise UsageError(f"{option_name(param)} {rule}, got {got}")


def check_exact(value: N, param: click.Parameter | None) -> N:
    """Refuse an integer beyond ±2**53, which leaves and parameters cannot hold exactly, in the
    words every reader and search() use (:func:`gtsearch.numbers.too_large`)."""
    if isinstance(value, int) and not -MAX_EXACT_INT <= value <= MAX_EXACT_INT:
        raise UsageError(too_large(str(value), option_name(param)))
    return value


def to_number(text: str, param: click.Parameter | None, rule: str, got: str) -> Number:
    """``text`` as a number a leaf could hold (an int when written as one, else a finite float)."""
    try:
        value = parse_number(text)
    except ValueError:
        if re.fullmatch(_DIGITS, text.strip()):  # beyond what int() converts: 4,300 digits
            raise UsageError(too_large(text.strip(), option_name(param))) from None
        refuse(param, rule, shown(got))
    return check_exact(value, param)


class NumberParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """A number as a leaf holds one: ``3`` an int (within ±2**53), ``2.5`` a finite float."""

    name = "number"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Number:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return check_exact(value, param)
        text = str(value)
        return to_number(text, param, "takes a finite number such as 3 or -2.5", text)


NUMBER = NumberParam()


class Bounded:
    """click's IntRange and FloatRange, with one-line errors; --help shows the range as click does."""

    min: Any
    max: Any
    #: what the option takes, before its range: "an integer", "a number"
    kind = "a number"
    parse: Callable[[str], Number] = float

    def span(self) -> str:
        """The allowed values: ``1 or more``, ``from 0 to 1``, "" (any); a count's end, 2**63 - 1,
        goes without saying (:meth:`convert` says it of a number beyond it)."""
        low, high = (f"{b:g}" if isinstance(b, float) else b for b in (self.min, self.max))
        if self.max == MAX_COUNT and not isinstance(self.max, float):
            return "" if self.min is None else f"{low} or more"
        if self.min is not None and self.max is not None:
            return f"from {low} to {high}"
        if self.min is not None:
            return f"{low} or more"
        return "" if self.max is None else f"at most {high}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        text = str(value).strip()
        try:
            number = self.parse(text)
        except ValueError:
            if re.fullmatch(_DIGITS, text):  # beyond what int() converts (4,300 digits)
                if self.max == MAX_COUNT and text.lstrip("+-")[:1] != "-":
                    refuse(
                        param,
                        f"must be at most {MAX_COUNT_TEXT}, the greatest count",
                        clipped(text),
                    )
                if self.span():
                    refuse(param, f"must be {self.span()}", clipped(text))
                digits = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
                refuse(param, f"takes an integer of at most {digits:,} digits", clipped(text))
            refuse(param, f"takes {self.kind} {self.span()}".rstrip(), shown(text))
        if self.max == MAX_COUNT and number > MAX_COUNT:
            refuse(param, f"must be at most {MAX_COUNT_TEXT}, the greatest count", clipped(text))
        low_ok = self.min is None or self.min <= number  # False for NaN, as it should be
        if not (low_ok and (self.max is None or number <= self.max)):
            refuse(param, f"must be {self.span()}", clipped(text))
        return number


class IntParam(Bounded, click.IntRange):
    """An integer option, with its range: ``IntParam(min=0)`` is 0 to 2**63 - 1 (a count the
    compiled core holds: :data:`~gtsearch.numbers.MAX_COUNT`), ``IntParam(max=None)`` any
    integer (a seed, taken modulo 2**64)."""

    kind = "an integer"
    parse = int

    def __init__(self, min: int | None = None, max: int | None = MAX_COUNT) -> None:
        super().__init__(min=min, max=max)

    def _describe_range(self) -> str:  # what --help shows: nothing for any integer
        if self.max == MAX_COUNT:  # the core's limit goes without saying in --help
            return "" if self.min is None else f"x>={self.min}"
        return "" if self.min is None and self.max is None else super()._describe_range()


class FloatParam(Bounded, click.FloatRange):
    """A number option, with its range (``FloatParam(0.0, 1.0)``)."""


class PathParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """A file name, taken as given (the readers and writers report what is wrong with it).

    Unlike click.Path it checks nothing, so a bad file is reported as every bad
    input is; it only tells shell completion to complete file names.
    """

    name = "path"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="file")]


class PairParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """Two numbers ``A:B`` as leaves hold them (integers only, when ``integers``), for
    --leaf-bounds L:U and --values LO:HI; the library checks their order."""

    def __init__(self, name: str, example: str, *, integers: bool = False) -> None:
        self.name = name
        self.integers = integers
        kind = "integers" if integers else "finite numbers"
        self.rule = f"takes {name} with two {kind}, e.g. {example}"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[Number, Number]:
        if isinstance(value, tuple):
            return value
        text = str(value)
        lo, sep, hi = text.partition(":")
        if not sep or ":" in hi:
            refuse(param, self.rule, shown(text))
        pair = (to_number(lo, param, self.rule, text), to_number(hi, param, self.rule, text))
        if self.integers and not all(isinstance(v, int) for v in pair):
            refuse(param, self.rule, shown(text))
        return pair


class RangesParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """``B``, ``A..B`` or a comma list of them, as sorted distinct integers (experiment's -b, -d)."""

    name = "RANGE"

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[int, ...]:
        if isinstance(value, tuple):
            return value
        from ..research.experiment import parse_range

        text = str(value)
        for number in re.findall(r"[0-9]+", text):  # a count the core holds, as every option's
            if len(number) > 19 or int(number) > MAX_COUNT:
                refuse(
                    param, f"must be at most {MAX_COUNT_TEXT}, the greatest count", clipped(text)
                )
        return parse_range(text, option_name(param), self.minimum)
