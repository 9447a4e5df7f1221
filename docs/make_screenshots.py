"""Remake the pictures of docs/pictures.md and the README: terminal drawings, tree pictures, the replay.

Terminal drawings go rich → SVG → PNG; the PNG files stay in docs/ beside the pages.

Needs the Debian package chromium and the Python package playwright (the
``browser`` extra); no browser is downloaded.  Run from the repository:

    python docs/make_screenshots.py
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from gtsearch import load_tree
from gtsearch.render.replay import to_html
from gtsearch.render.svg import to_svg
from gtsearch.render.terminal import Options, print_view
from gtsearch.render.view import build_view

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def terminal_svg(sample: str, algo: str, width: int = 100) -> str:
    """What `gtsearch show` prints on a colour terminal, recorded by rich as SVG."""
    from rich.console import Console
    from rich.text import Text

    console = Console(
        record=True,
        width=width,
        force_terminal=True,
        color_system="truecolor",
        file=io.StringIO(),
        highlight=False,
        emoji=False,
    )
    command = f"$ gtsearch show {sample}" + ("" if algo == "alphabeta" else f" --algo {algo}")
    console.print(Text(command, style="bold green"))
    view = build_view(load_tree(str(REPO / sample)), algo)
    print_view(view, console, Options(), source=sample)
    svg = console.export_svg(title="gtsearch show")
    # give the picture its own size, so that the browser draws it 1:1
    box = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    assert box is not None
    return svg.replace("<svg ", f'<svg width="{box.group(1)}" height="{box.group(2)}" ', 1)


def main() -> int:
    from playwright.sync_api import sync_playwright

    tmp = DOCS / "_tmp"
    tmp.mkdir(exist_ok=True)
    shots: list[tuple[Path, Path, str | None, int]] = []  # (page, png, selector, steps)

    for sample, algo, name in (
        ("sample_trees/aima-fig5-2.yaml", "alphabeta", "show-aima-alphabeta"),
        ("sample_trees/wikipedia-alphabeta.json", "sss", "show-wikipedia-sss"),
    ):
        page = tmp / f"{name}.svg"
        page.write_text(terminal_svg(sample, algo), encoding="utf-8")
        shots.append((page, DOCS / f"{name}.png", "svg", 0))

    wiki = load_tree(str(REPO / "sample_trees/wikipedia-alphabeta.json"))
    svg = to_svg(build_view(wiki, "alphabeta"), source="sample_trees/wikipedia-alphabeta.json")
    (DOCS / "tree-wikipedia-alphabeta.svg").write_text(svg, encoding="utf-8")
    shots.append(
        (DOCS / "tree-wikipedia-alphabeta.svg", DOCS / "tree-wikipedia-alphabeta.png", "svg", 0)
    )

    aima = load_tree(str(REPO / "sample_trees/aima-fig5-2.yaml"))
    html = to_html(
        build_view(aima, "sss", keep_events=True), source="sample_trees/aima-fig5-2.yaml"
    )
    (DOCS / "replay-aima-sss.html").write_text(html, encoding="utf-8")
    shots.append((DOCS / "replay-aima-sss.html", DOCS / "replay-aima-sss.png", None, 11))
    html = to_html(
        build_view(wiki, "alphabeta", keep_events=True),
        source="sample_trees/wikipedia-alphabeta.json",
    )
    page = tmp / "replay-wikipedia-alphabeta.html"
    page.write_text(html, encoding="utf-8")
    shots.append((page, DOCS / "replay-wikipedia-alphabeta.png", None, 27))

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for source, png, selector, steps in shots:
            page_ = browser.new_page(viewport={"width": 1280, "height": 760})
            # rich's SVG names a web font; nothing may leave the machine
            page_.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
            page_.goto(source.as_uri())
            for _ in range(steps):
                page_.click("#next")
            if selector is not None:
                page_.locator(selector).first.screenshot(path=str(png))
            else:
                page_.screenshot(path=str(png))
            page_.close()
            print(f"wrote {png.relative_to(REPO)}")
        browser.close()
    for f in tmp.iterdir():
        f.unlink()
    tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
