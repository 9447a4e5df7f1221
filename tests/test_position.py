"""A game from a position (``--moves``) and valued by the command line's estimate
(``--estimate MODULE:ATTR``): docs/sources.md, "A position: --moves" (issue 35).

The trees are checked against an independent negamax over the game protocol, from the same
state, with the same estimate at the cut; the commands' errors are one line, exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import search
from gtsearch.cli import cli
from gtsearch.sources import open_source
from gtsearch.sources.gamespec import load_game
from gtsearch.sources.position import after_moves, mover, named_moves
from gtsearch.sources.protocol import CHANCE, MAX, Game

ESTIMATES = '''
def edge(state):
    """tic-tac-toe: MAX's marks on the edge squares minus MIN's (states are 9-character
    strings of '.', 'X', 'O' or the built-in game's own: read through str())."""
    text = str(state)
    return sum(1 for i in (1, 3, 5, 7) if i < len(text) and text[i] == "X") - sum(
        1 for i in (1, 3, 5, 7) if i < len(text) and text[i] == "O"
    )


def constant(state):
    return 1


def broken(state):
    raise ValueError("no idea")


def word(state):
    return "high"


def leaves_early(state):
    raise SystemExit(7)


NOT_CALLABLE = 3
'''


@pytest.fixture
def estimates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "myestimates.py").write_text(ESTIMATES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "myestimates", raising=False)
    return tmp_path


def negamax(game: Game, state: Any, max_to_move: bool, depth: int | None) -> tuple[Any, int]:
    """The value (MAX's terms) and the leaves of the game from ``state``, cut at ``depth`` with
    the game's estimate: an implementation of its own, over the protocol (no chance)."""
    who = mover(game, state, max_to_move)
    if who is None:
        return game.number("utility", state), 1
    if depth == 0:
        return game.number("estimate", state), 1
    assert who != CHANCE
    values, leaves = [], 0
    for move, _name in named_moves(game, state, who):
        child = game.key(game.call("play", state, move), "play")
        v, n = negamax(game, child, not max_to_move, None if depth is None else depth - 1)
        values.append(v)
        leaves += n
    return (max(values) if who == MAX else min(values)), leaves


def game_of(spec: str) -> Game:
    obj, name = load_game(spec.removeprefix("game:"))
    return Game(obj, name)


@settings(max_examples=25, deadline=None)
@given(
    spec=st.sampled_from(["game:tictactoe", "game:connect4:rows=3,columns=4,k=3", "game:nim:9"]),
    picks=st.lists(st.integers(0, 20), min_size=3, max_size=7),
)
def test_a_position_is_the_game_from_there(spec: str, picks: list[int]) -> None:
    """--moves: the tree from the position after random legal moves has the value and the
    leaves of an independent negamax from that state; minimax reads every one of them (three
    moves in at least: the negamax of this test reads tic-tac-toe's leaves one by one)."""
    game = game_of(spec)
    state, max_to_move, names = game.call("initial"), game.root_max, []
    for pick in picks:
        who = mover(game, state, max_to_move)
        if who is None:
            break
        move, name = named_moves(game, state, who)[pick % len(named_moves(game, state, who))]
        state, max_to_move = game.call("play", state, move), not max_to_move
        names.append(name)
    text = " ".join(names)
    assert after_moves(game, text)[2] == names
    value, leaves = negamax(game, state, max_to_move, None)
    tree = open_source(spec, moves=text)
    assert tree.root_max == max_to_move
    found = search(tree, "minimax")
    assert found.value == value and found.leaves == leaves
    assert search(tree, "alphabeta").value == value


def test_a_position_equals_the_smaller_game() -> None:
    """nim of 7 after 'take 1 take 2' is nim of 4, MAX to move: the same value, PV and counts
    (names hold spaces: each is the longest legal name the text starts with)."""
    after = CliRunner().invoke(
        cli, ["eval", "game:nim:7", "--moves", "take 1  take 2", "--format", "json", "-a", "all"]
    )
    smaller = CliRunner().invoke(cli, ["eval", "game:nim:4", "--format", "json", "-a", "all"])
    assert after.exit_code == 0 and smaller.exit_code == 0, after.output
    keep = ("algorithm", "value", "pv", "pv_labels", "leaves", "leaves_total", "nodes")
    rows = [json.loads(line) for line in after.output.splitlines()]
    assert [{k: r[k] for k in keep} for r in rows] == [
        {k: r[k] for k in keep} for r in map(json.loads, smaller.output.splitlines())
    ]
    assert len(rows) > 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["eval", "game:nim:7", "--moves", "take 1 take 4"],
            "game:nim:7: --moves: move 2, 'take 4', is not a legal move here (the moves: "
            "take 1, take 2, take 3)",
        ),
        (
            ["solve", "game:nim:3", "--moves", "take 3 take 1"],
            "game:nim:3: --moves: move 2, 'take 1': the game is over after take 3",
        ),
        (
            ["eval", "game:tictactoe", "--moves", "5 5"],
            "game:tictactoe: --moves: move 2, '5', is not a legal move here (the moves: 1, 2, 3, "
            "4, 6, 7, 8, 9)",
        ),
        (
            ["eval", "sample_trees/aima-fig5-2.yaml", "--moves", "B"],
            "sample_trees/aima-fig5-2.yaml: --moves applies to game: sources only",
        ),
        (
            ["eval", "random:b=2,d=2", "--moves", "0", "--estimate", "m:f"],
            "random:b=2,d=2: --moves and --estimate apply to game: sources only",
        ),
        (
            ["play", "nim:3", "--moves", "take 9"],
            "game:nim:3: --moves: move 1, 'take 9', is not a legal move here",
        ),
    ],
)
def test_an_illegal_position_is_one_line(args: list[str], message: str) -> None:
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert r.output.startswith(message) and len(r.output.splitlines()) == 1


def test_every_command_takes_a_position(tmp_path: Path) -> None:
    """eval, compare, solve, show, trace and play from the position after the moves."""
    runner = CliRunner()
    for command in (["eval"], ["compare"], ["solve"], ["show"], ["trace"]):
        r = runner.invoke(cli, [*command, "game:nim:6", "--moves", "take 1 take 1"])
        assert r.exit_code == 0, (command, r.output)
    r = runner.invoke(cli, ["solve", "game:nim:6", "--moves", "take 1 take 1", "--format", "json"])
    assert json.loads(r.output)["result"] == "loss"  # 4 left: a multiple of 4 loses
    shown = runner.invoke(cli, ["show", "game:nim:6", "--moves", "take 1"]).output
    assert "Positions along the PV:" in shown and "5 left: |||||" in shown
    r = runner.invoke(cli, ["play", "nim:6", "--moves", "take 1 take 1"], input="q\n")
    assert "4 left: ||||\nMAX to move" in r.output
    saved = tmp_path / "game.json"
    saved.write_text('{"game": "game:nim:6", "moves": ["take 1"]}', encoding="utf-8")
    r = runner.invoke(cli, ["play", "--load", str(saved), "--moves", "take 2", "-o", str(saved)])
    assert r.exit_code == 0, r.output
    assert json.loads(saved.read_text(encoding="utf-8"))["moves"] == ["take 1", "take 2"]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_an_estimate_values_the_cut(estimates: Path, depth: int) -> None:
    """--estimate replaces the game's estimate at the --depth cut (tic-tac-toe has none): the
    value of an independent negamax with the same function, and the same for every
    algorithm."""
    import myestimates

    game = game_of("tictactoe")
    obj = game.obj

    class WithEdge(type(obj)):  # type: ignore[misc]
        def estimate(self, state: Any) -> Any:
            return myestimates.edge(state)

    expected, leaves = negamax(Game(WithEdge(), "edge"), obj.initial(), True, depth)
    args = ["eval", "game:tictactoe", "--depth", str(depth), "--estimate", "myestimates:edge"]
    r = CliRunner().invoke(cli, [*args, "-a", "minimax,alphabeta,sss,mtdf", "--format", "json"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.output.splitlines()]
    assert {row["value"] for row in rows} == {expected}
    assert rows[0]["leaves"] == leaves


def test_an_estimate_takes_the_place_of_the_games(estimates: Path) -> None:
    r = CliRunner().invoke(
        cli,
        ["eval", "game:connect4:rows=4,columns=4", "--depth", "2", "--estimate",
         "myestimates:constant", "--format", "json"],
    )  # fmt: skip
    assert r.exit_code == 0 and json.loads(r.output)["value"] == 1


@pytest.mark.parametrize(
    ("estimate", "message"),
    [
        ("myestimates:broken", "game:tictactoe: estimate() raised ValueError: no idea ("),
        ("myestimates:leaves_early", "game:tictactoe: estimate() raised SystemExit: 7 ("),
        ("myestimates:word", "game:tictactoe: estimate() must return a finite number, got 'high'"),
        ("myestimates:NOT_CALLABLE", "--estimate myestimates:NOT_CALLABLE: myestimates."),
        ("myestimates:nothing", "--estimate myestimates:nothing: module myestimates has no"),
        ("nosuchmodule:f", "--estimate nosuchmodule:f: cannot import module 'nosuchmodule'"),
        ("justtext", "--estimate takes MODULE:ATTRIBUTE, got 'justtext'"),
    ],
)
def test_a_bad_estimate_is_one_line(estimates: Path, estimate: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", "game:tictactoe", "--depth", "2", "--estimate", estimate])
    assert r.exit_code == 2, r.output
    assert r.output.startswith(message) and len(r.output.splitlines()) == 1
    if "() raised" in message or "finite" in message:  # the place in the user's file
        assert "myestimates.py:" in r.output


def test_depth_without_an_estimate_says_how_to_give_one() -> None:
    r = CliRunner().invoke(cli, ["eval", "game:tictactoe", "--depth", "2"])
    assert r.exit_code == 2
    assert r.output == (
        "game:tictactoe: --depth needs the game's estimate(state), or --estimate MODULE:ATTRIBUTE\n"
    )
