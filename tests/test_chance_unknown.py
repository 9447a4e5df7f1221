"""A game that may have chance nodes (it has ``outcomes()``), searched on demand.

Nothing is counted on demand, so whether such a game ever reaches a chance state is not known
before the search: a search that takes no chance node runs, as on the game counted, and stops
with the one line it would have given up front at the first chance node it meets (docs/
sources.md, "Games searched on demand").  A game that says who moves through ``player()`` and
never says "chance" is searched by every algorithm, as it was when its states were counted.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.algorithms.iterative import iterate
from gtsearch.algorithms.pns import solve_pns
from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.sources.games import Game, GameTree
from gtsearch.sources.ondemand import OnDemandTree

#: the searches that take no chance node, and their parameters
DECIDING = [(a.name, {"bound": 0} if a.needs_bound else {}) for a in ALGORITHMS if not a.chance]


class Sticks:
    """Take 1 or 2 sticks; who takes the last one wins.  With ``dice`` > 0, once ``dice``
    sticks or fewer are left a die (1 or 2, evens) takes the sticks in place of the mover."""

    def __init__(self, n: int = 5, dice: int = 0) -> None:
        self.n, self.dice = n, dice

    def initial(self) -> tuple[int, int, bool]:
        return (self.n, 0, False)  # sticks, who moves (0: MAX), whether the die is to roll

    def player(self, s: tuple[int, int, bool]) -> str | None:
        if s[0] == 0:
            return None
        if s[2]:
            return "chance"
        return "max" if s[1] == 0 else "min"

    def moves(self, s: tuple[int, int, bool]) -> list[int]:
        return [m for m in (1, 2) if m <= s[0]]

    def outcomes(self, s: tuple[int, int, bool]) -> list[tuple[int, float]]:
        return [(m, 0.5) for m in (1, 2) if m <= s[0]] if s[0] > 1 else [(1, 1.0)]

    def play(self, s: tuple[int, int, bool], m: int) -> tuple[int, int, bool]:
        left = s[0] - m
        rolled = s[2]
        mover = s[1] if rolled else 1 - s[1]  # the die takes for whoever is to move
        return (left, mover, 0 < left <= self.dice and not rolled)

    def utility(self, s: tuple[int, int, bool]) -> int:
        return -1 if s[1] == 0 else 1  # the player to move has nothing left to take: lost


def trees(n: int, dice: int = 0) -> tuple[GameTree, OnDemandTree]:
    """The game counted, and on demand."""
    game = Game(Sticks(n, dice), "game:test")
    return GameTree(game, source="game:test"), OnDemandTree(game, source="game:test")


def untimed(r: Any) -> Any:
    return r._replace(seconds=0.0, tree=None, leaves_total=None)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(1, 9))
def test_outcomes_without_a_chance_state_is_searched_by_every_algorithm(n: int) -> None:
    """Never a chance state: every search on demand gives what it gives on the game counted."""
    counted, on_demand = trees(n)
    assert counted.chance is None and on_demand.chance_unknown()
    for name, params in DECIDING:
        for tt in (None, 2) if name in ("alphabeta", "negascout", "mtdf") else (None,):
            counted, on_demand = trees(n)
            got = search(on_demand, name, leaf_order=True, tt=tt, **params)  # type: ignore[misc]
            expected = search(counted, name, leaf_order=True, tt=tt, **params)  # type: ignore[misc]
            assert untimed(got) == untimed(expected), (name, tt)
    assert solve(trees(n)[1]).result == solve(trees(n)[0]).result
    assert solve_pns(trees(n)[1], 1)["result"] == solve_pns(trees(n)[0], 1)["result"]


def test_a_chance_state_met_deep_stops_the_search_at_it() -> None:
    counted, on_demand = trees(7, dice=2)
    assert counted.chance is not None  # counted: known before any search
    for name, params in DECIDING:
        if name == "mcts":
            continue  # mcts samples the chance nodes it meets
        with pytest.raises(UsageError, match="the tree has chance nodes, which"):
            search(counted, name, **params)  # type: ignore[misc]
        _, tree = trees(7, dice=2)
        assert tree.chance_unknown()
        with pytest.raises(UsageError, match=f"the tree has chance nodes, which {name} cannot"):
            search(tree, name, **params)  # type: ignore[misc]
        assert tree.refusing is None and not tree.chance_unknown()  # met: known from now on
        expected = search(counted, "expectiminimax")  # the same tree searches on after it
        assert untimed(search(tree, "expectiminimax")) == untimed(expected)
    for solver in (solve, lambda t: solve_pns(t, 1)):
        with pytest.raises(UsageError, match="the tree has chance nodes: solve"):
            solver(trees(7, dice=2)[1])


def test_a_chance_state_among_the_roots_children_is_refused_up_front() -> None:
    """Pig's "roll" is the root's first child: alpha-beta is refused before it starts."""
    _, tree = trees(2, dice=2)  # the first move (1 stick) leaves the die to roll
    assert not tree.chance_unknown()
    with pytest.raises(UsageError):
        search(tree, "alphabeta")
    assert len(tree.keys) == 1  # nothing listed: refused before the search


def test_no_player_no_chance() -> None:
    """Without player() a game has no chance state, whatever methods it has."""

    class Alternating:
        def initial(self) -> int:
            return 3

        def moves(self, s: int) -> list[int]:
            return [1] if s else []

        def play(self, s: int, m: int) -> int:
            return s - m

        def outcomes(self, s: int) -> list[tuple[int, int]]:
            return [(1, 1)]

        def utility(self, s: int) -> int:
            return 1

    tree = OnDemandTree(Game(Alternating(), "game:test"), source="game:test")
    assert tree.chance is None and not tree.chance_unknown()
    assert search(tree, "alphabeta").value == 1


def test_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the module: the class above, as a file
    source = "from __future__ import annotations\n\n" + inspect.getsource(Sticks)
    (tmp_path / "sticks_game.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run = CliRunner().invoke
    r = run(cli, ["eval", "game:sticks_game:Sticks:n=6", "-a", "alphabeta,sss", "--format", "json"])
    assert r.exit_code == 0, r.output
    r = run(cli, ["solve", "game:sticks_game:Sticks:n=6"])
    # 6 = 0 mod 3: lost for the mover, who makes it last 4 plies (6 -> 5 -> 3 -> 2 -> 0)
    head = "game:sticks_game:Sticks:n=6: loss for MAX (to move) in 4 plies"
    assert r.exit_code == 0 and r.output.startswith(head), r.output
    spec = "game:sticks_game:Sticks:n=7,dice=2"
    for argv in (["eval", spec, "-a", "alphabeta"], ["solve", spec]):
        r = run(cli, argv)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        assert r.output.startswith(f"{spec}: the tree has chance nodes")
        assert len(r.output.strip().splitlines()) == 1
    r = run(cli, ["eval", spec, "-a", "expectiminimax", "--format", "json"])
    assert r.exit_code == 0, r.output


def test_the_search_over_openspiels_states_in_c_leaves_the_refusal_to_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """search_objects.c does not stop at a chance node for a search that takes none: while a
    refusal is pending the tree offers it no states (objects_spec), and Python's search runs."""
    from gtsearch.sources import ondemand_c

    monkeypatch.setattr(ondemand_c, "native", lambda: object())
    monkeypatch.setattr(ondemand_c, "c_states", lambda obj, position: (7, True))
    _, tree = trees(7, dice=2)
    tag, state, depth = tree.root_key  # an OpenSpiel game's states are positions
    tree.root_key = (tag, type("Position", (), {"state": state})(), depth)
    assert tree.objects_spec() is not None  # as an OpenSpiel game's would be
    with tree.searched(UsageError("refused")):
        assert tree.objects_spec() is None
    assert tree.objects_spec() is not None


class Estimated(Sticks):
    def estimate(self, s: tuple[int, int, bool]) -> int:
        return 0


def test_eval_iterative_is_refused_at_the_first_chance_node() -> None:
    game = Game(Estimated(7, 0), "game:test")
    got = iterate(OnDemandTree(game, source="game:test"), 1)
    expected = iterate(GameTree(game, source="game:test"), 1)
    # on demand the deepening ends at the first iteration that meets no horizon, counted at
    # the game's height: the same iterations up to there
    assert [untimed(r) for r in got] == [untimed(r) for r in expected[: len(got)]]
    assert got[-1].value == expected[-1].value == 1
    tree = OnDemandTree(Game(Estimated(7, 2), "game:test"), source="game:test")
    assert tree.chance_unknown()
    with pytest.raises(UsageError, match="the tree has chance nodes, which alphabeta cannot"):
        iterate(tree, 1)
