"""The own YAML flow reader: a regex tokenizer with an explicit stack, linear however deep.

Reads a document that is one flow collection (``[`` or ``{`` first), and the
flow collection after a block wrapper's ``tree:``, feeding a Shape.  Syntax
it does not take (anchors, tags, flow pairs, multi-line scalars, ...)
raises :class:`Unsupported`, and the caller hands the document to libyaml
(gtsearch.formats.yaml_block) instead.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import TreeFormatError
from ..tree import Tree
from .builders import FormatBuilder
from .shape import Shape
from .tokens import INT15, Locator, end_pos, read_run, relocated, unescape
from .yaml_scalars import BIG, resolve_plain


class Unsupported(Exception):
    """Syntax the flow reader leaves to libyaml (anchors, tags, flow pairs, ...)."""

    def __init__(self, pos: int) -> None:
        super().__init__(pos)
        self.pos = pos


# Comments end at the end of the line ((?![^\r\n])), so that no backtracking finds a token in one.
# Blanks, then comments each followed by blanks: one way only to split a run of blanks, so a
# failing match backtracks in linear time ("(?:[ ]+|#...)*" takes exponential time).
WS = r"[ \t\r\n]*(?:(?<![^ \t\r\n])#[^\r\n]*(?![^\r\n])[ \t\r\n]*)*"
FLOW_START = re.compile(
    r"[ \r\n]*(?:#[^\r\n]*(?![^\r\n])[ \r\n]*)*"
    r"(?:(?<![^\n])---(?![^ \t\r\n])" + WS + r")?(?=[\[{])"
)
_END = r"(?![^ \t\r\n,\[\]{}])"
_PLAIN_CH = r"(?:[^ \t\r\n,\[\]{}:]|:(?=[^ \t\r\n,\[\]{}]))"
_PLAIN = (
    r"(?:[^ \t\r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=[^ \t\r\n,\[\]{}]))" + _PLAIN_CH + "*"
    r"(?:[ \t]+(?:[^ \t\r\n,\[\]{}:#]|:(?=[^ \t\r\n,\[\]{}]))" + _PLAIN_CH + "*)*"
)
_FTOKEN = re.compile(
    WS + "(?:"
    r"(-?(?:0|[1-9][0-9]*))"
    + _END  # 1 integer
    + r"|(-?(?:0|[1-9][0-9]*)\.[0-9]+)"
    + _END  # 2 float
    + r"|([\[\]{},])"  # 3 flow indicators
    r"|(:)"  # 4 a mapping's colon
    r'|("(?:[^"\\\r\n]|\\[^\r\n])*")'  # 5 double-quoted (on one line)
    r"|('(?:[^'\r\n]|'')*')"  # 6 single-quoted (on one line)
    r"|(" + _PLAIN + ")"  # 7 plain
    r"|(.)"  # 8 anything else: libyaml's business
    r"|(\Z)"  # 9 the end
    ")",
    re.S,
)
# A run of small integers inside a list, read in one match (most of a bare tree's leaves).
_RUN = re.compile(
    "(" + INT15 + r"(?:[ \t\r\n]*,[ \t\r\n]*" + INT15 + r"){0,4095})"  # see tokens.INT15
    r"(?=[ \t\r\n]*[,\]])"
)
_TAIL = re.compile(WS)
_DOC_MARK = re.compile(r"(---|\.\.\.)(?![^ \t\r\n])")
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}


def _double_quoted(tok: str, pos: int) -> str:
    """A double-quoted scalar's text; an escape libyaml would refuse is left to it."""
    return unescape(tok, _ESCAPE, _ESCAPES, lambda m, not_a_character: Unsupported(pos))


_VALUE, _ITEM, _AFTER, _KEY, _COLON = range(5)
_SCALARS = (1, 2, 5, 6, 7)


def _flow_scalar(g: int, tok: str, pos: int) -> tuple[Any, str]:
    if g == 1:
        return (int(tok) if len(tok) < 4000 else BIG), tok
    if g == 2:
        return float(tok), tok
    if g == 5:
        s = _double_quoted(tok, pos)
        return s, s
    if g == 6:
        s = tok[1:-1].replace("''", "'")
        return s, s
    return resolve_plain(tok), tok


