"""summary.py: what `gtsearch validate` counts, on hand-made trees."""

from __future__ import annotations

from gtsearch.builder import TreeBuilder
from gtsearch.summary import summarize
from gtsearch.tree import Meta, Tree


def test_bare_tree() -> None:
    s = summarize(Tree.from_nested([[3, 12, 8], [2, 4], [[14, 5], 2, 1, 0]]))
    assert s == {
        "nodes": 15,
        "leaves": 10,
        "internal": 5,
        "depth": 3,
        "branching_min": 2,
        "branching_mean": 2.8,
        "branching_max": 4,
        "root": "max",
        "names": 0,
        "static_values": 0,
        "title": None,
        "expect": None,
    }


def test_full_tree() -> None:
    b = TreeBuilder()
    b.open(name="root", static=1)
    b.leaf(1, "x")
    b.open(static=2.5)
    b.leaf(2)
    b.close()
    b.close()
    tree = b.finish(root_max=False, meta=Meta(title="t", expect=1))
    s = summarize(tree)
    assert (s["nodes"], s["leaves"], s["internal"], s["depth"]) == (4, 2, 2, 2)
    assert (s["branching_min"], s["branching_mean"], s["branching_max"]) == (1, 1.5, 2)
    assert (s["root"], s["names"], s["static_values"], s["title"], s["expect"]) == (
        "min",
        2,
        2,
        "t",
        1,
    )


def test_single_leaf() -> None:
    s = summarize(Tree.from_nested(7))
    assert (s["nodes"], s["leaves"], s["internal"], s["depth"]) == (1, 1, 0, 0)
    assert s["branching_min"] is None and s["branching_mean"] is None and s["branching_max"] is None
