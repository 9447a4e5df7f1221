"""Sweeps, shards, statistics and Pearl's R(b); the classic results, reproduced; the experiment command."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import gtsearch.research.experiment as ex
import gtsearch.research.records as er
from gtsearch.cli import cli
from gtsearch.errors import CheckFailed, GtsearchError, UsageError
from gtsearch.render.plot import plot
from gtsearch.result import SearchResult
from gtsearch.sources.uniform import uniform_tree

PRUNING = ("alphabeta", "sss", "dual", "negascout", "scout", "mt-sss", "mt-dual")
SMALL = ex.Sweep(branchings=(2, 3), depths=(1, 2, 3), trials=4, seed=7)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


# -- reference numbers -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "b, r", [(2, 1.618), (3, 2.148), (4, 2.630), (5, 3.080), (8, 4.309), (10, 5.064)]
)
def test_pearl_r_is_literature_md(b: int, r: float) -> None:
    assert round(ex.pearl_r(b), 3) == r
    xi = ex.pearl_xi(b)
    assert 0 < xi < 1 and abs(xi**b + xi - 1) < 1e-15


def test_pearl_r_edges() -> None:
    assert ex.pearl_r(1) == 1.0
    rs = [ex.pearl_r(b) for b in range(1, 30)]
    assert rs == sorted(rs) and all(math.sqrt(b) <= r <= b for b, r in enumerate(rs, 1))
    with pytest.raises(UsageError):
        ex.pearl_r(0)


def test_minimal_and_full_tree() -> None:
    assert [ex.minimal_tree(40, d) for d in (2, 3, 4, 5)] == [79, 1639, 3199, 65599]
    assert [ex.minimal_tree(2, d) for d in range(0, 7)] == [1, 2, 3, 5, 7, 11, 15]
    assert ex.full_tree(3, 4) == 81


# -- the grid, seeds and shards ---------------------------------------------------------------
def test_tree_seeds_are_fixed_and_distinct() -> None:
    # the derivation is part of the record format: shards from other machines must agree
    assert ex.tree_seed(0, 2, 3, 0) == 9898254972189168262
    assert ex.tree_seed(1, 4, 8, 199) == 18412090310290896356
    seeds = {
        ex.tree_seed(s, b, d, t)
        for s in range(3)
        for b in range(1, 6)
        for d in range(6)
        for t in range(10)
    }
    assert len(seeds) == 3 * 5 * 6 * 10


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2..4", (2, 3, 4)),
        ("3", (3,)),
        ("2,4,8", (2, 4, 8)),
        ("2..3, 8", (2, 3, 8)),
        ("4,2..3", (2, 3, 4)),
        (" 5 .. 5 ", (5,)),
    ],
)
def test_parse_range(text: str, expected: tuple[int, ...]) -> None:
    assert ex.parse_range(text, "--depth") == expected


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "takes a number"),
        ("2-4", "takes a number"),
        ("a..b", "takes a number"),
        ("4..2", "empty"),
        ("0..2", "1 or more"),
    ],
)
def test_parse_range_errors(text: str, fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment):
        ex.parse_range(text, "--branching", 1)


def test_parse_shard() -> None:
    assert ex.parse_shard("2/4") == (2, 4)
    for bad in ("0/4", "5/4", "1", "a/b", "1/0"):
        with pytest.raises(UsageError, match="--shard"):
            ex.parse_shard(bad)


@pytest.mark.parametrize("count", [1, 2, 3, 7, 50])
def test_shards_partition_the_cells(count: int) -> None:
    cells = SMALL.cells()
    shards = [ex.shard_cells(cells, i, count) for i in range(1, count + 1)]
    assert sorted(c for s in shards for c in s) == sorted(cells)
    assert sum(len(s) for s in shards) == len(cells)


def test_merged_shards_equal_one_run() -> None:
    whole = ex.run_sweep(SMALL)
    shards = [ex.run_sweep(SMALL, shard=(i, 3)) for i in (1, 2, 3)]
    merged = er.merge_records([shards[2], shards[0], shards[1]])
    assert merged == whole
    assert ex.summarize(merged) == ex.summarize(whole)
    assert [(r["b"], r["d"], r["trial"]) for r in whole[:: len(SMALL.algorithms)]] == SMALL.cells()


def test_jobs_do_not_change_the_records() -> None:
    sweep = ex.Sweep(branchings=(2, 3), depths=(2, 4), trials=3, seed=1)
    assert ex.run_sweep(sweep, jobs=2) == ex.run_sweep(sweep, jobs=1)


def test_merge_refuses_overlaps_and_mixed_sweeps() -> None:
    a = ex.run_sweep(SMALL, shard=(1, 2))
    with pytest.raises(UsageError, match="twice"):
        er.merge_records([a, a])
    other = ex.run_sweep(ex.Sweep(branchings=(2,), depths=(1,), trials=1, seed=8))
    with pytest.raises(UsageError, match="different sweeps: -s 7 .* in file 1, -s 8 .* in file 2"):
        er.merge_records([a, other])
    forged = [dict(r, tree_seed=1) if i == 0 else r for i, r in enumerate(a)]
    with pytest.raises(UsageError, match="does not follow"):
        er.merge_records([forged])


def test_sweep_check() -> None:
    with pytest.raises(UsageError, match="--max-nodes must be 1 or more"):
        ex.Sweep(branchings=(10,), depths=(8,), trials=1).check(0)
    with pytest.raises(UsageError, match="needs a bound"):
        ex.Sweep(branchings=(2,), depths=(2,), trials=1, algorithms=("sss-bounded",)).check()
    with pytest.raises(UsageError, match="--guess"):
        ex.Sweep(branchings=(2,), depths=(2,), trials=1, algorithms=("sss",), guess=3).check()
    with pytest.raises(UsageError, match="--order"):
        ex.Sweep(branchings=(2,), depths=(2,), trials=1, order="nope").check()


def test_sweep_default_algorithms_are_those_of_algo_all() -> None:
    """The library's default is the CLI's ``--algo all``: the chance algorithms on chance
    trees only (they once ran on every sweep, and a chance sweep refused minimax)."""
    plain = ex.Sweep(branchings=(2,), depths=(2,), trials=1)
    chance = ex.Sweep(branchings=(2,), depths=(2,), trials=1, chance=2)
    assert plain.algorithms == (
        "minimax",
        "f1",
        "alphabeta",
        "sss",
        "dual",
        "negascout",
        "scout",
        "mt-sss",
        "mt-dual",
        "mtdf",
    )
    assert chance.algorithms == ("expectiminimax", "star1", "star2")
    chance.check()
    assert {r["algorithm"] for r in ex.run_sweep(chance)} == set(chance.algorithms)


def test_disagreement_is_a_check_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ex.run

    def lying(tree: Any, algo: Any, params: Any) -> SearchResult:
        r = real(tree, algo, params)
        if r.algorithm == "scout":
            return r._replace(value=r.value + 1)
        return r

    monkeypatch.setattr(ex, "run", lying)
    with pytest.raises(CheckFailed, match=r"b=2 d=1 trial 0 .*disagree.*scout"):
        ex.run_sweep(SMALL)


# -- statistics -------------------------------------------------------------------------------
def _rec(
    b: int, d: int, trial: int, algo: str, leaves: int, distinct: int | None = None
) -> dict[str, Any]:
    return {
        "b": b,
        "d": d,
        "trial": trial,
        "algorithm": algo,
        "leaves": leaves,
        "distinct_leaves": leaves if distinct is None else distinct,
    }


def test_summarize_mean_and_standard_error() -> None:
    records = [_rec(2, 3, t, "x", v, v - 1) for t, v in enumerate([4, 6, 8])]
    records += [_rec(2, 2, 0, "y", 3), _rec(2, 2, 0, "x", 4)]
    rows = ex.summarize(records)
    assert [(r["b"], r["d"], r["algorithm"]) for r in rows] == [
        (2, 2, "x"),
        (2, 2, "y"),
        (2, 3, "x"),
    ]
    row = rows[2]
    assert (row["trials"], row["mean"], row["min"], row["max"]) == (3, 6.0, 4, 8)
    assert row["stderr"] == pytest.approx(2 / math.sqrt(3))  # sd 2 over sqrt(3)
    assert row["share"] == 6 / 8 and row["minimal_tree"] == 5 and row["full_tree"] == 8
    assert row["mean_distinct"] == 5.0
    assert rows[0]["stderr"] == 0.0  # one trial


def test_growth_per_ply() -> None:
    rows = [{"b": 3, "d": d, "algorithm": "ab", "mean": float(3**d)} for d in (2, 3, 4, 5)]
    [g] = ex.growth(rows)
    assert g["ratio"] == pytest.approx(3.0) and g["ratio_depths"] == (3, 5)
    assert g["fit"] == pytest.approx(3.0) and g["pearl_r"] == ex.pearl_r(3)
    [g] = ex.growth([{"b": 2, "d": 4, "algorithm": "ab", "mean": 9.0}])
    assert g["ratio"] is None and g["fit"] is None


# -- the classic results --------------------------------------------------------------------------
def test_best_first_trees_get_exactly_the_minimal_tree() -> None:
    """Knuth & Moore: alpha-beta, and SSS*, DUAL* and the rest, evaluate b^ceil(d/2) + b^floor(d/2) - 1."""
    sweep = ex.Sweep(
        branchings=(2, 3, 4),
        depths=tuple(range(0, 7)),
        trials=3,
        seed=2,
        order="best",
        algorithms=PRUNING,
    )
    for r in ex.run_sweep(sweep):
        assert r["leaves"] == ex.minimal_tree(r["b"], r["d"]), r


def test_mtdf_on_best_first_trees_gets_exactly_the_minimal_tree() -> None:
    """MTD(f) from its default first guess, like the others: every pass stays in the minimal tree."""
    sweep = ex.Sweep(
        branchings=(2, 3, 4),
        depths=tuple(range(0, 7)),
        trials=5,
        seed=3,
        order="best",
        algorithms=("mtdf",),
    )
    for r in ex.run_sweep(sweep):
        assert r["leaves"] == ex.minimal_tree(r["b"], r["d"]), r


def test_worst_first_shallow_trees_get_every_leaf() -> None:
    """Depth <= 3, distinct values, worst move first: alpha-beta cuts nothing."""
    sweep = ex.Sweep(
        branchings=(2, 3, 4, 5),
        depths=(1, 2, 3),
        trials=5,
        seed=3,
        order="worst",
        lo=-(10**9),
        hi=10**9,
        algorithms=("alphabeta",),
    )
    for b, d, t in sweep.cells():
        tree = uniform_tree(
            b, d, seed=ex.tree_seed(3, b, d, t), order="worst", lo=-(10**9), hi=10**9
        )
        leaves = [tree.values[n] for n in range(tree.n_nodes) if tree.is_leaf(n)]
        assert len(set(leaves)) == len(leaves)
    for r in ex.run_sweep(sweep):
        assert r["leaves"] == r["b"] ** r["d"], r


def test_worst_first_deeper_trees_still_get_most_leaves() -> None:
    """Deep cutoffs prune only a few: these trees keep 80% to 99% of their leaves at depths 4-6."""
    sweep = ex.Sweep(
        branchings=(2, 3, 4),
        depths=(4, 5, 6),
        trials=20,
        seed=0,
        order="worst",
        lo=-(10**9),
        hi=10**9,
        algorithms=("alphabeta",),
    )
    shares = {(r["b"], r["d"]): r["share"] for r in ex.summarize(ex.run_sweep(sweep))}
    assert all(0.8 <= s < 1 for s in shares.values()), shares
    assert shares[(4, 6)] < shares[(4, 4)] and shares[(2, 6)] < shares[(2, 4)]


def test_sss_and_dual_never_evaluate_more_than_alphabeta() -> None:
    """Stockman's dominance (and its mirror), tree by tree, ties included."""
    for lo, hi in ((-100, 100), (0, 3)):
        sweep = ex.Sweep(
            branchings=(2, 3, 4),
            depths=tuple(range(1, 6)),
            trials=8,
            seed=4,
            lo=lo,
            hi=hi,
            algorithms=("alphabeta", "sss", "dual", "mt-sss", "mt-dual", "negascout"),
        )
        records = ex.run_sweep(sweep)
        for cell in ex.cells_of(records):
            leaves = {r["algorithm"]: r for r in cell}
            ab = leaves["alphabeta"]["leaves"]
            for name in ("sss", "dual", "mt-sss", "mt-dual"):
                assert leaves[name]["leaves"] <= ab, cell
            assert leaves["negascout"]["distinct_leaves"] <= ab


