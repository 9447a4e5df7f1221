"""YAML tree files: which reader takes a document, and the writer.

One read path per kind of document, none recursing: a document that is one
flow collection goes to the own flow reader (gtsearch.formats.yaml_flow); a
block document to libyaml's event stream (gtsearch.formats.yaml_block); a
block wrapper whose ``tree:`` is a flow collection to both (the wrapper by
libyaml, the tree by the flow reader); a large bare tree first to the
vectorised reader (gtsearch.formats.bare, chosen in gtsearch.formats).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import TreeFormatError
from ..numbers import format_stored
from ..tree import DEFAULT_MAX_NODES, Tree
from .tokens import Locator, document_text, shown
from .writer import (
    WIDTH,
    Style,
    compact,
    double_quoted,
    layout,
    mapping_syntax,
    meta_fields,
    node_texts,
    widths,
)
from .yaml_block import TREE_FLOW, deep_flow, parse_events, parse_spliced
from .yaml_flow import FLOW_START, Unsupported, parse_flow
from .yaml_scalars import LINE_BREAKS, check_printable, resolve_plain

NAME = "yaml"
EXTENSIONS = (".yaml", ".yml")

#: flow documents nested this deep only take what the own reader understands
FALLBACK_DEPTH = 1000
#: libyaml needs seconds from here on (it is quadratic on flow nesting)
BLOCK_FLOW_DEPTH = 10_000
#: the writer uses block style for trees up to this depth, flow style below
BLOCK_MAX_DEPTH = 40


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
    text = document_text(text, source)
    check_printable(text, source)
    m = FLOW_START.match(text)
    if m is not None:
        try:
            odd = None if text.isascii() else LINE_BREAKS.search(text)  # NEL and friends: libyaml's
            if odd is not None:
                raise Unsupported(odd.start())
            return parse_flow(text, m.end(), source, max_nodes)
        except Unsupported as u:
            deep = deep_flow(text, FALLBACK_DEPTH)
            if deep is not None:
                line, column = Locator(text)(u.pos)
                token = text[u.pos : u.pos + 20].split("\n")[0] or "end of input"
                raise TreeFormatError(
                    f"cannot read {shown(token)} here: a flow collection nested "
                    f"{FALLBACK_DEPTH:,} levels deep or more may hold only lists, mappings, "
                    "numbers, strings and comments",
                    source,
                    line,
                    column,
                ) from None
    else:
        candidate = TREE_FLOW.search(text)
        if candidate is not None:
            tree = parse_spliced(text, candidate.end(), source, max_nodes)
            if tree is not None:
                return tree
        deep = deep_flow(text, BLOCK_FLOW_DEPTH)
        if deep is not None:
            line, column = Locator(text)(deep)
            raise TreeFormatError(
                f"flow collections nested {BLOCK_FLOW_DEPTH:,} levels deep or more are read only "
                "as the whole document or as the value of the wrapper's 'tree:' (on its line)",
                source,
                line,
                column,
            )
    return parse_events(text, source, max_nodes=max_nodes)


# -- writer ----------------------------------------------------------------------------------
_PLAIN_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.+/()-]*(?: [A-Za-z0-9_.+/()-]+)*\Z")
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]')
_QUOTED = double_quoted(
    _NEEDS_ESCAPE, lambda code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
)


def yaml_str(s: str) -> str:
    """A string as a YAML scalar: plain when that reads back as the same string, else quoted."""
    if _PLAIN_OK.match(s) and resolve_plain(s) == s and type(resolve_plain(s)) is str:
        return s
    return _QUOTED(s)


def yaml_number(v: float, is_float: int) -> str:
    """A number PyYAML reads back as the same number and kind (1e+300 becomes 1.0e+300)."""
    text = format_stored(v, is_float)
    if is_float and "." not in text and "e" in text:
        text = text.replace("e", ".0e", 1)
    return text


SYNTAX = mapping_syntax(
    Style(sep=", ", line_end=",", lisp=False), yaml_number, yaml_str, lambda word: word
)
_FLOW = SYNTAX.style


def _block(
    tree: Tree,
    heads: list[str],
    tails: list[str],
    mapping: list[bool],
    fields: list[tuple[str, str]],
) -> list[str]:
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
                kids_key = "children:"
                if tree.is_chance(n):
                    kids_key = "chance:"
                    weights = tree.weights.get(n)
                    if weights is not None:
                        texts = [yaml_number(float(x), isinstance(x, float)) for x in weights]
                        keys.append(f"weights: [{', '.join(texts)}]")
                for i, k in enumerate(keys):
                    lines.append((first if i == 0 else key_indent) + k)
                # a chance node may have no key but its outcomes: they start the item's line
                start = key_indent if keys else first
                tasks.append(("kids", n, start + kids_key, len(key_indent)))
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
    heads, tails = node_texts(tree, SYNTAX)
    mapping = [head.startswith("{") for head in heads]
    fields = meta_fields(tree, SYNTAX)
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
