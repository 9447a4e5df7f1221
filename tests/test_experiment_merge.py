"""``experiment --merge``: whole sweeps only (or ``--partial``, said in every output), one
sweep only, and every field of every record checked: hostile record files are one line, exit 2."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import gtsearch.research.experiment as ex
import gtsearch.research.records as er
from gtsearch.cli import cli
from gtsearch.errors import UsageError

#: 2 x 2 x 3 = 12 cells, 2 algorithms: 24 records
BASE = ex.Sweep(
    branchings=(2, 3), depths=(1, 2), trials=3, seed=7, algorithms=("alphabeta", "mtdf")
)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_line(result: Result, *fragments: str) -> str:
    """Exit 2, one line on standard error holding the fragments, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def write(path: str, records: list[dict[str, Any]]) -> str:
    Path(path).write_text(er.records_jsonl(records), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def shards() -> dict[int, list[dict[str, Any]]]:
    return {i: ex.run_sweep(BASE, shard=(i, 3)) for i in (1, 2, 3)}


# -- what a record says of its sweep -------------------------------------------------------------
def test_records_say_their_sweep_and_shard(shards: dict[int, list[dict[str, Any]]]) -> None:
    whole = ex.run_sweep(BASE)
    assert {r["shard"] for r in whole} == {"1/1"}
    assert {r["shard"] for r in shards[2]} == {"2/3"}
    assert whole[0]["sweep"] == {
        "b": [2, 3],
        "d": [1, 2],
        "trials": 3,
        "algorithms": ["alphabeta", "mtdf"],
        "guess": None,
        "tt": 0,
        "k": None,
    }
    assert er.sweep_options(whole[0]["sweep"]) == "-b 2,3 -d 1,2 -n 3 -a alphabeta,mtdf"
    trap = ex.Sweep((2, 3, 4, 8), (2,), 1, model="trap", k=2, guess=1, tt=4, algorithms=("mtdf",))
    assert (
        er.sweep_options(trap.settings())
        == "-b 2..4,8 -d 2 -n 1 -a mtdf --guess 1 --tt 4 --trap-depth 2"
    )
    # every record read back passes every check
    assert all(er.record_problem(json.loads(er.records_jsonl([r]))) is None for r in whole)


def test_whole_merge_is_one_run(shards: dict[int, list[dict[str, Any]]]) -> None:
    whole = ex.run_sweep(BASE)
    merged = er.merge_records([shards[3], shards[1], shards[2]])
    assert merged == whole and er.missing_part(merged) is None
    assert er.records_jsonl(merged) == er.records_jsonl(whole)


# -- parts -------------------------------------------------------------------------------------------
def test_a_part_is_refused_unless_partial(shards: dict[int, list[dict[str, Any]]]) -> None:
    with pytest.raises(
        UsageError, match=r"^the files hold part of the sweep: shard 2/3 is missing; "
    ):
        er.merge_records([shards[1], shards[3]])
    with pytest.raises(UsageError, match=r"part of the sweep: shards 2 and 3 of 3 are missing"):
        er.merge_records([shards[1]])
    part = er.merge_records([shards[1], shards[3]], partial=True)
    assert len(part) == len(shards[1]) + len(shards[3])
    assert {r["shard"] for r in part} == {"1/3", "3/3"}  # a part keeps its shards
    assert er.missing_part(part) == "shard 2/3 is missing"
    # the part and the missing shard merge into the whole
    assert er.merge_records([part, shards[2]]) == ex.run_sweep(BASE)


def test_a_shard_short_of_records(shards: dict[int, list[dict[str, Any]]]) -> None:
    short = shards[2][:-3]
    with pytest.raises(UsageError, match="shard 2/3 lacks 3 of its 8 records"):
        er.merge_records([shards[1], short, shards[3]])
    whole = ex.run_sweep(BASE)
    assert er.missing_part(whole[1:]) == "1 of its 24 records are missing"


def test_many_missing_shards_are_counted() -> None:
    sweep = dataclasses.replace(BASE, algorithms=("alphabeta",))
    part = ex.run_sweep(sweep, shard=(3, 10))
    assert er.missing_part(part) == "shards 1, 2, 4, 5, 6, 7 and 3 more of 10 are missing"
    # shards past the cells (12 cells in 20 shards) hold nothing, and are not missed
    part = ex.run_sweep(sweep, shard=(12, 20))
    text = er.missing_part(part)
    assert text == "shards 1, 2, 3, 4, 5, 6 and 5 more of 20 are missing"


@pytest.mark.parametrize(
    "change, said",
    [
        ({"trials": 4}, "-n 3 in file 1, -n 4 in file 2"),
        ({"branchings": (2,)}, "-b 2,3 in file 1, -b 2 in file 2"),
        ({"depths": (1, 2, 3)}, "-d 1,2 in file 1, -d 1..3 in file 2"),
        ({"algorithms": ("alphabeta",)}, "-a alphabeta,mtdf in file 1, -a alphabeta in file 2"),
        ({"guess": 3}, "no --guess in file 1, --guess 3 in file 2"),
        ({"tt": 1}, "no --tt in file 1, --tt 1 in file 2"),
        ({"seed": 8}, "-s 7 in file 1, -s 8 in file 2"),
        ({"order": "best"}, "--order random in file 1, --order best in file 2"),
        ({"lo": -5, "hi": 5}, "--values -100:100 in file 1, --values -5:5 in file 2"),
        ({"model": "incremental"}, "--model iid in file 1, --model incremental in file 2"),
    ],
)
def test_mixed_sweeps_are_refused_even_as_a_part(
    shards: dict[int, list[dict[str, Any]]], change: dict[str, Any], said: str
) -> None:
    other = ex.run_sweep(dataclasses.replace(BASE, **change), shard=(2, 3))
    for partial in (False, True):
        with pytest.raises(UsageError) as e:
            er.merge_records([shards[1], other, shards[3]], partial=partial)
        assert str(e.value) == f"the files come from different sweeps: {said}"


def test_trap_depths_differ() -> None:
    sweep = ex.Sweep((2,), (2,), 2, model="trap", k=1, algorithms=("alphabeta",))
    a = ex.run_sweep(sweep, shard=(1, 2))
    b = ex.run_sweep(dataclasses.replace(sweep, k=2), shard=(2, 2))
    with pytest.raises(UsageError, match="--trap-depth 1 in file 1, --trap-depth 2 in file 2"):
        er.merge_records([a, b])


def test_different_splits_are_refused(shards: dict[int, list[dict[str, Any]]]) -> None:
    other = ex.run_sweep(BASE, shard=(2, 4))
    with pytest.raises(
        UsageError, match="split the sweep in different ways: shard 1/3 in a, shard 2/4 in b"
    ):
        er.merge_records([shards[1], other], partial=True, names=["a", "b"])


# -- the command: every output says it is a part -----------------------------------------------
def _shard_files() -> None:
    for i in (1, 2, 3):
        args = ["-b", "2,3", "-d", "1,2", "-n", "3", "-s", "7", "-a", "ab,mtdf", "--format", "json"]
        result = run("experiment", *args, "--shard", f"{i}/3", "-o", f"s{i}.jsonl")
        assert result.exit_code == 0, result.stderr


def test_merge_command_refuses_a_part_and_mixed_sweeps() -> None:
    _shard_files()
    one_line(
        run("experiment", "--merge", "s1.jsonl", "s3.jsonl"),
        "the files hold part of the sweep: shard 2/3 is missing; merge every shard, or add "
        "--partial",
    )
    result = run("experiment", "-b", "2,3", "-d", "1,2", "-n", "5", "-s", "7", "-a", "ab,mtdf")
    assert result.exit_code == 0
    run(
        "experiment",
        "-b",
        "2,3",
        "-d",
        "1,2",
        "-n",
        "5",
        "-s",
        "7",
        "-a",
        "ab,mtdf",
        "--shard",
        "2/3",
        "-o",
        "n5.jsonl",
    )
    one_line(
        run("experiment", "--merge", "s1.jsonl", "n5.jsonl", "s3.jsonl", "--partial"),
        "the files come from different sweeps: -n 3 in s1.jsonl, -n 5 in n5.jsonl",
    )
    one_line(run("experiment", "--partial"), "--partial is for --merge")


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_a_partial_merge_says_so_in_every_output(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _shard_files()
    titles: list[str] = []
    monkeypatch.setattr("gtsearch.render.plot.plot", lambda rows, path, title: titles.append(title))
    result = run(
        "experiment",
        "--merge",
        "s1.jsonl",
        "s3.jsonl",
        "--partial",
        "--format",
        fmt,
        "-o",
        "part.jsonl",
        "--plot",
        "part.svg",
    )
    assert result.exit_code == 0, result.stderr
    said = "shard 2/3 is missing"
    assert result.stderr == f"note: a part of the sweep: {said}\n"
    assert titles and titles[0].endswith(f"; PART of the sweep: {said}")
    if fmt == "json":
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert rows and all(row["partial"] == said for row in rows)
    elif fmt == "csv":
        lines = result.stdout.splitlines()
        assert lines[0].endswith(",partial") and all(
            line.endswith("," + said) for line in lines[1:]
        )
    else:
        assert "PART of the sweep: shard 2/3" in " ".join(result.stdout.split())
    records = [json.loads(line) for line in Path("part.jsonl").read_text().splitlines()]
    assert {r["shard"] for r in records} == {"1/3", "3/3"}
    # merged again with the missing shard: the whole sweep, no word of a part
    whole = run("experiment", "--merge", "part.jsonl", "s2.jsonl", "--format", "json")
    assert whole.exit_code == 0 and whole.stderr == "" and '"partial"' not in whole.stdout


def test_a_whole_merge_with_partial_says_nothing() -> None:
    _shard_files()
    result = run(
        "experiment", "--merge", "s1.jsonl", "s2.jsonl", "s3.jsonl", "--partial", "--format", "csv"
    )
    assert result.exit_code == 0 and result.stderr == ""
    assert "partial" not in result.stdout


def test_older_records_merge_only_as_a_part() -> None:
    _shard_files()
    for i in (1, 2, 3):
        lines = Path(f"s{i}.jsonl").read_text().splitlines()
        old = [
            {k: v for k, v in json.loads(line).items() if k not in ("sweep", "shard")}
            for line in lines
        ]
        Path(f"old{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    one_line(
        run("experiment", "--merge", "old1.jsonl", "old2.jsonl", "old3.jsonl"),
        "records written by an older gtsearch do not say which sweep and shards they come "
        "from, so --merge cannot tell the whole sweep from a part: add --partial",
    )
    result = run(
        "experiment",
        "--merge",
        "old1.jsonl",
        "old2.jsonl",
        "old3.jsonl",
        "--partial",
        "--format",
        "json",
    )
    assert result.exit_code == 0
    assert all(
        "older gtsearch" in json.loads(line)["partial"] for line in result.stdout.splitlines()
    )


# -- hostile record files -------------------------------------------------------------------------
def _record() -> dict[str, Any]:
    return json.loads(er.records_jsonl(ex.run_sweep(BASE)[:1]))


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a": ', "}")])
def test_deep_nesting_is_one_line(opening: str, closing: str) -> None:
    depth = 100_000
    Path("deep.jsonl").write_text(opening * depth + "1" + closing * depth + "\n")
    one_line(
        run("experiment", "--merge", "deep.jsonl"),
        "deep.jsonl:1: not a JSON line (nested too deeply)",
    )
    # deep inside a record's field, on its second line
    rec = json.dumps(_record()).replace('"params": null', '"params": ' + "[" * depth + "]" * depth)
    Path("deep.jsonl").write_text(json.dumps(_record()) + "\n" + rec + "\n")
    one_line(
        run("experiment", "--merge", "deep.jsonl"),
        "deep.jsonl:2: not a JSON line (nested too deeply)",
    )


@pytest.mark.parametrize(
    "key, value, said",
    [
        ("leaves", "3", "'leaves' must be a whole number 0 or more, got '3'"),
        ("leaves", 2.5, "'leaves' must be a whole number 0 or more, got 2.5"),
        ("leaves", -1, "'leaves' must be a whole number 0 or more, got -1"),
        ("leaves", True, "'leaves' must be a whole number 0 or more, got true"),
        ("leaves", None, "'leaves' must be a whole number 0 or more, got null"),
        ("leaves", [1], "'leaves' must be a whole number 0 or more, got a list"),
        (
            "distinct_leaves",
            {},
            "'distinct_leaves' must be a whole number 0 or more, got an object",
        ),
        ("nodes", "x" * 100, "'nodes' must be a whole number 0 or more, got 'xxxx"),
        ("leaves_total", -2, "'leaves_total' must be a whole number 0 or more, or null, got -2"),
        ("open_max", 1.0, "'open_max' must be a whole number 0 or more, or null, got 1.0"),
        ("passes", "2", "'passes' must be a whole number 0 or more, or null, got '2'"),
        ("b", 0, "'b' must be a whole number 1 or more, got 0"),
        ("d", "2", "'d' must be a whole number 0 or more, got '2'"),
        ("trial", -1, "'trial' must be a whole number 0 or more, got -1"),
        ("seed", 7.0, "'seed' must be a whole number, got 7.0"),
        ("tree_seed", 2**64, "'tree_seed' must be a whole number of 64 bits"),
        ("order", 3, "'order' must be text, got 3"),
        ("lo", None, "'lo' must be a whole number, got null"),
        ("hi", "100", "'hi' must be a whole number, got '100'"),
        ("model", ["iid"], "'model' must be text, got a list"),
        ("p", "0.5", "'p' must be a number or null, got '0.5'"),
        ("source", 1, "'source' must be text or null, got 1"),
        ("algorithm", None, "'algorithm' must be text, got null"),
        ("params", [], "'params' must be null or an object of numbers, got a list"),
        ("params", {"tt": "1"}, "'params' must be null or an object of numbers, got an object"),
        ("value", "1/0", "'value' must be a number or an exact fraction"),
        ("value", "one", "'value' must be a number or an exact fraction"),
        ("value", None, "'value' must be a number or an exact fraction"),
        ("exact", 1, "'exact' must be true or false, got 1"),
        ("chance", 0, "'chance' must be a whole number 1 or more, got 0"),
        ("sweep", [], "'sweep' must be an object, or null, got a list"),
        ("shard", "0/3", "'shard' must be a shard \"I/N\", or null, got '0/3'"),
        ("shard", "4/3", "'shard' must be a shard \"I/N\", or null, got '4/3'"),
        ("shard", 1, "'shard' must be a shard \"I/N\", or null, got 1"),
        ("shard", None, "'sweep' and 'shard' are both given or both null"),
        ("algorithm", "nope", "algorithm 'nope' is not among the sweep's algorithms"),
        ("algorithm", "ab", "algorithm 'ab' is not among the sweep's algorithms"),
        ("algorithm", "sss", "algorithm 'sss' is not among the sweep's algorithms"),
        ("params", {"tt": 1}, "the parameters of alphabeta are not those of the sweep"),
        ("order", "upside-down", "the record's sweep cannot run: --order must be one of"),
        ("lo", 101, "the record's sweep cannot run: --values LO:HI needs LO <= HI, got 101:100"),
        ("model", "gaussian", "the record's sweep cannot run: random source: model must be one of"),
        (
            "p",
            0.5,
            "the record's sweep cannot run: 'p' is given for models binary and trap and only for them",
        ),
        (
            "b",
            5,
            "b=5 d=1 trial 0 is not a cell of the sweep (-b 2,3 -d 1,2 -n 3 -a alphabeta,mtdf)",
        ),
        ("trial", 3, "b=2 d=1 trial 3 is not a cell of the sweep"),
        ("shard", "2/3", "b=2 d=1 trial 0 is not a cell of shard 2/3"),
    ],
)
def test_a_bad_field_is_one_line_with_the_line_number(key: str, value: Any, said: str) -> None:
    good = _record()
    bad = good | {key: value}
    Path("bad.jsonl").write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n")
    assert one_line(run("experiment", "--merge", "bad.jsonl")).startswith(f"bad.jsonl:3: {said}")


@pytest.mark.parametrize(
    "key, value, said",
    [
        (
            "b",
            [3, 2],
            "'sweep' 'b' must be a list of ascending whole numbers 1 or more, got a list",
        ),
        ("b", [], "'sweep' 'b' must be a list of ascending"),
        ("d", [1, "2"], "'sweep' 'd' must be a list of ascending whole numbers 0 or more"),
        ("trials", 0, "'sweep' 'trials' must be a whole number 1 or more, got 0"),
        ("trials", 3.0, "'sweep' 'trials' must be a whole number 1 or more, got 3.0"),
        (
            "algorithms",
            ["alphabeta", "alphabeta"],
            "'sweep' 'algorithms' must be a list of distinct",
        ),
        ("algorithms", "alphabeta", "'sweep' 'algorithms' must be a list of distinct"),
        ("guess", "1", "'sweep' 'guess' must be a number or null, got '1'"),
        ("tt", -1, "'sweep' 'tt' must be a whole number 0 or more, got -1"),
        ("k", 0, "'sweep' 'k' must be a whole number 1 or more, or null, got 0"),
        (
            "k",
            2,
            "the record's sweep cannot run: 'k' (the traps' depth) is given for model trap and only for it",
        ),
        (
            "b",
            [2, 3, 10**10],
            "the record's sweep cannot run: random source: b=10000000000, d=2 make more than 2**62 leaves",
        ),
        (
            "d",
            [1, 2, 2**30],
            "the record's sweep cannot run: random source: d (depth) must be at most 2**24",
        ),
        (
            "algorithms",
            ["alphabeta", "mtdf", "sss-bounded"],
            "the record's sweep cannot run: sss-bounded needs",
        ),
        (
            "algorithms",
            ["ab", "mtdf"],
            "the record's sweep cannot run: the algorithm 'ab' is written",
        ),
        ("algorithms", ["nope"], "the record's sweep cannot run: unknown algorithm 'nope'"),
        ("tt", 1, "the parameters of alphabeta are not those of the sweep"),
    ],
)
def test_a_bad_sweep_is_one_line(key: str, value: Any, said: str) -> None:
    rec = _record()
    rec["sweep"] = rec["sweep"] | {key: value}
    Path("bad.jsonl").write_text(json.dumps(rec) + "\n")
    assert one_line(run("experiment", "--merge", "bad.jsonl")).startswith(f"bad.jsonl:1: {said}")
    rec["sweep"] = {k: v for k, v in rec["sweep"].items() if k != key}
    Path("bad.jsonl").write_text(json.dumps(rec) + "\n")
    one_line(
        run("experiment", "--merge", "bad.jsonl"), "bad.jsonl:1: 'sweep' must have the keys b, d,"
    )


def test_numbers_json_allows_are_refused_too() -> None:
    for text, said in [
        ("NaN", "got NaN"),
        ("Infinity", "got Infinity"),
        ("1e400", "got Infinity"),
        ("9" * 5000, "not a JSON line"),  # past int's digits limit: refused by the parser
    ]:
        line = re.sub('"leaves": [0-9]+', f'"leaves": {text}', json.dumps(_record()))
        assert text in line
        Path("n.jsonl").write_text(line + "\n")
        one_line(run("experiment", "--merge", "n.jsonl"), "n.jsonl:1:", said)


def test_a_huge_sweep_is_counted_not_listed() -> None:
    # 10**18 trials: the check and the count of what is missing are arithmetic
    rec = _record()
    rec["sweep"] = rec["sweep"] | {"trials": 10**18}
    Path("huge.jsonl").write_text(json.dumps(rec) + "\n")
    one_line(
        run("experiment", "--merge", "huge.jsonl"),
        "of its 8,000,000,000,000,000,000 records are missing",
    )
    rec["shard"] = "1/100000000000000000"
    Path("huge.jsonl").write_text(json.dumps(rec) + "\n")
    one_line(
        run("experiment", "--merge", "huge.jsonl"),
        "shards 2, 3, 4, 5, 6, 7 and 99,999,999,999,999,993 more of 100000000000000000 are missing",
    )
