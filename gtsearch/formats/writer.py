"""The one tree writer: every format describes its nodes and metadata; the layout is shared.

A format's writer is a :class:`Syntax`: how it spells a number, a string, a
node's name, a leaf and the head and tail of an internal node.  From it,
:func:`node_texts` gives every node's head and tail and :func:`meta_fields`
the document's metadata, and :func:`layout` writes the nodes: compact where
a subtree fits on a line, one child per line where it does not.  Nothing
here recurses, so a tree 100,000 levels deep is written like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..tree import Tree

WIDTH = 79
MAX_LEVELS = 10


class Style(NamedTuple):
    sep: str  # between the items of a compact node
    line_end: str  # after each item but the last of a broken node ("," or "")
    lisp: bool  # the tail follows the last child; "(" takes its first child on its line


class Wrapper(NamedTuple):
    """How a format writes the document wrapper around the tree (:func:`write_document`)."""

    opening: str
    #: one metadata field, with ``{key}`` and ``{text}``
    field: str
    #: what comes between the fields and the tree, which starts in ``column``
    before_tree: str
    column: int
    closing: str


class Syntax(NamedTuple):
    """How one format spells the parts of a tree (the full form where needed, else the bare form)."""

    style: Style
    #: a value as stored (float64, was it written as a float?) -> its text
    number: Callable[[float, int], str]
    #: a string (a title, a description) -> its text
    text: Callable[[str], str]
    #: a node's name -> its text
    name: Callable[[str], str]
    #: a word the format writes bare where it can (the root player)
    word: Callable[[str], str]
    #: a leaf: (its value's text, its name's text or None) -> the leaf's text
    leaf: Callable[[str, str | None], str]
    #: an internal node: (name's text or None, static value's text or None) -> (head, tail)
    node: Callable[[str | None, str | None], tuple[str, str]]
    #: a chance node: (name's text, static value's text, the weights' texts, each or None)
    #: -> (head, tail)
    chance: Callable[[str | None, str | None, list[str] | None], tuple[str, str]]


def mapping_syntax(
    style: Style,
    number: Callable[[float, int], str],
    quote: Callable[[str], str],
    key: Callable[[str], str],
) -> Syntax:
    """The Syntax of a format whose full form is mappings (JSON, YAML).

    A node without name or static value is a bare list; any other node a
    mapping with ``name`` and ``value`` (and a chance node's ``weights``) before
    its ``children`` (a chance node's ``chance``).  ``quote`` writes a string (a
    name, a title, a description); ``key`` a key and a word written bare where
    the format can (the root player).
    """
    keys = {k: key(k) for k in ("name", "value", "weights", "children", "chance")}

    def head(name: str | None, static: str | None, weights: list[str] | None, kids: str) -> str:
        parts = ["{"]
        if name is not None:
            parts.append(f"{keys['name']}: {name}, ")
        if static is not None:
            parts.append(f"{keys['value']}: {static}, ")
        if weights is not None:
            parts.append(f"{keys['weights']}: [{style.sep.join(weights)}], ")
        return "".join(parts) + f"{keys[kids]}: ["

    def leaf(value: str, name: str | None) -> str:
        return value if name is None else f"{{{keys['name']}: {name}, {keys['value']}: {value}}}"

    def node(name: str | None, static: str | None) -> tuple[str, str]:
        if name is None and static is None:
            return "[", "]"
        return head(name, static, None, "children"), "]}"

    def chance(name: str | None, static: str | None, weights: list[str] | None) -> tuple[str, str]:
        return head(name, static, weights, "chance"), "]}"

    return Syntax(style, number, quote, quote, key, leaf, node, chance)


#: the escapes that the double-quoted strings of YAML and s-expressions both write
NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def double_quoted(
    needs_escape: re.Pattern[str], code: Callable[[int], str]
) -> Callable[[str], str]:
    """A writer of double-quoted strings: each character ``needs_escape`` matches is written as
    its named escape (:data:`NAMED_ESCAPES`), or else as ``code(its code point)``."""

    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        named = NAMED_ESCAPES.get(ch)
        return named if named is not None else code(ord(ch))

    def quoted(s: str) -> str:
        return '"' + needs_escape.sub(escape, s) + '"'

    return quoted


def write_document(tree: Tree, syntax: Syntax, wrapper: Wrapper, *, wrap: bool = False) -> str:
    """The tree as a document: bare when it has no metadata (and ``wrap`` is False), else in
    the format's document wrapper, the metadata first."""
    heads, tails = node_texts(tree, syntax)
    fields = meta_fields(tree, syntax)
    out: list[str] = []
    if not fields and not wrap:
        layout(out, tree.end, heads, tails, syntax.style)
    else:
        out.append(wrapper.opening)
        out.extend(wrapper.field.format(key=key, text=text) for key, text in fields)
        out.append(wrapper.before_tree)
        layout(out, tree.end, heads, tails, syntax.style, column=wrapper.column, indent=2)
        out.append(wrapper.closing)
    out.append("\n")
    return "".join(out)


def node_texts(tree: Tree, syntax: Syntax) -> tuple[list[str], list[str]]:
    """The head and tail of every node (a leaf's whole text is its head; its tail is empty)."""
    end = tree.end
    size = len(end)
    values = tree.values
    floats = tree.floats or bytes(size)
    names = tree.names
    number, name_text, leaf, node = syntax.number, syntax.name, syntax.leaf, syntax.node
    heads: list[str] = [""] * size
    tails: list[str] = [""] * size
    for n in range(size):
        v = values[n]
        name = names.get(n)
        if end[n] == n + 1:
            heads[n] = leaf(number(v, floats[n]), None if name is None else name_text(name))
        elif tree.is_chance(n):
            w = tree.weights.get(n)
            heads[n], tails[n] = syntax.chance(
                None if name is None else name_text(name),
                None if v != v else number(v, floats[n]),
                None if w is None else [number(float(x), isinstance(x, float)) for x in w],
            )
        else:
            heads[n], tails[n] = node(
                None if name is None else name_text(name), None if v != v else number(v, floats[n])
            )
    return heads, tails


def meta_fields(tree: Tree, syntax: Syntax) -> list[tuple[str, str]]:
    """The document's metadata as (key, text) pairs, in the order writers emit them.

    A MIN root is always written (the reader's default is MAX); a MAX root
    only when the file said so.
    """
    meta = tree.meta
    fields: list[tuple[str, str]] = []
    root = "min" if not tree.root_max else meta.root
    if root is not None:
        fields.append(("root", syntax.word(root)))
    if meta.title is not None:
        fields.append(("title", syntax.text(meta.title)))
    if meta.description is not None:
        fields.append(("description", syntax.text(meta.description)))
    if meta.expect is not None:
        fields.append(("expect", syntax.number(meta.expect, isinstance(meta.expect, float))))
    return fields


def widths(end: Sequence[int], heads: list[str], tails: list[str], seplen: int) -> list[int]:
    """The length of every subtree written compactly (bottom-up, in reverse preorder)."""
    size = len(end)
    w = [0] * size
    for n in range(size - 1, -1, -1):
        e = end[n]
        if e == n + 1:
            w[n] = len(heads[n])
            continue
        total = len(heads[n]) + len(tails[n]) - seplen
        c = n + 1
        while c < e:
            total += w[c] + seplen
            c = end[c]
        w[n] = total
    return w


def compact(
    out: list[str], end: Sequence[int], heads: list[str], tails: list[str], sep: str, n: int
) -> None:
    """Append the subtree at ``n`` on one line."""
    stop = end[n]
    if stop == n + 1:
        out.append(heads[n])
        return
    stack: list[int] = []
    append = out.append
    for m in range(n, stop):
        while stack and end[stack[-1]] <= m:
            append(tails[stack.pop()])
        if stack and stack[-1] != m - 1:
            append(sep)
        append(heads[m])
        if end[m] != m + 1:
            stack.append(m)
    while stack:
        append(tails[stack.pop()])


def layout(
    out: list[str],
    end: Sequence[int],
    heads: list[str],
    tails: list[str],
    style: Style,
    *,
    column: int = 0,
    indent: int = 0,
    w: list[int] | None = None,
) -> None:
    """Append the whole tree (node 0) starting at ``column`` on a line indented by ``indent``.

    A writer describes every node by two strings: ``heads[n]`` (a leaf's whole
    text, or what opens an internal node: ``[``, ``(B :value 5 ``,
    ``{"name": "B", "children": [``) and ``tails[n]`` (what closes it).  The
    layout writes a node on one line when it fits in :data:`WIDTH` columns;
    otherwise, if it has several children, one child per line (indented), and
    if it has one, its head then the child.  Below :data:`MAX_LEVELS` broken
    levels everything is compact, so a deep tree never gets a quadratic amount
    of indentation.  Nothing here recurses.
    """
    if w is None:
        w = widths(end, heads, tails, len(style.sep))
    sep, line_end, lisp = style.sep, style.line_end, style.lisp
    append = out.append
    # frames: [node, next child, indentation of the children's lines (or -1: not broken),
    #          indentation of the node's own line]
    stack: list[list[int]] = []
    levels = 0
    n = 0
    col = column
    cur = indent  # indentation of the current line
    while True:
        e = end[n]
        if e == n + 1 or col + w[n] < WIDTH:
            compact(out, end, heads, tails, sep, n)
            col += w[n]
        else:
            first = n + 1
            if end[first] == e:  # one child: the head, then the child on the same line
                append(heads[n])
                col += len(heads[n])
                stack.append([n, e, -1, cur])
                n = first
                continue
            if levels >= MAX_LEVELS:
                compact(out, end, heads, tails, sep, n)
                col += w[n]
            else:
                levels += 1
                head = heads[n]
                if lisp and head == "(":
                    append(head)
                    child = col + 1
                else:
                    child = cur + 2
                    append(head.rstrip())
                    append("\n" + " " * child)
                stack.append([n, end[first], child, cur])
                n = first
                col = cur = child
                continue
        # the node is written: go on with its next sibling, closing finished nodes
        while stack:
            frame = stack[-1]
            p, nxt, child, own = frame
            if child >= 0 and nxt < end[p]:
                append(line_end + "\n" + " " * child)
                frame[1] = end[nxt]
                n = nxt
                col = cur = child
                break
            stack.pop()
            if child >= 0:
                levels -= 1
                if not lisp:
                    append("\n" + " " * own)
                    col = own
                cur = own
            append(tails[p])
            col += len(tails[p])
        else:
            return
