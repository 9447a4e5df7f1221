"""Big trees: one subtree of a search (``show --focus PATH``) and the collapsed view (the PV unfolded).

A path is child indices from 0 (``0.2``) or the names from the root down (``B/b1``):
names differ among siblings, so a path of names leads to one node.

A focused view is the view of the subtree at a path, with the marks of the
whole search (evaluated leaves keep their number in the whole order, the
ranges, cutoffs, node types and, for the replay, the events inside the
subtree); its nodes are renumbered from 0 but keep their labels (an unnamed
node is still called by its path in the whole tree).  The collapsed view draws
the PV and the children of its nodes, every other subtree folded into one
node with its size: what ``show`` draws when a tree is too large to draw whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..algorithms.events import Cutoff, Event, Leaf, Result, Return, Start, State, Take
from ..errors import UsageError
from ..tree import Meta, Tree, index_array
from .labels import format_path
from .view import SearchView

#: a step of a path: a child index from 0, or a child's name
Step = int | str

_INDICES = re.compile(r"[0-9]+(?:\.[0-9]+)*\Z")


def parse_path(text: str) -> tuple[Step, ...]:
    """A node's path from the root: ``0.2.1`` (child indices from 0) or ``B/b1`` (names).

    ``root``, ``(root)``, ``/`` and ``""`` are the root.  A path of digits and dots is child
    indices; anything else is the names of the nodes from the root's child down, separated
    by ``/`` (``\\/`` is a slash inside a name, ``\\\\`` a backslash).  A leading ``/`` marks
    a path of names, which names that look like indices need (``/5/51``: the child named 5,
    then its child named 51).  Names differ among siblings, so a path of names is one node.
    """
    text = text.strip()
    if text in ("", "root", "(root)", "/"):
        return ()
    if _INDICES.match(text):
        return tuple(int(part) for part in text.split("."))
    if re.fullmatch(r"-?[0-9]+(?:\.-?[0-9]+)*", text):
        raise UsageError(f"--focus takes child indices from 0, got {text!r}")
    names: list[str] = []
    part: list[str] = []
    chars = iter(text[1:] if text.startswith("/") else text)
    for ch in chars:
        if ch == "\\":
            ch = next(chars, "\\")
        elif ch == "/":
            names.append("".join(part))
            part = []
            continue
        part.append(ch)
    names.append("".join(part))
    if "" in names:
        raise UsageError(
            f"--focus {text}: a path of names has a name between every two '/' "
            "(such as B/b1; child indices from 0 are written 0.2)"
        )
    return tuple(names)


def format_steps(path: Sequence[Step]) -> str:
    """A path as --focus takes it: child indices joined by '.', names by '/' (escaped)."""
    if not path or isinstance(path[0], int):
        return format_path([int(i) for i in path])
    parts = [str(name).replace("\\", "\\\\").replace("/", "\\/") for name in path]
    lead = "/" if _INDICES.match(parts[0]) or parts[0] in ("root", "(root)") else ""
    return lead + "/".join(parts)


def node_at(tree: Tree, path: Sequence[Step]) -> tuple[int, tuple[int, ...]]:
    """The node at ``path`` and its path of child indices, or a usage error that says where
    the path leaves the tree."""
    n = 0
    indices: list[int] = []
    for depth, step in enumerate(path):
        kids = list(tree.children(n))
        where = format_steps(path[:depth])
        if not kids:
            raise UsageError(f"--focus {format_steps(path)}: the node at {where} is a leaf")
        if isinstance(step, str):
            found = [i for i, c in enumerate(kids) if tree.names.get(c) == step]
            if not found:
                named = [tree.names[c] for c in kids if c in tree.names]
                has = (
                    f"its children are named {', '.join(repr(x) for x in named[:10])}"
                    + (", ..." if len(named) > 10 else "")
                    if named
                    else "its children have no names (child indices from 0, such as 0.2, "
                    "reach them)"
                )
                raise UsageError(
                    f"--focus {format_steps(path)}: the node at {where} has no child named "
                    f"{step!r}; {has}"
                )
            i = found[0]
        else:
            i = step
            if i >= len(kids):
                raise UsageError(
                    f"--focus {format_steps(path)}: the node at {where} has {len(kids)} "
                    f"children, numbered 0 to {len(kids) - 1}"
                )
        indices.append(i)
        n = kids[i]
    return n, tuple(indices)


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


def focus_view(view: SearchView, path: Sequence[Step]) -> SearchView:
    """The view of the subtree at ``path`` (child indices from 0, or names), with the whole
    search's marks."""
    if not path:
        return view
    tree = view.tree
    f, indices = node_at(tree, path)
    e = tree.end[f]
    name = tree.names.get(f)
    if isinstance(path[0], str) and not view.focus:  # named as the user named it
        title = f"the subtree at {format_steps(path)}"
    else:
        where = format_path(view.focus + indices)
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
    if view.events is not None and view.tallies is not None:
        raise UsageError("the replay of mcts follows the whole tree: drop --focus or --html")
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
        type_notes=None if view.type_notes is None else _shifted(view.type_notes, f, e),
        focus=view.focus + indices,
        tallies=None if view.tallies is None else _shifted(view.tallies, f, e),
        expanded=None
        if view.expanded is None
        else frozenset(n - f for n in view.expanded if inside(n)),
        readings=_shifted(view.readings, f, e),
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
    "Step",
    "collapsed",
    "focus_view",
    "format_steps",
    "node_at",
    "parse_path",
    "subtree",
    "too_large_note",
]
