"""Where everything of a tree's picture goes: the layout SVG and TikZ share, made to fit a page.

The picture is a :class:`gtsearch.render.geometry.Scene`, in points: the
writers (gtsearch.render.svg, gtsearch.render.tikz) only translate it, so
both show the same tree the same way and the tests measure what they draw.
What each node draws is gtsearch.render.painter's; where it goes, this
module's, in one of four arrangements:

- the *tree*: every node on the level of its depth, every parent centred
  above its first and last child, and neighbouring subtrees pushed apart
  until no text, shape or edge of one comes within ``GAP`` of the other
  (their contours, level band by level band; a text's reaches ``TEXT_PAD``
  beyond it, so that labels of different nodes stand ``LABEL_GAP`` apart);
- *columns*: below a cut height, the subtrees drawn as indented lists under
  their roots (the bottom levels of a wide tree, the way ``gtsearch show``
  draws in a terminal);
- *sideways* (gtsearch.render.sideways): the tree on its side, the root at the
  left, a node's first child beside it and the others below, the leaves of a
  node whose children are all leaves in one row: the lowest picture of a tree;
- the *outline*: the whole tree as one indented list, the narrowest.

``layout="auto"`` takes the first of tree, columns from the lowest cut up,
sideways and outline whose picture fits the page (see
:data:`gtsearch.render.geometry.PAGES`), ``"tree"``, ``"sideways"`` and
``"outline"`` that arrangement, ``"compact"`` the lowest cut of columns that
fits.  When none fits, the first whose tree fits without its title and
legend, else the lowest of those as wide as the page, else the narrowest;
gtsearch.render.pages splits it over pages.

Texts are set at 9 pt (names, values, the summary, notes), 8 pt (ranges,
the numbers of the evaluations, probabilities, node types, hidden nodes, the
legend and the node-type notes under it) and 12 pt (the title), times the
page's scale: nothing under 8 pt at 100 %, nothing under 10 pt on a slide.
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
    Scene,
    Shape,
    Text,
    crosses,
    text_width,
    triangle,
)
from .painter import BELOW, GAP, NOTED, PITCH, SIZES, Painter
from .sideways import sideways_items
from .view import SearchView

#: pictures with more nodes than this are refused (use --max-depth)
MAX_PICTURE_NODES = 5000
MARGIN = 12.0
#: below a MIN node's apex, before its edges fan out
STEM = 4.0
ASCENT_TITLE = 10.0


def drawn_nodes(
    tree: Tree, max_depth: int | None, expanded: frozenset[int] | None = None, root: int = 0
) -> tuple[list[int], dict[int, int]]:
    """The nodes a picture of the subtree below ``root`` shows (preorder), and those whose
    children are hidden, with how many nodes each hides.

    Children are hidden below the depth limit, and in a collapsed view
    (``expanded``: the only nodes whose children are drawn) below every other node.
    """
    end = tree.end
    depth = tree.depth
    nodes: list[int] = []
    hidden: dict[int, int] = {}
    n = root
    stop = end[root]
    while n < stop:
        nodes.append(n)
        if len(nodes) > MAX_PICTURE_NODES:
            raise GtsearchError(
                f"the picture would have more than {MAX_PICTURE_NODES:,} nodes "
                f"(the tree has {tree.n_nodes:,}); draw its top with --max-depth N"
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


@dataclass
class Picture:
    """A laid-out picture: its scene, the nodes drawn, and how it was laid out."""

    scene: Scene
    nodes: list[int]
    hidden: dict[int, int]
    #: "tree", "columns", "sideways" or "outline"
    arrangement: str
    #: the height from which subtrees are columns: 0 for the plain tree and sideways
    cut: int
    page: Page
    #: whether the picture fits the page, and whether its tree does without its title and legend
    fits: bool
    tree_fits: bool


def arrangements(layout: str, tallest: int) -> list[tuple[str, int]]:
    """The arrangements ``layout`` tries, in order, for a tree ``tallest`` levels high."""
    columns = [("columns", cut) for cut in range(1, tallest)]
    outline = [("outline", tallest)] if tallest else []
    if layout == "auto":
        return [("tree", 0), *columns, *([("sideways", 0)] if tallest else []), *outline]
    if layout == "compact":
        return [*columns, *outline] or [("tree", 0)]
    if layout == "outline":
        return outline or [("tree", 0)]
    return [(layout, 0)]


# -- the tree and its columns --------------------------------------------------------------
def _tree_items(pt: Painter, nodes: list[int], cut: int, top: float) -> Items:
    """Every node placed: levels down from ``top``, subtrees of height ``cut`` or less as
    columns under their roots; x relative to the root's."""
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
            contour.add(-1.0, y[n] - pt.reach(n), 1.0, pt.top(n, y[n]))
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
            if pt.kind(n) == "min":  # the edges fan out below a stem, not from the apex itself,
                # which would make them look like the triangle's sides crossing on
                stem = Line(((a, (0.0, a[1] + STEM)),), "stem", n)
                items.lines.append(stem)
                contour.add_items((), (), [stem])
                a = (0.0, a[1] + STEM)
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
        out.extend(own[n].moved(x[n]))
    return out


