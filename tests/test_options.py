"""The options of every command: a bad number is one line that names the option (cli/values.py).

docs/commands.md, "What the commands share": ``OPTION takes WHAT, got 'TEXT'``,
``OPTION must be RANGE, got VALUE`` (``needs`` for two in order), and beyond
±2**53 the words of a tree file's leaves; exit status 2, nothing on standard
output, no usage lines.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from gtsearch.cli import COMMANDS, cli
from gtsearch.cli.values import FloatParam, IntParam

REPO = Path(__file__).resolve().parent.parent
AIMA = str(REPO / "sample_trees" / "aima-fig5-2.yaml")
CHANCE = str(REPO / "sample_trees" / "chance-worked.yaml")
TOO_LARGE = "9007199254740993"  # 2**53 + 1
LARGE = "too large: integers must lie within ±2**53 to stay exact"
FINITE = "takes a finite number such as 3 or -2.5, got"
L_U = "takes L:U with two finite numbers, e.g. -10:10 or 0:1.5, got"
LO_HI = "takes LO:HI with two integers, e.g. -100:100, got"
ORDERS = "random, best, worst or strong:P (0 <= P <= 1)"
GEN = ["gen", "-b", "2", "-d", "2"]
STAR1 = ["eval", CHANCE, "-a", "star1", "--leaf-bounds"]

#: (command line, the one line on standard error)
BAD_NUMBERS = [
    # the numbers of the algorithms: --bound, --alpha, --beta, --guess, --leaf-bounds
    (["eval", AIMA, "-a", "f1", "--bound", "abc"], f"--bound {FINITE} 'abc'"),
    (["eval", AIMA, "-a", "f1", "--bound", "1e400"], f"--bound {FINITE} '1e400'"),
    (["eval", AIMA, "-a", "f1", "--bound", TOO_LARGE], f"--bound {TOO_LARGE} is {LARGE}"),
    (["eval", AIMA, "--beta", "1" + "0" * 5000], f"--beta 100000000000... (5,001 characters) is {LARGE}"),
    (["eval", AIMA, "--alpha", "nan"], f"--alpha {FINITE} 'nan'"),
    (["eval", AIMA, "--beta", "-" + TOO_LARGE], f"--beta -{TOO_LARGE} is {LARGE}"),
    (["eval", AIMA, "--expect", "three"], f"--expect {FINITE} 'three'"),
    ([*STAR1, "5"], f"--leaf-bounds {L_U} '5'"),
    ([*STAR1, "0:inf"], f"--leaf-bounds {L_U} '0:inf'"),
    ([*STAR1, f"0:{TOO_LARGE}"], f"--leaf-bounds {TOO_LARGE} is {LARGE}"),
    ([*STAR1, "9:1"], "--leaf-bounds needs L <= U, got 9:1"),
    (["compare", AIMA, "-a", "mtdf", "--guess", "x"], f"--guess {FINITE} 'x'"),
    (["compare", AIMA, "-a", "mtdf", "--guess", TOO_LARGE], f"--guess {TOO_LARGE} is {LARGE}"),
    (["show", AIMA, "-a", "f1", "--bound", "--3"], f"--bound {FINITE} '--3'"),
    (["trace", AIMA, "--alpha", "1,5"], f"--alpha {FINITE} '1,5'"),
    (["exercise", "-a", "f1", "--bound", ""], f"--bound {FINITE} ''"),
    (["experiment", "-a", "mtdf", "--guess", "0x10"], f"--guess {FINITE} '0x10'"),
    # the tree: --depth, --max-nodes, and show's limits
    (["eval", AIMA, "--depth", "-1"], "--depth must be 0 or more, got -1"),
    (["compare", AIMA, "--depth", "one"], "--depth takes an integer 0 or more, got 'one'"),
    (["eval", AIMA, "--max-nodes", "0"], "--max-nodes must be 1 or more, got 0"),
    (["validate", AIMA, "--max-nodes", "1e6"], "--max-nodes takes an integer 1 or more, got '1e6'"),
    (["convert", AIMA, "--max-nodes", "-5"], "--max-nodes must be 1 or more, got -5"),
    (["show", AIMA, "--max-depth", "-1"], "--max-depth must be 0 or more, got -1"),
    (["show", AIMA, "--max-lines", "x"], "--max-lines takes an integer 0 or more, got 'x'"),
    (["trace", AIMA, "--max-nodes", "2.5"], "--max-nodes takes an integer 1 or more, got '2.5'"),
    # seeded trees: -b, -d, --seed, --values, --p, --chance, --order strong:P
    (["gen", "-b", "0", "-d", "2"], "--branching must be 1 or more, got 0"),
    (["gen", "-b", "two", "-d", "2"], "--branching takes an integer 1 or more, got 'two'"),
    (["gen", "-b", "2", "-d", "-1"], "--depth must be 0 or more, got -1"),
    ([*GEN, "--seed", "x"], "--seed takes an integer, got 'x'"),
    ([*GEN, "--values", "3"], f"--values {LO_HI} '3'"),
    ([*GEN, "--values", "0:1.5"], f"--values {LO_HI} '0:1.5'"),
    ([*GEN, "--values", f"0:{TOO_LARGE}"], f"--values {TOO_LARGE} is {LARGE}"),
    ([*GEN, "--values", "5:1"], "--values LO:HI needs LO <= HI, got 5:1"),
    ([*GEN, "--model", "binary", "--p", "2"], "--p must be from 0 to 1, got 2"),
    ([*GEN, "--model", "binary", "--p", "nan"], "--p must be from 0 to 1, got nan"),
    ([*GEN, "--model", "binary", "--p", "half"], "--p takes a number from 0 to 1, got 'half'"),
    ([*GEN, "--chance", "0"], "--chance must be 1 or more, got 0"),
    ([*GEN, "--order", "strong:2"], f"--order must be one of {ORDERS}, got 'strong:2'"),
    (["experiment", "-b", "0"], "--branching must be 1 or more, got 0"),
    (["experiment", "-b", "x"], "--branching takes a number, a range A..B or a comma list, got 'x'"),
    (["experiment", "-d", "3..2"], "--depth: the range '3..2' is empty (A..B needs A <= B)"),
    (["experiment", "-n", "0"], "--trials must be 1 or more, got 0"),
    (["experiment", "-j", "-1"], "--jobs must be 0 or more, got -1"),
    (["experiment", "--seed", "1.5"], "--seed takes an integer, got '1.5'"),
    (["experiment", "--chance", "x"], "--chance takes an integer 1 or more, got 'x'"),
    (["experiment", "--model", "binary", "--p", "-0.5"], "--p must be from 0 to 1, got -0.5"),
    (["experiment", "--values", "a:b"], f"--values {LO_HI} 'a:b'"),
    (["experiment", "--shard", "5/2", "-o", "x.jsonl"], "--shard I/N needs 1 <= I <= N, got '5/2'"),
    (["experiment", "--max-nodes", "0"], "--max-nodes must be 1 or more, got 0"),
    (["exercise", "-b", "0"], "--branching must be 1 or more, got 0"),
    (["exercise", "-d", "0"], "--depth must be 1 or more, got 0"),
    (["exercise", "-n", "0"], "--count must be 1 or more, got 0"),
    (["exercise", "-s", "x"], "--seed takes an integer, got 'x'"),
    (["exercise", "--values", "9:1"], "--values LO:HI needs LO <= HI, got 9:1"),
    (["exercise", "--values", f"-{TOO_LARGE}:0"], f"--values -{TOO_LARGE} is {LARGE}"),
]  # fmt: skip


def run(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


@pytest.mark.parametrize(("args", "line"), BAD_NUMBERS, ids=lambda v: " ".join(v)[:60])
def test_a_bad_number_is_one_line(
    args: list[str], line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # experiment and exercise must write nothing
    result = run(args)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr == line + "\n"
    assert list(tmp_path.iterdir()) == []


def test_the_line_is_a_ci_annotation_too() -> None:
    result = run(["--annotate", "github", "eval", AIMA, "--depth", "-1"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "--depth must be 0 or more, got -1",
        "::error::--depth must be 0 or more, got -1",
    ]


def test_a_bad_number_stops_before_any_file_is_read() -> None:
    result = run(["eval", "no/such/file.yaml", "--depth", "x"])
    assert result.stderr == "--depth takes an integer 0 or more, got 'x'\n"


def test_the_edges_of_the_ranges_are_accepted() -> None:
    assert run(["eval", AIMA, "--depth", "2", "--max-nodes", "1" + "0" * 4]).exit_code == 0
    assert run(["eval", AIMA, "-a", "f1", "--bound", str(2**53)]).exit_code == 0
    assert run(["eval", AIMA, "--alpha", "-1e300", "--beta", "1e300"]).exit_code == 0
    binary = ["gen", "-b", "2", "-d", "1", "--model", "binary"]
    assert run([*binary, "--p", "0"]).stdout == "[0,0]\n"
    assert run([*binary, "--p", "1"]).stdout == "[1,1]\n"
    assert run(["gen", "-b", "1", "-d", "0", "--seed", "-" + "9" * 30]).exit_code == 0


def test_max_nodes_beyond_64_bits_is_no_limit() -> None:
    """It was an OverflowError in the C reader: a limit larger than any tree is no limit."""
    result = run(["eval", AIMA, "--max-nodes", "9" * 30, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert '"value": 3' in result.stdout


def test_help_shows_the_ranges_as_before() -> None:
    text = " ".join(run(["eval", "--help"]).stdout.split())
    assert "--depth N Cut the tree at depth N" in text and "[x>=0]" in text
    assert "[default: 50000000; x>=1]" in text
    gen = " ".join(run(["gen", "--help"]).stdout.split())
    assert "[0.0<=x<=1.0]" in gen and "[x>=1; required]" in gen
    assert "-s, --seed S Seed: the same arguments always give the same tree" in gen
    assert "[default: 0]" in gen and "x<=None" not in gen


def every_parameter() -> list[tuple[str, click.Parameter]]:
    out = []
    for name in sorted(COMMANDS):
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        out.extend((name, param) for param in command.params)
    return out


@pytest.mark.parametrize(
    ("command", "param"), every_parameter(), ids=lambda v: getattr(v, "name", v)
)
def test_every_number_is_read_by_a_type_of_cli_values(command: str, param: click.Parameter) -> None:
    """A new option that takes a number is declared with cli/values.py's types (one line when
    wrong), not click's INT, FLOAT, IntRange or FloatRange (click's usage lines)."""
    kind = param.type
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        assert isinstance(kind, (IntParam, FloatParam)), (command, param.name)


# -- CSV without rows: nothing on standard output ------------------------------------------------
@pytest.mark.parametrize("command", ["eval", "compare"])
def test_csv_of_bad_files_only_is_empty(command: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[[1, 2], oops]", encoding="utf-8")
    result = run([command, "--format", "csv", str(bad), str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert [line.split(":")[0] for line in result.stderr.splitlines()] == [
        str(bad),
        str(tmp_path / "missing.yaml"),
    ]


@pytest.mark.parametrize("command", ["eval", "compare"])
def test_csv_of_a_bad_and_a_good_file_has_the_header_and_the_rows(
    command: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[", encoding="utf-8")
    result = run([command, "--format", "csv", "-a", "alphabeta", str(bad), AIMA])
    assert result.exit_code == 2
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["file"], r["algorithm"], r["value"]) for r in rows] == [(AIMA, "alphabeta", "3")]


def test_a_sweep_that_cannot_run_is_one_line_without_a_note_before_it() -> None:
    result = run(["experiment", "-b", "9999999999", "-d", "2", "-n", "1"])
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        "random source: b=9999999999, d=2 make more than 2**62 leaves "
        "(the nodes are numbered in 64 bits)\n"
    )


# -- every integer within what the compiled core holds ---------------------------------------
HUGE = "1" + "0" * 23  # 10**23


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", AIMA, "-a", "mcts", "--iterations", HUGE], "--iterations"),
        (["eval", AIMA, "-a", "mcts", "--playout-depth", str(2**63)], "--playout-depth"),
        (["show", AIMA, "-a", "mcts", "--iterations", HUGE], "--iterations"),
        (["exercise", "-a", "mcts", "--iterations", HUGE], "--iterations"),
        (["eval", AIMA, "--depth", "9" * 5000], "--depth"),
        (["show", AIMA, "--max-lines", HUGE], "--max-lines"),
        (["gen", "-b", HUGE, "-d", "2"], "--branching"),
        (["experiment", "-b", f"2..{HUGE}", "-d", "2"], "--branching"),
        (["experiment", "-j", HUGE], "--jobs"),
    ],
)
def test_counts_beyond_64_bits_are_one_line(args: list[str], message: str) -> None:
    """Not an OverflowError of the C core, nor a search that never ends in the pure one."""
    result = run(args)
    assert result.exit_code == 2 and result.stdout == "", result.stderr
    assert result.stderr.startswith(f"{message} must be at most 2**63 - 1, the greatest count, ")


def test_the_library_refuses_the_same_counts() -> None:
    from gtsearch.algorithms.params import plan
    from gtsearch.errors import UsageError

    with pytest.raises(UsageError, match=r"^--iterations must be at most 2\*\*63 - 1, the gre"):
        plan(["mcts"], iterations=10**23)
    with pytest.raises(UsageError, match=r"^--playout-depth .* got a larger integer$"):
        plan(["mcts"], playout_depth=10**5000)


def test_seeds_take_any_integer_a_table_the_memory() -> None:
    """A seed is taken modulo 2**64 (docs/sources.md); a table larger than the machine's memory
    is refused by both cores (the C one would run out of memory, the pure one would run)."""
    from gtsearch.algorithms.table import memory_mib

    assert run(["eval", AIMA, "-a", "mcts", "--seed", HUGE]).exit_code == 0
    result = run(["gen", "-b", "2", "-d", "1", "-s", "9" * 5000])
    assert result.exit_code == 2 and "--seed takes an integer of at most" in result.stderr
    for command in (["eval", AIMA], ["solve", AIMA], ["compare", AIMA]):
        result = run([*command, "--tt", "1000000000"])
        assert result.exit_code == 2 and result.stderr == (
            f"--tt 1,000,000,000 MiB is more than this machine's memory ({memory_mib():,} MiB)\n"
        )


def test_memory_unknown_is_a_tebibyte(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from gtsearch.algorithms import table

    def unknown(name: str) -> int:
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", unknown)
    assert table.memory_mib() == table.UNKNOWN_MEMORY_MIB == 2**20
