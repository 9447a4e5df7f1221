"""The printed worksheet (``gtsearch exercise --format html``) as Chromium prints it to PDF.

Each exercise must take one A4 landscape page of its own, its tree at least half the page
wide, its names and values printed at 9 pt or more, with room beside every inner node to write
α and β (docs/classroom.md, "A worksheet and its answer key").  The PDF is read back with
MuPDF's ``mutool`` (Debian's mupdf-tools): its text with the size and colour of every
character (``-F stext``), and its strokes (``-F trace``), which on a worksheet are the tree's
only: edges, triangles, circles and boxes (the answer lines are dotted, drawn as fills).
"""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gtsearch.algorithms import find_algorithm
from gtsearch.classroom.exercises import Spec, make_exercises
from gtsearch.classroom.model import Exercise
from gtsearch.classroom.worksheet import (
    BLANKS,
    SHEET_LAYOUTS,
    VALUE_BLANK,
    blanks,
    worksheet_html,
)
from gtsearch.render.geometry import collisions
from gtsearch.render.labels import format_extended
from gtsearch.render.layout import layout
from gtsearch.render.svg import COLOR_LEAF_NAME, NODE_COLORS
from gtsearch.render.view import bare_view, build_view

from .test_browser import ARGS, CHROMIUM

MM = 72 / 25.4
#: A4 landscape, in points
PAGE_WIDTH = 297 * MM


def long_color(color: str) -> str:
    """#rgb as #rrggbb."""
    return "#" + "".join(ch * 2 for ch in color[1:]) if len(color) == 4 else color


#: the colours of the tree's names (the PDF rounds them: #b03030 comes back as #b02f2f)
NAME_COLORS = {long_color(c) for c in (COLOR_LEAF_NAME, *NODE_COLORS.values())}


