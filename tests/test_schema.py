"""The JSON Schema of tree files: valid draft 2020-12, true to the samples, and agreeing with the reader.

Validated with the real ``jsonschema`` (in the test extra).  The property
test draws random JSON documents made of gtsearch's keys and others, and
checks that the reader accepts a document exactly when the schema does,
except for the rules a schema cannot express (``NOT_EXPRESSED``), where the
reader alone refuses.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch.cli import cli
from gtsearch.errors import TreeFormatError
from gtsearch.formats import jsonfmt
from gtsearch.formats.schema import NOT_EXPRESSED, NOT_PRINTABLE, schema_text, tree_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = tree_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
#: how the reader words the rules of NOT_EXPRESSED
READER_ONLY = (
    "duplicate name",
    "must lie within ±2**53",
    "not a finite number",
    "duplicate key",
    "one weight per child is needed",
)
#: JSON that Python's json module takes and the reader refuses as text (a lone surrogate escape)
LENIENT_JSON = ("invalid string",)


def valid(doc: Any) -> bool:
    return VALIDATOR.is_valid(doc)


# -- the document -------------------------------------------------------------------------------
def test_the_schema_is_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] and set(SCHEMA["$defs"]) >= {"document", "node", "leaf", "internal"}


def test_the_command_prints_it_and_the_committed_copy_is_the_same(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0 and result.stdout == schema_text()
    assert json.loads(result.stdout) == SCHEMA
    committed = ROOT / "docs" / "tree.schema.json"
    assert committed.read_text(encoding="utf-8") == schema_text(), (
        "docs/tree.schema.json is stale: gtsearch schema -o docs/tree.schema.json"
    )
    out = tmp_path / "s.json"
    assert CliRunner().invoke(cli, ["schema", "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == schema_text()


# -- samples and bad cases ----------------------------------------------------------------------
SAMPLES = sorted(
    p
    for p in [*(ROOT / "sample_trees").iterdir(), *(ROOT / "tests" / "cases" / "good").iterdir()]
    if p.suffix in (".json", ".yaml", ".yml")
)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_tree_validates(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    doc = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    errors = [e.message for e in VALIDATOR.iter_errors(doc)]
    assert not errors, errors


BAD_JSON = sorted((ROOT / "tests" / "cases" / "bad").glob("json-*.json"))


def _parsed(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None  # not JSON at all: a syntax error is the parser's business, not the schema's


def test_bad_shapes_do_not_validate() -> None:
    """Every bad JSON case that parses is refused by the schema too, unless its rule is the reader's."""
    checked = []
    for path in BAD_JSON:
        doc = _parsed(path)
        expected = (path.parent / f"{path.name}.expected").read_text(encoding="utf-8")
        if doc is None or any(rule in expected for rule in READER_ONLY + LENIENT_JSON):
            continue
        assert not valid(doc), (path.name, expected)
        checked.append(path.name)
    assert {
        "json-string-value.json",
        "json-empty-list.json",
        "json-unknown-key.json",
        "json-boolean.json",
        "json-null.json",
        "json-children-empty.json",
        "json-bad-root.json",
        "json-chance-and-children.json",
        "json-chance-empty.json",
        "json-chance-negative-weight.json",
        "json-chance-string-weight.json",
        "json-chance-weights-without-chance.json",
        "json-chance-zero-total.json",
    } <= set(checked)


@pytest.mark.parametrize(
    "doc",
    [
        [[3, 12], ["x", 4]],  # a string leaf
        [[3, 12], []],  # an empty list
        {"name": "a", "children": [1], "colour": "red"},  # an unknown key
        [1, True],  # a boolean
        {"tree": [1], "root": "MAX"},  # root is max or min
        {"name": "a"},  # neither children nor a value
        {"title": "no tree"},
        {"tree": [1], "name": "a"},  # a node's key in the document
        {"name": "", "value": 1},
        {"name": "tab\there", "value": 1},
        {"name": "x" * 1001, "value": 1},
        {"name": 7, "value": 1},
        {"children": [1], "value": None},
        {"chance": [1, 2], "children": [3]},  # outcomes or children, not both
        {"chance": []},  # a chance node needs an outcome
        {"chance": [1, 2], "weights": [1, -1]},  # a negative weight
        {"chance": [1, 2], "weights": [0, 0]},  # a zero total
        {"chance": [1, 2], "weights": [1, "2"]},  # a weight that is no number
        {"weights": [1, 2], "children": [1, 2]},  # weights without chance
    ],
)
def test_shapes_the_reader_refuses(doc: Any) -> None:
    with pytest.raises(TreeFormatError):
        jsonfmt.parse(json.dumps(doc))
    assert not valid(doc)


