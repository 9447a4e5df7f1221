"""S-expression atoms: tokens as the reader classifies them, names and strings as the writer quotes them.

Shared by the reader and the writer of :mod:`gtsearch.formats.sexp`: the token
regular expressions, what kind of atom a token is and how a message names it,
numbers checked as every reader checks values, and the quoting that makes a
name or a string read back as itself.
"""

from __future__ import annotations

import re
from typing import Any

from ..numbers import too_large
from .shape import number_problem
from .tokens import OffsetError, shown, unescape
from .writer import double_quoted

END = r'(?![^\s()";])'
TOKEN = re.compile(
    r"(?:\s+|;[^\n]*(?![^\n]))*(?:"
    r"(\()"  # 1
    r"|(\))"  # 2
    r"|([+-]?(?:0|[1-9][0-9]*))"
    + END  # 3 integer
    + r"|([+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
    + END  # 4 float
    + r'|("(?:[^"\\]|\\.)*")'  # 5 string
    r'|([^\s()";]+)'  # 6 other atom
    r'|(")'  # 7 unterminated
    r"|(\Z)"  # 8 the end
    r")",
    re.S,
)
# A run of small integers, read in one match (most of a bare tree's leaves).
INT15 = r"[+-]?(?:0|[1-9][0-9]{0,14})" + END
RUN = re.compile("(" + INT15 + r"(?:\s+" + INT15 + "){0,4095})")  # 4,096 at most: see tokens.INT15
# A named leaf, (name . 3), read in one match.
PAIR = re.compile(
    r'\(\s*(?:"([^"\\]*)"|([^\s()";0-9+\-.:#][^\s()";]*))\s+\.\s+(' + INT15 + r")\s*\)"
)
NUMBERISH = re.compile(r"[+-]?\.?[0-9]")
NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)\Z", re.I)
ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|["\\ntr]|.?)', re.S)
ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
BOOLEANS = ("#t", "#f", "#true", "#false")


# atom kinds
INT, FLOAT, STRING, SYMBOL, KEYWORD, DOT, BAD = range(7)


def string_text(tok: str, pos: int) -> str:
    """The text of the string token ``tok`` read at ``pos``, its escapes replaced."""

    def refuse(m: re.Match[str], not_a_character: bool) -> OffsetError:
        why = ": not a character" if not_a_character else ""
        return OffsetError(f"invalid escape {m.group()!r} in a string{why}", pos + 1 + m.start())

    return unescape(tok, ESCAPE, ESCAPES, refuse)


def describe(kind: int, tok: str, value: Any) -> str:
    """What an atom is, for "expected ..., got ..." messages."""
    if kind == STRING:
        return f"the string {shown(value)}"
    if kind == KEYWORD:
        return f"the keyword {shown(tok)}"
    if kind == DOT:
        return "'.'"
    if tok in BOOLEANS:
        return f"the boolean {tok!r}"
    if tok == "nil":
        return "'nil' (null)"
    if kind == SYMBOL:
        return f"the symbol {shown(tok)}"
    return shown(tok)


def classify(g: int, tok: str, pos: int) -> tuple[int, Any]:
    if g == 3:
        if len(tok) >= 4000:
            raise OffsetError(too_large(tok), pos)
        return INT, int(tok)
    if g == 4:
        return FLOAT, float(tok)
    if g == 5:
        return STRING, string_text(tok, pos)
    if tok == ".":
        return DOT, None
    if tok.startswith(":"):
        return KEYWORD, None
    if NOT_FINITE.match(tok):
        return FLOAT, float(tok)
    if NUMBERISH.match(tok):
        raise OffsetError(f"invalid number {shown(tok)}", pos)
    if tok[0] == "#" or tok == "nil":
        return BAD, None
    return SYMBOL, tok


def atom_number(kind: int, value: Any, tok: str, what: str, pos: int, expected: str) -> int | float:
    """A number token checked as every reader checks values; another atom is a syntax error."""
    if kind == INT or kind == FLOAT:
        problem = number_problem(value, tok, what)
        if problem is not None:
            raise OffsetError(problem, pos)
        return value  # type: ignore[no-any-return]
    raise OffsetError(f"{expected}, got {describe(kind, tok, value)}", pos)


SYMBOL_OK = re.compile(r"[^\s()\";0-9+\-.:#'`,\\|\[\]{}][^\s()\";\\]*\Z")
QUOTE = re.compile('["\\\\]|[^\\x20-\\x7e\\xa0-\\ud7ff\\ue000-\\ufffd\\U00010000-\\U0010ffff]')
#: a string double-quoted, with its escapes
sexp_str = double_quoted(
    QUOTE, lambda code: f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
)


def sexp_name(s: str) -> str:
    """A name as a symbol when it reads back as one, else as a string."""
    if SYMBOL_OK.match(s) and s != "nil" and not NOT_FINITE.match(s) and s.isprintable():
        return s
    return sexp_str(s)
