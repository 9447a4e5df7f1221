"""docs/notebook.ipynb in a real Jupyter kernel (nbclient + ipykernel), and the display hooks it shows.

Skipped, with the reason, without the ``notebook`` extra (nbclient, ipykernel,
nbformat).  ``GTSEARCH_UPDATE_NOTEBOOK=1`` writes the executed notebook back to
docs/ (then read the diff before committing it).
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gtsearch import load_tree, search
from gtsearch.render.notebook import MAX_NOTEBOOK_NODES, top_depth
from gtsearch.sources.uniform import uniform_tree

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = REPO / "docs" / "notebook.ipynb"
SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_nodes(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG_NS}g") if "node" in g.get("class", "").split()]


# -- the hooks, without a kernel -------------------------------------------------------------------
def test_tree_draws_itself() -> None:
    tree = load_tree(str(REPO / "sample_trees" / "aima-fig5-2.yaml"))
    nodes = svg_nodes(tree._repr_svg_())
    assert len(nodes) == 13
    assert not any({"evaluated", "pruned", "pv"} & set(g.get("class", "").split()) for g in nodes)


def test_a_large_tree_draws_its_top() -> None:
    big = uniform_tree(4, 7)
    depth = top_depth(big)
    assert depth == 4  # 1 + 4 + 16 + 64 + 256 = 341 nodes; with the next level, 1,365
    assert len(svg_nodes(big._repr_svg_())) <= MAX_NOTEBOOK_NODES


def test_result_shows_its_table_and_its_search() -> None:
    tree = load_tree(str(REPO / "sample_trees" / "aima-fig5-2.yaml"))
    result = search(tree, "alphabeta", alpha=1, beta=10)
    assert result.tree is tree
    html = result._repr_html_()
    assert '<table class="gtsearch-result">' in html
    assert re.search(r"<th[^>]*>value</th><td[^>]*>3</td>", html)
    assert re.search(r"<th[^>]*>PV</th><td[^>]*>B → b1</td>", html)
    assert "alphabeta (alpha=1 beta=10)" in html
    svg = html.split('<div class="gtsearch-tree">', 1)[1].rsplit("</div>", 1)[0]
    nodes = svg_nodes(svg)
    assert sum("evaluated" in g.get("class", "") for g in nodes) == 7
    assert sum("pruned" in g.get("class", "") for g in nodes) == 2
    # without its tree, the table alone
    alone = result._replace(tree=None)._repr_html_()
    assert alone.startswith("<table") and "<svg" not in alone
    assert "tree=<13 nodes>" in repr(result) and "Tree(" not in repr(result)


# -- the notebook in a kernel ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def executed() -> Any:
    import nbclient  # the mark "extra" on the test made sure of the notebook extra
    import nbformat

    os.environ.setdefault("JUPYTER_PLATFORM_DIRS", "1")  # jupyter_core's future paths, no warning
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    if os.environ.get("GTSEARCH_UPDATE_NOTEBOOK"):
        nbformat.write(nb, NOTEBOOK)
    return nb


def outputs(nb: Any) -> list[list[Any]]:
    return [cell.outputs for cell in nb.cells if cell.cell_type == "code"]


def data(outs: list[Any], mime: str) -> str:
    found = [o["data"][mime] for o in outs if "data" in o and mime in o["data"]]
    assert len(found) == 1, [list(o.get("data", {})) for o in outs]
    return str(found[0])


def text(outs: list[Any]) -> str:
    return "".join(o["text"] for o in outs if o["output_type"] == "stream")


@pytest.mark.slow
@pytest.mark.extra("notebook")
def test_the_notebook_runs_and_shows_the_library(executed: Any) -> None:
    cells = outputs(executed)
    assert not [o for outs in cells for o in outs if o["output_type"] == "error"]
    tree, result, printed, types, big, exercise, mcts = cells
    assert len(svg_nodes(data(tree, "image/svg+xml"))) == 13
    html = data(result, "text/html")
    assert re.search(r"<th[^>]*>value</th><td[^>]*>3</td>", html)
    assert "<th" in html and "7 of 9 evaluated" in html and "<svg" in html
    assert text(printed) == "3 ('B', 'b1') 7 of 9\n"
    assert "'C': 'CUT', 'c1': 'ALL'" in text(types)
    labels = r'class="node-type"[^>]*>(?:PV|CUT|ALL)\*?<'  # one a node, by position
    assert len(re.findall(labels, data(types, "image/svg+xml"))) == 9
    big_html = data(big, "text/html")
    assert "1,093" not in big_html and "alphabeta" in big_html
    picture = big_html.split('<div class="gtsearch-tree">', 1)[1].rsplit("</div>", 1)[0]
    assert len(svg_nodes(picture)) < 40  # collapsed: the PV and its siblings
    assert "What value does alpha-beta return for the root A?  ->  22" in text(exercise)
    assert len(svg_nodes(data(exercise, "image/svg+xml"))) == 15
    # mcts: the trace's four phases, then the search tree drawn with its numbers
    lines = text(mcts).splitlines()
    assert lines[0] == "mcts on AIMA 5.2: root A is MAX, 13 nodes, 9 leaves"
    assert "      iteration 4" in lines and lines[-1].startswith("      result: value ≈ 14")
    assert any(
        line.startswith("  10  select at A (MAX, n=3): B (n=1, q=0.500, UCB 1.982)")
        for line in lines
    )
    html = data(mcts, "text/html")
    assert "n=" not in html and "6 · .500" in html and "unvisited" in html
