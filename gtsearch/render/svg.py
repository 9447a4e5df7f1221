"""Pictures of one search written by our own code: Graphviz DOT text and SVG from a simple layered layout."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape

from ..errors import GtsearchError
from ..numbers import fraction_text
from ..tree import Tree
from .labels import Labels, format_extended
from .view import SearchView

#: pictures with more nodes than this are refused (use --max-depth)
MAX_PICTURE_NODES = 5000

# geometry of the SVG, in pixels
DY = 78  # between levels
MIN_DX = 54  # between leaf slots
GROUP_GAP = 0.4  # extra space, in slots, between the leaves of different parents
MARGIN = 28
TOP = 64  # room for the two title lines
HALF = 19  # half the width of a triangle
LEAF_H = 22
RADIUS = 17  # a chance node's circle

#: a white outline under a label, so that it stays readable where an edge crosses it
HALO = 'stroke="white" stroke-width="3" paint-order="stroke"'

COLOR_PV = "#d35400"
COLOR_PRUNED = "#9a9a9a"
COLOR_EVALUATED = "#2f6fc9"
COLOR_MAX = "#b03030"
COLOR_MIN = "#2b50a8"
COLOR_TYPE = "#127a7a"
COLOR_CHANCE = "#7d3c98"


@dataclass
class Layout:
    """Where every drawn node goes: x, y (centres) and which nodes hide children."""

    nodes: list[int]
    x: dict[int, float]
    y: dict[int, float]
    #: nodes at the depth limit whose children are not drawn -> how many nodes are hidden
    hidden: dict[int, int]
    width: float
    height: float
    leaf_width: float


def drawn_nodes(
    tree: Tree, max_depth: int | None, expanded: frozenset[int] | None = None
) -> tuple[list[int], dict[int, int]]:
    """The nodes a picture shows (preorder), and those whose children are hidden.

    Children are hidden below the depth limit, and in a collapsed view
    (``expanded``: the only nodes whose children are drawn) below every other node.
    """
    end = tree.end
    depth = tree.depth
    nodes: list[int] = []
    hidden: dict[int, int] = {}
    n = 0
    size = tree.n_nodes
    while n < size:
        nodes.append(n)
        if len(nodes) > MAX_PICTURE_NODES:
            raise GtsearchError(
                f"the picture would have more than {MAX_PICTURE_NODES:,} nodes "
                f"(the tree has {size:,}); draw its top with --max-depth N"
            )
        folded = max_depth is not None and depth[n] >= max_depth
        if expanded is not None and n not in expanded:
            folded = True
        if folded and end[n] > n + 1:
            hidden[n] = end[n] - n - 1
            n = end[n]
        else:
            n += 1
    return nodes, hidden


def fits(view: SearchView, max_depth: int | None = None) -> bool:
    """Whether the picture of the view has at most MAX_PICTURE_NODES nodes."""
    try:
        drawn_nodes(view.tree, max_depth, view.expanded)
    except GtsearchError:
        return False
    return True


def layout(view: SearchView, max_depth: int | None = None) -> Layout:
    """Leaves (and nodes at the depth limit) side by side in order, each parent centred above."""
    tree = view.tree
    nodes, hidden = drawn_nodes(tree, max_depth, view.expanded)
    end = tree.end
    depth = tree.depth
    widest = max(
        (len(format_extended(tree.number(n))) for n in nodes if end[n] == n + 1), default=1
    )
    names = max((len(tree.names.get(n, "")) for n in nodes if end[n] == n + 1), default=0)
    leaf_width = max(30.0, 7.5 * widest + 12)
    dx = max(MIN_DX, leaf_width + 14, 6.5 * names + 10)
    x: dict[int, float] = {}
    y: dict[int, float] = {}
    parent = tree.parent
    slot = -1.0
    last_parent = None
    for n in nodes:
        y[n] = TOP + MARGIN + depth[n] * DY
        if end[n] == n + 1 or n in hidden:
            slot += 1 if last_parent in (None, parent[n]) else 1 + GROUP_GAP
            last_parent = parent[n]
            x[n] = MARGIN + 40 + slot * dx
    for n in reversed(nodes):  # children before their parents
        if n not in x:
            kids = list(tree.children(n))
            x[n] = (x[kids[0]] + x[kids[-1]]) / 2
    width = MARGIN * 2 + 80 + max(slot, 0) * dx
    height = max(y.values()) + MARGIN + 70
    return Layout(nodes, x, y, hidden, max(width, 560.0), height, leaf_width)


# -- the geometry every picture shares (SVG here, TikZ in gtsearch.render.tikz) ---------------
#: how far below / above its centre each shape ends, where the edges meet it
BELOW = {"max": 14.0, "min": 18.0, "chance": float(RADIUS), "leaf": LEAF_H / 2}
ABOVE = {"max": 18.0, "min": 14.0, "chance": float(RADIUS), "leaf": LEAF_H / 2}


def shape(tree: Tree, n: int) -> str:
    """How a node is drawn: ``"leaf"`` (a box), ``"max"`` (a triangle), ``"min"`` (upside down)
    or ``"chance"`` (a circle)."""
    if tree.end[n] == n + 1:
        return "leaf"
    if tree.is_chance(n):
        return "chance"
    return "max" if tree.is_max(n) else "min"


def triangle(kind: str, x: float, y: float) -> tuple[tuple[float, float], ...]:
    """The corners of a MAX node's triangle (``kind`` "max", apex up) or a MIN node's."""
    if kind == "max":
        return (x, y - 18), (x - HALF - 3, y + 14), (x + HALF + 3, y + 14)
    return (x - HALF - 3, y - 14), (x + HALF + 3, y - 14), (x, y + 18)


class Mark(NamedTuple):
    """A text drawn beside a node's shape, centred on (x, y); a name beside an inner node has
    its near end there instead (on the left of the node, a node type on the right)."""

    role: str  # "name", "type" (the node type) or "hidden" (the count of nodes not drawn)
    x: float
    y: float
    text: str


def marks(view: SearchView, lay: Layout, n: int, node_types: bool = True) -> list[Mark]:
    """The texts around node n: a leaf's name above it and its node type below it; an inner
    node's name on its left, its node type on its right and the nodes hidden below it."""
    tree = view.tree
    x, y = lay.x[n], lay.y[n]
    name = tree.names.get(n)
    kind = view.node_types.get(n) if node_types and view.node_types is not None else None
    out = []
    if tree.end[n] == n + 1:
        if name is not None:
            out.append(Mark("name", x, y - LEAF_H / 2 - 9, name))
        if kind is not None:
            out.append(Mark("type", x, y + LEAF_H / 2 + 22, kind))
        return out
    if name is not None:
        out.append(Mark("name", x - HALF - 8, y, name))
    if kind is not None:
        out.append(Mark("type", x + HALF + 8, y, kind))
    hidden = lay.hidden.get(n)
    if hidden:
        out.append(Mark("hidden", x, y + 34, f"… {hidden:,} nodes"))
    return out


