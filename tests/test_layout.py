"""The pictures' layout measured on what the writers draw: no text crosses an edge, a shape or
another text (SVG and TikZ, 200 random trees); exercise-sized trees fit A4 landscape with no text
under 8 pt; the pages and layouts of show; the bare tree for worksheets and quizzes.

The SVG and the TikZ are read back (tests/pictures.py) into texts with boxes from the font
metrics of gtsearch.render.geometry, shapes and lines, at the coordinates they write.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gtsearch import load_tree, loads_tree
from gtsearch.cli import cli
from gtsearch.render.focus import collapsed
from gtsearch.render.geometry import LABEL_GAP, PAGES, Scene, collisions, crowded
from gtsearch.render.layout import layout
from gtsearch.render.notebook import result_html
from gtsearch.render.painter import short_range
from gtsearch.render.svg import to_svg, tree_picture
from gtsearch.render.tikz import to_tikz
from gtsearch.render.tikz import tree_picture as tree_tikz
from gtsearch.render.view import build_view, replay_steps
from gtsearch.sources.uniform import uniform_tree

from .pictures import svg_scene, tikz_scene, tikz_scenes

REPO = Path(__file__).resolve().parent.parent
NIM = str(REPO / "sample_trees" / "nim-5.efg")
A4_LANDSCAPE = PAGES["a4"]
#: the exercise-sized trees of issue 24: (b, d), up to 64 leaves
EXERCISES = [(3, 3), (4, 3), (2, 6)]
NAMES = ["a", "bb", "node_7", "a rather long move name", "Zz", "x1", "déjà-vu", "{$&}"]


def random_tree(rng: random.Random) -> tuple[dict[str, Any], bool]:
    """A random tree file (JSON): ragged shapes, chance nodes with uneven weights, fractional
    and long values, long names; and whether it has chance nodes."""
    chance = rng.random() < 0.4
    budget = [rng.randint(2, 64)]
    count = iter(range(10**6))

    def node(depth: int, under_chance: bool) -> Any:
        leaf = depth >= 5 or budget[0] <= 1 or (depth > 0 and rng.random() < 0.25)
        if leaf:
            budget[0] -= 1
            v: Any = rng.randint(-99, 99)
            if rng.random() < 0.3:
                v = round(rng.uniform(-99, 99), rng.choice([1, 2]))
            name = rng.choice(NAMES) + str(next(count)) if rng.random() < 0.6 else None
            return v if name is None else {"name": name, "value": v}
        k = rng.randint(1, 4)
        kids = [node(depth + 1, False) for _ in range(k)]
        out: dict[str, Any] = {}
        if rng.random() < 0.7:
            out["name"] = rng.choice(NAMES) + str(next(count))
        if chance and not under_chance and depth > 0 and rng.random() < 0.5:
            out["weights"] = [rng.randint(1, 9) for _ in kids]
            out["chance"] = [node(depth + 1, True) for _ in kids]
        else:
            out["children"] = kids
        return out

    root = node(0, False)
    if not isinstance(root, dict):
        root = {"children": [root]}
    return {"title": "random", "tree": root}, chance and '"chance"' in json.dumps(root)


def random_views(count: int = 200) -> list[tuple[Any, str, str, bool]]:
    rng = random.Random(24)
    out = []
    for _ in range(count):
        doc, has_chance = random_tree(rng)
        tree = loads_tree(json.dumps(doc), "json")
        algo = rng.choice(["star1", "star2", "expectiminimax"] if tree.has_chance else
                          ["alphabeta", "sss", "minimax", "dual", "f1"])  # fmt: skip
        params: dict[str, Any] = {}
        if algo == "f1":
            params["bound"] = rng.randint(-20, 20)
        types = not tree.has_chance and rng.random() < 0.5
        view = build_view(tree, algo, node_types=types, **params)
        out.append((view, rng.choice(list(PAGES)), rng.choice(["auto", "auto", "tree",
                    "compact", "outline"]), rng.random() < 0.2))  # fmt: skip
    return out


VIEWS = random_views()


def test_the_random_trees_have_what_the_issue_names() -> None:
    """Chance nodes with long fractional ranges, names, node types, pruned marks."""
    assert sum(v.tree.has_chance for v, *_ in VIEWS) >= 40
    assert sum(v.node_types is not None for v, *_ in VIEWS) >= 40
    assert sum(any(v.is_cut(n) for n in range(v.tree.n_nodes)) for v, *_ in VIEWS) >= 60
    svgs = [to_svg(v, page=p, layout=lay) for v, p, lay, _ in VIEWS[:60]]
    # a chance node's range such as [-7198/725, 17252/725]
    assert any(re.search(r'class="range"[^>]*>\[-?\d+/\d+, -?\d+/\d+\]<', s) for s in svgs)
    assert any(">a rather long move name" in s for s in svgs)


@pytest.mark.slow
def test_no_text_crosses_anything_in_the_svg() -> None:
    clashes: list[str] = []
    for i, (view, page, lay, bare) in enumerate(VIEWS):
        svg = to_svg(view, state=not bare, page=page, layout=lay)
        clashes += [f"tree {i} ({page}, {lay}): {c}" for c in collisions(svg_scene(svg))]
    assert clashes == []


@pytest.mark.slow
def test_no_text_crosses_anything_in_the_tikz() -> None:
    clashes: list[str] = []
    for i, (view, page, lay, body) in enumerate(VIEWS):
        tex = to_tikz(view, page=page, layout=lay, body=body)
        for scene in tikz_scenes(tex):
            clashes += [f"tree {i} ({page}, {lay}): {c}" for c in collisions(scene)]
    assert clashes == []


def test_the_drops_are_measured_as_edges() -> None:
    """An edge ends above its level (over every name); the short drop on to its node's head is
    a <line class="drop"> of its own, and so is the stem below a MIN node's apex, read back as
    edges: checked against shapes and texts."""
    svg = to_svg(build_view(load_tree(str(REPO / "sample_trees" / "aima-fig5-2.yaml"))))
    scene = svg_scene(svg)
    assert svg.count('<line class="drop') == 12  # the three MIN nodes' and the nine leaves'
    assert svg.count('<line class="stem') == 3  # below the three MIN nodes
    assert sum(line.role == "edge" for line in scene.lines) == 12 + 12 + 3
    # a drop pushed on into its node's triangle is found
    drop = re.search(r'(<line class="drop[^>]* data-node="1" [^>]*y2=")([\d.]+)"', svg)
    assert drop is not None
    deeper = f'{drop.group(1)}{float(drop.group(2)) + 10:.1f}"'
    assert "the edge of 1 passes through 1" in collisions(
        svg_scene(svg.replace(drop.group(0), deeper))
    )


@pytest.mark.slow
def test_no_text_crosses_anything_on_its_side() -> None:
    """The sideways arrangement, asked for every one of the 200 trees, in SVG and TikZ."""
    clashes: list[str] = []
    for i, (view, page, _, bare) in enumerate(VIEWS):
        svg = to_svg(view, state=not bare, page=page, layout="sideways")
        tex = to_tikz(view, page=page, layout="sideways", body=bare)
        for scene in [svg_scene(svg), *tikz_scenes(tex)]:
            clashes += [f"tree {i} ({page}): {c}" for c in collisions(scene)]
    assert clashes == []


def test_crowded_finds_labels_that_run_together() -> None:
    """The measure itself: two names of neighbours 4 pt apart on one line are found, one above
    the other (two rows) are not."""
    from gtsearch.render.geometry import Text, text_width

    w = text_width("PV", 8)
    side = [Text(0, 10, "PV", 8, "start", "type", 1), Text(w + 4, 10, "C", 9, "start", "name", 2)]
    assert crowded(Scene(100, 100, side, [], [])) == [
        "text 'PV' (type) and 'C' (name) 4.0 pt apart"
    ]
    rows = [side[0], replace(side[1], x=w + 1, y=25)]
    assert crowded(Scene(100, 100, rows, [], [])) == []
    assert crowded(Scene(100, 100, [side[0], replace(side[1], x=w + LABEL_GAP)], [], [])) == []


@pytest.mark.parametrize("lay", ["auto", "tree", "compact", "sideways", "outline"])
def test_labels_of_different_nodes_never_touch(lay: str) -> None:
    """Issue 38: "PV C", "CUT D", "1..11 I", ">=375 AC" ran together. Two texts of different
    nodes on one line stand LABEL_GAP (8 pt, almost three word spaces at 9 pt) apart or more,
    on every page, over the random trees (node types among them) and exercises of b=2..4,
    d=2..4 with node types and with chance nodes."""
    from gtsearch.algorithms import find_algorithm
    from gtsearch.classroom.exercises import Spec, make_exercises

    views = [(v, p) for v, p, *_ in VIEWS[:60]]
    for algo in ("alphabeta", "star2"):
        for b, d in [(2, 3), (3, 2), (3, 3), (4, 2), (2, 4), (4, 3), (3, 4)]:
            (ex,) = make_exercises(Spec(find_algorithm(algo), {}, b, d), 7, 1)
            view = build_view(ex.tree, algo, node_types=algo == "alphabeta", **ex.params)
            views += [(view, "a4"), (view, "slide")]
    found = []
    for i, (view, page) in enumerate(views):
        pic = layout(view, page=page, layout=lay, head=("title", "summary"), legend=True)
        found += [f"view {i} ({page}): {c}" for c in crowded(pic.scene)]
    assert found == []


def replayed(view: Any, page: str = "a4", layout_name: str = "auto") -> list[str]:
    """The clashes of the replay's picture (the bare tree) once it shows what the steps fill in:
    every leaf's order of evaluation and, in turn, each range a node shows at some step."""
    scene = layout(view, page=page, layout=layout_name, state=False).scene
    shown: dict[int, list[str]] = {}
    for step in replay_steps(view):
        for n, text in step["ranges"]:
            shown.setdefault(n, []).append(short_range(text))
    clashes = []
    for turn in range(max(map(len, shown.values()), default=1)):
        texts = []
        for t in scene.texts:
            if t.role == "rank" and t.node in view.rank:
                t = replace(t, text=view.order_text(t.node))
            elif t.role == "range" and t.node in shown:
                t = replace(t, text=shown[t.node][min(turn, len(shown[t.node]) - 1)])
            texts.append(t)
        clashes += collisions(Scene(scene.width, scene.height, texts, scene.lines, scene.shapes))
    return clashes


