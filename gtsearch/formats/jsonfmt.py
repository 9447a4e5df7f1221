"""JSON tree files: a strict RFC 8259 reader that never recurses, and the writer."""

from __future__ import annotations

import json
import re

from ..numbers import format_stored
from ..tree import DEFAULT_MAX_NODES, Tree
from .builders import FormatBuilder
from .shape import Shape
from .tokens import (
    INT15,
    Locator,
    OffsetError,
    document_text,
    end_pos,
    placed_errors,
    read_run,
    shown,
)
from .writer import Style, Wrapper, mapping_syntax, write_document

NAME = "json"
EXTENSIONS = (".json",)

_SEP = r'(?![^ \t\n\r\[\]{},:"])'  # a number must end where a token may end
_TOKEN = re.compile(
    r"[ \t\n\r]*(?:"
    r"(-?(?:0|[1-9][0-9]*))"
    + _SEP  # 1 integer
    + r"|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
    + _SEP  # 2 float
    + r"|([\[\]{},:])"  # 3 punctuation
    r'|("[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'  # 4 string
    r'|([^ \t\n\r\[\]{},:"]+)'  # 5 other word
    r'|(")'  # 6 a bad string
    r")"
)
# A run of small integers inside a list, read in one match (see tokens.INT15).
_RUN = re.compile(
    r"[ \t\n\r]*(" + INT15 + r"(?:[ \t\n\r]*,[ \t\n\r]*" + INT15 + r"){0,4095})"
    r"(?=[ \t\n\r]*[,\]])"
)
# Nodes of the full form written the usual way, read in one match each.
_W = r"[ \t\n\r]*"
_KEY_NAME = r'"name"' + _W + ":" + _W + r'"([^"\\\x00-\x1f]*)"' + _W + "," + _W
_LEAF = re.compile(
    r"\{" + _W + _KEY_NAME + r'"value"' + _W + ":" + _W + "(" + INT15 + ")" + _W + r"\}"
)
_HEAD = re.compile(
    r"\{"
    + _W
    + _KEY_NAME
    + r'(?:"value"'
    + _W
    + ":"
    + _W
    + "("
    + INT15
    + ")"
    + _W
    + ","
    + _W
    + r')?"children"'
    + _W
    + ":"
    + _W
    + r"(\[)"
)
_STRING_PREFIX = re.compile(
    r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*'
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_NUMBERISH = re.compile(r"[-+.0-9]")
_LITERALS = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}
_BIG = 2**64  # stands for an integer too long to convert; the shape reports it as too large

# parser states
_VALUE, _FIRST, _AFTER, _KEY_FIRST, _KEY, _COLON = range(6)
_EXPECTED = {
    _VALUE: "a value",
    _FIRST: "a value or ']'",
    _KEY_FIRST: "a key (a string in double quotes) or '}'",
    _KEY: "a key (a string in double quotes)",
    _COLON: "':' after the key",
}


def _expected(state: int, closers: list[str]) -> str:
    if state == _AFTER:
        return "',' or ']' after an item" if closers[-1] == "]" else "',' or '}' after a value"
    return _EXPECTED[state]


def _string(tok: str, pos: int) -> str:
    if "\\" not in tok:
        return tok[1:-1]
    value: str = json.loads(tok)  # one string: no nesting, no recursion
    if _SURROGATE.search(value):
        raise OffsetError(
            f"invalid string {shown(tok)}: a \\u escape stands for half a surrogate pair", pos
        )
    return value


def _bad_string(text: str, start: int) -> OffsetError:
    """Why the string opening at ``start`` does not scan."""
    m = _STRING_PREFIX.match(text, start)
    stop = m.end() if m else start + 1
    if stop >= len(text) or text[stop] in "\n\r":
        return OffsetError("unterminated string", start)
    ch = text[stop]
    if ch == "\\":
        return OffsetError(f"invalid escape {text[stop : stop + 2]!r} in a string", stop)
    return OffsetError(f"control character {ch!r} in a string: write it as an escape", stop)


def _word(tok: str, pos: int) -> OffsetError:
    if _NUMBERISH.match(tok):
        return OffsetError(f"invalid number {shown(tok)}", pos)
    return OffsetError(f"expected a value, got {shown(tok)}", pos)


