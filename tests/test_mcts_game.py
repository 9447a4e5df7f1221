"""mcts in C on demand over a game's C rules (search_mcts.c, game.h): step for step the Python
mcts on an OnDemandTree of the same game.

The same value, PV and its names, leaves in order (the loose leaves' numbers too), nodes and
every extra figure, and afterwards the same tree: the nodes numbered (parent, first child,
depth), the loose leaves' paths, the deepest node, and the names and paths of what the search
returned.  Random positions of Connect Four on boards of every size the C rules hold, cut by
--depth or not, playouts cut or not, several seeds; --max-nodes, --time, a board too big for
the C rules, and the command line; and every other built-in game without chance whose rules
are in C (tic-tac-toe, Nim, Othello, Hexapawn, dots and boxes: their passes too); and Pig,
whose chance nodes are drawn by their weights (random parameters and positions, a chance
node at the root).  Under GTSEARCH_PURE=1 the pure search runs twice: the tests then check
that it reproduces itself.
"""

from __future__ import annotations

import contextlib
import json
import random
from array import array
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import search
from gtsearch.cli import cli
from gtsearch.errors import NodeLimit
from gtsearch.sources.library.connect4 import ConnectFour
from gtsearch.sources.library.pig import Pig
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.protocol import CHANCE, Game

needs_c = pytest.mark.skipif(core.native() is None, reason="compares the C core with the pure one")


def position(obj: ConnectFour, rng: random.Random, plies: int) -> tuple[Any, bool]:
    """A state after up to ``plies`` random moves that does not end the game, and whether
    MAX (X) moves there."""
    state = obj.initial()
    for _ in range(plies):
        moves = obj.moves(state)
        if not moves:
            break
        child = obj.play(state, rng.choice(moves))
        if not obj.moves(child):
            break
        state = child
    x, o, _ = state
    return state, bin(x).count("1") == bin(o).count("1")


def tree_of(obj: ConnectFour, start: Any, start_max: bool, **where: Any) -> OnDemandTree:
    return OnDemandTree(
        Game(obj, "connect4"), source="game:connect4", start=start, start_max=start_max, **where
    )


def run(tree: OnDemandTree, **params: Any) -> Any:
    return search(tree, "mcts", leaf_order=True, leaf_bounds=(-1, 1), **params)


def outcome(r: Any) -> tuple[Any, ...]:
    return (r.value, r.bound, r.pv, r.pv_labels, r.leaves, r.leaf_order, r.nodes, r.extra)


