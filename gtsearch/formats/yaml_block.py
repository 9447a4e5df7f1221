"""YAML through libyaml's event stream, with an explicit stack; and a block wrapper around a flow tree.

Every YAML document that is not one flow collection comes here: block
style, anchors and aliases (counted before they are copied), tags (refused
unconstructed).  PyYAML's composer and constructors, which recurse, are
never used.  A block wrapper whose ``tree:`` is a flow collection is read
in two parts: the collection by the flow reader (linear however deep), the
wrapper by libyaml with the collection masked.
"""

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
from .builders import CountingBuilder, FormatBuilder
from .shape import Shape
from .tokens import Locator, document_text, relocated, shown
from .yaml_flow import WS, Unsupported, run_flow
from .yaml_scalars import LOADER, check_printable, deep_nesting, resolve_plain, show_tag

_ALIAS_HINT = re.compile(r"\*[^ \t\r\n,\[\]{}]")


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
        offset = len(text.encode("utf-8")[: e.position].decode("utf-8", "ignore"))
        line, column = Locator(text)(offset)
    else:
        message, line, column = (str(e).splitlines() or ["invalid YAML"])[0], None, None
    message = message[:1].lower() + message[1:]
    return TreeFormatError(message, source, line, column)


def _run_events(text: str, shape: Shape, splice: _Splice | None = None) -> Tree:
    loader = LOADER(text)
    try:
        with deep_nesting():
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
            if not buf and ev.anchor is None and shape.in_list():
                _lookahead(get, buf, 6)
                if (
                    len(buf) >= 4
                    and _plain_key(buf[0], "name")
                    and buf[1].__class__ is ScalarEvent
                    and buf[1].tag is None
                    and buf[1].anchor is None
                ):
                    name_ev, key = buf[1], buf[2]
                    if (
                        _plain_key(key, "value")
                        and buf[3].__class__ is ScalarEvent
                        and buf[3].tag is None
                        and buf[3].anchor is None
                        and len(buf) >= 5
                    ):
                        v_ev, after = buf[3], buf[4]
                        raw = v_ev.value
                        if after.__class__ is MappingEndEvent:
                            v = shape.number(
                                resolve_plain(raw) if not v_ev.style else raw,
                                raw,
                                "value",
                                v_ev.start_mark,
                            )
                            shape.errpos = name_ev.start_mark
                            b.leaf(v, name_ev.value)
                            last = after
                            for _ in range(5):
                                buf.popleft()
                            continue
                        if (
                            len(buf) >= 6
                            and _plain_key(after, "children")
                            and buf[5].__class__ is SequenceStartEvent
                            and buf[5].tag is None
                            and buf[5].anchor is None
                        ):
                            v = shape.number(
                                resolve_plain(raw) if not v_ev.style else raw,
                                raw,
                                "value",
                                v_ev.start_mark,
                            )
                            shape.node_head(
                                name_ev.value, v, mark, name_ev.start_mark, buf[5].start_mark
                            )
                            last = buf[5]
                            buf.clear()
                            continue
                    elif (
                        _plain_key(key, "children")
                        and buf[3].__class__ is SequenceStartEvent
                        and buf[3].tag is None
                        and buf[3].anchor is None
                    ):
                        shape.node_head(
                            name_ev.value, None, mark, name_ev.start_mark, buf[3].start_mark
                        )
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
    return shape.fail(
        f"tag {shown(show_tag(tag))} is not allowed: "
        "tree files hold only numbers, lists and mappings",
        mark,
    )


def parse_events(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read a YAML document through libyaml's event stream (no flow shortcut)."""
    text = document_text(text, source)
    check_printable(text, source)
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


def deep_flow(text: str, limit: int) -> int | None:
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
    return len(data[: int(where[hits[0]])].decode("utf-8", "ignore"))


class _NoSplice(Exception):
    """The flow collection after ``tree:`` is not the wrapper's tree after all."""


class _HeaderBuilder:
    """The builder of the wrapper's own pass: the tree is read already, so no node may come."""

    def __init__(self, real: FormatBuilder) -> None:
        self.real = real
        self.source = real.source

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise _NoSplice

    open = open_chance = set_weights = leaf = close = label = copy_range = int_leaves = _refuse

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
        if ev.value != "0" or ev.style or ev.anchor is not None or not shape.expects_tree():
            raise _NoSplice
        if self.error is not None:
            raise self.error
        shape.skip_node()
        self.done = True


TREE_FLOW = re.compile(r"^tree:(?=[ \t\r\n])" + WS + r"(?<=[ \t])(?=[\[{])", re.M)
_LINE_REST = re.compile(r"[ \t]*(?:(?<![^ \t\r\n])#[^\r\n]*)?(?:\r?\n|\Z)")
_NOT_NEWLINE = re.compile(r"[^\n]")


def parse_spliced(text: str, start: int, source: str, max_nodes: int) -> Tree | None:
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
        stop = run_flow(text, start, sub)
        if not _LINE_REST.match(text, stop):
            return None
    except Unsupported:
        return None
    except TreeFormatError as e:
        error = relocated(e, locate, sub.errpos)
        stop = len(text)
    masked = text[:start] + "0" + _NOT_NEWLINE.sub(" ", text[start + 1 : stop]) + text[stop:]
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
