"""The compiled tokenizers of gtsearch.core: a document straight into the flat arrays, or None.

The C readers (JSON, flow YAML, s-expressions, bare and full form; Gambit's
.efg) only ever accept: on anything they do not take, or any error at all, they return None
and the format's own reader runs, which reports problems with their place.
A document they take gives the very tree the format's reader gives (the
tests compare them on random trees written by the writers).
"""

from __future__ import annotations

import sys

from ..core import native
from ..tree import Meta, Tree, index_array
from .tokens import Locator


def parse_compiled(text: str, fmt: str, source: str, max_nodes: int) -> Tree | None:
    """The tree of the document ``text`` in format ``fmt``, or None (pure core, or declined)."""
    core = native()
    if core is None:
        return None
    # no tree has 2**63 nodes: a larger limit is no limit, and the C readers take 64 bits
    max_nodes = min(max_nodes, sys.maxsize)
    wide = index_array(max_nodes).typecode == "q"
    if fmt == "sexp":
        parts = core.load_sexp(text, max_nodes, wide)
    elif fmt == "efg":
        parts = core.load_efg(text, max_nodes, wide)
    else:
        parts = core.load_mapping(text, fmt == "yaml", max_nodes, wide)
    if parts is None:
        return None
    end, values, floats, depth, names, n_leaves, root_max, title, description, expect, root, at = (
        parts
    )
    meta = Meta(title, description, expect, root)
    if at >= 0:  # where the file states expect, as the format's reader gives it
        meta.expect_at = Locator(text)(at)
    return Tree(
        end,
        values,
        names=names,
        floats=floats,
        root_max=root_max,
        meta=meta,
        source=source,
        n_leaves=n_leaves,
        depth=depth,
    )
