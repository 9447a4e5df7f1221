"""A picture too large for its page, split over pages (the TikZ document): the top of the tree on
the first page, the subtrees below it after it, each under a note that says where it hangs.

When the tree fits its page in none of the arrangements of
gtsearch.render.layout, it is cut at the shallowest depth where both its top
(down to that depth, each node there with its children hidden: "… 84 nodes
on page 2") and every subtree below it (laid out as ``layout`` asks, under
the note "continued from B on page 1") fit the page.  The pieces are set on
pages in order, the top first: side by side while the page's width holds
them, then on the next shelf down while its height does, then on the next
page.  A tree that no depth splits so stays one picture.  The SVG picture is
never split: a screen scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .geometry import PAGES, Items, Page, Scene
from .layout import MARGIN, Picture, layout
from .view import SearchView

#: a piece of a page: which scene, and where its top left corner goes
Placed = tuple[int, float, float]


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


def pages(
    ask: Request, *, head: tuple[str, ...] = (), legend: bool = False, word: str = "page"
) -> list[Scene]:
    """The picture asked for on one page or, when it does not fit, on several, each a scene
    the size of what it holds, the first with the ``head`` and the ``legend``; ``word`` names
    them in the notes ("page", or "part" for pictures that go into another document)."""
    view = ask.view
    whole = ask.picture(head=head, legend=legend)
    if whole.tree_fits:
        return [whole.scene]
    depth = view.tree.depth
    parent = view.tree.parent
    label = view.labels.label
    for cut in range(depth[whole.nodes[0]] + 1, max(depth[n] for n in whole.nodes)):
        stubs = sorted({parent[n] for n in whole.nodes if depth[n] == cut + 1})
        notes = {r: f"continued from {label(r)} on {word} 1" for r in stubs}
        parts = [ask.picture(root=r, note=notes[r]) for r in stubs]
        if not all(p.fits for p in parts):
            continue
        # the subtrees alike, if they fit so: as the one that needs the most compact layout
        only = max(((p.arrangement, p.cut) for p in parts), key=order)
        alike = [ask.picture(root=r, note=notes[r], only=only) for r in stubs]
        parts = alike if all(p.fits for p in alike) else parts
        first = ask.top(cut, {r: f"{word} 99" for r in stubs}, head=head, legend=legend)
        if not first.fits:
            break  # a deeper cut has a larger top
        return _set(ask, cut, stubs, [p.scene for p in parts], first, head, legend, word)
    return [whole.scene]


def _set(
    ask: Request,
    cut: int,
    stubs: list[int],
    parts: list[Scene],
    first: Picture,
    head: tuple[str, ...],
    legend: bool,
    word: str,
) -> list[Scene]:
    """The top (``first``, laid out with page 99 in its notes) and the parts set on pages, the
    top again with the page of each part in its notes: in the same arrangement, so no larger.
    A narrower top may leave room for more beside it: set again until the order settles, else
    as first set."""
    room = PAGES[ask.page]
    kept = (first.arrangement, first.cut)

    def grouped(sheets: list[list[Placed]]) -> list[list[int]]:
        return [[i for i, _, _ in sheet] for sheet in sheets]

    def top(sheets: list[list[Placed]]) -> Scene:
        on = {stubs[i - 1]: f"{word} {k}" for k, group in enumerate(grouped(sheets), 1)
              for i in group if i}  # fmt: skip
        return ask.top(cut, on, head=head, legend=legend, only=kept).scene

    start = packed([first.scene, *parts], room)
    sheets = start
    for _ in range(3):
        scenes = [top(sheets), *parts]
        again = packed(scenes, room)
        if grouped(again) == grouped(sheets):
            return [composed(scenes, sheet) for sheet in again]
        sheets = again
    scenes = [top(start), *parts]
    return [composed(scenes, sheet) for sheet in start]


def packed(scenes: list[Scene], room: Page) -> list[list[Placed]]:
    """The scenes set on pages in order: side by side while the page's width holds them, then
    on the next shelf down while its height does, then on the next page; neighbours share
    the margin between them."""
    margin = MARGIN * room.scale
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


__all__ = ["Placed", "Request", "composed", "packed", "pages"]
