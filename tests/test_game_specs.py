"""Users' games with parameters (``game:MODULE:CLASS:KEY=VALUE,...``), the protocol's answers
checked one by one, and the corners of ``play`` (docs/sources.md, docs/commands.md): every
error one line, exit status 2, pointing at the user's code."""

from __future__ import annotations

import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import search
from gtsearch.cli import cli
from gtsearch.errors import GtsearchError
from gtsearch.render.games import engine_line, positions
from gtsearch.sources import open_source, whole
from gtsearch.sources.games import Game, GameTree

GAMES = textwrap.dedent(
    """\
    from __future__ import annotations


    class Race:
        '''Count from 0 to goal, adding 1 or step; whoever reaches it wins.'''

        def __init__(self, goal: int = 3, step: int = 2, fair=True, name: str = "race",
                     weight: float = 1.0, anything=None):
            self.goal, self.step, self.fair, self.name = goal, step, fair, name
            self.weight, self.anything = weight, anything

        def initial(self):
            return (0, True)

        def moves(self, s):
            return [] if s[0] >= self.goal else [1, self.step]

        def play(self, s, m):
            return (s[0] + m, not s[1])

        def utility(self, s):
            return -self.weight if s[1] else self.weight


    class Annotated:
        def __init__(self, size: int, ratio: float, flag: bool, text: str, other: Race):
            self.args = (size, ratio, flag, text, other)


    class Odd:
        __signature__ = 1  # a signature Python cannot read

        def __init__(self, **kwargs):
            pass


    class Fails:
        def __init__(self):
            raise RuntimeError("no board")


    class Chance:
        '''A chance node with the given weights, leaves 0, 1, 2, ...'''

        def __init__(self, odds="1/2", moves="3"):
            self.odds, self.moves_text = odds, moves

        def initial(self):
            return "start"

        def player(self, s):
            return "chance" if s == "start" else None

        def outcomes(self, s):
            return [(0, 1), (1, 0)]

        def moves(self, s):
            return []

        def play(self, s, m):
            return m

        def utility(self, s):
            return 0 if s == "start" else s


    INSTANCE = Race()
    """
)


@pytest.fixture
def user_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "usergames.py").write_text(GAMES, encoding="utf-8")
    (tmp_path / "raising.py").write_text("raise ValueError('broken module')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("usergames", "raising"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def test_a_users_class_takes_parameters(user_games: Path) -> None:
    """Each value is read as the type of its default (or annotation) says."""
    from gtsearch.sources.gamespec import load_game

    obj, name = load_game("usergames:Race:goal=5,step=3,fair=no,name=x,weight=0.5,anything=2")
    assert name == "game:usergames:Race:goal=5,step=3,fair=no,name=x,weight=0.5,anything=2"
    assert (obj.goal, obj.step, obj.fair, obj.name, obj.weight, obj.anything) == (
        5, 3, False, "x", 0.5, 2
    )  # fmt: skip
    for text, value in (("2.5", 2.5), ("yes", True), ("word", "word")):
        assert load_game(f"usergames:Race:anything={text}")[0].anything == value
    obj, _ = load_game("usergames:Annotated:size=2,ratio=0.5,flag=true,text=t,other=7")
    assert obj.args == (2, 0.5, True, "t", 7)
    # a str default that reads as a number is still a str (it arrived as the int 51: issue 35)
    obj, _ = load_game("usergames:Chance:moves=51,odds=2")
    assert (obj.moves_text, obj.odds) == ("51", "2")
    assert load_game("usergames:Race:name=007")[0].name == "007"
    assert search(open_source("game:usergames:Race:goal=4"), "alphabeta").value == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("game:usergames:Race:goal=x", "bad number goal='x' (goal is an integer)"),
        ("game:usergames:Race:weight=heavy", "bad number weight='heavy' (weight is a number)"),
        ("game:usergames:Race:fair=maybe", "bad value fair='maybe' (fair is true or false)"),
        ("game:usergames:Race:size=3", "'size=3' is not KEY=VALUE with KEY one of goal, step"),
        ("game:usergames:Odd:a=1", "the game takes no parameters, got 'a=1'"),
        ("game:usergames:INSTANCE:goal=3", "usergames.INSTANCE is an object, not a class"),
        ("game:usergames:Fails", "game:usergames:Fails: Fails() raised RuntimeError: no board ("),
        ("game:raising:Game", "importing raising raised ValueError: broken module ("),
        ("game:tictactoe", "--depth needs the game's estimate(state)"),
    ],
)
def test_bad_parameters_of_users_games(user_games: Path, spec: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", spec, "--depth", "2"])
    assert r.exit_code == 2 and message in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


class Minimal:
    """A one-move game whose answers each test replaces."""

    def initial(self) -> Any:
        return 0

    def moves(self, s: Any) -> Any:
        return [1] if s == 0 else []

    def play(self, s: Any, m: Any) -> Any:
        return s + m

    def utility(self, s: Any) -> Any:
        return s


class Loud:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing")

    def __hash__(self) -> int:
        return 1


def answers(**methods: Any) -> Minimal:
    game = Minimal()
    for name, value in methods.items():
        setattr(game, name, value)
    return game


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (answers(utility=lambda s: 2**60), "utility() returned 1152921504606846976, beyond 2**53"),
        (answers(initial=lambda: float("nan")), "gave a state that is not equal to itself: nan"),
        (answers(initial=Loud), "initial() raised RuntimeError: no comparing ("),
        (answers(moves=str), "moves() must return a sequence (a list or a tuple), got str (?)"),
        (answers(moves=len), "moves() raised TypeError: object of type 'int' has no len() ("),
        (answers(play=lambda s, m: 1 / 0), "play() raised ZeroDivisionError"),
        (answers(label=lambda s, m: 3), "label() must return a str, got 3"),
        (answers(root="west"), "root must be 'max' or 'min', got 'west'"),
    ],
)
def test_answers_that_break_the_protocol(game: Any, message: str) -> None:
    with pytest.raises(GtsearchError) as info:
        tree = GameTree(Game(game, "game:t"), source="game:t")
        search(tree, "minimax")
        whole(tree)
    assert message in str(info.value), str(info.value)


