"""What each node of a tree's picture draws, wherever the layout puts it (gtsearch.render.layout).

A node is drawn on its level (a big shape, its name beside it, its value or
range inside, the order of evaluation and the node type around it) or as a
row (a small mark or a leaf's box with its texts after it, left to right):
rows make up the columns under a subtree's root and the sideways tree.
Every item is a :class:`gtsearch.render.geometry.Text`, ``Shape`` or
``Line`` in points, at scale 1.
"""

from __future__ import annotations

from dataclasses import replace

from ..tree import Tree
from .geometry import (
    Items,
    Line,
    Point,
    Shape,
    Text,
    box_shape,
    crosses,
    shape_contains,
    text_width,
    triangle,
)
from .labels import format_extended
from .view import SearchView, replay_steps

#: text sizes in points (at scale 1)
SIZES = {
    "name": 9.0,
    "value": 9.0,
    "summary": 9.0,
    "note": 9.0,
    "title": 12.0,
    "range": 8.0,
    "rank": 8.0,
    "prob": 8.0,
    "type": 8.0,
    "hidden": 8.0,
    "legend": 8.0,
}
GAP = 4.0  # between neighbouring subtrees
#: after a node's type where the search did otherwise than the type says (the notes)
NOTED = "*"
PITCH = 15.0  # between the rows of a column
TICK = 5.0  # from a column's spine to a row
HALF = 16.0  # half the width of a triangle
RADIUS = 13.0  # a chance node's circle
LEAF_H = 13.0
MARKER = 5.5  # half the width of a node's mark in a column
#: where edges meet a node's shape: how far below / above its centre
BELOW = {"max": 11.0, "min": 14.0, "chance": RADIUS, "leaf": LEAF_H / 2}
ABOVE = {"max": 14.0, "min": 11.0, "chance": RADIUS, "leaf": LEAF_H / 2}


def baseline(y: float, size: float) -> float:
    """The baseline that centres a text of ``size`` points on ``y`` (digits and capitals)."""
    return y + 0.36 * size


def shape(tree: Tree, n: int) -> str:
    """How a node is drawn: ``"leaf"`` (a box), ``"max"`` (a triangle), ``"min"`` (upside down)
    or ``"chance"`` (a circle)."""
    if tree.end[n] == n + 1:
        return "leaf"
    if tree.is_chance(n):
        return "chance"
    return "max" if tree.is_max(n) else "min"


def short_range(text: str) -> str:
    """A range (render.labels.range_text) short enough for a triangle: 3, ≤2, ≥5, [2, 5] (the
    interval the text's ``∈ [2, 5]`` names: one notation in text and pictures), or nothing."""
    if text == "?":
        return ""
    if "·" in text:  # mcts's visits · mean (view.Tally.short), short already
        return text
    if text.startswith("= "):
        return text[2:]
    if text.startswith("∈ ["):
        return text[2:]
    return text.replace(" ", "")


