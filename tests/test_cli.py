"""The command line through click's CliRunner (and a few real subprocesses): options, output, exit codes."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

import gtsearch
import gtsearch.formats
from gtsearch import ALGORITHMS, core, dump_tree, load_tree
from gtsearch.algorithms import EVERY
from gtsearch.builder import TreeBuilder
from gtsearch.cli import COMMANDS as LAZY
from gtsearch.cli import SUMMARIES, cli
from gtsearch.formats import format_for_path
from gtsearch.tree import Meta, Tree

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
AIMA_SEXP = "((3 12 8) (2 4 6) (14 5 2))\n"
#: the keys docs/commands.md promises in every JSON line
JSON_KEYS = {
    "file",
    "algorithm",
    "value",
    "exact",
    "bound",
    "pv",
    "pv_labels",
    "leaves",
    "leaves_total",
    "seconds",
    "load_seconds",
}
UNBOUNDED = [a.name for a in ALGORITHMS if not a.needs_bound and not a.chance]
#: what "all" means on a tree with chance nodes
CHANCE_ALGOS = [a.name for a in ALGORITHMS if a.chance]
REPO = Path(__file__).resolve().parent.parent
SAMPLE_TREES = REPO / "sample_trees"


# -- helpers -------------------------------------------------------------------------
def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def records(result: Result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def assert_error(result: Result, status: int, *fragments: str) -> str:
    """Exactly one line on stderr, no traceback, the given exit status."""
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def aima_named() -> Tree:
    """AIMA figure 5.2 with names, static values and metadata (expect: 3)."""
    b = TreeBuilder("<test>")
    b.open(name="a", static=4)
    for name, static, leaves in (("b", 5, (3, 12, 8)), ("c", 1, (2, 4, 6)), ("d", 4, (14, 5, 2))):
        b.open(name=name, static=static)
        for i, v in enumerate(leaves, 1):
            b.leaf(v, f"{name}{i}")
        b.close()
    b.close()
    return b.finish(meta=Meta(title="AIMA figure 5.2", expect=3))


def write(path: Path, tree: Tree, fmt: str = "json") -> str:
    path.write_text(dump_tree(tree, fmt), encoding="utf-8")
    return str(path)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # file names in the output are the names as given: keep them short
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def aima() -> str:
    Path("t.json").write_text(json.dumps(AIMA), encoding="utf-8")
    return "t.json"


@pytest.fixture
def named() -> str:
    return write(Path("named.json"), aima_named())


# -- eval: output formats ---------------------------------------------------------------
def test_eval_json_is_the_default_off_a_terminal(aima: str) -> None:
    result = run("eval", aima)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    [rec] = records(result)
    assert JSON_KEYS <= rec.keys()
    assert rec["file"] == "t.json"
    assert rec["algorithm"] == "alphabeta"
    assert rec["value"] == 3 and type(rec["value"]) is int
    assert rec["exact"] is True and rec["bound"] is None
    assert rec["pv"] == [0, 0] and rec["pv_labels"] == [None, None]
    assert (rec["leaves"], rec["leaves_total"]) == (7, 9)
    assert rec["seconds"] >= 0 and rec["load_seconds"] >= 0
    assert "leaf_order" not in rec


def test_eval_json_numbers_print_as_written() -> None:
    Path("f.json").write_text("[[2.5, 7], [1, 0.5]]", encoding="utf-8")
    result = run("eval", "f.json", "-a", "minimax", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert '"value": 2.5' in result.stdout
    assert "Infinity" not in result.stdout and "NaN" not in result.stdout
    Path("i.json").write_text("[[3, 7], [1, 5]]", encoding="utf-8")
    assert '"value": 3,' in run("eval", "i.json", "--format", "json").stdout


def test_eval_json_labels(named: str) -> None:
    [rec] = records(run("eval", named, "--format", "json"))
    assert rec["pv"] == [0, 0]
    assert rec["pv_labels"] == ["b", "b1"]


def test_eval_table(aima: str, named: str) -> None:
    result = run("eval", aima, named, "--format", "table")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "\x1b" not in out  # not a terminal: no colours, no styles
    for text in (
        "file",
        "algorithm",
        "value",
        "PV",
        "leaves",
        "time",
        "t.json",
        "named.json",
        "alphabeta",
        "0 → 0",
        "b → b1",
        "7 / 9",
    ):
        assert text in out, text


def test_eval_table_shows_bounds(aima: str) -> None:
    out = run("eval", aima, "-a", "f1", "--bound", "3", "--format", "table").stdout
    assert "≥ 3" in out
    out = run("eval", aima, "-a", "dual-bounded", "--bound", "4", "--format", "table").stdout
    assert "≤ 4" in out


def test_eval_csv(aima: str) -> None:
    result = run("eval", aima, "-a", "all", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["algorithm"] for r in rows] == UNBOUNDED
    assert JSON_KEYS <= set(rows[0])
    ab = rows[UNBOUNDED.index("alphabeta")]
    assert (ab["file"], ab["value"], ab["exact"], ab["bound"]) == ("t.json", "3", "true", "")
    assert (ab["pv"], ab["leaves"], ab["leaves_total"]) == ("0.0", "7", "9")
    assert "leaf_order" not in rows[0]


def test_eval_csv_with_leaves_and_labels(named: str) -> None:
    result = run("eval", named, "--leaves", "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(result.stdout)))
    assert row["pv_labels"] == "b b1"
    assert row["leaf_order"] == "0.0 0.1 0.2 1.0 2.0 2.1 2.2"


def test_eval_leaves(aima: str) -> None:
    [rec] = records(run("eval", aima, "--leaves", "--format", "json"))
    assert rec["leaf_order"] == [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1], [2, 2]]
    out = run("eval", aima, "--leaves", "--format", "table").stdout
    assert "0.0 0.1 0.2 1.0 2.0 2.1 2.2" in out


# -- eval: algorithms and their parameters --------------------------------------------------
def test_eval_algo_all(aima: str) -> None:
    result = run("eval", aima, "--algo", "all")
    assert result.exit_code == 0, result.stderr
    recs = records(result)
    assert [r["algorithm"] for r in recs] == UNBOUNDED
    assert all(r["value"] == 3 and r["exact"] for r in recs)
    assert {r["algorithm"]: r["leaves"] for r in recs}["minimax"] == 9
    assert len({r["load_seconds"] for r in recs}) == 1  # loaded once


def test_eval_algo_repeated_comma_lists_aliases(aima: str) -> None:
    recs = records(run("eval", aima, "-a", "ab", "-a", "sss*,DUAL*", "--algo", "alphabeta"))
    assert [r["algorithm"] for r in recs] == ["alphabeta", "sss", "dual"]


def test_eval_unknown_algorithm(aima: str) -> None:
    assert_error(run("eval", aima, "-a", "nosuch"), 2, "unknown algorithm 'nosuch'", "alphabeta")
    assert_error(run("eval", aima, "-a", ","), 2, "--algo")


def test_eval_bound(aima: str) -> None:
    [rec] = records(run("eval", aima, "-a", "f1", "--bound", "3"))
    assert (rec["value"], rec["exact"], rec["bound"]) == (3, False, "lower")
    [rec] = records(run("eval", aima, "-a", "f1", "--bound", "4"))
    assert (rec["value"], rec["exact"]) == (3, True)
    [rec] = records(run("eval", aima, "-a", "bs*", "--bound", "2"))
    assert (rec["algorithm"], rec["value"], rec["bound"]) == ("sss-bounded", 2, "lower")
    [rec] = records(run("eval", aima, "-a", "dual-bounded", "--bound", "4"))
    assert (rec["value"], rec["bound"]) == (4, "upper")
    [rec] = records(run("eval", aima, "-a", "dual-bounded", "--bound", "2.5"))
    assert (rec["value"], rec["exact"]) == (3, True)


def test_eval_bound_misuse(aima: str) -> None:
    assert_error(run("eval", aima, "--bound", "3"), 2, "--bound", "alphabeta", "f1")
    assert_error(run("eval", aima, "-a", "f1,minimax", "--bound", "3"), 2, "minimax")
    assert_error(run("eval", aima, "-a", "sss-bounded"), 2, "sss-bounded", "--bound")


def test_eval_algo_all_hands_the_bound_to_those_that_take_it(aima: str) -> None:
    result = run("eval", aima, "-a", "all", "--bound", "3", "--alpha", "0")
    assert result.exit_code == 0, result.stderr
    params = {r["algorithm"]: r.get("params", {}) for r in records(result)}
    assert list(params) == UNBOUNDED
    assert params["f1"] == {"bound": 3}
    assert params["alphabeta"] == {"alpha": 0}
    assert params["minimax"] == {}


def test_eval_window(aima: str) -> None:
    # fail-hard or fail-soft: the bound must hold and be no looser than the window's end
    [rec] = records(run("eval", aima, "--alpha", "5", "--beta", "10"))
    assert rec["bound"] == "upper" and 3 <= rec["value"] <= 5
    [rec] = records(run("eval", aima, "--alpha", "-10", "--beta", "1"))
    assert rec["bound"] == "lower" and 1 <= rec["value"] <= 3
    [rec] = records(run("eval", aima, "--alpha=-1", "--beta", "4"))
    assert (rec["value"], rec["exact"]) == (3, True)
    assert_error(run("eval", aima, "--alpha", "4", "--beta", "4"), 2, "alpha < beta")
    assert_error(run("eval", aima, "-a", "sss", "--beta", "4"), 2, "alphabeta", "sss")


@pytest.mark.parametrize("text", ["abc", "inf", "-Infinity", "nan", "1e999", ""])
def test_eval_number_options_reject(aima: str, text: str) -> None:
    result = run("eval", aima, "-a", "f1", "--bound", text)
    assert result.exit_code == 2
    assert "--bound" in result.stderr and "number" in result.stderr
    assert "Traceback" not in result.stderr


def test_eval_number_options_int_or_float(aima: str) -> None:
    [rec] = records(run("eval", aima, "-a", "f1", "--bound", "2.5"))
    assert rec["params"] == {"bound": 2.5}
    assert '"params": {"bound": 2.5}' in run("eval", aima, "-a", "f1", "--bound", "2.5").stdout
    [rec] = records(run("eval", aima, "-a", "f1", "--bound", "+7"))
    assert rec["params"] == {"bound": 7} and type(rec["params"]["bound"]) is int


def test_eval_root(aima: str) -> None:
    [rec] = records(run("eval", aima, "--root", "min", "-a", "minimax"))
    assert (rec["value"], rec["pv"]) == (6, [1, 2])
    [rec] = records(run("eval", aima, "--root", "MAX"))
    assert rec["value"] == 3


@pytest.mark.parametrize("command", ["eval", "compare", "show", "trace", "solve"])
@pytest.mark.parametrize("game", ["game:pig", "game:dotsandboxes:rows=1,columns=2"])
def test_root_refused_where_the_game_says_who_moves(command: str, game: str) -> None:
    # a game with player() takes no root attribute (docs/sources.md): nor --root
    result = run(command, game, "--root", "min")
    assert_error(result, 2, f"{game}: the game says who moves (its player())", "drop --root")
    [rec] = records(run("eval", "game:nim:5", "--root", "min", "-a", "minimax"))
    # a game whose movers alternate takes it: the first player (now MIN) and the second both
    # want the other to take the last stone, misere Nim, lost for the mover at 5 = 1 mod 4
    assert rec["value"] == 1


def test_eval_depth(named: str, aima: str) -> None:
    [rec] = records(run("eval", named, "--depth", "1", "-a", "minimax"))
    assert (rec["value"], rec["leaves"], rec["leaves_total"], rec["pv_labels"]) == (5, 3, 3, ["b"])
    [rec] = records(run("eval", named, "--depth", "0", "-a", "minimax"))
    assert (rec["value"], rec["leaves_total"]) == (4, 1)
    [rec] = records(run("eval", aima, "--depth", "5"))
    assert rec["value"] == 3
    assert_error(run("eval", aima, "--depth", "1"), 2, "t.json", "static value")
    assert run("eval", aima, "--depth", "-1").exit_code == 2


# -- eval: checks -----------------------------------------------------------------------
def test_eval_expect(aima: str) -> None:
    assert run("eval", aima, "--expect", "3").exit_code == 0
    result = run("eval", aima, "-a", "alphabeta,sss", "--expect", "4")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "t.json: alphabeta: value 3, expected 4",
        "t.json: sss: value 3, expected 4",
    ]
    assert len(records(result)) == 2  # all output is still printed


def test_eval_expect_one_line(aima: str) -> None:
    assert_error(
        run("eval", aima, "--expect", "3.5", "--format", "table"),
        1,
        "t.json: alphabeta: value 3, expected 3.5",
    )


def test_eval_expect_against_bounds(aima: str) -> None:
    # f1 with bound 3 proves "value >= 3"
    assert run("eval", aima, "-a", "f1", "--bound", "3", "--expect", "7").exit_code == 0
    assert_error(
        run("eval", aima, "-a", "f1", "--bound", "3", "--expect", "2"),
        1,
        "t.json: f1: value ≥ 3, expected 2",
    )
    # dual-bounded with L = 4 proves "value <= 4"
    assert run("eval", aima, "-a", "dual-bounded", "--bound", "4", "--expect", "1").exit_code == 0
    assert_error(
        run("eval", aima, "-a", "dual-bounded", "--bound", "4", "--expect", "5"),
        1,
        "value ≤ 4, expected 5",
    )


def test_eval_file_expect() -> None:
    good, bad = aima_named(), aima_named()
    bad.meta = Meta(expect=12)
    write(Path("good.json"), good)
    write(Path("bad.json"), bad)
    assert run("eval", "good.json", "-a", "all").exit_code == 0
    assert_error(run("eval", "bad.json"), 1, "bad.json: alphabeta: value 3, expected 12")
    # --expect replaces the file's expect:
    assert run("eval", "bad.json", "--expect", "3").exit_code == 0
    # the file's expect: is for the file's root and the whole tree
    assert run("eval", "bad.json", "--root", "min").exit_code == 0
    assert run("eval", "bad.json", "--depth", "1").exit_code == 0
    assert run("eval", "bad.json", "--root", "max", "--depth", "2").exit_code == 1


# -- eval: files and standard input ---------------------------------------------------------
def test_eval_several_files(aima: str, named: str) -> None:
    recs = records(run("eval", aima, named, "-a", "minimax,alphabeta"))
    assert [(r["file"], r["algorithm"]) for r in recs] == [
        ("t.json", "minimax"),
        ("t.json", "alphabeta"),
        ("named.json", "minimax"),
        ("named.json", "alphabeta"),
    ]
    assert recs[0]["load_seconds"] == recs[1]["load_seconds"]


def test_eval_stdin() -> None:
    recs = records(run("eval", "-", input=json.dumps(AIMA)))
    assert [(r["value"], r["leaves"]) for r in recs] == [(3, 7)]
    recs = records(run("eval", "-", input=AIMA_SEXP))  # sniffed
    assert [(r["value"], r["leaves"]) for r in recs] == [(3, 7)]
    recs = records(run("eval", "-", "--input-format", "sexp", input=AIMA_SEXP))
    assert [(r["value"], r["leaves"]) for r in recs] == [(3, 7)]
    recs = records(
        run(
            "eval", "-", "--input-format", "yaml", input="- [3, 12, 8]\n- [2, 4, 6]\n- [14, 5, 2]\n"
        )
    )
    assert [(r["value"], r["leaves"]) for r in recs] == [(3, 7)]


def test_eval_stdin_only_once(aima: str) -> None:
    assert_error(run("eval", "-", aima, "-", input=AIMA_SEXP), 2, "standard input")


def test_eval_bad_file_among_good(aima: str) -> None:
    Path("bad.json").write_text("[[3, 12], [2, ", encoding="utf-8")
    result = run("eval", aima, "bad.json", "missing.json", aima)
    assert result.exit_code == 2
    assert [r["file"] for r in records(result)] == ["t.json", "t.json"]
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "Traceback" not in result.stderr
    assert lines[0].startswith("bad.json:1:")
    assert lines[1].startswith("missing.json")


@pytest.mark.parametrize("text", ["", "[[3, 12], [2, ", "[[3, true]]", "[[3, []]]", '[[3, "x"]]'])
def test_eval_bad_input_one_line(text: str) -> None:
    Path("bad.json").write_text(text, encoding="utf-8")
    assert_error(run("eval", "bad.json"), 2, "bad.json")


def test_eval_bad_input_with_check_failure_exits_2(aima: str) -> None:
    result = run("eval", aima, "missing.json", "--expect", "4")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 2


def test_eval_input_format_option(aima: str) -> None:
    Path("t.txt").write_text(AIMA_SEXP, encoding="utf-8")
    [rec] = records(run("eval", "t.txt", "--input-format", "sexp"))
    assert rec["value"] == 3
    assert run("eval", aima, "--input-format", "nosuch").exit_code == 2


def test_eval_max_nodes(aima: str) -> None:
    assert_error(run("eval", aima, "--max-nodes", "5"), 2, "t.json", "--max-nodes")
    assert run("eval", aima, "--max-nodes", "13").exit_code == 0


def test_sample_trees_meet_their_expect() -> None:
    files = sorted(str(p) for p in SAMPLE_TREES.iterdir() if format_for_path(p.name))
    assert files
    result = run("eval", *files, "-a", "all")
    assert result.exit_code == 0, result.stderr
    chance = [f for f in files if "chance" in f]  # there 'all' means the chance algorithms
    assert chance
    assert len(records(result)) == (len(files) - len(chance)) * len(UNBOUNDED) + len(chance) * len(
        CHANCE_ALGOS
    )
    assert run("validate", *files).exit_code == 0


def test_sample_tree_depth_and_root() -> None:
    path = str(SAMPLE_TREES / "hand-b-min-root.json")  # MIN root, expect: 0.5
    [rec] = records(run("eval", path, "-a", "minimax"))
    assert (rec["value"], rec["pv_labels"]) == (0.5, ["P1", "P1b", "P1b1"])
    # the file's expect: is about the whole tree: --depth that cuts it skips the check
    [rec] = records(run("eval", path, "--depth", "1", "--expect", "-0.5"))
    assert rec["value"] == -0.5
    [rec] = records(run("eval", path, "--depth", "2"))
    assert rec["value"] == 1
    assert run("eval", path, "--root", "min").exit_code == 0
    assert run("eval", path, "--root", "max", "--expect", "0.5").exit_code == 1


# -- algorithms ---------------------------------------------------------------------------
def test_algorithms_lists_every_algorithm() -> None:
    for fmt in ("text", "table"):
        result = run("algorithms", "--format", fmt)
        assert result.exit_code == 0
        for algo in EVERY:
            assert algo.name in result.stdout, (fmt, algo.name)
    text = run("algorithms").stdout  # plain lines off a terminal
    lines = text.splitlines()
    assert len(lines) == len(EVERY)
    for algo, line in zip(EVERY, lines, strict=True):
        assert line.split()[0] == algo.name
        assert algo.summary in line
        assert all(alias in line for alias in algo.aliases)
    assert "\x1b" not in text


def test_algorithms_json() -> None:
    recs = records(run("algorithms", "--format", "json"))
    assert [r["name"] for r in recs] == [a.name for a in EVERY]
    assert recs[-1]["takes"] == "mcts" and recs[-1]["family"] == "monte-carlo"
    by_name = {r["name"]: r for r in recs}
    assert by_name["alphabeta"]["takes"] == "window"
    assert by_name["sss-bounded"]["needs_bound"] is True
    assert "ab" in by_name["alphabeta"]["aliases"]
    assert [r["name"] for r in recs if r["chance"]] == ["expectiminimax", "star1", "star2"]
    assert by_name["star1"]["takes"] == "leaf_bounds"
    # "C", or "pure Python" (GTSEARCH_PURE=1); the chance searches are always Python's
    assert {r["core"] for r in recs if not r["chance"]} == {core.name()}
    assert {r["core"] for r in recs if r["chance"]} == {core.PURE}


# -- validate ------------------------------------------------------------------------------
def test_validate(aima: str, named: str) -> None:
    result = run("validate", aima, named)
    assert result.exit_code == 0, result.stderr
    first, second = result.stdout.splitlines()
    for text in (
        "t.json",
        "13 nodes",
        "9 leaves",
        "depth 2",
        "branching 3-3",
        "root max",
        "0 names",
        "0 static values",
    ):
        assert text in first, text
    for text in ("13 names", "4 static values", "AIMA figure 5.2", "expect 3"):
        assert text in second, text


def test_validate_json(aima: str) -> None:
    Path("leaf.json").write_text("7", encoding="utf-8")
    recs = records(run("validate", aima, "leaf.json", "--format", "json"))
    assert recs[0] == {
        "file": "t.json",
        "ok": True,
        "nodes": 13,
        "leaves": 9,
        "internal": 4,
        "depth": 2,
        "branching_min": 3,
        "branching_mean": 3.0,
        "branching_max": 3,
        "root": "max",
        "names": 0,
        "static_values": 0,
        "title": None,
        "expect": None,
    }
    assert (recs[1]["nodes"], recs[1]["depth"], recs[1]["branching_min"]) == (1, 0, None)


def test_validate_bad_files(aima: str) -> None:
    Path("bad.json").write_text("[[1, 2], []]", encoding="utf-8")
    result = run("validate", "bad.json", aima)
    line = assert_error(result, 2, "bad.json")
    assert "t.json: ok" in result.stdout
    recs = records(run("validate", "bad.json", aima, "--format", "json"))
    assert recs[0] == {"file": "bad.json", "ok": False, "error": line}
    assert recs[1]["ok"] is True


def test_validate_stdin() -> None:
    result = run("validate", "-", input=AIMA_SEXP)
    assert result.exit_code == 0
    assert "13 nodes" in result.stdout


# -- convert ------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["yaml", "json", "sexp"])
def test_convert_round_trip(named: str, fmt: str) -> None:
    result = run("convert", named, "--to", fmt)
    assert result.exit_code == 0, result.stderr
    ext = {"yaml": "yaml", "json": "json", "sexp": "sexp"}[fmt]
    Path(f"out.{ext}").write_text(result.stdout, encoding="utf-8")
    assert load_tree(f"out.{ext}") == load_tree(named)
    assert run("convert", named, "--to", fmt, "-o", f"o2.{ext}").stdout == ""
    assert Path(f"o2.{ext}").read_text(encoding="utf-8") == result.stdout


def test_convert_format_from_output_name(named: str) -> None:
    result = run("convert", named, "-o", "x.sexp")
    assert result.exit_code == 0, result.stderr
    assert load_tree("x.sexp") == load_tree(named)


def test_convert_needs_a_format(named: str) -> None:
    assert_error(run("convert", named), 2, "--to")
    assert_error(run("convert", named, "-o", "x.unknown"), 2, "--to")
    assert run("convert", named, "--to", "xml").exit_code == 2


def test_convert_stdin() -> None:
    result = run("convert", "-", "--to", "json", input=AIMA_SEXP)
    assert result.exit_code == 0
    Path("c.json").write_text(result.stdout, encoding="utf-8")
    assert load_tree("c.json") == Tree.from_nested(AIMA)


def test_convert_errors(named: str) -> None:
    assert_error(run("convert", "missing.json", "--to", "yaml"), 2, "missing.json")
    assert_error(
        run("convert", named, "--to", "yaml", "-o", "no/such/dir/x.yaml"),
        2,
        "no/such/dir/x.yaml",
        "cannot write",
    )


# -- help, version, errors ----------------------------------------------------------------
#: every command, those loaded lazily from modules of their own included
COMMANDS = sorted({*cli.commands, *LAZY})


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_with_example(command: list[str], flag: str) -> None:
    result = run(*command, flag)
    assert result.exit_code == 0
    assert "Usage:" in result.stdout
    assert "Example" in result.stdout
    assert "gtsearch " + (command[0] if command else "") in result.stdout.split("Example")[1]


def test_help_lists_the_commands_by_their_summaries() -> None:
    """``gtsearch --help`` lists the commands from SUMMARIES without importing them: each is
    its command's first sentence, and the list is the one click would write from the
    commands themselves, at any width."""
    assert sorted(SUMMARIES) == COMMANDS == sorted(LAZY)
    ctx = click.Context(cli, info_name="gtsearch")
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        first = click.Command(name, help=SUMMARIES[name]).get_short_help_str(10**6)
        assert command.get_short_help_str(10**6) == first, name
    for width in (60, 100):
        ours, clicks = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
        cli.format_commands(ctx, ours)
        click.Group.format_commands(cli, ctx, clicks)
        assert ours.getvalue() == clicks.getvalue()
    listed = run("--help").stdout.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == COMMANDS


def test_eval_help_documents_the_default_format() -> None:
    out = " ".join(run("eval", "-h").stdout.split())
    assert "table on a terminal, json when standard output is not a terminal" in out


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"gtsearch {gtsearch.__version__} (core: {core.name()})\n"
    if core.pure_asked():  # GTSEARCH_PURE=1: the pure core, whether the extension is built or not
        assert core.name() == core.PURE


def test_usage_errors_exit_2(aima: str) -> None:
    assert run("eval").exit_code == 2
    assert run("nosuch").exit_code == 2
    assert run("eval", aima, "--format", "xml").exit_code == 2
    assert run("eval", aima, "--root", "both").exit_code == 2


def test_keyboard_interrupt(aima: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*args: object, **kwargs: object) -> Tree:
        raise KeyboardInterrupt

    monkeypatch.setattr(gtsearch.formats, "load_tree", interrupt)  # as cli.common reads it
    result = run("eval", aima)
    assert result.exit_code == 130
    assert result.stderr == "interrupted\n"


# -- real processes ----------------------------------------------------------------------
def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


LIGHT_RUN = """
import sys
from gtsearch.cli import cli
try:
    cli(sys.argv[1:], prog_name="gtsearch")
