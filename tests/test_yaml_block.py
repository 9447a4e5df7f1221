"""The C core's block YAML reader (load_block.c) against the Python reader (PyYAML's events).

Every document is read both ways: the C reader must give the very tree the Python reader
gives (names, values and their kinds, metadata, where ``expect`` stands) or decline, and
it must decline every document the Python reader refuses (which then words the error as
before).  Random block documents are written in every style the format allows (indentation
widths, sequences at their key's indentation or deeper, entries opening collections on
their line, comments and blank lines, quoting, folded and literal text, flow collections
inside) with numbers in every form YAML 1.1 has; the sample trees; what the C reader must
hand back (anchors, tags, block scalars where a node goes, several documents, tabs...); and
deep documents, which neither reader may answer with a crash.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.errors import TreeFormatError
from gtsearch.formats import dump_tree, yamlfmt
from gtsearch.formats.compiled import parse_compiled
from gtsearch.tree import Tree

from .test_native import plain_full_trees, same_tree

if core.pure_asked():
    pytest.skip("GTSEARCH_PURE is set: the pure core is forced", allow_module_level=True)
if core.native() is None:
    pytest.skip("the C core is not built (no C compiler at install time?)", allow_module_level=True)

SAMPLES = Path(__file__).parent.parent / "sample_trees"


def compared(text: str, max_nodes: int = 10**6) -> Tree | None:
    """The C reader's tree of ``text`` (None: declined), checked against the Python reader."""
    tree = parse_compiled(text, "yaml", "src", max_nodes)
    try:
        reference = yamlfmt.parse(text, "src", max_nodes=max_nodes)
    except TreeFormatError as e:
        assert tree is None, f"the C reader took what the Python reader refuses ({e}):\n{text}"
        return None
    assert tree is None or same_tree(tree, reference), text
    return tree


# -- random block documents ------------------------------------------------------------------
#: numbers as the C reader takes them: -?(0|[1-9][0-9]*)(\.[0-9]+)?
PLAIN_NUMBERS = (
    st.integers(-(2**53), 2**53).map(str)
    | st.integers(-999, 999).map(str)
    | st.decimals(-1000, 1000, places=3, allow_nan=False, allow_infinity=False).map(
        lambda d: str(d) if "E" not in str(d) else "0.5"
    )
    | st.sampled_from(["0", "-0", "0.0", "-0.0", "1.5", "-2.25", "3.0"])
)
#: every form YAML 1.1 gives a number, a boolean, null, a date, and strings that look alike
ODD_NUMBERS = st.sampled_from(
    [
        "+1",
        "007",
        "0o7",
        "0x1F",
        "-0x1f",
        "0b101",
        "+0b1",
        "1_000",
        "1:30",
        "-1:30:00",
        "190:20:30.15",
        "1.",
        ".5",
        "-.5",
        "+.5",
        "1.5e+3",
        "1e3",
        "1.0e3",
        "1E+3",
        "1.0e-3",
        "6.8523015e+5",
        "685.230_15e+03",
        ".inf",
        "-.Inf",
        "+.INF",
        ".NaN",
        "1_0.5",
        "0.",
        "yes",
        "No",
        "on",
        "OFF",
        "true",
        "False",
        "y",
        "n",
        "~",
        "null",
        "NULL",
        "",
        "2001-12-14",
        "9007199254740993",
        "-9007199254740993",
        "9007199254740992",
        "1" + "0" * 400 + ".0",
        "0" + "0" * 20,
        "'3'",
        '"3"',
        "3 # c",
        "3 #c",
        "3#c",
        "!!int 3",
        "&a 3",
        "*a",
        "3 ",
        "- 3",
        "3:",
        "[3]",
        "{}",
        "| 3",
        "> 3",
        "00.5",
        "-",
    ]  # fmt: skip
)
PLAIN_NAMES = st.text("abcxyz_019.-+/()", min_size=1, max_size=6).filter(
    lambda s: s[0].isalpha()
) | st.sampled_from(["a b", "A B c", "1", "yes", "null"])
ODD_NAMES = st.sampled_from(
    [
        '"x y"',
        "'x y'",
        "'it''s'",
        '"a\\tb"',
        '"a\\"b"',
        "-x",
        "&a x",
        "!!str x",
        "?x",
        "x: y",
        "x #c",
        "'",
        '"',
        "",
        " a",
        "a  b",
        "@x",
        "`x`",
        "%x",
        '"x":',
        "[x]",
        "{x}",
        "|",
        ">",
        "*x",
        "\u00e9",
        "a\tb",
        '"name"',
        "'1'",
        '""',
        "x,y",
        "a[1]",
        "a#b",
        "b1'",
        "~",
    ]  # fmt: skip
)