class Painter:
    """The items of each node of one view, at any place: what the layout packs and the scene
    holds."""

    def __init__(
        self,
        view: SearchView,
        nodes: list[int],
        hidden: dict[int, int],
        state: bool,
        notes: dict[int, str] | None = None,
        blanks: str = "",
    ):
        self.view = view
        self.tree = view.tree
        self.state = state
        #: the nodes whose children are not drawn, how many nodes they hide, and where those
        #: continue (a page of the picture split over pages)
        self.hidden = hidden
        self.notes = notes or {}
        #: what a bare picture writes beside every inner node, where a student fills it in
        #: (the worksheet's ``α ____ β ____``); the layout keeps room for it as for a range
        self.blanks = "" if state else blanks
        #: the widest text the HTML replay fills into a node's empty range or rank at some
        #: step: a bare picture of a view with its events (the replay's) keeps room for it
        self.room: dict[tuple[int, str], str] = {}
        if not state and view.events is not None:
            self.room = {(n, "rank"): view.order_text(n) for n in view.rank}
            for step in replay_steps(view):
                for m, text in step["ranges"]:
                    short = short_range(text)
                    if text_width(short, 8) > text_width(self.room.get((m, "range"), ""), 8):
                        self.room[m, "range"] = short
        self.labels = view.labels
        #: the PV's nodes, whose edges a column or a row draws from the parent itself (not
        #: from the sibling before), so that the PV is drawn whole
        self.pv = set(view.pv) if state else set()
        self.kids: dict[int, list[int]] = {n: [] for n in nodes}
        parent = self.tree.parent
        for n in nodes[1:]:
            self.kids[parent[n]].append(n)
        #: the levels lie ``dy`` apart; the depths of the outcomes of chance nodes, whose
        #: probabilities stand above them
        self.dy = 58.0 if self.tree.has_chance else 48.0
        depth = self.tree.depth
        self.outcomes = {depth[n] for n in nodes if self.labels.probability(n) is not None}
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
        if not self.state:
            return self.blanks
        if not self.view.searched[n]:
            return ""
        tallies = self.view.tallies
        if tallies is not None:  # mcts: visits · mean · UCB
            return tallies[n].short()
        return short_range(self.view.range_text(n))

    def node_type(self, n: int) -> str:
        """Knuth & Moore's type, with ``*`` where the search did otherwise (the note, listed
        under the legend: gtsearch.render.layout)."""
        types = self.view.node_types
        if not self.state or types is None:
            return ""
        noted = NOTED if self.view.type_notes and n in self.view.type_notes else ""
        return (types.get(n) or "") + noted

    def rank(self, n: int) -> str:
        """A leaf's place in the evaluation order; mcts: its visits and mean, in its tree."""
        tallies = self.view.tallies
        if tallies is not None:
            tally = tallies.get(n) if self.state else None
            return "" if tally is None else tally.short()
        return self.view.order_text(n) if self.state else ""

    def value(self, n: int) -> str:
        return format_extended(self.tree.number(n))

    def prob(self, n: int) -> str:
        from ..numbers import format_probability

        p = self.labels.probability(n)
        return "" if p is None else format_probability(p)

    def pruned_head(self, n: int) -> bool:
        return self.state and self.view.is_cut(n)

    def note(self, n: int) -> str:
        """What a node whose children are not drawn says: how many nodes, and where they are."""
        if n not in self.hidden:
            return ""
        where = self.notes.get(n)
        return f"… {self.hidden[n]:,} nodes" + (f" on {where}" if where else "")

    # a node on its level
    def reach(self, n: int) -> float:
        """How far above the centres of n's level the edges into it end: above the head of
        every node there, and the probabilities of outcomes of chance nodes."""
        return 31.0 if self.tree.depth[n] in self.outcomes else 19.0

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
            it.texts.append(Text(x, baseline(y, 9), value, SIZES["value"], "middle", "value", n))
            if self.name(n):
                it.texts.append(
                    Text(x, y - LEAF_H / 2 - 3.7, self.name(n), SIZES["name"], "middle", "name", n)
                )
            rank = Text(x, y + LEAF_H / 2 + 8.0, self.rank(n), 8, "middle", "rank", n)
            it.texts.append(replace(rank, room=self.room.get((n, "rank"), "")))
            if self.node_type(n):
                t = Text(x, y + LEAF_H / 2 + 17.5, self.node_type(n), 8, "middle", "type", n)
                it.texts.append(t)
            return it
        if kind == "chance":
            outline = Shape(kind, n, center=(x, y), radius=RADIUS)
            inside_y, half = baseline(y, 8), RADIUS
        else:
            outline = Shape(kind, n, triangle(kind, x, y, HALF, 14.0, 11.0))
            inside_y, half = (y + 8.5, HALF) if kind == "max" else (y - 3.0, HALF)
        it.shapes.append(outline)
        right = x + half + 3
        text = self.range(n)
        room = self.room.get((n, "range"), "")
        rng = Text(x, inside_y, text, SIZES["range"], "middle", "range", n, room=room)
        if rng.shown:
            x0, y0, x1, y1 = rng.box()
            if not shape_contains(outline, (x0 - 1, y0 - 0.5, x1 + 1, y1 + 0.5)):
                rng = replace(rng, x=right, y=baseline(y, 8), anchor="start")
                right += rng.width + 4
        it.texts.append(rng)
        if self.name(n):
            it.texts.append(Text(x - half - 3, baseline(y, 9), self.name(n), 9, "end", "name", n))
        if self.node_type(n):
            t = Text(right, baseline(y, 8), self.node_type(n), SIZES["type"], "start", "type", n)
            it.texts.append(t)
        if n in self.hidden:
            t = Text(x, y + BELOW[kind] + 8.0, self.note(n), SIZES["hidden"], "middle", "hidden", n)
            it.texts.append(t)
        return it

    def edge(self, n: int, a: Point, x: float, y: float) -> Items:
        """The edge from a (the parent's bottom) down to n at (x, y): straight down to the
        level's reach, then, if n's head is lower, on down to it; two strokes across it where
        n heads a pruned subtree."""
        it = Items()
        top = self.top(n, y)
        b = (x, min(y - self.reach(n), top))
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
        first = dict(last)  # where each spine starts: the PV's edge goes down from there
        row_y = last[r] + 4 + PITCH / 2
        stack = list(reversed(self.kids[r]))
        while stack:
            n = stack.pop()
            p = self.tree.parent[n]
            sx = spine[p]
            row, start, x_mark, bottom = self.row(n, sx + TICK, row_y)
            it.extend(row)
            down = first[p] if n in self.pv else last[p]
            it.lines.append(Line((((sx, down), (sx, row_y), (start, row_y)),), "edge", n))
            if self.pruned_head(n):
                it.lines += crosses(n, (sx, row_y), (start, row_y), 0.5, 1.2, 3.5, 0.0)
            last[p] = row_y
            if self.kids[n]:
                spine[n], last[n] = x_mark, bottom
                first[n] = bottom
            stack.extend(reversed(self.kids[n]))
            row_y += PITCH
        return it

    def slots(self, rows: list[int]) -> tuple[float, float]:
        """How wide the probabilities and the leaves' names of these rows are, at most: the
        room each row leaves for them, so that rows one under another line up."""
        pw = max(text_width(self.prob(k), 8) for k in rows)
        nw = max(
            (text_width(self.name(k), 9, mono=True) for k in rows if self.kind(k) == "leaf"),
            default=0,
        )
        return pw, nw

    def row(
        self,
        n: int,
        x0: float,
        y: float,
        slots: tuple[float, float] | None = None,
        hug: bool = False,
    ) -> tuple[Items, float, float, float]:
        """One row of a column, starting at x0, its probability and name in ``slots`` (by
        default its siblings'), a leaf's name at the start of its slot or, with ``hug``, at its
        end, against the box: its items, where its edge ends, and the x and the bottom of its
        mark (where the spine of its children starts)."""
        it = Items()
        start = x0
        pw, nw = slots or self.slots(self.kids[self.tree.parent[n]])
        x = x0 + (pw + 4 if pw else 0.0)
        if self.prob(n):
            it.texts.append(Text(x0 + 1, baseline(y, 8), self.prob(n), 8, "start", "prob", n))
            start = x0 - 1.5  # the edge ends before the probability
        kind = self.kind(n)
        after: list[tuple[str, str, float]] = []
        if kind == "leaf":
            if self.name(n):
                name = Text(x + 1, baseline(y, 9), self.name(n), 9, "start", "name", n)
                if hug:
                    name = Text(x + nw + 1, name.y, name.text, 9, "end", "name", n)
                it.texts.append(name)
                if not self.prob(n):
                    start = name.box()[0] - 1.5
            x += nw + 3 if nw else 0.0
            value = self.value(n)
            w = max(text_width(value, 9) + 5, 15.0)
            it.shapes.append(box_shape(n, x, y - LEAF_H / 2, w, LEAF_H))
            it.texts.append(Text(x + w / 2, baseline(y, 9), value, 9, "middle", "value", n))
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
                after.append(("hidden", self.note(n), 8.0))
        for role, text, size in after:
            t = Text(x, baseline(y, size), text, size, "start", role, n)
            t = replace(t, room=self.room.get((n, role), ""))
            if t.shown or role in ("rank", "range"):  # the replay fills the empty ones
                it.texts.append(t)
            if t.shown:
                x += t.width + 4
        return it, start, x_mark, bottom
