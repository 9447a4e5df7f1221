"""``gtsearch games`` and ``gtsearch play`` (docs/commands.md): the registry listed, a person
against an engine through a real pseudo-terminal to the end of a game, undo, save and load,
chance drawn from the seed; ``show`` and ``trace`` of a game draw the positions along the PV."""

from __future__ import annotations

import json
import math
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch import core, search
from gtsearch.algorithms.params import check_one
from gtsearch.cli import cli
from gtsearch.research.play import Match
from gtsearch.sources.builtin_games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "(u undo, s save, q quit): "


def test_games_lists_the_registry() -> None:
    r = CliRunner().invoke(cli, ["games", "--format", "json"])
    assert r.exit_code == 0
    rows = [json.loads(line) for line in r.output.splitlines()]
    assert [row["name"] for row in rows] == [g.name for g in GAMES]
    connect4 = next(row for row in rows if row["name"] == "connect4")
    assert [(p["name"], p["default"], p["min"], p["max"]) for p in connect4["parameters"]] == [
        ("rows", 6, 1, 10),
        ("columns", 7, 1, 10),
        ("k", 4, 1, 10),
    ]
    assert all(row["estimate"] for row in rows)
    table = CliRunner().invoke(cli, ["games", "--format", "table"]).output
    assert "estimate (--depth)" in table and "hexapawn" in table
    text = CliRunner().invoke(cli, ["games"]).output  # off a terminal: aligned text
    assert text.splitlines()[2].startswith("connect4      rows=6,columns=7,k=4  ")


class Terminal:
    """``gtsearch play`` in a pseudo-terminal: what it wrote, and lines typed at its prompts."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gtsearch", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""

    def read_until(self, *endings: str, timeout: float = 60) -> str:
        """What the program writes until it ends with one of ``endings`` (or exits)."""
        start, chunk = time.monotonic(), len(self.seen)
        while not self.seen[chunk:].endswith(endings):
            assert time.monotonic() - start < timeout, self.seen[-2000:]
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if not ready:
                if self.proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:  # the program closed the terminal: it has ended
                break
            if not data:
                break
            self.seen += data.decode("utf-8").replace("\r\n", "\n")
        return self.seen[chunk:]

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.master)
        return code


def test_play_a_whole_game_in_a_terminal(tmp_path: Path) -> None:
    """A person (MAX) against alpha-beta at tic-tac-toe: the board after every move, the
    engine's value, PV and counts, an undo, a save, to the end of the game; the saved game
    loads again and its moves replay."""
    term = Terminal(["tictactoe", "-o", "final.json"], tmp_path)
    out = term.read_until(PROMPT)
    assert out.startswith("Tic-tac-toe: the complete game tree\n1 2 3\n4 5 6\n7 8 9\n")
    term.type("5")
    out = term.read_until(PROMPT)
    assert "MIN (alphabeta) plays 1: value 0, PV 1 " in out and "leaves" in out
    term.type("u")
    out = term.read_until(PROMPT)
    assert out.startswith("\ntaken back\n") or "taken back" in out
    assert "1 2 3\n4 5 6\n7 8 9" in out
    term.type("5")
    term.read_until(PROMPT)
    term.type("s middle.json")
    out = term.read_until(PROMPT)
    assert "saved to middle.json" in out
    while out.endswith(PROMPT):  # the first move listed, each time, to the end
        term.type(out.rsplit("[", 1)[1].split("]")[0].split(", ")[0])
        out = term.read_until(PROMPT, "saved to final.json\n")
    assert term.close() == 0
    assert "game over: " in out and out.endswith("saved to final.json\n")
    assert "a draw (0)" in out or "MIN wins (-1)" in out  # alpha-beta never loses
    saved = json.loads((tmp_path / "final.json").read_text(encoding="utf-8"))
    assert saved["game"] == "game:tictactoe" and saved["moves"][:2] == ["5", "1"]
    middle = json.loads((tmp_path / "middle.json").read_text(encoding="utf-8"))
    assert middle == {"game": "game:tictactoe", "moves": ["5", "1"]}
    r = CliRunner().invoke(cli, ["play", "--load", str(tmp_path / "final.json")])
    assert r.exit_code == 0 and "game over" in r.output


def test_the_engine_against_itself_with_chance() -> None:
    """Pig, engine against engine: rolls drawn from --seed (the same seed, the same game),
    Star1 by default on a game with chance."""
    args = ["play", "pig:target=4,die=3,horizon=4", "--human", "none", "--seed", "3"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    # pig has an estimate: the engine deepens for 2 s by default, and this game is searched
    # whole (the cut no longer cuts) long before
    assert "MAX (star1, depth " in first.output and "chance: " in first.output
    assert "game over: " in first.output
    timeless = re.compile(r", [0-9.]+ (?:µs|ms|s)$", flags=re.M)
    again = CliRunner().invoke(cli, args).output
    assert timeless.sub("", again) == timeless.sub("", first.output)


def test_mcts_plays_for_its_iterations_seeded_move_by_move() -> None:
    """-a mcts --iterations N: the engine against itself to the end, the same game again from
    the same --seed; the n-th move of the game is mcts's search seeded with --seed + n."""
    args = ["play", "tictactoe", "-a", "mcts", "--iterations", "300", "--human", "none"]
    first = CliRunner().invoke(cli, [*args, "--seed", "5"])
    assert first.exit_code == 0, first.output
    assert "MAX (mcts) plays " in first.output and "value ≈ " in first.output
    assert first.output.rstrip().splitlines()[-1].startswith("game over: ")
    timeless = re.compile(r", [0-9.]+ (?:µs|ms|s)$", flags=re.M)
    again = CliRunner().invoke(cli, [*args, "--seed", "5"]).output
    assert timeless.sub("", again) == timeless.sub("", first.output)
    match = Match("nim:6")
    algorithm, params = check_one(["mcts"], iterations=40, seed=11)
    match.play(*match.moves()[0])
    thought = match.think(algorithm, params, None, None)
    alone = search(match.tree(None), "mcts", iterations=40, seed=12)
    assert thought.result.pv == alone.pv and thought.result.value == alone.value


