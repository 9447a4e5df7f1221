"""What a picture draws, as geometry: texts with their boxes, lines, shapes, and where they collide.

A picture of a tree (gtsearch.render.layout) is a :class:`Scene`: every text,
line and shape the writers emit (SVG in gtsearch.render.svg, TikZ in
gtsearch.render.tikz), at the coordinates they emit, in points (1/72 inch).
A text's box comes from a table of font metrics, DejaVu Sans's advance widths
(the SVG's first font, and wider than the TeX sans serif the TikZ picture sets
and than Helvetica or Arial, so that the boxes hold the text in any of them),
from 0.76 em above the baseline to 0.24 em below it.  :func:`collisions` lists
every text that crosses an edge, a shape or another text, and every shape that
overlaps another: the tests hold it to zero over random trees.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .paper import LAYOUTS, MM, PAGES, Page

#: a point (x, y), y downwards
Point = tuple[float, float]
#: a box (x0, y0, x1, y1)
Box = tuple[float, float, float, float]

#: DejaVu Sans (regular, then bold): advance widths of the characters " " to "~", in 1/1000 em
_ASCII = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 "
    "636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 "
    "557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 "
    "635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 "
    "592 592 525 636 337 636 838",
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 "
    "696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 "
    "637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 "
    "716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 "
    "645 652 582 712 365 712 838",
)
_WIDTHS = tuple({chr(32 + i): int(w) / 1000 for i, w in enumerate(row.split())} for row in _ASCII)
#: the symbols the pictures write (the same in both weights, within a few per cent)
_SYMBOLS = {
    "≥": 0.838, "≤": 0.838, "∈": 0.896, "…": 1.0, "→": 0.838, "α": 0.687, "β": 0.716,
    "−": 0.838, "∞": 0.833, "▲": 0.769, "▼": 0.769, "●": 0.873, "○": 0.873, "·": 0.38,
    "–": 0.5, "—": 1.0, "×": 0.838, "é": 0.678, "✂": 0.838, "★": 0.896,
}  # fmt: skip
#: any other character: as wide as the widest letter
_OTHER = 1.1
ASCENT = 0.76
DESCENT = 0.24


#: DejaVu Sans Mono's advance width, every character's (1233/2048 em), wider than TeX's
#: typewriter (0.525 em), Menlo's and Consolas's
MONO = 0.602
#: the texts set in a monospaced font: the nodes' names, whose l, I and 1 a sans serif draws
#: alike (leaf l1 beside node I: issue 38)
MONO_ROLES = frozenset({"name"})
MONO_FONTS = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def text_width(text: str, size: float, bold: bool = False, mono: bool = False) -> float:
    """The advance width of ``text`` set at ``size`` points (DejaVu Sans, or DejaVu Sans Mono
    with ``mono``: an upper bound)."""
    if mono:
        return size * MONO * len(text)
    table = _WIDTHS[bold]
    return size * sum(table.get(ch) or _SYMBOLS.get(ch, _OTHER) for ch in text)


@dataclass(frozen=True)
class Text:
    """A line of text; (x, y) is on its baseline, at its start, middle or end (``anchor``)."""

    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"  # "start", "middle" or "end"
    #: what it says: name, value, range, rank, prob, type, hidden, title, summary, legend, note
    role: str = ""
    node: int = -1
    bold: bool = False
    #: the text an empty one keeps room for: what the HTML replay fills in at some step
    room: str = ""

    @property
    def shown(self) -> str:
        """What the text is, or keeps room for."""
        return self.text or self.room

    @property
    def width(self) -> float:
        return text_width(self.shown, self.size, self.bold, self.role in MONO_ROLES)

    def box(self) -> Box:
        w = self.width
        x0 = self.x - {"start": 0.0, "middle": w / 2, "end": w}[self.anchor]
        return x0, self.y - ASCENT * self.size, x0 + w, self.y + DESCENT * self.size


@dataclass(frozen=True)
class Line:
    """An edge, a mark or a rule: one or more polylines (an edge may stop around its label)."""

    pieces: tuple[tuple[Point, ...], ...]
    #: edge (from the parent to ``node``), cross (the stroke that crosses a pruned edge out),
    #: legend
    role: str = "edge"
    node: int = -1

    def segments(self) -> Iterator[tuple[Point, Point]]:
        for piece in self.pieces:
            yield from pairwise(piece)


@dataclass(frozen=True)
class Shape:
    """A node's shape: a polygon (triangles, leaf boxes) or, with a radius, a circle."""

    kind: str  # "max", "min", "chance", "leaf", or "swatch" (the legend's)
    node: int
    points: tuple[Point, ...] = ()
    center: Point = (0.0, 0.0)
    radius: float = 0.0

    def box(self) -> Box:
        if self.radius:
            (x, y), r = self.center, self.radius
            return x - r, y - r, x + r, y + r
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass
class Scene:
    """Everything a picture draws, in points, and the size of its page."""

    width: float
    height: float
    texts: list[Text]
    lines: list[Line]
    shapes: list[Shape]

    def items(self) -> Items:
        it = Items()
        it.texts, it.lines, it.shapes = list(self.texts), list(self.lines), list(self.shapes)
        return it