@pytest.mark.slow
def test_the_replay_keeps_room_for_what_it_fills_in() -> None:
    """The bare tree of the HTML replay has empty ranges and orders of evaluation, which the
    steps fill in: the layout keeps room for the widest of them (in columns and sideways too)."""
    for b, d in [(3, 3), (4, 3), (3, 4), (2, 6)]:
        for algo in ("alphabeta", "sss"):
            view = build_view(uniform_tree(b, d, seed=1), algo, keep_events=True)
            assert replayed(view) == []
            assert replayed(view, "slide", "sideways") == []
    for view, page, lay, _ in VIEWS[:80]:
        if view.algorithm != "f1":  # (which needs its bound)
            assert (
                replayed(build_view(view.tree, view.algorithm, keep_events=True), page, lay) == []
            )


def test_the_writers_draw_the_scene() -> None:
    """What SVG and TikZ draw is the layout's scene: the same texts at the same places."""
    view = build_view(uniform_tree(3, 3, seed=5), "alphabeta", node_types=True)
    scene = layout(view, head=("t", "s"), legend=True).scene
    want = sorted((round(t.x, 1), round(t.y, 1), t.size) for t in scene.texts if t.text)
    for drawn in (svg_scene(to_svg(view, source="t")), tikz_scene(to_tikz(view, source="t"))):
        got = sorted((round(t.x, 1), round(t.y, 1), t.size) for t in drawn.texts)
        assert len(got) == len(want)
        assert all(abs(a[0] - b[0]) <= 0.11 and abs(a[1] - b[1]) <= 0.11 for a, b in
                   zip(got, want, strict=True))  # fmt: skip


