"""gtsearch solve: win, draw or loss for the player to move, the distance, the PV, the counts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.sources import open_source
from gtsearch.tree import Tree


def brute(node: Any, is_max: bool) -> tuple[int, int]:
    """(outcome for the player to move: 1, 0, -1; plies to the end: the shortest win, the
    longest loss, 0 for a draw), by full recursion."""
    if not isinstance(node, list):
        mover = node if is_max else -node
        return (mover > 0) - (mover < 0), 0
    kids = [brute(c, not is_max) for c in node]
    best = max(-r for r, _ in kids)
    if best > 0:
        return 1, 1 + min(d for r, d in kids if r < 0)
    if best < 0:
        return -1, 1 + max(d for _r, d in kids)
    return 0, 0


wdl = st.recursive(
    st.sampled_from([-1, 0, 1, -2, 3]),
    lambda kids: st.lists(kids, min_size=1, max_size=3),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(wdl, st.booleans())
def test_solve_agrees_with_brute_force(nested: Any, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    done = solve(tree, 1)
    outcome, distance = brute(nested, root_max)
    assert done.result == {1: "win", 0: "draw", -1: "loss"}[outcome]
    if outcome:
        assert done.distance == distance
    # the PV keeps the result and, for a win or a loss, ends after `distance` plies
    node, is_max = nested, root_max
    path = tree.path_of(done.pv[-1]) if len(done.pv) > 1 else []
    for i in path:
        node, is_max = node[i], not is_max
        r, d = brute(node, is_max)
        outcome, distance = -outcome, distance - 1
        assert r == outcome and (not r or d == distance)
    assert not isinstance(node, list)


def test_tictactoe_is_a_draw_in_fewer_expansions_than_positions() -> None:
    done = solve(open_source("game:tictactoe"))
    assert done.result == "draw" and done.distance == 9
    assert done.expanded < 5_478  # the game's positions
    assert done.positions <= 5_478
    assert [it.depth for it in done.iterations] == list(range(1, 10))


@pytest.mark.parametrize("heap", range(13))
def test_nim(heap: int) -> None:
    done = solve(open_source(f"game:nim:{heap}"))
    if heap == 0:
        assert (done.result, done.distance) == ("draw", 0)
    elif heap % 4:
        assert (done.result, done.distance) == ("win", 2 * (heap // 4) + 1)
    else:
        assert (done.result, done.distance) == ("loss", 2 * (heap // 4))


def test_the_command() -> None:
    out = CliRunner().invoke(cli, ["solve", "game:tictactoe", "--format", "json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["result"] == "draw" and record["distance"] == 9
    assert record["pv_labels"][0] == "1" and len(record["pv"]) == 9
    assert record["tt"]["mib"] == 16 and record["iterations"][-1]["result"] == "draw"
    text = CliRunner().invoke(cli, ["solve", "game:nim:7", "--tt", "1"])
    assert text.exit_code == 0
    assert text.output.startswith("game:nim:7: win for MAX (to move) in 3 plies")
    assert "PV: take 3 → take 1 → take 3\n" in text.output
    bad = CliRunner().invoke(cli, ["solve", "game:nim:7", "--tt", "0"])
    assert bad.exit_code == 2


@settings(max_examples=100, deadline=None)
@given(wdl, st.booleans())
def test_pns_agrees_with_alphabeta(nested: Any, root_max: bool) -> None:
    from gtsearch.algorithms.pns import solve_pns

    tree = Tree.from_nested(nested, root_max=root_max)
    found = solve_pns(tree, 1)
    assert found["result"] == solve(tree, 1).result
    assert found["pv"][0] == 0 and tree.is_leaf(found["pv"][-1])


def test_the_two_solvers_agree_on_tictactoe_and_nim() -> None:
    out = CliRunner().invoke(cli, ["solve", "game:tictactoe", "-a", "pns", "--format", "json"])
    record = json.loads(out.output)
    assert record["result"] == "draw" and record["distance"] is None
    assert record["algorithm"] == "pns" and record["questions"] == 2
    text = CliRunner().invoke(cli, ["solve", "game:nim:8", "-a", "pns"])
    assert text.output.startswith("game:nim:8: loss for MAX (to move) (pns, table 16 MiB)\n")
    assert "the proof's line: take 1 → take 3 → take 1 → take 3\n" in text.output


# -- eval --iterative ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["hand-a-min-root.yaml", "hand-b-min-root.json", "hand-c-min-root.sexp"]
)
def test_each_iteration_is_the_tree_cut_at_its_depth(sample_trees: Any, name: str) -> None:
    from gtsearch.algorithms import search
    from gtsearch.algorithms.iterative import iterate
    from gtsearch.formats import load_tree

    tree = load_tree(str(sample_trees / name))
    found = iterate(tree, 1)
    assert [r.params["iteration"] for r in found] == list(range(1, tree.max_depth() + 1))
    for r in found:
        depth = r.params["iteration"]
        cut = tree.truncated(depth) if depth < tree.max_depth() else tree
        assert r.value == search(cut, "alphabeta").value
    assert found[-1].value == search(tree, "minimax").value


def test_eval_iterative(sample_trees: Any) -> None:
    path = str(sample_trees / "hand-c-min-root.sexp")
    out = CliRunner().invoke(cli, ["eval", "--iterative", path, "--format", "json"])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [(r["params"]["iteration"], r["value"]) for r in records] == [
        (1, 1.5),
        (2, 0.5),
        (3, 3.5),
    ]
    assert all(r["params"]["tt"] == 16 for r in records)
    once = CliRunner().invoke(cli, ["eval", "--iterative", "--time", "0", path, "--format", "json"])
    assert len(once.output.splitlines()) == 1
    for args, message in [
        (["-a", "sss", "--iterative"], "--iterative deepens alphabeta only"),
        (["--time", "1"], "--time limits mcts or --iterative"),
    ]:
        bad = CliRunner().invoke(cli, ["eval", *args, path])
        assert bad.exit_code == 2 and message in bad.output
    nim = CliRunner().invoke(cli, ["eval", "--iterative", "game:nim:5"])
    assert nim.exit_code == 2 and "has no static value" in nim.output
    assert "in a game, the game's estimate(state)" in nim.output


def test_each_iteration_has_its_line_and_counts() -> None:
    out = CliRunner().invoke(cli, ["solve", "game:nim:7", "--format", "json"])
    its = json.loads(out.output)["iterations"]
    assert [(it["depth"], it["result"], it["pv_labels"]) for it in its] == [
        (1, "open", ["take 1"]),
        (2, "open", ["take 1", "take 1"]),
        (3, "win 3", ["take 3", "take 1", "take 3"]),
    ]
    assert all(it["expanded"] <= it["nodes"] for it in its)
    text = CliRunner().invoke(cli, ["solve", "game:nim:7"]).output
    assert text.splitlines()[-1].endswith("PV take 3 → take 1 → take 3")


@pytest.mark.parametrize("algo", ["alphabeta", "pns"])
@pytest.mark.parametrize(
    "source", ["game:pig:target=4,die=3,horizon=4", "sample_trees/chance-worked.yaml"]
)
def test_solve_refuses_chance_nodes(algo: str, source: str) -> None:
    """A die decides no win, draw or loss: solve read a chance node as a player ("draw" for a
    pig whose value is 8/27, "win for MAX" with a PV choosing the die's roll). One line, exit
    2, naming the command that gives the exact expected value (issue 35)."""
    r = CliRunner().invoke(cli, ["solve", source, "-a", algo])
    assert r.exit_code == 2
    assert r.output == (
        f"{source}: the tree has chance nodes: solve{' -a pns' if algo == 'pns' else ''} "
        "proves wins, draws and losses, which dice do not; its exact expected value is "
        f"gtsearch eval {source} -a expectiminimax\n"
    )
    value = CliRunner().invoke(cli, ["eval", source, "-a", "expectiminimax", "--format", "json"])
    assert value.exit_code == 0
    if source.startswith("game:pig"):
        assert json.loads(value.output)["value_exact"] == "8/27"


@pytest.mark.parametrize(
    "source", ["game:connect4:rows=4,columns=4", "game:nim:9", "game:hexapawn", "game:tictactoe"]
)
def test_solve_a_game_searched_on_demand_as_counted(source: str) -> None:
    """solve() on a game opened on demand deepened only to the deepest node numbered so far
    (max_depth() of an OnDemandTree), so it stopped at depth 1: 'draw in 1' on Connect Four
    4x4. Its deepening now ends where an iteration meets no horizon, as the counted game's:
    the same result, distance, iterations, counts and PV (as paths)."""

    on_demand, counted = open_source(source, on_demand=True), open_source(source)
    a, b = solve(on_demand), solve(counted)
    assert (a.result, a.distance, len(a.iterations)) == (b.result, b.distance, len(b.iterations))
    assert (a.nodes, a.leaves, a.expanded, a.positions) == (
        b.nodes,
        b.leaves,
        b.expanded,
        b.positions,
    )
    assert [on_demand.path_of(n) for n in a.pv] == [counted.path_of(n) for n in b.pv]
    assert [it.score for it in a.iterations] == [it.score for it in b.iterations]