def numbered(t: OnDemandTree) -> tuple[Any, ...]:
    """What the tree knows after the search: its nodes, loose leaves, and the paths, names
    and states of nodes numbered here and there, and of loose leaves.  (Not their position
    numbers, which follow the order the entries were met: docs/core.md.)"""
    nodes = list(range(0, len(t.keys), max(1, len(t.keys) // 40)))
    loose = [~i for i in range(min(20, len(t.loose_paths)))]
    return (
        list(t.up),
        list(t.first),
        list(t.depths),
        t.loose_paths,
        t.deepest,
        t.visited,
        [t.path_of(n) for n in nodes + loose],
        [t.name_at(n) for n in nodes],
        [t.state_at(n) for n in nodes],
        # with chance nodes: the decision nodes above each node (is_max's count)
        list(t.turn_counts) if t.chance is not None else None,
    )


def both(make: Any, **params: Any) -> tuple[Any, Any]:
    """The search of a fresh tree in the core that runs, then under the pure core."""
    t = make()
    a = run(t, **params)
    with core.pure():
        u = make()
        b = run(u, **params)
    assert outcome(a) == outcome(b)
    assert numbered(t) == numbered(u)
    return a, t


def spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The calls of the core's mcts_game from now on (their arguments), each still made."""
    native = core.native()
    calls = []
    real = native.mcts_game  # type: ignore[union-attr]

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(native, "mcts_game", spy)
    return calls


@needs_c
def test_connect4_runs_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with C rules searched on demand by mcts runs in C (told it has no chance
    nodes); under the pure core it does not, and both give the same."""
    calls = spied(monkeypatch)
    obj = ConnectFour(4, 5, 3)
    a, t = both(lambda: tree_of(obj, obj.initial(), True), iterations=400, seed=3)
    assert [(c[:3], c[-1]) for c in calls] == [(("connect4", (4, 5, 3), (0, 0, 0, 0)), False)]
    assert a.leaves == 400 and a.extra["iterations"] == 400
    assert t.loose_paths  # leaves only playouts reached, numbered ~0, ~1, ...


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 7),
    st.integers(1, 4),
    st.integers(0, 30),
    st.integers(0, 2**64 - 1),
    st.integers(1, 250),
    st.none() | st.integers(0, 4),
    st.none() | st.integers(1, 5),
)
def test_c_equals_pure_on_random_positions(
    rows: int,
    columns: int,
    k: int,
    plies: int,
    seed: int,
    iterations: int,
    playout_depth: int | None,
    depth: int | None,
) -> None:
    """Every figure and the tree after the search, C against pure, on random positions of
    boards of every size (a board the C rules cannot hold runs in Python in both)."""
    obj = ConnectFour(rows, columns, k)
    start, start_max = position(obj, random.Random(seed), plies)
    both(
        lambda: tree_of(obj, start, start_max, limit=depth),
        iterations=iterations,
        seed=seed,
        playout_depth=playout_depth,
    )


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_c_equals_pure_on_6x7(seed: int) -> None:
    """The full board from the start and from a position 10 plies in, 1,500 iterations."""
    obj = ConnectFour()
    both(lambda: tree_of(obj, obj.initial(), True), iterations=1500, seed=seed)
    start, start_max = position(obj, random.Random(seed), 10)
    both(lambda: tree_of(obj, start, start_max), iterations=1500, seed=seed, exploration=0.5)


def test_a_won_position_and_a_cut_root() -> None:
    """The root a leaf: the game over there (O won), or at the --depth cut (depth 0)."""
    obj = ConnectFour(3, 3, 2)
    won = obj.initial()
    for move in (0, 1, 2, 1):  # O's two discs in column 2
        won = obj.play(won, move)
    assert won[2] == -1 and not obj.moves(won)
    a, _ = both(lambda: tree_of(obj, won, True), iterations=20, seed=1)
    assert a.value == -1 and list(a.leaf_order) == [()] * 20
    a, _ = both(lambda: tree_of(obj, obj.initial(), True, limit=0), iterations=5, seed=1)
    assert a.value == 0 and a.extra["playouts"] == 0


@pytest.mark.parametrize("most", [1, 5, 9, 40, 120, 400])
def test_the_visit_limit(most: int) -> None:
    """--max-nodes: the same error at the same place (a listing past it, or a playout's moves
    with the nodes and loose leaves), or the same result within it."""

    def outcome_or_error(pure: bool) -> Any:
        obj = ConnectFour(4, 4, 3)
        t = tree_of(obj, obj.initial(), True, max_nodes=most)
        try:
            if pure:
                with core.pure():
                    return outcome(run(t, iterations=60, seed=2))
            return outcome(run(t, iterations=60, seed=2))
        except NodeLimit as e:
            return str(e)

    assert outcome_or_error(False) == outcome_or_error(True)


def test_the_visit_limit_at_the_line() -> None:
    """--max-nodes passed by the numbering of the children of the PV's last node (without
    playouts, no loose leaf): the same error in both cores."""
    obj = ConnectFour(3, 4, 3)
    t = tree_of(obj, obj.initial(), True)
    run(t, iterations=30, seed=1, playout_depth=0)
    assert not t.loose_paths
    for pure in (False, True):
        tight = tree_of(obj, obj.initial(), True, max_nodes=t.visited - 1)
        with pytest.raises(NodeLimit, match=f"--max-nodes {t.visited - 1} nodes"):
            if pure:
                with core.pure():
                    run(tight, iterations=30, seed=1, playout_depth=0)
            else:
                run(tight, iterations=30, seed=1, playout_depth=0)


def test_time_and_a_board_too_big_for_the_rules() -> None:
    """--time alone; a board of more than 64 bits (8x8) runs in Python, the same numbers."""
    obj = ConnectFour()
    r = run(tree_of(obj, obj.initial(), True), seconds=0.05, seed=1)
    assert r.extra["iterations"] >= 1 and r.leaves == r.extra["iterations"]
    big = ConnectFour(8, 8, 4)
    if core.native() is not None:
        tree = tree_of(big, big.initial(), True)
        assert tree.c_rules() is None  # gamerules.rules_of: too big for the C rules
        args = (-1, 100, -1.0, 2.0, 10, -1.0, 1, 1.0, -1, array("q", [0, 0]))
        words = (0, 0, 0, 0)
        native = core.native()
        assert (
            native is not None
            and native.mcts_game("connect4", (8, 8, 4), words, True, *args) is None
        )
    both(lambda: tree_of(big, big.initial(), True), iterations=100, seed=4)


def test_a_tree_searched_before_runs_in_python() -> None:
    """A tree that has numbered nodes already (another search before) is not handed to C:
    mcts goes on numbering it as Python does."""
    obj = ConnectFour(3, 4, 3)

    def make() -> OnDemandTree:
        t = tree_of(obj, obj.initial(), True, limit=3)
        search(t, "alphabeta")
        return t

    assert make().c_rules() is None
    both(make, iterations=100, seed=5)


@needs_c
def test_bad_calls_of_the_core() -> None:
    """The private function refuses what Python never passes: unknown rules, parameters that
    are not integers or not a sequence, words that are not four, a progress that is not an
    array('q'); more parameters than a game takes are Python's (None)."""
    native = core.native()
    assert native is not None
    tail = (True, -1, 100, -1.0, 2.0, 10, -1.0, 1, 1.0, -1, array("q", [0, 0]))
    with pytest.raises(ValueError, match="no rules of a game chess"):
        native.mcts_game("chess", (6, 7, 4), (0, 0, 0, 0), *tail)
    with pytest.raises(TypeError):
        native.mcts_game("connect4", (6, "7", 4), (0, 0, 0, 0), *tail)
    with pytest.raises(TypeError):
        native.mcts_game("connect4", 6, (0, 0, 0, 0), *tail)
    assert native.mcts_game("connect4", (6, 7, 4, 1, 1), (0, 0, 0, 0), *tail) is None
    with pytest.raises(TypeError, match="progress must be an array"):
        native.mcts_game("connect4", (6, 7, 4), (0, 0, 0, 0), *tail[:-1], array("d", [0.0]))
    found = native.mcts_game("connect4", [2, 2, 2], (0, 0, 0, 0), *tail)  # a list
    assert found is not None and found[0][5] == 10
    with pytest.raises(TypeError):
        native.mcts_game("connect4", (6, 7, 4), (0, 0, 0), *tail)


def test_the_command_line_in_both_cores() -> None:
    """`eval game:connect4 -a mcts`: the same JSON (but the seconds) in both cores; past
    --max-nodes one line and status 2."""
    runner = CliRunner()
    argv = ["eval", "game:connect4", "-a", "mcts", "--iterations", "300", "--seed", "9"]

    def said() -> dict[str, Any]:
        r = runner.invoke(cli, [*argv, "--format", "json"])
        assert r.exit_code == 0, r.output
        found: dict[str, Any] = json.loads(r.output.splitlines()[0])
        return {k: v for k, v in found.items() if "seconds" not in k}

    c = said()
    with core.pure():
        assert said() == c
    r = runner.invoke(cli, [*argv, "--max-nodes", "50"])
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and "50" in r.output


@pytest.mark.parametrize(
    ("spec", "depth", "playout_depth"),
    [
        ("tictactoe", None, None),
        ("nim:heap=15,take=4", None, None),
        ("nim:heap=9,misere=true", None, None),
        ("othello", None, None),
        ("othello:rows=6,columns=6", 4, None),
        ("othello:rows=8,columns=8", 3, 2),
        ("hexapawn", None, None),
        ("hexapawn:rows=5,columns=4", 6, None),
        ("dotsandboxes:rows=1,columns=2", None, None),
        ("dotsandboxes:rows=2,columns=2", 5, 3),
    ],
)
@pytest.mark.parametrize("seed", [0, 7])
def test_every_game_with_c_rules(
    spec: str, depth: int | None, playout_depth: int | None, seed: int
) -> None:
    """mcts in C over each game's C rules (gamerules.rules_of), forced passes and repeated
    turns included, against the pure search: every count, and the tree afterwards."""
    from gtsearch.sources.gamespec import game_of

    game = game_of(spec)
    lo, hi = getattr(game.obj, "bounds", (-1, 1))

    def make() -> OnDemandTree:
        return OnDemandTree(game, source=f"game:{spec}", limit=depth)

    if core.native() is not None:
        assert make().c_rules() is not None, spec
    params: dict[str, Any] = {"iterations": 300, "seed": seed}
    if playout_depth is not None:
        params["playout_depth"] = playout_depth
    t = make()
    a = search(t, "mcts", leaf_order=True, leaf_bounds=(lo, hi), **params)
    with core.pure():
        u = make()
        b = search(u, "mcts", leaf_order=True, leaf_bounds=(lo, hi), **params)
    assert outcome(a) == outcome(b)
    assert numbered(t) == numbered(u)


def pig_tree(obj: Pig, plies: int, rng: random.Random, **where: Any) -> OnDemandTree:
    """Pig from the state after up to ``plies`` random decisions and rolls (a chance node, a
    forced pass or the end of the game among them)."""
    state = obj.initial()
    for _ in range(plies):
        who = obj.player(state)
        if who is None:
            break
        options = [o for o, _ in obj.outcomes(state)] if who == CHANCE else obj.moves(state)
        state = obj.play(state, rng.choice(options))
    return OnDemandTree(Game(obj, "pig"), source="game:pig", start=state, **where)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 15),
    st.integers(2, 8),
    st.integers(1, 12),
    st.integers(0, 12),
    st.integers(0, 2**64 - 1),
    st.integers(1, 200),
    st.none() | st.integers(0, 6),
    st.none() | st.integers(0, 4),
)
def test_pig_c_equals_pure_on_random_parameters_and_positions(
    target: int,
    die: int,
    horizon: int,
    plies: int,
    seed: int,
    iterations: int,
    depth: int | None,
    playout_depth: int | None,
) -> None:
    """Pig's chance nodes drawn in C as in Python (Numbers.weighted over the faces' weights,
    in selection and in playouts): every figure and the tree after the search."""
    obj = Pig(target, die, horizon)

    def make() -> OnDemandTree:
        return pig_tree(obj, plies, random.Random(seed), limit=depth)

    if core.native() is not None:
        assert make().c_rules() is not None
    both(make, iterations=iterations, seed=seed, playout_depth=playout_depth)