@pytest.mark.parametrize(
    "args",
    [
        ["connect4:rows=4,columns=4", "--depth", "3"],
        ["othello", "--time", "0.05", "-a", "negascout"],
        ["dotsandboxes:rows=1,columns=1", "-a", "sss"],
        ["hexapawn", "-a", "mtdf"],
        ["nim:5"],
    ],
)
def test_engines_finish_games(args: list[str]) -> None:
    r = CliRunner().invoke(cli, ["play", *args, "--human", "none"])
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().splitlines()[-1].startswith("game over: ")


@pytest.mark.parametrize(
    ("args", "typed", "message"),
    [
        (["tictactoe", "--depth", "2"], "", "--depth and --time need the game's estimate"),
        (["connect4", "--depth", "2", "--time", "1"], "", "give --depth or --time, not both"),
        (["nim:3"], "take 9\nq\n", "not a move here: 'take 9'"),
        (["nim:3"], "s\nq\n", "save where? s FILE (or give -o FILE)"),
        (["nim:5", "--human", "min"], "u\nq\n", "nothing to take back"),
        (["nim:3", "--iterations", "5"], "", "--iterations applies to mcts only"),
    ],
)
def test_play_says_what_is_wrong(args: list[str], typed: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["play", *args], input=typed)
    assert message in r.output and "Traceback" not in r.output


def test_a_saved_game_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "game:nim:3", "moves": ["take 1", "take 5"]}', encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", "nim:3", "--load", str(bad)])
    assert r.exit_code == 2
    assert "move 2, 'take 5', is not among the moves: take 1, take 2" in r.output
    bad.write_text('{"game": 3}', encoding="utf-8")
    r = CliRunner().invoke(cli, ["play", "--load", str(bad)])
    assert r.exit_code == 2 and 'a saved game is {"game": SPEC, "moves": [NAMES]}' in r.output


