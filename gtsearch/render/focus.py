"""Big trees: one subtree of a search (``show --focus PATH``) and the collapsed view (the PV unfolded).

A focused view is the view of the subtree at a path, with the marks of the
whole search (evaluated leaves keep their number in the whole order, the
ranges, cutoffs, node types and, for the replay, the events inside the
subtree); its nodes are renumbered from 0 but keep their labels (an unnamed
node is still called by its path in the whole tree).  The collapsed view draws
the PV and the children of its nodes, every other subtree folded into one
node with its size: what ``show`` draws when a tree is too large to draw whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..algorithms.events import Cutoff, Event, Leaf, Result, Return, Start, State, Take
from ..errors import UsageError
from ..tree import Meta, Tree, index_array
from .labels import format_path
from .view import SearchView


def parse_path(text: str) -> tuple[int, ...]:
    """``0.2.1`` as child indices; ``root`` or ``""`` is the root."""
    text = text.strip()
    if text in ("", "root", "(root)"):
        return ()
    try:
        path = tuple(int(part) for part in text.split("."))
    except ValueError:
        raise UsageError(
            f"--focus takes a path of child indices from 0, such as 0.2, got {text!r}"
        ) from None
    if any(i < 0 for i in path):
        raise UsageError(f"--focus takes child indices from 0, got {text!r}")
    return path


def node_at(tree: Tree, path: Sequence[int]) -> int:
    """The node at ``path``, or a usage error that says where the path leaves the tree."""
    n = 0
    for depth, i in enumerate(path):
        kids = list(tree.children(n))
        if i >= len(kids):
            where = format_path(path[:depth])
            if not kids:
                raise UsageError(f"--focus {format_path(path)}: the node at {where} is a leaf")
            raise UsageError(
                f"--focus {format_path(path)}: the node at {where} has {len(kids)} "
                f"children, numbered 0 to {len(kids) - 1}"
            )
        n = kids[i]
    return n


def subtree(tree: Tree, f: int, title: str) -> Tree:
    """The subtree at node ``f`` as a tree of its own (nodes renumbered from 0)."""
    e = tree.end[f]
    end = index_array(e - f)
    end.extend(tree.end[n] - f for n in range(f, e))
    floats = bytearray(tree.floats[f:e]) if tree.floats is not None else None
    return Tree(
        end,
        tree.values[f:e],
        names={n - f: name for n, name in tree.names.items() if f <= n < e},
        floats=floats,
        root_max=tree.is_max(f),
        meta=Meta(title=title),
        source=tree.source,
    )


def focus_view(view: SearchView, path: Sequence[int]) -> SearchView:
    """The view of the subtree at ``path`` (child indices from 0), with the whole search's marks."""
    path = tuple(path)
    if not path:
        return view
    tree = view.tree
    f = node_at(tree, path)
    e = tree.end[f]
    where = format_path(view.focus + path)
    name = tree.names.get(f)
    title = f"the subtree at {where}" + (f" ({name})" if name is not None else "")
    if tree.meta.title:
        title = f"{tree.meta.title}: {title}"

    def inside(n: int) -> bool:
        return f <= n < e

    cutoffs = {
        n - f: replace(c, node=n - f, skipped=tuple(s - f for s in c.skipped))
        for n, c in view.cutoffs.items()
        if inside(n)
    }
    events = None
    if view.events is not None:
        events = [x for x in (_shift(ev, f, e) for ev in view.events) if x is not None]
    return SearchView(
        subtree(tree, f, title),
        view.algorithm,
        view.result,
        {n - f: r for n, r in view.rank.items() if inside(n)},
        view.searched[f:e],
        {n - f: r for n, r in view.ranges.items() if inside(n)},
        [n - f for n in view.pv if inside(n)],
        cutoffs,
        events,
        bounds=view.bounds,
        node_types=None if view.node_types is None else _shifted(view.node_types, f, e),
        focus=view.focus + path,
        expanded=None
        if view.expanded is None
        else frozenset(n - f for n in view.expanded if inside(n)),
    )


def _shifted(d: dict[int, Any], f: int, e: int) -> dict[int, Any]:
    return {n - f: v for n, v in d.items() if f <= n < e}


def _states(states: tuple[State, ...] | None, f: int, e: int) -> tuple[State, ...] | None:
    if states is None:
        return None
    return tuple(replace(s, node=s.node - f) for s in states if f <= s.node < e)


def _shift(ev: Event, f: int, e: int) -> Event | None:
    """The event renumbered for the subtree [f, e), or None when it happens outside it."""
    if isinstance(ev, Start):
        return replace(ev, node=0, open=_states(ev.open, f, e))
    if isinstance(ev, Result):
        return replace(ev, node=0)
    if not f <= ev.node < e:
        return None
    if isinstance(ev, Cutoff):
        return replace(ev, node=ev.node - f, skipped=tuple(s - f for s in ev.skipped))
    if isinstance(ev, Take):
        return replace(
            ev,
            node=ev.node - f,
            state=replace(ev.state, node=ev.state.node - f),
            inserted=_states(ev.inserted, f, e) or (),
            purged=_states(ev.purged, f, e) or (),
            open=_states(ev.open, f, e),
        )
    if isinstance(ev, (Leaf, Return)) and ev.node == f:  # its parent is not in the picture
        return replace(ev, node=0, parent_best=None)
    return replace(ev, node=ev.node - f)


def collapsed(view: SearchView) -> SearchView:
    """The view with only the PV's nodes unfolded: each other child drawn folded, with its size."""
    return replace(view, expanded=frozenset(view.pv[:-1]) | {0})


def too_large_note(view: SearchView, limit: str) -> str:
    """The one line ``show`` prints when it draws the collapsed view instead of the whole tree."""
    return (
        f"the tree has {view.tree.n_nodes:,} nodes, too many to draw usefully ({limit}): "
        "drawing the PV with its siblings folded; --focus PATH draws one subtree, "
        "--max-depth N the top levels"
    )


__all__ = [
    "collapsed",
    "focus_view",
    "node_at",
    "parse_path",
    "subtree",
    "too_large_note",
]