# -- pages --------------------------------------------------------------------------------------
def measure_tikz(tex: str) -> tuple[float, float, float]:
    """The picture's extent in bp (from its bounding box, every coordinate inside it) and its
    smallest font size in pt."""
    box = re.search(r"useasboundingbox \(0\.0,0\.0\) rectangle \(([\d.]+),([\d.]+)\)", tex)
    assert box is not None
    w, h = float(box.group(1)), float(box.group(2))
    for x, y in re.findall(r"\((-?[\d.]+),(-?[\d.]+)\)", tex):
        assert -0.5 <= float(x) <= w + 0.5 and -0.5 <= float(y) <= h + 0.5
    sizes = [float(s) for s in re.findall(r"\\fontsize\{([\d.]+)\}", tex)]
    assert "scale" not in tex and "\\tiny" not in tex and "\\scriptsize" not in tex
    return w, h, min(sizes)


@pytest.mark.parametrize(("b", "d"), EXERCISES)
@pytest.mark.parametrize("algo", ["alphabeta", "sss", "minimax"])
def test_exercise_sized_tikz_fits_a4_landscape(b: int, d: int, algo: str) -> None:
    for seed in range(3):
        view = build_view(uniform_tree(b, d, seed=seed), algo, node_types=seed == 1)
        w, h, smallest = measure_tikz(to_tikz(view, source=f"b={b} d={d} seed {seed}"))
        assert w <= A4_LANDSCAPE.width and h <= A4_LANDSCAPE.height, (w, h)
        assert smallest >= 8


