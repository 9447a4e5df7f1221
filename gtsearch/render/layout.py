"""Where everything of a tree's picture goes: the layout SVG and TikZ share, made to fit a page.

The picture is a :class:`gtsearch.render.geometry.Scene`, in points: the
writers (gtsearch.render.svg, gtsearch.render.tikz) only translate it, so
both show the same tree the same way and the tests measure what they draw.

The layout is a tidy tree: every node on the level of its depth, every parent
centred above its first and last child, and neighbouring subtrees pushed
apart until no text, shape or edge of one comes within ``GAP`` of the other
(their contours, level band by level band).  Below a *cut* height the
subtrees are drawn as columns instead, an indented list under their root
(the bottom levels of a wide tree, the way ``gtsearch show`` draws in a
terminal): cut 0 is the plain tree, a cut as high as the tree an outline of
it.  ``layout="auto"`` takes the lowest cut whose picture fits the page (see
:data:`gtsearch.render.geometry.PAGES`), ``"tree"`` cut 0, ``"compact"`` the
lowest cut above 0 that fits, ``"outline"`` the whole tree as a column.

Texts are set at 9 pt (names, values, the summary), 8 pt (ranges, order,
probabilities, node types, notes, the legend) and 12 pt (the title), times
the page's scale: nothing under 8 pt at 100 %.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GtsearchError, UsageError
from ..tree import Tree
from .geometry import (
    LAYOUTS,
    PAGES,
    Contour,
    Items,
    Line,
    Page,
    Point,
    Scene,
    Shape,
    Text,
    box_shape,
    crosses,
    shape_contains,
    text_width,
    triangle,
)
from .labels import format_extended
from .view import SearchView

#: pictures with more nodes than this are refused (use --max-depth)
MAX_PICTURE_NODES = 5000

#: text sizes in points (at scale 1)
SIZES = {
    "name": 9.0,
    "value": 9.0,
    "summary": 9.0,
    "title": 12.0,
    "range": 8.0,
    "rank": 8.0,
    "prob": 8.0,
    "type": 8.0,
    "hidden": 8.0,
    "legend": 8.0,
}
GAP = 4.0  # between neighbouring subtrees
MARGIN = 12.0
PITCH = 15.0  # between the rows of a column
TICK = 5.0  # from a column's spine to a row
HALF = 16.0  # half the width of a triangle
RADIUS = 13.0  # a chance node's circle
LEAF_H = 13.0
MARKER = 5.5  # half the width of a node's mark in a column
#: where edges meet a node's shape: how far below / above its centre
BELOW = {"max": 11.0, "min": 14.0, "chance": RADIUS, "leaf": LEAF_H / 2}
ABOVE = {"max": 14.0, "min": 11.0, "chance": RADIUS, "leaf": LEAF_H / 2}


def _base(y: float, size: float) -> float:
    """The baseline that centres a text of ``size`` points on ``y`` (digits and capitals)."""
    return y + 0.36 * size


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


def shape(tree: Tree, n: int) -> str:
    """How a node is drawn: ``"leaf"`` (a box), ``"max"`` (a triangle), ``"min"`` (upside down)
    or ``"chance"`` (a circle)."""
    if tree.end[n] == n + 1:
        return "leaf"
    if tree.is_chance(n):
        return "chance"
    return "max" if tree.is_max(n) else "min"


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


@dataclass
class Picture:
    """A laid-out picture: its scene, the nodes drawn and where, and how it was laid out."""

    scene: Scene
    nodes: list[int]
    hidden: dict[int, int]
    #: the height from which subtrees are columns: 0 is the plain tree
    cut: int
    page: Page
    #: whether the picture fits the page
    fits: bool


# -- the drawing of each node --------------------------------------------------------------
class _Painter:
    """The items of each node of one view, at any place: what the layout packs and the scene
    holds."""

    def __init__(self, view: SearchView, nodes: list[int], hidden: dict[int, int], state: bool):
        self.view = view
        self.tree = view.tree
        self.state = state
        self.hidden = hidden
        self.labels = view.labels
        self.kids: dict[int, list[int]] = {n: [] for n in nodes}
        parent = self.tree.parent
        for n in nodes[1:]:
            self.kids[parent[n]].append(n)
        #: edges end this far above the centres of a level (above every node's head), the
        #: levels lie ``dy`` apart
        self.reach = 31.0 if self.tree.has_chance else 19.0
        self.dy = 58.0 if self.tree.has_chance else 48.0
        self.height: dict[int, int] = {}
        for n in reversed(nodes):
            ks = self.kids[n]
            self.height[n] = 1 + max(self.height[k] for k in ks) if ks else 0

    # what a node says
    def kind(self, n: int) -> str:
        return shape(self.tree, n)

    def name(self, n: int) -> str:
        return self.tree.names.get(n) or ""

    def range(self, n: int) -> str:
        if not self.state or not self.view.searched[n]:
            return ""
        return short_range(self.view.range_text(n))

    def node_type(self, n: int) -> str:
        types = self.view.node_types
        return (types.get(n) or "") if self.state and types is not None else ""

    def rank(self, n: int) -> str:
        rank = self.view.rank.get(n) if self.state else None
        return "" if rank is None else f"#{rank}"

    def value(self, n: int) -> str:
        return format_extended(self.tree.number(n))

    def prob(self, n: int) -> str:
        from ..numbers import fraction_text

        p = self.labels.probability(n)
        return "" if p is None else fraction_text(p)

    def pruned_head(self, n: int) -> bool:
        return self.state and self.view.is_cut(n)

    # a node on its level
    def head(self, n: int, y: float) -> float:
        """The top of a node's shape, or of its name above it (a leaf's)."""
        kind = self.kind(n)
        if kind != "leaf":
            return y - ABOVE[kind]
        return y - LEAF_H / 2 - (12.0 if self.name(n) else 0.0)

    def top(self, n: int, y: float) -> float:
        """Where the edge from the parent ends: above the head and the outcome's probability."""
        return self.head(n, y) - (11.0 if self.prob(n) else 0.0)

    def node(self, n: int, x: float, y: float) -> Items:
        """A node drawn on its level: its shape, its name, value or range, order and type."""
        it = Items()
        kind = self.kind(n)
        if self.prob(n):  # an outcome of a chance node: its probability above it
            base = self.head(n, y) - 3.9
            it.texts.append(Text(x, base, self.prob(n), SIZES["prob"], "middle", "prob", n))
        if kind == "leaf":
            value = self.value(n)
            w = max(text_width(value, SIZES["value"]) + 6, 16.0)
            it.shapes.append(box_shape(n, x - w / 2, y - LEAF_H / 2, w, LEAF_H))
            it.texts.append(Text(x, _base(y, 9), value, SIZES["value"], "middle", "value", n))
            if self.name(n):
                it.texts.append(
                    Text(x, y - LEAF_H / 2 - 3.7, self.name(n), SIZES["name"], "middle", "name", n)
                )
            it.texts.append(Text(x, y + LEAF_H / 2 + 8.0, self.rank(n), 8, "middle", "rank", n))
            if self.node_type(n):
                t = Text(x, y + LEAF_H / 2 + 17.5, self.node_type(n), 8, "middle", "type", n)
                it.texts.append(t)
            return it
        if kind == "chance":
            outline = Shape(kind, n, center=(x, y), radius=RADIUS)
            inside_y, half = _base(y, 8), RADIUS
        else:
            outline = Shape(kind, n, triangle(kind, x, y, HALF, 14.0, 11.0))
            inside_y, half = (y + 8.5, HALF) if kind == "max" else (y - 3.0, HALF)
        it.shapes.append(outline)
        right = x + half + 3
        text = self.range(n)
        rng = Text(x, inside_y, text, SIZES["range"], "middle", "range", n)
        if text:
            x0, y0, x1, y1 = rng.box()
            if not shape_contains(outline, (x0 - 1, y0 - 0.5, x1 + 1, y1 + 0.5)):
                rng = Text(right, _base(y, 8), text, SIZES["range"], "start", "range", n)
                right += rng.width + 4
        it.texts.append(rng)
        if self.name(n):
            it.texts.append(Text(x - half - 3, _base(y, 9), self.name(n), 9, "end", "name", n))
        if self.node_type(n):
            t = Text(right, _base(y, 8), self.node_type(n), SIZES["type"], "start", "type", n)
            it.texts.append(t)
        if n in self.hidden:
            note = f"… {self.hidden[n]:,} nodes"
            t = Text(x, y + BELOW[kind] + 8.0, note, SIZES["hidden"], "middle", "hidden", n)
            it.texts.append(t)
        return it

    def edge(self, n: int, a: Point, x: float, y: float) -> Items:
        """The edge from a (the parent's bottom) down to n at (x, y): straight down to the
        level's reach, then, if n's head is lower, on down to it; two strokes across it where
        n heads a pruned subtree."""
        it = Items()
        top = self.top(n, y)
        b = (x, min(y - self.reach, top))
        piece = (a, b) if top - b[1] < 0.05 else (a, b, (x, top))
        it.lines.append(Line((piece,), "edge", n))
        if self.pruned_head(n):
            it.lines += crosses(n, a, b, 0.5, 2.2, 5.0)
        return it

    # a column: the subtree below r as an indented list
    def column(self, r: int, x: float, y: float) -> Items:
        """Every node below r (drawn on its level at (x, y)) as a row under it."""
        it = Items()
        spine = {r: x}
        last = {r: y + BELOW[self.kind(r)]}
        row_y = last[r] + 4 + PITCH / 2
        stack = list(reversed(self.kids[r]))
        while stack:
            n = stack.pop()
            p = self.tree.parent[n]
            sx = spine[p]
            row, start, x_mark, bottom = self.row(n, sx + TICK, row_y)
            it.extend(row)
            it.lines.append(Line((((sx, last[p]), (sx, row_y), (start, row_y)),), "edge", n))
            if self.pruned_head(n):
                it.lines += crosses(n, (sx, row_y), (start, row_y), 0.5, 1.2, 3.5, 0.0)
            last[p] = row_y
            if self.kids[n]:
                spine[n], last[n] = x_mark, bottom
            stack.extend(reversed(self.kids[n]))
            row_y += PITCH
        return it

    def row(self, n: int, x0: float, y: float) -> tuple[Items, float, float, float]:
        """One row of a column, starting at x0: its items, where its edge ends, and the x and
        the bottom of its mark (where the spine of its children starts)."""
        it = Items()
        sibling_rows = self.kids[self.tree.parent[n]]
        start = x0
        pw = max(text_width(self.prob(k), 8) for k in sibling_rows)
        x = x0 + (pw + 4 if pw else 0.0)
        if self.prob(n):
            it.texts.append(Text(x0 + 1, _base(y, 8), self.prob(n), 8, "start", "prob", n))
            start = x0 - 1.5  # the edge ends before the probability
        kind = self.kind(n)
        after: list[tuple[str, str, float]] = []
        if kind == "leaf":
            names = [k for k in sibling_rows if self.kind(k) == "leaf"]
            nw = max(text_width(self.name(k), 9) for k in names)
            if self.name(n):
                it.texts.append(Text(x + 1, _base(y, 9), self.name(n), 9, "start", "name", n))
                if not self.prob(n):
                    start = x - 0.5
            x += nw + 3 if nw else 0.0
            value = self.value(n)
            w = max(text_width(value, 9) + 5, 15.0)
            it.shapes.append(box_shape(n, x, y - LEAF_H / 2, w, LEAF_H))
            it.texts.append(Text(x + w / 2, _base(y, 9), value, 9, "middle", "value", n))
            if not self.name(n) and not self.prob(n):
                start = x
            x_mark, bottom = x + w / 2, y + LEAF_H / 2
            x += w + 2
            after = [("rank", self.rank(n), 8.0), ("type", self.node_type(n), 8.0)]
        else:
            cx = x + MARKER
            if kind == "chance":
                it.shapes.append(Shape(kind, n, center=(cx, y), radius=MARKER))
                left, bottom = cx - MARKER, y + MARKER
            else:
                it.shapes.append(Shape(kind, n, triangle(kind, cx, y, MARKER, 6.0, 5.0)))
                left, bottom = cx - MARKER * 6 / 11, y + (5.0 if kind == "max" else 6.0)
            if not self.prob(n):
                start = left
            x_mark = cx
            x = cx + MARKER + 3
            after = [
                ("name", self.name(n), 9.0),
                ("range", self.range(n), 8.0),
                ("type", self.node_type(n), 8.0),
            ]
            if n in self.hidden:
                after.append(("hidden", f"… {self.hidden[n]:,} nodes", 8.0))
        for role, text, size in after:
            if text or role in ("rank", "range"):  # the replay fills the empty ones
                it.texts.append(Text(x, _base(y, size), text, size, "start", role, n))
            if text:
                x += text_width(text, size) + 4
        return it, start, x_mark, bottom


