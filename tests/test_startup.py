"""``gtsearch eval`` of a small file imports what it uses and nothing else (a real process).

A test of what is imported, not of time: the start-up of a small ``eval`` is
mostly imports, and benchmarks/bench.py times it against ``python -c pass``.
The registry names the family modules and imports only the one that
searches; a source, a format's reader, rich, csv and numpy are imported when
a source is named, that format read, a table drawn, CSV written, a large tree
read.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gtsearch import core
from gtsearch.cli import COMMANDS

REPO = Path(__file__).resolve().parent.parent
AIMA = str(REPO / "sample_trees" / "aima-fig5-2.yaml")
BARE = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"
PURE = core.native() is None

#: runs the command line as the console script does, then lists the modules it imported
PROGRAM = """
import sys
before = set(sys.modules)  # what the interpreter (and coverage.py, under CI) brought
from gtsearch.cli import cli
out, *args = sys.argv[1:]
try:
    cli(args, prog_name="gtsearch")
except SystemExit as e:
    assert not e.code, e.code
with open(out, "w", encoding="utf-8") as f:
    f.write("\\n".join(sorted(set(sys.modules) - before)))
"""

#: never imported by ``eval`` of a small file of gtsearch's formats
NEVER = {
    # the other families: alphabeta is depthfirst's
    "gtsearch.algorithms.sss",
    "gtsearch.algorithms.scout",
    "gtsearch.algorithms.mt",
    "gtsearch.algorithms.chance",
    "gtsearch.algorithms.vector",
    "gtsearch.algorithms.steps",
    "gtsearch.algorithms.chance_steps",
    "gtsearch.algorithms.explored",
    # sources: none is named
    "gtsearch.sources.randomtree",
    "gtsearch.sources.uniform",
    "gtsearch.sources.games",
    "gtsearch.sources.builtin_games",
    "gtsearch.sources.virtual",
    "gtsearch.sources.splitmix",
    # the other readers, and what a small file never needs
    "gtsearch.formats.sexp",
    "gtsearch.formats.sexp_atoms",
    "gtsearch.formats.efg",
    "gtsearch.formats.efg_reader",
    "gtsearch.formats.bare",
    "gtsearch.formats.schema",
    "gtsearch.flat",
    "numpy",
    "dataclasses",  # render.paper's pages are named tuples
    # the other commands and what only they use
    "gtsearch.cli.show",
    "gtsearch.cli.research",
    "gtsearch.cli.convert",
    "gtsearch.research.experiment",
    "gtsearch.classroom",
    "gtsearch.render.view",
    "gtsearch.render.terminal",
    "gtsearch.render.svg",
    "gtsearch.render.geometry",
    "gtsearch.render.layout",
    "gtsearch.render.tikz",
    "gtsearch.render.research",
    "matplotlib",
}


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The modules a ``gtsearch`` process imports to run ``args``."""
    out = tmp_path / "modules.txt"
    subprocess.run(
        [sys.executable, "-c", PROGRAM, str(out), *args],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    return set(out.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("name", ["tree.json", "tree.yaml"])
def test_eval_of_a_small_bare_file(name: str, tmp_path: Path) -> None:
    (tmp_path / name).write_text(BARE, encoding="utf-8")
    modules = imported(tmp_path, "eval", name, "--format", "json")
    assert "gtsearch.algorithms.depthfirst" in modules  # the test sees what it should
    assert not modules & NEVER, sorted(modules & NEVER)
    assert not modules & {"rich", "csv"}
    other = "gtsearch.formats.yamlfmt" if name.endswith(".json") else "gtsearch.formats.jsonfmt"
    assert other not in modules
    if not PURE:  # the C core reads both whole: no reader of Python's, no PyYAML
        assert not modules & {"gtsearch.formats.jsonfmt", "gtsearch.formats.yamlfmt", "yaml"}


def test_eval_of_a_small_block_yaml_file(tmp_path: Path) -> None:
    modules = imported(tmp_path, "eval", AIMA, "--format", "json")
    assert "gtsearch.algorithms.depthfirst" in modules  # the test sees what it should
    assert not modules & NEVER, sorted(modules & NEVER)
    assert not modules & {"rich", "csv", "gtsearch.formats.jsonfmt"}
    if PURE:
        assert "gtsearch.formats.yaml_block" in modules
    else:  # the C core reads block YAML too (load_block.c): PyYAML only when it hands back
        assert not modules & {"gtsearch.formats.yamlfmt", "gtsearch.formats.yaml_block", "yaml"}


def test_eval_of_a_block_yaml_file_the_c_core_hands_back(tmp_path: Path) -> None:
    (tmp_path / "alias.yaml").write_text("- &a [3, 12]\n- *a\n", encoding="utf-8")
    modules = imported(tmp_path, "eval", "alias.yaml", "--format", "json")
    assert {"gtsearch.formats.yaml_block", "yaml"} <= modules


def test_a_table_imports_rich_and_csv_imports_csv(tmp_path: Path) -> None:
    (tmp_path / "tree.json").write_text(BARE, encoding="utf-8")
    table = imported(tmp_path, "eval", "tree.json", "--format", "table")
    assert "rich" in table and "csv" not in table
    as_csv = imported(tmp_path, "eval", "tree.json", "--format", "csv")
    assert "csv" in as_csv and "rich" not in as_csv


def test_another_algorithm_imports_its_own_family(tmp_path: Path) -> None:
    (tmp_path / "tree.json").write_text(BARE, encoding="utf-8")
    modules = imported(tmp_path, "eval", "tree.json", "-a", "sss", "--format", "json")
    assert "gtsearch.algorithms.sss" in modules
    assert not modules & {"gtsearch.algorithms.scout", "gtsearch.algorithms.mt"}


def test_a_source_imports_the_sources(tmp_path: Path) -> None:
    modules = imported(tmp_path, "eval", "random:b=2,d=3,seed=1", "--format", "json")
    assert "gtsearch.sources.randomtree" in modules
    assert not modules & {"gtsearch.sources.games", "gtsearch.formats.yamlfmt", "yaml"}


def test_help_imports_no_command(tmp_path: Path) -> None:
    """``gtsearch --help`` lists the commands from cli.SUMMARIES: it imports none of their
    modules, and nothing of the library but its errors."""
    modules = imported(tmp_path, "--help")
    assert "click" in modules and "gtsearch.cli.common" in modules  # the test sees
    commands = {target.split(":")[0] for target in COMMANDS.values()}
    assert not modules & commands, sorted(modules & commands)
    library = {m for m in modules if m.startswith("gtsearch.")} - {"gtsearch.errors"}
    assert {m for m in library if not m.startswith("gtsearch.cli")} == set(), sorted(library)
    assert not modules & {"rich", "yaml", "numpy", "json", "fractions", "dataclasses"}
