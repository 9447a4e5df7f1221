"""Pictures of one search written by our own code: Graphviz DOT text, and SVG of the shared layout."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..numbers import format_probability
from ..tree import Tree
from .geometry import MONO_FONTS, MONO_ROLES, Line, Scene, Shape, Text
from .labels import format_extended
from .layout import MAX_PICTURE_NODES, Picture, drawn_nodes, fits
from .layout import layout as lay_out
from .view import SearchView, bare_view

COLOR_PV = "#d35400"
COLOR_PRUNED = "#9a9a9a"
COLOR_EVALUATED = "#2f6fc9"
COLOR_MAX = "#b03030"
COLOR_MIN = "#2b50a8"
COLOR_TYPE = "#127a7a"
COLOR_CHANCE = "#7d3c98"
COLOR_LEAF_NAME = "#333"
COLOR_NOTE = "#666"
#: the colour of each shape's names
NODE_COLORS = {"max": COLOR_MAX, "min": COLOR_MIN, "chance": COLOR_CHANCE}
#: points to CSS pixels
PX = 4 / 3


def head_lines(view: SearchView, source: str | None) -> tuple[str, str]:
    """The title of a picture of a search and the line under it (algorithm, value, PV)."""
    tree = view.tree
    return tree.meta.title or source or tree.source, view.title()


def _f(v: float) -> str:
    return f"{v:.1f}"


# -- SVG ------------------------------------------------------------------------------------
def to_svg(
    view: SearchView,
    max_depth: int | None = None,
    *,
    state: bool = True,
    source: str | None = None,
    page: str = "a4",
    layout: str = "auto",
    blanks: str = "",
) -> str:
    """The picture as an SVG document, laid out for ``page`` (gtsearch.render.layout).

    ``state`` True draws the search's outcome (evaluated leaves filled,
    pruned nodes and edges grey and dashed, the PV bold, value ranges), with a
    title and a legend; False draws the bare tree, with element ids and
    classes that the HTML replay styles step by step.  Its size is the
    picture's in CSS pixels (4/3 of a point); its coordinates are points.  ``blanks`` (a
    bare tree only) is written beside every inner node for a student to fill in, with room
    kept for it (the worksheet's ``α ____ β ____``).
    """
    head = head_lines(view, source) if state else ()
    pic = lay_out(
        view,
        max_depth,
        page=page,
        layout=layout,
        state=state,
        head=head,
        legend=state,
        blanks=blanks,
    )
    return picture_svg(view, pic, state=state, source=source)


def picture_svg(view: SearchView, pic: Picture, *, state: bool, source: str | None) -> str:
    """:func:`to_svg`'s document of a picture already laid out (``state`` as it was laid out
    with), for a caller that chose among layouts (the worksheet's tree)."""
    tree = view.tree
    scene = pic.scene
    pv = set(view.pv)
    through = {view.tree.parent[k] for k in pv}  # the nodes whose stems the PV goes down
    w, h = scene.width, scene.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * PX:.0f}" height="{h * PX:.0f}" '
        f'viewBox="0 0 {w:.1f} {h:.1f}" '
        'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" class="gtsearch-tree">',
        f"<title>{escape(tree.meta.title or source or tree.source)}</title>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    by_node: dict[int, list[Text]] = {}
    for t in scene.texts:
        if t.role in ("title", "summary"):
            out.append(_svg_text(t, "black", f' class="{t.role}"'))
        elif t.node >= 0 and t.role != "prob":
            by_node.setdefault(t.node, []).append(t)
    # edges first, under the nodes; an outcome's probability on its edge
    out.append('<g class="edges">')
    for line in scene.lines:
        if line.role == "edge":
            out.append(_svg_edge(view, line, pv, state))
        elif line.role == "stem":
            out.append(_svg_edge(view, line, through, state))
        elif line.role == "cross":
            out.append(
                f'<path class="cross" d="{_d(line)}" stroke="{COLOR_PRUNED}" stroke-width="0.9"/>'
            )
    for t in scene.texts:
        if t.role == "prob":
            out.append(_svg_text(t, COLOR_CHANCE, ' class="prob"'))
    out.append("</g>")
    out.append('<g class="nodes">')
    for s in scene.shapes:
        if s.node >= 0:
            out.append(_svg_node(view, s, by_node.get(s.node, []), pv, state))
    out.append("</g>")
    if state:
        out.append(_svg_legend(scene))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _d(line: Line) -> str:
    return " ".join("M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in piece) for piece in line.pieces)


def _svg_edge(view: SearchView, line: Line, pv: set[int], state: bool) -> str:
    n = line.node
    cls = ["edge"]
    attrs = 'stroke="black" stroke-width="0.9"'
    if state:
        if not view.searched[n]:
            cls.append("pruned")
            attrs = f'stroke="{COLOR_PRUNED}" stroke-width="0.9" stroke-dasharray="3.75 3"'
        elif n in pv:
            cls.append("pv")
            attrs = f'stroke="{COLOR_PV}" stroke-width="3"'
    if line.role == "stem":  # the stem below a node: styled as its edge, on the PV if its
        # PV child is
        (x1, y1), (x2, y2) = line.pieces[0]
        cls[0] = "stem"
        return (
            f'<line class="{" ".join(cls)}" data-node="{n}" x1="{_f(x1)}" y1="{_f(y1)}" '
            f'x2="{_f(x2)}" y2="{_f(y2)}" {attrs}/>'
        )
    head = f'id="edge-{n}" data-node="{n}" class="{" ".join(cls)}"'
    if len(line.pieces) == 1 and len(line.pieces[0]) in (2, 3):
        # a straight edge, and the short drop from the level's reach to the node's head
        (x1, y1), (x2, y2), *drop = line.pieces[0]
        out = f'<line {head} x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" {attrs}/>'
        for x3, y3 in drop:
            out += (
                f'<line class="{" ".join(["drop", *cls[1:]])}" data-node="{n}" x1="{_f(x2)}" '
                f'y1="{_f(y2)}" x2="{_f(x3)}" y2="{_f(y3)}" {attrs}/>'
            )
        return out
    return f'<path {head} d="{_d(line)}" fill="none" {attrs}/>'


def _svg_text(t: Text, fill: str, extra: str = "") -> str:
    anchor = "" if t.anchor == "start" else f' text-anchor="{t.anchor}"'
    bold = ' font-weight="bold"' if t.bold else ""
    if t.role in MONO_ROLES:  # names: l1 and I apart
        bold += f' font-family="{MONO_FONTS}"'
    return (
        f'<text{extra} x="{_f(t.x)}" y="{_f(t.y)}" font-size="{t.size:g}"{anchor}{bold} '
        f'fill="{fill}">{escape(t.text)}</text>'
    )


def _svg_node(view: SearchView, s: Shape, texts: list[Text], pv: set[int], state: bool) -> str:
    tree = view.tree
    n = s.node
    leaf = s.kind == "leaf"
    cls = ["node", s.kind]
    stroke, fill, text_fill, width, dash = "black", "white", "black", 1.0, ""
    if state:
        if not view.searched[n]:
            cls.append("pruned")
            stroke, text_fill, dash = COLOR_PRUNED, COLOR_PRUNED, ' stroke-dasharray="3 2.25"'
        if leaf and n in view.rank:
            cls.append("evaluated")
            fill, text_fill = COLOR_EVALUATED, "white"
        if n in pv:
            cls.append("pv")
            stroke, width = COLOR_PV, 2.2
    labels = view.labels
    tip = f"{labels.label(n)} ({'leaf' if leaf else labels.player(n)})"
    if leaf:
        tip += f" = {format_extended(tree.number(n))}"
    parts = [
        f'<g id="node-{n}" data-node="{n}" class="{" ".join(cls)}">',
        f"<title>{escape(tip)}</title>",
    ]
    attrs = f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"{dash}'
    if s.radius:
        cx, cy = s.center
        parts.append(
            f'<circle class="shape" cx="{_f(cx)}" cy="{_f(cy)}" r="{s.radius:g}" {attrs}/>'
        )
    elif leaf:
        x0, y0, x1, y1 = s.box()
        parts.append(
            f'<rect class="shape" x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" '
            f'height="{_f(y1 - y0)}" rx="2.25" {attrs}/>'
        )
    else:
        points = " ".join(f"{_f(x)},{_f(y)}" for x, y in s.points)
        parts.append(f'<polygon class="shape" points="{points}" {attrs}/>')
    color = NODE_COLORS.get(s.kind, COLOR_LEAF_NAME)
    fills = {
        "name": color,
        "value": text_fill,
        "range": text_fill,
        "rank": COLOR_EVALUATED,
        "type": COLOR_TYPE,
        "hidden": COLOR_NOTE,
    }
    for t in texts:
        css = "node-type" if t.role == "type" else t.role
        ident = f' id="{t.role}-{n}"' if t.role in ("range", "rank") else ""
        parts.append(_svg_text(t, fills[t.role], f'{ident} class="{css}"'))
    parts.append("</g>")
    return "".join(parts)


def _svg_legend(scene: Scene) -> str:
    parts = ['<g class="legend">']
    node = 'fill="white" stroke="black" stroke-width="1"'  # the legend's nodes, as nodes are
    for s in scene.shapes:
        if s.kind == "legend-chance":
            cx, cy = s.center
            parts.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{s.radius:g}" {node}/>')
        elif s.kind.startswith("legend-"):
            points = " ".join(f"{_f(x)},{_f(y)}" for x, y in s.points)
            parts.append(f'<polygon points="{points}" {node}/>')
        if s.kind == "swatch":
            x0, y0, x1, y1 = s.box()
            parts.append(
                f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" '
                f'fill="{COLOR_EVALUATED}" stroke="black" stroke-width="0.8"/>'
            )
    strokes = {
        "legend-pruned": f'stroke="{COLOR_PRUNED}" stroke-width="0.9" stroke-dasharray="3.75 3"',
        "legend-cross": f'stroke="{COLOR_PRUNED}" stroke-width="0.9"',
        "legend-pv": f'stroke="{COLOR_PV}" stroke-width="2.6"',
    }
    for line in scene.lines:
        if line.role in strokes:
            parts.append(f'<path d="{_d(line)}" fill="none" {strokes[line.role]}/>')
    for t in scene.texts:
        if t.role.startswith("legend"):
            fill = {
                "legend-pruned": COLOR_PRUNED,
                "legend-note": COLOR_TYPE,
                "legend-max": COLOR_MAX,
                "legend-min": COLOR_MIN,
                "legend-chance": COLOR_CHANCE,
            }.get(t.role, "black")
            parts.append(_svg_text(t, fill))
    parts.append("</g>")
    return "".join(parts)


def tree_picture(tree: Tree, *, page: str = "a4", layout: str = "auto") -> str:
    """The tree alone as SVG, with no search's marks (names, shapes, leaf values): the
    picture of an exercise before it is solved."""
    return to_svg(bare_view(tree), state=False, page=page, layout=layout)


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
            if n in view.rank:
                text += "\n" + view.order_text(n)
            elif view.tallies is not None and n in view.tallies:  # mcts: in its search tree
                text += "\n" + view.range_text(n)
            attrs.append("shape=box")
        else:
            text = f"{label}\n{view.range_text(n) if view.searched[n] else view.unsearched}"
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
            label = f'label="{format_probability(prob)}", fontcolor="{COLOR_CHANCE}", fontsize=10'
            style = f"{style}, {label}" if style else label
        lines.append(f"  n{p} -> n{n}{f' [{style}]' if style else ''};")
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = [
    "COLOR_CHANCE",
    "COLOR_EVALUATED",
    "COLOR_MAX",
    "COLOR_MIN",
    "COLOR_PRUNED",
    "COLOR_PV",
    "COLOR_TYPE",
    "MAX_PICTURE_NODES",
    "fits",
    "head_lines",
    "to_dot",
    "to_svg",
    "tree_picture",
]
