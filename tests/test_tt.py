"""The transposition table (--tt): same values and PVs, MT-SSS* = SSS*, the two-tier scheme."""

from __future__ import annotations

import json
from array import array
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import search
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.registry import TABLE_ALGORITHMS
from gtsearch.algorithms.table import FULL, Table
from gtsearch.algorithms.tabled import TableSearch
from gtsearch.cli import cli
from gtsearch.sources import open_source
from gtsearch.tree import Tree

from .strategies import minimax, trees
from .tables import tiny_tables
from .test_scout import assert_valid_pv

# -- properties over random trees ------------------------------------------------------------
DEPTH_FIRST = tuple(a for a in TABLE_ALGORITHMS if a not in ("star1", "star2"))


@settings(max_examples=150, deadline=None)
@given(trees, st.booleans(), st.sampled_from(TABLE_ALGORITHMS))
def test_a_table_changes_neither_value_nor_pv(nested: Any, root_max: bool, name: str) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    without = search(tree, name)
    with_table = search(tree, name, tt=1)
    assert with_table.value == without.value == minimax(nested, root_max)
    assert with_table.pv == without.pv
    assert_valid_pv(tree, nested, with_table)
    counts = with_table.extra["tt"]
    assert counts["hits"] >= counts["cuts"] + counts["orders"]
    assert counts["probes"] >= counts["hits"]
    assert with_table.extra["distinct_leaves"] + with_table.extra["re_evaluations"] == (
        with_table.leaves
    )


