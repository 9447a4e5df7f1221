"""YAML scalars as PyYAML's SafeLoader reads them, and the characters YAML allows.

Shared by the two YAML readers (gtsearch.formats.yaml_flow and
.yaml_block) and the writer: a plain scalar resolves as YAML 1.1 says (an
int, a float, a boolean, null, a date, or the text), and a file with a
character YAML refuses is refused with its place.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import yaml

from ..errors import TreeFormatError
from .tokens import Locator

try:
    LOADER: Any = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml: the pure parser is iterative too
    LOADER = yaml.SafeLoader

# libyaml 0.2.6 (bundled with PyYAML 6.0.4) refuses a collection nested more than 1,000 deep
# ("exceeded maximum nesting depth"), a guard for recursive consumers.  The readers here keep
# their own stack, and a tree file may nest 100,000 deep and more: the limit is lifted while
# they read, and put back after.
_LIBYAML = getattr(yaml, "_yaml", None)
_GET_NEST: Any = getattr(_LIBYAML, "_get_max_nest_level", None)
_SET_NEST: Any = getattr(_LIBYAML, "_set_max_nest_level", None)
UNLIMITED_NESTING = 2**31 - 2  # libyaml keeps the level in a C int


_NESTING_LOCK = threading.Lock()
_nesting_readers = 0
_nesting_before = 0


@contextmanager
def deep_nesting() -> Iterator[None]:
    """libyaml's nesting limit lifted for one read (nothing to do with an older libyaml).

    The limit is the process's: reads in several threads lift it once, and the last to end
    puts it back."""
    global _nesting_readers, _nesting_before
    if _GET_NEST is None or _SET_NEST is None:
        yield
        return
    with _NESTING_LOCK:
        if not _nesting_readers:
            _nesting_before = _GET_NEST()
            _SET_NEST(UNLIMITED_NESTING)
        _nesting_readers += 1
    try:
        yield
    finally:
        with _NESTING_LOCK:
            _nesting_readers -= 1
            if not _nesting_readers:
                _SET_NEST(_nesting_before)


class _Kind:
    """A plain scalar that resolves to something gtsearch never builds (a date)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


_TAG = "tag:yaml.org,2002:"
_RESOLVERS: dict[Any, list[tuple[str, Any]]] = yaml.resolver.Resolver.yaml_implicit_resolvers
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_FAST_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,15})\Z")
BIG = 2**64  # an integer too long to convert; reported as too large
_DATE = _Kind("a date")


_RESOLVED: dict[str, Any] = {}


def resolve_plain(s: str) -> Any:
    """A plain scalar as PyYAML's SafeLoader reads it (int, float, bool, None or the text)."""
    if _FAST_INT.match(s):
        return int(s)
    v = _RESOLVED.get(s, _RESOLVED)
    if v is _RESOLVED:
        v = _resolve(s)
        if len(s) < 40 and len(_RESOLVED) < 100_000:  # keys and common values repeat
            _RESOLVED[s] = v
    return v


def _resolve(s: str) -> Any:
    resolvers = _RESOLVERS.get(s[0] if s else "", []) + _RESOLVERS.get(None, [])
    tag = next((tag for tag, regexp in resolvers if regexp.match(s)), None)
    if tag is None:
        return s
    node = yaml.ScalarNode(tag, s)
    if tag == _TAG + "int":
        try:
            return _CONSTRUCTOR.construct_yaml_int(node)
        except ValueError:  # more digits than int() converts, or no digits at all ("0b_")
            return BIG if len(s) > 1000 else s
    if tag == _TAG + "float":
        try:
            return _CONSTRUCTOR.construct_yaml_float(node)
        except OverflowError:  # a sexagesimal float past the float range (1:0:0:...:0.5)
            return float("-inf") if s.startswith("-") else float("inf")
    if tag == _TAG + "bool":
        return _CONSTRUCTOR.construct_yaml_bool(node)
    if tag == _TAG + "null":
        return None
    if tag == _TAG + "timestamp":
        return _DATE
    return s


def show_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


# YAML's printable characters (YAML 1.1, 5.1); libyaml refuses the others anywhere.
_UNPRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


LINE_BREAKS = re.compile("[\x85\u2028\u2029]")


#: the ASCII characters YAML allows (tab, line feed, carriage return, space to '~')
_ASCII_PRINTABLE = bytes([9, 10, 13, *range(0x20, 0x7F)])


def check_printable(text: str, source: str) -> None:
    # ASCII text (str.isascii() costs nothing) is checked with bytes.translate, many times
    # faster than the regular expression on a large file; the expression finds the place
    if text.isascii() and not text.encode("ascii").translate(None, _ASCII_PRINTABLE):
        return
    m = _UNPRINTABLE.search(text)
    if m:
        line, column = Locator(text)(m.start())
        raise TreeFormatError(
            f"unacceptable character {m.group()!r}: control characters are not allowed in YAML",
            source,
            line,
            column,
        )
