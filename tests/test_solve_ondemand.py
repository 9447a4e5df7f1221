"""``gtsearch solve GAME`` searches the game on demand, nothing counted first (issue 36).

The command opens a ``game:`` source as an OnDemandTree for every solver (alpha-beta by
iterative deepening, ``-a pns``, ``--history``/``--killers``, ``--root``, ``--moves``,
``--estimate``): over random positions of every built-in game small enough to count, its JSON
record must be the counted solve's (the same command on the game counted first, as it was
solved before): the result, the distance, the PV and its names, the positions, nodes,
expanded, leaves, the table's figures and every iteration.  ``--max-nodes`` bounds the nodes
the search numbers: one line, exit 2.  Under GTSEARCH_PURE=1 both sides are Python's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.cli import solve as solve_cli
from gtsearch.sources.gamespec import game_of, open_game
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.position import mover, named_moves

#: the built-in games without chance nodes small enough to count whole (and to solve in
#: Python in well under a second)
SPECS = [
    "tictactoe",
    "nim:7",
    "hexapawn",
    "connect4:rows=3,columns=4,k=3",
    "othello:rows=4,columns=4",
    "dotsandboxes:rows=1,columns=2",
    "dotsandboxes:rows=2,columns=2",
]
#: the solvers and their options
SOLVERS: list[list[str]] = [
    [],
    ["-a", "pns"],
    ["--history"],
    ["--killers"],
    ["--history", "--killers"],
    ["--root", "min"],
    ["--root", "max", "--tt", "2"],
]


def line_of(spec: str, picks: list[int]) -> str:
    """The names of the moves down ``picks`` (each an index into the moves there, modulo their
    number; the line stops where the game ends), as --moves takes them."""
    game = game_of(spec)
    state, max_to_move = game.key(game.call("initial"), "initial"), game.root_max
    names = []
    for k in picks:
        who = mover(game, state, max_to_move)
        if who is None:
            break
        moves = named_moves(game, state, who)
        move, name = moves[k % len(moves)]
        names.append(name)
        state = game.key(game.call("play", state, move), "play")
        max_to_move = max_to_move if game.has_player else not max_to_move
    return " ".join(names)


class Opened:
    """The trees the command opened (spied on: ``solve_cli.load`` wrapped)."""

    def __init__(self, counted: bool) -> None:
        self.counted = counted
        self.trees: list[Any] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.counted:
            kwargs["on_demand"] = False  # the game counted first, as solve did before
        tree, seconds = LOAD(*args, **kwargs)
        self.trees.append(tree)
        return tree, seconds


LOAD = solve_cli.load


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def run(argv: list[str], counted: bool = False) -> tuple[Any, list[Any]]:
        opened = Opened(counted)
        monkeypatch.setattr(solve_cli, "load", opened)
        r = CliRunner().invoke(cli, ["solve", *argv])
        monkeypatch.setattr(solve_cli, "load", LOAD)
        return r, opened.trees

    yield run


def untimed(output: str) -> dict[str, Any]:
    """A JSON record without its times (the record's, each iteration's or probe's)."""
    record: dict[str, Any] = json.loads(output)
    record.pop("seconds")
    for part in (*record.get("iterations", ()), *record.get("probes", ())):
        part.pop("seconds")
    return record


def same_as_counted(spy: Any, argv: list[str]) -> dict[str, Any] | None:
    """The command's JSON record on demand, checked equal to the counted solve's; None where
    --root is refused the same way by both (a game whose player() says who moves)."""
    argv = [*argv, "--format", "json"]
    r, trees = spy(argv)
    if "--root" in argv and game_of(argv[0][len("game:") :]).has_player:
        counted, _ = spy(argv, counted=True)
        for refused in (r, counted):
            assert refused.exit_code == 2 and refused.output.endswith(
                "the game says who moves (its player()), so --root does not apply: drop --root\n"
            )
        return None
    assert r.exit_code == 0, r.output
    counted, counted_trees = spy(argv, counted=True)
    assert counted.exit_code == 0, counted.output
    if trees:  # not the Connect Four solver's board (it opens no tree)
        assert isinstance(trees[0], OnDemandTree)
        assert not counted_trees[0].on_demand
    found, expected = untimed(r.output), untimed(counted.output)
    assert found == expected
    return found


#: counting Othello 4x4 (64,081 positions) and dots and boxes 2x2 in Python takes a second or
#: two each time: the counted side of those is slow
BIG = {"othello:rows=4,columns=4", "dotsandboxes:rows=2,columns=2"}


@pytest.mark.parametrize("solver", SOLVERS, ids=" ".join)
@pytest.mark.parametrize(
    "spec", [pytest.param(s, marks=pytest.mark.slow) if s in BIG else s for s in SPECS]
)
def test_from_the_start(spy: Any, spec: str, solver: list[str]) -> None:
    record = same_as_counted(spy, [f"game:{spec}", *solver])
    if record is None:
        return
    assert record["result"] in ("win", "draw", "loss")
    if record["algorithm"] == "alphabeta":
        assert record["positions"] > 0 and record["iterations"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    spec=st.sampled_from(SPECS),
    solver=st.sampled_from(SOLVERS),
    picks=st.lists(st.integers(0, 63), max_size=12),
)
def test_random_positions(spy: Any, spec: str, solver: list[str], picks: list[int]) -> None:
    """Random positions (an end of the game among them: the root a leaf)."""
    moves = line_of(spec, picks)
    argv = [f"game:{spec}", *solver] + (["--moves", moves] if moves else [])
    same_as_counted(spy, argv)


def test_the_golden_solution_of_tictactoe(spy: Any) -> None:
    """Tic-tac-toe on demand: a draw in 9 plies, every iteration as the counted solve's."""
    record = same_as_counted(spy, ["game:tictactoe"])
    assert record is not None
    assert (record["result"], record["distance"]) == ("draw", 9)
    assert [it["depth"] for it in record["iterations"]] == list(range(1, 10))
    assert record["positions"] <= 5_478


@pytest.mark.slow
def test_a_table_too_small_for_every_position() -> None:
    """The counted game numbers every position it counted (64,081 on Othello 4x4), the game on
    demand those the search meets (5,784): in a 1 MiB table (32,768 entries) the counted keys
    collide (9 overwrites) and those on demand do not, so the table's figures may differ,
    never the result, the distance or the positions."""
    found = []
    for on_demand in (False, True):
        tree = open_game("othello:rows=4,columns=4", on_demand=on_demand)
        found.append(solve(tree, 1))
    counted, met = found
    assert (counted.result, counted.distance, counted.positions, counted.nodes) == (
        met.result,
        met.distance,
        met.positions,
        met.nodes,
    )
    assert (counted.tt["overwrites"], met.tt["overwrites"]) == (9, 0)


def test_an_estimate(spy: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """--estimate: the Python rules (the game given an estimate), on demand, as counted."""
    (tmp_path / "solveestimates.py").write_text(
        "def edge(state):\n    return 0\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec in ("tictactoe", "connect4:rows=3,columns=4,k=3"):
        argv = [f"game:{spec}", "--history", "--estimate", "solveestimates:edge"]
        same_as_counted(spy, argv)
        same_as_counted(spy, [*argv, "--moves", "1 2"])


def test_a_game_too_big_to_count_is_solved() -> None:
    """Connect Four on a board past 64 bits (the Python rules, said once on standard error)
    and the 6x6 Othello were refused before any search (more states than are counted); on
    demand the search starts, --max-nodes bounding the nodes it numbers: one line, exit 2, as
    the refusal was."""
    big = "game:connect4:rows=8,columns=9,k=4"
    notes = (  # said on standard error: the board is past the solver's and the C rules'
        f"note: {big}: 8 x 9 is more than the Connect Four solver's 64 bits",
        f"note: {big}: too big for the C core's rules of connect4",
    )
    for spec in (big, "game:othello:rows=6,columns=6"):
        for solver in ([], ["-a", "pns"], ["--killers"]):
            r = CliRunner().invoke(cli, ["solve", spec, *solver, "--max-nodes", "2000"])
            assert r.exit_code == 2
            lines = [line for line in r.output.splitlines() if not line.startswith(notes)]
            assert lines == [
                f"{spec}: the search visited more than --max-nodes 2,000 nodes; raise --max-nodes"
            ]
    # a won position of the big board: found on demand within the bound
    argv = ["solve", big, "--moves", "1 2 1 2 1 2", "--format", "json", "--max-nodes", "100"]
    r = CliRunner().invoke(cli, argv)
    assert r.exit_code == 0, r.output
    record = json.loads(r.output.splitlines()[-1])
    assert (record["result"], record["distance"], record["pv_labels"]) == ("win", 1, ["1"])


def test_max_nodes_is_the_bound_of_the_nodes_numbered(spy: Any) -> None:
    """A bound at or above the nodes the solve numbers: solved; below: the one line."""
    r, trees = spy(["game:hexapawn", "--format", "json"])
    assert r.exit_code == 0
    numbered = len(trees[0].keys)
    ok = CliRunner().invoke(cli, ["solve", "game:hexapawn", "--max-nodes", str(numbered)])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(cli, ["solve", "game:hexapawn", "--max-nodes", str(numbered - 1)])
    assert bad.exit_code == 2
    assert bad.output == (
        f"game:hexapawn: the search visited more than --max-nodes {numbered - 1:,} nodes; "
        "raise --max-nodes\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["game:nim:7", "--moves", "take 9"], "game:nim:7: --moves: move 1, 'take 9'"),
        (["game:pig", "--moves", "roll"], "game:pig: the tree has chance nodes: solve proves"),
        (["game:nosuchgame"], "game:nosuchgame: "),
        (["game:othello:rows=5,columns=5"], "game:othello:rows=5,columns=5: "),
    ],
)
def test_bad_input_is_one_line(argv: list[str], message: str) -> None:
    r = CliRunner().invoke(cli, ["solve", *argv])
    assert r.exit_code == 2
    assert r.output.startswith(message) and r.output.count("\n") == 1, r.output
