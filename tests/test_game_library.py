"""The built-in games (gtsearch.sources.builtin_games, docs/sources.md): every game searched by
every algorithm that fits it, the two cores alike; the values of small boards as the
literature (and OpenSpiel, tests/test_openspiel.py) gives them; their parameters checked."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.cli import cli
from gtsearch.sources import open_source
from gtsearch.sources.builtin_games import GAMES

#: each built-in game on a board small enough to search with every algorithm (and a --depth
#: cut for those whose default board is too large to search whole)
SMALL = {
    # every algorithm on its file's counts: test_games.py proves the game is the file's tree
    "tictactoe": ("game:tictactoe", None),
    "nim": ("game:nim:heap=7,take=2", None),
    "connect4": ("game:connect4:rows=3,columns=3,k=3", None),
    "pig": ("game:pig:target=4,die=3,horizon=4", None),
    "dotsandboxes": ("game:dotsandboxes:rows=1,columns=1", None),
    "othello": ("game:othello", 3),  # passes: forced moves
    "hexapawn": ("game:hexapawn", None),
}


def test_every_builtin_game_is_tested() -> None:
    assert set(SMALL) == {g.name for g in GAMES}


def outcome(spec: str, depth: int | None) -> list[tuple[Any, ...]]:
    tree = open_source(spec, depth=depth)
    out = []
    for algo in ALGORITHMS:
        if algo.chance != tree.has_chance:
            continue
        r = search(tree, algo, leaf_order=True, **({"bound": 0} if algo.needs_bound else {}))
        out.append((algo.name, r.value, r.exact, r.pv, r.pv_labels, r.leaves, r.leaf_order))
    return out


@pytest.mark.parametrize("name", sorted(set(SMALL) - {"tictactoe"}))
def test_every_algorithm_on_every_game_in_both_cores(name: str) -> None:
    """Every algorithm that fits the game (the chance ones on pig, the others elsewhere) gives
    the same value, PV, leaves and leaf order under both cores; the exact ones agree on the
    value. (Tic-tac-toe: test_games.py, on its file's counts.)"""
    spec, depth = SMALL[name]
    native = outcome(spec, depth)
    with core.pure():
        pure = outcome(spec, depth)
    assert native == pure
    exact = {value for _, value, is_exact, *_ in native if is_exact}
    assert len(exact) == 1, native


@pytest.mark.parametrize(
    ("spec", "value", "why"),
    [
        ("game:hexapawn", -1, "Gardner 1962: Black wins 3x3 Hexapawn"),
        ("game:connect4:rows=3,columns=3,k=3", 0, "OpenSpiel's connect_four(3, 3, 3)"),
        ("game:nim:heap=8,take=3", -1, "a multiple of take + 1 loses"),
        ("game:nim:heap=9,take=3,misere=true", -1, "misère: one more than a multiple loses"),
        ("game:nim:heap=8,take=3,misere=yes", 1, "misère: one more than a multiple loses"),
        ("game:nim:heap=9,take=3", 1, "a multiple of take + 1 loses"),
        ("game:dotsandboxes:rows=1,columns=1", -1, "OpenSpiel: the second player takes the box"),
        ("game:dotsandboxes", 0, "OpenSpiel: 1x2 is drawn"),
    ],
)
def test_values_of_small_boards(spec: str, value: int, why: str) -> None:
    assert search(open_source(spec), "alphabeta").value == value, why


def test_pig_is_exact() -> None:
    """Pig's probabilities are exact thirds: the value is the fraction OpenSpiel's float
    rounds (0.2962962962962963 = 8/27), every leaf's weight an integer."""
    r = search(open_source("game:pig:target=4,die=3,horizon=4"), "expectiminimax")
    assert r.value_text() == "8/27" and float(r.value) == 0.2962962962962963


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("game:connect4:rows=11", "rows must be an integer from 1 to 10, got 11"),
        ("game:connect4:rows=x", "bad number rows='x' (rows is an integer from 1 to 10)"),
        ("game:connect4:depth=3", "'depth=3' is not KEY=VALUE with KEY one of rows, columns, k"),
        ("game:pig:target=5,target=6", "target is given twice"),
        ("game:nim:misere=maybe", "bad value misere='maybe' (misere is true or false)"),
        ("game:othello:rows=5", "the board's sides must be even, got 5 x 4"),
    ],
)
def test_bad_parameters(spec: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", spec])
    assert r.exit_code == 2 and f"{spec}: {message}" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_game_too_big_to_count_is_searched_to_a_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connect Four on 6x7 has about 4.5 * 10**12 positions: refused whole by a search that
    counts it (sss stands for one here: every search of gtsearch's runs on demand), searched to
    a depth, its states counted only down to the cut; alpha-beta alone searches it on demand,
    nothing counted (its leaves_total empty), with the same figures."""
    from gtsearch.sources import ondemand

    monkeypatch.setattr(ondemand, "ON_DEMAND_ALGORITHMS", ondemand.ON_DEMAND_ALGORITHMS - {"sss"})
    r = CliRunner().invoke(cli, ["eval", "game:connect4", "-a", "sss", "--max-nodes", "20000"])
    assert r.exit_code == 2 and "cut the game with --depth" in r.output
    for algos, total in (("alphabeta,sss", "343"), ("alphabeta", "")):
        r = CliRunner().invoke(
            cli, ["eval", "game:connect4", "--depth", "3", "--format", "csv", "-a", algos]
        )
        assert r.exit_code == 0, r.output
        row = r.output.splitlines()[1].split(",")
        assert (row[1], row[2], row[6], row[7], row[8]) == (
            "alphabeta",
            "0.0703125",
            "4 4 4",
            "140",
            total,
        )


def test_estimates_at_the_end_of_a_game_are_its_payoff() -> None:
    """The estimates hold at the end too (play and users call them anywhere)."""
    from gtsearch.sources.library.connect4 import ConnectFour
    from gtsearch.sources.library.hexapawn import Hexapawn
    from gtsearch.sources.library.pig import Pig

    assert ConnectFour(3, 3, 3).estimate((0b111, 0, 1)) == 1
    hexapawn = Hexapawn()
    assert hexapawn.estimate((0, 0b111 << 6, True)) == -1  # White has no pawn left
    assert Pig().estimate((6, 0, 0, 1, False, False)) == 1


@settings(max_examples=200, deadline=None)
@given(
    sides=st.sampled_from([(2, 2), (2, 4), (4, 2), (4, 4), (4, 6), (6, 8), (8, 4), (8, 8)]),
    squares=st.lists(st.sampled_from([0, 0, 1, 2]), min_size=64, max_size=64),
    black_moves=st.booleans(),
)
def test_othellos_moves_are_the_squares_whose_rays_flank(
    sides: tuple[int, int], squares: list[int], black_moves: bool
) -> None:
    """Othello's moves, found on the bitboards all at once, are the empty squares from which a
    ray of the other's discs ends at one of the mover's (its definition, square by square);
    with none, the other moves (a pass), and with none either, the game is over."""
    from gtsearch.sources.library.othello import Othello

    rows, columns = sides
    game = Othello(rows, columns)
    cells = squares[: rows * columns]
    black = sum(1 << s for s, c in enumerate(cells) if c == 1)
    white = sum(1 << s for s, c in enumerate(cells) if c == 2)

    def flanking(mine: int, theirs: int) -> list[int]:
        empty = [s for s, c in enumerate(cells) if not c]
        return [s for s in empty if game._flips(mine, theirs, s)]

    state = (black, white, black_moves)
    first = flanking(black, white) if black_moves else flanking(white, black)
    second = flanking(white, black) if black_moves else flanking(black, white)
    to_move = black_moves if first else not black_moves
    assert game.moves(state) == (first or second)
    who = "max" if to_move else "min"
    assert game.player(state) == (who if first or second else None)
    for move in game.moves(state):
        after = game.play(state, move)
        assert after[2] == (not to_move)
        assert bin(after[0] | after[1]).count("1") == bin(black | white).count("1") + 1
