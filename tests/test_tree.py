"""gtsearch.tree: the flat preorder tree, its builder and its derived views."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings

from gtsearch.builder import TreeBuilder
from gtsearch.errors import GtsearchError, TreeFormatError
from gtsearch.summary import summarize
from gtsearch.tree import Meta, Tree

from .strategies import trees


@settings(max_examples=200, deadline=None)
@given(trees)
def test_nested_round_trip_and_paths(nested: object) -> None:
    tree = Tree.from_nested(nested)
    assert tree.to_nested() == nested
    paths = tree.paths_of(range(tree.n_nodes))
    for n in range(tree.n_nodes):
        path = tree.path_of(n)
        assert tuple(path) == paths[n]
        assert tree.node_at(path) == n
        assert tree.depth[n] == len(path)
        if n:
            assert tree.node_at(path[:-1]) == tree.parent[n]
    assert tree.n_leaves == sum(1 for n in range(tree.n_nodes) if tree.is_leaf(n))


def test_shape_and_repr() -> None:
    tree = Tree.from_nested([[3, 12, 8], [2, 4.5, 6], 7])
    assert tree.n_nodes == 10 and tree.n_leaves == 7 and len(tree) == 10
    assert list(tree.children(0)) == [1, 5, 9]
    assert tree.child(0, 2) == 9
    assert repr(tree) == "Tree(((3 12 8) (2 4.5 6) 7))"
    assert repr(tree.with_root(False)) == "Tree(((3 12 8) (2 4.5 6) 7), root=min)"
    assert tree.number(2) == 3 and isinstance(tree.number(2), int)
    assert tree.number(7) == 4.5
    assert tree.static(0) is None
    assert tree.max_depth() == 2
    assert tree.is_max(0) and not tree.is_max(1) and not tree.with_root(False).is_max(0)
    assert tree.paths_of([8, 2]) == {2: (0, 0), 8: (1, 2)}


def test_truncated_uses_static_values() -> None:
    b = TreeBuilder("t")
    b.open(name="A")
    b.open(name="B", static=5)
    b.leaf(1)
    b.leaf(2)
    b.close()
    b.leaf(9, name="c")
    b.close()
    tree = b.finish(meta=Meta(title="x"))
    cut = tree.truncated(1)
    assert cut.to_nested() == [5, 9]
    assert cut.names == {0: "A", 1: "B", 2: "c"} and cut.meta == Meta(title="x")
    assert tree.truncated(5) == tree
    with pytest.raises(GtsearchError, match="no static value"):
        tree.truncated(0)
    with pytest.raises(GtsearchError, match="0 or more"):
        tree.truncated(-1)


@pytest.mark.parametrize(
    "value,message",
    [
        (True, "boolean"),
        (None, "null"),
        ("3", "not a number"),
        (math.nan, "not a finite number"),
        (math.inf, "not a finite number"),
        (10**400, "too large"),
        (2**53 + 1, "too large"),
    ],
)
def test_builder_refuses_bad_values(value: object, message: str) -> None:
    b = TreeBuilder("t.json")
    b.open()
    with pytest.raises(TreeFormatError, match=message) as e:
        b.leaf(value, line=2, column=5)
    assert str(e.value).startswith("t.json:2:5: ")


def test_builder_refuses_bad_names_empty_lists_and_size() -> None:
    b = TreeBuilder("t")
    b.open(name="x")
    b.leaf(1, name="x")  # a child may have its parent's name: only siblings' names differ
    with pytest.raises(TreeFormatError, match="duplicate name 'x': sibling nodes must have"):
        b.leaf(1, name="x")
    with pytest.raises(TreeFormatError, match="malformed name"):
        b.leaf(1, name="a\nb")
    b = TreeBuilder("t")
    b.open()
    with pytest.raises(TreeFormatError, match="empty list"):
        b.close()
    small = TreeBuilder("t", max_nodes=2)
    small.open()
    small.leaf(1)
    with pytest.raises(TreeFormatError, match="more than 2 nodes; raise --max-nodes"):
        small.leaf(2)
    with pytest.raises(TreeFormatError, match="holds no tree"):
        TreeBuilder("t").finish()


def test_meta_equality_and_repr() -> None:
    assert Meta(title="a") == Meta(title="a") != Meta(title="b")
    assert Meta().extra == {} and "title='a'" in repr(Meta(title="a"))


# -- chance nodes ---------------------------------------------------------------------------------
def test_chance_nodes_who_moves_and_probabilities() -> None:
    # MAX root; C1 (weights 1, 3) over two MIN nodes; C2 (equally likely) over a leaf and a
    # chance node whose outcomes are moved by MIN too (chance under chance changes nobody's turn)
    tree = Tree.from_nested(
        [{"chance": [[4, 6], [2, 8]], "weights": [1, 3]}, {"chance": [1, {"chance": [[2, 3]]}]}]
    )
    assert tree.has_chance and tree.chance_nodes() == 3
    assert repr(tree) == "Tree(((* :weights (1 3) (4 6) (2 8)) (* 1 (* (2 3)))))"
    c1, m1, c2 = 1, 2, 8
    assert [tree.is_chance(n) for n in (0, c1, m1, c2)] == [False, True, False, True]
    assert tree.probabilities(c1) == (Fraction(1, 4), Fraction(3, 4))
    assert tree.probabilities(c2) == (Fraction(1, 2), Fraction(1, 2))
    assert tree.is_max(0) and not tree.is_max(m1)
    inner = tree.node_at([1, 1, 0])  # the decision node below the chance node below C2
    assert not tree.is_max(inner) and tree.depth[inner] == 3
    assert tree.with_root(False).is_max(inner)
    assert tree.to_nested() == [
        {"chance": [[4, 6], [2, 8]], "weights": [1, 3]},
        {"chance": [1, {"chance": [[2, 3]]}]},
    ]
    assert Tree.from_nested(tree.to_nested()) == tree
    # a chance root: the root player moves right below it
    root = Tree.from_nested({"chance": [[1, 2], [3, 4]]}, root_max=False)
    assert not root.is_max(1) and root.is_max(2)
    # weights count as the decimals they are written as; 1 and 1.0 are written differently
    tenths = Tree.from_nested({"chance": [1, 2, 3], "weights": [0.1, 0.2, 0.7]})
    assert tenths.probabilities(0) == (Fraction(1, 10), Fraction(1, 5), Fraction(7, 10))
    ones = Tree.from_nested({"chance": [1, 2], "weights": [1, 1]})
    assert ones != Tree.from_nested({"chance": [1, 2], "weights": [1, 1.0]})
    assert ones != Tree.from_nested({"chance": [1, 2]}) != Tree.from_nested([1, 2])
    assert not Tree.from_nested([1, 2]).has_chance and Tree.from_nested([1, 2]).chance is None


def test_chance_nodes_truncated_and_summarised() -> None:
    b = TreeBuilder("t")
    b.open(name="A")
    b.open_chance(name="C", static=2, weights=[1, 2])
    b.leaf(1)
    b.open(static=6)
    b.leaf(5)
    b.close()
    b.close()
    b.open_chance(name="D", static=4)
    b.leaf(3)
    b.close()
    b.close()
    tree = b.finish()
    # a chance node at the depth limit with a static value is a leaf; above it, it stays one
    cut = tree.truncated(1)
    assert repr(cut) == "Tree((2 4))" and not cut.has_chance
    kept = tree.truncated(2)
    assert repr(kept) == "Tree(((* :weights (1 2) 1 6) (* 3)))"
    assert kept.weights == {1: (1, 2)} and kept.names == {0: "A", 1: "C", 4: "D"}
    with pytest.raises(GtsearchError, match=r"node \$\[1\] at the depth limit 1"):
        Tree.from_nested([1, {"chance": [1]}]).truncated(1)
    s = summarize(tree)
    assert (s["chance_nodes"], s["weighted"], s["internal"]) == (2, 1, 4)
    assert "chance_nodes" not in summarize(Tree.from_nested([1, 2]))


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([1, -1], "weight -1 is negative: weights are non-negative numbers"),
        ([0, 0.0], "the weights add up to 0: a chance node needs a positive total weight"),
        ([1, math.inf], "weight inf is not a finite number"),
        ([1, "2"], "weight '2' is not a number"),
        ([1, True], "weight true is a boolean, expected a number"),
        ([1, 2**60], "weight 1152921504606846976 is too large"),
        ([], "the weights list is empty"),
        ([1, 2, 3], "one weight per child is needed: 3 weights for 2 children"),
        ([1], "one weight per child is needed: 1 weight for 2 children"),
        (3, "weights must be a list of numbers, got 3"),
    ],
)
def test_builder_checks_weights(weights: object, message: str) -> None:
    for late in (False, True):  # weights before the children, or after them
        b = TreeBuilder("w")
        with pytest.raises(TreeFormatError, match=re.escape(message)):
            n = b.open_chance(weights=None if late else weights)
            b.leaf(1)
            b.leaf(2)
            b.close()
            if late:
                b.set_weights(n, weights)


def test_builder_refuses_what_no_tree_can_hold() -> None:
    """TreeBuilder's own checks, for a reader (or a user) that hands it anything."""
    b = TreeBuilder("<t>")
    with pytest.raises(TreeFormatError, match=r"^<t>:2:5: name 3 is not a string$"):
        b.open(name=3, line=2, column=5)  # type: ignore[arg-type]
    with pytest.raises(TreeFormatError, match="static value nan is not a finite number"):
        TreeBuilder("<t>").open(static=float("nan"))
    with pytest.raises(TreeFormatError, match="unexpected end of input: a list is not closed"):
        b = TreeBuilder("<t>")
        b.open()
        b.leaf(1)
        b.finish()
    with pytest.raises(TreeFormatError, match="the file holds no tree"):
        TreeBuilder("<t>").finish()


