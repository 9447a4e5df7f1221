"""Jupyter's rich display: what ``Tree._repr_svg_`` and ``SearchResult._repr_html_`` show.

A tree in a notebook cell draws itself as SVG (the bare tree: shapes, names,
leaf values; its top levels when it is large), and a search result as a small
table with the tree drawn as that search left it (the marks of ``gtsearch
show --svg``; collapsed to the PV when the tree is large).  The result keeps
the tree it was searched on (``SearchResult.tree``, set by search()), and the
picture comes from running the same search again through
:func:`gtsearch.render.view.build_view`.

The two methods live on the ground classes, as Jupyter requires, and import
this module only when a notebook calls them (the one exception to the layers
that tests/test_architecture.py allows).
"""

from __future__ import annotations

from html import escape

from ..algorithms.params import PARAM_NAMES
from ..result import SearchResult
from ..tree import Tree
from .focus import collapsed
from .labels import format_pv, format_seconds, format_value, params_text, total_text
from .svg import MAX_PICTURE_NODES, fits, to_svg
from .view import bare_view, build_view

#: a tree larger than this draws its top levels only, a result's picture is collapsed
MAX_NOTEBOOK_NODES = 1000


def top_depth(tree: Tree, limit: int = MAX_NOTEBOOK_NODES) -> int | None:
    """The depth to cut a bare drawing at so that at most ``limit`` nodes are drawn (None: all)."""
    if tree.n_nodes <= limit:
        return None
    import numpy as np

    per_level = np.bincount(np.frombuffer(tree.depth, dtype=np.dtype(tree.depth.typecode)))
    drawn = np.cumsum(per_level)
    # the deepest level whose nodes, with all above them, are at most `limit`
    return max(int(np.searchsorted(drawn, limit, side="right")) - 1, 0)


def tree_svg(tree: Tree) -> str:
    """The bare tree as SVG (no search): its top levels only when it has many nodes."""
    return to_svg(bare_view(tree), top_depth(tree), state=False)


def kind_text(result: SearchResult) -> str:
    """What kind of value it is, when not exact: `` (lower bound)``, mcts's `` (estimate)``."""
    if result.exact:
        return ""
    return " (estimate)" if result.bound == "estimate" else f" ({result.bound} bound)"


def result_table(result: SearchResult) -> str:
    """The result as a small HTML table: algorithm, value, PV, leaves, nodes, time."""
    rows = [
        (
            "algorithm",
            result.algorithm + (f" ({params_text(result.params)})" if result.params else ""),
        ),
        ("value", format_value(result) + kind_text(result)),
        ("PV", format_pv(result)),
        ("leaves", f"{result.leaves:,} of {total_text(result.leaves_total, ',')} evaluated"),
        ("nodes", f"{result.nodes:,}"),
    ]
    rows += [(k.replace("_", " "), str(v)) for k, v in result.extra.items()]
    rows.append(("time", format_seconds(result.seconds)))
    body = "".join(
        f'<tr><th style="text-align:left">{escape(k)}</th><td style="text-align:left">'
        f"{escape(v)}</td></tr>"
        for k, v in rows
    )
    return f'<table class="gtsearch-result">{body}</table>'


def result_html(result: SearchResult) -> str:
    """The table and, when the result knows its tree, the tree drawn with the search's marks."""
    table = result_table(result)
    tree = result.tree
    if tree is None:
        return table
    if tree.n_nodes > 50 * MAX_PICTURE_NODES:
        note = f"(the tree has {tree.n_nodes:,} nodes: too many to draw here)"
        return f"{table}<p>{escape(note)}</p>"
    # the numbers it searched with (the shown parameters also say where the leaf bounds came from)
    params = {k: v for k, v in result.params.items() if k in PARAM_NAMES}
    view = build_view(tree, result.algorithm, **params)
    if tree.n_nodes > MAX_NOTEBOOK_NODES or not fits(view):
        view = collapsed(view)
    return f'{table}<div class="gtsearch-tree">{to_svg(view)}</div>'


__all__ = ["MAX_NOTEBOOK_NODES", "result_html", "result_table", "top_depth", "tree_svg"]
