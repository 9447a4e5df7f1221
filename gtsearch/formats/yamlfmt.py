"""YAML tree files: read without recursion (libyaml events or an own flow reader); the writer."""

from __future__ import annotations

import re
from collections import deque
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from ..errors import TreeFormatError
from ..tree import DEFAULT_MAX_NODES, Tree
from ._scan import Locator, check_not_empty, end_pos, relocated, shown, strip_bom
from ._shape import CountingBuilder, FormatBuilder, Shape, _Seq, _Wrap, run_offset
from ._write import WIDTH, Style, compact, fmt_number, layout, widths

NAME = "yaml"
EXTENSIONS = (".yaml", ".yml")

#: flow documents nested this deep only take what the own reader understands
FALLBACK_DEPTH = 1000
#: libyaml needs seconds from here on (it is quadratic on flow nesting)
BLOCK_FLOW_DEPTH = 10_000
#: the writer uses block style for trees up to this depth, flow style below
BLOCK_MAX_DEPTH = 40

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml: the pure parser is iterative too
    _Loader = yaml.SafeLoader


# -- scalars ---------------------------------------------------------------------------
class _Kind:
    """A plain scalar that resolves to something gtsearch never builds (a date)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


_TAG = "tag:yaml.org,2002:"
_RESOLVERS: dict[Any, list[tuple[str, Any]]] = yaml.resolver.Resolver.yaml_implicit_resolvers
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_FAST_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,15})\Z")
_BIG = 2**64  # an integer too long to convert; reported as too large
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
    for tag, regexp in resolvers:
        if regexp.match(s):
            break
    else:
        return s
    node = yaml.ScalarNode(tag, s)
    if tag == _TAG + "int":
        try:
            return _CONSTRUCTOR.construct_yaml_int(node)
        except ValueError:  # more digits than int() converts, or no digits at all ("0b_")
            return _BIG if len(s) > 1000 else s
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


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


# YAML's printable characters (YAML 1.1, 5.1); libyaml refuses the others anywhere.
_UNPRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# -- the flow reader ---------------------------------------------------------------------
class _Unsupported(Exception):
    """Syntax the flow reader leaves to libyaml (anchors, tags, flow pairs, ...)."""

    def __init__(self, pos: int) -> None:
        super().__init__(pos)
        self.pos = pos


# Comments end at the end of the line ((?![^\r\n])), so that no backtracking finds a token in one.
# Blanks, then comments each followed by blanks: one way only to split a run of blanks, so a
# failing match backtracks in linear time ("(?:[ ]+|#...)*" takes exponential time).
_WS = r"[ \t\r\n]*(?:(?<![^ \t\r\n])#[^\r\n]*(?![^\r\n])[ \t\r\n]*)*"
_FLOW_START = re.compile(r"[ \r\n]*(?:#[^\r\n]*(?![^\r\n])[ \r\n]*)*"
                         r"(?:(?<![^\n])---(?![^ \t\r\n])" + _WS + r")?(?=[\[{])")
_END = r"(?![^ \t\r\n,\[\]{}])"
_PLAIN_CH = r"(?:[^ \t\r\n,\[\]{}:]|:(?=[^ \t\r\n,\[\]{}]))"
_PLAIN = (r"(?:[^ \t\r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=[^ \t\r\n,\[\]{}]))" + _PLAIN_CH + "*"
          r"(?:[ \t]+(?:[^ \t\r\n,\[\]{}:#]|:(?=[^ \t\r\n,\[\]{}]))" + _PLAIN_CH + "*)*")
_FTOKEN = re.compile(
    _WS + "(?:"
    r"(-?(?:0|[1-9][0-9]*))" + _END +                 # 1 integer
    r"|(-?(?:0|[1-9][0-9]*)\.[0-9]+)" + _END +        # 2 float
    r"|([\[\]{},])"                                   # 3 flow indicators
    r"|(:)"                                           # 4 a mapping's colon
    r'|("(?:[^"\\\r\n]|\\[^\r\n])*")'                 # 5 double-quoted (on one line)
    r"|('(?:[^'\r\n]|'')*')"                          # 6 single-quoted (on one line)
    r"|(" + _PLAIN + ")"                              # 7 plain
    r"|(.)"                                           # 8 anything else: libyaml's business
    r"|(\Z)"                                          # 9 the end
    ")", re.S)
# A run of small integers inside a list, read in one match (most of a bare tree's leaves).
_INT15 = r"-?(?:0|[1-9][0-9]{0,14})"
_RUN = re.compile("(" + _INT15 + r"(?:[ \t\r\n]*,[ \t\r\n]*" + _INT15 + r"){0,4095})"  # see jsonfmt
                  r"(?=[ \t\r\n]*[,\]])")
_TAIL = re.compile(_WS)
_DOC_MARK = re.compile(r"(---|\.\.\.)(?![^ \t\r\n])")
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def _double_quoted(tok: str, pos: int) -> str:
    body = tok[1:-1]
    if "\\" not in body:
        return body

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if len(e) == 1:
            if e not in _ESCAPES:
                raise _Unsupported(pos)
            return _ESCAPES[e]
        code = int(e[1:], 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise _Unsupported(pos)
        return chr(code)

    return _ESCAPE.sub(one, body)


_VALUE, _ITEM, _AFTER, _KEY, _COLON = range(5)
_SCALARS = (1, 2, 5, 6, 7)


def _flow_scalar(g: int, tok: str, pos: int) -> tuple[Any, str]:
    if g == 1:
        return (int(tok) if len(tok) < 4000 else _BIG), tok
    if g == 2:
        return float(tok), tok
    if g == 5:
        s = _double_quoted(tok, pos)
        return s, s
    if g == 6:
        s = tok[1:-1].replace("''", "'")
        return s, s
    return resolve_plain(tok), tok


def _run_flow(text: str, pos: int, shape: Shape) -> int:
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
            raise shape.fail(f"unexpected end of input: the collection opened at {line}:{column} "
                             "is not closed", end_pos(text))
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
            raise _Unsupported(start)
        if state in (_VALUE, _ITEM):
            if g == 1 and closers[-1] == "]":
                r = run(text, start)
                if r is not None:
                    shape.errpos = start
                    ints = list(map(int, r.group(1).split(",")))
                    took = int_leaves(ints)
                    if took == len(ints):
                        pos = r.end()
                        state = _AFTER
                        continue
                    if took:  # the node limit falls inside the run: go on from there
                        pos = r.start(1) + run_offset(r.group(1), took)
                        state = _ITEM
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
            raise _Unsupported(start)
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
            raise _Unsupported(start)
        # _COLON: on the key's line (a simple key); after a plain key, followed by a blank
        if (g == 4 and "\n" not in text[key_end:start] and "\r" not in text[key_end:start]
                and (key_quoted or pos == len(text) or text[pos] in " \t\r\n")):
            state = _VALUE
            continue
        raise _Unsupported(start)


def _parse_flow(text: str, start: int, source: str, max_nodes: int) -> Tree:
    locate = Locator(text)
    shape = Shape(FormatBuilder(source, max_nodes), locate, text_names=True)
    try:
        pos = _run_flow(text, start, shape)
        # After the collection: comments, "..." (the end of the document), or another document.
        pos = _TAIL.match(text, pos).end()  # type: ignore[union-attr]
        m = _DOC_MARK.match(text, pos)
        if m and m.group(1) == "..." and (pos == 0 or text[pos - 1] == "\n"):
            pos = _TAIL.match(text, m.end()).end()  # type: ignore[union-attr]
            m = _DOC_MARK.match(text, pos)
        if pos < len(text):
            if m and m.group(1) == "---" and text[pos - 1] == "\n":
                raise shape.fail("several YAML documents: a file holds one tree", pos)
            raise _Unsupported(pos)
        return shape.finish(end_pos(text))
    except TreeFormatError as e:
        raise relocated(e, locate, shape.errpos) from None


# -- libyaml events -----------------------------------------------------------------------
def _mark(mark: Any) -> tuple[int | None, int | None]:
    if mark is None:
        return None, None
    return mark.line + 1, mark.column + 1


def _yaml_error(e: yaml.YAMLError, text: str, source: str) -> TreeFormatError:
    """libyaml's complaint as a TreeFormatError: lower-case, with its place."""
    if isinstance(e, yaml.MarkedYAMLError):
        message = e.problem or "invalid YAML"
        if e.context:
            message += f" {e.context}"
        line, column = _mark(e.problem_mark or e.context_mark)
    elif isinstance(e, yaml.reader.ReaderError):
        ch = e.character if isinstance(e.character, str) else chr(e.character)
        message = f"unacceptable character {ch!r}: {e.reason}"
        offset = len(text.encode("utf-8")[:e.position].decode("utf-8", "ignore"))
        line, column = Locator(text)(offset)
    else:
        message, line, column = (str(e).splitlines() or ["invalid YAML"])[0], None, None
    message = message[:1].lower() + message[1:]
    return TreeFormatError(message, source, line, column)