@settings(max_examples=200, deadline=None)
@given(trees, st.booleans())
def test_mt_sss_with_a_table_reads_sss_leaves_in_order(nested: Any, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    sss = search(tree, "sss", leaf_order=True)
    mt = search(tree, "mt-sss", tt=64, leaf_order=True)
    assert mt.value == sss.value
    assert mt.leaf_order == sss.leaf_order


@settings(max_examples=100, deadline=None)
@given(trees, st.booleans(), st.sampled_from(["mtdf", "mt-dual", "mt-sss"]), st.integers(-5, 5))
def test_the_mt_family_with_a_large_table_reads_no_leaf_twice(
    nested: Any, root_max: bool, name: str, guess: int
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    r = search(tree, name, tt=64, **({"bound": guess} if name == "mtdf" else {}))
    assert r.extra["re_evaluations"] == 0
    assert r.value == minimax(nested, root_max)


@settings(max_examples=60, deadline=None)
@given(trees, st.booleans(), st.sampled_from(TABLE_ALGORITHMS), st.integers(1, 3))
def test_a_forgetful_table_rereads_but_keeps_the_value(
    nested: Any, root_max: bool, name: str, buckets: int
) -> None:
    """A table of one to three buckets loses entries all the time: the value stays exact."""
    from gtsearch.algorithms import chance_tabled, tabled

    with tiny_tables(buckets, tabled, chance_tabled):
        r = search(Tree.from_nested(nested, root_max=root_max), name, tt=1)
    assert r.value == minimax(nested, root_max)
    assert r.extra["tt"]["used"] <= 2 * buckets


# -- the table itself ----------------------------------------------------------------------------
def test_two_tier_replacement() -> None:
    t = Table(1)
    t.buckets = 1  # every key in one bucket: slots 0 (depth-preferred) and 1 (always-replace)
    t.store("a", 1, 1, 5, -1)
    t.store("b", 2, 2, 3, -1)  # shallower than a: the second slot
    assert t.slots[0][0] == "a" and t.slots[1][0] == "b"
    t.store("c", 3, 3, 4, -1)  # still shallower than a: replaces b
    assert t.slots[1][0] == "c" and t.overwrites == 1
    t.store("d", 4, 4, 5, -1)  # as deep as a: takes the first slot, a moves down, c is lost
    assert t.slots[0][0] == "d" and t.slots[1][0] == "a" and t.overwrites == 2
    t.store("a", 0, 9, 5, 2)  # a again, same draft: bounds merged in place
    assert t.slots[1] == ["a", 1, 1, 5, 2] and t.overwrites == 2
    t.store("a", 0, 9, FULL, -1)  # another draft: replaced, the move kept only when given
    assert t.slots[1] == ["a", 0, 9, FULL, -1]
    assert t.probe("a") is not None and t.probe("zz") is None
    assert (t.probes, t.hits, t.stores) == (2, 1, 6)
    assert t.counts()["used"] == 2
    with pytest.raises(ValueError):
        Table(0)


def test_a_store_of_the_same_draft_merges_the_bounds_and_keeps_the_move() -> None:
    """The same key and draft: both bounds hold, so the entry keeps [max of the lowers, min of
    the uppers]; a new move replaces the old one, -1 (no move) keeps it; another draft, or a
    proof-number store (merge=False), replaces the entry whole."""
    t = Table(1)
    t.store(7, 1, 5, 3, 2)
    t.store(7, 2, 9, 3, -1)  # [max(2, 1), min(9, 5)]; no move given: 2 kept
    assert t.peek(7) == [7, 2, 5, 3, 2]
    t.store(7, 0, 4, 3, 0)  # move 0 is a move: it replaces 2
    assert t.peek(7) == [7, 2, 4, 3, 0]
    t.store(7, -1, 8, 3, -1)
    assert t.peek(7) == [7, 2, 4, 3, 0]
    t.store(7, 3, 3, 4, -1)  # another draft: replaced, the move with it
    assert t.peek(7) == [7, 3, 3, 4, -1]
    t.store(7, 0, 9, 4, 1, merge=False)  # same draft, but replaced: df-pn's two numbers
    assert t.peek(7) == [7, 0, 9, 4, 1]
    assert (t.stores, t.overwrites, t.probes, len(t.slots)) == (6, 0, 0, 1)


def test_a_key_in_the_second_slot_is_merged_there() -> None:
    """A key found in the always-replace slot is updated in place, the deep slot untouched,
    with no overwrite counted; a new key shallower than the deep entry replaces the second
    slot and counts the entry it loses."""
    t = Table(1)
    t.buckets = 1
    t.store("deep", 0, 0, 9, 0)
    t.store("k", 1, 6, 2, 1)  # shallower: the second slot
    t.store("k", 3, 8, 2, -1)  # merged there: [3, 6], move 1 kept
    assert t.slots == {0: ["deep", 0, 0, 9, 0], 1: ["k", 3, 6, 2, 1]}
    t.store("k", 4, 4, 9, 0)  # deeper now, but found in its slot: updated there, not moved
    assert t.slots == {0: ["deep", 0, 0, 9, 0], 1: ["k", 4, 4, 9, 0]}
    assert t.overwrites == 0
    t.store("new", 5, 5, 1, 2)  # shallower than "deep": replaces "k", one overwrite
    assert t.slots == {0: ["deep", 0, 0, 9, 0], 1: ["new", 5, 5, 1, 2]}
    assert (t.stores, t.overwrites) == (5, 1)
    t.store("deeper", 6, 6, 10, 3)  # deeper than "deep": first slot; "deep" down, "new" lost
    assert t.slots == {0: ["deeper", 6, 6, 10, 3], 1: ["deep", 0, 0, 9, 0]}
    t.store("last", 7, 7, 0, -1)  # shallower: "deep" lost from the second slot
    assert t.slots == {0: ["deeper", 6, 6, 10, 3], 1: ["last", 7, 7, 0, -1]}
    assert t.probe("deeper") == ["deeper", 6, 6, 10, 3] and t.probe("last") is not None
    assert t.probe("deep") is None
    assert t.counts() == {
        "mib": 1,
        "entries": 32_768,
        "probes": 3,
        "hits": 2,
        "cuts": 0,
        "orders": 0,
        "stores": 7,
        "overwrites": 3,
        "used": 2,
    }


def test_the_counters_of_the_compiled_cores_table_are_the_results() -> None:
    """take(): the compiled core's seven counters, in its order, replace the table's own; its
    entries used replace the count of the slots held here (none: the C core held them)."""
    t = Table(2)
    t.store(1, 0, 0, 1, -1)
    t.take((11, 7, 3, 2, 19, 5, 13))
    assert t.counts() == {
        "mib": 2,
        "entries": 65_536,
        "probes": 11,
        "hits": 7,
        "cuts": 3,
        "orders": 2,
        "stores": 19,
        "overwrites": 5,
        "used": 13,
    }


def reference_store(
    buckets: list[list[Any]], key: int, lower: float, upper: float, draft: int, move: int
) -> int:
    """docs/algorithms.md's two-tier rule, written from the text: the overwrites it counts.

    A bucket is [deep, last], each None or [key, lower, upper, draft, move]."""
    bucket = buckets[key % len(buckets)]
    for i in (0, 1):
        old = bucket[i]
        if old is not None and old[0] == key:
            if old[3] == draft:  # both proofs hold: the tighter bounds, the move if any
                lower, upper = max(lower, old[1]), min(upper, old[2])
                move = old[4] if move == -1 else move
            bucket[i] = [key, lower, upper, draft, move]
            return 0
    new = [key, lower, upper, draft, move]
    deep, last = bucket
    if deep is None or draft >= deep[3]:  # the deep slot: its entry moves to the last slot
        lost = last is not None and deep is not None
        bucket[:] = [new, deep if deep is not None else last]
    else:
        lost = last is not None
        bucket[1] = new
    return int(lost)


stores = st.lists(
    st.tuples(
        st.integers(0, 7),
        st.integers(-3, 3),
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(-1, 2),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(stores, st.integers(1, 3))
def test_the_table_follows_the_two_tier_rule(ops: list[tuple[int, ...]], n: int) -> None:
    """Random stores into a few buckets: every slot, and the overwrites, as the rule says."""
    t = Table(1)
    t.buckets = n
    buckets: list[list[Any]] = [[None, None] for _ in range(n)]
    overwrites = 0
    for key, lower, width, draft, move in ops:
        t.store(key, lower, lower + width, draft, move)
        overwrites += reference_store(buckets, key, lower, lower + width, draft, move)
    slots = {2 * b + i: e for b, pair in enumerate(buckets) for i, e in enumerate(pair) if e}
    assert t.slots == slots
    assert (t.stores, t.overwrites) == (len(ops), overwrites)
    for key in range(8):
        found = next((e for pair in buckets for e in pair if e and e[0] == key), None)
        assert t.probe(key) == found
    assert t.hits == len(slots)


def test_the_bucket_of_an_int_key_is_the_key() -> None:
    """Keys are numbers given in order: key mod buckets (docs/algorithms.md, "The layout")."""
    from gtsearch.algorithms.table import key_number

    for k in (0, 1, 12345, 2**64 - 1):
        assert key_number(k) == k
    assert key_number(-1) == 2**64 - 1
    for k in ("a position", (3, 1, 4)):  # a key that is not an int: its hash, as 64 bits
        assert key_number(k) == hash(k) % 2**64
    t = Table(1)
    assert (t.entries, t.buckets) == (32_768, 16_384)  # 32-byte entries, two to a bucket
    assert t.slot(2**64 - 1) == 2 * 16_383  # 64-bit keys placed exactly, as table.c places them
    with pytest.raises(ValueError, match=r"^a table needs at least 1 MiB, got 0$"):
        Table(0)
    assert [t.slot(k) for k in (0, 1, t.buckets - 1, t.buckets, t.buckets + 7)] == [
        0,
        2,
        2 * (t.buckets - 1),
        0,
        14,
    ]


# -- games: transpositions -----------------------------------------------------------------------
@pytest.mark.parametrize("name", DEPTH_FIRST)
def test_nim_with_a_table_reads_fewer_leaves(name: str) -> None:
    game = open_source("game:nim:7")
    without = search(game, name)
    with_table = search(game, name, tt=1)
    assert with_table.value == without.value
    assert with_table.leaves < without.leaves
    whole = Tree.from_nested(game.to_nested())
    pv_node = 0
    for i in with_table.pv:
        pv_node = whole.child(pv_node, i)
        assert search(_subtree(whole, pv_node), "minimax").value == without.value
    assert whole.is_leaf(pv_node)


def _subtree(tree: Tree, n: int) -> Tree:
    depth = 0
    m = n
    while m:
        m = tree.parent[m]
        depth += 1
    return Tree.from_nested(tree.to_nested(n), root_max=tree.root_max == (depth % 2 == 0))


def test_tictactoe_with_a_table() -> None:
    r = search(open_source("game:tictactoe"), "alphabeta", tt=16)
    assert r.value == 0
    assert r.leaves < 7_330  # alpha-beta's leaves without the table
    assert r.extra["expanded"] < 5_478  # the game's positions


# -- the command line ------------------------------------------------------------------------------
def test_eval_json_carries_the_table(sample_trees: Any) -> None:
    path = str(sample_trees / "aima-fig5-2.yaml")
    out = CliRunner().invoke(cli, ["eval", path, "-a", "all", "--tt", "1", "--format", "json"])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    tabled = {r["algorithm"] for r in records if "tt" in r}
    assert tabled == set(TABLE_ALGORITHMS) - {"star1", "star2"}
    for r in records:
        assert r["value"] == 3
        if "tt" in r:
            assert r["params"]["tt"] == 1 and r["tt"]["mib"] == 1 and r["tt"]["entries"] == 32768
    off = CliRunner().invoke(cli, ["eval", path, "--tt", "0", "--format", "json"])
    assert "tt" not in json.loads(off.output) and '"params"' not in off.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "-a", "minimax", "--tt", "1"], "--tt applies to alphabeta, negascout"),
        (["eval", "--tt", "1", "--variant", "fail-hard"], "fail-soft alphabeta only"),
        (["trace", "--tt", "1", "-a", "negascout"], "trace --tt follows alphabeta with its"),
    ],
)
def test_tt_refused(sample_trees: Any, args: list[str], message: str) -> None:
    out = CliRunner().invoke(cli, [*args, str(sample_trees / "aima-fig5-2.yaml")])
    assert out.exit_code == 2
    assert message in out.output