def test_alphabeta_grows_like_pearls_r() -> None:
    """Binary random trees to depth 10: the growth per ply is near R(2) = 1.618, not 2 or sqrt(2)."""
    sweep = ex.Sweep(
        branchings=(2,), depths=tuple(range(2, 11)), trials=30, seed=0, algorithms=("alphabeta",)
    )
    [g] = ex.growth(ex.summarize(ex.run_sweep(sweep)))
    assert g["ratio_depths"] == (8, 10)
    assert math.sqrt(2) < g["ratio"] < 2 and abs(g["ratio"] / ex.pearl_r(2) - 1) < 0.1


# -- the command -------------------------------------------------------------------------------
def test_experiment_table() -> None:
    result = run("experiment", "-b", "2", "-d", "2..4", "-n", "5", "--format", "table")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Mean leaves evaluated ± standard error: 5 random trees per (b, d)" in out
    for name in ("minimax", "alphabeta", "negascout", "mtdf", "minimal", "R(b) Pearl"):
        assert name in out
    assert "1.618" in out and "2→4" in out


def test_experiment_json_and_csv() -> None:
    rows = [
        json.loads(line)
        for line in run(
            "experiment", "-b", "2..3", "-d", "3", "-n", "4", "-a", "ab,sss"
        ).stdout.splitlines()
    ]
    assert [(r["b"], r["algorithm"]) for r in rows] == [
        (2, "alphabeta"),
        (2, "sss"),
        (3, "alphabeta"),
        (3, "sss"),
    ]
    assert set(rows[0]) == set(ex.SUMMARY_KEYS) and rows[0]["trials"] == 4
    text = run("experiment", "-b", "2", "-d", "3", "-n", "4", "-a", "ab", "--format", "csv").stdout
    header, line = text.splitlines()
    assert header.split(",") == list(ex.SUMMARY_KEYS)
    assert line.startswith("2,3,alphabeta,4,")