# -- the layout ------------------------------------------------------------------------------
def _tree_items(
    pt: _Painter, nodes: list[int], cut: int, top: float
) -> tuple[Items, dict[int, float]]:
    """Every node placed: levels down from ``top``, subtrees of height ``cut`` or less as
    columns under their roots; x relative to the root's.  Returns the items and each
    level's y."""
    tree = pt.tree
    parent = tree.parent
    depth = tree.depth
    # the nodes on levels: the root, and the children of a node on a level above the cut
    layered = [n for n in nodes if n == nodes[0] or pt.height[parent[n]] > cut]
    on_level = set(layered)
    y = {n: top + (depth[n] - depth[nodes[0]]) * pt.dy for n in layered}
    rel: dict[int, float] = {}  # x of a node relative to its parent's
    own: dict[int, Items] = {}
    contours: dict[int, Contour] = {}
    for n in reversed(layered):  # children before their parents
        items = pt.node(n, 0.0, y[n])
        kids = [k for k in pt.kids[n] if k in on_level]
        if pt.kids[n] and not kids:
            items.extend(pt.column(n, 0.0, y[n]))
        contour = items.contour()
        if n != nodes[0]:  # the end of the edge from the parent
            contour.add(-1.0, y[n] - pt.reach, 1.0, pt.top(n, y[n]))
        if kids:
            acc = contours.pop(kids[0])
            offsets = [0.0]
            for k in kids[1:]:
                c = contours.pop(k)
                offsets.append(acc.distance(c, GAP))
                acc.merge(c, offsets[-1])
            mid = (offsets[0] + offsets[-1]) / 2
            contour.merge(acc, -mid)
            a = (0.0, y[n] + BELOW[pt.kind(n)])
            for k, off in zip(kids, offsets, strict=True):
                rel[k] = off - mid
                edge = pt.edge(k, a, rel[k], y[k])
                items.extend(edge)
                contour.add_items(edge.texts, edge.shapes, edge.lines)
        own[n] = items
        contours[n] = contour
    x: dict[int, float] = {}
    out = Items()
    for n in layered:
        x[n] = x[parent[n]] + rel[n] if n in rel else 0.0
        out.extend(_shifted(own[n], x[n]))
    return out, y


