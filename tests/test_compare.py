"""``gtsearch compare``: every algorithm side by side, the best marked, disagreements caught."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import gtsearch.cli.research as research
from gtsearch.algorithms import ALGORITHMS
from gtsearch.cli import cli
from gtsearch.result import SearchResult

SAMPLE_TREES = Path(__file__).resolve().parent.parent / "sample_trees"
AIMA = "((3 12 8) (2 4 6) (14 5 2))\n"
UNBOUNDED = [a.name for a in ALGORITHMS if not a.needs_bound and not a.chance]
#: what "all" means on a tree with chance nodes
CHANCE_ALGOS = [a.name for a in ALGORITHMS if a.chance]
#: stockman-binary-d4.sexp, docs/algorithms.md: SSS* 8 leaves, alpha-beta 13, minimax 16
STOCKMAN = str(SAMPLE_TREES / "stockman-binary-d4.sexp")


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def records(result: Result) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_every_sample_tree_agrees() -> None:
    files = sorted(str(p) for p in SAMPLE_TREES.iterdir())
    result = run("compare", *files)
    assert result.exit_code == 0, result.stderr
    recs = records(result)
    chance = [f for f in files if "chance" in f]  # there 'all' means the chance algorithms
    assert len(recs) == (len(files) - len(chance)) * len(UNBOUNDED) + len(chance) * len(
        CHANCE_ALGOS
    )
    for f in files:
        mine = [r for r in recs if r["file"] == f]
        assert [r["algorithm"] for r in mine] == (CHANCE_ALGOS if f in chance else UNBOUNDED)
        assert len({r["value"] for r in mine}) == 1 and all(r["exact"] for r in mine)
        fewest = min(r["leaves"] for r in mine)
        assert [r["best"] for r in mine] == [r["leaves"] == fewest for r in mine]
        for r in mine:
            assert r["share"] == r["leaves"] / r["leaves_total"]


def test_json_carries_the_figures_of_each_algorithm() -> None:
    by_algo = {r["algorithm"]: r for r in records(run("compare", STOCKMAN))}
    assert by_algo["minimax"]["share"] == 1.0 and by_algo["minimax"]["best"] is False
    assert by_algo["sss"]["leaves"] == 8 and by_algo["sss"]["best"] and by_algo["mt-sss"]["best"]
    assert by_algo["sss"]["open_max"] == 4 and "open_max" in by_algo["dual"]
    assert by_algo["mt-sss"]["passes"] == 3
    scout = by_algo["scout"]
    assert scout["leaves"] == scout["distinct_leaves"] + scout["re_evaluations"]
    assert scout["re_evaluations"] > 0 and scout["share"] > 1  # re-reads count as evaluations
    for r in by_algo.values():
        assert {"file", "value", "exact", "bound", "pv", "leaves", "seconds", "nodes"} <= set(r)


def test_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # a relative name: the title above the table is folded to the table's width, so a long
    # absolute path (a clone deep in /tmp) would break the line checked below
    monkeypatch.chdir(SAMPLE_TREES)
    result = run("compare", "stockman-binary-d4.sexp", "--format", "table")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "stockman-binary-d4.sexp: 16 leaves, value 52" in out
    for header in ("leaves", "share", "re-read", "nodes", "OPEN peak", "MT passes", "time", "best"):
        assert header in out
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    assert set(UNBOUNDED) <= set(lines)
    marked = {name for name, line in lines.items() if "★" in line}
    assert marked == {"sss", "mt-sss"}
    assert "50%" in lines["sss"] and "100%" in lines["minimax"]


def test_table_leaves_out_empty_columns() -> None:
    out = run("compare", "-", "-a", "ab,f1", "--format", "table", input=AIMA).stdout
    assert "OPEN peak" not in out and "MT passes" not in out and "re-read" not in out
    assert "best" in out


def test_csv() -> None:
    text = run("compare", "-", "-a", "minimax,sss", "--format", "csv", input=AIMA).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["algorithm"] for r in rows] == ["minimax", "sss"]
    assert rows[1]["best"] == "true" and rows[0]["best"] == "false"
    assert rows[1]["share"] == repr(7 / 9) and rows[1]["open_max"] == "3"


def test_bound_and_guess() -> None:
    recs = records(run("compare", "-", "-a", "f1,mtdf", "--bound", "3", input=AIMA))
    assert recs[0]["exact"] is False and recs[0]["bound"] == "lower"  # f1: value >= 3
    assert recs[1]["params"] == {"bound": 3} and recs[1]["exact"]
    assert recs[0]["leaves"] < recs[1]["leaves"]
    assert [r["best"] for r in recs] == [False, True]  # a bound is never "best"
    recs = records(run("compare", "-", "--bound", "3", "--guess", "4", input=AIMA))
    by_algo = {r["algorithm"]: r for r in recs}
    assert by_algo["mtdf"]["params"] == {"bound": 4} and by_algo["f1"]["params"] == {"bound": 3}
    result = run("compare", "-", "-a", "ab", "--guess", "4", input=AIMA)
    assert result.exit_code == 2 and "--guess" in result.stderr and "mtdf" in result.stderr


def test_root_and_depth() -> None:
    recs = records(run("compare", "-", "--root", "min", input=AIMA))
    assert {r["value"] for r in recs} == {6}
    named = str(SAMPLE_TREES / "hand-a-min-root.yaml")
    result = run("compare", named, "--depth", "1")
    assert result.exit_code == 0, result.stderr  # the file's expect: is for the whole tree
    assert {r["value"] for r in records(result)} == {0.5}


def test_expect() -> None:
    result = run("compare", "-", "-a", "ab,sss", "--expect", "4", input=AIMA)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "<stdin>: alphabeta: value 3, expected 4",
        "<stdin>: sss: value 3, expected 4",
    ]
    assert len(records(result)) == 2  # the results are still printed


def _lie(monkeypatch: pytest.MonkeyPatch, name: str, **changes: Any) -> None:
    real = research.run_search

    def search(*args: Any) -> SearchResult:
        r = real(*args)
        return r._replace(**changes) if r.algorithm == name else r

    monkeypatch.setattr(research, "run_search", search)


def test_disagreement_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    _lie(monkeypatch, "scout", value=4)
    result = run("compare", "-", "-a", "minimax,ab,scout", "--format", "table", input=AIMA)
    assert result.exit_code == 1
    assert result.stderr == (
        "<stdin>: the exact results disagree: 3 (minimax, alphabeta) vs 4 (scout)\n"
    )
    assert "value disputed" in result.stdout


def test_a_bound_that_contradicts_the_value_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    _lie(monkeypatch, "f1", value=5, exact=False, bound="lower")
    result = run("compare", "-", "-a", "ab,f1", input=AIMA)
    assert result.exit_code == 1
    assert result.stderr == ("<stdin>: f1 proved ≥ 5, but alphabeta found the exact value 3\n")


def test_bad_file_among_good() -> None:
    result = run("compare", STOCKMAN, "no-such-file.json", "-a", "ab")
    assert result.exit_code == 2
    assert len(records(result)) == 1
    assert "no-such-file.json" in result.stderr and len(result.stderr.splitlines()) == 1


def test_usage_errors() -> None:
    for args, fragment in (
        (["-a", "nope"], "unknown algorithm"),
        (["-a", "sss-bounded"], "needs a bound"),
        (["-a", "minimax", "--bound", "3"], "--bound does not apply"),
    ):
        result = run("compare", "-", *args, input=AIMA)
        assert result.exit_code == 2 and fragment in result.stderr, result.stderr
    result = run("compare", "-", "-", input=AIMA)
    assert result.exit_code == 2 and "only once" in result.stderr


def test_table_share_beyond_a_thousand_percent_in_whole_percents() -> None:
    """mcts evaluates a leaf at every iteration: 1,000 evaluations of AIMA's 9 leaves are a
    share of 11,111%, which the table once wrote 1.11e+04%."""
    out = run("compare", "-", "-a", "ab,mcts", "--format", "table", input=AIMA).stdout
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    mcts = next(line for name, line in lines.items() if name.startswith("mcts"))
    assert "11,111%" in mcts and "e+" not in mcts
    assert "77.8%" in lines["alphabeta"]
