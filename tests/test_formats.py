"""Tests of gtsearch.formats: the three readers and writers, bad inputs, deep trees, round trips."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import string
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.builder import TreeBuilder
from gtsearch.errors import GtsearchError, TreeFormatError
from gtsearch.formats import (
    FAST_MIN_CHARS,
    FORMATS,
    dump_tree,
    find_format,
    format_for_path,
    jsonfmt,
    load_tree,
    loads_tree,
    read_text,
    sexp,
    sniff_format,
    yamlfmt,
)
from gtsearch.tree import DEFAULT_MAX_NODES, Meta, Tree

from .work import measured

CASES = Path(__file__).parent / "cases"
BAD = CASES / "bad"
GOOD = CASES / "formats"
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
#: the formats that keep every feature of a tree (Gambit's .efg: tests/test_efg.py)
LOSSLESS = [f for f in FORMATS if f.lossless]
NAMES = [f.name for f in LOSSLESS]


def build(spec: Any, *, root_max: bool = True, meta: Meta | None = None) -> Tree:
    """A tree from the JSON-like full form as Python data (a test helper; small trees only)."""
    b = TreeBuilder("<test>")

    def walk(s: Any) -> None:
        if isinstance(s, dict):
            if "children" in s:
                b.open(s.get("name"), s.get("value"))
                for c in s["children"]:
                    walk(c)
                b.close()
            else:
                b.leaf(s["value"], s.get("name"))
        elif isinstance(s, list):
            b.open()
            for c in s:
                walk(c)
            b.close()
        else:
            b.leaf(s)

    walk(spec)
    return b.finish(root_max=root_max, meta=meta)


def fmt(name: str) -> Any:
    return find_format(name)


# -- the registry ---------------------------------------------------------------------------------
def test_registry() -> None:
    assert NAMES == ["yaml", "json", "sexp"]
    assert [f.name for f in FORMATS] == [*NAMES, "efg"]
    assert find_format("YML").name == "yaml"
    assert find_format("lisp").name == "sexp"
    with pytest.raises(
        GtsearchError, match="unknown format 'xml'; choose one of yaml, json, sexp, efg"
    ):
        find_format("xml")
    for f, module in zip(FORMATS, (yamlfmt, jsonfmt, sexp), strict=False):
        assert (f.name, f.extensions) == (module.NAME, module.EXTENSIONS)
        assert f.parse("[1, 2]" if f.name != "sexp" else "(1 2)") == Tree.from_nested([1, 2])
        assert f.dump(Tree.from_nested([1, 2])) == module.dump(Tree.from_nested([1, 2]))
    assert dump_tree(Tree.from_nested([1, 2]), "yml") == "[1, 2]\n"
    assert loads_tree("(1 2)", "lisp") == Tree.from_nested([1, 2])


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("t.yaml", "yaml"),
        ("t.YML", "yaml"),
        ("t.json", "json"),
        ("t.json.gz", "json"),
        ("dir.d/t.sexp", "sexp"),
        ("t.lisp", "sexp"),
        ("t.scm", "sexp"),
        ("t.sx.gz", "sexp"),
        ("t.txt", None),
        ("-", None),
        ("t.gz", None),
    ],
)
def test_format_for_path(path: str, name: str | None) -> None:
    found = format_for_path(path)
    assert (found.name if found else None) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("((3 12 8) (2 4 6))", "sexp"),
        ("; comment\n  (1 2)", "sexp"),
        ("[[1, 2], [3]]", "json"),
        ('\ufeff  {"tree": [1]}', "json"),
        ("# a comment\n[1, 2]", "yaml"),  # JSON has no comments: that is YAML
        ("- 1\n- 2\n", "yaml"),
        ("tree: [1]", "yaml"),
        ("", "yaml"),
    ],
)
def test_sniff_format(text: str, name: str) -> None:
    assert sniff_format(text).name == name


# -- reading files --------------------------------------------------------------------------------
def test_read_text_plain_gzip_bom(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"\xef\xbb\xbf[1, 2]\n")
    assert read_text(str(tmp_path / "a.json")) == "[1, 2]\n"
    (tmp_path / "b.json.gz").write_bytes(gzip.compress('[1, "é"]'.encode()))
    assert read_text(str(tmp_path / "b.json.gz")) == '[1, "é"]'
    (tmp_path / "c.yaml").write_bytes(gzip.compress(b"[1, 2]"))  # gzip magic without .gz
    assert load_tree(str(tmp_path / "c.yaml")) == Tree.from_nested([1, 2])
    with pytest.raises(TreeFormatError, match="value 'é' is a string"):
        load_tree(str(tmp_path / "b.json.gz"), input_format="yaml")


def test_read_errors(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.json")
    with pytest.raises(TreeFormatError) as e:
        read_text(missing)
    assert str(e.value) == f"{missing}: cannot read the file: no such file or directory"
    with pytest.raises(TreeFormatError, match="cannot read the file: is a directory"):
        read_text(str(tmp_path))
    (tmp_path / "u.yaml").write_bytes("- 1\n- 'é'\n".encode("latin-1"))
    with pytest.raises(TreeFormatError) as e:
        read_text(str(tmp_path / "u.yaml"))
    assert str(e.value).endswith("u.yaml:2:4: not UTF-8 text: byte 0xe9 cannot be decoded")


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(b"((3 12 8) (2 4 6) (14 5 2))"))
    t = load_tree("-")
    assert t == Tree.from_nested(AIMA) and t.source == "<stdin>"
    monkeypatch.setattr(sys, "stdin", _Stdin(gzip.compress(b"[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")))
    assert load_tree("-") == Tree.from_nested(AIMA)
    monkeypatch.setattr(sys, "stdin", _Stdin(b"[1, x]"))
    with pytest.raises(TreeFormatError) as e:
        load_tree("-", input_format="json")
    assert str(e.value) == "<stdin>:1:5: expected a value, got 'x'"
    monkeypatch.setattr(sys, "stdin", io.StringIO("- 1\n- 2\n"))  # a stand-in without .buffer
    assert load_tree("-") == Tree.from_nested([1, 2])


def test_source_is_the_path_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.sexp").write_text("(1 2)", encoding="utf-8")
    assert load_tree("t.sexp").source == "t.sexp"
    assert loads_tree("[1]", "json").source == "<input>"
    assert loads_tree("[1]", "json", "x.json").source == "x.json"


# -- the forms, by example ------------------------------------------------------------------------
BARE = {
    "yaml": "# AIMA\n[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n",
    "json": "[[3,12,8],[2,4,6],[14,5,2]]",
    "sexp": "; AIMA\n((3 12 8) (2 4 6) (14 5 2))\n",
}
BARE_BLOCK_YAML = "- [3, 12, 8]\n- - 2\n  - 4\n  - 6\n- - 14\n  - 5\n  - 2\n"

FULL_SPEC = {
    "name": "A",
    "children": [
        {"name": "B", "value": 5, "children": [{"name": "b1", "value": 3}, 12, 8]},
        {"value": 2.0, "children": [2, -4.5, {"name": "c3", "value": 6}]},
        [14, 5, 2],
    ],
}
FULL_META = Meta(title="AIMA Figure 5.2", description="two plies", expect=3, root="min")
FULL = {
    "yaml": """\
