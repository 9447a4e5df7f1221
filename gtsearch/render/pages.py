"""A picture too large for its page, split over pages (the TikZ document): the top of the tree on
the first page, the subtrees below it after it, each under a note that says where it hangs.

When the tree fits its page in none of the arrangements of
gtsearch.render.layout, it is cut at the shallowest depth where its top (down
to that depth, each node there with its children hidden: "… 84 nodes on page
2") fits the page, preferring a depth where every subtree below it (laid out
as ``layout`` asks, under the note "continued from B on page 1") fits too; a
subtree that does not is split again the same way, its top under its note and
its own subtrees after it (b=4 d=4 on a slide: the root's top, then each
child's top, then its grandchildren's subtrees).  The pieces are set on pages
in order, the top first: side by side while the page's width holds them, then
on the next shelf down while its height does, then on the next page.  The
notes are measured with two-digit page numbers and written with the real ones
in the arrangement measured, so a piece never grows after it is set.  A tree
that no depth splits so stays one picture.  The SVG picture is never split: a
screen scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .geometry import PAGES, Items, Page, Scene
from .layout import MARGIN, Picture, drawn_nodes, layout, notes_scene
from .view import SearchView

#: a piece of a page: which scene, and where its top left corner goes
Placed = tuple[int, float, float]
#: the page number the notes are measured with: as wide as any up to 99
PLACEHOLDER = 99


def order(arrangement: tuple[str, int]) -> int:
    """Where an arrangement comes in ``layout="auto"``'s order, from the widest to the narrowest."""
    name, cut = arrangement
    return {"tree": 0, "columns": cut, "sideways": 10**6, "outline": 2 * 10**6}[name]


@dataclass(frozen=True)
class Request:
    """What a picture split over pages is asked for: its pieces are laid out alike."""

    view: SearchView
    max_depth: int | None
    page: str
    layout: str
    state: bool

    def picture(self, **more: Any) -> Picture:
        return layout(self.view, self.max_depth, page=self.page, layout=self.layout,
                      state=self.state, **more)  # fmt: skip

    def top(self, cut: int, notes: dict[int, str], **more: Any) -> Picture:
        """The tree down to depth ``cut``, whose nodes there say where they go on."""
        ask = Request(self.view, cut, self.page, self.layout, self.state)
        return ask.picture(notes=notes, **more)


@dataclass
class Piece:
    """A part of a split picture: the subtree below ``root``, down to depth ``cut`` (None: all of
    it), laid out in ``arrangement``; ``stubs``, its nodes at ``cut`` whose children are
    hidden, go on in the pieces ``below``; it hangs from the piece ``parent`` (None: the
    first, with the head and the legend)."""

    root: int
    cut: int | None
    arrangement: tuple[str, int] | None
    parent: int | None = None
    stubs: list[int] = field(default_factory=list)
    below: list[int] = field(default_factory=list)


def pages(
    ask: Request, *, head: tuple[str, ...] = (), legend: bool = False, word: str = "page"
) -> list[Scene]:
    """The picture asked for on one page or, when it does not fit, on several, each a scene
    the size of what it holds, the first with the ``head`` and the ``legend``; ``word`` names
    them in the notes ("page", or "part" for pictures that go into another document)."""
    whole = ask.picture(head=head, legend=legend)
    if whole.fits:
        return [whole.scene]
    notes = notes_scene(ask.view, ask.page, set(whole.nodes)) if legend and ask.state else None
    if notes is not None:  # the node-type notes after the picture, on the next page if need be
        apart = ask.picture(head=head, legend=legend, type_notes=False)
        if apart.fits:
            scenes = [apart.scene, notes]
            return [composed(scenes, sheet) for sheet in packed(scenes, PAGES[ask.page])]
    if whole.tree_fits:
        return [whole.scene]
    split = _Split(ask, head, legend, word)
    split.plan(whole.nodes[0], None)
    if len(split.pieces) <= 1:
        return [whole.scene]
    placeholder = [split.scene(i, {}) for i in range(len(split.pieces))]
    # the node-type notes of the nodes the first piece does not draw (it lists its own), last
    top = set(split.picture(split.pieces[0], {}).nodes)
    rest = notes_scene(ask.view, ask.page, set(whole.nodes) - top) if legend else None
    extra = [rest] if rest else []
    room = PAGES[ask.page]

    def grouped(sheets: list[list[Placed]]) -> list[list[int]]:
        return [[i for i, _, _ in sheet] for sheet in sheets]

    # the real page numbers may make a piece narrower, and so its legend wrap taller: set
    # again until the pages hold the same pieces, else one piece a page (nothing can meet)
    scenes = placeholder + extra
    for _ in range(4):
        sheets = packed(scenes, room)
        on = {i: k for k, sheet in enumerate(sheets, 1) for i, _, _ in sheet}
        scenes = [split.scene(i, on) for i in range(len(split.pieces))] + extra
        again = packed(scenes, room)
        if grouped(again) == grouped(sheets):
            return [composed(scenes, sheet) for sheet in again]
    on = {i: i + 1 for i in range(len(scenes))}
    scenes = [split.scene(i, on) for i in range(len(split.pieces))] + extra
    return [composed(scenes, [(i, 0.0, 0.0)]) for i in range(len(scenes))]


