"""The tree of one search drawn in the terminal with rich: evaluated and pruned leaves, ranges, PV."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..numbers import format_probability
from ..tree import Tree
from .labels import Labels, format_extended
from .view import SearchView

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text
    from rich.tree import Tree as RichTree

#: node lines drawn before the drawing stops (``--max-lines``)
DEFAULT_MAX_LINES = 400
#: this many pruned siblings in a row or more are folded into one line
RUN = 4
#: columns a label needs at least; deeper levels are not drawn on narrow terminals
MIN_LABEL = 28

EVALUATED = "●"
PRUNED = "✂"
PV_MARK = "★"
LEGEND = (
    f"{EVALUATED} evaluated (#n: n-th evaluation)  {PRUNED} pruned  {PV_MARK} PV  "
    "= ≥ ≤: what the evaluated leaves prove"
)

#: added to the legend for trees with chance nodes
MCTS_LEGEND = (
    f"n visits, mean reward (MAX's), UCB1 in the parent's next selection  {PRUNED} unvisited  "
    f"{PV_MARK} PV by visits"
)
CHANCE_LEGEND = (
    "  CHANCE p=: a chance node, an outcome's probability (the PV takes the most probable)"
)

STYLE_MAX = "bold red"
STYLE_MIN = "bold blue"
STYLE_CHANCE = "bold magenta"
STYLE_PV = "bold yellow"
STYLE_EVALUATED = "green"
STYLE_PRUNED = "dim"
STYLE_TYPE = "cyan"
#: the legend's line for --node-types
TYPES_LEGEND = (
    "[PV] [CUT] [ALL]: Knuth & Moore's node types 1, 2, 3 by position; "
    "after a colon, what the search did otherwise"
)


@dataclass
class Options:
    """What to leave out so that a large tree stays readable."""

    max_depth: int | None = None
    max_lines: int | None = DEFAULT_MAX_LINES
    fold: bool = True
    width: int = 200


def render(
    view: SearchView, options: Options | None = None, source: str | None = None
) -> RenderableType:
    """The drawing: a title, the tree, notes on what was left out, the legend."""
    from rich.console import Group
    from rich.text import Text

    opts = options or Options()
    tree = view.tree
    lines: list[RenderableType] = []
    heading = tree.meta.title or source or tree.source
    if tree.meta.title and source:
        heading += f" ({source})"
    lines.append(Text(heading, style="bold"))
    lines.append(Text(view.title()))
    drawing, notes = _tree(view, opts)
    lines.append(drawing)
    lines.extend(Text(note, style="italic") for note in notes)
    legend = LEGEND if view.tallies is None else MCTS_LEGEND
    lines.append(Text(legend + (CHANCE_LEGEND if tree.has_chance else ""), style="dim"))
    if view.node_types is not None:
        lines.append(Text(TYPES_LEGEND, style="dim"))
    return Group(*lines)


def draw_text(view: SearchView, options: Options | None = None, source: str | None = None) -> str:
    """The drawing as plain text (no colours, no ANSI), as written off a terminal."""
    from rich.console import Console

    opts = options or Options()
    out = io.StringIO()
    console = Console(
        file=out,
        width=opts.width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    print_view(view, console, opts, source)
    return out.getvalue()


def print_view(
    view: SearchView, console: Console, options: Options | None = None, source: str | None = None
) -> None:
    opts = options or Options()
    opts.width = console.width
    console.print(render(view, opts, source), soft_wrap=False, crop=False)


def _tree(view: SearchView, opts: Options) -> tuple[RichTree, list[str]]:
    """The rich Tree, built without recursion, and the notes on what it leaves out."""
    from rich.tree import Tree as RichTree

    tree = view.tree
    end = tree.end
    depth = tree.depth
    labels = view.labels
    pv = set(view.pv)
    notes: list[str] = []

    room = max(1, (opts.width - MIN_LABEL) // 4)
    max_depth = opts.max_depth
    narrow = False
    if tree.max_depth() > room and (max_depth is None or max_depth > room):
        max_depth, narrow = room, True

    root = RichTree(_label(view, 0, labels, pv), guide_style="dim")
    lines = 1
    accounted = 1
    below_limit = 0
    folded_away = 0  # below the nodes a collapsed view does not unfold
    stopped = False
    # (node, the rich Tree its children go under), children pushed last-first
    stack: list[tuple[int | tuple[int, int], RichTree]] = []
    if max_depth is not None and max_depth == 0 and end[0] > 1:
        below_limit += end[0] - 1
        root.add(_more(end[0] - 1))
    else:
        stack.extend((c, root) for c in reversed(_groups(view, 0, opts)))

    while stack:
        item, under = stack.pop()
        if opts.max_lines is not None and lines >= opts.max_lines:
            stopped = True
            break
        lines += 1
        if isinstance(item, tuple):  # a run of pruned siblings, folded
            first, last = item
            count = end[last] - first
            accounted += count
            siblings = _siblings(tree, first, last)
            under.add(_run_label(labels, first, last, count, siblings, view.unsearched))
            continue
        n = item
        if opts.fold and not view.searched[n] and end[n] > n + 1:
            accounted += end[n] - n
            under.add(_folded_label(tree, labels, n, view.unsearched))
            continue
        accounted += 1
        branch = under.add(_label(view, n, labels, pv))
        if end[n] == n + 1:
            continue
        if max_depth is not None and depth[n] >= max_depth:
            hidden = end[n] - n - 1
            below_limit += hidden
            accounted += hidden
            branch.add(_more(hidden))
            continue
        if view.expanded is not None and n not in view.expanded:
            hidden = end[n] - n - 1
            folded_away += hidden
            accounted += hidden
            branch.add(_more(hidden))
            continue
        stack.extend((c, branch) for c in reversed(_groups(view, n, opts)))

    if folded_away:
        notes.append(
            f"collapsed: only the PV's nodes are unfolded; {folded_away:,} nodes not shown"
        )
    if below_limit:
        why = f" (the terminal is {opts.width} columns wide)" if narrow else ""
        notes.append(
            f"output cut: nodes deeper than {max_depth} are not drawn{why}; "
            f"{below_limit:,} nodes not shown"
        )
    if stopped:
        missing = tree.n_nodes - accounted
        notes.append(
            f"output cut after {opts.max_lines:,} lines: {missing:,} more nodes not drawn "
            "(use --max-depth N, or --max-lines N; 0 draws everything)"
        )
    return root, notes


def lines_needed(view: SearchView, fold: bool = True, limit: int | None = None) -> int:
    """How many node lines the whole drawing takes (counting stops past ``limit``)."""
    end = view.tree.end
    opts = Options(fold=fold)
    lines = 1
    stack: list[int | tuple[int, int]] = list(_groups(view, 0, opts))
    while stack and (limit is None or lines <= limit):
        item = stack.pop()
        lines += 1
        if isinstance(item, tuple):
            continue
        n = item
        if end[n] == n + 1 or fold and not view.searched[n]:
            continue
        stack.extend(_groups(view, n, opts))
    return lines


def _groups(view: SearchView, n: int, opts: Options) -> list[int | tuple[int, int]]:
    """n's children in order; with folding, runs of RUN or more pruned siblings as (first, last)."""
    kids = list(view.tree.children(n))
    if not opts.fold:
        return list(kids)
    out: list[int | tuple[int, int]] = []
    i = 0
    while i < len(kids):
        j = i
        while j < len(kids) and not view.searched[kids[j]]:
            j += 1
        if j - i >= RUN:
            out.append((kids[i], kids[j - 1]))
            i = j
        else:
            out.append(kids[i])
            i += 1
    return out