# the AIMA tree, annotated
root: min
title: AIMA Figure 5.2
description: two plies
expect: 3
tree:
  name: A
  children:
  - name: B           # a MIN node with a static value
    value: 5
    children: [{name: b1, value: 3}, 12, 8]
  - {value: 2.0, children: [2, -4.5, {value: 6, name: c3}]}
  - - 14
    - 5
    - 2
""",
    "json": """\
{"title": "AIMA Figure 5.2", "description": "two plies", "expect": 3, "root": "min",
 "tree": {"children": [
    {"name": "B", "value": 5, "children": [{"name": "b1", "value": 3}, 12, 8]},
    {"children": [2, -4.5, {"value": 6, "name": "c3"}], "value": 2.0},
    [14, 5, 2]], "name": "A"}}
""",
    "sexp": """\
; the AIMA tree, annotated
(tree :root min :title "AIMA Figure 5.2"
      :description "two plies" :expect 3
  (A (B :value 5 (b1 . 3) 12 8)
     (:value 2.0 2 -4.5 (c3 :value 6))
     (14 5 2)))
""",
}


@pytest.mark.parametrize("name", NAMES)
def test_bare_form(name: str) -> None:
    t = fmt(name).parse(BARE[name], "t")
    assert t == Tree.from_nested(AIMA)
    assert t.names == {} and t.meta == Meta() and t.root_max


def test_bare_form_yaml_block() -> None:
    assert yamlfmt.parse(BARE_BLOCK_YAML) == Tree.from_nested(AIMA)


@pytest.mark.parametrize("name", NAMES)
def test_full_form(name: str) -> None:
    t = fmt(name).parse(FULL[name], "t")
    expected = build(FULL_SPEC, root_max=False, meta=FULL_META)
    assert t == expected
    assert t.to_nested() == [[3, 12, 8], [2, -4.5, 6], [14, 5, 2]]
    assert t.names == {0: "A", 1: "B", 2: "b1", 8: "c3"}
    assert t.static(1) == 5 and t.static(5) == 2.0 and isinstance(t.static(5), float)
    assert t.static(0) is None and t.static(9) is None
    assert t.meta == FULL_META and not t.root_max


def test_yaml_names_are_text_and_values_keep_their_kind() -> None:
    t = yamlfmt.parse(
        "name: 1\nchildren: [{name: yes, value: 2.0}, {name: '3', value: 0x10}, 1_000]\n"
    )
    assert t.names == {0: "1", 1: "yes", 2: "3"}
    assert t.to_nested() == [2.0, 16, 1000]
    assert isinstance(t.number(1), float) and isinstance(t.number(2), int)
    t = yamlfmt.parse("title: 2024\ndescription: no\ntree: [1.0e+3, -0.5, 190:20]\n")
    assert t.meta.title == "2024" and t.meta.description == "no"
    assert t.to_nested() == [1000.0, -0.5, 11420]  # YAML 1.1 sexagesimal, as PyYAML reads it


def test_json_numbers() -> None:
    t = jsonfmt.parse("[2.0, 2, -0, 1e2, 1E-2, -3.25e+1, 9007199254740992]")
    assert [type(v).__name__ for v in t.to_nested()] == [
        "float",
        "int",
        "int",
        "float",
        "float",
        "float",
        "int",
    ]
    assert t.to_nested() == [2.0, 2, 0, 100.0, 0.01, -32.5, 2**53]


def test_sexp_atoms() -> None:
    t = sexp.parse('("a b" +3 -0.5 1e2 (x . -2) (y :value 4) (:value 1.5 7) ("q\\"\\u00e9" . 1))')
    assert t.to_nested() == [3, -0.5, 100.0, -2, 4, [7], 1]
    assert t.names == {0: "a b", 4: "x", 5: "y", 8: 'q"é'}
    assert t.static(6) == 1.5
    # a root named "tree" must be wrapped; inside, "tree" is an ordinary name
    t = sexp.parse("(tree (tree 1 (tree2 . 2)))")
    assert t.names == {0: "tree", 2: "tree2"} and t.meta == Meta()


def test_single_leaf_trees() -> None:
    for name in NAMES:
        for v in (3, -2.5):
            t = fmt(name).parse(f"{v}\n")
            assert t == Tree.from_nested(v)
            assert fmt(name).parse(fmt(name).dump(t)) == t


def test_bom_and_crlf() -> None:
    assert jsonfmt.parse("\ufeff[1,\r\n2]") == Tree.from_nested([1, 2])
    assert yamlfmt.parse("\ufeff- 1\r\n- 2\r\n") == Tree.from_nested([1, 2])
    assert sexp.parse("\ufeff(1\r\n2)") == Tree.from_nested([1, 2])


def test_yaml_flow_document_details() -> None:
    text = (
        "--- # a flow document\n"
        "[1, 'two''s' , {name: \"x\\ty\", value: 3}, 4, ]  # end\n...\n# bye\n"
    )
    with pytest.raises(TreeFormatError, match='value "two\'s" is a string'):
        yamlfmt.parse(text)
    t = yamlfmt.parse('{"name":"a",children: [1, {name: b c, value: -2}],}\n')
    assert t.names == {0: "a", 2: "b c"} and t.to_nested() == [1, -2]
    t = yamlfmt.parse("[1, # one\n  2]")
    assert t.to_nested() == [1, 2]


@pytest.mark.parametrize(
    "text",
    [
        "{children:[1]}",
        "{value :[1]}",
        "{value\n: 1}",
        "\t[1]",
        "[a\x85b]",
        "[-]",
        "[1]\n... # c\n",
        "{'value':1}",
        "[1,\n\t2]",
        "[a\n b]",
        "[&x 1, *x]",
        "[!!int 1]",
        "[? a]",
    ],
)
def test_flow_reader_agrees_with_libyaml_on_edge_cases(text: str) -> None:
    test_flow_reader_agrees_with_libyaml.hypothesis.inner_test(text)  # type: ignore[attr-defined]


def test_yaml_block_nodes_read_at_once_or_event_by_event() -> None:
    text = (
        "- {name: a, value: 1}\n- {name: b, value: 2, children: [3]}\n"
        "- {name: c, children: [4]}\n- {value: 5, name: d}\n- name: e\n  value: 6.5\n"
        "- {name: f, value: 7}\n"
    )
    t = yamlfmt.parse(text)
    assert t == jsonfmt.parse(
        '[{"name": "a", "value": 1}, {"name": "b", "value": 2, "children": [3]},'
        ' {"name": "c", "children": [4]}, {"value": 5, "name": "d"}, {"name": "e", "value": 6.5},'
        ' {"name": "f", "value": 7}]'
    )
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse("- {name: a, value: 1}\n- {name: b, value: x}\n")
    assert str(e.value) == "<input>:2:20: value 'x' is a string, expected a number"
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse("- {name: a, value: 1}\n- {name: a, children: [2]}\n")
    assert (
        str(e.value) == "<input>:2:10: duplicate name 'a': sibling nodes must have different names"
    )
    # the same name below another parent, or on a parent and its child, is another node's
    t = yamlfmt.parse(
        "name: a\nchildren:\n- {name: a, children: [{name: a, value: 1}]}\n- [{name: a, value: 2}]\n"
    )
    assert t.names == {0: "a", 1: "a", 2: "a", 4: "a"}


# -- YAML aliases, tags, documents ----------------------------------------------------------------
def test_yaml_aliases_repeat_subtrees() -> None:
    t = yamlfmt.parse("tree:\n- &a [1, [2, 3]]\n- *a\n- &v 4\n- {value: *v, children: *a}\n")
    assert t.to_nested() == [[1, [2, 3]], [1, [2, 3]], 4, [1, [2, 3]]]
    assert t.static(12) == 4 and t.names == {}
    t = yamlfmt.parse(
        "- name: n\n  children: &kids [5, 6]\n- *kids\n- {name: m, children: *kids}\n"
    )
    assert t.to_nested() == [[5, 6], [5, 6], [5, 6]] and t.names == {1: "n", 7: "m"}
    # flow documents with anchors go through libyaml
    assert yamlfmt.parse("[&x [1, 2], *x]").to_nested() == [[1, 2], [1, 2]]


@pytest.mark.parametrize(
    ("text", "nested"),
    [
        # an anchored weights list repeated as another chance node's weights
        (
            "- chance: [3, 4]\n  weights: &w [1, 3]\n- chance: [5, 6]\n  weights: *w\n",
            [{"chance": [3, 4], "weights": [1, 3]}, {"chance": [5, 6], "weights": [1, 3]}],
        ),
        # a node's children repeated as a chance node's outcomes, its weights given first
        (
            "- name: a\n  children: &k [3, 4]\n- weights: [1, 3]\n  chance: *k\n",
            [[3, 4], {"chance": [3, 4], "weights": [1, 3]}],
        ),
        # a list node's children repeated as a chance node's outcomes
        ("- &s [3, 4]\n- chance: *s\n", [[3, 4], {"chance": [3, 4]}]),
    ],
)
def test_yaml_aliases_of_chance_outcomes_and_weights(text: str, nested: Any) -> None:
    assert loads_tree(text, "yaml").to_nested() == nested


def test_yaml_alias_expansion_counts_against_the_limit() -> None:
    text = "- &a [1, 2, 3]\n- [*a, *a, *a]\n"
    assert len(yamlfmt.parse(text, max_nodes=18)) == 18
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse(text, max_nodes=17)
    assert str(e.value) == (
        "<input>:2:12: the tree has more than 17 nodes once aliases are "
        "expanded; raise --max-nodes to load it"
    )


def test_billion_laughs_fails_fast() -> None:
    lines = ["tree:", "- &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"- &{cur} [{', '.join(['*' + prev] * 10)}]")
    # refused before anything expands: about 900 calls and 10 KB; expanding even 100,000 of
    # its 10**10 nodes would take more calls or memory than that
    with measured(max_calls=20_000) as work:
        with pytest.raises(TreeFormatError, match="--max-nodes"):
            yamlfmt.parse("\n".join(lines) + "\n")
    assert work.peak < 1 << 20, work


@pytest.mark.parametrize(
    "text",
    [
        "!!python/object/apply:os.system ['true']\n",
        "- !!int '3'\n",
        "- !custom 3\n",
        "tree: !!seq [1]\n",
        "[1, !!float 2]\n",
    ],
)
def test_yaml_tags_refused(text: str) -> None:
    with pytest.raises(TreeFormatError, match=r"tag '!.*' is not allowed"):
        yamlfmt.parse(text)


@pytest.mark.parametrize("text", ["- 1\n---\n- 2\n", "[1]\n--- [2]\n", "--- [1]\n...\n---\n[2]\n"])
def test_yaml_several_documents(text: str) -> None:
    with pytest.raises(TreeFormatError, match="several YAML documents: a file holds one tree"):
        yamlfmt.parse(text)


# -- writers --------------------------------------------------------------------------------------
def test_bare_writers() -> None:
    t = Tree.from_nested(AIMA)
    assert jsonfmt.dump(t) == "[[3,12,8],[2,4,6],[14,5,2]]\n"
    assert yamlfmt.dump(t) == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"
    assert sexp.dump(t) == "((3 12 8) (2 4 6) (14 5 2))\n"
    t = Tree.from_nested([2.0, -0.0, 1e300, 5e-324, 3])
    assert jsonfmt.dump(t) == "[2.0,-0.0,1e+300,5e-324,3]\n"
    assert yamlfmt.dump(t) == "[2.0, -0.0, 1.0e+300, 5.0e-324, 3]\n"
    assert sexp.dump(t) == "(2.0 -0.0 1e+300 5e-324 3)\n"


def test_full_writers() -> None:
    t = build(FULL_SPEC, root_max=False, meta=FULL_META)
    assert sexp.dump(t) == (
        '(tree\n  :root min\n  :title "AIMA Figure 5.2"\n  :description "two plies"\n  :expect 3\n'
        "  (A (B :value 5 (b1 . 3) 12 8) (:value 2.0 2 -4.5 (c3 . 6)) (14 5 2)))\n"
    )
    assert json.loads(jsonfmt.dump(t))["tree"]["children"][1] == {
        "value": 2.0,
        "children": [2, -4.5, {"name": "c3", "value": 6}],
    }
    assert yamlfmt.dump(t) == (
        "root: min\ntitle: AIMA Figure 5.2\ndescription: two plies\nexpect: 3\ntree:\n  name: A\n"
        "  children:\n  - {name: B, value: 5, children: [{name: b1, value: 3}, 12, 8]}\n"
        "  - {value: 2.0, children: [2, -4.5, {name: c3, value: 6}]}\n  - [14, 5, 2]\n"
    )
    # root is written when MIN or when the file stated it
    assert "root" not in jsonfmt.dump(build([1, {"name": "x", "value": 2}]))
    assert '"root": "max"' in jsonfmt.dump(build([1], meta=Meta(root="max")))


def test_long_nodes_break_lines() -> None:
    t = Tree.from_nested([list(range(i, i + 30)) for i in range(0, 90, 30)])
    for name in NAMES:
        text = fmt(name).dump(t)
        assert text.count("\n") > 3 and max(map(len, text.splitlines())) < 140
        assert fmt(name).parse(text) == t


@pytest.mark.parametrize("path", sorted(p.name for p in GOOD.iterdir()) if GOOD.exists() else [])
def test_good_case_files(path: str) -> None:
    t = load_tree(str(GOOD / path))
    for name in NAMES:
        assert fmt(name).parse(fmt(name).dump(t)) == t


# -- round trips ----------------------------------------------------------------------------------
TRICKY_NAMES = [
    "tree",
    "nil",
    "yes",
    "No",
    "1",
    "-1",
    "1e3",
    "0x1F",
    ".inf",
    "inf",
    "NaN",
    "a b",
    'q"uote',
    "back\\slash",
    ":value",
    "#t",
    ".",
    "(x)",
    "é",
    "名前",
    "a,b",
    "a: b",
    "- x",
    "~",
    "null",
    "#c",
    "'",
    "x;y",
    "[1]",
    "{a}",
    " lead",
    "trail ",
    "*star",
    "&amp",
    "!bang",
    "%pct",
    "@at",
    "`tick",
    "|",
    ">",
    "?q",
    "2001-12-14",
    "<<",
    "=",
]
TRICKY_TEXTS = [
    "",
    " ",
    "line\nbreak",
    "tab\there",
    "\x00nul",
    "\x85nel",
    "\u2028",
    "é",
    "\U0001f600",
    "# not a comment",
    "'single'",
    '"double"',
    "\\",
    "trailing\n",
    "\r\n",
    "\ufeffbom",
]

names_st = st.one_of(
    st.sampled_from(TRICKY_NAMES),
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn", "Zl", "Zp")),
        min_size=1,
        max_size=6,
    ).filter(str.isprintable),
)
texts_st = st.one_of(st.sampled_from(TRICKY_TEXTS), st.text(max_size=20))
numbers_st = st.one_of(
    st.integers(-20, 20),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.5, -1.25, 2.0, -0.0, 1e300, 5e-324, 1e16, 123456789.125]),
)


weights_st = st.integers(0, 2**53) | st.floats(0, 1e300) | st.sampled_from([0, 0.1, 2.5, 1e-300])


@st.composite
def full_trees(draw: st.DrawFn) -> Tree:
    """Random trees with names on some nodes, static values, floats, chance nodes with and
    without weights, a MIN root and metadata."""
    shape = draw(
        st.recursive(st.just(0), lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=25)
    )
    b = TreeBuilder("<random>")
    #: the names taken among the siblings of each open level (names repeat across levels)
    used: list[set[str]] = [set()]

    def name() -> str | None:
        if not draw(st.booleans()):
            return None
        n = draw(names_st)
        while n in used[-1]:
            n += "'"
        used[-1].add(n)
        return n

    stack: list[Any] = [iter([shape])]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            used.pop()
            if stack:
                b.close()
            continue
        if isinstance(item, list):
            static = draw(numbers_st) if draw(st.booleans()) else None
            if draw(st.integers(0, 3)) == 0:  # a chance node, with or without weights
                weights = draw(
                    st.none() | st.lists(weights_st, min_size=len(item), max_size=len(item))
                )
                if weights is not None and not any(weights):
                    weights[0] = 1
                b.open_chance(name(), static, weights)
            else:
                b.open(name(), static)
            stack.append(iter(item))
            used.append(set())
        else:
            b.leaf(draw(numbers_st), name())
    root = draw(st.sampled_from([None, "max", "min"]))
    meta = Meta(
        title=draw(st.none() | texts_st),
        description=draw(st.none() | texts_st),
        expect=draw(st.none() | numbers_st),
        root=root,
    )
    return b.finish(root_max=root != "min", meta=meta)


def _check_round_trips(t: Tree) -> None:
    for a in LOSSLESS:
        ta = a.parse(a.dump(t), "a")
        assert ta == t, (a.name, a.dump(t))
        for b in LOSSLESS:
            text = b.dump(ta)
            assert text.endswith("\n")
            assert b.parse(text, "b") == t, (a.name, b.name, text)


HAND_MADE = [
    build(FULL_SPEC, root_max=False, meta=FULL_META),
    build({"name": "only", "value": 1.5}),
    build([{"name": n, "value": i} for i, n in enumerate(TRICKY_NAMES)]),
    build([1]),
    *[build([1, 2], meta=Meta(title=t, description=t[::-1])) for t in TRICKY_TEXTS],
    build({"name": "tree", "children": [1, {"name": "tree2", "value": 2}]}),
    build({"name": "tree", "value": 5}),
    Tree.from_nested([[[[[[[1]]]]]], [2.5, [-3]]]),
    build(
        [list(range(40)), {"name": "x" * 100, "value": 1, "children": list(range(50))}],
        meta=Meta(title="t" * 200),
    ),
]


@pytest.mark.parametrize("index", range(len(HAND_MADE)))
def test_round_trip_hand_made(index: int) -> None:
    _check_round_trips(HAND_MADE[index])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_trees())
def test_round_trip_random(t: Tree) -> None:
    _check_round_trips(t)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_trees())
def test_writers_write_standard_json_and_yaml(t: Tree) -> None:
    json.loads(jsonfmt.dump(t))  # valid JSON for the standard module too
    text = yamlfmt.dump(t)
    assert yamlfmt.parse_events(text, "y") == t  # valid YAML for libyaml, read the same
    yaml.safe_load(text)


# -- deep and big trees ---------------------------------------------------------------------------
DEEP = 100_000


def _chain(depth: int) -> dict[str, str]:
    return {
        "json": "[" * depth + "1" + "]" * depth,
        "sexp": "(" * depth + "1" + ")" * depth,
        "yaml": "[" * depth + "1" + "]" * depth,
        "yaml-block": "- " * depth + "1\n",
    }


@pytest.mark.parametrize("kind", ["json", "sexp", "yaml", "yaml-block"])
def test_deep_chain(kind: str) -> None:
    text = _chain(DEEP)[kind]
    f = fmt(kind.split("-")[0])
    t = f.parse(text, "deep")
    assert len(t) == DEEP + 1 and t.max_depth() == DEEP and t.number(DEEP) == 1
    out = f.dump(t)
    assert f.parse(out, "again") == t
    # work linear in the depth: 4 times the levels, at most 4 times the calls to read, write
    # and read again (both depths over the 1,000 levels from which deep flow YAML has a reader
    # of its own); the time itself is measured by benchmarks/hostile.py
    calls = []
    for depth in (1_200, 4_800):
        text = _chain(depth)[kind]
        with measured(memory=False) as work:
            f.parse(f.dump(f.parse(text, "deep")), "again")
        calls.append(work.calls)
    assert calls[1] <= 4 * calls[0], calls


@pytest.mark.parametrize("name", NAMES)
def test_deep_named_tree_round_trips(name: str) -> None:
    b = TreeBuilder()
    for i in range(20_000):
        b.open(f"n{i}", i if i % 3 else None)
    b.leaf(0.5, "last")
    for _ in range(20_000):
        b.close()
    t = b.finish(root_max=False, meta=Meta(title="deep", root="min"))
    assert fmt(name).parse(fmt(name).dump(t)) == t


@pytest.mark.parametrize("kind", ["json", "sexp", "yaml", "yaml-block"])
def test_million_deep_chain_streams_into_the_node_limit(kind: str) -> None:
    """A 1,000,000-deep chain loads (no depth limit, nothing recurses); here the node limit
    stops it after 200,000 levels, which shows that it streams without recursion."""
    text = _chain(1_000_000)[kind]
    with pytest.raises(TreeFormatError, match="more than 200,000 nodes; raise --max-nodes"):
        fmt(kind.split("-")[0]).parse(text, "deep", max_nodes=200_000)


def test_yaml_deep_flow_with_anchor_is_refused_clearly() -> None:
    text = "[" * 2000 + "&a 1" + "]" * 2000
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse(text, "deep.yaml")
    assert str(e.value).startswith(
        "deep.yaml:1:2001: cannot read '&a 1]]]]]]]]]]]]]]]]' here: "
        "a flow collection nested 1,000 levels deep or more"
    )
    assert yamlfmt.parse("[" * 900 + "&a 1" + "]" * 900).max_depth() == 900  # shallow: libyaml


def test_yaml_deep_flow_tree_under_a_block_wrapper() -> None:
    deep = "[" * DEEP + "1" + "]" * DEEP
    t = yamlfmt.parse(f"# deep\nroot: min\ntitle: deep\ntree: {deep}  # the tree\nexpect: 1\n")
    assert len(t) == DEEP + 1 and not t.root_max
    assert t.meta == Meta(title="deep", expect=1, root="min")
    t = yamlfmt.parse(f"tree:\n  {deep}\n")
    assert len(t) == DEEP + 1
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse(f"colour: red\ntree: {deep}\n")  # the wrapper's own error comes first
    assert str(e.value).startswith("<input>:1:1: unknown key 'colour'")
    with pytest.raises(TreeFormatError) as e:
        yamlfmt.parse("tree: " + deep[:-1] + "\n")
    assert str(e.value).startswith(
        "<input>:1:200007: unexpected end of input: the collection opened at 1:7"
    )
    text = "tree:\n- " + deep + "\n"  # deep flow inside block style: libyaml would take minutes
    with pytest.raises(TreeFormatError, match=r"2:10002: flow collections nested 10,000 levels"):
        yamlfmt.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "title: x\ntree: [1, [2, 3]]\nexpect: 3\n",
        "root: min\ntree: # c\n  [1,\n 2]  # end\n",
        "tree:\n[1]\n",
        'title: "a\ntree: [1]\nb"\ntree: [2]\n',
        "tree: [1, yes]\n",
        "colour: red\ntree: [1, yes]\n",
        "tree: [1]\ncolour: red\n",
        "tree: [1]\n  x: 2\n",
        "tree: [1] , x\n",
        "tree: [&a 1, *a]\n",
        "title: &t x\ndescription: *t\ntree: [1]\n",
        "name: a\ntree: [1]\n",
        "tree: {name: a, children: [1]}\n",
        "tree: {title: x, tree: [1]}\n",
        "tree: [1]\ntree: [2]\n",
        "tree: [1]\n---\n[2]\n",
        "root: [x]\ntree: [1]\n",
    ],
)
def test_yaml_block_wrapper_with_flow_tree_agrees_with_libyaml(text: str) -> None:
    test_flow_reader_agrees_with_libyaml.hypothesis.inner_test(text)  # type: ignore[attr-defined]
    try:
        mine = yamlfmt.parse(text, "f")
    except TreeFormatError as e:
        with pytest.raises(TreeFormatError) as theirs:
            yamlfmt.parse_events(text, "f")
        assert str(e) == str(theirs.value)
    else:
        assert mine == yamlfmt.parse_events(text, "f")


def test_big_bare_json_is_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    import gtsearch.formats.bare as bare

    read: list[tuple[str, bool]] = []
    real = bare.parse_bare

    def spy(text: str, name: str, source: str, max_nodes: int) -> Tree | None:
        tree = real(text, name, source, max_nodes)
        read.append((name, tree is not None))
        return tree

    monkeypatch.setattr(bare, "parse_bare", spy)
    t = Tree.from_nested(
        [[[list(range(j, j + 10)) for j in range(10)] for _ in range(10)] for _ in range(100)]
    )  # 111,111 nodes
    for name in NAMES:
        text = fmt(name).dump(t)
        read.clear()
        with core.pure():  # the compiled core's reader takes the text before the vectorised one
            assert fmt(name).parse(text) == t
        assert read == [(name, True)]  # by the vectorised reader, not token by token


# -- bad input ------------------------------------------------------------------------------------
BAD_CASES = sorted(p.name for p in BAD.iterdir() if not p.name.endswith(".expected"))


def test_enough_bad_cases() -> None:
    assert len(BAD_CASES) >= 30
    for ext in (".json", ".yaml", ".sexp"):
        assert sum(c.endswith(ext) for c in BAD_CASES) >= 10


@pytest.mark.parametrize("name", BAD_CASES)
def test_bad_case(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    expected = (BAD / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")
    with pytest.raises(TreeFormatError) as e:
        load_tree(name)
    assert str(e.value) == expected


# -- fuzzing: a Tree or a TreeFormatError, nothing else -------------------------------------------
ALPHABET = "[]{}(),:;.#&*!'\"\\-+ \n\t0123456789eE.abxyz_~|>%@`"


def _tree_or_format_error(f: Any, text: str) -> None:
    try:
        t = f.parse(text, "fuzz", max_nodes=10_000)
    except TreeFormatError as e:
        assert str(e).startswith("fuzz")
        assert e.message == e.message.strip() and "\n" not in e.message
        return
    assert isinstance(t, Tree)


@st.composite
def mutated(draw: st.DrawFn, name: str) -> str:
    text = fmt(name).dump(draw(full_trees()))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 5)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        piece = draw(st.text(ALPHABET, min_size=1, max_size=3))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "replace":
            text = text[:i] + piece + text[j:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_mutations(name: str, data: st.DataObject) -> None:
    _tree_or_format_error(fmt(name), data.draw(mutated(name)))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.text(ALPHABET, max_size=40) | st.text(max_size=20))
def test_fuzz_random_text(name: str, text: str) -> None:
    _tree_or_format_error(fmt(name), text)


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=60))
def test_fuzz_bytes(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.bin"
    path.write_bytes(data)
    for name in NAMES:
        with contextlib.suppress(TreeFormatError):
            load_tree(str(path), input_format=name, max_nodes=1000)


# The flow reader must read what libyaml reads, and refuse what it refuses.
FLOW_SCALARS = [
    "1",
    "-2",
    "0",
    "2.5",
    "-0.5",
    "1.0e+3",
    "1e3",
    "0x1F",
    "0o17",
    "1_000",
    "+3",
    "012",
    "yes",
    "no",
    "~",
    "null",
    "true",
    ".inf",
    "-.inf",
    ".nan",
    "abc",
    "a b",
    "a:b",
    "a#b",
    "'1'",
    "'it''s'",
    '"x\\ty"',
    '"\\u00e9"',
    '"2"',
    "190:20",
    "2001-12-14",
    "-",
    "- 1",
    "name",
    "value",
    "children",
    "tree",
    "title",
    "root",
    "max",
    "min",
    "expect",
    "[-]",
    "-a",
    "a\n b",
    "'a\n b'",
    "&x 1",
    "*x",
    "!!int 3",
    "? a",
    "a  b",
    "é",
]


@st.composite
def flow_texts(draw: st.DrawFn) -> str:
    def node(depth: int) -> str:
        kind = draw(st.sampled_from(["scalar", "list", "map"] if depth < 3 else ["scalar"]))
        if kind == "scalar":
            return draw(st.sampled_from(FLOW_SCALARS))
        if kind == "list":
            items = [node(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            sep = draw(st.sampled_from([", ", ",", " ,\n ", ", # c\n"]))
            trail = draw(st.sampled_from(["", ",", ", "]))
            return "[" + sep.join(items) + (trail if items else "") + "]"
        keys = draw(
            st.lists(
                st.sampled_from(
                    [
                        "name",
                        "value",
                        "children",
                        "tree",
                        "title",
                        "root",
                        "expect",
                        "'name'",
                        '"value"',
                        "foo",
                    ]
                ),
                max_size=3,
            )
        )
        colon = draw(st.sampled_from([": ", ":", " : ", "\n: ", ":\n  "]))
        return "{" + ", ".join(k + colon + node(depth + 1) for k in keys) + "}"

    return (
        draw(st.sampled_from(["", "# c\n", "--- ", "---\n"]))
        + node(0)
        + draw(st.sampled_from(["", "\n", " # end\n", "\n...\n", "\n---\n[1]\n"]))
    )


@settings(max_examples=300, deadline=None)
@given(flow_texts())
def test_flow_reader_agrees_with_libyaml(text: str) -> None:
    try:
        mine: Any = yamlfmt.parse(text, "f")
    except TreeFormatError as e:
        mine = e
    try:
        theirs: Any = yamlfmt.parse_events(text, "f")
    except TreeFormatError as e:
        theirs = e
    if isinstance(theirs, Tree):
        assert mine == theirs, text
    else:
        assert isinstance(mine, TreeFormatError), (text, mine)


def test_messages_are_one_lower_case_line() -> None:
    for name in BAD_CASES:
        message = (BAD / f"{name}.expected").read_text(encoding="utf-8")
        assert message.count("\n") == 1
        text = message.split(": ", 1)[1]
        assert text[0] in string.ascii_lowercase or text[0] in "'\"", message


# -- chance nodes ---------------------------------------------------------------------------------
CHANCE_EXAMPLES = {
    "json": '{"name": "A", "children": [{"name": "roll", "chance": [[4, 6], [2, 8]], '
    '"weights": [1, 3]}, {"chance": [1, 2.5, 3]}]}',
    "yaml": "name: A\nchildren:\n- name: roll\n  weights: [1, 3]\n  chance:\n  - [4, 6]\n"
    "  - [2, 8]\n- {chance: [1, 2.5, 3]}\n",
    "sexp": "(A (roll :chance :weights (1 3) (4 6) (2 8)) (:chance 1 2.5 3))",
}


def test_chance_nodes_read_alike_in_every_format() -> None:
    trees = {name: fmt(name).parse(text, name) for name, text in CHANCE_EXAMPLES.items()}
    assert trees["json"] == trees["yaml"] == trees["sexp"]
    t = trees["json"]
    assert repr(t) == "Tree(((* :weights (1 3) (4 6) (2 8)) (* 1 2.5 3)))"
    assert t.names == {0: "A", 1: "roll"} and t.weights == {1: (1, 3)}
    _check_round_trips(t)
    # a static value and a name on a chance node, and a chance root, survive too
    b = TreeBuilder("s")
    b.open_chance(name="die", static=3.5, weights=[1, 1, 1, 1, 1, 1.0])
    for face in range(1, 7):
        b.leaf(face)
    b.close()
    _check_round_trips(b.finish(root_max=False, meta=Meta(root="min")))


def test_the_vectorised_reader_never_takes_a_chance_node() -> None:
    """Large documents try the bare-form reader first; a chance node sends them to the format's."""
    from gtsearch.formats.bare import parse_bare

    leaves = ", ".join(["1"] * 60_000)
    docs = {
        "json": f'[[{leaves}], {{"chance": [1, 2]}}]',
        "yaml": f"[[{leaves}], {{chance: [1, 2]}}]",
        "sexp": f"(({leaves.replace(',', '')}) (:chance 1 2))",
    }
    for name, text in docs.items():
        assert len(text) >= FAST_MIN_CHARS
        assert parse_bare(text, name, "big", DEFAULT_MAX_NODES) is None, name
        t = fmt(name).parse(text, "big")
        assert t.chance_nodes() == 1 and t.n_leaves == 60_002