@pytest.fixture(scope="module")
def printer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Print a worksheet as Chromium does (A4 landscape: the page's own CSS), return the PDF."""
    from playwright.sync_api import sync_playwright

    folder = tmp_path_factory.mktemp("worksheets")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page()

        def print_pdf(html: str, name: str) -> Path:
            source, pdf = folder / f"{name}.html", folder / f"{name}.pdf"
            source.write_text(html, encoding="utf-8")
            page.goto(source.as_uri())
            page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
            return pdf

        try:
            yield print_pdf
        finally:
            browser.close()


def mutool(pdf: Path, kind: str) -> ET.Element:
    out = subprocess.run(
        ["mutool", "draw", "-F", kind, "-o", "-", str(pdf)],
        capture_output=True,
        check=True,
    ).stdout
    return ET.fromstring(out)


def near(color: str, colors: set[str]) -> bool:
    """Whether ``color`` (#rrggbb) is one of ``colors`` within one unit a channel (the PDF's
    colours are rounded)."""
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return any(
        all(abs(a - int(c[i : i + 2], 16)) <= 1 for a, i in zip(rgb, (1, 3, 5), strict=True))
        for c in colors
    )


def words(page: ET.Element) -> list[tuple[str, float, str, float, float]]:
    """Every run of characters of one font, size and colour on a line of a page: its text,
    size, colour and left and right x."""
    out = []
    for line in page.iter("line"):
        for font in line.iter("font"):
            run: list[ET.Element] = []
            for ch in [*font.iter("char"), None]:
                same = ch is not None and (not run or ch.get("color") == run[0].get("color"))
                if same and ch is not None and ch.get("c", " ").strip():
                    run.append(ch)
                    continue
                if run:
                    quads = [[float(v) for v in c.get("quad", "").split()] for c in run]
                    out.append(
                        (
                            "".join(c.get("c", "") for c in run),
                            float(font.get("size", "0")),
                            run[0].get("color", ""),
                            min(q[0] for q in quads),
                            max(q[2] for q in quads),
                        )
                    )
                run = [ch] if ch is not None and ch.get("c", " ").strip() else []
    return out


def tree_width(page: ET.Element, texts: list[tuple[float, float]]) -> float:
    """How wide the page's strokes and the tree's texts (from, to) reach, in points."""
    xs = [x for span in texts for x in span]
    for path in page.iter("stroke_path"):
        a, b, c, d, e, f = (float(v) for v in path.get("transform", "1 0 0 1 0 0").split())
        for point in path:
            if point.get("x") is not None:
                x, y = float(point.get("x", "0")), float(point.get("y", "0"))
                xs.append(a * x + c * y + e)
    return max(xs) - min(xs) if xs else 0.0


def sheet(algo: str, b: int, d: int, count: int = 2, seed: int = 7) -> list[Exercise]:
    leaves = b**d
    values = None if leaves <= 41 else (0, 99)
    params: dict[str, Any] = {}
    if algo == "mcts":
        params = {"iterations": 2 * b, "seed": seed}
    spec = Spec(find_algorithm(algo), params, b, d, values)  # type: ignore[arg-type]
    return make_exercises(spec, seed, count)


#: the shapes the issue names (b=4 d=3 and b=3 d=4 among them) and the widest, with the
#: algorithms of the longest instructions (star2), the most questions (sss) and none (minimax)
CASES = [
    ("alphabeta", 3, 3),
    ("alphabeta", 4, 3),
    ("alphabeta", 3, 4),
    ("alphabeta", 2, 2),
    ("sss", 3, 4),
    ("star2", 3, 4),
    ("star2", 4, 3),
    ("star2", 2, 5),
    ("minimax", 5, 2),
    ("mcts", 3, 2),
]


@pytest.mark.browser
@pytest.mark.extra("browser", "pdf")
@pytest.mark.parametrize(("algo", "b", "d"), CASES)
def test_one_exercise_a_page_its_tree_large_and_readable(
    printer: Any, algo: str, b: int, d: int
) -> None:
    exercises = sheet(algo, b, d)
    pdf = printer(worksheet_html(exercises), f"{algo}-{b}{d}")
    text, trace = mutool(pdf, "stext"), mutool(pdf, "trace")
    pages = list(text.iter("page"))
    assert len(pages) == len(exercises)  # no exercise split, no page with the title alone
    for ex, page, strokes in zip(exercises, pages, trace.iter("page"), strict=True):
        assert float(page.get("width", "0")) > float(page.get("height", "0"))  # landscape
        found = words(page)
        # the exercise's heading and its last question are on its page
        assert f"Exercise{ex.number}" in "".join(w for w, *_ in found)
        # every name of the tree printed at 9 pt or more, in its colour
        every = set(ex.tree.names.values())
        names = {w: size for w, size, color, *_ in found if w in every and near(color, NAME_COLORS)}
        assert every <= set(names)
        assert min(names.values()) >= 9.0, min(names.items(), key=lambda kv: kv[1])
        # leaf values too (black, in their boxes)
        values = {
            format_extended(ex.tree.number(n)) for n in range(ex.tree.n_nodes) if ex.tree.is_leaf(n)
        }
        sizes = [size for w, size, color, *_ in found if w in values and color == "#000000"]
        assert sizes and min(sizes) >= 9.0
        # the tree (its strokes, names, values and blanks) at least half the page wide
        drawn = [
            (left, right)
            for w, _, color, left, right in found
            if color == "#000000" or w in every and near(color, NAME_COLORS)
        ]
        assert tree_width(strokes, drawn) >= PAGE_WIDTH / 2
        # room to write at every inner node: its blanks, each 4 mm or more
        runs = len(re.findall("_+", blanks(ex.algorithm)))
        inner = sum(1 for n in range(ex.tree.n_nodes) if not ex.tree.is_leaf(n))
        gaps = [r - left for w, _, color, left, r in found if "_" in w and color == "#000000"]
        assert len(gaps) == inner * runs
        assert min(gaps, default=4 * MM) >= 4 * MM


def test_the_blanks_are_the_algorithm_s() -> None:
    assert blanks("alphabeta") == blanks("star2") == BLANKS
    assert blanks("minimax") == blanks("sss") == blanks("expectiminimax") == VALUE_BLANK
    assert blanks("mcts") == ""


@pytest.mark.parametrize("layout_name", SHEET_LAYOUTS)
@pytest.mark.parametrize(("algo", "b", "d"), [("alphabeta", 3, 3), ("star2", 2, 4), ("sss", 4, 2)])
def test_the_blanks_have_room_in_every_arrangement(
    layout_name: str, algo: str, b: int, d: int
) -> None:
    """A bare picture keeps room for its blanks as for a range: nothing meets them, every inner
    node has one, and a leaf none."""
    (ex,) = sheet(algo, b, d, count=1)
    blank = blanks(ex.algorithm)
    pic = layout(bare_view(ex.tree), layout=layout_name, state=False, blanks=blank)
    assert collisions(pic.scene) == []
    written = [t.node for t in pic.scene.texts if t.text == blank]
    assert sorted(written) == [n for n in range(ex.tree.n_nodes) if not ex.tree.is_leaf(n)]
    # the solved picture is as before: the blanks are for the bare one only
    solved = layout(build_view(ex.tree, algo), layout=layout_name, blanks=blank)
    assert blank not in [t.text for t in solved.scene.texts]
