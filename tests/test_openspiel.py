"""``game:openspiel:NAME(PARAMS)`` against OpenSpiel itself (the extra ``openspiel``): the values
equal OpenSpiel's own alpha-beta and expectiminimax (open_spiel.python.algorithms.minimax), on
games with chance (pig) and repeated turns (dots and boxes), and the leaves read are OpenSpiel's
own, counted by a state that counts the payoffs asked of it; the built-in games that OpenSpiel
also has give OpenSpiel's values and counts."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from click.testing import CliRunner

from gtsearch import core
from gtsearch.algorithms import search
from gtsearch.cli import cli
from gtsearch.sources import open_source

from .conftest import need_extra

pytestmark = pytest.mark.extra("openspiel")
need_extra("openspiel")  # the whole module: its helpers read pyspiel

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import minimax  # noqa: E402


class Counting:
    """An OpenSpiel state that counts the payoffs read (the leaves OpenSpiel's search reads)."""

    def __init__(self, state: Any, counter: list[int]) -> None:
        self.state, self.counter = state, counter

    def player_return(self, player: int) -> float:
        self.counter[0] += 1
        return float(self.state.player_return(player))

    def clone(self) -> Counting:
        return Counting(self.state.clone(), self.counter)

    def __getattr__(self, name: str) -> Any:  # the rest, as the state answers
        return getattr(self.state, name)


def openspiel_search(name: str) -> tuple[float, int]:
    """OpenSpiel's own value of the game for player 0 and the leaves its search reads:
    alpha-beta, or expectiminimax where the game has chance."""
    game = pyspiel.load_game(name)
    counter = [0]
    state = Counting(game.new_initial_state(), counter)
    if game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC:
        value, _ = minimax._alpha_beta(state, 10**6, -float("inf"), float("inf"), None, 0)
    else:
        value, _ = minimax.expectiminimax(state, 10**6, None, 0)
    return value, counter[0]


#: OpenSpiel's games on small settings: name(params) -> whether it has chance
GAMES = {
    "dots_and_boxes(num_rows=1,num_cols=1)": False,  # repeated turns
    "pig(winscore=4,horizon=4,diceoutcomes=3)": True,  # chance
    "nim(pile_sizes=1;2;3)": False,
    "nim(pile_sizes=2;3,is_misere=false)": False,
    "breakthrough(rows=3,columns=3)": False,
    "clobber(rows=3,columns=3)": False,
    "hex(num_rows=2,num_cols=3)": False,
    "y(board_size=3)": False,
    "mnk(m=3,n=2,k=2)": False,
    "connect_four(rows=3,columns=3,x_in_row=3)": False,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_values_and_leaves_are_openspiels(name: str) -> None:
    """gtsearch's alpha-beta (expectiminimax with chance) on game:openspiel: reads the leaves
    OpenSpiel's own search reads and finds its value, under both cores."""
    value, leaves = openspiel_search(name)
    algorithm = "expectiminimax" if GAMES[name] else "alphabeta"
    for pure in (True, False):
        with core.pure() if pure else contextlib.nullcontext():
            tree = open_source(f"game:openspiel:{name}")
            assert tree.has_chance is GAMES[name]
            r = search(tree, algorithm)
            assert (float(r.value), r.leaves) == (value, leaves), name


def test_dots_and_boxes_1x2_reads_425_leaves_as_openspiel() -> None:
    """The issue's case: a player who closes a box moves again (a forced pass of the other
    in gtsearch's tree), and alpha-beta reads 425 leaves as OpenSpiel's does, not 491."""
    spec = "game:openspiel:dots_and_boxes(num_rows=1,num_cols=2)"
    r = search(open_source(spec), "alphabeta")
    assert (r.value, r.leaves) == (0, 425)
    assert openspiel_search("dots_and_boxes(num_rows=1,num_cols=2)") == (0.0, 425)
    assert r.pv_labels is not None and "pass" in r.pv_labels


def test_pig_to_6_is_openspiels_expectiminimax() -> None:
    """Pig to 6 with a die of 6, 6 decisions: OpenSpiel's probabilities (floats, 1/6) read as
    exact sixths, and expectiminimax gives OpenSpiel's value reading its 4,667 leaves."""
    r = search(open_source("game:openspiel:pig(winscore=6,horizon=6)"), "expectiminimax")
    assert (float(r.value), r.leaves) == openspiel_search("pig(winscore=6,horizon=6)")
    assert r.leaves == 4667


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("game:dotsandboxes", "dots_and_boxes(num_rows=1,num_cols=2)"),
        ("game:dotsandboxes:rows=1,columns=1", "dots_and_boxes(num_rows=1,num_cols=1)"),
        ("game:pig", "pig(winscore=6,horizon=6)"),
        ("game:pig:target=4,die=3,horizon=4", "pig(winscore=4,horizon=4,diceoutcomes=3)"),
        ("game:nim:heap=7,take=7,misere=true", "nim(pile_sizes=7;0,is_misere=true)"),
        ("game:nim:heap=6,take=6", "nim(pile_sizes=6;0,is_misere=false)"),
        ("game:connect4:rows=3,columns=3,k=3", "connect_four(rows=3,columns=3,x_in_row=3)"),
        ("game:connect4:rows=3,columns=4,k=3", "connect_four(rows=3,columns=4,x_in_row=3)"),
    ],
)
def test_builtin_games_are_openspiels(ours: str, theirs: str) -> None:
    """The built-in dots and boxes, pig, Nim (one pile) and Connect Four order their moves as
    OpenSpiel does:
    the same value and the same leaves read as OpenSpiel's own search."""
    tree = open_source(ours)
    r = search(tree, "expectiminimax" if tree.has_chance else "alphabeta")
    assert (float(r.value), r.leaves) == openspiel_search(theirs)


