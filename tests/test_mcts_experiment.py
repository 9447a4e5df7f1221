"""experiment -a mcts: MCTS against minimax on random trees (docs/research.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.cli import cli
from gtsearch.research.mcts_sweep import (
    MCTS_RECORD_KEYS,
    MCTS_SUMMARY_KEYS,
    MctsSweep,
    move_values,
    run_mcts_sweep,
    summarize_mcts,
)
from gtsearch.sources.randomtree import MODELS, LazyTree, RandomSpec, materialize


def minimax(node: Any, is_max: bool) -> float:
    """The textbook recursion over the nested lists of a tree."""
    if not isinstance(node, list):
        return float(node)
    values = [minimax(c, not is_max) for c in node]
    return max(values) if is_max else min(values)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(1, 5),
    st.sampled_from(MODELS),
    st.integers(0, 2**64 - 1),
)
def test_move_values_against_an_independent_minimax(b: int, d: int, model: str, seed: int) -> None:
    tree = materialize(LazyTree(RandomSpec(b, d, seed=seed, model=model)))
    nested = tree.to_nested()
    assert move_values(tree, b, d) == [minimax(c, False) for c in nested]


def test_records_say_what_an_independent_minimax_says() -> None:
    """Every record's optimal flag, minimax value and error, recomputed from the tree."""
    for model in MODELS:
        sweep = MctsSweep((3,), (2, 3), 4, iterations=(1, 10, 100), seed=5, model=model)
        records = run_mcts_sweep(sweep)
        assert len(records) == 2 * 4 * 3
        for r in records:
            assert list(r) == list(MCTS_RECORD_KEYS)
            spec = sweep.spec(r["b"], r["d"], r["tree_seed"])
            nested = materialize(LazyTree(spec)).to_nested()
            values = [minimax(c, False) for c in nested]
            assert r["minimax"] == max(values) == minimax(nested, True)
            assert r["optimal"] == (values[r["move"]] == max(values))
            assert r["error"] == abs(r["value"] - max(values))
            assert values[r["alphabeta_move"]] == max(values)
            assert (r["trap"] is None) == (model != "trap")
        rows = summarize_mcts(records)
        assert [list(row) for row in rows] == [list(MCTS_SUMMARY_KEYS)] * 6
        first = [r for r in records if (r["d"], r["iterations"]) == (2, 1)]
        assert rows[0]["optimal"] == sum(r["optimal"] for r in first) / 4


def test_the_trap_model_misleads_mcts_not_alphabeta() -> None:
    """Ramanujan, Sabharwal & Selman's failure: with few iterations mcts often takes a trap
    of depth 3, alpha-beta never does; with enough iterations mcts avoids them too."""
    sweep = MctsSweep((4,), (4,), 20, iterations=(100, 3000), seed=1, model="trap", k=3)
    rows = summarize_mcts(run_mcts_sweep(sweep))
    few, many = rows
    assert few["trap"] >= 0.5 and few["alphabeta_trap"] == 0.0
    assert many["trap"] <= 0.1 and many["optimal"] > few["optimal"]


def test_reproducible_in_both_cores() -> None:
    sweep = MctsSweep((2, 3), (3,), 3, iterations=(5, 50), seed=9, model="trap")
    records = run_mcts_sweep(sweep)
    assert run_mcts_sweep(sweep) == records
    with core.pure():
        assert run_mcts_sweep(sweep) == records


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["experiment", *args])


def test_cli_table_csv_json_and_records(tmp_path: Path) -> None:
    base = ["-a", "mcts", "--iterations", "10,100", "-b", "3", "-d", "3", "-n", "4", "-s", "2"]
    r = run(*base, "--model", "trap", "--format", "table")
    assert r.exit_code == 0, r.output
    assert "MCTS against minimax: 4 random trees per (b, d), model trap (p = 0.5, k = 1)" in (
        r.output
    )
    assert "traps: mcts" in r.output and "alphabeta leaves" in r.output
    r = run(*base, "--format", "csv", "-o", str(tmp_path / "r.jsonl"))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == ",".join(MCTS_SUMMARY_KEYS) and len(lines) == 3
    records = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(records) == 8 and list(records[0]) == list(MCTS_RECORD_KEYS)
    r = run(*base, "--format", "json")
    assert [json.loads(x)["iterations"] for x in r.output.splitlines()] == [10, 100]


@pytest.mark.extra("plot")
def test_cli_plot(tmp_path: Path) -> None:
    out = tmp_path / "mcts.png"
    r = run(
        "-a", "mcts", "--iterations", "5,50", "-b", "2", "-d", "3", "-n", "2", "--plot", str(out)
    )
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--iterations", "10"], "--iterations applies to -a mcts only"),
        (["-a", "mcts,alphabeta", "--iterations", "10"], "runs mcts alone"),
        (["-a", "mcts"], "needs --iterations N[,N...]"),
        (["-a", "mcts", "--iterations", "0"], "--iterations must be 1 or more"),
        (["-a", "mcts", "--iterations", "10", "--order", "best"], "does not take --order"),
        (["-a", "mcts", "--iterations", "10", "--chance", "2"], "does not take --chance"),
        (["-a", "mcts", "--iterations", "10", "-d", "0"], "depth 1 or more"),
        (["-a", "mcts", "--iterations", "10", "-b", "9", "-d", "9"], "more than --max-nodes"),
        (["--trap-depth", "3"], "--trap-depth applies to --model trap only"),
    ],
)
def test_cli_refusals(args: list[str], message: str) -> None:
    r = run("-b", "2", "-d", "2", *args)
    assert r.exit_code == 2 and message in r.output, r.output


def test_the_library_refuses_what_the_command_line_does() -> None:
    """MctsSweep checks itself before a tree is built: trials, iterations, jobs."""
    from gtsearch.errors import UsageError

    with pytest.raises(UsageError, match="--trials must be 1 or more, got 0"):
        run_mcts_sweep(MctsSweep((2,), (2,), 0, iterations=(5,)))
    with pytest.raises(UsageError, match="needs --iterations"):
        run_mcts_sweep(MctsSweep((2,), (2,), 1, iterations=()))
    with pytest.raises(UsageError, match="--jobs must be 0"):
        run_mcts_sweep(MctsSweep((2,), (2,), 1, iterations=(5,)), jobs=-1)


def test_jobs_give_the_records_of_one_process() -> None:
    """--jobs 2: the cells searched in two processes, the records as one process makes them,
    in cell order."""
    sweep = MctsSweep((2, 3), (2,), 2, iterations=(5, 20), seed=4, model="binary")
    assert run_mcts_sweep(sweep, jobs=2) == run_mcts_sweep(sweep)


@pytest.mark.extra("plot")
def test_cli_plot_of_traps_and_its_errors(tmp_path: Path) -> None:
    """The trap model's plot draws mcts's and alpha-beta's trap shares too; a plot that
    cannot be written, or of nothing, is one line."""
    from gtsearch.errors import GtsearchError, UsageError
    from gtsearch.render.mcts_sweep import plot_mcts

    out = tmp_path / "traps.png"
    args = ["-a", "mcts", "--iterations", "5,50", "-b", "2", "-d", "3", "-n", "2"]
    r = run(*args, "--model", "trap", "--trap-depth", "2", "--plot", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:4] == b"\x89PNG"
    r = run(*args, "--plot", str(tmp_path / "no" / "such" / "dir.png"))
    assert r.exit_code != 0 and "cannot write the plot" in r.output
    with pytest.raises(UsageError, match="nothing to plot"):
        plot_mcts([], str(out))
    assert issubclass(UsageError, GtsearchError)
