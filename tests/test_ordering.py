"""The history heuristic and killer moves (--history, --killers): the same values, valid PVs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import search
from gtsearch.algorithms.iterative import iterate
from gtsearch.algorithms.ordering import MoveOrder
from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.sources import open_source
from gtsearch.tree import Tree

from .strategies import minimax, trees
from .test_scout import assert_valid_pv
from .test_solve import wdl

HEURISTICS = [{"history": True}, {"killers": True}, {"history": True, "killers": True}]


@settings(max_examples=100, deadline=None)
@given(trees, st.booleans(), st.sampled_from(HEURISTICS))
def test_ordering_changes_no_value(nested: Any, root_max: bool, asked: dict[str, bool]) -> None:
    """The value is alpha-beta's whatever the order; the PV is a line of best play (among
    equal moves it may be another one: the first best in the order searched)."""
    tree = Tree.from_nested(nested, root_max=root_max)
    plain = search(tree, "alphabeta", tt=1)
    ordered = search(tree, "alphabeta", tt=1, **asked)  # type: ignore[arg-type]
    assert ordered.value == plain.value == minimax(nested, root_max)
    assert_valid_pv(tree, nested, ordered)
    counts = ordered.extra["ordering"]
    assert counts["first_move_cutoffs"] <= counts["cutoffs"]
    assert ordered.params == {"tt": 1, **asked}


@settings(max_examples=60, deadline=None)
@given(trees, st.booleans(), st.sampled_from(HEURISTICS))
def test_each_iteration_keeps_its_value(
    nested: Any, root_max: bool, asked: dict[str, bool]
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    for n in range(len(tree.values)):  # a static value on every inner node
        if tree.end[n] != n + 1:
            tree.values[n] = n % 5 - 2
    plain = iterate(tree, 1)
    ordered = iterate(tree, 1, moves=MoveOrder(tree, **asked))
    assert [r.value for r in ordered] == [r.value for r in plain]
    assert all(r.params["iteration"] == i + 1 for i, r in enumerate(ordered))
    assert all("ordering" in r.extra for r in ordered)


@settings(max_examples=100, deadline=None)
@given(wdl, st.booleans(), st.sampled_from(HEURISTICS))
def test_solve_keeps_result_and_distance(
    nested: Any, root_max: bool, asked: dict[str, bool]
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    plain = solve(tree, 1)
    ordered = solve(tree, 1, MoveOrder(tree, **asked))
    assert (ordered.result, ordered.distance) == (plain.result, plain.distance)


# -- the rules, by hand ----------------------------------------------------------------------
def test_order_credit_and_killers_by_hand() -> None:
    m = MoveOrder(Tree.from_nested([1, 2, 3, 4]), history=True, killers=True)
    moves = [0, 1, 2, 3]
    assert m.order(moves, 0, -1) == ([0, 1, 2, 3], 0)  # nothing known: file order
    m.credit(moves, 2, 1, 3, cut=True)  # move 2 cut at ply 1 with 3 to go: 2**3
    m.credit(moves, 3, 1, 1, cut=True)  # move 3 cut there too, with 1 to go: 2**1
    assert m.history == {2: 8, 3: 2}
    assert m.killers == {1: [3, 2]}  # the newer first
    # ply 1: the table's move 1, killers 3 then 2, then the rest by history, ties by index
    assert m.order(moves, 1, 1) == ([1, 3, 2, 0], 2)
    # ply 0: no killers; history 2 (8) before 3 (2), then 0 and 1 by index
    assert m.order(moves, 0, -1) == ([2, 3, 0, 1], 0)
    m.credit(moves, 3, 1, 0, cut=True)  # already the first killer: no change
    m.credit(moves, 0, 1, 0, cut=True)  # a third: the oldest goes
    assert m.killers == {1: [0, 3]}
    m.credit(moves, 1, 2, 0, cut=False)  # a best move inside the window: history only
    assert m.history[1] == 1 and 2 not in m.killers
    assert m.order([0, 1], 1, -1) == ([0, 1], 1)  # a killer that is no move here is skipped
    assert m.counts() == {
        "cutoffs": 0,
        "first_move_cutoffs": 0,
        "credits": 5,
        "history_moves": 4,
        "killer_tries": 2,
        "killer_cutoffs": 0,
    }


def test_a_game_orders_by_its_moves() -> None:
    """Tic-tac-toe's moves are its squares: one history score per square, shared by every
    position; the value stays a draw, in fewer nodes than without."""
    game = open_source("game:tictactoe")
    plain = search(game, "alphabeta", tt=16)
    both = search(game, "alphabeta", tt=16, history=True, killers=True)
    assert both.value == plain.value == 0
    assert both.extra["ordering"]["history_moves"] == 9
    assert both.nodes < plain.nodes


# -- the command line ---------------------------------------------------------------------------
def test_the_options(sample_trees: Any) -> None:
    path = str(sample_trees / "hand-c-min-root.sexp")
    out = CliRunner().invoke(
        cli, ["eval", "--iterative", "--history", "--killers", path, "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["value"] for r in records] == [1.5, 0.5, 3.5]
    assert all(r["params"]["history"] and "ordering" in r for r in records)
    solved = CliRunner().invoke(cli, ["solve", "game:nim:7", "--killers", "--format", "json"])
    assert json.loads(solved.output)["ordering"]["cutoffs"] > 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["eval", "--history"], "--history and --killers order the moves of alphabeta with a"),
        (["eval", "-a", "negascout", "--tt", "1", "--killers"], "not negascout's"),
        (["solve", "-a", "pns", "--history"], "drop them with -a pns"),
    ],
)
def test_refused(sample_trees: Any, args: list[str], message: str) -> None:
    path = str(sample_trees / "hand-c-min-root.sexp")
    out = CliRunner().invoke(cli, [*args, path])
    assert out.exit_code == 2 and message in out.output, out.output