def _run_events(text: str, shape: Shape, splice: _Splice | None = None) -> Tree:
    loader = _Loader(text)
    try:
        return _consume(loader.get_event, shape, splice)
    finally:
        loader.dispose()


def _plain_key(ev: Any, key: str) -> bool:
    return ev.__class__ is ScalarEvent and ev.value == key and ev.tag is None and ev.anchor is None


def _lookahead(get: Any, buf: deque[Any], count: int) -> None:
    """Read events ahead into ``buf``; an error is kept in its place, raised when reached."""
    while len(buf) < count:
        try:
            ev = get()
        except yaml.YAMLError as e:
            buf.append(e)
            return
        if ev is None:
            return
        buf.append(ev)


def _consume(get: Any, shape: Shape, splice: _Splice | None = None) -> Tree:
    """Feed libyaml's events to the shape.

    A node written the usual way (``{name: x, value: 3}``, ``{name: x,
    children: [...]}``) is recognised from a few events ahead and built at
    once; anything else goes event by event.
    """
    documents = 0
    last: Any = None
    buf: deque[Any] = deque()
    stack = shape.stack
    b = shape.b
    while True:
        ev = buf.popleft() if buf else get()
        if ev is None:
            break
        if isinstance(ev, yaml.YAMLError):
            raise ev
        last = ev
        cls = ev.__class__
        mark = ev.start_mark
        if cls is ScalarEvent:
            if ev.tag is not None:
                raise _tag_error(shape, ev.tag, mark)
            value = ev.value
            if splice is not None and mark.line == splice.line and mark.column == splice.column:
                splice.take(ev, shape)
                continue
            shape.scalar(resolve_plain(value) if not ev.style else value, value, mark, ev.anchor)
        elif cls is MappingStartEvent:
            if ev.tag is not None:
                raise _tag_error(shape, ev.tag, mark)
            if not buf and ev.anchor is None and stack[-1].__class__ is _Seq:
                _lookahead(get, buf, 6)
                if (len(buf) >= 4 and _plain_key(buf[0], "name") and buf[1].__class__ is ScalarEvent
                        and buf[1].tag is None and buf[1].anchor is None):
                    name_ev, key = buf[1], buf[2]
                    if (_plain_key(key, "value") and buf[3].__class__ is ScalarEvent
                            and buf[3].tag is None and buf[3].anchor is None and len(buf) >= 5):
                        v_ev, after = buf[3], buf[4]
                        raw = v_ev.value
                        if after.__class__ is MappingEndEvent:
                            v = shape.number(resolve_plain(raw) if not v_ev.style else raw, raw,
                                             "value", v_ev.start_mark)
                            shape.errpos = name_ev.start_mark
                            b.leaf(v, name_ev.value)
                            last = after
                            for _ in range(5):
                                buf.popleft()
                            continue
                        if (len(buf) >= 6 and _plain_key(after, "children")
                                and buf[5].__class__ is SequenceStartEvent
                                and buf[5].tag is None and buf[5].anchor is None):
                            v = shape.number(resolve_plain(raw) if not v_ev.style else raw, raw,
                                             "value", v_ev.start_mark)
                            shape.node_head(name_ev.value, v, mark, name_ev.start_mark,
                                            buf[5].start_mark)
                            last = buf[5]
                            buf.clear()
                            continue
                    elif (_plain_key(key, "children") and buf[3].__class__ is SequenceStartEvent
                            and buf[3].tag is None and buf[3].anchor is None):
                        shape.node_head(name_ev.value, None, mark, name_ev.start_mark,
                                        buf[3].start_mark)
                        last = buf[3]
                        for _ in range(4):
                            buf.popleft()
                        continue
            shape.map_start(mark, ev.anchor)
        elif cls is MappingEndEvent:
            shape.map_end(mark)
        elif cls is SequenceStartEvent:
            if ev.tag is not None:
                raise _tag_error(shape, ev.tag, mark)
            shape.seq_start(mark, ev.anchor)
        elif cls is SequenceEndEvent:
            shape.seq_end(mark)
        elif cls is AliasEvent:
            shape.alias(ev.anchor, mark)
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise shape.fail("several YAML documents: a file holds one tree", mark)
    end = last.end_mark if last is not None else None
    if documents == 0:
        raise shape.fail("the file holds no tree", end)
    return shape.finish(end)


