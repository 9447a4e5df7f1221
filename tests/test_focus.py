"""Big trees in show: --focus PATH draws one subtree with the whole search's marks; the collapsed view."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gtsearch import load_tree
from gtsearch.cli import cli
from gtsearch.render.focus import collapsed, focus_view, parse_path
from gtsearch.render.replay import replay_data
from gtsearch.render.terminal import draw_text, lines_needed
from gtsearch.render.view import build_view
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

REPO = Path(__file__).resolve().parent.parent
AIMA = str(REPO / "sample_trees" / "aima-fig5-2.yaml")
WIKI = str(REPO / "sample_trees" / "wikipedia-alphabeta.json")
SVG_NS = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})


def test_focus_draws_one_subtree_with_the_whole_search() -> None:
    result = run("show", WIKI, "--focus", "0.0")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        f"Wikipedia, Alpha-beta pruning: the illustration: the subtree at 0.0 ({WIKI})"
    )
    assert lines[1] == "alphabeta: value 6, PV 1 → 0 → 0 → 0, 9 of 14 leaves evaluated"
    assert lines[2:9] == [
        "0.0  MAX  = 5",
        "├── 0.0.0  MIN  = 5",
        "│   ├── 0.0.0.0  5  ● #1",
        "│   └── 0.0.0.1  6  ● #2",
        "└── 0.0.1  MIN  ≤ 4  cutoff: 4 ≤ α = 5",
        "    ├── 0.0.1.0  7  ● #3",
        "    ├── 0.0.1.1  4  ● #4",
    ]
    # a subtree on the PV keeps its stars and the numbers of the whole order
    out = run("show", WIKI, "--focus", "1.0", "-a", "sss").stdout
    assert "1.0  MAX  = 6  ★" in out and "1.0.0.0  6  ● #" in out


def test_focus_keeps_names_and_node_types() -> None:
    out = run("show", AIMA, "--focus", "1", "--node-types").stdout
    assert out.splitlines()[0].startswith(
        "AIMA Figure 5.2, a two-ply game tree: the subtree at 1 (C)"
    )
    assert "C  MIN  ≤ 2  cutoff: 2 ≤ α = 3  [CUT]" in out
    assert "c1  2  ● #4  [ALL]" in out and "c3  6  ✂ pruned" in out


def test_focus_applies_to_the_pictures(tmp_path: Path) -> None:
    svg, dot, html = tmp_path / "f.svg", tmp_path / "f.dot", tmp_path / "f.html"
    result = run(
        "show", WIKI, "-q", "--focus", "2", "--svg", str(svg), "--dot", str(dot),
        "--html", str(html),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    root = ET.parse(svg).getroot()
    nodes = [g for g in root.iter(f"{SVG_NS}g") if "node" in g.get("class", "").split()]
    assert len(nodes) == 10  # the subtree at 2: 2, 2.0, 2.0.0, 2.0.0.0 and 2.1 with its 5 nodes
    titles = [g.find(f"{SVG_NS}title").text for g in nodes]  # type: ignore[union-attr]
    assert titles[0] == "2 (MIN)" and titles[3] == "2.0.0.0 (leaf) = 5"
    assert "the subtree at 2" in svg.read_text()
    assert re.search(r'label="2\\n≤ 5"', dot.read_text())
    page = html.read_text()
    blob = re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', page, re.S)
    assert blob is not None
    data = json.loads(blob.group(1))
    assert data["labels"][0] == "2" and len(data["labels"]) == 10
    events = [s["event"] for s in data["steps"]]
    assert events[0] == "start" and events[-1] == "result"
    assert "enter" in events and all(s.get("node", 0) < 10 for s in data["steps"])


def test_focused_replay_keeps_the_steps_inside() -> None:
    tree = load_tree(AIMA)
    for algo in ("alphabeta", "sss"):
        view = build_view(tree, algo, keep_events=True)
        sub = focus_view(view, (2,))
        inside = [ev for ev in view.events or [] if 9 <= ev.node < 13]
        assert view.events is not None and sub.events is not None
        assert len(sub.events) == len(inside) + 2  # and the start and the result
        data = replay_data(sub)
        leaves = [s["label"] for s in data["steps"] if s["event"] == "leaf" or s.get("case") == 2]
        assert leaves == ["d1", "d2", "d3"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("0.5", "--focus 0.5: the node at 0 has 2 children, numbered 0 to 1"),
        ("0.0.0.0.0", "--focus 0.0.0.0.0: the node at 0.0.0.0 is a leaf"),
        (
            "a.b",
            "--focus a.b: the node at (root) has no child named 'a.b'; its children have no "
            "names (child indices from 0, such as 0.2, reach them)",
        ),
        ("0.-1", "--focus takes child indices from 0, got '0.-1'"),
        (
            "a//b",
            "--focus a//b: a path of names has a name between every two '/' (such as B/b1; "
            "child indices from 0 are written 0.2)",
        ),
    ],
)
def test_focus_errors(path: str, message: str) -> None:
    result = run("show", WIKI, "--focus", path)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [message]


def test_parse_path() -> None:
    assert parse_path("0.2.1") == (0, 2, 1)
    assert parse_path("root") == () == parse_path("") == parse_path("/")
    assert parse_path("B/b1") == ("B", "b1") == parse_path("/B/b1")
    assert parse_path("/5/51") == ("5", "51") and parse_path("5") == (5,)
    assert parse_path("take 1/take 2") == ("take 1", "take 2")
    assert parse_path("1\\/2/a\\\\b") == ("1/2", "a\\b")  # escaped slash and backslash
    assert parse_path("/root") == ("root",)


def test_focus_by_the_path_of_names() -> None:
    """Names differ among siblings only: a path of names from the root is one node."""
    out = run("show", AIMA, "--focus", "C").stdout
    assert out.splitlines()[0].startswith("AIMA Figure 5.2, a two-ply game tree: the subtree at C")
    assert out == run("show", AIMA, "--focus", "1").stdout.replace("at 1 (C)", "at C")
    assert "b1  3  ● #1  ★" in run("show", AIMA, "--focus", "B/b1").stdout
    message = (
        "--focus B/x: the node at B has no child named 'x'; its children are named 'b1', 'b2', 'b3'"
    )
    assert run("show", AIMA, "--focus", "B/x").stderr.splitlines() == [message]
    # Nim: the same names at every level, each path one node
    nim = str(REPO / "sample_trees" / "nim-5.efg")
    out = run("show", nim, "--focus", "take 2/take 1").stdout
    assert out.splitlines()[0].endswith(f"the subtree at take 2/take 1 ({nim})")
    assert out.splitlines()[2].startswith("take 1  MAX")
    assert out == run("show", nim, "--focus", "1.0").stdout.replace(
        "at 1.0 (take 1)", "at take 2/take 1"
    )


def test_a_large_tree_is_drawn_collapsed_with_a_note() -> None:
    tree = uniform_tree(3, 7, seed=2)
    view = build_view(tree, "alphabeta")
    assert lines_needed(view) > 400
    text = draw_text(collapsed(view))
    assert "collapsed: only the PV's nodes are unfolded" in text
    assert len(text.splitlines()) < 40
    stars = [line for line in text.splitlines()[:-1] if "★" in line]  # not the legend
    assert len(stars) == 8  # the PV: the root and seven moves


def test_show_collapses_a_large_tree(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    assert run("gen", "-b", "3", "-d", "7", "--seed", "2", "-o", str(big)).exit_code == 0
    result = run("show", str(big))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "the tree has 3,280 nodes, too many to draw usefully (more than 400 lines): drawing "
        "the PV with its siblings folded; --focus PATH draws one subtree, --max-depth N the "
        "top levels"
    ]
    assert len(result.stdout.splitlines()) < 40
    # asked for, the lines are drawn as before: cut after N, or all of them
    cut = run("show", str(big), "--max-lines", "50")
    assert cut.stderr == "" and "output cut after 50 lines" in cut.stdout
    assert run("show", str(big), "--max-depth", "2").stderr == ""
    everything = run("show", str(big), "--max-lines", "0")
    assert everything.stderr == "" and len(everything.stdout.splitlines()) > 400
    # a small tree is drawn whole, without a note
    assert run("show", AIMA).stderr == ""


def test_lines_needed_counts_the_drawing() -> None:
    view = build_view(Tree.from_nested([[5, 6], [1, 9, 9, 9, 9, 9], [2, [7, 7], 9], [8, 9]]), "ab")
    drawn = draw_text(view).splitlines()[2:-1]  # the title lines and the legend left out
    assert lines_needed(view) == len(drawn)
    unfolded = draw_text(view).count("\n")
    assert lines_needed(view, fold=False) > lines_needed(view) and unfolded