@st.composite
def nested_spec(draw: st.DrawFn, wild: bool) -> Any:
    """("leaf", value text, name text or None) or ("inner", name, static value, children)."""
    numbers = (PLAIN_NUMBERS | ODD_NUMBERS) if wild else PLAIN_NUMBERS
    names = (PLAIN_NAMES | ODD_NAMES) if wild else PLAIN_NAMES
    budget = [draw(st.integers(1, 25))]

    def node(depth: int) -> Any:
        budget[0] -= 1
        name = draw(st.none() | names)
        if budget[0] <= 0 or depth > 5 or draw(st.integers(0, 2)) == 0:
            return ("leaf", draw(numbers), name)
        kids = [node(depth + 1) for _ in range(draw(st.integers(1, 3)))]
        return ("inner", name, draw(st.none() | numbers), kids)

    return node(0)


def flow(spec: Any) -> str:
    if spec[0] == "leaf":
        _, value, name = spec
        return value if name is None else f"{{name: {name}, value: {value}}}"
    _, name, static, kids = spec
    items = "[" + ", ".join(flow(k) for k in kids) + "]"
    if name is None and static is None:
        return items
    keys = ([f"name: {name}"] if name is not None else []) + (
        [f"value: {static}"] if static is not None else []
    )
    return "{" + ", ".join([*keys, f"children: {items}"]) + "}"


@st.composite
def block_document(draw: st.DrawFn, wild: bool) -> str:
    """A tree file in block style, drawn from every way of writing one."""

    def lines(spec: Any, ind: int) -> list[str]:
        """The node as lines, its first at column ind."""
        sp = " " * ind
        style = draw(st.integers(0, 5))
        if style == 0:
            return [sp + flow(spec)]
        if spec[0] == "leaf":
            _, value, name = spec
            if name is None and style < 4:
                return [sp + value]
            keys = [f"value: {value}"] + ([f"name: {name}"] if name is not None else [])
            return [sp + k for k in draw(st.permutations(keys))]
        _, name, static, kids = spec
        if name is None and static is None and style < 4:
            return entries(kids, ind)
        keys = ([f"name: {name}"] if name is not None else []) + (
            [f"value: {static}"] if static is not None else []
        )
        groups = [[sp + k] for k in keys]
        if draw(st.booleans()):
            groups.append([sp + "children: [" + ", ".join(flow(k) for k in kids) + "]"])
        else:
            deeper = draw(st.sampled_from([0, 1, 2, 4]))
            groups.append([sp + "children:", *entries(kids, ind + deeper)])
        return [line for group in draw(st.permutations(groups)) for line in group]

    def entries(kids: list[Any], ind: int) -> list[str]:
        out: list[str] = []
        for kid in kids:
            if draw(st.integers(0, 4)) == 0:  # "-" alone, the node below
                out.append(" " * ind + "-")
                out.extend(lines(kid, ind + draw(st.integers(1, 3))))
                continue
            gap = draw(st.integers(1, 3))
            kid_lines = lines(kid, ind + 1 + gap)
            kid_lines[0] = " " * ind + "-" + " " * gap + kid_lines[0].lstrip(" ")
            out.extend(kid_lines)
        return out

    spec = draw(nested_spec(wild))
    doc: list[str] = []
    if draw(st.booleans()):
        doc.append("# " + draw(st.sampled_from(["a tree", "AIMA: 5.2", "- x", "tree:"])))
    if draw(st.booleans()):
        doc.append(draw(st.sampled_from(["---", "--- # the tree", "---  "])))
    if draw(st.integers(0, 3)) == 0:
        ind = draw(st.integers(0, 2))
        doc.extend(lines(spec, ind))
    else:
        fields: list[list[str]] = []
        if draw(st.integers(0, 4)) == 0:
            fields.append(["tree: " + flow(spec)])
        else:
            ind = draw(st.sampled_from([0, 1, 2, 4]))
            tree = lines(spec, ind)
            if not tree[0].startswith("-"):  # at the key's indentation: a sequence only
                tree = ["  " + line for line in tree]
            fields.append(["tree:", *tree])
        if draw(st.booleans()):
            fields.append(["root: " + draw(st.sampled_from(["max", "min", "'min'", '"max"']))])
        if draw(st.booleans()):
            fields.append(["expect: " + draw(PLAIN_NUMBERS if not wild else ODD_NUMBERS)])
        for key in ("title", "description"):
            if draw(st.booleans()):
                fields.append(text_field(draw, key, wild))
        for field in draw(st.permutations(fields)):
            doc.extend(field)
    if wild:
        doc = sprinkled(draw, doc)
    return "\n".join(doc) + draw(st.sampled_from(["\n", "", "\n\n", "\n# end\n"]))