def test_openspiels_names_and_positions() -> None:
    """Moves carry OpenSpiel's names; show draws the positions along the PV."""
    spec = "game:openspiel:mnk(m=3,n=2,k=2)"
    r = search(open_source(spec), "alphabeta")
    assert r.pv_labels is not None and r.pv_labels[0].startswith("x(")
    shown = CliRunner().invoke(cli, ["show", spec, "--max-depth", "1"])
    assert shown.exit_code == 0, shown.output
    assert "Positions along the PV:" in shown.output and f"after {r.pv_labels[0]}:" in shown.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "game:openspiel:kuhn_poker",
            "game:openspiel:kuhn_poker: gtsearch searches two-player, zero-sum, "
            "perfect-information, sequential games; kuhn_poker is not one: its players do not "
            "see everything (imperfect information)",
        ),
        (
            "game:openspiel:pig(players=3)",
            "game:openspiel:pig(players=3): gtsearch searches two-player, zero-sum, "
            "perfect-information, sequential games; pig is not one: it has 3 players",
        ),
        (
            "game:openspiel:matrix_pd",
            "game:openspiel:matrix_pd: gtsearch searches two-player, zero-sum, "
            "perfect-information, sequential games; matrix_pd is not one: its utility is "
            "general-sum, not zero-sum",
        ),
        (
            "game:openspiel:oshi_zumo",
            "game:openspiel:oshi_zumo: gtsearch searches two-player, zero-sum, "
            "perfect-information, sequential games; oshi_zumo is not one: its players move at "
            "the same time (simultaneous moves)",
        ),
        ("game:openspiel:no_such_game", "game:openspiel:no_such_game: OpenSpiel: "),
        ("game:openspiel:", "game:openspiel:: name the game, as in game:openspiel:tic_tac_toe"),
    ],
)
def test_games_openspiel_cannot_give(spec: str, message: str) -> None:
    r = CliRunner().invoke(cli, ["eval", spec])
    assert r.exit_code == 2 and r.output.startswith(message), r.output
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_sampled_chance_is_refused_and_positions_read() -> None:
    """A game whose chance is sampled (no probabilities) is refused (OpenSpiel 2.0.2 has no
    such two-player zero-sum perfect-information game: a stand-in); a position's repr is its
    history; OpenSpiel's messages on descriptor 2 stay hidden where there is none."""
    from types import SimpleNamespace

    from gtsearch.sources import openspiel

    kind = pyspiel.load_game("tic_tac_toe").get_type()
    sampled = SimpleNamespace(
        utility=kind.utility,
        information=kind.information,
        dynamics=kind.dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    )
    game = SimpleNamespace(num_players=lambda: 2, get_type=lambda: sampled)
    assert openspiel._refusal(game, pyspiel) == (
        "its chance is sampled, without the outcomes' probabilities"
    )
    tree = open_source("game:openspiel:mnk(m=2,n=2,k=2)")
    assert repr(tree.state_at(1)) == "Position(0,)"  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("tt", [None, 1])
