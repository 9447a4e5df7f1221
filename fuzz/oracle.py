"""The oracle of fuzz/harness.c: the C reader's tree for an input against the Python reader's.

``check(fmt, data)`` decodes the bytes as UTF-8 (an invalid byte becomes U+FFFD, so that every
input is a text the readers can be given) and returns 0 when the C reader took the text (and
gave the tree the format's own reader gives), 1 when it declined it (the format's reader then
has the last word, as in gtsearch.formats).  Anything else
raises, and the harness aborts: a disagreement, an exception out of the C reader, an exception
other than TreeFormatError out of the Python reader.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from gtsearch import core
from gtsearch.errors import TreeFormatError
from gtsearch.formats.compiled import parse_compiled
from gtsearch.tree import Tree

#: a node limit well above what an input of libFuzzer's -max_len holds, so that both readers
#: stop at it alike when an input is made of many short leaves
MAX_NODES = 50_000
READERS = {
    fmt: importlib.import_module(f"gtsearch.formats.{module}").parse
    for fmt, module in (("json", "jsonfmt"), ("yaml", "yamlfmt"), ("sexp", "sexp"), ("efg", "efg"))
}


def instrumented() -> bool:
    """Whether the C core is the one built into the harness (a built-in module, no file),
    and not the extension on disk, which libFuzzer would not see."""
    native = core.native()
    return native is not None and getattr(native, "__file__", None) is None


def negative_zeros(t: Tree) -> list[int]:
    """The nodes worth -0.0, which Tree's equality does not tell from 0.0."""
    return [n for n, v in enumerate(t.values) if v == 0 and math.copysign(1.0, v) < 0]


def same_tree(a: Tree, b: Tree) -> bool:
    """Equal in everything a reader sets (tests/test_native.py compares the same way)."""
    return (
        a == b
        and a.n_leaves == b.n_leaves
        and list(a.depth) == list(b.depth)
        and list(a.floats or b"") == list(b.floats or b"")
        and (a.floats is None) == (b.floats is None)
        and dict(a.names) == dict(b.names)
        and negative_zeros(a) == negative_zeros(b)
        and repr(a.meta) == repr(b.meta)
        and a.meta.expect_at == b.meta.expect_at
        and list(a.chance or b"") == list(b.chance or b"")
        and a.weights == b.weights
    )


def check(fmt: str, data: bytes) -> int:
    text = data.decode("utf-8", "replace")
    tree = parse_compiled(text, fmt, "<fuzz>", MAX_NODES)
    if tree is None:
        return 1
    try:
        reference: Any = READERS[fmt](text, "<fuzz>", max_nodes=MAX_NODES)
    except TreeFormatError as e:
        raise AssertionError(f"the C reader took a text the {fmt} reader refuses: {e}") from None
    if not same_tree(tree, reference):
        raise AssertionError(f"the C reader's tree differs from the {fmt} reader's")
    return 0