def test_experiment_records_file_and_merge(tmp_path: Path) -> None:
    args = [
        "-b",
        "2..3",
        "-d",
        "1..3",
        "-n",
        "3",
        "-s",
        "5",
        "-a",
        "ab,negascout,mtdf",
        "--guess",
        "1",
        "--format",
        "json",
    ]
    one = run("experiment", *args, "-o", "all.jsonl")
    assert one.exit_code == 0, one.stderr
    for i in (1, 2, 3):
        shard = run("experiment", *args, "--shard", f"{i}/3", "-o", f"shard{i}.jsonl")
        assert shard.exit_code == 0, shard.stderr
    merged = run(
        "experiment",
        "--merge",
        "shard3.jsonl",
        "shard1.jsonl",
        "shard2.jsonl",
        "-o",
        "merged.jsonl",
        "--format",
        "json",
    )
    assert merged.exit_code == 0, merged.stderr
    assert merged.stdout == one.stdout
    assert Path("merged.jsonl").read_text() == Path("all.jsonl").read_text()
    records = [json.loads(line) for line in Path("all.jsonl").read_text().splitlines()]
    assert len(records) == 2 * 3 * 3 * 3 and set(records[0]) == set(ex.RECORD_KEYS)
    assert {json.dumps(r["params"]) for r in records if r["algorithm"] == "mtdf"} == {
        '{"bound": 1}'
    }

    assert run("experiment", *args[:6], "-o", "all.csv").exit_code == 0
    header = Path("all.csv").read_text().splitlines()[0]
    assert header.split(",") == list(ex.RECORD_KEYS)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--merge"], "needs the record files"),
        (["--merge", "x.jsonl", "-b", "3"], "drop --branching"),
        (["--merge", "x.jsonl", "--values", "0:3"], "drop --values"),
        (["--merge", "missing.jsonl"], "missing.jsonl: cannot read"),
        (["--merge", "bad.jsonl"], "bad.jsonl:1: not a JSON line"),
        (["--merge", "other.jsonl"], "other.jsonl:1: not an experiment record"),
        (["--merge", "latin1.jsonl"], "latin1.jsonl: not UTF-8 text; --merge reads the JSON lines"),
        (["--merge", "blank.jsonl"], "the files hold no records"),
        (["stray.jsonl"], "FILE... is for --merge"),
        (["--shard", "2/3"], "--shard needs -o"),
        (["--shard", "4/3", "-o", "x.jsonl"], "1 <= I <= N"),
        (["-b", "2..1"], "empty"),
        (["-b", "0"], "--branching must be 1 or more"),
        (["-b", "9", "-d", "9", "-a", "ab", "--max-nodes", "1000"], "more than --max-nodes 1,000"),
        (["-a", "sss-bounded"], "needs a bound"),
        (["-a", "nope"], "unknown algorithm 'nope'"),
        (["-a", "ab", "--guess", "2"], "--guess"),
        (["--values", "3"], "LO:HI"),
    ],
)
def test_experiment_usage_errors(args: list[str], fragment: str) -> None:
    Path("bad.jsonl").write_text("{oops\n")
    Path("other.jsonl").write_text('{"a": 1}\n')
    Path("latin1.jsonl").write_bytes(b"\xff\xfe\n")
    Path("blank.jsonl").write_text("\n\n")
    result = (
        run("experiment", "-n", "1", *args) if "--merge" not in args else run("experiment", *args)
    )
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr


def test_experiment_disagreement_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ex, "check_agreement", _always_fails)
    result = run("experiment", "-b", "2", "-d", "2", "-n", "1")
    assert result.exit_code == 1
    assert result.stderr.strip() == "planted disagreement"


def _always_fails(records: Any) -> None:
    raise CheckFailed("planted disagreement")


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
@pytest.mark.extra("plot")
def test_experiment_plot(suffix: str, magic: bytes) -> None:
    result = run(
        "experiment",
        "-b",
        "2..3",
        "-d",
        "1..3",
        "-n",
        "2",
        "--plot",
        "leaves" + suffix,
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    assert Path("leaves" + suffix).read_bytes().startswith(magic)


def test_experiment_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    result = run("experiment", "-b", "2", "-d", "2", "-n", "1", "--plot", "x.png")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "--plot needs matplotlib: install gtsearch[plot] (pip install 'gtsearch[plot]')"
    )
    with pytest.raises(GtsearchError, match=r"install gtsearch\[plot\]"):
        plot([{"b": 2, "d": 2, "algorithm": "ab", "mean": 3.0, "stderr": 0.0}], "x.png")


@pytest.mark.extra("dask")
def test_dask_local_equals_jobs_1() -> None:
    """experiment --dask local (two workers): the records and the summary of --jobs 1, byte for byte."""
    sweep = ex.Sweep(branchings=(2, 3), depths=(2, 3), trials=2, seed=3, algorithms=("ab", "sss"))
    alone = ex.run_sweep(sweep)
    spread = ex.run_sweep(sweep, jobs=2, dask="local")
    assert er.records_jsonl(spread) == er.records_jsonl(alone)
    assert ex.summarize(spread) == ex.summarize(alone)