def test_compare_and_show_take_the_table(sample_trees: Any) -> None:
    path = str(sample_trees / "wikipedia-alphabeta.json")
    out = CliRunner().invoke(
        cli, ["compare", path, "--tt", "1", "--guess", "6", "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    mtdf = [json.loads(x) for x in out.output.splitlines() if '"mtdf"' in x][0]
    assert mtdf["params"] == {"bound": 6, "tt": 1} and mtdf["tt"]["mib"] == 1
    shown = CliRunner().invoke(cli, ["show", path, "--tt", "1"])
    assert shown.exit_code == 0 and "alphabeta (tt 1): value 6" in shown.output


def test_experiment_takes_the_table() -> None:
    args = ["experiment", "-b", "3", "-d", "4", "-n", "5", "-a", "negascout,mtdf", "--format"]
    with_table = CliRunner().invoke(cli, [*args, "json", "--tt", "1"])
    without = CliRunner().invoke(cli, [*args, "json"])
    assert with_table.exit_code == 0 == without.exit_code, with_table.output
    table = CliRunner().invoke(cli, [*args, "table", "--tt", "1"])
    assert ", table 1 MiB" in table.output.splitlines()[0]
    assert with_table.output != without.output


# -- Star1 and Star2 -------------------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["star1", "star2"]), st.integers(1, 3))
def test_star_with_a_table_keeps_value_and_pv(seed: int, name: str, b: int) -> None:
    tree = open_source(f"random:b={b},d=2,chance=2,seed={seed}")
    without = search(tree, name)
    with_table = search(tree, name, tt=1)
    assert with_table.value == without.value and with_table.pv == without.pv
    assert with_table.extra.get("value_exact") == without.extra.get("value_exact")
    assert with_table.extra["re_evaluations"] == 0
    assert with_table.params["tt"] == 1 and "leaf_bounds" in with_table.params


def test_star2_with_a_table_reads_no_more_than_star1() -> None:
    """30 regular chance trees: Star2 re-reads its probes without a table, not with one."""
    totals = dict.fromkeys(("star1", "star2", "star2 tt"), 0)
    for seed in range(30):
        tree = open_source(f"random:b=3,d=2,chance=3,seed={seed}")
        totals["star1"] += search(tree, "star1").leaves
        totals["star2"] += search(tree, "star2").leaves
        totals["star2 tt"] += search(tree, "star2", tt=1).leaves
    assert totals["star2 tt"] <= totals["star1"] < totals["star2"]


@pytest.mark.parametrize("name", ["star1", "star2"])
def test_star_with_a_table_on_a_game_with_transpositions(name: str) -> None:
    """Pig reaches one position (scores, turn total, who moves) along many lines: keyed by
    position, Star1's and Star2's table answers leaves and windows it has seen (cuts), the
    exact value unchanged, each with fewer evaluations than without it and than
    expectiminimax (without --tt a game takes a table: --tt 0 is Ballard's search without one)."""
    game = open_source("game:pig:target=5,die=4,horizon=6")
    plain = search(game, name, tt=0)
    tabled = search(game, name, tt=16)
    full = search(game, "expectiminimax")
    assert tabled.value == plain.value == full.value == 0.373046875  # 191/512
    assert tabled.pv == plain.pv
    counts = tabled.extra["tt"]
    assert counts["cuts"] > 0 and counts["hits"] >= counts["cuts"] and counts["overwrites"] == 0
    assert tabled.leaves < plain.leaves and tabled.leaves < full.leaves == 2063


def test_a_horizon_full_or_more_plies_down_is_not_kept_as_searched_to_the_leaves() -> None:
    """A draft of FULL means searched to the leaves: a depth-limited search whose horizon lies
    FULL or more plies below a node keeps it as FULL - 1 (search_tabled.c does the same)."""
    depth = FULL + 20  # a chain: node i holds nodes i..depth, each with a static value
    tree = Tree(
        array("i", [depth + 1] * (depth + 1)), array("d", [i % 7 for i in range(depth + 1)])
    )
    search = TableSearch(tree, Stats(), Table(1), limit=FULL + 10, horizon=tree.values.__getitem__)
    score, exhausted = search.root()
    assert (score, exhausted) == ((FULL + 10) % 7, False)
    drafts = sorted({entry[3] for entry in search.table.slots.values()})
    assert drafts[-1] == FULL - 1 and FULL not in drafts


def wide_tree(width: int) -> Any:
    """A root of ``width`` children with static values, each of two leaves: depth 2 of the
    deepening expands ``width`` + 1 nodes."""
    from gtsearch.formats import loads_tree

    kids = [{"value": i % 7, "children": [i % 5, i % 3]} for i in range(width)]
    return loads_tree(json.dumps({"tree": {"value": 0, "children": kids}}), "json")


def test_time_drops_the_iteration_it_runs_out_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """--time bounds the deepening's time (issue 37): an iteration after the first still
    running when the time is up is dropped at its next check (every 1,024 nodes expanded),
    not finished; the iterations before it are the result. A clock that moves one second
    a reading makes it exact: depth 2 expands 1,101 nodes and reads the clock past 5 s."""
    from gtsearch.algorithms import compiled, iterative, tabled

    tree = wide_tree(1100)
    monkeypatch.setattr(compiled, "tabled_iterate", lambda *a, **k: None)  # the reference
    whole = iterative.iterate(tree, 1)
    assert [r.params["iteration"] for r in whole] == [1, 2]
    clock = iter(range(10**6))
    monkeypatch.setattr(iterative.time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(tabled.time, "perf_counter", lambda: float(next(clock)))
    timed = iterative.iterate(tree, 1, seconds=5)
    assert len(timed) == 1 and timed[0].value == whole[0].value
    assert timed[0].leaves == whole[0].leaves == 1100


@pytest.mark.parametrize("seconds", [0.0, 0.001, 0.01, 1.0])
def test_time_keeps_the_iterations_it_finished(seconds: float) -> None:
    """Under either core, the iterations of a deepening cut by --time are the first ones of the
    deepening without it, value for value and count for count (a dropped iteration leaves
    nothing behind)."""
    from gtsearch.algorithms.iterative import iterate

    tree = open_source("game:connect4:rows=4,columns=4")
    whole = iterate(tree, 16, max_depth=8)
    timed = iterate(tree, 16, max_depth=8, seconds=seconds)
    assert 1 <= len(timed) <= len(whole)
    keep = [(r.value, r.pv, r.leaves, r.nodes) for r in whole[: len(timed)]]
    assert [(r.value, r.pv, r.leaves, r.nodes) for r in timed] == keep