def test_show_and_trace_draw_the_positions_along_the_pv() -> None:
    shown = CliRunner().invoke(cli, ["show", "game:nim:5"])
    assert shown.exit_code == 0
    assert "Positions along the PV:\nstart:\n5 left: |||||\nafter take 1:\n4 left: ||||" in (
        shown.output
    )
    traced = CliRunner().invoke(cli, ["trace", "game:dotsandboxes:rows=1,columns=1"])
    assert traced.exit_code == 0 and "after h(0,0):\n+---+" in traced.output
    plain = CliRunner().invoke(cli, ["show", str(ROOT / "sample_trees" / "aima-fig5-2.yaml")])
    assert plain.exit_code == 0 and "Positions along the PV" not in plain.output


def test_positions_skip_a_forced_pass() -> None:
    """Dots and boxes 1x2: the PV passes once (a box closed, the same player again); the
    position after the pass is not drawn twice."""
    from gtsearch.algorithms import search
    from gtsearch.render.games import positions
    from gtsearch.sources import open_source

    tree = open_source("game:dotsandboxes")
    r = search(tree, "alphabeta")
    assert r.pv_labels is not None and "pass" in r.pv_labels
    drawn = positions(tree, r.pv)
    assert len(drawn) == len(r.pv) and not any(d.startswith("after pass") for d in drawn)


# -- a saved game is data (issue 37) -------------------------------------------------------
#: a module whose import leaves a mark: nothing may import it because a file names it
MARKING_MODULE = """
import pathlib
pathlib.Path("imported").write_text("the module ran")


class Game:
    def initial(self):
        return 2

    def moves(self, state):
        return [1] if state else []

    def play(self, state, move):
        return state - move

    def utility(self, state):
        return 1
"""


def play_in(tmp_path: Path, *args: str, typed: str = "q\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gtsearch", "play", *args],
        cwd=tmp_path,
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("saved", "given", "message"),
    [
        # the hostile file of the issue: a shell command through subprocess.Popen's keywords
        (
            "game:subprocess:Popen:args=touch popened,shell=true",
            None,
            "is a game of a module, imported only when the command line names it",
        ),
        (
            "game:subprocess:Popen:args=touch popened,shell=true",
            "tictactoe",
            "a saved game of 'game:subprocess:Popen:args=touch popened,shell=true', not of "
            "'tictactoe'",
        ),
        ("game:marking:Game", None, "is a game of a module"),
        ("game:marking:Game", "nim:3", "a saved game of 'game:marking:Game', not of 'nim:3'"),
        ("marking:Game", "marking:Other", "not of 'marking:Other'"),
        ("game:nim:heap=5", "nim:heap=7", "a saved game of 'game:nim:heap=5', not of 'nim:heap=7'"),
        ("game:nim:heap=-1", None, "the saved game 'game:nim:heap=-1': heap must be"),
    ],
)
def test_a_saved_game_runs_no_code(
    tmp_path: Path, saved: str, given: str | None, message: str
) -> None:
    """Loading a saved game never imports a module the command line did not name: the
    file's game must be GAME, or without GAME a built-in or OpenSpiel game; one line, exit 2,
    and nothing ran (no file made by the command, no module imported)."""
    (tmp_path / "marking.py").write_text(MARKING_MODULE, encoding="utf-8")
    (tmp_path / "game.json").write_text(json.dumps({"game": saved, "moves": []}), encoding="utf-8")
    r = play_in(tmp_path, *([given] if given else []), "--load", "game.json")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("game.json: ") and message in r.stderr
    assert len(r.stderr.splitlines()) == 1 and r.stdout == ""
    assert not (tmp_path / "popened").exists() and not (tmp_path / "imported").exists()


