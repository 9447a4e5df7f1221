"""The JSON Schema (draft 2020-12) of gtsearch's JSON and YAML tree files, built from the shape rules.

Editors validate and complete tree files with it (VS Code, yaml-language-server):
the bare form, the full form (named nodes, static values, chance nodes with
their weights) and the document wrapper with its keys, as :mod:`gtsearch.formats.shape` reads them.  What a
schema cannot say is left to the reader, and listed in :data:`NOT_EXPRESSED`
and docs/formats.md.  ``gtsearch schema`` prints it; docs/tree.schema.json is
a copy that the tests keep equal.
"""

from __future__ import annotations

import json
from typing import Any

from .shape import DOC_KEYS, NODE_KEYS, ROOT_WORDS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: names the schema (a URN: the schema is found by path or URL, never through $id)
SCHEMA_ID = "urn:gtsearch:tree-file:1"
#: what no name may hold, for Python's str.isprintable(): the characters of the Basic
#: Multilingual Plane that are controls (Cc), formats (Cf), surrogates, private use, or
#: separators other than the space (Unicode 14; one pattern for ECMA-262 and Python)
NOT_PRINTABLE = (
    "[\\u0000-\\u001f\\u007f-\\u00a0\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f"
    "\\u0890-\\u0891\\u08e2\\u1680\\u180e\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u2064"
    "\\u2066-\\u206f\\u3000\\ud800-\\udfff\\ue000-\\uf8ff\\ufeff\\ufff9-\\ufffb]"
)

#: the rules of the reader a schema cannot express: a document the schema accepts may still be
#: refused for one of these (and nothing else)
NOT_EXPRESSED = (
    "a node's name differs from its siblings' names (the same name may stand elsewhere)",
    "integers lie within ±2**53 (a schema sees 1e20 and 100000000000000000000 as the same number)",
    "numbers are finite (JSON has no NaN or infinity, but some writers produce them)",
    "names are printable as Python's str.isprintable() says (the schema refuses the controls, "
    "formats and separators of the Basic Multilingual Plane, not unassigned or astral ones)",
    "keys are not repeated (a parsed document has lost the repeats)",
    "a chance node's weights are as many as its outcomes",
    "YAML: name, title and description are read as text whatever they look like (name: 1 is "
    "the name '1'; the schema wants a string: quote it)",
)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def tree_schema() -> dict[str, Any]:
    """The schema as a JSON-ready dict."""
    name_key, value_key, children_key, chance_key, weights_key = NODE_KEYS
    tree_key, root_key, title_key, description_key, expect_key = DOC_KEYS
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": "gtsearch tree file (JSON or YAML)",
        "description": "A two-player game tree for gtsearch: a node (the bare form, nested lists "
        "of numbers, or the full form with names and static values), or a document wrapping "
        "the tree with its metadata.",
        "anyOf": [_ref("document"), _ref("node")],
        "$defs": {
            "document": {
                "description": "The document wrapper: the tree and what the file says about it.",
                "type": "object",
                "properties": {
                    tree_key: {**_ref("node"), "description": "The root node."},
                    root_key: {
                        "enum": list(ROOT_WORDS),
                        "description": "The player to move at the root (default max).",
                    },
                    title_key: {"type": "string", "description": "A title."},
                    description_key: {"type": "string", "description": "A description."},
                    expect_key: {
                        **_ref("number"),
                        "description": "The minimax value: gtsearch eval and compare check it.",
                    },
                },
                "required": [tree_key],
                "additionalProperties": False,
            },
            "node": {
                "description": "A leaf, an internal node or a chance node.",
                "anyOf": [_ref("leaf"), _ref("internal"), _ref("chance")],
            },
            "leaf": {
                "description": "A leaf: its value (MAX's payoff), or a mapping with a name.",
                "anyOf": [
                    _ref("number"),
                    {
                        "type": "object",
                        "properties": {
                            name_key: _ref("name"),
                            value_key: {**_ref("number"), "description": "MAX's payoff."},
                        },
                        "required": [value_key],
                        "additionalProperties": False,
                    },
                ],
            },
            "internal": {
                "description": "An internal node: its children, or a mapping with them, a name "
                "and a static value.",
                "anyOf": [
                    _ref("children"),
                    {
                        "type": "object",
                        "properties": {
                            name_key: _ref("name"),
                            value_key: {
                                **_ref("number"),
                                "description": "The static value, which --depth uses.",
                            },
                            children_key: _ref("children"),
                        },
                        "required": [children_key],
                        "additionalProperties": False,
                    },
                ],
            },
            "chance": {
                "description": "A chance node: its outcomes (a non-empty list), optional weights "
                "(one non-negative number per outcome, not all zero; normalised into "
                "probabilities; without them the outcomes are equally likely), a name and a "
                "static value.",
                "type": "object",
                "properties": {
                    name_key: _ref("name"),
                    value_key: {
                        **_ref("number"),
                        "description": "The static value, which --depth uses.",
                    },
                    chance_key: _ref("children"),
                    weights_key: {
                        "type": "array",
                        "minItems": 1,
                        "items": {**_ref("number"), "minimum": 0},
                        "contains": {"exclusiveMinimum": 0},
                    },
                },
                "required": [chance_key],
                "additionalProperties": False,
            },
            "children": {
                "description": "The children, in order: at least one.",
                "type": "array",
                "minItems": 1,
                "items": _ref("node"),
            },
            "name": {
                "description": "A name, different from its siblings' names: 1 to 1000 printable characters.",
                "type": "string",
                "minLength": 1,
                "maxLength": 1000,
                "not": {"pattern": NOT_PRINTABLE},
            },
            "number": {
                "description": "An integer (within ±2**53) or a finite float.",
                "type": "number",
            },
        },
    }


def schema_text() -> str:
    """The schema as the text ``gtsearch schema`` prints (ends with a newline)."""
    return json.dumps(tree_schema(), indent=2, ensure_ascii=False) + "\n"