except SystemExit as e:
    status = e.code
heavy = sorted(m for m in ("rich", "yaml", "numpy") if m in sys.modules)
print("HEAVY", status, *heavy, file=sys.stderr)
"""


def imported(*args: str) -> tuple[str, set[str], str]:
    """Run the CLI in a fresh interpreter: exit status, heavy modules it imported, stdout."""
    proc = subprocess.run(
        [sys.executable, "-c", LIGHT_RUN, *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    _, status, *heavy = proc.stderr.splitlines()[-1].split()
    return status, set(heavy), proc.stdout


def test_eval_small_json_imports_neither_rich_nor_numpy(aima: str) -> None:
    status, heavy, out = imported("eval", aima)
    assert status == "0" and json.loads(out)["value"] == 3
    assert not heavy & {"rich", "numpy"}, heavy
    status, heavy, _ = imported("eval", aima, "--format", "table")
    assert status == "0" and "rich" in heavy and "numpy" not in heavy


def test_eval_small_json_does_not_import_yaml(aima: str) -> None:
    status, heavy, _ = imported("eval", aima, "-a", "all")
    assert status == "0" and "yaml" not in heavy


def test_python_dash_m() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gtsearch", "eval", "-", "-a", "all"],
        input=AIMA_SEXP,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == len(UNBOUNDED)


def test_closed_pipe_ends_quietly(aima: str) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head -1` that has already quit
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "gtsearch", "eval", aima, "-a", "all"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert proc.stderr == ""
    assert proc.returncode in (0, 141)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("no_color", [False, True])
def test_terminal_gets_a_table(aima: str, no_color: bool) -> None:
    import pty

    env = _env(COLUMNS="100", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    if no_color:
        env["NO_COLOR"] = "1"
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "gtsearch", "eval", aima],
            stdout=follower,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    out = b"".join(chunks).decode("utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "0 → 0" in out and "7 / 9" in out
    colour = "\x1b[3" in out or "\x1b[9" in out or "\x1b[38;" in out
    assert colour is not no_color


# -- chance nodes ----------------------------------------------------------------------------
CHANCE = str(SAMPLE_TREES / "chance-worked.yaml")


def test_eval_on_chance_nodes() -> None:
    recs = records(run("eval", CHANCE, "-a", "all"))
    assert [r["algorithm"] for r in recs] == CHANCE_ALGOS
    for r in recs:
        assert (r["value"], r["value_exact"], r["exact"], r["pv_labels"]) == (
            13 / 3,
            "13/3",
            True,
            ["C1", "m2", None],  # through C1's likelier outcome m2 to an unnamed leaf
        )
    assert [r["leaves"] for r in recs] == [8, 7, 6]
    assert [r["distinct_leaves"] for r in recs] == [8, 7, 6]
    assert recs[1]["params"] == {"leaf_bounds": [2, 9], "leaf_bounds_from": "tree"}
    assert recs[2]["probes"] == 2 and "params" not in recs[0]
    [rec] = records(run("eval", CHANCE, "-a", "star1", "--leaf-bounds", "-10:10.5"))
    assert rec["params"] == {"leaf_bounds": [-10, 10.5], "leaf_bounds_from": "option"}
    table = run("eval", CHANCE, "-a", "star1,star2", "--format", "table").stdout
    assert "star1 (L=2, U=9 from the leaves)" in table and "13/3" in table
    rows = list(
        csv.DictReader(io.StringIO(run("eval", CHANCE, "-a", "all", "--format", "csv").stdout))
    )
    assert [r["value_exact"] for r in rows] == ["13/3"] * 3
    assert rows[1]["params"] == "L=2, U=9 from the leaves"


def test_chance_trees_refuse_other_algorithms() -> None:
    aima = str(SAMPLE_TREES / "aima-fig5-2.yaml")
    result = run("eval", CHANCE, aima, "-a", "alphabeta")  # refused here, run there
    assert result.exit_code == 2
    assert result.stderr == (
        f"{CHANCE}: the tree has chance nodes, which alphabeta cannot search; "
        "use expectiminimax, star1 or star2\n"
    )
    assert [r["file"] for r in records(result)] == [aima]
    # without --algo: alphabeta, and on a tree with chance nodes its counterpart, star1
    default = records(run("eval", CHANCE, aima))
    assert [(r["file"], r["algorithm"]) for r in default] == [
        (CHANCE, "star1"),
        (aima, "alphabeta"),
    ]
    assert_error(run("eval", CHANCE, "-a", "star1,sss"), 2, "which sss cannot search")
    assert_error(run("compare", CHANCE, "-a", "minimax"), 2, "which minimax cannot search")
    assert_error(run("trace", CHANCE, "-a", "f1"), 2, "which f1 cannot search")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--leaf-bounds", "5:1"], "--leaf-bounds needs L <= U, got 5:1"),
        (["--leaf-bounds", "x"], "--leaf-bounds takes L:U with two finite numbers"),
        (["--leaf-bounds", "0:inf"], "--leaf-bounds takes L:U with two finite numbers"),
        (["--leaf-bounds", "0:1:2"], "takes L:U"),
        (["--leaf-bounds", "3:9"], "leaf $[1][1][0] = 2 lies outside --leaf-bounds 3:9"),
        (["-a", "alphabeta", "--leaf-bounds", "0:9"], "applies to star1, star2 and mcts only"),
    ],
)
def test_leaf_bounds_errors(args: list[str], fragment: str) -> None:
    argv = ["eval", CHANCE, *args] if "-a" in args else ["eval", CHANCE, "-a", "star2", *args]
    assert_error(run(*argv), 2, fragment)


def test_validate_and_convert_chance_nodes(tmp_path: Path) -> None:
    line = run("validate", CHANCE).stdout
    assert line.endswith(
        "root max, 7 names, 0 static values, 2 chance nodes (2 with weights), "
        "title 'Two weighted chance nodes over MIN nodes, worked by hand'\n"
    )
    [rec] = records(run("validate", "--format", "json", CHANCE))
    assert (rec["chance_nodes"], rec["weighted"]) == (2, 2)
    for ext in ("json", "sexp", "yaml"):
        out = tmp_path / f"t.{ext}"
        assert run("convert", CHANCE, "-o", str(out)).exit_code == 0
        assert load_tree(str(out)) == load_tree(CHANCE)


def test_gen_and_experiment_with_chance_nodes(tmp_path: Path) -> None:
    text = run("gen", "-b", "2", "-d", "2", "--chance", "3", "-s", "4").stdout
    tree = gtsearch.loads_tree(text, "json")
    assert tree.n_leaves == 36 and tree.chance_nodes() == 2 + 4 * 3 and tree.max_depth() == 4
    assert run(
        "gen", "-b", "2", "-d", "2", "--chance", "3", "-s", "4", "--format", "sexp"
    ).stdout.startswith("((:chance (")
    assert_error(run("gen", "-b", "2", "-d", "2", "--chance", "2", "--order", "best"), 2, "--order")
    out = tmp_path / "r.jsonl"
    result = run("experiment", "--chance", "2", "-b", "2", "-d", "1..2", "-n", "3", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    rows = records(result)
    assert {r["algorithm"] for r in rows} == set(CHANCE_ALGOS)
    assert {(r["b"], r["d"], r["full_tree"]) for r in rows} == {(2, 1, 4), (2, 2, 16)}
    assert all(r["minimal_tree"] is None for r in rows)
    recs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all(r["chance"] == 2 for r in recs) and len(recs) == 2 * 3 * 3
    merged = run("experiment", "--merge", str(out))
    assert merged.exit_code == 0 and records(merged) == rows
    table = run("experiment", "--chance", "2", "-b", "2", "-d", "2", "-n", "2", "--format", "table")
    assert "Saved against expectiminimax" in table.stdout and "(bc)^d" in table.stdout
    assert_error(run("experiment", "--chance", "2", "-a", "alphabeta"), 2, "cannot search chance")