def test_builder_copies_chance_nodes_with_their_weights() -> None:
    """copy() (a YAML alias) repeats a subtree with its chance nodes and weights."""
    b = TreeBuilder("<t>")
    b.open()
    b.open_chance(weights=[1, 3])
    b.leaf(2)
    b.leaf(6)
    b.close()
    b.copy(1)
    b.close()
    tree = b.finish()
    chance = {"chance": [2, 6], "weights": [1, 3]}
    assert tree.to_nested() == [chance, chance]
    assert tree.probabilities(4) == tree.probabilities(1) == (Fraction(1, 4), Fraction(3, 4))


def test_meta_and_tree_compare_only_with_their_kind() -> None:
    tree = Tree.from_nested([[1, 2], 3])
    assert Meta() != "meta" and (Meta() == object()) is False
    assert tree != [[1, 2], 3] and tree.__eq__(3) is NotImplemented
    assert tree != Tree.from_nested([[1, 2], 4]) and tree != Tree.from_nested([[1, 2], 3.0])
    assert tree != Tree.from_nested([[1, 2], 3], root_max=False)
    with pytest.raises(IndexError, match="node 1 has no child 2"):
        tree.child(1, 2)


def test_package_surface_and_the_pure_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """dir(gtsearch) is its public API; a checkout that is not installed has a version; a C
    core that does not import leaves the pure core."""
    import importlib.metadata
    import sys

    import gtsearch
    from gtsearch import core
    from gtsearch.flat import as_numpy

    assert dir(gtsearch) == sorted(gtsearch.__all__)
    saved = gtsearch.__dict__.pop("__version__", None)

    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    try:
        assert gtsearch.__version__ == "0+unknown"
    finally:
        gtsearch.__dict__.pop("__version__", None)
        if saved is not None:
            gtsearch.__dict__["__version__"] = saved
    monkeypatch.setitem(sys.modules, "gtsearch._native._core", None)
    monkeypatch.delattr("gtsearch._native._core", raising=False)
    assert core._import() is None
    assert as_numpy([1, 2, 3]).tolist() == [1, 2, 3]  # not an array.array: a copy
