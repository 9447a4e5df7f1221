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
from array import array
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import TreeFormatError
from ..flat import as_numpy
from ..tree import Meta, Tree, index_array

if TYPE_CHECKING:  # a bare np.ndarray fails mypy --strict under numpy < 2.3 (Python 3.10)
    from numpy.typing import NDArray

# character classes; number characters are _NUM (digits), _MINUS or _EXP ('+', '.', 'e', 'E')
_OTHER, _SPACE, _OPEN, _CLOSE, _SEP, _NUM, _MINUS, _EXP = range(8)

#: number literals that are not plain integers, as each format reads them
_FLOAT_OK = {
    "json": re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z"),
    # written the same way in YAML 1.1 (PyYAML) and in s-expressions: digits, a dot, digits
    "yaml": re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z"),
    "sexp": re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z"),
}


def _classes(fmt: str) -> NDArray[Any]:
    table = np.full(256, _OTHER, dtype=np.uint8)
    # YAML refuses a tab in some places (indentation): its texts with tabs go to its own reader
    for ch in b" \r\n" if fmt == "yaml" else b" \t\r\n":
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

    Memory: a few bytes per character while classifying, then int32 arrays
    per token; the tree's own arrays are allocated once and filled in place.
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
    index: Any = np.int32 if len(raw) < 2**31 - 1 else np.int64
    isnum = cls >= _NUM
    # tokens (separators aside): every bracket, and the first character of every number
    start = cls == _OPEN
    start |= cls == _CLOSE
    start[0] |= isnum[0]
    start[1:] |= isnum[1:] & ~isnum[:-1]
    tok = np.flatnonzero(start).astype(index)
    del start
    ntok = len(tok)
    if ntok == 0:
        return None
    kind = np.minimum(cls[tok], _NUM)
    if small_limit and int(np.count_nonzero(kind != _CLOSE)) > max_nodes:
        return None  # more nodes than allowed: the general reader stops at the limit sooner

    # the grammar, on the whole token sequence at once
    prev, nxt = kind[:-1], kind[1:]
    if fmt == "sexp":
        ok = ~((prev == _OPEN) & (nxt == _CLOSE))  # no empty list
    else:
        sep = (cls == _SEP).view(np.uint8)
        if sep[: tok[0]].any():
            return None
        between = np.add.reduceat(sep, tok, dtype=np.int32)  # commas after each token
        del sep
        if between[-1]:
            return None
        commas = between[:-1]
        after_value = prev != _OPEN
        ok = np.where(
            after_value,
            np.where(nxt == _CLOSE, commas == 0, commas == 1),
            (nxt != _CLOSE) & (commas == 0),
        )  # after '[' a value, no comma
        del between, commas, after_value
    if not ok.all():
        return None
    del ok, prev, nxt
    step = (kind == _OPEN).view(np.int8) - (kind == _CLOSE).view(np.int8)
    depth = np.cumsum(step, dtype=np.int32)  # the depth after each token
    del step
    if ntok == 1:
        if kind[0] != _NUM:
            return None
    elif kind[0] != _OPEN or depth[-1] != 0 or (depth[:-1] <= 0).any():
        return None

    # numbers: where they end, and which hold more than an optional '-' and digits
    is_num = kind == _NUM
    num_pos = tok[is_num]
    last = isnum.copy()
    last[:-1] &= ~isnum[1:]
    num_end = (np.flatnonzero(last) + 1).astype(index)  # each run of number characters is one token
    del last, isnum
    exp_chars = np.flatnonzero(cls == _EXP)
    minus = np.flatnonzero(cls == _MINUS)
    inner_minus = minus[
        (minus > 0) & (cls[minus - 1] >= _NUM)
    ]  # a '-' that does not start its token
    del minus, cls
    numbers = _numbers(text, raw, fmt, num_pos, num_end, np.concatenate((exp_chars, inner_minus)))
    del exp_chars, inner_minus, num_end, num_pos, raw, data
    if numbers is None:
        return None
    leaf_values, float_mask = numbers

    # nodes: every '[' and every number, in preorder
    is_node = ~(kind == _CLOSE)
    node_of_tok = np.cumsum(is_node, dtype=index)
    node_of_tok -= is_node  # the number of nodes before each token
    size = int(node_of_tok[-1]) + int(is_node[-1])
    if size > max_nodes:
        pos = int(tok[np.flatnonzero(is_node)[max_nodes]])
        line = text.count("\n", 0, pos) + 1  # the text is ASCII: characters are bytes
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise TreeFormatError(
            f"the tree has more than {max_nodes:,} nodes; raise --max-nodes to load it",
            source,
            line,
            column,
        )
    del tok
    end_arr = array(index_array(size).typecode, [0]) * size
    val_arr = array("d", [float("nan")]) * size
    depth_arr = array("i", [0]) * size
    end = as_numpy(end_arr)
    leaf_nodes = node_of_tok[is_num]
    end[leaf_nodes] = leaf_nodes + 1
    as_numpy(val_arr)[leaf_nodes] = leaf_values
    del leaf_values
    is_open = kind == _OPEN
    as_numpy(depth_arr)[:] = depth[is_node] - is_open[is_node]  # the depth before each node
    del is_node
    # pair brackets: at each level they alternate open, close in text order
    oc = np.flatnonzero(~is_num).astype(index)
    level = depth[oc] - is_open[oc]  # an opening bracket's level is the depth before it
    del depth, is_open, kind
    order = np.argsort(level, kind="stable")
    del level
    end[node_of_tok[oc[order[0::2]]]] = node_of_tok[oc[order[1::2]]]
    del order, oc, node_of_tok
    floats = None
    if float_mask is not None:
        fm = np.zeros(size, dtype=np.uint8)
        fm[leaf_nodes] = float_mask
        floats = bytearray(fm.tobytes())
    return Tree(
        end_arr,
        val_arr,
        floats=floats,
        meta=Meta(),
        source=source,
        n_leaves=len(leaf_nodes),
        depth=depth_arr,
    )


