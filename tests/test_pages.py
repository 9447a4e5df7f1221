"""Pictures for a slide and over pages: exercise trees on a 16:9 slide (on their side when the
tree would not fit), and trees too large for a page split over pages, each part under a note
that says where it hangs.

Measured on what the writers draw (tests/pictures.py), and compiled by pdflatex into real
beamer slides and pages (extra ``latex``), whose logs must not say that anything overflows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gtsearch import loads_tree
from gtsearch.algorithms import find_algorithm
from gtsearch.classroom.exercises import Spec, make_exercises
from gtsearch.formats import dump_tree
from gtsearch.render.geometry import PAGES, Page, collisions, crowded
from gtsearch.render.layout import layout
from gtsearch.render.svg import to_svg
from gtsearch.render.svg import tree_picture as svg_tree
from gtsearch.render.tikz import to_tikz
from gtsearch.render.tikz import tree_picture as tikz_tree
from gtsearch.render.view import SearchView, bare_view, build_view
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

from .pictures import svg_scene, tikz_scenes
from .test_tikz import compile_tex, pdf_pages

SLIDE = PAGES["slide"]
#: the exercise-sized trees whose bare picture fits one slide: 27, 16 and 16 leaves
ON_A_SLIDE = [(3, 3), (2, 4), (4, 2)]
#: every exercise of issue 38's slides: b=2..4, d=2..4
EVERY_EXERCISE = [(b, d) for b in (2, 3, 4) for d in (2, 3, 4)]


def exercise_tree(b: int, d: int, names: str, seed: int = 0, algo: str = "alphabeta") -> Tree:
    """The first tree of ``gtsearch exercise -a ALGO -b B -d D --seed SEED`` (values 0..999
    for b=4 d=4), its names as exercise gives them (``"exercise"``) or of three characters
    each (``"long"``: N10, x11, ...)."""
    values = (0, 999) if b**d > 100 else None
    tree = make_exercises(Spec(find_algorithm(algo), {}, b, d, values), seed, 1)[0].tree
    if names == "long":
        tree = loads_tree(dump_tree(tree, "json"), "json")
        tree.names = {
            n: ("x" if tree.is_leaf(n) else "N") + f"{n:02d}" for n in range(tree.n_nodes)
        }
    longest = max(len(name) for name in tree.names.values())
    assert longest == 3 if names == "long" else longest <= 3
    return tree


def check_tikz(tex: str, page: Page) -> list[tuple[float, float]]:
    """Each tikzpicture's size; every one fits the page, with no text under 8 pt, no scaling,
    and no text that meets an edge, a shape or another text."""
    assert "scale" not in tex and "\\tiny" not in tex and "\\scriptsize" not in tex
    sizes = [float(s) for s in re.findall(r"\\fontsize\{([\d.]+)\}", tex)]
    assert min(sizes) >= 8 * page.scale  # on a slide, 10 pt
    out = []
    for scene in tikz_scenes(tex):
        assert page.holds(scene.width, scene.height), (scene.width, scene.height)
        assert collisions(scene) == []
        assert crowded(scene) == []
        out.append((scene.width, scene.height))
    return out


def check_svg(svg: str, page: Page) -> None:
    """The SVG picture fits the page, with no text under 8 pt and nothing crossing a text."""
    scene = svg_scene(svg)
    assert page.holds(scene.width, scene.height), (scene.width, scene.height)
    assert min(t.size for t in scene.texts) >= 8 * page.scale
    assert collisions(scene) == []


# -- a slide -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("b", "d"), EVERY_EXERCISE)
@pytest.mark.parametrize("algo", ["alphabeta", "star2"])
def test_every_exercise_fits_slides(b: int, d: int, algo: str) -> None:
    """Issue 38: any exercise up to b=4 d=4, solved (the bare tikzpicture) and unsolved, goes
    on 16:9 slides: every part fits the slide with no text under 10 pt, nothing crossing a
    text and no two labels running together; a part too large is split again (b=4 d=4)."""
    tree = exercise_tree(b, d, "exercise", algo=algo)
    view = build_view(tree, algo)
    solved = check_tikz(to_tikz(view, body=True, page="slide"), SLIDE)
    bare = check_tikz(tikz_tree(tree, page="slide"), SLIDE)
    assert len(solved) >= len(bare) >= 1
    if (b, d) == (4, 4):
        assert len(bare) < len(solved) <= 60


@pytest.mark.parametrize(("b", "d"), ON_A_SLIDE)
@pytest.mark.parametrize("names", ["exercise", "long"])
@pytest.mark.parametrize("algo", ["alphabeta", "sss"])
def test_an_exercise_fits_a_slide(b: int, d: int, names: str, algo: str) -> None:
    """Unsolved (SVG and TikZ), b=3 d=3, b=2 d=4 and b=4 d=2 are one picture each, on the
    slide, at 10 pt; solved too, with the exercise's names (and b=4 d=2's SVG with the line
    under its title and its legend); with names of three characters, b=3 d=3 and b=2 d=4
    take four and three parts."""
    tree = exercise_tree(b, d, names)
    view = build_view(tree, algo)
    assert len(check_tikz(tikz_tree(tree, page="slide"), SLIDE)) == 1
    check_svg(svg_tree(tree, page="slide"), SLIDE)
    parts = check_tikz(to_tikz(view, body=True, page="slide"), SLIDE)
    assert len(parts) == (1 if names == "exercise" else {(3, 3): 4, (2, 4): 3, (4, 2): 1}[b, d])
    if (b, d, names) == (4, 2, "exercise"):  # with its summary and legend (the SVG is never split)
        svg = to_svg(view, page="slide", source="exercise 1")
        check_svg(svg, SLIDE)
        assert 'class="summary"' in svg and 'class="title"' not in svg  # the slide has the title


def test_an_exercise_goes_on_its_side_on_a_slide() -> None:
    """Unsolved, b=3 d=3 and b=2 d=4 go on their side, nine and eight rows, b=4 d=2 in
    columns; on A4 the same trees stay trees."""
    for (b, d), how in zip(ON_A_SLIDE, ["sideways", "sideways", "columns"], strict=True):
        pic = layout(bare_view(exercise_tree(b, d, "exercise")), page="slide")
        assert (pic.arrangement, pic.fits) == (how, True)
    for b, d in ON_A_SLIDE:
        assert layout(build_view(exercise_tree(b, d, "long")), page="a4").arrangement == "tree"


def test_sibling_leaves_hang_from_a_fork_on_their_side() -> None:
    """Issue 38: the sideways picture drew the leaves of a row as a chain, each edge from the
    leaf before. Now every leaf's edge ends on its own box from above (a tick down from the
    fork over the row), and the PV's leaf's edge starts at its parent."""
    tree = exercise_tree(3, 3, "exercise")
    view = build_view(tree)
    pic = layout(view, page="slide", layout="sideways")
    boxes = {s.node: s.box() for s in pic.scene.shapes if s.kind == "leaf"}
    edges = {line.node: line.pieces[0] for line in pic.scene.lines if line.role == "edge"}
    for leaf, (x0, y0, x1, _) in boxes.items():
        (ax, ay), (bx, by) = edges[leaf][-2:]
        assert ax == bx == pytest.approx((x0 + x1) / 2) and by == pytest.approx(y0) and ay < by
        assert all(y <= y0 + 0.01 for _, y in edges[leaf][-3:])  # from the fork: above the boxes
    pv_leaf = view.pv[-1]
    parent = tree.parent[pv_leaf]
    mark = next(s for s in pic.scene.shapes if s.node == parent).box()
    assert edges[pv_leaf][0][0] > mark[2] and edges[pv_leaf][0][1] == pytest.approx(
        (mark[1] + mark[3]) / 2, abs=1.5
    )


def test_a_64_leaf_exercise_goes_on_five_slides() -> None:
    """b=4 d=3 fits no slide: the bare tikzpicture is five parts, one to a slide, the top of
    the tree first, each subtree under a note that says where it hangs; the SVG stays one."""
    tree = exercise_tree(4, 3, "exercise")
    view = build_view(tree)
    tex = to_tikz(view, body=True, page="slide")
    assert len(check_tikz(tex, SLIDE)) == 5
    assert "% the picture in 5 parts" in tex and "% part 5 of 5" in tex
    assert_notes_agree(tex, view, "part")
    assert not layout(view, page="slide").fits


def assert_notes_agree(tex: str, view: SearchView, word: str) -> None:
    """Every node of the first part that hides its subtree says on which part it goes on, and
    that part opens with "continued from" that node on part 1."""
    parts = re.split(r"\\begin\{tikzpicture\}", tex)[1:]
    stubs = re.findall(rf"\\dots\{{\}} [\d,]+ nodes on {word} (\d+)", parts[0])
    tree = view.tree
    names = [view.labels.label(k) for k in range(tree.n_nodes) if tree.depth[k] == 1]
    assert len(stubs) == len(names) >= 2
    for name, where in zip(names, stubs, strict=True):
        assert f"continued from {name} on {word} 1" in parts[int(where) - 1]


# -- over pages --------------------------------------------------------------------------------
def test_256_leaves_go_on_two_a4_pages() -> None:
    """b=4 d=4 (``gen -b 4 -d 4``): on A4 landscape, the top and one subtree side by side,
    then the three others; on A4 portrait, the top and two subtrees, then two.  With names of
    four characters, three pages."""
    view = build_view(uniform_tree(4, 4, seed=1))
    tex = to_tikz(view, source="b=4 d=4")
    assert len(check_tikz(tex, PAGES["a4"])) == 2
    assert "% compile with pdflatex: 2 pages, each the size of the largest part" in tex
    assert_notes_agree(tex, view, "page")
    assert len(check_tikz(to_tikz(view, page="a4-portrait"), PAGES["a4-portrait"])) == 2
    named = uniform_tree(4, 4, seed=1)
    named.names = {n: f"n{n}" for n in range(named.n_nodes)}
    tex = to_tikz(build_view(named))
    assert len(check_tikz(tex, PAGES["a4"])) == 3
    assert_notes_agree(tex, build_view(named), "page")
    # the SVG is one picture, on its side: as wide as a page, taller than one
    pic = layout(view)
    assert (pic.arrangement, pic.fits) == ("sideways", False)
    assert pic.scene.width <= PAGES["a4"].width


def test_a_tree_that_fits_is_not_split() -> None:
    for b, d in [(3, 3), (4, 3), (2, 6), (3, 4)]:
        tex = to_tikz(build_view(uniform_tree(b, d, seed=1)))
        assert tex.count("\\begin{tikzpicture}") == 1 and "\\newpage" not in tex


def beamer(frames: list[tuple[str, str]], where: Path) -> tuple[int, str]:
    """The pictures set as docs/classroom.md tells the teacher: each body written to a file and
    ``\\input`` in a 16:9 beamer frame with a title and ``[allowframebreaks]``; the slides'
    count and pdflatex's log."""
    body = []
    for i, (title, tex) in enumerate(frames):
        (where / f"t{i}.tex").write_text(tex, encoding="utf-8")
        body.append(f"\\begin{{frame}}[allowframebreaks]{{{title}}}\\centering\\input{{t{i}.tex}}")
    slides = (
        "\\documentclass[aspectratio=169]{beamer}\n\\usepackage{tikz}\n"
        "\\setbeamertemplate{frametitle continuation}[from second]\n\\begin{document}\n"
        + "".join(f"{frame}\n\\end{{frame}}\n" for frame in body)
        + "\\end{document}\n"
    )
    pdf = compile_tex(slides, where, "slides")
    return pdf_pages(pdf), (where / "slides.log").read_text(encoding="utf-8", errors="replace")