def _short_range(view: SearchView, n: int) -> str:
    return short_range(view.range_text(n))


def short_range(text: str) -> str:
    """A range (render.labels.range_text) short enough for a triangle: 3, ≤2, ≥5, 2..5, or nothing."""
    if text == "?":
        return ""
    if text.startswith("= "):
        return text[2:]
    if text.startswith("∈ ["):
        lo, hi = text[3:-1].split(", ")
        return f"{lo}..{hi}"
    return text.replace(" ", "")


# -- SVG ------------------------------------------------------------------------------------
def to_svg(
    view: SearchView, max_depth: int | None = None, *, state: bool = True, source: str | None = None
) -> str:
    """The picture as an SVG document.

    ``state`` True draws the search's outcome (evaluated leaves filled,
    pruned nodes and edges grey and dashed, the PV bold, value ranges); False
    draws the bare tree, with element ids and classes that the HTML replay
    styles step by step.
    """
    tree = view.tree
    lay = layout(view, max_depth)
    labels = view.labels
    parent = tree.parent
    pv = set(view.pv)
    out: list[str] = []
    w, h = lay.width, lay.height
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
        f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
        'class="gtsearch-tree">'
    )
    title = tree.meta.title or source or tree.source
    out.append(f"<title>{escape(title)}</title>")
    out.append('<rect width="100%" height="100%" fill="white"/>')
    if state:
        out.append(
            f'<text x="{MARGIN}" y="26" font-size="16" font-weight="bold">{escape(title)}</text>'
        )
        out.append(f'<text x="{MARGIN}" y="48" font-size="13">{escape(view.title())}</text>')

    # edges first, under the nodes
    out.append('<g class="edges">')
    for n in lay.nodes:
        p = parent[n]
        if p < 0:
            continue
        cls = ["edge"]
        attrs = 'stroke="black" stroke-width="1.2"'
        if state:
            if not view.searched[n]:
                cls.append("pruned")
                attrs = f'stroke="{COLOR_PRUNED}" stroke-width="1.2" stroke-dasharray="5 4"'
            elif n in pv:
                cls.append("pv")
                attrs = f'stroke="{COLOR_PV}" stroke-width="3.5"'
        x1, y1 = lay.x[p], lay.y[p] + BELOW[shape(tree, p)]
        x2, y2 = lay.x[n], lay.y[n] - ABOVE[shape(tree, n)]
        out.append(
            f'<line id="edge-{n}" data-node="{n}" class="{" ".join(cls)}" '
            f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {attrs}/>'
        )
        prob = labels.probability(n)
        if prob is not None:  # an outcome of a chance node: its probability on the edge
            out.append(
                f'<text class="prob" x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2 + 4:.1f}" '
                f'font-size="11" text-anchor="middle" fill="{COLOR_CHANCE}" {HALO}>'
                f"{escape(fraction_text(prob))}</text>"
            )
    out.append("</g>")

    out.append('<g class="nodes">')
    for n in lay.nodes:
        out.append(_svg_node(view, lay, labels, n, pv, state))
    out.append("</g>")
    if state:
        y = h - 22
        out.append(
            f'<g class="legend" font-size="12" transform="translate({MARGIN},{y:.0f})">'
            f'<rect x="0" y="-11" width="22" height="14" fill="{COLOR_EVALUATED}" stroke="black"/>'
            '<text x="28" y="0">evaluated (#order)</text>'
            f'<rect x="150" y="-11" width="22" height="14" fill="white" stroke="{COLOR_PRUNED}" '
            'stroke-dasharray="4 3"/>'
            f'<text x="178" y="0" fill="{COLOR_PRUNED}">pruned</text>'
            f'<line x1="240" y1="-4" x2="270" y2="-4" stroke="{COLOR_PV}" stroke-width="3.5"/>'
            '<text x="276" y="0">principal variation</text>'
            f'<text x="410" y="0">▲ MAX  ▼ MIN{"  ● CHANCE" if tree.has_chance else ""}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: how SVG writes the marks of a leaf (True) or an inner node: class, font size, anchor,
#: colour (None: the node's), whether on a white halo, and how far below the mark's point
#: the text's baseline lies
SVG_MARKS = {
    ("name", True): ("name", 11, "middle", "#555", True, 4),
    ("type", True): ("node-type", 10, "middle", COLOR_TYPE, False, 4),
    ("name", False): ("name", 12, "end", None, True, 2),
    ("type", False): ("node-type", 10, "start", COLOR_TYPE, True, 2),
    ("hidden", False): ("hidden", 10, "middle", "#777", False, 2),
}


def _svg_node(
    view: SearchView, lay: Layout, labels: Labels, n: int, pv: set[int], state: bool
) -> str:
    tree = view.tree
    x, y = lay.x[n], lay.y[n]
    kind = shape(tree, n)
    leaf = kind == "leaf"
    cls = ["node", kind]
    stroke, fill, text_fill, width, dash = "black", "white", "black", 1.3, ""
    if state:
        if not view.searched[n]:
            cls.append("pruned")
            stroke, text_fill, dash = COLOR_PRUNED, COLOR_PRUNED, ' stroke-dasharray="4 3"'
        if leaf and n in view.rank:
            cls.append("evaluated")
            fill, text_fill = COLOR_EVALUATED, "white"
        if n in pv:
            cls.append("pv")
            stroke, width = COLOR_PV, 3.0
    player = "leaf" if leaf else labels.player(n)
    tip = f"{labels.label(n)} ({player})"
    if leaf:
        tip += f" = {format_extended(tree.number(n))}"
    parts = [
        f'<g id="node-{n}" data-node="{n}" class="{" ".join(cls)}">',
        f"<title>{escape(tip)}</title>",
    ]
    shape_attrs = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}'
    if leaf:
        lw = lay.leaf_width
        parts.append(
            f'<rect class="shape" x="{x - lw / 2:.1f}" y="{y - LEAF_H / 2:.1f}" '
            f'width="{lw:.1f}" height="{LEAF_H}" rx="3" {shape_attrs}/>'
        )
        parts.append(
            f'<text class="value" x="{x:.1f}" y="{y + 4.5:.1f}" font-size="13" '
            f'text-anchor="middle" fill="{text_fill}">'
            f"{escape(format_extended(tree.number(n)))}</text>"
        )
        rank = view.rank.get(n) if state else None
        parts.append(
            f'<text id="rank-{n}" class="rank" x="{x:.1f}" y="{y + LEAF_H / 2 + 14:.1f}" '
            f'font-size="10" text-anchor="middle" fill="{COLOR_EVALUATED}">'
            f"{'' if rank is None else f'#{rank}'}</text>"
        )
    else:
        if kind == "chance":
            parts.append(
                f'<circle class="shape" cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" {shape_attrs}/>'
            )
            ty = y + 4
        else:
            points = " ".join(f"{px:.1f},{py:.1f}" for px, py in triangle(kind, x, y))
            parts.append(f'<polygon class="shape" points="{points}" {shape_attrs}/>')
            ty = y + 9 if kind == "max" else y - 1
        value = _short_range(view, n) if state else ""
        parts.append(
            f'<text id="range-{n}" class="range" x="{x:.1f}" y="{ty:.1f}" font-size="11" '
            f'text-anchor="middle" fill="{text_fill}">{escape(value)}</text>'
        )
    color = COLOR_CHANCE if kind == "chance" else COLOR_MAX if kind == "max" else COLOR_MIN
    for mark in marks(view, lay, n, node_types=state):
        css, size, anchor, mark_fill, halo, drop = SVG_MARKS[mark.role, leaf]
        parts.append(
            f'<text class="{css}" x="{mark.x:.1f}" y="{mark.y + drop:.1f}" font-size="{size}" '
            f'text-anchor="{anchor}" fill="{mark_fill or color}"{" " + HALO if halo else ""}>'
            f"{escape(mark.text)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


# -- DOT ------------------------------------------------------------------------------------
def _dot_string(text: str) -> str:
    """A DOT quoted string; line breaks become DOT's centred \\n."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_dot(view: SearchView, max_depth: int | None = None, source: str | None = None) -> str:
    """The picture as Graphviz DOT: MAX triangles, MIN inverted triangles, chance circles, leaves
    as boxes; an outcome of a chance node has its probability on its edge.

    Evaluated leaves are filled, pruned nodes and the edges into them grey and
    dashed, the PV's edges bold.  ``dot -Tsvg`` lays it out.
    """
    tree = view.tree
    nodes, hidden = drawn_nodes(tree, max_depth, view.expanded)
    labels = view.labels
    end = tree.end
    parent = tree.parent
    pv = set(view.pv)
    title = tree.meta.title or source or tree.source
    lines = [
        f"digraph {_dot_string(title)} {{",
        f"  graph [ordering=out, labelloc=t, label={_dot_string(title + chr(10) + view.title())}];",
        '  node [fontname="Helvetica", fontsize=11];',
        "  edge [arrowhead=none];",
    ]
    for n in nodes:
        leaf = end[n] == n + 1
        label = labels.label(n) if tree.names.get(n) is not None or not leaf else ""
        attrs: list[str] = []
        if leaf:
            text = (label + "\n" if label else "") + format_extended(tree.number(n))
            rank = view.rank.get(n)
            if rank is not None:
                text += f"\n#{rank}"
            attrs.append("shape=box")
        else:
            text = f"{label}\n{view.range_text(n) if view.searched[n] else 'pruned'}"
            if tree.is_chance(n):
                attrs.append("shape=circle")
            else:
                attrs.append("shape=triangle" if tree.is_max(n) else "shape=invtriangle")
            if n in hidden:
                text += f"\n… {hidden[n]:,} nodes"
        kind = view.node_types.get(n) if view.node_types is not None else None
        if kind is not None:
            text += f"\n[{kind}]"
        attrs.insert(0, f"label={_dot_string(text)}")
        styles = []
        if not view.searched[n]:
            styles.append("dashed")
            attrs.append("color=gray60, fontcolor=gray60")
        if leaf and n in view.rank:
            styles.append("filled")
            attrs.append(f'fillcolor="{COLOR_EVALUATED}", fontcolor=white')
        if n in pv:
            styles.append("bold")
            attrs.append(f'color="{COLOR_PV}", penwidth=2.5')
        if styles:
            attrs.append(f'style="{",".join(styles)}"')
        lines.append(f"  n{n} [{', '.join(attrs)}];")
    for n in nodes:
        p = parent[n]
        if p < 0:
            continue
        if not view.searched[n]:
            style = "style=dashed, color=gray60"
        elif n in pv:
            style = f'style=bold, color="{COLOR_PV}", penwidth=3'
        else:
            style = ""
        prob = labels.probability(n)
        if prob is not None:
            label = f'label="{fraction_text(prob)}", fontcolor="{COLOR_CHANCE}", fontsize=10'
            style = f"{style}, {label}" if style else label
        lines.append(f"  n{p} -> n{n}{f' [{style}]' if style else ''};")
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = [
    "ABOVE",
    "BELOW",
    "Layout",
    "MAX_PICTURE_NODES",
    "Mark",
    "drawn_nodes",
    "fits",
    "layout",
    "marks",
    "shape",
    "short_range",
    "to_dot",
    "to_svg",
    "triangle",
]