def _siblings(tree: Tree, first: int, last: int) -> int:
    count, c = 0, first
    while c <= last:
        count += 1
        c = tree.end[c]
    return count


def _label(view: SearchView, n: int, labels: Labels, pv: set[int]) -> Text:
    from rich.text import Text

    tree = view.tree
    text = Text(no_wrap=True, overflow="ellipsis")
    on_pv = n in pv
    dim = not view.searched[n]
    base = STYLE_PRUNED if dim else ("bold" if on_pv else "")
    text.append(labels.label(n), style=base)
    p = labels.probability(n)
    if p is not None:
        text.append(f"  p={format_probability(p)}", style=base)
    if tree.end[n] == n + 1:
        text.append("  " + format_extended(tree.number(n)), style=base)
        if n in view.rank:
            text.append(f"  {EVALUATED} {view.order_text(n)}", style=STYLE_EVALUATED)
        elif view.tallies is not None and not dim:  # mcts: a leaf in its search tree
            text.append("  " + view.range_text(n), style="bold")
        else:
            text.append(f"  {PRUNED} {view.unsearched}", style=STYLE_PRUNED)
    else:
        player = labels.player(n)
        style = {"MAX": STYLE_MAX, "MIN": STYLE_MIN}.get(player, STYLE_CHANCE)
        text.append("  ")
        text.append(player, style=STYLE_PRUNED if dim else style)
        if dim:
            text.append(f"  {PRUNED} {view.unsearched}", style=STYLE_PRUNED)
        else:
            text.append("  " + view.range_text(n), style="bold")
            cut = view.cutoffs.get(n)
            if cut is not None:
                sign = "≥ β" if cut.side == "beta" else "≤ α"
                text.append(
                    f"  cutoff: {format_extended(cut.value)} {sign} = {format_extended(cut.bound)}",
                    style="magenta",
                )
    if on_pv:
        text.append(f"  {PV_MARK}", style=STYLE_PV)
    kind = view.node_types.get(n) if view.node_types is not None else None
    note = view.type_notes.get(n) if view.type_notes is not None else None
    if kind is not None or note is not None:
        said = ": ".join(x for x in (kind, note) if x is not None)
        text.append(f"  [{said}]", style=STYLE_TYPE)
    return text