def test_a_games_own_errors_pass_through() -> None:
    """A GtsearchError raised by the game's code (a game that opens a source) is its own."""

    def moves(s: Any) -> Any:
        raise GtsearchError("game:t: my own words")

    with pytest.raises(GtsearchError, match=r"^game:t: my own words$"):
        GameTree(Game(answers(moves=moves), "game:t"), source="game:t")


def test_a_general_game_without_labels_and_with_sequences() -> None:
    """player() with moves as a range and no label; render must return a str; a play that
    raises in a game that says who moves."""
    game = answers(
        player=lambda s: "max" if s == 0 else None,
        moves=lambda s: range(2),
        play=lambda s, m: m + 1,
    )
    tree = GameTree(Game(game, "game:t"), source="game:t")
    assert len(tree.end) == 3 and tree.names.get(1) is None
    assert positions(tree, (0,)) == []  # the game does not draw
    bad = Game(answers(render=lambda s: 3), "game:t")
    with pytest.raises(GtsearchError, match="render\\(\\) must return a str, got int"):
        bad.render(0)
    raising = answers(player=lambda s: "max" if s == 0 else None, play=lambda s, m: 1 / 0)
    with pytest.raises(GtsearchError, match="play\\(\\) raised ZeroDivisionError"):
        GameTree(Game(raising, "game:t"), source="game:t")


def test_chance_nodes_computed_on_demand(user_games: Path) -> None:
    """A lazy tree's chance nodes (the pure core's view), a probability of 0, whole()
    bounded by --max-nodes."""
    from gtsearch import core

    with core.pure():
        tree = open_source("game:usergames:Chance")
    assert tree.chance_nodes() == 1 and tree.probabilities(0) == (1, 0)
    assert search(tree, "expectiminimax").value == 0
    with pytest.raises(GtsearchError, match="more than --max-nodes 2"):
        tree.whole(2)  # type: ignore[attr-defined]


def test_openspiel_without_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    r = CliRunner().invoke(cli, ["eval", "game:openspiel:tic_tac_toe"])
    assert r.exit_code == 2
    assert r.output == (
        "game:openspiel:tic_tac_toe: OpenSpiel is not installed: "
        "pip install 'gtsearch[openspiel]'\n"
    )


def test_an_engine_line_without_a_pv() -> None:
    r = search(open_source("game:nim:0"), "alphabeta")
    line = engine_line("MAX", r, "-", [], "")
    assert line.startswith("MAX (alphabeta) plays -: value 0, PV -, 1 of 1 leaves, 1 nodes, ")


