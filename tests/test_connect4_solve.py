"""The Connect Four solver of ``gtsearch solve game:connect4`` (docs/algorithms.md, "Solving
Connect Four"): the Python reference and the C core node for node the same, the result and
the distance those of the generic solve on small boards and of Pascal Pons' solver on 6x7
positions, the PV a line of best play to the end, and the command line in both cores."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms.connect4 import (
    C4Solution,
    Solver,
    centre_first,
    outcome,
    solve_connect4,
    table_entries,
)
from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.core import native
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.sources import open_source
from gtsearch.sources.library.connect4 import ConnectFour

#: 6x7 positions (moves as columns 1..7) with the score Pascal Pons' solver gives them
#: (github PascalPons/connect4, built with -O3, no opening book; the positions drawn by
#: benchmarks/bench.py's generator, seed 1): the player to move's fastest win (slowest
#: loss) as (43 - the discs after the winning move) // 2, on the scale of connect4.py's score
PONS = [
    ("725743461413675", 13),
    ("624532157157254277776", -9),
    ("327576425571314", -13),
    ("5131116514624616355", 6),
    ("165753222561737576576", 3),
    ("33122352636634635", 4),
]
#: harder ones, for the C core
PONS_SLOW = [
    ("5777131474464721", 6),
    ("555751221724135", -2),
    ("577315622722773", 0),
]


def position(game: ConnectFour, moves: list[int]) -> tuple[int, int, int]:
    state = game.initial()
    for c in moves:
        state = game.play(state, c)
    return state


def random_position(game: ConnectFour, rng: random.Random, plies: int) -> list[int]:
    """Random legal moves (columns from 0) until ``plies`` or the end of the game."""
    state, moves = game.initial(), []
    for _ in range(plies):
        legal = game.moves(state)
        if not legal:
            break
        c = rng.choice(legal)
        moves.append(c)
        state = game.play(state, c)
    return moves


def without_time(s: C4Solution) -> C4Solution:
    return s._replace(seconds=0.0, probes=[p._replace(seconds=0.0) for p in s.probes])


def check_line(game: ConnectFour, state: tuple[int, int, int], s: C4Solution) -> None:
    """The PV is legal, `distance` plies long, and ends as the result says."""
    assert len(s.pv) == s.distance
    x_moves = bin(state[0]).count("1") == bin(state[1]).count("1")
    for c in s.pv:
        assert c in game.moves(state)
        state = game.play(state, c)
    assert not game.moves(state)  # the game is over at the PV's end
    mover_won = 1 if x_moves else -1
    expected = {"win": mover_won, "loss": -mover_won, "draw": 0}[s.result]
    assert state[2] == expected


BOARDS = [(4, 4, 4), (4, 5, 4), (5, 4, 4), (3, 5, 3), (5, 5, 4), (3, 4, 2), (2, 2, 1), (6, 7, 4)]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 2**32), st.data())
def test_the_python_reference_and_the_c_core_are_the_same(
    board: tuple[int, int, int], seed: int, data: Any
) -> None:
    """Node for node: result, distance, score, PV, every count (the probes' too), the table's."""
    rows, columns, k = board
    game = ConnectFour(rows, columns, k)
    least = 16 if rows * columns > 30 else 0  # 6x7: deep enough for Python
    plies = data.draw(st.integers(least, rows * columns))
    state = position(game, random_position(game, random.Random(seed), plies))
    tt = data.draw(st.sampled_from([1, 2]))
    most = 10_000  # the Python reference in well under a second; both stop at the same node
    try:
        pure = solve_connect4(
            rows, columns, k, state[0], state[1], tt=tt, max_nodes=most, pure=True
        )
    except NodeLimit:
        with pytest.raises(NodeLimit):
            solve_connect4(rows, columns, k, state[0], state[1], tt=tt, max_nodes=most)
        return
    found = solve_connect4(rows, columns, k, state[0], state[1], tt=tt, max_nodes=most)
    assert without_time(pure) == without_time(found)
    check_line(game, state, pure)
    assert pure.nodes == pure.expanded + pure.leaves
    assert sum(p.nodes for p in pure.probes) == pure.nodes


SMALL = [(4, 4, 4, 4), (4, 5, 4, 9), (5, 4, 4, 8), (3, 5, 3, 0), (3, 4, 2, 0), (4, 4, 3, 0)]


@pytest.mark.parametrize("board", SMALL, ids=lambda b: "x".join(map(str, b)))
def test_the_generic_solve_agrees(board: tuple[int, int, int, int]) -> None:
    """Result and distance as `solve`'s iterative deepening finds them on the game's tree."""
    rows, columns, k, least = board
    game = ConnectFour(rows, columns, k)
    rng = random.Random(rows * 100 + columns * 10 + k)
    for _ in range(4):
        moves = random_position(game, rng, rng.randint(least, rows * columns))
        spec = f"game:connect4:rows={rows},columns={columns},k={k}"
        names = " ".join(str(c + 1) for c in moves) or None
        tree = open_source(spec, moves=names)
        generic = solve(tree)
        state = position(game, moves)
        for pure in (True, False):
            found = solve_connect4(rows, columns, k, state[0], state[1], pure=pure)
            assert (found.result, found.distance) == (generic.result, generic.distance)


@pytest.mark.parametrize(("moves", "score"), PONS)
def test_pons_solver_agrees(moves: str, score: int) -> None:
    """The score (so the result and the distance) of Pons' solver, in both cores."""
    game = ConnectFour()
    state = position(game, [int(c) - 1 for c in moves])
    for pure in (True, False):
        found = solve_connect4(6, 7, 4, state[0], state[1], pure=pure)
        assert found.score == score
        check_line(game, state, found)


@pytest.mark.slow
# the C solver: the Python reference takes some 16 s a position here, and is checked equal to
# the C one on every other position
@pytest.mark.skipif(native() is None, reason="needs the C core")
@pytest.mark.parametrize(("moves", "score"), PONS_SLOW)
def test_pons_solver_agrees_on_harder_positions(moves: str, score: int) -> None:
    game = ConnectFour()
    state = position(game, [int(c) - 1 for c in moves])
    found = solve_connect4(6, 7, 4, state[0], state[1], tt=64)
    assert found.score == score
    check_line(game, state, found)


def test_scores_give_the_distance() -> None:
    """A score's result and plies: the winner's last disc, of the winner's parity."""
    # 42 squares, 10 discs: the player to move puts discs 11, 13, ...
    assert outcome(16, 10, 42) == ("win", 1)  # disc 11: (44 - 11) // 2 == 16
    assert outcome(15, 10, 42) == ("win", 3)
    assert outcome(-16, 10, 42) == ("loss", 2)  # disc 12
    assert outcome(-15, 10, 42) == ("loss", 4)
    assert outcome(0, 10, 42) == ("draw", 32)
    assert outcome(1, 0, 42) == ("win", 41)  # X's last disc is the 41st
    assert outcome(-1, 0, 42) == ("loss", 42)


def test_over_positions_and_immediate_wins() -> None:
    game = ConnectFour(4, 4)
    won = position(game, [0, 1, 0, 1, 0, 1, 0])  # X made a line: O to move has lost
    for pure in (True, False):
        s = solve_connect4(4, 4, 4, won[0], won[1], pure=pure)
        assert (s.result, s.distance, s.pv, s.nodes) == ("loss", 0, [], 0)
        s = solve_connect4(4, 4, 4, *position(game, [0, 1, 0, 1, 0, 1])[:2], pure=pure)
        assert (s.result, s.distance, s.pv, s.probes) == ("win", 1, [0], [])
    full = ConnectFour(2, 2, 3)
    state = position(full, [0, 0, 1, 1])
    s = solve_connect4(2, 2, 3, state[0], state[1])
    assert (s.result, s.distance, s.pv) == ("draw", 0, [])
    s = solve_connect4(2, 2, 3, 0, 0)
    assert (s.result, s.distance, len(s.pv)) == ("draw", 4, 4)


def test_the_largest_board_that_fits() -> None:
    """7 rows of 8 columns take the 64 bits whole; 8 x 8 does not fit."""
    game = ConnectFour(7, 8)
    state = position(game, [3, 4, 3, 4, 3, 4])
    for pure in (True, False):
        s = solve_connect4(7, 8, 4, state[0], state[1], pure=pure)
        assert (s.result, s.distance, s.pv) == ("win", 1, [3])
    with pytest.raises(UsageError):
        solve_connect4(8, 8, 4, 0, 0)


def test_lines_longer_than_the_board() -> None:
    """k = 10 on 7 rows of 2 columns: no line fits (the shifts pass the 64 bits), a draw."""
    for pure in (True, False):
        s = solve_connect4(7, 2, 10, 0, 0, pure=pure)
        assert (s.result, s.distance, s.pv) == ("draw", 14, [0] * 7 + [1] * 7)


def test_the_node_limit() -> None:
    for pure in (True, False):
        with pytest.raises(NodeLimit, match=r"game:connect4:rows=4: .* --max-nodes 100 "):
            solve_connect4(4, 4, 4, 0, 0, max_nodes=100, pure=pure, source="game:connect4:rows=4")


def test_helpers() -> None:
    assert centre_first(7) == [3, 2, 4, 1, 5, 0, 6]
    assert centre_first(4) == [1, 2, 0, 3]
    assert table_entries(1) == 2**16 and table_entries(3) == 2**17
    s = Solver(6, 7, 4, 1, 10)
    x = position(ConnectFour(), [0, 6, 1, 6, 2])[0]  # three in the bottom row
    assert s.wins(x, x | 1 << 49) == 1 << (3 * 7)  # ...and the fourth square is empty


@pytest.mark.skipif(native() is None, reason="the C core's own checks")
def test_the_c_function_checks_its_parameters() -> None:
    core = native()
    assert core is not None
    for args in [
        (0, 7, 4, 0, 0, 1024, 10),
        (6, 0, 4, 0, 0, 1024, 10),
        (2**31 - 1, 1, 4, 0, 0, 1024, 10),
        (1, 2**31 - 1, 4, 0, 0, 1024, 10),
        (8, 8, 4, 0, 0, 1024, 10),
        (6, 7, 0, 0, 0, 1024, 10),
        (6, 7, 4, 0, 0, 1000, 10),
        (6, 7, 4, 0, 0, 1, 10),
        (6, 7, 4, 1, 0, 1024, 10),
        (6, 7, 4, 0, 0, 1024, -1),
    ]:
        with pytest.raises(ValueError, match="solve_c4: parameters out of range"):
            core.solve_c4(*args)
    assert core.solve_c4(6, 7, 4, 0, 0, 1024, 5) is None
    with pytest.raises(TypeError):
        core.solve_c4(6, 7, 4, "0", 0, 1024, 5)


# -- the command line -----------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_the_command_line_text_and_json() -> None:
    r = run("solve", "game:connect4:rows=4,columns=4", "--moves", "3 2 3")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == (
        "game:connect4:rows=4,columns=4: draw for MIN (to move) in 13 plies "
        "(connect4 solver, score 0, table 16 MiB)"
    )
    assert lines[1].startswith("PV: 2 → 3 → 3 → 2")
    assert lines[2].startswith("nodes 1,007 (707 expanded), leaves 300, line 90, ")
    assert lines[3].startswith("  score >  -3?  yes  nodes          42  leaves          17")
    moves = " ".join(PONS[4][0])  # Pons' score 3: O's win with its 17th disc, the 38th
    r = run("solve", "game:connect4", "--moves", moves, "--format", "json")
    assert r.exit_code == 0, r.output
    record = json.loads(r.output)
    assert record["algorithm"] == "connect4"
    assert (record["result"], record["distance"], record["score"]) == ("win", 17, 3)
    assert len(record["pv"]) == len(record["pv_labels"]) == 17
    assert record["nodes"] == record["expanded"] + record["leaves"]
    assert record["nodes"] == sum(p["nodes"] for p in record["probes"])
    assert set(record["tt"]) == {"probes", "hits", "cuts", "stores", "overwrites"}


def test_tt_sizes_the_table() -> None:
    """--tt MIB: the solver's table of the largest power of two of 16-byte entries within it."""
    moves = " ".join(PONS[5][0])
    state = position(ConnectFour(), [int(c) - 1 for c in PONS[5][0]])
    for tt in (1, 3):
        r = run("solve", "game:connect4", "--moves", moves, "--tt", str(tt), "--format", "json")
        found = solve_connect4(6, 7, 4, state[0], state[1], tt=tt, pure=True)
        assert json.loads(r.output)["tt"] == found.tt
        assert json.loads(r.output)["nodes"] == found.nodes
    small = solve_connect4(6, 7, 4, state[0], state[1], tt=1)
    large = solve_connect4(6, 7, 4, state[0], state[1], tt=3)
    assert small.tt["overwrites"] > large.tt["overwrites"]


def test_the_pv_indices_are_the_child_indices() -> None:
    """A full column is no child: the PV's indices count the columns not full."""
    r = run("solve", "game:connect4:rows=2,columns=3", "--moves", "1 1", "--format", "json")
    record = json.loads(r.output)
    labels = [int(label) - 1 for label in record["pv_labels"]]
    game, state = ConnectFour(2, 3), position(ConnectFour(2, 3), [0, 0])
    for i, c in zip(record["pv"], labels, strict=True):
        assert game.moves(state)[i] == c
        state = game.play(state, c)


def test_what_keeps_the_generic_solve() -> None:
    """--root, --history, -a pns, another game, a board beyond 64 bits: the generic solve."""
    spec = "game:connect4:rows=3,columns=3,k=3"
    for extra in (["--root", "max"], ["--history"], ["-a", "pns"]):
        r = run("solve", spec, "--format", "json", *extra)
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["algorithm"] in ("alphabeta", "pns")
    # searched on demand (nothing counted first): --max-nodes bounds the nodes numbered
    r = run("solve", "game:connect4:rows=8,columns=8", "--moves", "1", "--max-nodes", "1000")
    assert r.exit_code == 2 and r.output.endswith(
        "game:connect4:rows=8,columns=8: the search visited more than --max-nodes 1,000 nodes; "
        "raise --max-nodes\n"
    )
    # ... said first: the board is more than the solver takes
    assert r.stderr.splitlines()[0] == (
        "note: game:connect4:rows=8,columns=8: 8 x 8 is more than the Connect Four solver's "
        "64 bits ((rows + 1) x columns): the generic solve runs"
    )
    r = run("solve", "game:tictactoe", "--format", "json")
    assert json.loads(r.output)["algorithm"] == "alphabeta"


def test_bad_input_is_one_line() -> None:
    r = run("solve", "game:connect4", "--moves", "4 4 9")
    assert r.exit_code == 2
    assert r.output.strip().count("\n") == 0 and "move 3, '9', is not a legal move" in r.output
    r = run("solve", "game:connect4:rows=0")
    assert r.exit_code == 2 and r.output.startswith("game:connect4:rows=0: ")
    r = run("solve", "game:connect4", "--max-nodes", "1000")
    assert r.exit_code == 2
    assert r.output.strip().endswith(
        "the search visited more than --max-nodes 1,000 nodes; raise --max-nodes"
    )


def test_an_over_position_at_the_command_line() -> None:
    r = run("solve", "game:connect4:rows=4,columns=4", "--moves", "1 2 1 2 1 2 1")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:2] == [
        "game:connect4:rows=4,columns=4: loss for MIN (to move) in 0 plies "
        "(connect4 solver, score -5, table 16 MiB)",
        "PV: (root)",
    ]