@pytest.mark.extra("latex")
def test_pdflatex_sets_the_slides_and_pages(tmp_path: Path) -> None:
    """Beamer's 16:9 frames, a title each, hold the slide pictures without an overfull box (the
    parts of b=4 d=3 one to a slide with allowframebreaks); the b=4 d=4 document is two pages."""
    frames = []
    for i, (b, d) in enumerate(ON_A_SLIDE):
        tree = exercise_tree(b, d, "long")
        frames.append((f"Exercise {i}", tikz_tree(tree, page="slide")))
        frames.append((f"Exercise {i}", to_tikz(build_view(tree), body=True, page="slide")))
    tex = to_tikz(build_view(exercise_tree(4, 3, "exercise")), body=True, page="slide")
    frames.append(("b=4 d=3", tex))
    # as wide as the slide within 3 pt: the space of a line's end after it made a second,
    # empty slide (the picture ends with a %)
    tex = to_tikz(build_view(exercise_tree(3, 3, "exercise", 1)), body=True, page="slide")
    assert SLIDE.width - 3 < check_tikz(tex, SLIDE)[0][0]
    frames.append(("b=3 d=3", tex))
    count, log = beamer(frames, tmp_path)
    assert count == 3 + (4 + 3 + 1) + 5 + 1  # (with names of three characters)
    assert "Overfull" not in log
    tree = uniform_tree(4, 4, seed=1)
    pdf = compile_tex(to_tikz(build_view(tree), source="b=4 d=4"), tmp_path, "pages")
    assert pdf_pages(pdf) == 2


