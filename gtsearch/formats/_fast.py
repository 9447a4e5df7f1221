"""The bare form (nested lists of numbers) of all three formats, read in vectorised passes.

Large trees written by programs are nearly always in the bare form:
``[[3,12,8],[2,4,6],[14,5,2]]`` in JSON or flow YAML, ``((3 12 8) (2 4 6)
(14 5 2))`` as an s-expression.  Instead of a token at a time, this reader
classifies every character with numpy, finds the tokens, checks the grammar
on the whole token sequence at once, pairs each bracket with its partner by
level, and turns the integer literals into numbers by digit arithmetic.  No
nested Python lists are ever built, and nothing recurses.

It only ever *accepts*: on anything outside the plain bare form (names,
comments, strings, odd numbers, any syntax error) it returns None and the
format's own reader runs, which reports problems with their line and column.
So both readers give identical trees, which the tests check on random trees.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import TreeFormatError
from ..flat import to_array
from ..tree import Meta, Tree

# character classes; number characters are _NUM (digits), _MINUS or _EXP ('+', '.', 'e', 'E')
_OTHER, _SPACE, _OPEN, _CLOSE, _SEP, _NUM, _MINUS, _EXP = range(8)

#: number literals that are not plain integers, as each format reads them
_FLOAT_OK = {
    "json": re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z"),
    # written the same way in YAML 1.1 (PyYAML) and in s-expressions: digits, a dot, digits
    "yaml": re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z"),
    "sexp": re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z"),
}


def _classes(fmt: str) -> np.ndarray:
    table = np.full(256, _OTHER, dtype=np.uint8)
    for ch in b" \t\r\n":
        table[ch] = _SPACE
    for ch in b"0123456789":
        table[ch] = _NUM
    table[ord("-")] = _MINUS
    for ch in b"+.eE":
        table[ch] = _EXP
    if fmt == "sexp":
        table[ord("(")], table[ord(")")] = _OPEN, _CLOSE
    else:
        table[ord("[")], table[ord("]")] = _OPEN, _CLOSE
        table[ord(",")] = _SEP
    return table


#: the general readers take about this many times longer per node than this one per character
STREAM_FACTOR = 20


def _surely_over(text: str, fmt: str, max_nodes: int) -> bool:
    """Whether a bare tree written as ``text`` would have more than ``max_nodes`` nodes.

    Counted with ``str.count`` alone: every opening bracket is a node, and in
    JSON and YAML every comma is followed by one.
    """
    if fmt == "sexp":
        return text.count("(") > max_nodes
    return text.count("[") > max_nodes or text.count(",") >= max_nodes


def parse_bare(text: str, fmt: str, source: str, max_nodes: int) -> Tree | None:
    """The tree of a bare-form document, or None when the text is anything else.

    Also None when the text is far larger than the node limit allows: the
    general reader, which streams, then stops at the limit long before this
    reader would have classified the whole text (and with little memory).
    """
    small_limit = max_nodes * STREAM_FACTOR < len(text)
    if small_limit and _surely_over(text, fmt, max_nodes):
        return None
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    raw = np.frombuffer(data, dtype=np.uint8)
    if not len(raw):
        return None
    cls = _classes(fmt)[raw]
    if (cls == _OTHER).any():
        return None
    isnum = cls >= _NUM
    # a token starts at a bracket or separator, or where a run of number characters begins
    start = cls >= _OPEN
    start[1:] &= ~isnum[:-1] | ~isnum[1:]
    tok = np.flatnonzero(start).astype(np.int64)
    del start
    kind = np.minimum(cls[tok], _NUM)
    if small_limit and int(np.count_nonzero((kind == _OPEN) | (kind == _NUM))) > max_nodes:
        return None  # more nodes than allowed: the general reader stops at the limit sooner

    # the grammar, on the whole token sequence at once
    ntok = len(tok)
    if ntok == 0:
        return None
    prev, nxt = kind[:-1], kind[1:]
    if fmt == "sexp":
        ok = ~((prev == _OPEN) & (nxt == _CLOSE))  # no empty list
    else:
        after_value = (prev == _NUM) | (prev == _CLOSE)
        ok = np.where(after_value, (nxt == _SEP) | (nxt == _CLOSE),
                      (nxt == _NUM) | (nxt == _OPEN))  # after '[' or ','
    if not ok.all():
        return None
    del ok, prev, nxt
    depth = np.cumsum((kind == _OPEN).astype(np.int32) - (kind == _CLOSE))
    if ntok == 1:
        if kind[0] != _NUM:
            return None
    elif kind[0] != _OPEN or depth[-1] != 0 or (depth[:-1] <= 0).any():
        return None
    if fmt != "sexp":
        keep = kind != _SEP
        tok, kind, depth = tok[keep], kind[keep], depth[keep]
        del keep

    # numbers
    is_open = kind == _OPEN
    num_pos = tok[kind == _NUM]
    last = isnum.copy()
    last[:-1] &= ~isnum[1:]
    num_end = np.flatnonzero(last) + 1  # each run of number characters is one token
    del last, isnum
    values = _numbers(text, raw, cls, fmt, num_pos, num_end)
    del cls
    if values is None:
        return None
    ints, float_mask = values

    # nodes: every '[' and every number, in preorder
    is_node = is_open | (kind == _NUM)
    count_before = np.cumsum(is_node, dtype=np.int64) - is_node
    size = int(is_node.sum())
    if size > max_nodes:
        pos = int(tok[np.flatnonzero(is_node)[max_nodes]])
        line = data.count(b"\n", 0, pos) + 1
        column = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
        raise TreeFormatError(f"the tree has more than {max_nodes:,} nodes; raise --max-nodes to load it",
                              source, line, column)
    node_of_tok = count_before  # the node number of each '[' or number token
    end = np.empty(size, dtype=np.int32 if size < 2**31 - 1 else np.int64)
    leaf_nodes = node_of_tok[kind == _NUM]
    end[leaf_nodes] = leaf_nodes + 1
    # pair brackets: at each level they alternate open, close in text order
    oc = np.flatnonzero(is_open | (kind == _CLOSE))
    level = depth[oc] - is_open[oc]  # an opening bracket's level is the depth before it
    order = np.argsort(level, kind="stable")
    opens, closes = oc[order[0::2]], oc[order[1::2]]
    end[node_of_tok[opens]] = count_before[closes]
    vals = np.full(size, np.nan)
    vals[leaf_nodes] = ints
    floats = None
    if float_mask is not None:
        fm = np.zeros(size, dtype=np.uint8)
        fm[leaf_nodes] = float_mask
        floats = bytearray(fm.tobytes())
    # the depth of every node comes for free here (the depth before its token)
    node_depth = (depth[is_node] - is_open[is_node]).astype(np.int32)
    return Tree(to_array(end), to_array(vals), floats=floats, meta=Meta(), source=source,
                n_leaves=len(leaf_nodes), depth=to_array(node_depth))


def _numbers(text: str, raw: np.ndarray, cls: np.ndarray, fmt: str, pos: np.ndarray,
             end: np.ndarray) -> tuple[np.ndarray, np.ndarray | None] | None:
    """The values of the number tokens [pos, end), or None if one is not a plain literal."""
    values = np.zeros(len(pos), dtype=np.float64)
    neg = raw[pos] == ord("-")
    first = pos + neg
    length = end - first
    # tokens with anything but an optional leading '-' and digits go the slow, exact way
    odd = np.zeros(len(pos), dtype=bool)
    where = np.flatnonzero(cls == _EXP)
    if len(where):
        odd[np.searchsorted(pos, where, side="right") - 1] = True
    minus = np.flatnonzero(cls == _MINUS)
    inner = minus[(minus > 0) & (cls[minus - 1] >= _NUM)]  # a '-' that does not start its token
    if len(inner):
        odd[np.searchsorted(pos, inner, side="right") - 1] = True
    plain = np.flatnonzero(~odd)
    start = first[plain]
    size = length[plain]
    if len(plain) and (size.min() <= 0 or size.max() > 15):
        return None
    if ((raw[start] == ord("0")) & (size > 1)).any():
        return None  # a leading zero: not a plain integer in any of the formats
    # Horner's rule, one digit position at a time over all the plain tokens
    acc = np.zeros(len(plain), dtype=np.int64)
    last = len(raw) - 1
    for j in range(int(size.max()) if len(plain) else 0):
        digit = raw[np.minimum(start + j, last)].astype(np.int64) - 48
        acc = np.where(size > j, acc * 10 + digit, acc)
    values[plain] = np.where(neg[plain], -acc, acc)
    float_mask = None
    if odd.any():
        accept = _FLOAT_OK[fmt].match
        float_mask = np.zeros(len(pos), dtype=np.uint8)
        for k in np.flatnonzero(odd):
            literal = text[pos[k]:end[k]]
            if not accept(literal):
                return None
            v = float(literal)  # the patterns all need a '.' or an exponent: a float
            if v - v != 0:
                return None
            float_mask[k] = 1
            values[k] = v
    return values, float_mask
