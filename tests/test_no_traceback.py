"""No traceback anywhere: every command on every kind of hostile case of the suite.

The hostile cases are the bad files of tests/cases/bad (JSON, YAML, s-expressions,
Gambit .efg), the hostile games of tests/cases/games (code that calls sys.exit(),
raises GeneratorExit or MemoryError, returns 10**400, NaN bounds, names holding a
newline...) and hostile numbers given to options (10**23 iterations, a 5,000-digit
depth, a table larger than the memory).  Every command that takes one (eval, compare,
show, trace, convert, validate, solve, play with standard input closed, experiment
--merge, gen, exercise, experiment) runs on each, in-process through click's CliRunner
(an exception that escapes the command is what a traceback would print) and, for one
case of each kind, in a real process under both cores: one line, exit status 2.  The
bad files are sampled, deterministically, four of each format (the first, the last and
two between); tests/test_hostile.py reads every one of them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gtsearch.cli import cli

CASES = Path(__file__).parent / "cases"
BAD = CASES / "bad"
GAMES = CASES / "games"
REPO = CASES.parent.parent
KINDS = ("json", "yaml", "sexp", "efg")


def sample(kind: str) -> list[str]:
    """Four bad files of a format: the first, the last and two between, in name order."""
    names = sorted(
        p.name for p in BAD.iterdir() if p.name.startswith(f"{kind}-") and ".expected" not in p.name
    )
    last = len(names) - 1
    return [names[i] for i in sorted({0, last // 3, 2 * last // 3, last})]


def hostile_games() -> list[str]:
    sys.path.insert(0, str(GAMES))
    try:
        import hostile_games

        names = list(hostile_games.CASES)
    finally:
        sys.path.remove(str(GAMES))
    return [
        *(f"game:hostile_games:{name}" for name in names),
        "game:hostile_import_exit:G",
        "game:hostile_getattr:G",
    ]


FILES = [(kind, name) for kind in KINDS for name in sample(kind)]
GAME_SPECS = hostile_games()
#: the commands that take a tree FILE (a bad file, or a game), with what they need beside it
ON_A_TREE: dict[str, list[str]] = {
    "eval": ["eval", "-a", "all"],
    "compare": ["compare"],
    "show": ["show"],
    "trace": ["trace"],
    "convert": ["convert", "--to", "sexp"],
    "validate": ["validate"],
    "solve": ["solve"],
    "play": ["play", "--human", "none"],  # the engine plays both sides: it meets the game
    "experiment --merge": ["experiment", "--merge"],
}
HUGE = "1" + "0" * 23
#: hostile numbers for every command, those without a tree too
ON_OPTIONS: dict[str, list[list[str]]] = {
    "eval": [
        ["eval", "random:b=2,d=3", "-a", "mcts", "--iterations", HUGE],
        ["eval", "random:b=2,d=3", "--tt", "1000000000"],
        ["eval", "random:b=2,d=3", "--depth", "9" * 5000],
    ],
    "compare": [["compare", "random:b=2,d=3", "--tt", "1000000000"]],
    "show": [["show", "random:b=2,d=3", "-a", "mcts", "--iterations", HUGE]],
    "trace": [["trace", "random:b=2,d=3", "-a", "mcts", "--playout-depth", str(2**63)]],
    "convert": [["convert", "random:b=2,d=3", "--max-nodes", "-1"]],
    "validate": [["validate", f"random:b={HUGE},d=3"]],
    "solve": [["solve", "game:nim:3", "--tt", "1000000000"]],
    "play": [["play", "nim", "-a", "mcts", "--iterations", HUGE]],
    "gen": [["gen", "-b", HUGE, "-d", "2"], ["gen", "-b", "2", "-d", "2", "-s", "9" * 5000]],
    "exercise": [["exercise", "-a", "mcts", "--iterations", HUGE], ["exercise", "-d", HUGE]],
    "experiment": [
        ["experiment", "-b", f"2..{HUGE}", "-d", "2"],
        ["experiment", "-b", "2", "-d", "2", "-n", HUGE],
        ["experiment", "-b", "2", "-d", "2", "--tt", "1000000000"],
    ],
}


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args, input="")  # standard input at its end: closed


def assert_one_line_exit_2(args: list[str], result: Result) -> None:
    """No exception out of the command (a traceback), exit status 2, and one line saying why."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert "Traceback" not in result.output, (args, result.output)
    assert result.exit_code == 2, (args, result.exit_code, result.output)
    assert len(result.stderr.splitlines()) == 1, (args, result.stderr)


@pytest.fixture
def games_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(GAMES))
    for name in ("hostile_games", "hostile_import_exit", "hostile_getattr"):
        monkeypatch.delitem(sys.modules, name, raising=False)


@pytest.mark.parametrize("command", ON_A_TREE)
def test_every_command_on_bad_files(command: str) -> None:
    for _kind, name in FILES:
        args = [*ON_A_TREE[command], str(BAD / name)]
        assert_one_line_exit_2(args, invoke(args))


@pytest.mark.parametrize("command", ON_A_TREE)
def test_every_command_on_hostile_games(command: str, games_importable: None) -> None:
    for spec in GAME_SPECS:
        args = [*ON_A_TREE[command], spec]
        result = invoke(args)
        assert_one_line_exit_2(args, result)
        assert result.stderr.startswith(spec + ": "), (args, result.stderr)


@pytest.mark.parametrize("command", ON_OPTIONS)
def test_every_command_on_hostile_numbers(command: str) -> None:
    for args in ON_OPTIONS[command]:
        assert_one_line_exit_2(args, invoke(args))


def test_every_command_is_covered() -> None:
    """Each command that reads a tree, a game or numbers is run here (schema, completion,
    algorithms and games take none of them)."""
    from gtsearch.cli import COMMANDS

    named = {c.split()[0] for c in ON_A_TREE} | set(ON_OPTIONS)
    assert named == set(COMMANDS) - {"schema", "completion", "algorithms", "games"}


# -- the same in real processes, under both cores --------------------------------------------
REAL = [
    ["eval", str(BAD / sample("json")[0])],
    ["show", str(BAD / sample("yaml")[1])],
    ["convert", str(BAD / sample("sexp")[2])],
    ["solve", str(BAD / sample("efg")[3])],
    ["eval", "game:hostile_games:ExitInMoves"],
    ["play", "hostile_import_exit:G"],
    ["eval", "game:hostile_games:HugeUtility", "-a", "mcts"],
    ["eval", "random:b=2,d=3", "-a", "mcts", "--iterations", HUGE],
    ["eval", "random:b=2,d=3", "--tt", "1000000000"],
]


@pytest.mark.slow
@pytest.mark.parametrize("pure", ["0", "1"], ids=["C", "pure"])
def test_real_processes_say_one_line(pure: str) -> None:
    env = dict(os.environ, GTSEARCH_PURE=pure, GTSEARCH_NO_PROGRESS="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("GITHUB_ACTIONS", None)
    for args in REAL:
        done = subprocess.run(
            [sys.executable, "-m", "gtsearch", *args],
            cwd=GAMES,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert (done.returncode, done.stdout) == (2, ""), (args, done.returncode, done.stderr)
        assert len(done.stderr.splitlines()) == 1, (args, done.stderr)