def test_a_saved_game_of_the_users_module_named_on_the_command_line(tmp_path: Path) -> None:
    """The same game named by GAME (with or without 'game:') is played: the command line
    named the module."""
    (tmp_path / "marking.py").write_text(MARKING_MODULE, encoding="utf-8")
    (tmp_path / "game.json").write_text(
        '{"game": "game:marking:Game", "moves": ["1"]}', encoding="utf-8"
    )
    r = play_in(tmp_path, "marking:Game", "--load", "game.json")
    assert r.returncode == 0, r.stderr
    assert "game over: MAX wins (1)" in r.stdout and (tmp_path / "imported").exists()


@pytest.mark.parametrize(
    ("saved", "given"),
    [
        ("game:nim:heap=6", "nim:6"),
        ("nim:6", "game:nim:heap=6"),
        ("game:connect4:columns=5,rows=4", "connect4:rows=4,columns=5"),
        ("game:connect4:rows=6", "connect4"),
        ("game:tictactoe", None),
    ],
)
def test_a_saved_game_is_the_same_game_however_written(
    tmp_path: Path, saved: str, given: str | None
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": saved, "moves": []}), encoding="utf-8")
    args = [*([given] if given else []), "--load", str(path), "--human", "none"]
    if "connect4" in saved:
        args += ["--depth", "2"]
    r = CliRunner().invoke(cli, ["play", *args])
    assert r.exit_code == 0, r.output
    assert "game over" in r.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"game": "game:nim:3", "moves": [], "module": "os"}', "and nothing else: 'module'"),
        (b"[" * 100_000 + b"]" * 100_000, "not a saved game: JSON nested too deeply"),
        (b'{"game": "game:nim:3", "moves": [' + b"[" * 50_000, "JSON nested too deeply"),
        (b'{"game": "game:nim:3", "moves": [1]}', 'a saved game is {"game": SPEC'),
        (b'{"game": "game:nim:3", "moves": ["take 1"]} x', "not JSON: Extra data"),
        (b'{"game": "\xff"}', "not UTF-8 (byte 11)"),
        (b" " * (1 << 20) + b"{}", "a saved game is at most 1,048,576 bytes"),
        (b'{"game": "game:nim:3", "moves": ["' + b"x" * 5000 + b'"]}', "move 1, 'xxxx"),
    ],
)
def test_a_hostile_saved_game_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    r = CliRunner().invoke(cli, ["play", "--load", str(path)])
    assert r.exit_code == 2, r.output
    assert message in r.output and len(r.output.splitlines()) == 1
    assert len(r.output) < 400 and "Traceback" not in r.output


def test_play_needs_a_game(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["play"])
    assert r.exit_code == 2
    assert r.output.strip() == "play needs GAME (gtsearch play tictactoe), or --load FILE"


def test_a_typed_number_is_a_name_not_a_place_in_the_list() -> None:
    """Tic-tac-toe's squares are named 1 to 9: typing a taken square is refused, never read
    as the n-th move left (issue 35)."""
    r = CliRunner().invoke(cli, ["play", "tictactoe"], input="5\n5\n9\nq\n")
    assert "not a move here: '5' (the moves: " in r.output
    out = r.output.split("not a move here")[1]
    assert "5" not in out.split("(the moves: ")[1].split(")")[0].split(", ")