class _Split:
    """The pieces of a picture split over pages, planned top down (preorder: a piece before
    the pieces below it)."""

    def __init__(self, ask: Request, head: tuple[str, ...], legend: bool, word: str):
        self.ask = ask
        self.head = head
        self.legend = legend
        self.word = word
        self.pieces: list[Piece] = []

    def picture(self, piece: Piece, on: dict[int, int]) -> Picture:
        """The piece laid out (in its arrangement, once planned), its notes with the pages
        ``on`` gives each piece, else the placeholder's."""
        label = self.ask.view.labels.label
        note = ""
        if piece.parent is not None:
            note = f"continued from {label(piece.root)} on {self.word} "
            note += str(on.get(piece.parent, PLACEHOLDER))
        more: dict[str, Any] = {"root": piece.root, "note": note, "only": piece.arrangement}
        if piece.parent is None:
            more.update(head=self.head, legend=self.legend)
        if piece.cut is None:
            return self.ask.picture(**more)
        pages = [on.get(j, PLACEHOLDER) for j in piece.below]
        pages += [PLACEHOLDER] * (len(piece.stubs) - len(pages))
        hidden = {r: f"{self.word} {k}" for r, k in zip(piece.stubs, pages, strict=True)}
        return self.ask.top(piece.cut, hidden, **more)

    def scene(self, i: int, on: dict[int, int]) -> Scene:
        return self.picture(self.pieces[i], on).scene

    def laid(self, piece: Piece) -> Picture:
        """The piece laid out as ``layout`` asks, which fixes its arrangement."""
        piece.arrangement = None
        pic = self.picture(piece, {})
        piece.arrangement = (pic.arrangement, pic.cut)
        return pic

    def plan(self, root: int, parent: int | None) -> bool:
        """Plan the pieces of the subtree below ``root``, hanging from piece ``parent``:
        whether every one fits its page (a subtree that no depth splits so stays whole)."""
        whole = Piece(root, None, None, parent)
        if parent is not None and self.laid(whole).fits:
            self.pieces.append(whole)
            return True
        view = self.ask.view
        depth = view.tree.depth
        up = view.tree.parent
        drawn, _ = drawn_nodes(view.tree, self.ask.max_depth, view.expanded, root)
        deepest = max(depth[n] for n in drawn)
        first: Piece | None = None
        for cut in range(depth[root] + 1, deepest):
            stubs = sorted({up[n] for n in drawn if depth[n] == cut + 1})
            top = Piece(root, cut, None, parent, stubs)
            if not self.laid(top).fits:
                break  # a deeper cut has a larger top
            first = first or top
            parts = [Piece(r, None, None, len(self.pieces)) for r in stubs]
            if all(self.laid(p).fits for p in parts):
                # the subtrees alike, if they fit so: as the one that needs the most compact
                only = max((p.arrangement for p in parts if p.arrangement), key=order)
                alike = [Piece(r, None, only, len(self.pieces)) for r in stubs]
                if all(self.picture(p, {}).fits for p in alike):
                    parts = alike
                top.below = list(range(len(self.pieces) + 1, len(self.pieces) + 1 + len(parts)))
                self.pieces += [top, *parts]
                return True
        if first is None:  # no top fits: the subtree whole, too large
            if parent is not None:
                self.pieces.append(whole)
            return False
        i = len(self.pieces)
        self.pieces.append(first)
        fits = True
        for r in first.stubs:
            first.below.append(len(self.pieces))
            fits = self.plan(r, i) and fits
        return fits


def packed(scenes: list[Scene], room: Page) -> list[list[Placed]]:
    """The scenes set on pages in order: side by side while the page's width holds them, then
    on the next shelf down while its height does, then on the next page; neighbours stand
    the layouts' margin (12 pt, times the page's scale) apart, what they draw as far as on
    a page of its own (on a slide, whose frame has margins, a picture has narrower ones)."""
    margin = 2 * room.margin * room.scale - MARGIN * room.scale
    sheets: list[list[Placed]] = []
    x = y = shelf = 0.0  # where the next scene goes on the shelf, the shelf's top and height
    for i, scene in enumerate(scenes):
        if sheets and room.holds(x + scene.width, y + scene.height):
            sheets[-1].append((i, x, y))
        elif sheets and room.holds(scene.width, y + shelf - margin + scene.height):
            x, y, shelf = 0.0, y + shelf - margin, 0.0
            sheets[-1].append((i, x, y))
        else:
            x = y = shelf = 0.0
            sheets.append([(i, x, y)])
        x += scene.width - margin
        shelf = max(shelf, scene.height)
    return sheets


def composed(scenes: list[Scene], sheet: list[Placed]) -> Scene:
    """One page of scenes, as one scene."""
    out = Items()
    for i, x, y in sheet:
        out.extend(scenes[i].items().moved(x, y))
    width = max(x + scenes[i].width for i, x, _ in sheet)
    height = max(y + scenes[i].height for i, _, y in sheet)
    return Scene(width, height, out.texts, out.lines, out.shapes)


__all__ = ["PLACEHOLDER", "Piece", "Placed", "Request", "composed", "packed", "pages"]
