"""gtsearch.tree: the flat preorder tree, its builder and its derived views."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

from gtsearch.builder import TreeBuilder
from gtsearch.errors import GtsearchError, TreeFormatError
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
    with pytest.raises(TreeFormatError, match="duplicate name 'x'"):
        b.leaf(1, name="x")
    with pytest.raises(TreeFormatError, match="malformed name"):
        b.leaf(1, name="a\nb")
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