def test_values_with_and_without_a_table_are_openspiels(name: str, tt: int | None) -> None:
    """Keyed by who moves and ToString() (deterministic games) or by history (chance): every
    algorithm that takes a table gives OpenSpiel's value with it and without it, in both
    cores."""
    value, _ = openspiel_search(name)
    names = ("expectiminimax", "star1", "star2") if GAMES[name] else TABLED
    for pure in (True, False):
        with core.pure() if pure else contextlib.nullcontext():
            tree = open_source(f"game:openspiel:{name}")
            for algorithm in names:
                params = {} if tt is None or algorithm == "expectiminimax" else {"tt": tt}
                r = search(tree, algorithm, **params)  # type: ignore[arg-type]
                assert r.exact and float(r.value) == value, (name, algorithm, tt)


#: the algorithms that take a table, on a game without chance
TABLED = ("alphabeta", "negascout", "mt-sss", "mt-dual", "mtdf")


def test_tic_tac_toe_is_keyed_by_its_positions() -> None:
    """tic_tac_toe keyed by who moves and ToString(): its 549,946 histories are the 5,478
    states OpenSpiel's get_all_states gives keyed by str (its value iteration's key), and the
    table finds transpositions (hits), the value OpenSpiel's."""
    from open_spiel.python.algorithms import get_all_states

    theirs = get_all_states.get_all_states(pyspiel.load_game("tic_tac_toe"), to_string=str)
    tree = open_source("game:openspiel:tic_tac_toe")
    assert len(tree.end) == 549_946
    assert len(set(tree.position_numbers().values())) == len(theirs) == 5478  # type: ignore[attr-defined]
    r = search(tree, "alphabeta", tt=16)
    assert r.value == 0 and r.extra["tt"]["hits"] > 0 and r.extra["tt"]["cuts"] > 0
    assert r.leaves < search(tree, "alphabeta").leaves


def test_pig_is_keyed_by_history() -> None:
    """In a game with chance ToString() need not hold the state (OpenSpiel's pig leaves out
    the decisions its horizon counts): pig keyed by history, each history a position."""
    tree = open_source("game:openspiel:pig(winscore=4,horizon=4,diceoutcomes=3)")
    entries = tree.position_numbers()  # type: ignore[attr-defined]
    assert entries and all(e[1].ident == e[1].history for e in entries)
    tic = open_source("game:openspiel:tic_tac_toe").position_numbers()  # type: ignore[attr-defined]
    assert all(e[1].ident == (e[1].state.current_player(), str(e[1].state)) for e in tic)


def test_no_descriptor_2(monkeypatch: pytest.MonkeyPatch) -> None:
    from gtsearch.sources import openspiel

    def no_dup(fd: int) -> int:
        raise OSError("bad file descriptor")

    monkeypatch.setattr(openspiel.os, "dup", no_dup)
    r = CliRunner().invoke(cli, ["eval", "game:openspiel:no_such_game"])
    assert r.exit_code == 2 and r.output.startswith("game:openspiel:no_such_game: OpenSpiel: ")


VALUE_FUNCTION = '''
def value(state):
    """A made-up evaluation of an OpenSpiel tic-tac-toe state, as pyspiel.State."""
    text = str(state)
    return text.count("x") * 0.5 - text.count("o") * 0.25 + ("x" in text.splitlines()[1])
'''


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("moves", ["", "x(1,1) o(0,0)"])
def test_an_estimate_is_openspiels_value_function(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, depth: int, moves: str
) -> None:
    """--estimate hands the function OpenSpiel's own state: the function its alpha_beta_search
    takes as value_function gives the same value at the same depth, from the start and from a
    position named by --moves in OpenSpiel's action strings (issue 35)."""
    import sys

    (tmp_path / "osvalue.py").write_text(VALUE_FUNCTION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "osvalue", raising=False)
    import osvalue

    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for name in moves.split():
        state.apply_action(
            next(a for a in state.legal_actions() if state.action_to_string(a) == name)
        )
    theirs, _ = minimax.alpha_beta_search(
        game, state=state, value_function=osvalue.value, maximum_depth=depth,
        maximizing_player_id=0,
    )  # fmt: skip
    args = ["eval", "game:openspiel:tic_tac_toe", "--depth", str(depth)]
    args += ["--estimate", "osvalue:value", "--format", "json", "-a", "alphabeta,minimax"]
    r = CliRunner().invoke(cli, [*args, *(["--moves", moves] if moves else [])])
    assert r.exit_code == 0, r.output
    assert [float(json.loads(line)["value"]) for line in r.output.splitlines()] == [theirs] * 2


