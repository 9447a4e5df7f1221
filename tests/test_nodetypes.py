"""Knuth & Moore's node types: their rule on best-first trees, and show --node-types (docs/algorithms.md)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch import load_tree
from gtsearch.algorithms.explored import (
    ALL,
    CUT,
    PV,
    knuth_moore_types,
    minimal_tree_counts,
    search_types,
)
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.render.svg import to_dot, to_svg
from gtsearch.render.view import build_view
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

REPO = Path(__file__).resolve().parent.parent
AIMA = str(REPO / "sample_trees" / "aima-fig5-2.yaml")


def textbook(tree: Tree) -> dict[int, str]:
    """Knuth & Moore's rule written out again, recursively, from the paper's three sentences."""
    out: dict[int, str] = {}

    def visit(n: int, kind: str) -> None:
        out[n] = kind
        kids = list(tree.children(n))
        if kind == PV:  # type 1: the first child is type 1, the others type 2
            for i, c in enumerate(kids):
                visit(c, PV if i == 0 else CUT)
        elif kind == CUT and kids:  # type 2: only the first child, of type 3
            visit(kids[0], ALL)
        else:  # type 3: every child is type 2
            for c in kids:
                visit(c, CUT)

    visit(0, PV)
    return out


@pytest.mark.parametrize("b", [2, 3, 4])
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_alphabeta_on_a_best_first_tree_finds_knuth_and_moores_types(b: int, d: int) -> None:
    for seed in range(3):
        tree = uniform_tree(b, d, seed=seed, order="best")
        expected = textbook(tree)
        assert knuth_moore_types(tree) == expected
        view = build_view(tree, "alphabeta", node_types=True)
        assert view.node_types == expected
        # the nodes typed are exactly the nodes alpha-beta searched: the minimal tree
        assert set(expected) == {n for n in range(tree.n_nodes) if view.searched[n]}
        counts = Counter(expected.values())
        formula = minimal_tree_counts(b, d)
        assert {k: counts[k] for k in (PV, CUT, ALL)} == formula
        leaves = [n for n in expected if tree.is_leaf(n)]
        assert len(leaves) == b ** ((d + 1) // 2) + b ** (d // 2) - 1 == view.result.leaves


def test_the_counts_by_level() -> None:
    """Per level k: 1 PV node, b^⌈k/2⌉ − 1 CUT nodes, b^⌊k/2⌋ − 1 ALL nodes (b = 3, d = 4)."""
    tree = uniform_tree(3, 4, seed=5, order="best")
    types = knuth_moore_types(tree)
    for k in range(5):
        level = Counter(t for n, t in types.items() if tree.depth[n] == k)
        cut = 3 ** ((k + 1) // 2) - 1
        alls = 3 ** (k // 2) - 1 if k else 0
        assert (level[PV], level[CUT], level[ALL]) == (1, cut, alls)
    assert minimal_tree_counts(3, 4) == {PV: 5, CUT: 2 + 2 + 8 + 8, ALL: 0 + 2 + 2 + 8}


@pytest.mark.parametrize("algo", ["sss", "dual", "negascout", "scout", "mt-sss", "mtdf"])
def test_other_algorithms_on_best_first_trees(algo: str) -> None:
    """They too search the minimal tree there, so the types they find are Knuth & Moore's."""
    for b, d in ((2, 4), (3, 3), (4, 2)):
        tree = uniform_tree(b, d, seed=1, order="best")
        view = build_view(tree, algo, node_types=True)
        assert view.node_types == textbook(tree)
        assert view.type_notes == {}  # each behaved as its type says


def test_types_on_the_aima_tree() -> None:
    """Types by position; D, a CUT node, is searched to its last leaf: no cutoff, said so."""
    tree = load_tree(AIMA)
    view = build_view(tree, "alphabeta", node_types=True)
    named = {tree.names[n]: t for n, t in (view.node_types or {}).items()}
    assert named == {
        "A": PV, "B": PV, "b1": PV, "b2": CUT, "b3": CUT,
        "C": CUT, "c1": ALL,
        "D": CUT, "d1": ALL,
    }  # fmt: skip
    notes = {tree.names[n]: t for n, t in (view.type_notes or {}).items()}
    assert notes == {
        "D": "no cutoff: all 3 children searched",
        "d2": "not in the minimal tree, searched",
        "d3": "not in the minimal tree, searched",
    }


def by_path(tree: Tree, found: dict[int, str] | None) -> dict[str, str]:
    return {".".join(map(str, tree.path_of(n))) or "root": v for n, v in (found or {}).items()}


