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
    "fractions",  # and the decimal it imports: only a value made exact needs them
    "decimal",
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


#: the smallest click program (one command of a group), run as PROGRAM runs gtsearch: what
#: click imports to parse a command line or print a help; gtsearch cannot import less
FLOOR = """
import sys
before = set(sys.modules)
import click

@click.group()
def cli():
    "A group."

@cli.command("eval")
@click.argument("files", nargs=-1)
@click.option("--format", "output_format")
def eval_command(files, output_format):
    click.echo(" ".join(files))

out, *args = sys.argv[1:]
try:
    cli(args)
except SystemExit as e:
    assert not e.code, e.code
with open(out, "w", encoding="utf-8") as f:
    f.write("\\n".join(sorted(set(sys.modules) - before)))
"""

#: what a small ``eval`` of a JSON file (--format json) imports beyond the click program's:
#: the whole list, so that a new import on this path is a decision (benchmarks/bench.py's
#: start-up section times it; docs/development.md, "Start-up")
EVAL_JSON = {
    "gtsearch",
    "gtsearch.algorithms",
    "gtsearch.algorithms.base",
    "gtsearch.algorithms.compiled",
    "gtsearch.algorithms.depthfirst",
    "gtsearch.algorithms.params",
    "gtsearch.algorithms.pv",
    "gtsearch.algorithms.registry",
    "gtsearch.algorithms.search",
    "gtsearch.algorithms.table",
    "gtsearch.cli",
    "gtsearch.cli.common",
    "gtsearch.cli.evaluate",
    "gtsearch.cli.options",
    "gtsearch.cli.values",
    "gtsearch.core",
    "gtsearch.errors",
    "gtsearch.formats",
    "gtsearch.formats.compiled",
    "gtsearch.formats.tokens",
    "gtsearch.numbers",
    "gtsearch.render",
    "gtsearch.render.console",
    "gtsearch.render.labels",
    "gtsearch.render.progress",
    "gtsearch.render.tables",
    "gtsearch.research",
    "gtsearch.research.compare",
    "gtsearch.result",
    "gtsearch.sources",
    "gtsearch.tree",
    # the standard library's: the JSON written, the tree's arrays
    "json",
    "json.decoder",
    "json.encoder",
    "json.scanner",
    "_json",
    "array",
    "bisect",
    "_bisect",
}
#: what the smallest click program imports under some versions of Python and not others,
#: left out of the count: ``math`` (imported by it under 3.10 to 3.12, not under 3.13, where
#: gtsearch's own import of it is the first)
FLOOR_VARIES = {"math"}
#: the C core's extension, or the pure core's JSON reader
EVAL_JSON_CORE = (
    {
        "gtsearch.builder",
        "gtsearch.formats.builders",
        "gtsearch.formats.jsonfmt",
        "gtsearch.formats.shape",
        "gtsearch.formats.writer",
    }
    if PURE
    else {"gtsearch._native", "gtsearch._native._core"}
)


def imported(tmp_path: Path, *args: str, program: str = PROGRAM) -> set[str]:
    """The modules a ``gtsearch`` process (or ``program``) imports to run ``args``."""
    out = tmp_path / "modules.txt"
    subprocess.run(
        [sys.executable, "-c", program, str(out), *args],
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


def test_a_small_eval_imports_a_known_list_beyond_click(tmp_path: Path) -> None:
    """Beyond what the smallest click program imports to run a command, a small ``eval``
    imports exactly EVAL_JSON's and its core's modules of gtsearch, and of the standard
    library nothing that the list does not name."""
    (tmp_path / "tree.json").write_text(BARE, encoding="utf-8")
    args = ("eval", "tree.json", "--format", "json")
    beyond = imported(tmp_path, *args) - imported(tmp_path, *args, program=FLOOR) - FLOOR_VARIES
    expected = EVAL_JSON | EVAL_JSON_CORE
    ours = {m for m in beyond if m.split(".")[0] == "gtsearch"}
    assert ours == {m for m in expected if m.split(".")[0] == "gtsearch"}, sorted(ours ^ expected)
    # the standard library's: none beyond the list, which the environment may have imported
    # before either program runs (coverage's .pth imports json, array and bisect in every one)
    assert beyond - ours <= expected, sorted(beyond - ours - expected)


def test_help_imports_four_modules_beyond_click(tmp_path: Path) -> None:
    """``gtsearch --help`` imports four modules of gtsearch beyond what the help of the
    smallest click program imports, and nothing else."""
    beyond = imported(tmp_path, "--help") - imported(tmp_path, "--help", program=FLOOR)
    assert beyond == {"gtsearch", "gtsearch.errors", "gtsearch.cli", "gtsearch.cli.common"}