#: the searches that run on demand (docs/sources.md): the leaf bounds are OpenSpiel's utilities
ON_DEMAND: list[tuple[str, dict[str, Any]]] = [
    ("minimax", {}),
    ("f1", {"bound": 0}),
    ("alphabeta", {}),
    ("alphabeta", {"variant": "fail-hard", "alpha": -0.5, "beta": 0.5}),
    ("expectiminimax", {}),
    ("star1", {"tt": 0}),
    ("star2", {"tt": 0}),
    ("star2", {"tt": 16}),
    # playouts on one copy of OpenSpiel's state, in place: the same draws, leaves and counts
    ("mcts", {"iterations": 300, "seed": 7}),
    ("mcts", {"iterations": 120, "seed": 2**64 - 1, "exploration": 0.5}),
]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_searched_on_demand_as_counted(name: str) -> None:
    """Every search that runs on demand gives on OpenSpiel's game searched on demand what it
    gives on the counted game (value, PV, leaves in order as paths, nodes, every count), in
    both cores; a deterministic game has no chance node on demand (no outcomes())."""
    from gtsearch.sources.ondemand import OnDemandTree

    for pure in (True, False):
        with core.pure() if pure else contextlib.nullcontext():
            counted = open_source(f"game:openspiel:{name}")
            open_ = open_source(f"game:openspiel:{name}", on_demand=True)
            assert isinstance(open_, OnDemandTree) and (open_.chance is not None) is GAMES[name]
            bounds = open_.game.bounds
            for algo, params in ON_DEMAND:
                if GAMES[name] and algo in ("minimax", "f1", "alphabeta"):
                    continue
                if algo.startswith("star") or algo == "mcts":
                    params = {**params, "leaf_bounds": bounds}
                a = search(counted, algo, leaf_order=True, **params)
                b = search(open_, algo, leaf_order=True, **params)
                assert (a.value, a.pv, a.pv_labels, a.leaves, a.leaf_order, a.nodes) == (
                    b.value,
                    b.pv,
                    b.pv_labels,
                    b.leaves,
                    b.leaf_order,
                    b.nodes,
                ), (name, algo, params)
                assert a.extra == b.extra and b.leaves_total is None


def test_eval_counts_nothing_first() -> None:
    """eval of tic-tac-toe and breakthrough 4x3 (over a million states) by alpha-beta, and of
    pig by expectiminimax, searched on demand from the start: OpenSpiel's values, the leaves
    not counted; alpha-beta with a table too (a deterministic game has no chance node)."""
    runner = CliRunner()
    for spec, args, value in (
        ("tic_tac_toe", ["-a", "alphabeta"], 0),
        ("tic_tac_toe", ["-a", "alphabeta", "--tt", "4"], 0),
        ("breakthrough(rows=4,columns=3)", ["-a", "alphabeta"], 1),
        ("pig(winscore=4,horizon=4,diceoutcomes=3)", ["-a", "expectiminimax,star2"], None),
    ):
        r = runner.invoke(cli, ["eval", f"game:openspiel:{spec}", *args, "--format", "json"])
        assert r.exit_code == 0, r.output
        recs = [json.loads(line) for line in r.output.splitlines()]
        assert all(x["leaves_total"] is None for x in recs)
        want = value if value is not None else openspiel_search(spec)[0]
        assert all(x["value"] == pytest.approx(want) for x in recs)
    assert recs[0]["leaves"] >= recs[1]["leaves"]  # star2 reads no more than expectiminimax


@pytest.mark.parametrize("pure", [False, True], ids=["core", "pure"])
def test_mcts_playouts_cut_by_an_estimate_on_demand_as_counted(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, pure: bool
) -> None:
    """mcts --playout-depth with --estimate on OpenSpiel's game searched on demand: the
    playouts, played in place on a copy of the state, hand the function the state each one
    stopped at (a copy of its own), as the counted game's do: the same value and counts."""
    import sys

    (tmp_path / "osvalue.py").write_text(VALUE_FUNCTION, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "osvalue", raising=False)
    spec = "game:openspiel:connect_four(rows=3,columns=4,x_in_row=3)"
    params: dict[str, Any] = {"iterations": 200, "seed": 5, "playout_depth": 2}
    params["leaf_bounds"] = (-1, 1)
    with core.pure() if pure else contextlib.nullcontext():
        counted = open_source(spec, estimate="osvalue:value")
        open_ = open_source(spec, estimate="osvalue:value", on_demand=True)
        a = search(counted, "mcts", leaf_order=True, **params)
        b = search(open_, "mcts", leaf_order=True, **params)
    assert (a.value, a.pv, a.leaves, a.leaf_order, a.nodes, a.extra) == (
        b.value,
        b.pv,
        b.leaves,
        b.leaf_order,
        b.nodes,
        b.extra,
    )
    assert b.extra["playouts"] > 100 and b.leaves < 200