@pytest.mark.slow
@pytest.mark.extra("latex")
def test_pdflatex_sets_every_exercise_on_slides(tmp_path: Path) -> None:
    """Issue 38 (b=3 d=4 was one picture 729 pt tall, 466 pt too high for the frame; b=4 d=4
    4,947 pt): every exercise of b=2..4, d=2..4, alpha-beta and Star2, solved and unsolved,
    goes on 16:9 beamer slides as the docs say, with no overfull box, each part a slide of its
    own at least (allowframebreaks puts two small ones on one).  One seed: two took pdflatex
    54 s alone, past its 120 s on a loaded machine (the seeds differ in values, not in shape)."""
    frames = []
    parts = 0
    for b, d in EVERY_EXERCISE:
        for seed in (1,):
            for algo in ("alphabeta", "star2"):
                tree = exercise_tree(b, d, "exercise", seed, algo)
                for tex in (to_tikz(build_view(tree, algo), body=True, page="slide"),
                            tikz_tree(tree, page="slide")):  # fmt: skip
                    frames.append((f"b={b} d={d} seed {seed} {algo}", tex))
                    parts += tex.count("\\begin{tikzpicture}")
    count, log = beamer(frames, tmp_path)
    assert "Overfull" not in log and "Underfull \\vbox" not in log
    assert len(frames) <= count <= parts
