"""mcts, Monte Carlo Tree Search (docs/algorithms.md): both cores alike, seeded, counted, checked."""

from __future__ import annotations

import contextlib
import json
import math
import random
from array import array
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core, load_tree, search
from gtsearch.algorithms.mcts import Numbers, Table, chance_weights
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.sources.games import GameTree
from gtsearch.sources.gamespec import load_game
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.protocol import Game
from gtsearch.splitmix import draw, integer, root_key
from gtsearch.tree import Tree

from .strategies import minimax, ragged_trees

AIMA = "sample_trees/aima-fig5-2.yaml"
needs_c = pytest.mark.skipif(core.native() is None, reason="compares the C core with the pure one")


def random_tree(rng: random.Random, depth: int = 0) -> Any:
    """A nested tree of any shape: chance nodes anywhere (with weights, zero weights, or none),
    ties, ints and decimals."""
    if depth >= 5 or (depth and rng.random() < 0.3):
        return rng.choice([rng.randint(-3, 3), rng.randint(-3, 3) + 0.5])
    kids = [random_tree(rng, depth + 1) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        node: dict[str, Any] = {"chance": kids}
        if rng.random() < 0.6:
            weights = [rng.choice([0, 1, 2, 0.5, 3]) for _ in kids]
            if sum(weights) == 0:
                weights[-1] = 1
            node["weights"] = weights
        return node
    return kids


def record(tree: Tree, **params: Any) -> dict[str, Any]:
    r = search(tree, "mcts", leaf_order=True, **params)
    d = r.to_dict()
    del d["seconds"]
    return d


@needs_c
def test_both_cores_agree_on_100_random_trees() -> None:
    """The same seed, the same output byte for byte (the time aside), in both cores: every
    leaf read in the same order, the same sums backed up, the same move and value."""
    for i in range(100):
        rng = random.Random(i)
        tree = Tree.from_nested(random_tree(rng), root_max=bool(i % 2))
        params = {
            "iterations": rng.choice([1, 7, 60, 300]),
            "seed": rng.randint(-(2**63), 2**64),
            "exploration": rng.choice([None, 0.0, 0.5, 3.0]),
        }
        native = record(tree, **params)
        with core.pure():
            reference = record(tree, **params)
        assert json.dumps(native) == json.dumps(reference), (i, tree)


@needs_c
def test_both_cores_agree_on_sources_and_cutoffs() -> None:
    """A random: source built whole in C, and playouts cut at a depth with static values."""
    from gtsearch.sources import open_source

    tree = open_source("random:b=3,d=6,seed=4")
    nested = [[[[1, 2], 3], {"chance": [4, [5, -1]], "weights": [1, 3]}], [6, [7, 0]]]
    staticky = Tree.from_nested(nested)
    for n in range(len(staticky.end)):  # every inner node worth 2.5 as a static value
        if not staticky.is_leaf(n):
            staticky.values[n] = 2.5
    for t, params in ((tree, {"iterations": 500, "seed": 9}), (staticky, {"playout_depth": 1})):
        native = record(t, **params)
        with core.pure():
            assert record(t, **params) == native


def test_the_generator_is_the_sources_splitmix() -> None:
    """draw j of the search is draw(splitmix64(seed), j): the root draws of random:seed=S."""
    numbers = Numbers(1)
    assert [numbers.next() for _ in range(3)] == [draw(root_key(1), j) for j in range(3)]
    assert draw(root_key(1), 0) == 0xB891CEEC547369F1  # docs/sources.md's test vector
    assert Numbers(2**64 + 5).next() == Numbers(5).next()
    numbers, key = Numbers(2**64 - 1), root_key(2**64 - 1)
    ks = [1, 7, 2**40, 3, 1, 2]  # a move among k, or (1) the next draw itself: one stream
    got = [numbers.uniform(k) if k != 2 else numbers.next() for k in ks]
    assert got == [
        integer(draw(key, j), 0, k - 1) if k != 2 else draw(key, j) for j, k in enumerate(ks)
    ]


def test_weighted_outcomes_follow_the_weights() -> None:
    numbers = Numbers(3)
    counts = [0, 0, 0, 0]
    for _ in range(20_000):
        counts[numbers.weighted([1.0, 0.0, 3.0, 0.0])] += 1
    assert counts[1] == counts[3] == 0
    assert abs(counts[2] / 20_000 - 0.75) < 0.02


@pytest.mark.parametrize("seed", range(20))
def test_aima_move_is_minimax_optimal_at_10000_iterations(seed: int) -> None:
    r = search(load_tree(AIMA), "mcts", iterations=10_000, seed=seed)
    assert r.pv[:1] == (0,) and r.pv_labels[0] == "B"  # B, worth 3; C and D are worth 2
    assert r.extra["iterations"] == 10_000 and r.bound == "estimate" and not r.exact


@pytest.mark.slow
@pytest.mark.skipif(core.native() is None, reason="the whole game in C: seconds, not minutes")
def test_tictactoe_move_is_minimax_optimal_at_10000_iterations() -> None:
    """Every first move of tic-tac-toe draws, so each is minimax-optimal; the test also
    checks the move from X1 O2, where X has a forced win (square 5, 4 or 7)."""
    from gtsearch.sources import open_source

    tree = open_source("game:tictactoe")
    for seed in range(20):
        r = search(tree, "mcts", iterations=10_000, seed=seed)
        assert len(r.pv) >= 1 and r.extra["iterations"] == 10_000
    sub = tree.child(tree.child(0, 0), 0)  # X on square 1, O on square 2
    position = Tree.from_nested(tree.to_nested(sub))
    values = [minimax(position.to_nested(c), False) for c in position.children(0)]
    wins = {i for i, v in enumerate(values) if v == max(values)}
    assert max(values) == 1
    for seed in range(20):
        r = search(position, "mcts", iterations=10_000, seed=seed)
        assert r.pv[0] in wins, (seed, r.pv, values)


def test_same_seed_same_bytes_other_seed_other_search() -> None:
    runner = CliRunner()
    argv = ["eval", "random:b=3,d=5,seed=2", "-a", "mcts", "--iterations", "300", "--format"]
    first = runner.invoke(cli, [*argv, "json", "--seed", "7"]).stdout
    again = runner.invoke(cli, [*argv, "json", "--seed", "7"]).stdout
    other = runner.invoke(cli, [*argv, "json", "--seed", "8"]).stdout

    def strip(text: str) -> dict[str, Any]:
        d = json.loads(text)
        del d["seconds"], d["load_seconds"]
        return d

    assert strip(first) == strip(again)
    assert strip(first)["params"]["seed"] == 7
    assert strip(first) != strip(other)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--iterations", "0"], "--iterations must be 1 or more, got 0"),
        (["--iterations", "x"], "--iterations takes an integer 1 or more, got 'x'"),
        (["--exploration", "-1"], "--exploration must be 0 or more, got -1"),
        (["--exploration", "inf"], "--exploration must be a finite number, got inf"),
        (["--time", "0"], "--time must be > 0, got 0"),
        (["--playout-depth", "-1"], "--playout-depth must be 0 or more, got -1"),
        (["--seed", "1.5"], "--seed takes an integer, got '1.5'"),
        (["-a", "ab", "--iterations", "5"], "--iterations applies to mcts only, not to alphabeta"),
        (["--playout-depth", "0"], "mcts --playout-depth: the playout stopped at"),
    ],
)
def test_bad_options_are_one_line(args: list[str], line: str) -> None:
    argv = ["eval", AIMA, *(args if "-a" in args else ["-a", "mcts", *args])]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and line in result.stderr, result.stderr
    assert "Traceback" not in result.output


