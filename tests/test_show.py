"""gtsearch show and trace: golden drawings and traces, DOT, SVG and HTML files, options and errors.

Set GTSEARCH_UPDATE_GOLDEN=1 to rewrite the files under tests/cases/show/ from
the current output (then read the diff before committing it).
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import gtsearch.render.console as console_module
from gtsearch import load_tree, loads_tree, search
from gtsearch.cli import cli
from gtsearch.render.labels import range_text
from gtsearch.render.replay import replay_data, to_html
from gtsearch.render.svg import MAX_PICTURE_NODES, to_dot, to_svg
from gtsearch.render.terminal import Options, draw_text
from gtsearch.render.view import build_view, replay_steps, value_ranges
from gtsearch.tree import Tree

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases" / "show"
AIMA = "sample_trees/aima-fig5-2.yaml"
WIKI = "sample_trees/wikipedia-alphabeta.json"
CHANCE = "sample_trees/chance-worked.yaml"
SVG_NS = "{http://www.w3.org/2000/svg}"
#: environment for stable output: plain, 200 columns, whatever the caller's shell says
ENV = {"COLUMNS": "200", "NO_COLOR": None, "FORCE_COLOR": None}


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository, so that file names in the output are the short ones."""
    monkeypatch.chdir(REPO)


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env={**ENV, **(env or {})})


