"""The SVG pictures in three renderers, cairo (cairosvg, extra ``svg``), Chromium (Playwright,
extra ``browser``) and librsvg (Debian's rsvg-convert, extra ``rsvg``): every name is painted
dark (no white halo over it), and the renderings agree.

The pictures have no halo at all: no text crosses an edge (tests/test_layout.py), so no text
needs one, and a text's ``stroke`` without ``paint-order`` is what made cairo and WeasyPrint
paint the names white.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gtsearch import load_tree
from gtsearch.render.svg import to_svg
from gtsearch.render.view import build_view

from .pictures import svg_scene
from .test_browser import ARGS, CHROMIUM

REPO = Path(__file__).resolve().parent.parent
SAMPLES = [("aima-fig5-2.yaml", "alphabeta"), ("chance-worked.yaml", "star2"), ("nim-5.efg", "sss")]
SCALE = 2  # device pixels per CSS pixel


def picture(sample: str, algo: str) -> tuple[str, set[str]]:
    """The picture of a search, and the names in it."""
    tree = load_tree(str(REPO / "sample_trees" / sample))
    return to_svg(build_view(tree, algo, node_types=not tree.has_chance), source=sample), set(
        tree.names.values()
    )


def faint(image: Any, svg: str, names: set[str]) -> list[tuple[str, int]]:
    """The texts painted faint: a name lighter than dark grey, any text lighter than the grey
    of pruned nodes (#9a9a9a)."""
    return [
        (text, v) for text, v in darkest_in_names(image, svg) if v > (110 if text in names else 160)
    ]


def cairo_png(svg: str) -> Any:
    import cairosvg
    from PIL import Image

    return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode(), scale=SCALE)))


def rsvg_png(svg: str, tmp: Path) -> Any:
    from PIL import Image

    (tmp / "picture.svg").write_text(svg, encoding="utf-8")
    subprocess.run(
        ["rsvg-convert", "--zoom", str(SCALE), "-o", "picture.png", "picture.svg"],
        cwd=tmp,
        check=True,
        timeout=60,
    )
    return Image.open(tmp / "picture.png")


def chromium_png(svg: str) -> Any:
    from PIL import Image
    from playwright.sync_api import sync_playwright

    scene = svg_scene(svg)
    width, height = round(scene.width * 4 / 3), round(scene.height * 4 / 3)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(
                viewport={"width": width, "height": height}, device_scale_factor=SCALE
            )
            page.set_content(f'<body style="margin:0">{svg}</body>')
            png = page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height})
        finally:
            browser.close()
    return Image.open(io.BytesIO(png))


def darkest_in_names(image: Any, svg: str) -> list[tuple[str, int]]:
    """Each text's darkest pixel (0 black, 255 white) inside its box."""
    gray = image.convert("L")
    k = SCALE * 4 / 3  # image pixels per point
    out = []
    for t in svg_scene(svg).texts:
        x0, y0, x1, y1 = t.box()
        crop = gray.crop((int(x0 * k), int(y0 * k), int(x1 * k) + 1, int(y1 * k) + 1))
        out.append((t.text, int(np.asarray(crop).min())))
    return out


def mismatch(a: Any, b: Any) -> float:
    """The share of pixels that one rendering paints dark and the other light (measured: 1.2 to
    3.0 %, all on the outlines of glyphs and lines: a long line of text, such as the node-type
    notes under the legend, drifts by a pixel or two between the two shapers)."""
    pa = np.asarray(a.convert("L")) < 128
    pb = np.asarray(b.convert("L").resize(a.size)) < 128
    return float((pa != pb).mean())


@pytest.mark.extra("svg")
@pytest.mark.parametrize(("sample", "algo"), SAMPLES)
def test_cairo_paints_every_text(sample: str, algo: str) -> None:
    svg, names = picture(sample, algo)
    assert "paint-order" not in svg and 'stroke="white"' not in svg
    assert faint(cairo_png(svg), svg, names) == []


@pytest.mark.browser
@pytest.mark.extra("svg", "browser")
@pytest.mark.parametrize(("sample", "algo"), SAMPLES)
def test_chromium_paints_the_same(sample: str, algo: str) -> None:
    svg, names = picture(sample, algo)
    chromium, cairo = chromium_png(svg), cairo_png(svg)
    assert faint(chromium, svg, names) == []
    assert mismatch(cairo, chromium) < 0.04  # the edges of glyphs, anti-aliased apart


@pytest.mark.extra("svg", "rsvg")
@pytest.mark.parametrize(("sample", "algo"), SAMPLES)
def test_rsvg_paints_the_same(sample: str, algo: str, tmp_path: Path) -> None:
    svg, names = picture(sample, algo)
    rsvg, cairo = rsvg_png(svg, tmp_path), cairo_png(svg)
    assert rsvg.size == cairo.size
    assert faint(rsvg, svg, names) == []
    assert mismatch(cairo, rsvg) < 0.03
