"""The pages a picture is made for (``--page``) and the layouts (``--layout``), in points.

Apart from gtsearch.render.geometry, which re-exports them, so that the command line
names the pages and layouts without importing the geometry (a small ``eval`` imports
what it uses: tests/test_startup.py).
"""

from __future__ import annotations

from typing import NamedTuple

MM = 72 / 25.4


class Page(NamedTuple):
    """The room a picture is made for: a page less its margins, or a slide, in points.

    (A named tuple, not a dataclass: the command line imports this module, and
    ``dataclasses`` would cost a small ``eval`` half a millisecond.)
    """

    name: str
    width: float
    height: float
    #: every size of the picture (texts, shapes, gaps) times this
    scale: float
    what: str
    #: whether a picture carries its title (a slide has its own)
    title: bool = True
    #: around the picture, in points at scale 1 (a slide's frame has margins of its own)
    margin: float = 12.0

    def holds(self, width: float, height: float) -> bool:
        """Whether a picture of this size fits the page."""
        return width <= self.width + 0.01 and height <= self.height + 0.01


#: the pages of ``--page``, the default first
PAGES = {
    p.name: p
    for p in (
        Page("a4", 267 * MM, 180 * MM, 1.0, "A4 landscape less 15 mm margins (267 x 180 mm)"),
        Page("a4-portrait", 180 * MM, 267 * MM, 1.0, "A4 portrait less 15 mm margins"),
        Page(
            "slide",
            140 * MM,
            76 * MM,
            1.25,
            "a 16:9 beamer slide (160 x 90 mm) in its margins, under its title (140 x 76 mm), "
            "no text under 10 pt",
            title=False,
            margin=4.0,
        ),
        Page("quiz", 600.0, 900.0, 1.125, "800 px wide, where a Moodle quiz shows a picture"),
    )
}
#: how a tree is laid out (``--layout``): chosen by its size and the page, or as asked
LAYOUTS = ("auto", "tree", "compact", "sideways", "outline")


__all__ = ["LAYOUTS", "MM", "PAGES", "Page"]