def test_play_with_standard_input_closed(tmp_path: Path) -> None:
    r = subprocess.run(
        ["sh", "-c", f'exec "{sys.executable}" -m gtsearch play nim:3 <&-'],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert r.stderr == "<stdin>: cannot read standard input: it is closed\n"


def test_a_huge_typed_line_is_not_echoed() -> None:
    r = CliRunner().invoke(cli, ["play", "nim:3"], input="x" * 5_000_000 + "\ntake 1\nq\n")
    assert r.exit_code == 0
    assert "not a move here: 'xxxx" in r.output and len(r.output) < 2000
    assert "MIN (alphabeta) plays" in r.output  # the next line is read as it was typed


def test_the_engine_reports_its_whole_think(monkeypatch: pytest.MonkeyPatch) -> None:
    """The time printed is the whole think (the tree counted and every depth), and the think
    runs under a progress display (a spinner on a terminal after a second; issue 35)."""
    import contextlib

    import gtsearch.render.progress as progress_module

    shown: list[str] = []

    @contextlib.contextmanager
    def recording(description: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        shown.append(description)
        yield

    monkeypatch.setattr(progress_module, "progress", recording)
    r = CliRunner().invoke(cli, ["play", "nim:5", "--human", "none", "-a", "sss"])
    assert r.exit_code == 0, r.output
    assert shown == ["MAX (sss) is thinking", "MIN (sss) is thinking", "MAX (sss) is thinking"]
    match = Match("othello:rows=4,columns=4")
    algorithm, params = check_one(["alphabeta"])
    thought = match.think(algorithm, params, None, 0.05)  # deepening: several searches
    assert thought.seconds > thought.result.seconds > 0


def test_the_engine_deepens_for_two_seconds_by_default_on_a_game_with_an_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without --depth or --time, alpha-beta on Connect Four 6x7 would solve the game (hours):
    on a game with an estimate the engine deepens for THINK_SECONDS (2 s; here 0.2 s) instead,
    and answers; a game without one (nim) is still searched whole."""
    from gtsearch.cli import games

    monkeypatch.setattr(games, "THINK_SECONDS", 0.2)
    r = CliRunner().invoke(cli, ["play", "connect4", "--human", "min"], input="q\n")
    assert r.exit_code == 0, r.output
    engine = next(line for line in r.output.splitlines() if line.startswith("MAX ("))
    assert re.match(r"MAX \(alphabeta, depth [1-9]\d*\) plays [1-7]: value ", engine), engine
    assert " leaves, " in engine and " of " not in engine  # not counted: no "of ?"
    r = CliRunner().invoke(cli, ["play", "nim:5", "--human", "min"], input="q\n")
    assert r.exit_code == 0, r.output
    assert "MAX (alphabeta) plays take 1: value 1, PV take 1" in r.output


def test_a_depth_the_time_cuts_short_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """--time's deepening drops a depth after the first that is still running when the time is
    up (in Python checked as a game on demand lists a node's moves; in C at the search's ticks,
    and before it starts), and the depth before it chooses: a tree that reads its time as gone
    at once leaves depth 1's search, in both cores."""
    from gtsearch.algorithms import find_algorithm
    from gtsearch.sources.ondemand import OnDemandTree

    match = Match("connect4")
    depth1 = match.think(find_algorithm("alphabeta"), {}, 1, None)
    monkeypatch.setattr(OnDemandTree, "seconds_left", lambda self: -1.0)
    thought = match.think(find_algorithm("alphabeta"), {}, None, 60.0)
    assert thought.settings == ", depth 1"
    assert (thought.move, thought.result.value, thought.line) == (
        depth1.move,
        depth1.result.value,
        depth1.line,
    )
    assert thought.result.leaves == depth1.result.leaves == 7


@pytest.mark.skipif(core.native() is None, reason="the C core's ticker")
def test_the_c_search_of_a_game_stops_at_its_deadline() -> None:
    """A search in C over a game's rules given (progress, seconds) stops at its first tick past
    the deadline with TimeoutError (compiled._on_demand makes it OutOfTime), and does not start
    with no time left."""
    from array import array

    native = core.native()
    assert native is not None
    start = ("connect4", (6, 7, 4), (0, 0, 0, 0), True, 12, 10**9, array("q", [-1]))
    window = (-math.inf, math.inf, False, True, False)
    with pytest.raises(TimeoutError):
        native.game_negamax(*start, *window, (None, 1e-6))  # depth 12: past many ticks
    with pytest.raises(TimeoutError):
        native.game_negamax(*start, *window, (array("q", [0]), 0.0))
    with pytest.raises(TypeError):
        native.game_negamax(*start, *window, (None, "soon"))
    done = native.game_negamax(*start[:4], 2, *start[5:], *window, (None, 60.0))
    assert done is not None and done[3] > 7