def _numbers(
    text: str,
    raw: NDArray[Any],
    fmt: str,
    pos: NDArray[Any],
    end: NDArray[Any],
    odd_chars: NDArray[Any],
) -> tuple[NDArray[Any], NDArray[Any] | None] | None:
    """The values of the number tokens [pos, end), or None if one is not a plain literal.

    ``odd_chars`` are the positions of characters that make a token more than
    an optional leading '-' and digits ('+', '.', 'e', 'E', an inner '-');
    such tokens are read one by one, exactly, the rest by Horner's rule.
    """
    count = len(pos)
    neg = raw[pos] == ord("-")
    first = pos + neg
    length = end - first
    odd = np.zeros(count, dtype=bool)
    if len(odd_chars):
        odd[np.searchsorted(pos, odd_chars, side="right") - 1] = True
    plain = ~odd
    if count and plain.any():
        size = length[plain]
        if size.min() <= 0 or size.max() > 15:
            return None
        if ((raw[first[plain]] == ord("0")) & (size > 1)).any():
            return None  # a leading zero: not a plain integer in any of the formats
        longest = int(size.max())
        del size
    else:
        longest = 0
    # Horner's rule in float64 (exact below 2**53), one digit position at a time, in place
    values = np.zeros(count, dtype=np.float64)
    top = len(raw) - 1
    for j in range(longest):
        digit = raw[np.minimum(first + j, top)] - np.uint8(48)
        more = length > j
        np.multiply(values, 10, out=values, where=more)
        np.add(values, digit, out=values, where=more)
    np.negative(values, out=values, where=neg)
    float_mask = None
    if odd.any():
        accept = _FLOAT_OK[fmt].match
        float_mask = np.zeros(count, dtype=np.uint8)
        for k in np.flatnonzero(odd):
            literal = text[pos[k] : end[k]]
            if not accept(literal):
                return None
            v = float(literal)  # the patterns all need a '.' or an exponent: a float
            if v - v != 0:
                return None
            float_mask[k] = 1
            values[k] = v
    return values, float_mask