# -- shapes --------------------------------------------------------------------------------
def triangle(
    kind: str, x: float, y: float, half: float, up: float, down: float
) -> tuple[Point, ...]:
    """A MAX node's triangle (apex up, ``up`` above the centre, its base ``down`` below it) or,
    upside down, a MIN node's."""
    if kind == "max":
        return (x, y - up), (x - half, y + down), (x + half, y + down)
    return (x - half, y - down), (x + half, y - down), (x, y + up)


def box_shape(n: int, x: float, y: float, w: float, h: float) -> Shape:
    """A leaf's box, its top left corner at (x, y)."""
    return Shape("leaf", n, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def crosses(
    n: int, a: Point, b: Point, at: float, along: float, across: float, slant: float = 1.5
) -> list[Line]:
    """Two short strokes across the segment ab at ``at`` of its length: a pruned edge."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    vx, vy = -uy, ux
    mx, my = a[0] + (b[0] - a[0]) * at, a[1] + (b[1] - a[1]) * at
    out = []
    for shift in (-along, along):
        cx, cy = mx + ux * shift, my + uy * shift
        p = (cx - vx * across - ux * slant, cy - vy * across - uy * slant)
        q = (cx + vx * across + ux * slant, cy + vy * across + uy * slant)
        out.append(Line(((p, q),), "cross", n))
    return out


# -- contours: how near two drawings may come -------------------------------------------------
#: the height of a band of the contours
BAND = 3.0
#: how far a text's contour reaches beyond its box, left and right: two texts of neighbouring
#: subtrees stand twice this farther apart than their shapes (the layouts' gap), so that
#: labels of different nodes never read as one ("PV C", "1..11 I" did at 4 pt)
TEXT_PAD = 2.0
#: the least room between two texts of different nodes, side by side: the layouts' gap (4 pt)
#: and the texts' pads; tests/test_layout.py measures it
LABEL_GAP = 8.0


class Contour:
    """A drawing's extent, band by band: the least and greatest x it reaches in each band of
    ``BAND`` points."""

    def __init__(self) -> None:
        self.lo: dict[int, float] = {}
        self.hi: dict[int, float] = {}

    def add(self, x0: float, y0: float, x1: float, y1: float) -> None:
        lo, hi = self.lo, self.hi
        for b in range(math.floor(y0 / BAND), math.floor(y1 / BAND) + 1):
            if b in lo:
                lo[b] = min(lo[b], x0)
                hi[b] = max(hi[b], x1)
            else:
                lo[b], hi[b] = x0, x1

    def add_segment(self, a: Point, b: Point, pad: float = 1.0) -> None:
        (xa, ya), (xb, yb) = sorted((a, b), key=lambda p: p[1])
        if yb - ya < 1e-9:
            self.add(min(xa, xb) - pad, ya - pad, max(xa, xb) + pad, ya + pad)
            return
        for band in range(math.floor(ya / BAND), math.floor(yb / BAND) + 1):
            t0 = max(0.0, (band * BAND - ya) / (yb - ya))
            t1 = min(1.0, ((band + 1) * BAND - ya) / (yb - ya))
            x0, x1 = xa + (xb - xa) * t0, xa + (xb - xa) * t1
            self.add(min(x0, x1) - pad, band * BAND + 0.1, max(x0, x1) + pad, band * BAND + 0.2)

    def add_items(
        self, texts: Iterable[Text], shapes: Iterable[Shape], lines: Iterable[Line]
    ) -> None:
        for t in texts:
            if t.shown:
                x0, y0, x1, y1 = t.box()
                self.add(x0 - TEXT_PAD, y0, x1 + TEXT_PAD, y1)
        for s in shapes:
            self.add(*s.box())
        for line in lines:
            for a, b in line.segments():
                self.add_segment(a, b)

    def merge(self, other: Contour, dx: float) -> None:
        for b, x in other.lo.items():
            if b in self.lo:
                self.lo[b] = min(self.lo[b], x + dx)
                self.hi[b] = max(self.hi[b], other.hi[b] + dx)
            else:
                self.lo[b], self.hi[b] = x + dx, other.hi[b] + dx

    def distance(self, right: Contour, gap: float) -> float:
        """How far right of this contour the other must go to clear it by ``gap``."""
        shared = [b for b in right.lo if b in self.hi]
        return max((self.hi[b] - right.lo[b] + gap for b in shared), default=0.0)


class Items:
    """Texts, shapes and lines, as a scene gathers them."""

    def __init__(self) -> None:
        self.texts: list[Text] = []
        self.shapes: list[Shape] = []
        self.lines: list[Line] = []

    def extend(self, other: Items) -> None:
        self.texts += other.texts
        self.shapes += other.shapes
        self.lines += other.lines

    def contour(self) -> Contour:
        c = Contour()
        c.add_items(self.texts, self.shapes, self.lines)
        return c

    def moved(self, dx: float, dy: float = 0.0, k: float = 1.0) -> Items:
        """The items moved by (dx, dy), then scaled by k about the origin."""

        def at(p: Point) -> Point:
            return (p[0] + dx) * k, (p[1] + dy) * k

        out = Items()
        out.texts = [
            Text(*at((t.x, t.y)), t.text, t.size * k, t.anchor, t.role, t.node, t.bold, t.room)
            for t in self.texts
        ]
        out.shapes = [
            Shape(s.kind, s.node, tuple(map(at, s.points)), at(s.center), s.radius * k)
            for s in self.shapes
        ]
        out.lines = [
            Line(tuple(tuple(map(at, piece)) for piece in line.pieces), line.role, line.node)
            for line in self.lines
        ]
        return out

    def extent(self) -> Box:
        """The box that holds every text (and the room kept for empty ones), shape and line."""
        boxes = [t.box() for t in self.texts if t.shown] + [s.box() for s in self.shapes]
        boxes += [_segment_box(a, b) for line in self.lines for a, b in line.segments()]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


# -- the tests of geometry -------------------------------------------------------------------
def boxes_meet(a: Box, b: Box, gap: float = 0.0) -> bool:
    """Whether two boxes overlap (or come closer than ``gap``)."""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _sides(poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The sides of a polygon, each as its two corners."""
    return list(pairwise([*poly, poly[0]]))


def _inside_polygon(p: Point, poly: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in _sides(poly):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _corners(b: Box) -> tuple[Point, ...]:
    return (b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the segments ab and cd cross (touching at an end counts)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return True

    def on(p: Point, q: Point, r: Point) -> bool:  # r on the segment pq
        return (
            abs(_cross(p, q, r)) < 1e-9
            and min(p[0], q[0]) - 1e-9 <= r[0] <= max(p[0], q[0]) + 1e-9
            and min(p[1], q[1]) - 1e-9 <= r[1] <= max(p[1], q[1]) + 1e-9
        )

    return on(c, d, a) or on(c, d, b) or on(a, b, c) or on(a, b, d)


def segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment ab has a point inside the box (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 >= t1:
                return False
    return True


def _segment_circle(a: Point, b: Point, c: Point, r: float) -> bool:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = (
        0.0
        if not length
        else max(0.0, min(1.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / length))
    )
    return math.dist((a[0] + t * dx, a[1] + t * dy), c) < r - 0.2  # an end on the circle


def shape_contains(shape: Shape, box: Box) -> bool:
    """Whether the box lies wholly inside the shape."""
    if shape.radius:
        return all(math.dist(p, shape.center) <= shape.radius for p in _corners(box))
    return all(_inside_polygon(p, shape.points) for p in _corners(box))


def shape_meets_box(shape: Shape, box: Box) -> bool:
    """Whether the shape (its outline or its inside) and the box share a point."""
    if not boxes_meet(shape.box(), box):
        return False
    if shape.radius:
        cx = min(max(shape.center[0], box[0]), box[2])
        cy = min(max(shape.center[1], box[1]), box[3])
        return math.dist((cx, cy), shape.center) < shape.radius
    pts = shape.points
    if any(box[0] < x < box[2] and box[1] < y < box[3] for x, y in pts):
        return True
    if any(_inside_polygon(p, pts) for p in _corners(box)):
        return True
    return any(segment_meets_box(p, q, box) for p, q in _sides(pts))


def segment_meets_shape(a: Point, b: Point, shape: Shape) -> bool:
    """Whether the segment passes through the shape (its ends on the outline do not count)."""
    if shape.radius:
        return _segment_circle(a, b, shape.center, shape.radius)
    pts = shape.points
    # shrink the polygon a little towards its centre, so that an edge ending on it does not count
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    inner = [(cx + (x - cx) * 0.97, cy + (y - cy) * 0.97) for x, y in pts]
    if _inside_polygon(a, inner) or _inside_polygon(b, inner):
        return True
    return any(segments_cross(a, b, p, q) for p, q in _sides(inner))


def shapes_meet(s: Shape, t: Shape) -> bool:
    """Whether two shapes overlap (their boxes, for circles; outlines and corners otherwise)."""
    if not boxes_meet(s.box(), t.box()):
        return False
    if s.radius or t.radius:
        return True
    if any(_inside_polygon(p, t.points) for p in s.points):
        return True
    if any(_inside_polygon(p, s.points) for p in t.points):
        return True
    es = _sides(s.points)
    et = _sides(t.points)
    return any(segments_cross(a, b, c, d) for a, b in es for c, d in et)


# -- collisions --------------------------------------------------------------------------------
#: texts drawn inside their own node's shape (a leaf's value, a node's range)
INSIDE_ROLES = frozenset({"value", "range"})
_CELL = 24.0


def _cells(box: Box) -> Iterator[tuple[int, int]]:
    for i in range(int(box[0] // _CELL), int(box[2] // _CELL) + 1):
        for j in range(int(box[1] // _CELL), int(box[3] // _CELL) + 1):
            yield i, j


def _segment_box(a: Point, b: Point) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


def collisions(scene: Scene, gap: float = 0.0) -> list[str]:
    """Every clash in the scene, one sentence each: a text that meets another text (closer
    than ``gap``), an edge or a shape (other than its own shape, when it lies wholly inside
    it), a shape that meets another, an edge that passes through a shape; a text or a shape
    off the page.  Empty when the picture is clean."""
    grid: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    texts = [t for t in scene.texts if t.shown]
    segments = [(line, a, b) for line in scene.lines for a, b in line.segments()]
    for i, t in enumerate(texts):
        for cell in _cells(t.box()):
            grid[cell].append(("text", i))
    for i, (_, a, b) in enumerate(segments):
        for cell in _cells(_segment_box(a, b)):
            grid[cell].append(("segment", i))
    for i, s in enumerate(scene.shapes):
        for cell in _cells(s.box()):
            grid[cell].append(("shape", i))
    found: list[str] = []
    seen: set[tuple[str, int, str, int]] = set()

    def pairs(kind: str, i: int, box: Box) -> Iterable[tuple[str, int]]:
        for cell in _cells(box):
            for other in grid[cell]:
                key = (kind, i, *other)
                if other != (kind, i) and key not in seen:
                    seen.add(key)
                    seen.add((*other, kind, i))
                    yield other

    for i, t in enumerate(texts):
        box = t.box()
        if box[0] < -0.5 or box[1] < -0.5 or box[2] > scene.width + 0.5:
            found.append(f"text {t.shown!r} ({t.role}) leaves the page")
        if box[3] > scene.height + 0.5:
            found.append(f"text {t.shown!r} ({t.role}) leaves the page")
        for kind, j in pairs("text", i, (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)):
            if kind == "text" and boxes_meet(box, texts[j].box(), gap):
                found.append(f"text {t.shown!r} ({t.role}) meets text {texts[j].shown!r}")
            elif kind == "segment":
                line, a, b = segments[j]
                if segment_meets_box(a, b, box):
                    found.append(f"text {t.shown!r} ({t.role}) meets a {line.role} of {line.node}")
            elif kind == "shape":
                s = scene.shapes[j]
                own = s.node == t.node and t.role in INSIDE_ROLES
                if own and shape_contains(s, box):
                    continue
                if shape_meets_box(s, box):
                    found.append(f"text {t.shown!r} ({t.role}) meets the shape of {s.node}")
    for i, s in enumerate(scene.shapes):
        box = s.box()
        if box[0] < -0.5 or box[1] < -0.5 or box[2] > scene.width + 0.5:
            found.append(f"the shape of {s.node} leaves the page")
        for kind, j in pairs("shape", i, box):
            if kind == "shape" and shapes_meet(s, scene.shapes[j]):
                found.append(f"the shapes of {s.node} and {scene.shapes[j].node} meet")
            elif kind == "segment":
                line, a, b = segments[j]
                if line.role == "edge" and segment_meets_shape(a, b, s):
                    found.append(f"the {line.role} of {line.node} passes through {s.node}")
    return found


def crowded(scene: Scene, gap: float = LABEL_GAP) -> list[str]:
    """Every two texts of different nodes side by side (on one line, their heights overlapping)
    less than ``gap`` apart, one sentence each: labels that would read as one."""
    texts = sorted((t for t in scene.texts if t.shown and t.node >= 0), key=lambda t: t.box()[0])
    found = []
    for i, a in enumerate(texts):
        ax0, ay0, ax1, ay1 = a.box()
        for b in texts[i + 1 :]:
            bx0, by0, bx1, by1 = b.box()
            if bx0 >= ax1 + gap:
                break  # sorted by their left ends: the rest start farther right
            if b.node != a.node and by0 < ay1 and ay0 < by1 and bx0 - ax1 < gap - 0.05:
                found.append(
                    f"text {a.shown!r} ({a.role}) and {b.shown!r} ({b.role}) "
                    f"{bx0 - ax1:.1f} pt apart"
                )
    return found


__all__ = [
    "ASCENT",
    "BAND",
    "Contour",
    "Items",
    "DESCENT",
    "INSIDE_ROLES",
    "LABEL_GAP",
    "MONO",
    "MONO_FONTS",
    "MONO_ROLES",
    "TEXT_PAD",
    "LAYOUTS",
    "MM",
    "PAGES",
    "Page",
    "Box",
    "Line",
    "Point",
    "Scene",
    "Shape",
    "Text",
    "box_shape",
    "boxes_meet",
    "crosses",
    "triangle",
    "collisions",
    "crowded",
    "segment_meets_box",
    "segment_meets_shape",
    "segments_cross",
    "shape_contains",
    "shape_meets_box",
    "shapes_meet",
    "text_width",
]
