"""The vectorised bare-form reader gives the very trees the formats' own readers give."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.errors import TreeFormatError
from gtsearch.formats import FORMATS, dump_tree, find_format, loads_tree
from gtsearch.formats.bare import parse_bare
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

from .strategies import trees

SYNTAX = {"json": ("[", "]", ","), "yaml": ("[", "]", ", "), "sexp": ("(", ")", " ")}
ORIGINAL = {
    f.name: __import__(f"gtsearch.formats.{m}", fromlist=["parse"]).parse
    for f, m in zip(FORMATS, ("yamlfmt", "jsonfmt", "sexp"), strict=False)
}


def bare_text(nested: object, fmt: str, space: str = "") -> str:
    """Nested lists written in a format's bare syntax, without recursion worries (small trees)."""
    opening, closing, sep = SYNTAX[fmt]
    if isinstance(nested, list):
        return (
            opening + space + sep.join(bare_text(c, fmt, space) for c in nested) + space + closing
        )
    return repr(nested) if isinstance(nested, float) else str(nested)


@settings(max_examples=300, deadline=None)
@given(trees, st.sampled_from(["json", "yaml", "sexp"]), st.sampled_from(["", " ", "\n  "]))
def test_same_tree_as_the_general_reader(nested: object, fmt: str, space: str) -> None:
    text = bare_text(nested, fmt, space)
    general = ORIGINAL[fmt](text, "t")
    fast = parse_bare(text, fmt, "t", 10**9)
    if fast is None:  # only floats the general reader spells differently may fall back
        assert any(c in text for c in "e.") or fmt != "json"
        return
    assert fast == general
    assert fast.n_leaves == general.n_leaves
    assert list(fast.depth) == list(general.depth)


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_generated_trees(fmt: str) -> None:
    tree = uniform_tree(3, 6, seed=4)
    text = dump_tree(tree, fmt)
    fast = parse_bare(text, fmt, "t", 10**9)
    assert fast is not None and fast == tree == ORIGINAL[fmt](text, "t")


@pytest.mark.parametrize(
    "fmt,text",
    [
        ("json", "[[1,2],[3,-4.5e3]]"),
        ("json", "[0,-0,7]"),
        ("json", "5"),
        ("yaml", "[1, 2.5]"),
        ("sexp", "((1 2) (3 -4.25))"),
        ("sexp", "(1(2)3)"),
        ("json", " [ [ 1 ] ]\n"),
    ],
)
def test_accepted(fmt: str, text: str) -> None:
    fast = parse_bare(text, fmt, "t", 10**9)
    assert fast is not None and fast == ORIGINAL[fmt](text, "t")


@pytest.mark.parametrize(
    "fmt,text",
    [
        ("json", "[]"),
        ("json", "[[1,2],]"),
        ("json", "[1 2]"),
        ("json", "[1,,2]"),
        ("json", "[01]"),
        ("json", "[1]]"),
        ("json", "[[1]"),
        ("json", "[1],[2]"),
        ("json", "[1e400]"),
        ("json", "[+1]"),
        ("json", "[1-2]"),
        ("json", "[-]"),
        ("json", '["a"]'),
        ("json", "[1.]"),
        ("json", "[9007199254740993]"),
        ("yaml", "[1e5]"),
        ("yaml", "[010]"),
        ("yaml", "- 1"),
        ("yaml", "[1, 2] # c"),
        ("yaml", "---\n[1]"),
        ("sexp", "()"),
        ("sexp", "(1 . 2)"),
        ("sexp", "(a 1)"),
        ("sexp", "(1))"),
        ("sexp", "(1 2"),
        ("sexp", "(1e5)"),
        ("json", ""),
        ("json", "\u00e9"),
        ("json", "[1]\ufeff"),
    ],
)
def test_declined(fmt: str, text: str) -> None:
    assert parse_bare(text, fmt, "t", 10**9) is None


def test_node_limit_is_checked_before_building() -> None:
    text = "[" + ",".join(["[1,2,3]"] * 1000) + "]"  # 8,000 characters, 4,001 nodes
    with pytest.raises(TreeFormatError, match="more than 500 nodes; raise --max-nodes") as e:
        parse_bare(text, "json", "t.json", 500)
    # node 500 is the '3' of the 125th "[1,2,3]" (node 0 is the outer '[', each group has 4)
    assert (e.value.line, e.value.column) == (1, 1 + (1 + 8 * 124 + 5))


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_large_texts_take_the_fast_path_through_loads_tree(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gtsearch.formats.bare as fast

    tree = uniform_tree(4, 8, seed=9)  # 87,381 nodes: over FAST_MIN_CHARS in every format
    calls = []
    real = fast.parse_bare
    monkeypatch.setattr(fast, "parse_bare", lambda *a: calls.append(a[1]) or real(*a))
    with core.pure():  # the compiled core's reader would take the text before the vectorised one
        assert loads_tree(dump_tree(tree, fmt), fmt) == tree
    assert calls == [fmt]
    assert find_format(fmt).parse(dump_tree(tree, fmt), "t") == tree


def test_deep_chain() -> None:
    depth = 100_000
    text = "[" * depth + "7" + "]" * depth
    tree = parse_bare(text, "json", "t", 10**9)
    assert tree is not None and tree.n_nodes == depth + 1 and tree.max_depth() == depth
    assert Tree.from_nested(7).to_nested() == tree.to_nested(depth)
