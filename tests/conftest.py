"""Shared fixtures: the sample_trees directory and the complete tic-tac-toe game tree."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

# pytest-xdist's workers inherit COLUMNS=80, which would fold every table written off a
# terminal; tests that want a width set it themselves
os.environ.pop("COLUMNS", None)

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_TREES = ROOT / "sample_trees"


def load_script(name: str) -> ModuleType:
    """Import scripts/<name>.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        f"_scripts_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def sample_trees() -> Path:
    """The sample_trees/ directory."""
    return SAMPLE_TREES


@pytest.fixture(scope="session")
def gen_tictactoe() -> ModuleType:
    """scripts/gen_tictactoe.py, imported."""
    return load_script("gen_tictactoe")


@pytest.fixture(scope="session")
def tictactoe_path(gen_tictactoe: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The complete tic-tac-toe tree, written once per session (named s-expression, gzipped).

    It is generated rather than committed: 1.7 MB of gzip for a file that the
    script writes in a few seconds.  The s-expression is the quickest of the
    three formats to load at this size (549,946 named nodes).
    """
    path = tmp_path_factory.mktemp("tictactoe") / "tictactoe.sexp.gz"
    gen_tictactoe.write(str(path))
    return path


@pytest.fixture(scope="session")
def tictactoe(tictactoe_path: Path) -> Any:
    """The tic-tac-toe tree as gtsearch loads it (549,946 nodes, 255,168 leaves, value 0)."""
    from gtsearch.formats import load_tree

    return load_tree(str(tictactoe_path))


@pytest.fixture(scope="session")
def tictactoe_nested(gen_tictactoe: ModuleType) -> list[Any]:
    """The same tree as nested lists of leaf values, built from the game, not from a file."""
    stack: list[list[Any]] = [[]]
    for ev in gen_tictactoe.events():
        if ev[0] == "open":
            stack.append([])
        elif ev[0] == "leaf":
            stack[-1].append(ev[2])
        else:
            node = stack.pop()
            stack[-1].append(node)
    (root,) = stack[0]
    return root