def _shifted(items: Items, dx: float) -> Items:
    out = Items()
    out.texts = [_move_text(t, dx, 0.0) for t in items.texts]
    out.shapes = [_move_shape(s, dx, 0.0) for s in items.shapes]
    out.lines = [
        Line(
            tuple(tuple((px + dx, py) for px, py in piece) for piece in line.pieces),
            line.role,
            line.node,
        )
        for line in items.lines
    ]
    return out


def _move_text(t: Text, dx: float, dy: float, k: float = 1.0) -> Text:
    return Text(
        (t.x + dx) * k, (t.y + dy) * k, t.text, t.size * k, t.anchor, t.role, t.node, t.bold
    )


def _move_shape(s: Shape, dx: float, dy: float, k: float = 1.0) -> Shape:
    return Shape(
        s.kind,
        s.node,
        tuple(((px + dx) * k, (py + dy) * k) for px, py in s.points),
        ((s.center[0] + dx) * k, (s.center[1] + dy) * k),
        s.radius * k,
    )


def _legend(x: float, y: float, width: float, chance: bool) -> Items:
    """The legend, from (x, y) (its first baseline), in lines no wider than ``width``."""
    it = Items()
    entries = [
        ("evaluated", "evaluated (#order)"),
        ("pruned", "pruned"),
        ("pv", "principal variation"),
        ("", "▲ MAX  ▼ MIN"),
    ]
    if chance:
        entries.append(("", "● chance (probability on the edge)"))
    size = SIZES["legend"]
    left = x
    for icon, text in entries:
        w = (26.0 if icon else 0.0) + text_width(text, size)
        if x > left and x + w > left + width:
            x, y = left, y + 14
        mid = y - 0.36 * size
        if icon == "evaluated":
            it.shapes.append(
                Shape(
                    "swatch", -1, ((x, mid - 5), (x + 22, mid - 5), (x + 22, mid + 5), (x, mid + 5))
                )
            )
        elif icon == "pruned":
            it.lines.append(Line((((x, mid), (x + 22, mid)),), "legend-pruned"))
            it.lines += [
                Line(line.pieces, "legend-cross")
                for line in crosses(-1, (x, mid), (x + 22, mid), 0.5, 2.2, 5.0)
            ]
        elif icon == "pv":
            it.lines.append(Line((((x, mid), (x + 22, mid)),), "legend-pv"))
        tx = x + (26.0 if icon else 0.0)
        it.texts.append(Text(tx, y, text, size, "start", "legend-" + (icon or "key")))
        x += w + 12
    return it