def test_the_chance_examples_of_the_docs_are_one_tree() -> None:
    """docs/formats.md, "Chance nodes": the YAML, JSON and s-expression examples."""
    import re

    page = (Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text("utf-8")
    section = page.split("\n## Chance nodes\n", 1)[1].split("\n## ", 1)[0]
    blocks = dict(re.findall(r"```(yaml|json|lisp)\n(.*?)```", section, flags=re.S))
    trees = [
        fmt(name).parse(blocks[kind])
        for name, kind in (("yaml", "yaml"), ("json", "json"), ("sexp", "lisp"))
    ]
    assert trees[0] == trees[1] == trees[2]
    assert repr(trees[0]) == "Tree(((* :weights (1 3) (4 6) (2 8)) (* 1 2.5 3)))"
    assert trees[0].names == {0: "A", 1: "roll", 2: "low", 5: "high"}


def test_sexp_wrapper_lays_the_tree_out_from_its_indentation() -> None:
    """The tree inside (tree ...) starts at column 2: a tree 76 characters wide still fits on
    that line (79 columns), one 78 wide is broken, its children's lines indented from there."""
    leaves = " ".join(str(n) for n in range(10, 33))
    tree = loads_tree(f'(tree :title "t" ((1 2) ({leaves})))', "sexp")
    assert len(f"((1 2) ({leaves}))") == 78
    assert dump_tree(tree, "sexp") == f'(tree\n  :title "t"\n  ((1 2)\n   ({leaves})))\n'
    fits = f"((1 23) ({leaves.removesuffix(' 32')}))"
    assert len(fits) == 76
    tree = loads_tree(f'(tree :title "t" {fits})', "sexp")
    assert dump_tree(tree, "sexp") == f'(tree\n  :title "t"\n  {fits})\n'


def test_sexp_node_limit_is_placed_at_the_leaf_past_it() -> None:
    """A leaf read on its own (a float, not a run of small integers) that passes --max-nodes
    is where the error points."""
    with pytest.raises(TreeFormatError) as e:
        sexp.parse("(1.5 2.5 3.5 4.5)", max_nodes=3)
    assert (
        str(e.value) == "<input>:1:10: the tree has more than 3 nodes; raise --max-nodes to load it"
    )
    with pytest.raises(TreeFormatError) as e:  # the first child, read with the node's head
        sexp.parse("(x 1.5 2.5)", max_nodes=1)
    assert (
        str(e.value) == "<input>:1:4: the tree has more than 1 nodes; raise --max-nodes to load it"
    )


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_a_limit_beyond_64_bits_is_no_limit(fmt: str) -> None:
    """load_tree(max_nodes=10**30) reads the file: the C readers take 64 bits, and a limit no
    tree can reach was once passed to them as it is (OverflowError)."""
    text = {"json": "[[3, 12], [2, 4]]", "yaml": "- [3, 12]\n- [2, 4]\n", "sexp": "((3 12) (2 4))"}
    tree = loads_tree(text[fmt], fmt, max_nodes=10**30)
    assert tree.to_nested() == [[3, 12], [2, 4]]
