"""The layout shared by the writers: compact subtrees, long nodes broken one child per line."""

from __future__ import annotations

from typing import NamedTuple

from collections.abc import Sequence

WIDTH = 79
MAX_LEVELS = 10


class Style(NamedTuple):
    sep: str          # between the items of a compact node
    line_end: str     # after each item but the last of a broken node ("," or "")
    lisp: bool        # the tail follows the last child; "(" takes its first child on its line


def fmt_number(v: float, is_float: int) -> str:
    """A value as the file wrote it: ints as ints, floats with repr() (2.0 stays a float)."""
    return repr(v) if is_float else str(int(v))


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


def compact(out: list[str], end: Sequence[int], heads: list[str], tails: list[str],
            sep: str, n: int) -> None:
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


def layout(out: list[str], end: Sequence[int], heads: list[str], tails: list[str],
           style: Style, *, column: int = 0, indent: int = 0,
           w: list[int] | None = None) -> None:
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