def layout(
    view: SearchView,
    max_depth: int | None = None,
    *,
    page: str = "a4",
    layout: str = "auto",
    state: bool = True,
    head: tuple[str, ...] = (),
    legend: bool = False,
) -> Picture:
    """The picture of the view laid out for ``page`` (a name of PAGES) as ``layout`` asks
    (one of LAYOUTS); ``head``: the title and the summary above it, ``legend`` the legend
    below.  ``state`` False leaves out the search's marks (the bare tree)."""
    if page not in PAGES:
        raise UsageError(f"no page {page!r}; the pages: {', '.join(PAGES)}")
    if layout not in LAYOUTS:
        raise UsageError(f"no layout {layout!r}; the layouts: {', '.join(LAYOUTS)}")
    room = PAGES[page]
    nodes, hidden = drawn_nodes(view.tree, max_depth, view.expanded)
    pt = _Painter(view, nodes, hidden, state)
    tallest = pt.height[nodes[0]]
    cuts = {
        "auto": range(tallest + 1),
        "tree": range(1),
        "compact": range(min(1, tallest), tallest + 1),
        "outline": range(tallest, tallest + 1),
    }[layout]
    best: Picture | None = None
    for cut in cuts:
        scene = _scene(pt, nodes, cut, head, legend, room.scale)
        ok = scene.width <= room.width + 0.01 and scene.height <= room.height + 0.01
        pic = Picture(scene, nodes, hidden, cut, room, ok)
        if ok:
            return pic
        narrow = scene.width <= room.width + 0.01
        if best is None or narrow and best.scene.width > room.width + 0.01:
            best = pic
        elif not narrow and scene.width < best.scene.width:
            best = pic
    assert best is not None
    return best


