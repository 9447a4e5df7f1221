"""Remake the pictures of docs/pictures.md, docs/classroom.md and the README.

Terminal drawings go rich → SVG → PNG; the worksheet and its answer key are
screenshots of the pages ``gtsearch exercise --format html`` writes; the TikZ
figure (``show --tikz``) and the slide (``show --page slide --tikz-body`` in
a beamer frame) are compiled by pdflatex and turned into PNG by pdftoppm.
The PNG files stay in docs/ beside the pages.

Needs the Debian packages chromium, texlive-latex-base,
texlive-latex-recommended, texlive-pictures and poppler-utils, and the Python
package playwright (the ``browser`` extra); no browser is downloaded.  Run
from the repository, naming the pictures to remake (all of them without names):

    python docs/make_screenshots.py
    python docs/make_screenshots.py worksheet answer-key tikz-aima-alphabeta
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

from gtsearch import load_tree
from gtsearch.algorithms import find_algorithm
from gtsearch.classroom.exercises import Spec, make_exercises
from gtsearch.classroom.worksheet import answers_html, worksheet_html
from gtsearch.render.replay import to_html
from gtsearch.render.svg import to_svg
from gtsearch.render.terminal import Options, print_view
from gtsearch.render.tikz import to_tikz
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


def chance_shots(tmp: Path) -> list[tuple[Path, Path, str | None, int]]:
    """The worked example with chance nodes: Star2's picture, and Star1's replay at C2's cutoff."""
    sample = "sample_trees/chance-worked.yaml"
    tree = load_tree(str(REPO / sample))
    svg = to_svg(build_view(tree, "star2"), source=sample)
    (DOCS / "tree-chance-star2.svg").write_text(svg, encoding="utf-8")
    page = tmp / "replay-chance-star1.html"
    page.write_text(to_html(build_view(tree, "star1", keep_events=True), source=sample), "utf-8")
    return [
        (DOCS / "tree-chance-star2.svg", DOCS / "tree-chance-star2.png", "svg", 0),
        (page, DOCS / "replay-chance-star1.png", None, 24),
    ]


def tikz_png(tmp: Path, name: str) -> None:
    """``gtsearch show sample_trees/aima-fig5-2.yaml --node-types --tikz`` → pdflatex → PNG."""
    view = build_view(load_tree(str(REPO / "sample_trees/aima-fig5-2.yaml")), node_types=True)
    (tmp / f"{name}.tex").write_text(
        to_tikz(view, source="sample_trees/aima-fig5-2.yaml"), encoding="utf-8"
    )
    latex_png(tmp, name)


def slide_png(tmp: Path, name: str) -> None:
    """The exercise of the worksheet solved on a beamer slide: ``gtsearch show ex.json
    --page slide --tikz-body tree.tex``, input into a 16:9 frame as docs/classroom.md says
    → pdflatex → PNG."""
    exercise = make_exercises(Spec(find_algorithm("alphabeta"), {}), seed=1, count=1)[0]
    body = to_tikz(build_view(exercise.tree), body=True, page="slide")
    (tmp / "tree.tex").write_text(body, encoding="utf-8")
    (tmp / f"{name}.tex").write_text(
        "\\documentclass[aspectratio=169]{beamer}\n\\usepackage{tikz}\n"
        "\\setbeamertemplate{navigation symbols}{}\n"
        "\\setbeamertemplate{frametitle continuation}[from second]\n\\begin{document}\n"
        "\\begin{frame}[allowframebreaks]{Exercise 1: alpha-beta, solved}\n"
        "\\centering\\input{tree.tex}\n"
        "\\end{frame}\n\\end{document}\n",
        encoding="utf-8",
    )
    latex_png(tmp, name)


def latex_png(tmp: Path, name: str) -> None:
    """``tmp/NAME.tex`` → pdflatex → docs/NAME.png (its first page)."""
    subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
        cwd=tmp,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    subprocess.run(
        ["pdftoppm", "-png", "-r", "144", "-singlefile", f"{name}.pdf", str(DOCS / name)],
        cwd=tmp,
        check=True,
    )
    print(f"wrote docs/{name}.png")


def main() -> int:
    from playwright.sync_api import sync_playwright

    wanted = set(sys.argv[1:])
    tmp = DOCS / "_tmp"
    tmp.mkdir(exist_ok=True)
    shots: list[tuple[Path, Path, str | None, int]] = []  # (page, png, selector, steps)

    # docs/classroom.md: `gtsearch exercise --seed 1 --format html -o sheet.html`
    exercises = make_exercises(Spec(find_algorithm("alphabeta"), {}), seed=1, count=1)
    for html, name in (
        (worksheet_html(exercises), "worksheet"),
        (answers_html(exercises), "answer-key"),
    ):
        page = tmp / f"{name}.html"
        page.write_text(html, encoding="utf-8")
        shots.append((page, DOCS / f"{name}.png", "body", 0))
    for name, make in (("tikz-aima-alphabeta", tikz_png), ("slide-exercise", slide_png)):
        if wanted and name not in wanted:
            continue
        if shutil.which("pdflatex") and shutil.which("pdftoppm"):
            make(tmp, name)
        else:
            print(f"pdflatex or pdftoppm is missing: {name}.png is not remade", file=sys.stderr)

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
    shots += chance_shots(tmp)

    if wanted:
        shots = [shot for shot in shots if shot[1].stem in wanted]
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