def text_field(draw: st.DrawFn, key: str, wild: bool) -> list[str]:
    """title or description: plain, quoted, or folded or literal text over several lines."""
    words = st.text("abc xyz,.&'\"#:-", min_size=1, max_size=12).map(str.strip).filter(bool)
    style = draw(st.integers(0, 2))
    if style == 0:
        return [f"{key}: " + draw(st.sampled_from(["AIMA Figure 5.2, a tree", "x", "'a b'"]))]
    if style == 1:
        return [f'{key}: "{draw(words).replace(chr(34), "")}"']
    head = draw(st.sampled_from([">", ">-", "|", "|-"] + ([">+", "|2", "> # c"] if wild else [])))
    ind = draw(st.integers(1, 3))
    body: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        if body and draw(st.integers(0, 3)) == 0:
            body.append("")
        body.append(" " * ind + draw(words))
    return [f"{key}: {head}", *body]


def sprinkled(draw: st.DrawFn, doc: list[str]) -> list[str]:
    """Comments at the ends of lines and on lines of their own, blank lines, stray blanks."""
    out: list[str] = []
    for line in doc:
        kind = draw(st.integers(0, 9))
        if kind == 0:
            out.append(" " * draw(st.integers(0, 6)) + "# c")
        elif kind == 1:
            out.append("")
        elif kind == 2:
            line += draw(st.sampled_from([" # c", "  #c", "#c", " ", "\t", "\r"]))
        out.append(line)
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block_document(wild=True))
def test_any_block_document_gives_the_python_readers_tree_or_goes_to_it(text: str) -> None:
    compared(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block_document(wild=False))
def test_plain_block_documents_are_taken(text: str) -> None:
    """Plain numbers, names of word characters: the C reader takes them (unless a name repeats
    among siblings, which the Python reader refuses)."""
    try:
        yamlfmt.parse(text, "src")
    except TreeFormatError:
        assert parse_compiled(text, "yaml", "src", 10**6) is None
        return
    assert compared(text) is not None, text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_full_trees())
def test_the_writers_block_yaml_is_taken(tree: Tree) -> None:
    text = dump_tree(tree, "yaml")
    assert compared(text) is not None, text


BLOCK_ALPHABET = "- :#\n  '\"[]{},0123456789.namevluchildrtxp>|&*!?%~"