def _legend(x: float, y: float, width: float, chance: bool, mcts: bool = False) -> Items:
    """The legend, from (x, y) (its first baseline), in lines no wider than ``width``;
    ``mcts``: its search tree's numbers instead of evaluated leaves."""
    it = Items()
    entries = [
        ("", "visits · mean reward (MAX's) · UCB")
        if mcts
        else ("evaluated", "evaluated (#n: n-th evaluation)"),
        ("pruned", "unvisited" if mcts else "pruned"),
        ("pv", "PV by visits" if mcts else "principal variation"),
        ("max", "MAX"),
        ("min", "MIN"),
    ]
    if chance:
        entries.append(("chance", "chance (probability on the edge)"))
    size = SIZES["legend"]
    left = x
    for icon, text in entries:
        # a node's icon is its shape, drawn as the picture draws the node (open, outlined)
        room = 14.0 if icon in ("max", "min", "chance") else 26.0 if icon else 0.0
        w = room + text_width(text, size)
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
        elif icon == "chance":
            it.shapes.append(Shape("legend-chance", -1, center=(x + 5.5, mid), radius=5.0))
        elif icon:
            points = triangle(icon, x + 5.5, mid + (0.5 if icon == "max" else -0.5), 5.5, 6.0, 5.0)
            it.shapes.append(Shape("legend-" + icon, -1, points))
        tx = x + room
        it.texts.append(Text(tx, y, text, size, "start", "legend-" + (icon or "key")))
        x += w + 12
    return it


def type_note_lines(view: SearchView) -> list[tuple[str, list[int]]]:
    """What ``show --node-types`` notes where the search did otherwise than the types say,
    each note with the nodes it is said of (in preorder), in the order they first come."""
    grouped: dict[str, list[int]] = {}
    for n, note in sorted((view.type_notes or {}).items()):
        grouped.setdefault(note, []).append(n)
    return list(grouped.items())


def wrapped(text: str, size: float, width: float) -> list[str]:
    """The text in lines no wider than ``width`` where it can, broken after its commas."""
    lines: list[str] = []
    for piece in text.split(", "):
        joined = f"{lines[-1]}, {piece}" if lines else piece
        if lines and text_width(joined, size) > width:
            lines[-1] += ","
            lines.append(piece)
        elif lines:
            lines[-1] = joined
        else:
            lines.append(piece)
    return lines


def _notes(view: SearchView, drawn: set[int], x: float, y: float, width: float) -> Items:
    """The node-type notes of the ``drawn`` nodes (``*`` marks them), from (x, y), the nodes
    of one note on as many lines as ``width`` needs."""
    it = Items()
    size = SIZES["legend"]
    label = view.labels.label
    for note, nodes in type_note_lines(view):
        names = [label(n) for n in nodes if n in drawn]
        if not names:
            continue
        head = f"{NOTED} {note}:"
        line = head
        for name in names:
            more = f"{line} {name}" if line == head else f"{line}, {name}"
            if line != head and text_width(more, size) > width:
                it.texts.append(Text(x, y, line + ",", size, "start", "legend-note"))
                y += 12.0
                line = f"    {name}"
            else:
                line = more
        it.texts.append(Text(x, y, line, size, "start", "legend-note"))
        y += 12.0
    return it


def notes_scene(view: SearchView, page: str, nodes: set[int] | None = None) -> Scene | None:
    """The node-type notes alone, a scene for ``page`` (of the ``nodes`` drawn, else all):
    where a picture with them under its legend is too tall, they go on after it
    (gtsearch.render.pages); None without notes."""
    room = PAGES[page]
    m, k = room.margin, room.scale
    drawn = set(range(view.tree.n_nodes)) if nodes is None else nodes
    it = _notes(view, drawn, m, m + 8.0, room.width / k - 2 * m)
    if not it.texts:
        return None
    width = max(t.box()[2] for t in it.texts) + m
    height = max(t.box()[3] for t in it.texts) + m
    it = it.moved(0.0, 0.0, k)
    return Scene(width * k, height * k, it.texts, it.lines, it.shapes)