def test_experiment_runs_mcts_alone() -> None:
    """experiment -a mcts is the MCTS sweep (alpha-beta measured beside it): mixed with other
    algorithms it refuses in one line."""
    result = CliRunner().invoke(cli, ["experiment", "-a", "all,mcts", "-b", "2", "-d", "2"])
    assert result.exit_code == 2
    assert result.stderr == (
        "experiment -a mcts runs mcts alone (alpha-beta's leaves are measured beside it): "
        "drop the other algorithms\n"
    )


def test_library_refuses_bad_numbers() -> None:
    tree = load_tree(AIMA)
    for bad, message in (
        ({"iterations": 0}, "--iterations must be an integer >= 1"),
        ({"iterations": True}, "--iterations must be an integer >= 1"),
        ({"seed": 1.5}, "--seed must be an integer"),
        ({"exploration": math.nan}, "--exploration must be a finite number"),
        ({"seconds": -1}, "--time must be > 0"),
    ):
        with pytest.raises(UsageError, match=message):
            search(tree, "mcts", **bad)


def test_time_limit_and_counts() -> None:
    tree = load_tree(AIMA)
    r = search(tree, "mcts", seconds=0.05, iterations=10**9)
    assert 1 <= r.extra["iterations"] < 10**9 and r.params["seconds"] == 0.05
    assert r.leaves == r.extra["iterations"] and r.nodes == 3 * r.leaves