@settings(max_examples=400, deadline=None)
@given(st.text(BLOCK_ALPHABET, max_size=80))
def test_any_text_gives_the_same_tree_or_goes_to_the_python_reader(text: str) -> None:
    compared(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- 1",
                "- - 2",
                "-",
                "  - 3",
                "    - 4",
                "  -",
                "name: a",
                "  name: b",
                "value: 5",
                "  value: 6",
                "children:",
                "  children:",
                "tree:",
                "root: min",
                "expect: 1",
                "  [1, 2]",
                "- [1,",
                "  2]",
                "- {name: c, value: 1}",
                "# c",
                "",
                "---",
                "...",
                "title: >",
                "  folded",
                "description: |-",
                "   text",
                "children: [7]",
                "  children: [8, 9]",
                "    - name: d",
                "      value: 2",
            ]  # fmt: skip
        ),
        max_size=12,
    )
)
def test_any_lines_give_the_same_tree_or_go_to_the_python_reader(lines: list[str]) -> None:
    compared("\n".join(lines) + "\n")


# -- the sample trees, and documents written out --------------------------------------------
@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_sample_trees(path: Path) -> None:
    tree = compared(path.read_text(encoding="utf-8"))
    if path.name == "chance-worked.yaml":
        assert tree is None  # chance nodes: the Python reader's
    else:
        assert tree is not None


TAKEN = [
    "- 1\n- 2\n",
    "- - 1\n  - 2\n- 3\n",
    "-   - 1\n    -  2.5\n-\n  - -0\n",
    "name: A\nchildren:\n- 1\n- name: x\n  value: 3\n",
    "name: A\nvalue: 2\nchildren:\n  - 1\n  -\n    name: x\n    value: 3\n",
    "tree:\n  [1,\n   2]\nroot: min\n",
    "tree: [1, [2, 3]]  # flow inside\nexpect: 1\n",
    "title: |\n  a\n  b\n\n  c\ntree: [1]\n",
    "title: |-\n  a\n\n\n  b\n\ntree: [1]\n",
    "title: >\n  a\n  b\n\n  c\n\ntree: [1]\n",
    "description: >-\n   a # not a comment\n   b\ntree: [1]\n",
    "tree: [1]\ndescription: >\n  a\n  b",
    "tree: [1]\ndescription: |\n  a\n  b",
    "---\n# c\n- 1 # x\n- 2.5\n",
    "--- # start\n- 1\n",
    "- 1\n-\n  - 2\n",
    "expect: 3\ntree: [3]\n",
    '"name": x\nvalue: 3\n',
    "name: 'x y'\nvalue: 3\n",
    "name: a,b[1]#c\nvalue: 3\n",
    "name : a\nvalue : 3\n",
    "  name: a\n  value: 3\n",
    "5\n",
    "- 1\n\n\n# c\n   # c\n- 2\n",
    "tree:\n- 1\n- 2\ntitle: t\n",
    "tree:\n  name: r\n  children:\n  - 1\n  - 2\n  value: 3\n",
    "- children:\n  - 1\n  name: a\n",
    "- name: a\n  children: [1, {name: b, value: 2}]\n- [3, 4]\n",
    "title: x\ntree:\n  - {name: a, value: 1}\n",
    "- 1.5e+3\n- -2.0E-3\n- [1.0e+16]\n",
]


@pytest.mark.parametrize("text", TAKEN)
def test_documents_taken(text: str) -> None:
    assert compared(text) is not None