def layout(
    view: SearchView,
    max_depth: int | None = None,
    *,
    page: str = "a4",
    layout: str = "auto",
    state: bool = True,
    head: tuple[str, ...] = (),
    legend: bool = False,
    root: int = 0,
    note: str = "",
    notes: dict[int, str] | None = None,
    only: tuple[str, int] | None = None,
    blanks: str = "",
    type_notes: bool = True,
) -> Picture:
    """The picture of the view (of the subtree below ``root``) laid out for ``page`` (a name of
    PAGES) as ``layout`` asks (one of LAYOUTS), or in the arrangement ``only`` names;
    ``head``: the title and the summary above it, ``note`` a line above the tree (where a part
    of a picture hangs), ``legend`` the legend below, ``notes`` what nodes whose children are
    hidden say of where they are.  ``state`` False leaves out the search's marks (the bare
    tree), ``blanks`` what it writes beside every inner node for a student to fill in;
    ``type_notes`` False leaves the node-type notes out from under the legend
    (:func:`notes_scene` sets them apart)."""
    if page not in PAGES:
        raise UsageError(f"no page {page!r}; the pages: {', '.join(PAGES)}")
    if layout not in LAYOUTS:
        raise UsageError(f"no layout {layout!r}; the layouts: {', '.join(LAYOUTS)}")
    room = PAGES[page]
    nodes, hidden = drawn_nodes(view.tree, max_depth, view.expanded, root)
    pt = Painter(view, nodes, hidden, state, notes, blanks)
    pictures = []
    for arrangement, cut in [only] if only else arrangements(layout, pt.height[nodes[0]]):
        scene, tree_box = _scene(
            pt, nodes, arrangement, cut, (head, note), (legend, type_notes), room
        )
        pic = Picture(
            scene,
            nodes,
            hidden,
            arrangement,
            cut,
            room,
            room.holds(scene.width, scene.height),
            room.holds(*tree_box),
        )
        if pic.fits:
            return pic
        pictures.append(pic)
    narrow = [p for p in pictures if room.holds(p.scene.width, 0.0)]
    return next(
        (p for p in pictures if p.tree_fits),
        min(narrow, key=lambda p: p.scene.height)
        if narrow
        else min(pictures, key=lambda p: p.scene.width),
    )


def _scene(
    pt: Painter,
    nodes: list[int],
    arrangement: str,
    cut: int,
    above_tree: tuple[tuple[str, ...], str],
    below_tree: tuple[bool, bool],
    room: Page,
) -> tuple[Scene, tuple[float, float]]:
    """The scene, and the size of the tree's picture alone (without head, note and legend);
    ``above_tree`` the head and the note, ``below_tree`` whether the legend and the node-type
    notes go under it."""
    head, note = above_tree
    legend, type_notes = below_tree
    texts: list[Text] = []
    m, k = room.margin, room.scale
    y = m
    for i, whole in enumerate(head):
        if i == 0 and not room.title:
            continue
        role = "title" if i == 0 else "summary"
        # the summary on as many lines as the page's width needs, broken after its commas
        for line in [whole] if i == 0 else wrapped(whole, SIZES[role], room.width / k - 2 * m):
            y += ASCENT_TITLE if i == 0 else 14.0 if texts else 8.0
            texts.append(Text(m, y, line, SIZES[role], "start", role, bold=i == 0))
    if note:
        y += 14.0 if texts else 8.0
        texts.append(Text(m, y, note, SIZES["note"], "start", "note"))
    above = y + (8.0 if texts else 0.0)
    if arrangement == "sideways":
        items = sideways_items(pt, nodes, above + PITCH / 2)
    else:
        items = _tree_items(pt, nodes, cut, above + pt.reach(nodes[0]))
    x0, y0, x1, bottom = items.extent()
    tree_size = ((x1 - x0 + 2 * m) * k, (bottom - y0 + 2 * m) * k)
    drawn = items.moved(m - x0)
    width = max([x1 - x0] + [t.width for t in texts])
    if legend:
        keys = (pt.tree.has_chance, pt.view.tallies is not None)
        leg = _legend(m, bottom + 16.0, max(width, 240.0), *keys)
        if (max(t.box()[3] for t in leg.texts) + m) * k > room.height:
            # too tall for the page: the legend on as few lines as the page's width holds
            leg = _legend(m, bottom + 16.0, room.width / k - 2 * m, *keys)
        notes = Items()
        if pt.state and type_notes:
            below = max(t.box()[3] for t in leg.texts) + 14.0
            notes = _notes(pt.view, set(pt.kids), m, below, room.width / k - 2 * m)
        drawn.extend(leg)
        drawn.extend(notes)
        width = max([width] + [t.box()[2] - m for t in leg.texts + notes.texts])
        bottom = max(t.box()[3] for t in leg.texts + notes.texts)
    drawn.texts[:0] = texts
    drawn = drawn.moved(0.0, 0.0, k)
    scene = Scene((width + 2 * m) * k, (bottom + m) * k, drawn.texts, drawn.lines, drawn.shapes)
    return scene, tree_size


__all__ = [
    "MAX_PICTURE_NODES",
    "Picture",
    "arrangements",
    "drawn_nodes",
    "fits",
    "layout",
    "notes_scene",
    "type_note_lines",
]