def test_root_leaf_and_equal_leaves() -> None:
    r = search(Tree.from_nested(7), "mcts", iterations=5)
    assert (r.value, r.pv, r.leaves, r.extra["tree_nodes"], r.extra["playouts"]) == (7, (), 5, 1, 0)
    r = search(Tree.from_nested([[4, 4], [4]]), "mcts", iterations=50)
    assert r.value == 4 and r.extra["value_se"] == 0 and r.pv == (0, 0)


def test_compare_and_expect_do_not_count_an_estimate() -> None:
    result = CliRunner().invoke(
        cli, ["compare", AIMA, "-a", "all,mcts", "--iterations", "50", "--format", "json"]
    )
    assert result.exit_code == 0, result.output  # 'all' takes the options that apply to it
    recs = {r["algorithm"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert recs["alphabeta"]["best"] and not recs["mcts"]["best"]
    assert recs["mcts"]["params"]["iterations"] == 50
    table = CliRunner().invoke(
        cli, ["eval", AIMA, "-a", "mcts", "--expect", "3", "--format", "table"]
    )
    assert table.exit_code == 0 and "≈" in table.stdout


@settings(max_examples=60, deadline=None)
@given(ragged_trees(), st.booleans(), st.integers(1, 200), st.integers(0, 2**64 - 1))
def test_invariants(nested: Any, root_max: bool, iterations: int, seed: int) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    r = search(tree, "mcts", iterations=iterations, seed=seed, leaf_order=True)
    x = r.extra
    lo, hi = r.params["leaf_bounds"]
    # every iteration reads one leaf (no cutoff), expands at most one node, and visits the root
    assert x["iterations"] == iterations == r.leaves == len(r.leaf_order or ())
    assert x["tree_nodes"] <= min(iterations + 1, tree.n_nodes)
    assert x["distinct_leaves"] + x["re_evaluations"] == r.leaves
    assert x["distinct_leaves"] <= tree.n_leaves
    assert r.nodes >= iterations and x["playouts"] <= iterations
    assert lo - 1e-9 <= r.value <= hi + 1e-9
    assert x["value_se"] is None or x["value_se"] >= 0
    # the PV follows real moves, and the first move is the root's most visited child
    node = 0
    for i in r.pv:
        node = tree.child(node, i)
    if tree.n_nodes > 1 and iterations >= len(list(tree.children(0))) + 1:
        assert r.pv  # every child of the root was tried, so there is a final move
    if tree.n_leaves == len({tree.values[n] for n in range(tree.n_nodes) if tree.is_leaf(n)}) == 1:
        assert r.value == minimax(nested, root_max)


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
def test_a_playout_stopped_where_there_is_no_static_value_is_one_exact_line(pure: bool) -> None:
    """--playout-depth 0 on a tree whose inner nodes have no value: the first playout stops at
    the root's first child, B, and the line names it (the C search hands the node back)."""
    with core.pure() if pure else contextlib.nullcontext():
        result = CliRunner().invoke(cli, ["eval", AIMA, "-a", "mcts", "--playout-depth", "0"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"{AIMA}: mcts --playout-depth: the playout stopped at $[0] ('B'), which has no "
        "static value (a game's estimate); drop --playout-depth or give the inner nodes values\n"
    )


class Top(Numbers):
    """The largest draw every time: u = 1 - 2**-53."""

    def next(self) -> int:
        return 2**64 - 1


def test_an_outcome_drawn_past_every_partial_sum_is_the_last_of_positive_weight() -> None:
    """u * total rounds up to the total when the weights are subnormal (4 * 2**-1074 here, whose
    neighbours are 2**-1074 apart): no partial sum exceeds it, and the draw is the last outcome
    of positive weight, not a later one of weight 0."""
    tiny = 2.0**-1074
    assert Top(0).weighted([3 * tiny, tiny, 0.0]) == 1
    assert Top(0).weighted([0.0, 4 * tiny, 0.0, 0.0]) == 1
    assert Top(0).weighted([1.0, 0.0, 3.0, 0.0]) == 2  # normal weights: the last partial sum


def test_the_c_search_trees_table_is_a_mapping_of_its_nodes() -> None:
    """mcts.Table, the compiled core's search tree: each node's row, in the order reached,
    found by its bytes; a match that straddles two entries is passed over."""
    nodes = array("q", [256, 0, 5, 1])  # bytes 00 01 00 .. | 00 .. | 05 00 .. | 01 00 ..
    table = Table(nodes, [4.0, 1.0, 2.0, 1.0], [2.5, 0.0, 1.5, 1.0], rows={5: 2})
    assert len(table) == 4 and list(table) == [256, 0, 5, 1]
    assert dict(table) == {256: [4.0, 2.5], 0: [1.0, 0.0], 5: [2.0, 1.5], 1: [1.0, 1.0]}
    assert table[1] == [1.0, 1.0]  # its bytes first seen at offset 1, across entries 0 and 1
    with pytest.raises(KeyError) as missing:
        table[2**56]  # 00 .. 00 01: only across entries 2 and 3
    assert missing.value.args == (2**56,)
    with pytest.raises(KeyError) as missing:
        table[2**64]  # not a node at all
    assert missing.value.args == (2**64,)
    assert table.get(7) is None
    # 1 straddles entries 0 and 1 and entries 3 and 4, before and after its own (the search
    # goes on forward from the first); 0 straddles from offset 3, then from 4, 5, 6, 7
    nodes = array("q", [256, 0, 1, 259, 65536])
    assert Table(nodes, [0.0, 1.0, 2.0, 3.0, 4.0])[1] == [2.0]
    assert Table(array("q", [65536, 0, 1]), [0.0, 1.0, 2.0])[0] == [1.0]


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
@pytest.mark.parametrize("spec", ["hexapawn", "pig:target=4,die=3,horizon=3"])
def test_a_game_searched_on_demand_is_searched_as_when_counted(pure: bool, spec: str) -> None:
    """mcts on an OnDemandTree lists a node's children as the game lists them (the tree is
    not in preorder) and draws a chance node's outcomes by the probabilities the game gives
    as the search reaches it (pig's die): the same search, leaf for leaf, as on the counted
    game."""
    obj, name = load_game(spec)
    counted = GameTree(Game(obj, name), source=name)
    open_ = OnDemandTree(Game(obj, name), source=name)
    params: dict[str, Any] = {"iterations": 200, "seed": 4, "leaf_bounds": tuple(obj.bounds)}
    with core.pure() if pure else contextlib.nullcontext():
        a = search(counted, "mcts", leaf_order=True, **params)
        b = search(open_, "mcts", leaf_order=True, **params)
    assert (a.value, a.pv, a.pv_labels, a.leaves, a.leaf_order, a.nodes, a.extra) == (
        b.value,
        b.pv,
        b.pv_labels,
        b.leaves,
        b.leaf_order,
        b.nodes,
        b.extra,
    )
    assert b.extra["iterations"] == 200


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
@pytest.mark.parametrize(("static", "value"), [(6, 4), (-10, 1), (3, 3)])
def test_a_static_value_outside_the_leaf_bounds_is_a_reward_of_0_or_1(
    pure: bool, static: int, value: int
) -> None:
    """The leaves 1 to 4 bound the rewards, r(v) = (v - 1) / 3, but a playout cut at a node
    reads its static value, which may lie outside: r is clamped to [0, 1].  One iteration
    expands A, the playout stops there at once, and the value is 1 + 3 r(A): 4 for 6
    (r = 5/3, clamped to 1), 1 for -10 (r = -11/3, clamped to 0), 3 for 3 (r = 2/3)."""
    tree = Tree.from_nested([[1, 2], [3, 4]])
    tree.values[1] = static  # A, the root's first child
    with core.pure() if pure else contextlib.nullcontext():
        r = search(tree, "mcts", iterations=1, playout_depth=0)
    assert (r.value, r.pv, r.leaves, r.extra["playouts"]) == (value, (0,), 0, 1)


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
def test_a_search_by_time_alone_runs_until_the_time_is_up(pure: bool) -> None:
    """--time with no --iterations: no count stops the search, the clock does, after the
    first iteration, once 0.2 s have passed."""
    with core.pure() if pure else contextlib.nullcontext():
        r = search(load_tree(AIMA), "mcts", seconds=0.2)
    assert "iterations" not in r.params and r.seconds >= 0.2
    assert r.extra["iterations"] >= 2 and r.leaves == r.extra["iterations"]


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
def test_the_final_moves_mean_and_its_standard_error_by_hand(pure: bool) -> None:
    """Leaves 1 and 9 under a MAX root, r(v) = (v - 1) / 8.  Two iterations try each child
    once: the tie goes to the left, 1, whose mean reward 0 makes the value 1, and one visit
    gives no standard error.  A third iteration takes 9 (UCB 1 + C·√(ln 2) against
    0 + C·√(ln 2)): two rewards of 1, the value 9 and a standard error of 0."""
    tree = Tree.from_nested([1, 9])
    with core.pure() if pure else contextlib.nullcontext():
        two = search(tree, "mcts", iterations=2)
        three = search(tree, "mcts", iterations=3)
    assert (two.value, two.pv, two.extra["value_se"]) == (1, (0,), None)
    assert (three.value, three.pv, three.extra["value_se"]) == (9, (1,), 0.0)


@needs_c
def test_the_compiled_core_is_asked_and_its_answer_is_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under the C core, mcts asks compiled.mcts once and takes what it hands back: its
    count of distinct leaves and its PV, not a count or a line of its own."""
    from gtsearch.algorithms import compiled
    from gtsearch.algorithms import mcts as module

    real, calls = compiled.mcts, []

    def asked(*args: Any, **kwargs: Any) -> Any:
        done = real(*args, **kwargs)
        if done is None:  # the pure core, for the reference: it declines
            return None
        calls.append(args[3:])
        nodes, n, w, sq, count, playouts, visits, cut, distinct, pv, rows = done
        assert list(pv) == [0, 1, 2]  # A, B, b1: the most visited (seed 1, 60 iterations)
        c = list(nodes).index(5)  # C, node 5, put in B's place, with its row
        return nodes, n, w, sq, count, playouts, visits, cut, distinct + 100, [0, 5], [0, c]

    monkeypatch.setattr(module.compiled, "mcts", asked)
    tree = load_tree(AIMA)
    r = search(tree, "mcts", iterations=60, seed=1)
    with core.pure():
        reference = search(tree, "mcts", iterations=60, seed=1)
    assert calls == [(60, None, 1, module.DEFAULT_EXPLORATION, None)]
    assert r.extra["distinct_leaves"] == reference.extra["distinct_leaves"] + 100
    assert r.pv == (1,) and r.pv_labels == ("C",) and reference.pv_labels[:2] == ("B", "b1")


def test_a_games_chance_weights_as_doubles_counted_and_on_demand() -> None:
    """chance_weights: a counted game's chance nodes, each with its weights as doubles (pig's
    die of three faces: 1, 1, 1), in a dict; a game on demand's, looked up as the search
    reaches them (its nodes are not known before)."""
    obj, name = load_game("pig:target=4,die=3,horizon=3")
    counted = GameTree(Game(obj, name), source=name)
    whole = chance_weights(counted)
    chance = [n for n in range(len(counted.end)) if counted.is_chance(n)]
    die = {n: (1.0, 1.0, 1.0) for n in chance}
    assert chance and {n: whole[n] for n in chance} == die
    # written out in flat arrays (the C core counts it): a dict of exactly those; under the
    # pure core the counted game is read through its entries, its weights looked up too
    assert counted.lazy is (core.native() is None)
    assert whole == die if not counted.lazy else type(whole) is not dict
    open_ = OnDemandTree(Game(obj, name), source=name)
    roll = next(c for c in open_.children(0) if open_.is_chance(c))
    assert chance_weights(open_)[roll] == (1.0, 1.0, 1.0)


def test_a_lone_leaf_root_has_the_standard_error_of_its_rewards(tmp_path: Any) -> None:
    """A root that is a leaf (a file of one value, a game at --depth 0): its squares are kept
    in C as in Python, so the value's standard error is the same rounding of 0 in both
    cores (0.3's reward is no binary fraction: not 0.0)."""
    path = tmp_path / "leaf.json"
    path.write_text("0.3")
    found = []
    for context in (contextlib.nullcontext, core.pure):
        with context():
            r = search(load_tree(str(path)), "mcts", iterations=5, seed=0, leaf_bounds=(-1, 1))
        found.append((r.value, r.extra))
    assert found[0] == found[1] and found[0][1]["value_se"] > 0.0