DECLINED = [
    "- &a 1\n- *a\n",  # an anchor, an alias
    "- !!int 1\n",  # a tag
    "%YAML 1.1\n---\n- 1\n",  # a directive
    "- 1\n---\n- 2\n",  # several documents
    "- 1\n...\n",  # the end of the document
    "--- - 1\n",  # content on the marker's line
    "? name\n: a\nvalue: 1\n",  # a complex key
    "- 1\n-\t2\n",  # a tab
    "- 1\r\n- 2\r\n",  # carriage returns
    "name: a\n  b\nvalue: 1\n",  # a scalar over two lines
    "- 1\n  2\n",
    "name:\nvalue: 1\n",  # an empty value: null
    "-\n- 1\n",
    "- 1\n-",
    "name: 'it''s'\nvalue: 1\n",  # a quote doubled
    'name: "a\\tb"\nvalue: 1\n',  # an escape
    'name: "a\nvalue: 1\n',  # not closed on its line
    "'name': a\nvalue: 1\n",  # a single-quoted key
    "- |\n  1\n",  # a block scalar where a node goes
    "name: |\n  a\nvalue: 1\n",
    "title: >+\n  a\ntree: [1]\n",  # keep
    "title: >2\n  a\ntree: [1]\n",  # an indentation indicator
    "title: >\n  a\n    b\ntree: [1]\n",  # a line deeper
    "title: >\n\n  a\ntree: [1]\n",  # a blank line first
    "title: >\n  a \ntree: [1]\n",  # blanks at a line's end
    "title: >\n  a\n \n  b\ntree: [1]\n",  # a line of blanks
    "title: >\ntree: [1]\n",  # empty
    "title: >",
    "title: >\n  a\n  ",
    "title: > x\ntree: [1]\n",
    "- 1_000\n",  # numbers of YAML 1.1 that the Python reader resolves
    "- 0x10\n",
    "- 1:30\n",
    "- .5\n",
    "- 1.0e3\n",
    "- 1e+3\n",
    "- +1\n",
    "- 9007199254740993\n",
    "name: a\n- 1\n",  # an entry where a key goes
    "- 1\nname: a\n",  # a key where an entry goes
    "name: a\n   value: 1\n",  # a line at no open collection's indentation
    "- 1\n 2\n",
    "name: a: b\n",
    "name: - a\n",
    "name: a\nvalue: [1]\n",
    "name: a\nvalue: &x 1\n",
    '"name":a\nvalue: 1\n',
    '- "a"b\n',
    '- "a"#b\n',
    "- [1, 2] x\n",
    "- [1, 2]: x\n",
    "tree:\n  [1,\n2]\n",  # a flow collection's line left of its block
    "- 1\n- 2\n5\n",
    "5\n6\n",
    "5\n- 6\n",
    "children:\n  - 1\nchildren:\n  - 2\n",  # a key twice
    "---\n",
    "# only a comment\n",
    "- []\n",
    "- @x\n",
    "tree:\n- 1\n" + "[" * 10_000 + "]" * 10_000 + "\n",  # flow nested too deep for libyaml
]


@pytest.mark.parametrize("text", DECLINED)
def test_documents_declined(text: str) -> None:
    assert parse_compiled(text, "yaml", "src", 10**6) is None
    compared(text)


def test_the_node_limit_is_counted() -> None:
    text = "- 1\n- - 2\n  - 3\n"
    assert compared(text, max_nodes=5) is not None
    assert compared(text, max_nodes=4) is None


# -- deep documents ----------------------------------------------------------------------------
def test_a_chain_100_000_deep_on_one_line() -> None:
    tree = compared("- " * 100_000 + "1\n")
    assert tree is not None and tree.max_depth() == 100_000


def test_a_chain_nested_by_indentation() -> None:
    depth = 1500
    text = "".join(" " * i + "-\n" for i in range(depth)) + " " * depth + "1\n"
    tree = compared(text)
    assert tree is not None and tree.max_depth() == depth


def test_named_nodes_nested_by_indentation() -> None:
    depth = 300
    text = (
        "".join(
            " " * (2 * i) + f"- name: n{i}\n" + " " * (2 * i + 2) + "children:\n"
            for i in range(depth)
        )
        + " " * (2 * depth)
        + "- 1\n"
    )
    tree = compared("tree:\n" + text)
    assert tree is not None and tree.max_depth() == depth + 1


def test_a_million_deep_chain_is_read_without_recursion() -> None:
    """The C reader keeps its open collections in an array: a million levels read (the
    Python reader's same tree: tests/test_hostile.py, in a process of its own)."""
    tree = parse_compiled("- " * 1_000_000 + "1\n", "yaml", "src", 10**7)
    assert tree is not None and tree.max_depth() == 1_000_000 and tree.n_leaves == 1