def golden(name: str, text: str) -> None:
    path = CASES / name
    if os.environ.get("GTSEARCH_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def assert_usage_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# -- golden drawings and traces ------------------------------------------------------------
GOLDEN = [
    (AIMA, "aima", "alphabeta"),
    (AIMA, "aima", "sss"),
    (AIMA, "aima", "dual"),
    (WIKI, "wikipedia", "alphabeta"),
    (WIKI, "wikipedia", "sss"),
    (CHANCE, "chance", "expectiminimax"),
    (CHANCE, "chance", "star1"),
    (CHANCE, "chance", "star2"),
]


@pytest.mark.parametrize(("path", "stem", "algo"), GOLDEN)
def test_show_golden(path: str, stem: str, algo: str) -> None:
    result = run("show", path, "--algo", algo)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout
    golden(f"{stem}-{algo}.show.txt", result.stdout)


@pytest.mark.parametrize(("path", "stem", "algo"), GOLDEN)
def test_trace_golden(path: str, stem: str, algo: str) -> None:
    result = run("trace", path, "--algo", algo)
    assert result.exit_code == 0, result.stderr
    golden(f"{stem}-{algo}.trace.txt", result.stdout)


def test_aima_sss_trace_shows_the_leaves_in_order() -> None:
    out = run("trace", AIMA, "-a", "sss").stdout
    values = [int(v) for v in re.findall(r"case 2: evaluate \w+ = (\d+)", out)]
    assert values == [3, 2, 14, 5, 2, 12, 8]
    assert (
        "case 5: A is MAX: B solves it, insert (A, SOLVED, 3), purge (c1, SOLVED, 2) "
        "(d3, SOLVED, 2)" in out
    )
    assert "case 1: the root is solved: value 3" in out


def test_aima_alphabeta_drawing_marks_the_cut_and_the_pv() -> None:
    out = run("show", AIMA).stdout
    assert "C  MIN  ≤ 2  cutoff: 2 ≤ α = 3" in out
    assert "c2  4  ✂ pruned" in out and "c3  6  ✂ pruned" in out
    assert "b1  3  ● #1  ★" in out and "B  MIN  = 3  ★" in out
    assert out.count("●") == 7 + 1  # seven leaves and the legend


# -- the trace as JSON lines ------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["minimax", "f1", "alphabeta", "sss", "dual"])
def test_trace_json_lines(algo: str) -> None:
    result = run("trace", WIKI, "-a", algo, "--format", "json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    start, steps, end = records[0], records[1:-1], records[-1]
    assert start["event"] == "start" and start["file"] == WIKI and start["algorithm"] == algo
    assert start["nodes"] == 33 and start["leaves_total"] == 14 and start["root"] == "max"
    assert [r["step"] for r in records] == list(range(len(records)))
    assert end["event"] == "result"
    fast = search(load_tree(WIKI), algo, leaf_order=True)
    assert (end["value"], end["exact"], end["bound"], end["leaves"]) == (
        fast.value,
        fast.exact,
        fast.bound,
        fast.leaves,
    )
    leaves = [
        r["path"] for r in steps if r["event"] == "leaf" or r["event"] == "take" and r["case"] == 2
    ]
    assert leaves == [list(p) for p in fast.leaf_order or ()]
    kinds = {r["event"] for r in steps}
    if algo in ("sss", "dual"):
        assert kinds == {"take"}
        assert all({"status", "h", "case", "inserted", "purged", "open"} <= r.keys() for r in steps)
        assert {r["case"] for r in steps} <= {1, 2, 3, 4, 5, 6}
    else:
        assert kinds <= {"enter", "leaf", "cutoff", "return"}
        assert ("cutoff" in kinds) == (algo != "minimax")
        for r in steps:
            if r["event"] == "enter":
                assert {"alpha", "beta"} <= r.keys()
            if r["event"] == "cutoff":
                assert r["side"] in ("alpha", "beta") and r["skipped"] and r["pruned_leaves"] >= 1


def test_trace_json_infinities_are_strings() -> None:
    records = [
        json.loads(x)
        for x in run("trace", AIMA, "-a", "sss", "--format", "json").stdout.splitlines()
    ]
    assert records[0]["open"] == [{"node": 0, "label": "A", "status": "live", "h": "+inf"}]
    records = [json.loads(x) for x in run("trace", AIMA, "--format", "json").stdout.splitlines()]
    assert records[1]["alpha"] == "-inf" and records[1]["beta"] == "+inf"


def test_trace_bounded_and_min_root() -> None:
    out = run("trace", AIMA, "-a", "sss-bounded", "--bound", "3").stdout
    assert "parameters: bound = 3" in out
    assert out.rstrip().endswith("result: value ≥ 3 (lower bound), 3 of 9 leaves evaluated")
    out = run("trace", AIMA, "-a", "f1", "--root", "min").stdout
    assert "enter A (MIN)  bound α = -∞" in out
    assert "enter B (MAX)  bound β = 3" not in out  # F1 bounds come from the parent's best
    assert "result: value 6 (exact)" in out


def test_trace_no_open() -> None:
    out = run("trace", AIMA, "-a", "sss", "--no-open").stdout
    assert "OPEN" not in out and "case 5" in out
    records = [
        json.loads(x)
        for x in run(
            "trace", AIMA, "-a", "sss", "--no-open", "--format", "json"
        ).stdout.splitlines()
    ]
    assert all("open" not in r for r in records[1:])


# -- show: options, colours, large trees -------------------------------------------------------
def test_plain_without_terminal_and_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_module, "stdout_is_terminal", lambda: True)
    coloured = run("show", AIMA, env={"TERM": "xterm-256color"})
    assert "\x1b[" in coloured.stdout
    plain = run("show", AIMA, env={"TERM": "xterm-256color", "NO_COLOR": "1"})
    assert "\x1b" not in plain.stdout
    monkeypatch.setattr(console_module, "stdout_is_terminal", lambda: False)
    assert run("show", AIMA).stdout == plain.stdout
    assert "\x1b[" in run("show", AIMA, env={"FORCE_COLOR": "1"}).stdout


def wide_cut_tree() -> Tree:
    """A MAX root whose later MIN children are cut after their first leaf: runs of pruned leaves."""
    return Tree.from_nested([[5, 6], [1, 9, 9, 9, 9, 9], [2, [7, 7], 9], [8, 9]])


def test_fold_runs_of_pruned_siblings() -> None:
    view = build_view(wide_cut_tree(), "alphabeta")
    text = draw_text(view)
    assert "✂ 1.1 … 1.5  … 5 nodes cut (5 siblings)" in text
    assert "✂ 2.1  MAX  … 3 nodes cut (2 leaves)" in text
    assert "2.2  9  ✂ pruned" in text
    unfolded = draw_text(view, Options(fold=False))
    assert unfolded.count("✂ pruned") == 5 + 1 + 2 + 1 + 1  # and the legend
    assert "2.1.0  7  ✂ pruned" in unfolded


def test_max_depth_and_max_lines_say_what_is_left_out() -> None:
    view = build_view(Tree.from_nested([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), "minimax")
    text = draw_text(view, Options(max_depth=1))
    assert text.count("… 6 nodes below, not drawn") == 2
    assert "output cut: nodes deeper than 1 are not drawn; 12 nodes not shown" in text
    text = draw_text(view, Options(max_lines=4))
    assert "output cut after 4 lines: 11 more nodes not drawn" in text
    drawn = [
        line for line in text.splitlines()[2:] if "MAX" in line or "MIN" in line or "● #" in line
    ]
    assert len(drawn) == 4
    full = draw_text(view, Options(max_lines=None))
    assert "output cut" not in full and full.count("●") == 8 + 1


def test_narrow_terminal_limits_the_depth() -> None:
    nested: object = 1
    for _ in range(40):
        nested = [nested, 0]
    view = build_view(Tree.from_nested(nested), "alphabeta")
    text = draw_text(view, Options(width=80))
    assert "(the terminal is 80 columns wide)" in " ".join(text.split())
    assert max(len(line) for line in text.splitlines()[2:-2]) <= 80


def test_show_cli_options(tmp_path: Path) -> None:
    result = run("show", AIMA, "--max-depth", "1", "--max-lines", "0")
    assert result.exit_code == 0
    assert "output cut: nodes deeper than 1 are not drawn; 9 nodes not shown" in result.stdout
    assert (
        run("show", AIMA, "--root", "min", "-a", "sss")
        .stdout.splitlines()[1]
        .startswith("sss: value 6, PV C → c3")
    )
    assert (
        run("show", AIMA, "-a", "ab", "--alpha", "4")
        .stdout.splitlines()[1]
        .startswith("alphabeta (alpha 4): value ≤ 3 (upper bound)")
    )
    assert (
        run("show", AIMA, "-a", "f1", "--bound", "2")
        .stdout.splitlines()[1]
        .startswith("f1 (bound 2): value ≥ 3 (lower bound)")
    )
    dot = run("show", AIMA, "--dot", "-")
    assert dot.exit_code == 0 and dot.stdout.startswith("digraph ") and "MAX" not in dot.stdout
    out = tmp_path / "t"
    quiet = run(
        "show", AIMA, "-q", "--dot", f"{out}.dot", "--svg", f"{out}.svg", "--html", f"{out}.html"
    )
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert Path(f"{out}.dot").read_text().startswith("digraph")
    ET.parse(f"{out}.svg")
    assert Path(f"{out}.html").read_text().startswith("<!DOCTYPE html>")


def test_show_errors(tmp_path: Path) -> None:
    assert_usage_error(run("show", AIMA, "-a", "nope"), "unknown algorithm 'nope'")
    assert_usage_error(
        run("show", AIMA, "-a", "alphabeta", "--bound", "3"), "--bound does not apply"
    )
    assert_usage_error(run("show", AIMA, "-a", "sss-bounded"), "needs a bound")
    assert_usage_error(run("show", AIMA, "-a", "all"), "one algorithm at a time")
    assert_usage_error(run("show", AIMA, "--dot", "-", "--svg", "-"), "only one of")
    assert_usage_error(
        run("show", AIMA, "--svg", str(tmp_path / "no" / "such" / "dir.svg")), "cannot write"
    )
    assert_usage_error(run("show", str(tmp_path / "missing.yaml")), "missing.yaml")
    assert_usage_error(run("trace", AIMA, "-a", "dual-bounded"), "needs a bound")
    assert_usage_error(
        run("trace", AIMA, "-a", "alphabeta", "--alpha", "3", "--beta", "3"), "alpha < beta"
    )


def test_picture_size_limit(tmp_path: Path) -> None:
    """A picture of more than MAX_PICTURE_NODES nodes is drawn collapsed, with one line saying so."""
    big = tmp_path / "big.json"
    nested: object = 1
    for _ in range(13):
        nested = [nested, nested]
    big.write_text(json.dumps(nested))
    result = run("show", str(big), "-q", "--svg", str(tmp_path / "big.svg"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "the tree has 16,383 nodes, too many to draw usefully (a picture of more than "
        f"{MAX_PICTURE_NODES:,} nodes): drawing the PV with its siblings folded; --focus PATH "
        "draws one subtree, --max-depth N the top levels"
    ]
    nodes, _ = svg_parts((tmp_path / "big.svg").read_text())
    assert len(nodes) == 1 + 2 * 13  # the PV, and beside each of its nodes one folded sibling
    folded = [g for g in nodes if g.find(f"{SVG_NS}text[@class='hidden']") is not None]
    assert len(folded) == 12  # the sibling at the bottom is a leaf: nothing folded below it
    ok = run("show", str(big), "-q", "--max-depth", "4", "--svg", str(tmp_path / "big.svg"))
    assert ok.exit_code == 0 and ok.stderr == "", ok.stderr
    nodes = [
        g
        for g in ET.parse(tmp_path / "big.svg").iter(f"{SVG_NS}g")
        if "node" in g.get("class", "").split()
    ]
    assert len(nodes) == 31
    # even collapsed, a root with more children than that cannot be drawn: say what to do
    wide = tmp_path / "wide.json"
    wide.write_text(json.dumps(list(range(MAX_PICTURE_NODES + 1))))
    assert_usage_error(
        run("show", str(wide), "-q", "--svg", str(tmp_path / "wide.svg")),
        f"more than {MAX_PICTURE_NODES:,} nodes",
        "--max-depth",
    )


# -- DOT, SVG and HTML as files ---------------------------------------------------------------
def svg_parts(svg: str) -> tuple[list[ET.Element], list[ET.Element]]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    nodes = [g for g in root.iter(f"{SVG_NS}g") if "node" in g.get("class", "").split()]
    edges = [e for e in root.iter(f"{SVG_NS}line") if "edge" in e.get("class", "").split()]
    return nodes, edges


@pytest.mark.parametrize(
    ("path", "algo", "n_nodes", "pruned", "pv_len"),
    [
        (AIMA, "alphabeta", 13, 2, 2),
        (AIMA, "sss", 13, 2, 2),
        (AIMA, "minimax", 13, 0, 2),
        (WIKI, "alphabeta", 33, 8, 4),
        (WIKI, "sss", 33, 12, 4),
    ],
)
def test_svg_and_dot_files(path: str, algo: str, n_nodes: int, pruned: int, pv_len: int) -> None:
    tree = load_tree(path)
    view = build_view(tree, algo)
    assert sum(1 for n in range(tree.n_nodes) if not view.searched[n]) == pruned
    nodes, edges = svg_parts(to_svg(view, source=path))
    assert len(nodes) == n_nodes and len(edges) == n_nodes - 1
    dashed = [e for e in edges if e.get("stroke-dasharray")]
    assert len(dashed) == pruned
    assert {int(e.get("data-node", -1)) for e in dashed} == {
        n for n in range(tree.n_nodes) if not view.searched[n]
    }
    bold = [e for e in edges if float(e.get("stroke-width", 0)) >= 3]
    assert sorted(int(e.get("data-node", -1)) for e in bold) == view.pv[1:]
    assert len(bold) == pv_len
    filled = [g for g in nodes if "evaluated" in g.get("class", "")]
    assert len(filled) == view.result.leaves
    rects = [g.find(f"{SVG_NS}rect") for g in filled]
    assert all(r is not None and r.get("fill") not in (None, "white") for r in rects)
    shapes = {g.get("class", "").split()[1] for g in nodes}
    assert shapes == ({"max", "min", "leaf"})

    dot = to_dot(view, source=path)
    node_lines = re.findall(r"^  n(\d+) \[(.*)\];$", dot, re.M)
    edge_lines = re.findall(r"^  n(\d+) -> n(\d+)(.*);$", dot, re.M)
    assert len(node_lines) == n_nodes and len(edge_lines) == n_nodes - 1
    assert sum("style=dashed" in rest for _, _, rest in edge_lines) == pruned
    assert sorted(int(b) for _, b, rest in edge_lines if "style=bold" in rest) == view.pv[1:]
    shapes_dot = {re.search(r"shape=(\w+)", attrs).group(1) for _, attrs in node_lines}  # type: ignore[union-attr]
    assert shapes_dot == {"triangle", "invtriangle", "box"}
    assert dot.count("{") == dot.count("}") == 1 + 0


def test_svg_for_the_replay_is_bare() -> None:
    view = build_view(load_tree(AIMA), "alphabeta")
    nodes, edges = svg_parts(to_svg(view, state=False))
    assert len(nodes) == 13
    assert not any(set(g.get("class", "").split()) & {"evaluated", "pruned", "pv"} for g in nodes)
    assert not any(e.get("stroke-dasharray") for e in edges)


def test_dot_escapes_names() -> None:
    tree = loads_tree(
        '{"tree": {"name": "say \\"hi\\" \\\\ there", "children": [1, 2]}}', input_format="json"
    )
    dot = to_dot(build_view(tree, "minimax"))
    assert 'label="say \\"hi\\" \\\\ there\\n= 2"' in dot


def test_html_is_self_contained_and_embeds_the_trace() -> None:
    tree = loads_tree(
        '{"tree": {"name": "</script><b>x", "children": [[3, 1], [0, 9]]}}', input_format="json"
    )
    view = build_view(tree, "sss", keep_events=True)
    page = to_html(view)
    assert page.count("</script>") == 2  # the JSON and the code; the name cannot close them
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and "src=" not in page
    blob = re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', page, re.S)
    assert blob is not None
    data = json.loads(blob.group(1))
    assert data["labels"][0] == "</script><b>x"
    assert len(data["steps"]) == len(view.events or [])
    assert data["steps"][-1]["event"] == "result" and data["result"]["value"] == 1
    assert data["steps"][0]["open_text"] == ["(</script><b>x, LIVE, +∞)"]


def test_replay_steps_prune_only_what_is_never_evaluated() -> None:
    for nested in (
        [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
        [[[[5, 6], [7, 4, 5]], [[3]]], [[[6], [6, 9]], [[7]]], [[[5]], [[9, 8], [6]]]],
        [[1, [2, 3]], [[0, 4], 5], [6]],
    ):
        for root_max in (True, False):
            tree = Tree.from_nested(nested, root_max=root_max)
            for algo in ("minimax", "alphabeta", "f1", "sss", "dual"):
                view = build_view(tree, algo, keep_events=True)
                pruned: set[int] = set()
                seen_leaves: set[int] = set()
                last_ranges: dict[int, str] = {}
                for d in replay_steps(view):
                    if d["event"] == "leaf" or d["event"] == "take" and d["case"] == 2:
                        assert d["node"] not in pruned
                        seen_leaves.add(d["node"])
                    for head in d["pruned"]:
                        block = set(range(head, tree.end[head]))
                        assert not block & seen_leaves and not block & pruned
                        pruned |= block
                    last_ranges.update((n, t) for n, t in d["ranges"])
                searched = {n for n in range(tree.n_nodes) if view.searched[n]}
                assert pruned == set(range(tree.n_nodes)) - searched
                final = value_ranges(tree, view.rank)
                assert last_ranges == {n: range_text(*r) for n, r in final.items()}


def test_replay_data_shape() -> None:
    view = build_view(load_tree(AIMA), "alphabeta", keep_events=True)
    data = replay_data(view, AIMA)
    assert data["labels"][:2] == ["A", "B"] and data["pv"] == [0, 1, 2]
    enters = [s for s in data["steps"] if s["event"] == "enter"]
    assert enters[1]["window"] == "α = -∞, β = +∞" and enters[2]["window"] == "α = 3, β = +∞"
    cut = next(s for s in data["steps"] if s["event"] == "cutoff")
    assert cut["pruned"] == [7, 8] and cut["text"].startswith("cutoff at C: 2 ≤ α = 3")


# -- the documentation's sessions are real ---------------------------------------------------
def doc_sessions() -> list[tuple[str, str, str]]:
    """(file, command, output) of every complete session in the docs that show this feature."""
    import shlex

    out = []
    for doc in (REPO / "docs" / "pictures.md", REPO / "README.md"):
        if not doc.exists():
            continue
        text = doc.read_text(encoding="utf-8")
        for block in re.findall(r"^```\n(.*?)^```", text, re.M | re.S):
            lines = block.splitlines()
            commands = [x for x in lines if x.startswith("$ ")]
            if (
                len(commands) != 1
                or not lines[0].startswith("$ gtsearch ")
                or len(lines) < 2
                or "..." in lines
            ):
                continue
            args = shlex.split(lines[0][2:])
            if args[1] not in ("show", "trace"):
                continue
            out.append((doc.name, lines[0], "\n".join(lines[1:]) + "\n"))
    return out


def test_documented_sessions_are_real_output() -> None:
    import shlex

    sessions = doc_sessions()
    assert len(sessions) >= 3
    for doc, command, expected in sessions:
        result = run(*shlex.split(command[2:])[1:], env={"COLUMNS": "100"})
        assert result.exit_code == 0, (doc, command, result.stderr)
        assert result.stdout == expected, (doc, command)


def test_untraced_algorithms_are_drawn_from_their_result() -> None:
    from gtsearch.algorithms import ALGORITHMS
    from gtsearch.algorithms.steps import TRACERS

    untraced = [a.name for a in ALGORITHMS if a.name not in TRACERS and not a.needs_bound]
    for name in untraced:
        fast = search(load_tree(WIKI), name, leaf_order=True)
        result = run("show", WIKI, "-a", name)
        assert result.exit_code == 0, (name, result.stderr)
        assert result.stdout.count("● #") == len({tuple(p) for p in fast.leaf_order or ()})
        assert_usage_error(run("show", WIKI, "-a", name, "--html", "-"), "needs a trace")
        assert_usage_error(run("trace", WIKI, "-a", name), "no step-by-step trace")


# -- chance nodes --------------------------------------------------------------------------------
def test_chance_nodes_in_the_drawing() -> None:
    out = run("show", CHANCE, "-a", "star2").stdout
    assert (
        "star2 (L=2, U=9 from the leaves): value 13/3, PV C1 → m2 → 1, 6 of 8 leaves evaluated"
        in out
    )
    assert "C1  CHANCE  = 13/3  ★" in out and "m3  p=1/4  MIN  ∈ [2, 3]" in out
    # the PV goes on through C1's most probable outcome, m2 (2/3), to MIN's best leaf
    assert "m2  p=2/3  MIN  = 4  ★" in out and "0.1.1  4  ● #4  ★" in out
    assert "m1  p=1/3  MIN  = 5\n" in out
    assert "C2  CHANCE  ∈ [2, 2.25]  cutoff: 2.25 ≤ α = 13/3" in out
    assert "CHANCE p=: a chance node, an outcome's probability" in out
    assert "CHANCE" not in run("show", AIMA).stdout
    assert_usage_error(
        run("show", CHANCE, "-a", "alphabeta"),
        f"{CHANCE}: the tree has chance nodes, which alphabeta cannot search; "
        "use expectiminimax, star1 or star2",
    )
    # without --algo: alpha-beta's counterpart for chance nodes, Star1
    assert "star1 (L=2, U=9 from the leaves): value 13/3" in run("show", CHANCE).stdout
    assert "star1 on " in run("trace", CHANCE).stdout
    wide = run("show", CHANCE, "-a", "star1", "--leaf-bounds", "0:100").stdout
    assert "star1 (L=0, U=100)" in wide and "C2  CHANCE  ∈ [0, 2.25]" not in wide


def test_chance_nodes_in_svg_and_dot(tmp_path: Path) -> None:
    svg, dot = tmp_path / "t.svg", tmp_path / "t.dot"
    result = run("show", CHANCE, "-a", "star1", "-q", "--svg", str(svg), "--dot", str(dot))
    assert result.exit_code == 0, result.stderr
    root = ET.parse(svg).getroot()
    circles = root.findall(f".//{SVG_NS}circle")
    assert len(circles) == 2 + 1  # C1 and C2, and the legend's chance node, open as they are
    assert [c.get("fill") for c in circles] == ["white"] * 3
    probs = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "prob"]
    assert probs == ["1/3", "2/3", "1/4", "3/4"]
    text = dot.read_text(encoding="utf-8")
    assert text.count("shape=circle") == 2 and 'label="3/4"' in text
    assert 'n8 [label="C2\\n= 2.25", shape=circle]' in text
    # the PV's edges, bold, run through C1 to its most probable outcome m2 (node 5) and on
    bold = [e for e in root.iter(f"{SVG_NS}line") if float(e.get("stroke-width", 0)) >= 3]
    # (an edge, the drop on to its node's head and a MIN node's stem are lines of their own)
    assert sorted({int(e.get("data-node")) for e in bold if e.get("data-node")}) == [1, 5, 7]
    edges = re.findall(r"^  n(\d+) -> n(\d+)(.*);$", text, re.M)
    assert sorted(int(b) for _, b, rest in edges if "style=bold" in rest) == [1, 5, 7]


def test_chance_replay_shows_windows_and_probes() -> None:
    tree = load_tree(CHANCE)
    view = build_view(tree, "star2", keep_events=True)
    steps = list(replay_steps(view))
    kinds = [s["event"] for s in steps]
    assert kinds.count("probe") == kinds.count("probed") == 2 and "chance_cutoff" in kinds
    data = replay_data(view)
    notes = [s["note"] for s in data["steps"] if s["event"] == "window"]
    assert notes[0] == "next m1: α = 2, β = 9 (a = -∞, b = +∞)"
    assert [s["window"] for s in data["steps"] if s["event"] == "probe"] == [
        "probe: α = 2, β = 9",
        "probe: α = 43/9, β = 9",
    ]
    html = to_html(view)
    assert 'id="node-1" data-node="1" class="node chance"' in html and "<circle" in html


def test_chance_trace_json() -> None:
    result = run("trace", CHANCE, "-a", "star2", "--format", "json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["params"] == {"leaf_bounds": [2, 9], "leaf_bounds_from": "tree"}
    assert records[-1]["value"] == "13/3" and records[-1]["leaves"] == 6
    [cut] = [r for r in records if r["event"] == "chance_cutoff"]
    assert (cut["label"], cut["player"], cut["value"], cut["phase"]) == (
        "C2",
        "chance",
        "9/4",
        "probe",
    )
    probes = [r for r in records if r["event"] == "probe"]
    assert [(p["label"], p["side"], p["alpha"]) for p in probes] == [
        ("m3", "upper", 2),
        ("m4", "upper", "43/9"),
    ]