def _scene(
    pt: _Painter, nodes: list[int], cut: int, head: tuple[str, ...], legend: bool, scale: float
) -> Scene:
    texts: list[Text] = []
    y = MARGIN
    for i, line in enumerate(head):
        size = SIZES["title" if i == 0 else "summary"]
        y += ASCENT_TITLE if i == 0 else 14.0
        texts.append(
            Text(MARGIN, y, line, size, "start", "title" if i == 0 else "summary", bold=i == 0)
        )
    top = y + (8.0 if head else 0.0) + pt.reach
    items, _ = _tree_items(pt, nodes, cut, top)
    boxes = [t.box() for t in items.texts if t.text] + [s.box() for s in items.shapes]
    boxes += [
        (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        for line in items.lines
        for a, b in line.segments()
    ]
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    bottom = max(b[3] for b in boxes)
    tree_items = _shifted(items, MARGIN - x0)
    width = max([x1 - x0] + [t.width for t in texts])
    if legend:
        leg = _legend(MARGIN, bottom + 16.0, max(width, 240.0), pt.tree.has_chance)
        tree_items.extend(leg)
        width = max([width] + [t.box()[2] - MARGIN for t in leg.texts])
        bottom = max(t.box()[3] for t in leg.texts)
    k = scale
    return Scene(
        (width + 2 * MARGIN) * k,
        (bottom + MARGIN) * k,
        [_move_text(t, 0.0, 0.0, k) for t in texts + tree_items.texts],
        [
            Line(
                tuple(tuple((px * k, py * k) for px, py in piece) for piece in line.pieces),
                line.role,
                line.node,
            )
            for line in tree_items.lines
        ],
        [_move_shape(s, 0.0, 0.0, k) for s in tree_items.shapes],
    )


ASCENT_TITLE = 10.0

__all__ = [
    "ABOVE",
    "BELOW",
    "MAX_PICTURE_NODES",
    "SIZES",
    "Picture",
    "drawn_nodes",
    "fits",
    "layout",
    "shape",
    "short_range",
]