def _run(text: str, shape: Shape) -> None:
    match = _TOKEN.match
    run = _RUN.match
    int_leaves = shape.b.int_leaves
    leaf = shape.b.leaf
    leaf_match = _LEAF.match
    head_match = _HEAD.match
    scalar = shape.scalar
    closers: list[str] = []
    state = _VALUE
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            break
        g = m.lastindex
        pos = m.end()
        if state == _AFTER:
            if g == 3:
                c = m.group(3)
                if closers:
                    if c == ",":
                        state = _VALUE if closers[-1] == "]" else _KEY
                        continue
                    if c == closers[-1]:
                        closers.pop()
                        if c == "]":
                            shape.seq_end(m.start(3))
                        else:
                            shape.map_end(m.start(3))
                        continue
            start = m.start(g or 0)
            if not closers:
                raise OffsetError(
                    f"unexpected {shown(m.group(g or 0))} after the tree: a file holds one tree",
                    start,
                )
            raise OffsetError(
                f"expected {_expected(state, closers)}, got {shown(m.group(g or 0))}", start
            )
        if state <= _FIRST:
            if g == 1 and closers and closers[-1] == "]" and shape.in_list():
                went = read_run(run(text, m.start(1)), int_leaves)
                if went is not None:  # the whole run, or up to the node limit
                    pos, whole = went
                    state = _AFTER if whole else _VALUE
                    continue
            if g == 1:
                tok = m.group(1)
                scalar(int(tok) if len(tok) < 4000 else _BIG, tok, m.start(1))
                state = _AFTER
            elif g == 2:
                tok = m.group(2)
                scalar(float(tok), tok, m.start(2))
                state = _AFTER
            elif g == 3:
                c = m.group(3)
                if c == "{" and closers and closers[-1] == "]":
                    start = m.start(3)
                    r = leaf_match(text, start)
                    if r is not None:
                        shape.errpos = r.start(1)
                        leaf(int(r.group(2)), r.group(1))
                        pos = r.end()
                        state = _AFTER
                        continue
                    r = head_match(text, start)
                    if r is not None:
                        static = r.group(2)
                        shape.node_head(
                            r.group(1),
                            None if static is None else int(static),
                            start,
                            r.start(1),
                            r.start(3),
                        )
                        closers.append("}")
                        closers.append("]")
                        pos = r.end()
                        state = _FIRST
                        continue
                if c == "[":
                    shape.seq_start(m.start(3))
                    closers.append("]")
                    state = _FIRST
                elif c == "{":
                    shape.map_start(m.start(3))
                    closers.append("}")
                    state = _KEY_FIRST
                elif c == "]" and state == _FIRST:
                    closers.pop()
                    shape.seq_end(m.start(3))
                    state = _AFTER
                else:
                    raise OffsetError(
                        f"expected {_expected(state, closers)}, got {c!r}", m.start(3)
                    )
            elif g == 4:
                tok = m.group(4)
                scalar(_string(tok, m.start(4)), tok, m.start(4))
                state = _AFTER
            elif g == 5:
                tok = m.group(5)
                if tok in _LITERALS:
                    scalar(_LITERALS[tok], tok, m.start(5))
                    state = _AFTER
                else:
                    raise _word(tok, m.start(5))
            else:
                raise _bad_string(text, m.start(6))
            continue
        if state == _COLON:
            if g == 3 and m.group(3) == ":":
                state = _VALUE
                continue
        elif g == 4:  # _KEY_FIRST or _KEY: a key
            tok = m.group(4)
            scalar(_string(tok, m.start(4)), tok, m.start(4))
            state = _COLON
            continue
        elif g == 3 and m.group(3) == "}" and state == _KEY_FIRST:
            closers.pop()
            shape.map_end(m.start(3))
            state = _AFTER
            continue
        # not what this state takes
        if g == 6:
            raise _bad_string(text, m.start(6))
        raise OffsetError(
            f"expected {_expected(state, closers)}, got {shown(m.group(g or 0))}", m.start(g or 0)
        )
    if closers or state != _AFTER:
        raise OffsetError(
            f"unexpected end of input, expected {_expected(state, closers)}", end_pos(text)
        )


def parse(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read a JSON tree file.

    Bare form: a number is a leaf, an array an internal node::

        [[3,12,8],[2,4,6],[14,5,2]]

    Full form: a node may be an object with the keys ``name`` (a string),
    ``value`` (the leaf's value, or an internal node's static value) and
    ``children`` (a non-empty array); the document may be wrapped in an object
    with ``tree`` and the metadata ``root`` ("max" or "min"), ``title``,
    ``description`` and ``expect`` (the minimax value, checked by ``eval``)::

        {
          "root": "max",
          "title": "AIMA Figure 5.2",
          "expect": 3,
          "tree": {"name": "A", "children": [
            {"name": "B", "children": [{"name": "b1", "value": 3}, 12, 8]},
            {"name": "C", "value": 2, "children": [2,4,6]},
            [14,5,2]
          ]}
        }

    Integers stay integers and ``2.0`` stays a float.  The reader is a regex
    tokenizer driving an explicit stack (the standard ``json`` module recurses).
    """
    text = document_text(text, source)
    locate = Locator(text)
    shape = Shape(
        FormatBuilder(source, max_nodes), locate, text_names=False, words=("a list", "an object")
    )
    with placed_errors(locate, source, lambda: shape.errpos):
        _run(text, shape)
        return shape.finish(end_pos(text))


# -- writer -----------------------------------------------------------------------------
def _quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


SYNTAX = mapping_syntax(Style(sep=",", line_end=",", lisp=False), format_stored, _quote, _quote)
#: ``{"title": ..., "tree": ...}``
WRAPPER = Wrapper("{\n", '  "{key}": {text},\n', '  "tree": ', 10, "\n}")


def dump(tree: Tree) -> str:
    """The tree as a JSON document: bare when it can be, else the full form."""
    return write_document(tree, SYNTAX, WRAPPER)