def test_the_81_leaf_tree_reads() -> None:
    """b=3 d=4 fits A4 landscape at 8 pt and more (b=4 d=4 goes on two pages:
    tests/test_pages.py)."""
    w, h, smallest = measure_tikz(to_tikz(build_view(uniform_tree(3, 4, seed=1))))
    assert (w <= A4_LANDSCAPE.width, h <= A4_LANDSCAPE.height, smallest) == (True, True, 8)


def test_a_27_leaf_tree_fits_a_slide() -> None:
    """On its side, at 10 pt (as a tree or in columns it is too wide for a slide), solved and
    unsolved."""
    view = build_view(uniform_tree(3, 3, seed=1), "alphabeta")
    pic = layout(view, page="slide", state=False)
    assert pic.fits and pic.arrangement == "sideways"
    assert not layout(view, page="slide", layout="compact", state=False).fits
    w, h, smallest = measure_tikz(tree_tikz(view.tree, page="slide"))
    assert w <= PAGES["slide"].width and h <= PAGES["slide"].height and smallest >= 10
    pictures = to_tikz(view, body=True, page="slide").split("\\begin{tikzpicture}")[1:]
    assert len(pictures) == 1  # solved too, unnamed (with an exercise's names: four parts)
    w, h, smallest = measure_tikz(pictures[0])
    assert w <= PAGES["slide"].width and h <= PAGES["slide"].height and smallest == 10


def test_layouts_as_asked() -> None:
    view = build_view(uniform_tree(2, 3, seed=1))
    assert layout(view).cut == 0
    assert layout(view, layout="compact").cut == 1
    assert layout(view, layout="outline").cut == 3
    assert layout(view, layout="outline").arrangement == "outline"
    assert layout(view, layout="sideways").arrangement == "sideways"
    assert layout(build_view(uniform_tree(4, 3, seed=1))).cut == 1
    with pytest.raises(Exception, match="no page 'a5'"):
        layout(view, page="a5")