@needs_c
def test_pig_runs_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """mcts on Pig runs in C over its C rules, told that the game has chance nodes; the other
    searches of Pig on demand are still Python's (native_game refuses chance for them)."""
    calls = spied(monkeypatch)
    obj = Pig(10, 6, 8)
    a, t = both(lambda: pig_tree(obj, 0, random.Random(0)), iterations=500, seed=11)
    assert [(c[:3], c[-1]) for c in calls] == [(("pig", (10, 6, 8), (0, 0, 0, 1 << 32)), True)]
    assert a.extra["iterations"] == 500 and t.loose_paths
    assert t.chance is not None and pig_tree(obj, 0, random.Random(0)).native_game() is None


@pytest.mark.parametrize("most", [1, 3, 8, 30, 200])
def test_the_visit_limit_on_pig(most: int) -> None:
    """--max-nodes on Pig: the same error at the same place in both cores, or the same
    result."""

    def outcome_or_error(pure: bool) -> Any:
        t = pig_tree(Pig(), 0, random.Random(0), max_nodes=most)
        try:
            if pure:
                with core.pure():
                    return outcome(run(t, iterations=80, seed=4))
            return outcome(run(t, iterations=80, seed=4))
        except NodeLimit as e:
            return str(e)

    assert outcome_or_error(False) == outcome_or_error(True)