def _tag_error(shape: Shape, tag: str, mark: Any) -> TreeFormatError:
    return shape.fail(f"tag {shown(_show_tag(tag))} is not allowed: "
                      "tree files hold only numbers, lists and mappings", mark)


_LINE_BREAKS = re.compile("[\x85\u2028\u2029]")
_ALIAS_HINT = re.compile(r"\*[^ \t\r\n,\[\]{}]")


def parse_events(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read a YAML document through libyaml's event stream (no flow shortcut)."""
    text = strip_bom(text)
    check_not_empty(text, source)
    _check_printable(text, source)
    passes: list[Any] = [FormatBuilder]
    if _ALIAS_HINT.search(text):
        # Count the expansion first, so that a "billion laughs" fails before any copying.
        passes.insert(0, CountingBuilder)
    tree: Tree | None = None
    for builder in passes:
        shape = Shape(builder(source, max_nodes), _mark, text_names=True)
        try:
            tree = _run_events(text, shape)
        except yaml.YAMLError as e:
            raise _yaml_error(e, text, source) from None
        except TreeFormatError as e:
            raise relocated(e, _mark, shape.errpos) from None
    assert tree is not None
    return tree


#: the ASCII characters YAML allows (tab, line feed, carriage return, space to '~')
_ASCII_PRINTABLE = bytes([9, 10, 13, *range(0x20, 0x7F)])


def _check_printable(text: str, source: str) -> None:
    # ASCII text (str.isascii() costs nothing) is checked with bytes.translate, many times
    # faster than the regular expression on a large file; the expression finds the place
    if text.isascii() and not text.encode("ascii").translate(None, _ASCII_PRINTABLE):
        return
    m = _UNPRINTABLE.search(text)
    if m:
        line, column = Locator(text)(m.start())
        raise TreeFormatError(f"unacceptable character {m.group()!r}: "
                              "control characters are not allowed in YAML", source, line, column)


def _deep_flow(text: str, limit: int) -> int | None:
    """The offset of the first '[' or '{' nested ``limit`` deep, or None.

    Brackets in strings and comments count too: this only picks a reader.
    """
    if text.count("[") + text.count("{") < limit:
        return None
    import numpy as np

    data = text.encode("utf-8")
    raw = np.frombuffer(data, dtype=np.uint8)
    where = np.flatnonzero((raw == 91) | (raw == 123) | (raw == 93) | (raw == 125))
    kinds = raw[where]
    steps = np.where((kinds == 91) | (kinds == 123), 1, -1).astype(np.int64)
    hits = np.flatnonzero(np.cumsum(steps) >= limit)
    if not hits.size:
        return None
    return len(data[:int(where[hits[0]])].decode("utf-8", "ignore"))


# -- a block wrapper around a flow tree -----------------------------------------------------
class _NoSplice(Exception):
    """The flow collection after ``tree:`` is not the wrapper's tree after all."""


class _HeaderBuilder:
    """The builder of the wrapper's own pass: the tree is read already, so no node may come."""

    def __init__(self, real: FormatBuilder) -> None:
        self.real = real
        self.source = real.source

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise _NoSplice

    open = leaf = close = label = copy_range = int_leaves = _refuse

    def finish(self, *, root_max: bool = True, meta: Any = None) -> Tree:
        return self.real.finish(root_max=root_max, meta=meta)


class _Splice:
    """Where the wrapper's tree was masked (0-based line and column of the placeholder)."""

    def __init__(self, line: int, column: int, error: TreeFormatError | None) -> None:
        self.line = line
        self.column = column
        self.error = error
        self.done = False

    def take(self, ev: Any, shape: Shape) -> None:
        ctx = shape.stack[-1]
        if (ev.value != "0" or ev.style or ev.anchor is not None or ctx.__class__ is not _Wrap
                or ctx.key != "tree"):
            raise _NoSplice
        if self.error is not None:
            raise self.error
        shape.skip_node()
        self.done = True


_TREE_FLOW = re.compile(r"^tree:(?=[ \t\r\n])" + _WS + r"(?<=[ \t])(?=[\[{])", re.M)
_LINE_REST = re.compile(r"[ \t]*(?:(?<![^ \t\r\n])#[^\r\n]*)?(?:\r?\n|\Z)")
_NOT_NEWLINE = re.compile(r"[^\n]")


def _parse_spliced(text: str, start: int, source: str, max_nodes: int) -> Tree | None:
    """Read ``key: ...`` lines around ``tree: [...]``: libyaml for the wrapper, the flow reader
    for the tree (linear however deep).  None when the document is not of that form after all.

    The flow collection is read first; then libyaml reads the document with the collection
    masked (a placeholder ``0`` and blanks, so places do not move) and must find the
    placeholder as the value of the wrapper's ``tree``.
    """
    builder = FormatBuilder(source, max_nodes)
    locate = Locator(text)
    sub = Shape(builder, locate, text_names=True, top_node=True)
    error: TreeFormatError | None = None
    try:
        stop = _run_flow(text, start, sub)
        if not _LINE_REST.match(text, stop):
            return None
    except _Unsupported:
        return None
    except TreeFormatError as e:
        error = relocated(e, locate, sub.errpos)
        stop = len(text)
    masked = text[:start] + "0" + _NOT_NEWLINE.sub(" ", text[start + 1:stop]) + text[stop:]
    first = locate(start)
    last = locate(stop)
    splice = _Splice(first[0] - 1, first[1] - 1, error)
    header = Shape(_HeaderBuilder(builder), _mark, text_names=True)
    try:
        tree = _run_events(masked, header, splice)
    except _NoSplice:
        return None
    except yaml.YAMLError as e:
        found = _yaml_error(e, text, source)
    except TreeFormatError as e:
        if e is error:
            raise
        found = relocated(e, _mark, header.errpos)
    else:
        return tree if splice.done else None
    where = (found.line, found.column)
    if found.line is None or first <= where < last:  # a consequence of the mask
        return None
    raise found


def parse(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read a YAML tree file.

    Bare form: a number is a leaf, a list an internal node::

        [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

    Full form: a node may be a mapping with the keys ``name`` (read as text, so
    ``name: 1`` is "1"), ``value`` (the leaf's value, or an internal node's
    static value) and ``children`` (a non-empty list); the document may be a
    mapping with ``tree`` and the metadata ``root`` (max or min), ``title``,
    ``description`` and ``expect`` (the minimax value, checked by ``eval``)::

        # AIMA Figure 5.2
        title: AIMA Figure 5.2
        root: max
        expect: 3
        tree:
          name: A
          children:
          - name: B
            children: [{name: b1, value: 3}, 12, 8]
          - {name: C, value: 2, children: [2, 4, 6]}
          - [14, 5, 2]

    Plain scalars resolve as PyYAML's SafeLoader does (YAML 1.1): ``yes``/``no``
    are booleans and ``1e3`` is a string (write ``1.0e+3``), both refused as
    values.  Explicit tags are refused, never constructed; an alias (``*x``)
    repeats the subtree anchored by ``&x`` (its expansion counts against the node
    limit before anything is copied); a file holds one document.

    How it reads without recursion: a document that is one flow collection
    (``[`` or ``{`` first), and the flow collection after a block wrapper's
    ``tree:``, are read by an own regex tokenizer with an explicit stack,
    linear however deep (libyaml is quadratic on deep flow nesting); anything
    else, or flow collections using anchors, tags or other rare syntax while
    nested less than 1,000 deep, goes through libyaml's event stream
    (``yaml.parse`` with the C loader), again with an explicit stack.  PyYAML's
    composer and constructors, which recurse, are never used.
    """
    text = strip_bom(text)
    check_not_empty(text, source)
    _check_printable(text, source)
    m = _FLOW_START.match(text)
    if m is not None:
        try:
            odd = None if text.isascii() else _LINE_BREAKS.search(text)  # NEL and friends: libyaml's
            if odd is not None:
                raise _Unsupported(odd.start())
            return _parse_flow(text, m.end(), source, max_nodes)
        except _Unsupported as u:
            deep = _deep_flow(text, FALLBACK_DEPTH)
            if deep is not None:
                line, column = Locator(text)(u.pos)
                token = text[u.pos:u.pos + 20].split("\n")[0] or "end of input"
                raise TreeFormatError(
                    f"cannot read {shown(token)} here: a flow collection nested "
                    f"{FALLBACK_DEPTH:,} levels deep or more may hold only lists, mappings, "
                    "numbers, strings and comments", source, line, column) from None
    else:
        candidate = _TREE_FLOW.search(text)
        if candidate is not None:
            tree = _parse_spliced(text, candidate.end(), source, max_nodes)
            if tree is not None:
                return tree
        deep = _deep_flow(text, BLOCK_FLOW_DEPTH)
        if deep is not None:
            line, column = Locator(text)(deep)
            raise TreeFormatError(
                f"flow collections nested {BLOCK_FLOW_DEPTH:,} levels deep or more are read only "
                "as the whole document or as the value of the wrapper's 'tree:' (on its line)",
                source, line, column)
    return parse_events(text, source, max_nodes=max_nodes)


# -- writer ----------------------------------------------------------------------------------
_PLAIN_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.+/()-]*(?: [A-Za-z0-9_.+/()-]+)*\Z")
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]')
_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    named = _NAMED_ESCAPES.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def yaml_str(s: str) -> str:
    """A string as a YAML scalar: plain when that reads back as the same string, else quoted."""
    if _PLAIN_OK.match(s) and resolve_plain(s) == s and type(resolve_plain(s)) is str:
        return s
    return '"' + _NEEDS_ESCAPE.sub(_escape, s) + '"'


def yaml_number(v: float, is_float: int) -> str:
    """A number PyYAML reads back as the same number and kind (1e+300 becomes 1.0e+300)."""
    text = fmt_number(v, is_float)
    if is_float and "." not in text and "e" in text:
        text = text.replace("e", ".0e", 1)
    return text


_FLOW = Style(sep=", ", line_end=",", lisp=False)


def _node_texts(tree: Tree) -> tuple[list[str], list[str], list[bool]]:
    """Flow-style heads and tails of every node, and which nodes are mappings."""
    end = tree.end
    size = len(end)
    values = tree.values
    floats = tree.floats or bytes(size)
    names = tree.names
    heads: list[str] = [""] * size
    tails: list[str] = [""] * size
    mapping = [False] * size
    for n in range(size):
        v = values[n]
        name = names.get(n)
        if end[n] == n + 1:
            num = yaml_number(v, floats[n])
            if name is None:
                heads[n] = num
            else:
                heads[n] = f"{{name: {yaml_str(name)}, value: {num}}}"
                mapping[n] = True
        elif name is None and v != v:
            heads[n] = "["
            tails[n] = "]"
        else:
            parts = []
            if name is not None:
                parts.append(f"name: {yaml_str(name)}, ")
            if v == v:
                parts.append(f"value: {yaml_number(v, floats[n])}, ")
            heads[n] = "{" + "".join(parts) + "children: ["
            tails[n] = "]}"
            mapping[n] = True
    return heads, tails, mapping


def _meta_fields(tree: Tree) -> list[tuple[str, str]]:
    meta = tree.meta
    fields: list[tuple[str, str]] = []
    root = "min" if not tree.root_max else meta.root
    if root is not None:
        fields.append(("root", root))
    if meta.title is not None:
        fields.append(("title", yaml_str(meta.title)))
    if meta.description is not None:
        fields.append(("description", yaml_str(meta.description)))
    if meta.expect is not None:
        fields.append(("expect", yaml_number(meta.expect, isinstance(meta.expect, float))))
    return fields


def _block(tree: Tree, heads: list[str], tails: list[str], mapping: list[bool],
           fields: list[tuple[str, str]]) -> list[str]:
    """Block style (shallow trees): nodes that fit on a line stay in flow style."""
    end = tree.end
    values = tree.values
    floats = tree.floats or bytes(len(end))
    names = tree.names
    w = widths(end, heads, tails, 2)
    lines: list[str] = [f"{key}: {text}" for key, text in fields]

    def flow(n: int) -> str:
        out: list[str] = []
        compact(out, end, heads, tails, ", ", n)
        return "".join(out)

    def kids_flow(n: int) -> str:
        out = ["["]
        c = n + 1
        while c < end[n]:
            if c != n + 1:
                out.append(", ")
            compact(out, end, heads, tails, ", ", c)
            c = end[c]
        out.append("]")
        return "".join(out)

    # tasks: ("value", n, "key:" line start, indent of the key)
    #        ("item", n, "- " line start)
    #        ("items", n, indent, start of the first item's line)
    #        ("kids", n, "children:" line start, indent of the key)
    tasks: list[tuple[Any, ...]] = []
    if fields:
        tasks.append(("value", 0, "tree:", 0))
    else:
        tasks.append(("item", 0, ""))
    while tasks:
        task = tasks.pop()
        kind, n = task[0], task[1]
        if kind == "value" or kind == "item":
            prefix = task[2]
            if kind == "value":
                inline = prefix + " "
                indent = task[3]
            else:
                inline = prefix
                indent = len(prefix) - 2
            if end[n] == n + 1 or len(inline) + w[n] <= WIDTH:
                lines.append(inline + flow(n))
            elif mapping[n]:
                # name and value lines, then the children
                if kind == "value":
                    lines.append(prefix)
                    first = " " * (indent + 2)
                else:
                    first = prefix
                key_indent = " " * len(first)
                keys = []
                name = names.get(n)
                if name is not None:
                    keys.append(f"name: {yaml_str(name)}")
                v = values[n]
                if v == v:
                    keys.append(f"value: {yaml_number(v, floats[n])}")
                for i, k in enumerate(keys):
                    lines.append((first if i == 0 else key_indent) + k)
                tasks.append(("kids", n, key_indent + "children:", len(key_indent)))
            elif kind == "value":
                lines.append(prefix)
                tasks.append(("items", n, indent, " " * indent))
            else:
                tasks.append(("items", n, len(prefix), prefix))
        elif kind == "kids":
            prefix, indent = task[2], task[3]
            text = kids_flow(n)
            if len(prefix) + 1 + len(text) <= WIDTH:
                lines.append(prefix + " " + text)
            else:
                lines.append(prefix)
                tasks.append(("items", n, indent, " " * indent))
        else:  # items
            indent, first = task[2], task[3]
            kids = []
            c = n + 1
            while c < end[n]:
                kids.append(c)
                c = end[c]
            for i in range(len(kids) - 1, -1, -1):
                start = first if i == 0 else " " * indent
                tasks.append(("item", kids[i], start + "- "))
    return lines


def dump(tree: Tree) -> str:
    """The tree as a YAML document.

    Block style when the tree has names or static values and is at most
    :data:`BLOCK_MAX_DEPTH` deep (subtrees that fit on a line in flow style);
    otherwise the tree is one flow collection, alone or as the value of
    ``tree:`` after the metadata, which the reader takes in linear time.
    """
    heads, tails, mapping = _node_texts(tree)
    fields = _meta_fields(tree)
    if any(mapping) and tree.max_depth() <= BLOCK_MAX_DEPTH:
        return "\n".join(_block(tree, heads, tails, mapping, fields)) + "\n"
    out: list[str] = [f"{key}: {text}\n" for key, text in fields]
    if not fields:
        layout(out, tree.end, heads, tails, _FLOW)
    else:
        w = widths(tree.end, heads, tails, len(_FLOW.sep))
        if 6 + w[0] < WIDTH:
            out.append("tree: ")
            compact(out, tree.end, heads, tails, _FLOW.sep, 0)
        else:  # the collection on its own lines, indented under the key
            out.append("tree:\n  ")
            layout(out, tree.end, heads, tails, _FLOW, column=2, indent=2, w=w)
    out.append("\n")
    return "".join(out)
