"""What the tokenizers share: places in the text, tokens in messages, error relocation, integer runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import Any

from ..errors import TreeFormatError, shown

__all__ = [
    "BOM",
    "INT15",
    "Locator",
    "check_not_empty",
    "end_pos",
    "relocated",
    "run_offset",
    "shown",
    "strip_bom",
]

BOM = "\ufeff"
#: an integer literal of at most 15 digits (exact in float64) in JSON's and YAML's syntax;
#: readers take runs of up to 4,096 of them in one match (most of a bare tree's leaves),
#: at most that many so that a huge flat list meets the node limit early
INT15 = r"-?(?:0|[1-9][0-9]{0,14})"
_RUN_INT = re.compile(r"[-+]?[0-9]+")


def run_offset(run: str, k: int) -> int:
    """Where the k-th integer (0-based) of a run of integers read at once starts in it."""
    return next(islice(_RUN_INT.finditer(run), k, None)).start()


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


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def check_not_empty(text: str, source: str) -> None:
    if not text or text.isspace():  # not text.strip(), which copies a large text
        raise TreeFormatError("the file is empty", source, 1, 1)


def relocated(
    err: TreeFormatError, locate: Callable[[Any], tuple[int | None, int | None]], pos: Any
) -> TreeFormatError:
    """``err`` with a place when it has none (TreeBuilder errors come without one)."""
    if err.line is not None or err.where is not None or pos is None:
        return err
    line, column = locate(pos)
    return TreeFormatError(err.message, err.path, line, column)
