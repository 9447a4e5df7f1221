"""What the tokenizers share: places in the text, tokens in messages, errors and their places,
integer runs, escapes in quoted strings."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any

from ..errors import TreeFormatError, shown

__all__ = [
    "BOM",
    "INT15",
    "Locator",
    "OffsetError",
    "document_text",
    "end_pos",
    "placed_errors",
    "read_run",
    "relocated",
    "run_offset",
    "shown",
    "unescape",
]

BOM = "\ufeff"
#: an integer literal of at most 15 digits (exact in float64) in JSON's and YAML's syntax;
#: readers take runs of up to 4,096 of them in one match (most of a bare tree's leaves),
#: at most that many so that a huge flat list meets the node limit early
INT15 = r"-?(?:0|[1-9][0-9]{0,14})"
_RUN_INT = r"[-+]?[0-9]+"  # compiled on first use, not at start-up


def run_offset(run: str, k: int) -> int:
    """Where the k-th integer (0-based) of a run of integers read at once starts in it."""
    return next(islice(re.finditer(_RUN_INT, run), k, None)).start()


def read_run(
    run: re.Match[str] | None, int_leaves: Callable[[list[int]], int], sep: str | None = ","
) -> tuple[int, bool] | None:
    """Hand the integers of a run read at once (group 1 of ``run``, separated by ``sep``; None:
    blanks) to a builder's ``int_leaves``.

    Returns where reading goes on and whether the whole run was taken; when the node
    limit falls inside the run, reading goes on at the first integer left, one token
    at a time, so that the limit's error points at it.  None when there is no run, or
    not one integer of it was taken.
    """
    if run is None:
        return None
    ints = list(map(int, run.group(1).split(sep)))
    took = int_leaves(ints)
    if took == len(ints):
        return run.end(), True
    if took:
        return run.start(1) + run_offset(run.group(1), took), False
    return None


def unescape(
    tok: str,
    escape: re.Pattern[str],
    named: dict[str, str],
    refuse: Callable[[re.Match[str], bool], Exception],
) -> str:
    """The text of a double-quoted string token: each match of ``escape`` (group 1, what follows
    the backslash) becomes the character it names, from the table ``named`` or, for a letter
    and hexadecimal digits (``uXXXX``), by its code point.

    ``refuse(match, not_a_character)`` is raised for an escape the table does not know, or
    (``not_a_character`` True) a code point that is half a surrogate pair or past U+10FFFF.
    """
    body = tok[1:-1]
    if "\\" not in body:
        return body

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if len(e) > 1:
            code = int(e[1:], 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise refuse(m, True)
            return chr(code)
        if e not in named:
            raise refuse(m, False)
        return named[e]

    return escape.sub(one, body)


class OffsetError(Exception):
    """A syntax error at a character offset of the text, which :func:`placed_errors` turns
    into a TreeFormatError with its line and column."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


@contextmanager
def placed_errors(locate: Locator, source: str, where: Callable[[], Any]) -> Iterator[None]:
    """Give every error of a reader its place in the file: an :class:`OffsetError` its offset's
    line and column, a TreeFormatError without a place (the builder's) ``where()``, the place
    the reader was at."""
    try:
        yield
    except OffsetError as e:
        line, column = locate(e.pos)
        raise TreeFormatError(e.message, source, line, column) from None
    except TreeFormatError as e:
        raise relocated(e, locate, where()) from None


class Locator:
    """Turns a character offset into a 1-based (line, column), only when asked.

    Parsers keep offsets (cheap) and call the locator for a message.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __call__(self, pos: int) -> tuple[int, int]:
        text = self.text
        pos = max(0, min(pos, len(text)))
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        return line, column


def end_pos(text: str) -> int:
    """Where "unexpected end of input" points: just after the last non-blank character."""
    return len(text.rstrip())


def document_text(text: str, source: str) -> str:
    """What a reader reads of a file's text: without a byte order mark, and refused when empty."""
    if text.startswith(BOM):
        text = text[1:]
    if not text or text.isspace():  # not text.strip(), which copies a large text
        raise TreeFormatError("the file is empty", source, 1, 1)
    return text


def relocated(
    err: TreeFormatError, locate: Callable[[Any], tuple[int | None, int | None]], pos: Any
) -> TreeFormatError:
    """``err`` with a place when it has none (TreeBuilder errors come without one)."""
    if err.line is not None or err.where is not None or pos is None:
        return err
    line, column = locate(pos)
    return TreeFormatError(err.message, err.path, line, column)