def run_flow(text: str, pos: int, shape: Shape) -> int:
    """Read one flow collection from ``pos``; return where it ends.

    In a sequence a scalar is held back until the ',' or ']' after it: a ':'
    there would make it the key of a single-pair mapping (libyaml's case).
    """
    match = _FTOKEN.match
    run = _RUN.match
    int_leaves = shape.b.int_leaves
    scalar = shape.scalar
    closers: list[str] = []
    state = _VALUE
    pending: tuple[Any, str, int] | None = None
    key_quoted = False
    key_end = 0
    while True:
        m = match(text, pos)
        if m is None or m.lastindex == 9:  # the end of the input inside a collection
            ctx = shape.stack[-1]
            line, column = shape.locate(ctx.pos)
            raise shape.fail(
                f"unexpected end of input: the collection opened at {line}:{column} is not closed",
                end_pos(text),
            )
        g = m.lastindex or 0
        start = m.start(g)
        pos = m.end()
        if state == _VALUE and g == 3 and closers and closers[-1] == "}" and m.group(3) in ",}":
            scalar(None, "", start)  # "key:" with nothing after it: null
            state = _AFTER
        if state == _AFTER:
            if g == 3:
                c = m.group(3)
                if c == ",":
                    if pending is not None:
                        scalar(*pending)
                        pending = None
                    state = _ITEM if closers[-1] == "]" else _KEY
                    continue
                if c == closers[-1]:
                    if pending is not None:
                        scalar(*pending)
                        pending = None
                    closers.pop()
                    if c == "]":
                        shape.seq_end(start)
                    else:
                        shape.map_end(start)
                    if not closers:
                        return pos
                    continue
            raise Unsupported(start)
        if state in (_VALUE, _ITEM):
            if g == 1 and closers[-1] == "]" and shape.in_list():
                went = read_run(run(text, start), int_leaves)
                if went is not None:  # the whole run, or up to the node limit
                    pos, whole = went
                    state = _AFTER if whole else _ITEM
                    continue
            if g in _SCALARS:
                value, txt = _flow_scalar(g, m.group(g), start)
                if closers[-1] == "]":
                    pending = (value, txt, start)
                else:
                    scalar(value, txt, start)
                state = _AFTER
                continue
            if g == 3:
                c = m.group(3)
                if c == "[":
                    shape.seq_start(start)
                    closers.append("]")
                    state = _ITEM
                    continue
                if c == "{":
                    shape.map_start(start)
                    closers.append("}")
                    state = _KEY
                    continue
                if c == "]" and state == _ITEM:
                    closers.pop()
                    shape.seq_end(start)
                    state = _AFTER
                    if not closers:
                        return pos
                    continue
            raise Unsupported(start)
        if state == _KEY:
            if g in _SCALARS:
                value, txt = _flow_scalar(g, m.group(g), start)
                scalar(value, txt, start)
                key_quoted = g == 5 or g == 6
                key_end = pos
                state = _COLON
                continue
            if g == 3 and m.group(3) == "}":
                closers.pop()
                shape.map_end(start)
                state = _AFTER
                if not closers:
                    return pos
                continue
            raise Unsupported(start)
        # _COLON: on the key's line (a simple key); after a plain key, followed by a blank
        if (
            g == 4
            and "\n" not in text[key_end:start]
            and "\r" not in text[key_end:start]
            and (key_quoted or pos == len(text) or text[pos] in " \t\r\n")
        ):
            state = _VALUE
            continue
        raise Unsupported(start)


def parse_flow(text: str, start: int, source: str, max_nodes: int) -> Tree:
    locate = Locator(text)
    shape = Shape(FormatBuilder(source, max_nodes), locate, text_names=True)
    try:
        pos = run_flow(text, start, shape)
        # After the collection: comments, "..." (the end of the document), or another document.
        pos = _TAIL.match(text, pos).end()  # type: ignore[union-attr]
        m = _DOC_MARK.match(text, pos)
        if m and m.group(1) == "..." and (pos == 0 or text[pos - 1] == "\n"):
            pos = _TAIL.match(text, m.end()).end()  # type: ignore[union-attr]
            m = _DOC_MARK.match(text, pos)
        if pos < len(text):
            if m and m.group(1) == "---" and text[pos - 1] == "\n":
                raise shape.fail("several YAML documents: a file holds one tree", pos)
            raise Unsupported(pos)
        return shape.finish(end_pos(text))
    except TreeFormatError as e:
        raise relocated(e, locate, shape.errpos) from None