def test_pig_on_the_command_line_in_both_cores() -> None:
    """`eval game:pig -a mcts` with --depth and --playout-depth: the same JSON (but the
    seconds) in both cores."""
    runner = CliRunner()
    argv = ["eval", "game:pig:target=20,horizon=30", "-a", "mcts", "--iterations", "400"]
    argv += ["--seed", "3", "--depth", "12", "--playout-depth", "5", "--format", "json"]

    def said() -> dict[str, Any]:
        r = runner.invoke(cli, argv)
        assert r.exit_code == 0, r.output
        found: dict[str, Any] = json.loads(r.output.splitlines()[0])
        return {k: v for k, v in found.items() if "seconds" not in k}

    c = said()
    with core.pure():
        assert said() == c


@pytest.mark.parametrize("name", ["expectiminimax", "star2", "mcts"])
def test_pig_searched_again_after_mcts_in_c(name: str) -> None:
    """The tree mcts in C numbered on Pig (each node's decision nodes above it among what it
    takes) searched again, on demand: the same as after the pure mcts."""
    obj = Pig(4, 3, 4)

    def make() -> OnDemandTree:
        t = pig_tree(obj, 0, random.Random(0))
        run(t, iterations=150, seed=8)
        return t

    found = []
    for context in (contextlib.nullcontext, core.pure):
        with context():
            t = make()
            params: dict[str, Any] = {"iterations": 50, "seed": 1} if name == "mcts" else {}
            if name != "expectiminimax":
                params["leaf_bounds"] = (-1, 1)
            r = search(t, name, leaf_order=True, **params)
        found.append((outcome(r), numbered(t)))
    assert found[0] == found[1]