def test_show_takes_page_and_layout(tmp_path: Path) -> None:
    tree = tmp_path / "t.json"
    result = CliRunner().invoke(cli, ["gen", "-b", "4", "-d", "3", "--seed", "1", "-o", str(tree)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "t.svg"
    for args in ([], ["--page", "slide"], ["--layout", "outline"], ["--page", "quiz"]):
        result = CliRunner().invoke(cli, ["show", str(tree), "-q", "--svg", str(out), *args])
        assert result.exit_code == 0, result.output
        assert collisions(svg_scene(out.read_text())) == []
    result = CliRunner().invoke(cli, ["show", str(tree), "--page", "a5"])
    assert result.exit_code == 2 and "'a5' is not one of" in result.output


# -- worksheets, quizzes, notebooks ------------------------------------------------------------
@pytest.mark.parametrize(("b", "d"), EXERCISES)
def test_the_unsolved_tree_for_a_quiz_reads_at_800_px(b: int, d: int) -> None:
    svg = tree_picture(uniform_tree(b, d, seed=1), page="quiz")
    root = ET.fromstring(svg)
    width = float(root.get("width", 0))
    view_width = float(root.get("viewBox", "0 0 1 1").split()[2])
    shown = min(width, 800) / view_width  # CSS pixels per unit as a quiz shows it
    texts = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.text]
    sizes = [float(t.get("font-size", 0)) * shown for t in texts]
    assert width <= 800 and min(sizes) >= 12
    assert "evaluated" not in svg and "#1<" not in svg and "legend" not in svg  # nothing solved
    assert collisions(svg_scene(svg)) == []


def test_nim_draws_its_move_names_apart() -> None:
    tree = load_tree(NIM)
    svg = tree._repr_svg_()
    assert collisions(svg_scene(svg)) == []
    names = {t.text for t in svg_scene(svg).texts}
    assert {tree.names[n] for n in range(tree.n_nodes) if n in tree.names} <= names


def test_the_collapsed_tree_in_a_notebook_says_each_size_once() -> None:
    big = uniform_tree(3, 6, seed=1)
    from gtsearch import search

    html = result_html(search(big, "alphabeta"))
    svg = html.split('<div class="gtsearch-tree">', 1)[1].rsplit("</div>", 1)[0]
    assert collisions(svg_scene(svg)) == []
    assert "363 nodes" in svg
    view = collapsed(build_view(big))
    assert collisions(svg_scene(to_svg(view))) == []


@pytest.mark.parametrize("lay", ["tree", "compact", "sideways", "outline"])
@pytest.mark.parametrize(("b", "d"), [(4, 3), (3, 4), (3, 3)])
def test_the_pv_is_drawn_whole(lay: str, b: int, d: int) -> None:
    """Issue 38: in columns the PV was drawn black from G down to J, orange only from there
    (the edge of a later child went down the spine from its sibling's row). The edge of every
    node of the PV starts where its parent's edges start (its first child's), in every layout,
    so the orange line runs unbroken from the root to the leaf."""
    from gtsearch.algorithms import find_algorithm
    from gtsearch.classroom.exercises import Spec, make_exercises

    for seed in (1, 2, 3):
        (ex,) = make_exercises(Spec(find_algorithm("alphabeta"), {}, b, d), seed, 1)
        tree = ex.tree
        view = build_view(tree)
        scene = layout(view, layout=lay).scene
        starts = {line.node: line.pieces[0][0] for line in scene.lines if line.role == "edge"}
        stems = {line.node: line.pieces[0][-1] for line in scene.lines if line.role == "stem"}
        assert any(tree.child(p, 0) != n for p, n in pairwise(view.pv))  # a PV off the left
        for p, n in pairwise(view.pv):
            first = stems.get(p, starts[tree.child(p, 0)])
            assert starts[n] == pytest.approx(first), (lay, seed, tree.names[n])