# Worked by hand from Knuth & Moore's rule (type by position) and the trees' alpha-beta traces
# (Meeden's lecture notes, Wikipedia's figure, and the Stockman-style tree's trace in
# sample_trees/): every note a node gets, and the types of the nodes the issue named.
LITERATURE = {
    "stockman-binary-d4.sexp": (
        {"0": PV, "0.0": PV, "0.0.0": PV, "0.0.1": CUT, "0.1": CUT, "1": CUT, "1.0": ALL},
        {
            "0.1": "no cutoff: all 2 children searched",
            "0.1.1": "not in the minimal tree, searched",
            "1": "no cutoff: all 2 children searched",
            "1.0.1": "no cutoff: all 2 children searched",
            "1.0.1.1": "not in the minimal tree, searched",
            "1.1": "not in the minimal tree, searched",
        },
    ),
    "meeden-alphabeta.yaml": (
        {"0": PV, "0.1": CUT, "0.2": CUT, "1": CUT, "1.0": ALL, "2": CUT, "2.0": ALL},
        {
            "0.2": "no cutoff: all 2 children searched",
            "0.2.1": "not in the minimal tree, searched",
            "2": "no cutoff: all 2 children searched",
            "2.1": "not in the minimal tree, searched",
        },
    ),
    "wikipedia-alphabeta.json": (
        {"0.0.1": CUT, "0.0.1.0": ALL, "0.1": CUT, "0.1.0": ALL, "1": CUT, "2": CUT},
        {
            "0.0.1": "cut only after 2 of 3 children",
            "0.0.1.1": "not in the minimal tree, searched",
            "1": "no cutoff: all 2 children searched",
            "1.1": "not in the minimal tree, searched",
        },
    ),
}


@pytest.mark.parametrize("name", sorted(LITERATURE))
def test_types_and_what_alphabeta_did_on_trees_from_the_literature(name: str) -> None:
    tree = load_tree(str(REPO / "sample_trees" / name))
    view = build_view(tree, "alphabeta", node_types=True)
    types, notes = LITERATURE[name]
    found = by_path(tree, view.node_types)
    assert {p: found[p] for p in types} == types
    assert found == by_path(tree, textbook(tree))  # the rule, on any tree
    assert by_path(tree, view.type_notes) == notes
    # the trace enters every PV node with (-inf, +inf), as Knuth & Moore's type 1 says
    assert "entered with" not in " ".join((view.type_notes or {}).values())


def test_a_pv_node_entered_with_a_window_says_so() -> None:
    tree = load_tree(AIMA)
    view = build_view(tree, "alphabeta", node_types=True, alpha=1, beta=20)
    assert (view.type_notes or {})[0] == "entered with α = 1, β = 20"


def test_no_types_on_chance_trees() -> None:
    tree = load_tree(str(REPO / "sample_trees" / "chance-worked.yaml"))
    with pytest.raises(UsageError, match="node types are defined for trees of two players"):
        build_view(tree, "star1", node_types=True)
    result = CliRunner().invoke(
        cli, ["show", str(REPO / "sample_trees" / "chance-worked.yaml"), "--node-types"]
    )
    assert result.exit_code == 2 and "chance nodes" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_bounds_decide_cut_and_all() -> None:
    """A node proved only ≥ at MAX (≤ at MIN) is CUT; only ≤ at MAX (≥ at MIN) is ALL."""
    # root MAX: the first MIN child is worth 6 (α = 6); the second MIN child's first child X
    # (MAX) searches both its MIN children, each cut at once (1 ≤ 6, 2 ≤ 6): X is proved
    # only ≤ 2, against MAX, so ALL; the second MIN child is proved ≤ 2 and the 30 is cut: CUT
    tree = Tree.from_nested([[[5, 6]], [[[1, 9], [2, 9]], 30]])
    view = build_view(tree, "alphabeta")
    types = search_types(tree, view.rank, view.pv)
    second = tree.child(0, 1)
    x = tree.child(second, 0)
    low, high = tree.child(x, 0), tree.child(x, 1)
    assert [view.range_text(n) for n in (second, x, low, high)] == ["≤ 2", "≤ 2", "≤ 1", "≤ 2"]
    assert [types[n] for n in (second, x, low, high)] == [CUT, ALL, CUT, CUT]
    # exact nodes off the PV follow their parent: leaves below a CUT node are ALL
    assert types[tree.child(low, 0)] == ALL and tree.child(low, 1) not in types


def test_search_types_takes_any_evaluated_leaves() -> None:
    tree = Tree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    everything = [n for n in range(tree.n_nodes) if tree.is_leaf(n)]
    types = search_types(tree, everything, [0, 1, 2])
    assert types[0] == PV and types[1] == PV and types[5] == CUT and types[9] == CUT
    assert sorted(types) == list(range(tree.n_nodes))


def test_show_node_types() -> None:
    result = CliRunner().invoke(cli, ["show", AIMA, "--node-types"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "A  MAX  = 3  ★  [PV]" in out
    assert "C  MIN  ≤ 2  cutoff: 2 ≤ α = 3  [CUT]" in out
    assert "c1  2  ● #4  [ALL]" in out
    assert "c2  4  ✂ pruned\n" in out  # no type
    assert out.rstrip().endswith(
        "Knuth & Moore's node types 1, 2, 3 by position; after a colon, what the search did "
        "otherwise"
    )
    assert "D  MIN  = 2  [CUT: no cutoff: all 3 children searched]" in out
    plain = CliRunner().invoke(cli, ["show", AIMA], env={"COLUMNS": "200"}).stdout
    assert "[PV]" not in plain and "node types" not in plain


def test_pictures_show_node_types() -> None:
    view = build_view(load_tree(AIMA), "alphabeta", node_types=True)
    svg = to_svg(view)
    assert len(re.findall(r'class="node-type"[^>]*>(PV|CUT|ALL)\*?<', svg)) == 9
    dot = to_dot(view)
    assert 'label="C\\n≤ 2\\n[CUT]"' in dot
    assert "node-type" not in to_svg(build_view(load_tree(AIMA), "alphabeta"))