def _folded_label(tree: Tree, labels: Labels, n: int, why: str = "pruned") -> Text:
    """A pruned subtree in one line (``why`` "unvisited": mcts's, never in its search tree)."""
    from rich.text import Text

    size = tree.end[n] - n
    leaves = sum(1 for m in range(n, tree.end[n]) if tree.end[m] == m + 1)
    player = labels.player(n)
    return Text(
        f"{PRUNED} {labels.label(n)}  {player}  … {size:,} nodes "
        f"{'cut' if why == 'pruned' else why} "
        f"({leaves:,} {'leaf' if leaves == 1 else 'leaves'})",
        style=STYLE_PRUNED,
        no_wrap=True,
        overflow="ellipsis",
    )


def _run_label(
    labels: Labels, first: int, last: int, count: int, siblings: int, why: str = "pruned"
) -> Text:
    """A run of pruned (or, ``why`` "unvisited", mcts's unvisited) siblings in one line."""
    from rich.text import Text

    cut = "cut" if why == "pruned" else why
    return Text(
        f"{PRUNED} {labels.label(first)} … {labels.label(last)}  … {count:,} nodes {cut} "
        f"({siblings} siblings)",
        style=STYLE_PRUNED,
        no_wrap=True,
        overflow="ellipsis",
    )


def _more(hidden: int) -> Text:
    from rich.text import Text

    return Text(
        f"… {hidden:,} nodes below, not drawn",
        style="italic dim",
        no_wrap=True,
        overflow="ellipsis",
    )


__all__ = [
    "DEFAULT_MAX_LINES",
    "LEGEND",
    "MCTS_LEGEND",
    "TYPES_LEGEND",
    "Options",
    "draw_text",
    "lines_needed",
    "print_view",
    "render",
]