# -- the reader and the schema agree ------------------------------------------------------------
KEYS = [
    "name", "value", "children", "chance", "weights",
    "tree", "root", "title", "description", "expect", "colour",
]  # fmt: skip
NAMES = st.text(st.sampled_from("abcé \t\n\x7f\u00a0\u200b\u2028"), max_size=5) | st.just(
    "x" * 1001
)
NUMBERS = st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
SCALARS = NUMBERS | NAMES | st.sampled_from(["max", "min", True, False, None])


def spoiled(doc: Any) -> st.SearchStrategy[Any]:
    """A document with one thing wrong, perhaps: a key added, dropped or given a scalar."""
    if isinstance(doc, dict):
        keys = sorted(doc)
        ops = [st.tuples(st.sampled_from(KEYS), SCALARS).map(lambda kv: {**doc, kv[0]: kv[1]})]
        if keys:
            ops.append(
                st.sampled_from(keys).map(lambda k: {x: v for x, v in doc.items() if x != k})
            )
            ops.append(
                st.tuples(st.sampled_from(keys), SCALARS).map(lambda kv: {**doc, kv[0]: kv[1]})
            )
        return st.one_of(ops)
    if isinstance(doc, list):
        return SCALARS.map(lambda x: [*doc, x])
    return SCALARS


def nodes(depth: int = 0) -> st.SearchStrategy[Any]:
    """Nodes of the full form, mostly well made, sometimes spoiled."""
    named_leaf = st.fixed_dictionaries({"value": NUMBERS}, optional={"name": NAMES})
    base = NUMBERS | named_leaf
    if depth < 3:
        kids = st.lists(nodes(depth + 1), max_size=3)
        internal = st.fixed_dictionaries(
            {"children": kids}, optional={"name": NAMES, "value": NUMBERS}
        )
        weights = st.lists(st.integers(0, 3) | st.floats(0, 2), max_size=3)
        chance = st.fixed_dictionaries(
            {"chance": kids}, optional={"name": NAMES, "value": NUMBERS, "weights": weights}
        )
        base = base | kids | internal | chance
    return st.one_of(base, base, base.flatmap(spoiled))


def documents() -> st.SearchStrategy[Any]:
    wrapper = st.fixed_dictionaries(
        {"tree": nodes()},
        optional={
            "root": st.sampled_from(["max", "min"]),
            "title": NAMES,
            "description": NAMES,
            "expect": NUMBERS,
        },
    )
    return st.one_of(nodes(), wrapper, wrapper.flatmap(spoiled))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_the_reader_accepts_a_document_exactly_when_the_schema_does(doc: Any) -> None:
    text = json.dumps(doc, ensure_ascii=False)
    try:
        jsonfmt.parse(text, "doc.json")
        reader = None
    except TreeFormatError as e:
        reader = e.message
    if reader is None:
        assert valid(doc), text
    elif valid(doc):
        assert any(rule in reader for rule in READER_ONLY), (text, reader)


def test_the_schema_never_refuses_a_name_the_reader_takes() -> None:
    pattern = re.compile(NOT_PRINTABLE)
    refused = [chr(c) for c in range(0x10000) if pattern.search(chr(c))]
    assert len(refused) > 8000 and not any(ch.isprintable() for ch in refused)
    assert {"\t", "\x7f", "\u00a0", "\u200b", "\u2028", "\ufeff"} <= set(refused)


def test_the_rules_a_schema_cannot_express_are_listed() -> None:
    assert len(NOT_EXPRESSED) == 7
    # each of them, accepted by the schema and refused by the reader
    for doc in (
        [{"name": "a", "value": 1}, {"name": "a", "value": 2}],
        [1, 2**60],
        {"chance": [1, 2, 3], "weights": [1, 2]},  # one weight per outcome
        [1, {"name": "\U000e0001", "value": 1}],  # an astral format character: not printable
    ):
        assert valid(doc)
        with pytest.raises(TreeFormatError):
            jsonfmt.parse(json.dumps(doc, ensure_ascii=False))
    assert valid([1, math.inf])  # JSON has no infinity; Python's json writes one anyway