def test_play_to_the_end_of_the_input_and_files_it_cannot_use(
    user_games: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["play", "usergames:Race", "--human", "min"], input="1\n2\n")
    assert "MIN to move [1, 2]" in r.output  # a game without labels: its moves by number
    r = runner.invoke(cli, ["play", "nim:9"], input="2\ntake 2\n")  # a name, never a number
    assert r.exit_code == 0 and r.output.rstrip().endswith("quit")
    assert "not a move here: '2' (the moves: take 1, take 2, take 3)" in r.output
    assert r.output.count("plays take") == 1
    r = runner.invoke(cli, ["play", "nim:3", "-o", str(tmp_path / "no" / "x.json")], input="q\n")
    assert r.exit_code != 0 and "cannot write" in r.output
    r = runner.invoke(cli, ["play", "x", "--load", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read" in r.output
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    r = runner.invoke(cli, ["play", "x", "--load", str(tmp_path / "bad.json")])
    assert r.exit_code == 2 and "not JSON" in r.output
    (tmp_path / "over.json").write_text(
        '{"game": "game:nim:1", "moves": ["take 1", "take 1"]}', encoding="utf-8"
    )
    r = runner.invoke(cli, ["play", "nim:1", "--load", str(tmp_path / "over.json")])
    assert r.exit_code == 2 and "move 2, 'take 1': the game is already over" in r.output


# -- user code that throws anything, answers anything (tests/cases/games/hostile_games.py) -------
HOSTILE = Path(__file__).parent / "cases" / "games"


@pytest.fixture
def hostile(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(HOSTILE))
    for name in ("hostile_games", "hostile_import_exit", "hostile_getattr"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import hostile_games

    return hostile_games


def test_every_hostile_game_is_one_line_exit_2(hostile: Any) -> None:
    """sys.exit(), GeneratorExit, StopIteration, RecursionError, MemoryError, an int of 1,329
    bits, bounds that are NaN, text or reversed, names holding a newline or NUL: one line that
    names the game, the method and the place, exit status 2, in both cores."""
    for name, message in hostile.CASES.items():
        r = CliRunner().invoke(cli, ["eval", f"game:hostile_games:{name}"])
        assert r.exit_code == 2 and not isinstance(r.exception, AssertionError), (name, r.output)
        assert r.output.startswith(f"game:hostile_games:{name}: ") and message in r.output, (
            name,
            r.output,
        )
        assert len(r.output.splitlines()) == 1, r.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("game:hostile_import_exit:G", "importing hostile_import_exit raised SystemExit: 7 ("),
        ("game:hostile_getattr:G", "hostile_getattr.G raised RuntimeError: no G here ("),
    ],
)
def test_modules_that_exit_or_raise_as_they_are_read(hostile: Any, spec: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", spec])
    assert r.exit_code == 2 and r.output.startswith(f"{spec}: {message}"), r.output


def test_ctrl_c_in_a_games_code_stays_ctrl_c(hostile: Any) -> None:
    class Interrupted(hostile.Heap):  # type: ignore[name-defined]
        def moves(self, s: Any) -> Any:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search(GameTree(Game(Interrupted(), "game:t"), source="game:t"), "minimax")


def test_a_constructor_or_signature_that_exits(hostile: Any) -> None:
    from gtsearch.sources.gamespec import _import_user_game

    class Meta(type):
        @property
        def __signature__(cls) -> Any:
            raise SystemExit(4)

    class Exits(metaclass=Meta):
        def __init__(self) -> None:
            raise SystemExit(5)

    hostile.Exits, hostile.Fails = Exits, type("Fails", (), {"__init__": Exits.__init__})
    with pytest.raises(GtsearchError, match=r"reading the parameters of Exits raised SystemExit"):
        _import_user_game("hostile_games:Exits", "hostile_games", "Exits", "")
    with pytest.raises(GtsearchError, match=r"Fails\(\) raised SystemExit: 5 \("):
        _import_user_game("hostile_games:Fails", "hostile_games", "Fails", "")


def test_answers_read_without_running_their_own_code(hostile: Any) -> None:
    """A number's or a name's subclass is read as the plain value (numpy.float64 is a float);
    a state whose repr() raises is still named; titles and root labels are one line."""

    class Score(float):
        def __repr__(self) -> str:
            raise ValueError("mine")

    class Name(str):
        def __eq__(self, other: object) -> bool:
            raise ValueError("mine")

        __hash__ = str.__hash__

    game = answers(utility=lambda s: Score(0.5), label=lambda s, m: Name("one"))
    assert search(GameTree(Game(game, "game:t"), source="game:t"), "minimax").value == 0.5
    with pytest.raises(GtsearchError, match=r"^game:t: title must be one line of text"):
        Game(answers(title="a\nb"), "game:t")
    with pytest.raises(GtsearchError, match=r"not equal to itself: <a Odd whose repr"):

        class Odd(hostile.Unprintable):  # type: ignore[name-defined]
            __hash__ = object.__hash__

            def __eq__(self, other: object) -> bool:
                return False

        GameTree(Game(answers(initial=Odd), "game:t"), source="game:t")
    with pytest.raises(GtsearchError, match=r"must give \(move, probability\) pairs, got 3"):
        tree = GameTree(
            Game(answers(player=lambda s: "chance", outcomes=lambda s: [3]), "game:t"),
            source="game:t",
        )
    many = [(i, Fraction(1, 20)) for i in range(10)]
    with pytest.raises(
        GtsearchError, match=r"add up to 1/2, not 1: 1/20, .*, \.\.\. \(10 of them\)"
    ):
        tree = GameTree(
            Game(answers(player=lambda s: "chance", outcomes=lambda s: many), "game:t"),
            source="game:t",
        )
        whole(tree)


def test_a_tiny_exact_probability_prints_as_a_decimal(hostile: Any) -> None:
    """A probability of 1/10**300 is shown as ≈1e-300, not as 300 digits."""
    r = CliRunner().invoke(
        cli, ["show", "game:hostile_games:ExactTinyProbability", "-a", "expectiminimax"]
    )
    assert r.exit_code == 0 and "p=≈1e-300" in r.output and "0000000000" not in r.output, r.output
