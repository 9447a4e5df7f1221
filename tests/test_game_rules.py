"""The built-in games' rules in C (gtsearch/_native/game.h, game_*.c) against the Python games.

The Python game is the reference, and the C rules describe gtsearch's tree of it
(gtsearch.sources.games.GameTree: forced passes, chance nodes): from random positions of
every game, reached by random lines of play from the start with random parameters in range,
each node of an OnDemandTree (the Python tree) and the core's ``game_step`` of its words must
give the same kind, the same moves in the same order, the same children (their words), the
same weights and the same utility or estimate, as exactly equal floats.  ``game_perft``
counts the leaves to a depth as gtsearch.sources.gamerules.perft does over the Python rules
(Othello 8x8: 4, 12, 56, 244, 1,396, 8,200, 55,092, 390,216).  Skipped without the C core,
but the Python perft's own tests.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.sources import gamerules
from gtsearch.sources.builtin_games import GAMES, find_game
from gtsearch.sources.gamerules import PASS_CODE, Rules, rules_of
from gtsearch.sources.games import GameTree
from gtsearch.sources.gamespec import game_of
from gtsearch.sources.gameviews import CHANCE_NODE, FORCED
from gtsearch.sources.library.othello import Othello
from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.protocol import Game

native: Any = core.native()
needs_c = pytest.mark.skipif(native is None, reason="needs the C core")

END, MAX, MIN, CHANCE = 0, 1, 2, 3
#: Othello 8x8's perft(d), d = 1..8 (the leaves d plies from the start)
OTHELLO_PERFT = (4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216)

#: each game's parameters, drawn in their ranges (small enough that a line of play is short)
PARAMS: dict[str, Any] = {
    "tictactoe": st.just({}),
    "nim": st.fixed_dictionaries(
        {"heap": st.integers(0, 60), "take": st.integers(1, 140), "misere": st.booleans()}
    ),
    "connect4": st.fixed_dictionaries(
        {"rows": st.integers(1, 7), "columns": st.integers(1, 8), "k": st.integers(1, 6)}
    ).filter(lambda p: (p["rows"] + 1) * p["columns"] <= 64),
    "pig": st.fixed_dictionaries(
        {"target": st.integers(1, 40), "die": st.integers(2, 12), "horizon": st.integers(1, 40)}
    ),
    "dotsandboxes": st.fixed_dictionaries(
        {"rows": st.integers(1, 4), "columns": st.integers(1, 4)}
    ),
    "othello": st.fixed_dictionaries(
        {"rows": st.sampled_from([2, 4, 6, 8]), "columns": st.sampled_from([2, 4, 6, 8])}
    ),
    "hexapawn": st.fixed_dictionaries({"rows": st.integers(3, 8), "columns": st.integers(1, 8)}),
}


def spec(name: str, params: dict[str, Any]) -> str:
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items()) if params else name


def opened(name: str, params: dict[str, Any]) -> tuple[Game, Rules, OnDemandTree]:
    """The game, its C rules and its tree as Python searches it on demand."""
    game = game_of(spec(name, params))
    rules = rules_of(game)
    assert rules is not None and rules.name == name
    return game, rules, OnDemandTree(game, source=name, max_nodes=10**9)


def python_step(tree: OnDemandTree, n: int) -> tuple[Any, ...]:
    """Node n of the Python tree as game_step answers for the C words: (kind, moves, children's
    words, weights, value)."""
    obj = tree.game.obj
    node = tree.expand(n)
    if not node.kids:
        kind = END
    elif node.kind == CHANCE_NODE:
        kind = CHANCE
    else:
        kind = MAX if tree.is_max(n) else MIN
    moves = [gamerules.move_code(obj, node.state, m) for m in node.moves]
    kids = [gamerules.entry_words(obj, k, tree.general) for k in node.kids]
    weights = list(node.weights) if kind == CHANCE else None
    value = tree.raw_value(n)
    return kind, moves, kids, weights, None if value != value else float(value)


def check_node(tree: OnDemandTree, rules: Rules, n: int) -> None:
    """Node n the same in C and in Python, and its words, state and moves converted back."""
    obj = tree.game.obj
    key = tree.keys[n]
    words = gamerules.entry_words(obj, key, tree.general)
    c_step = native.game_step(rules.name, rules.params, words)
    py_step = python_step(tree, n)
    assert c_step[:4] == py_step[:4], (key, words)
    value = c_step[4]
    assert value == py_step[4] and (
        value is None or math.copysign(1, value) == math.copysign(1, py_step[4])
    ), (key, value, py_step[4])
    state, forced = gamerules.state_of(obj, words)
    assert forced == (tree.general and key[0] == FORCED)
    assert gamerules.words(obj, state, forced) == words
    node = tree.expand(n)
    for move, code in zip(node.moves, c_step[1], strict=True):
        assert gamerules.move_of(obj, node.state, code) == move


def walk(name: str, params: dict[str, Any], seed: int, steps: int = 120) -> int:
    """A random line of play from the start: every node on it, and its children, checked; how
    many nodes were."""
    _, rules, tree = opened(name, params)
    initial = native.game_initial(rules.name, rules.params)
    assert initial == gamerules.entry_words(tree.game.obj, tree.keys[0], tree.general)
    rng = random.Random(seed)
    n, checked = 0, 0
    for _ in range(steps):
        check_node(tree, rules, n)
        kids = tree.open(n)
        for kid in kids:
            check_node(tree, rules, kid)
        checked += 1 + len(kids)
        if not kids:
            break
        n = rng.choice(kids)
    return checked


@needs_c
@pytest.mark.parametrize("name", [g.name for g in GAMES])
@settings(max_examples=12, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_c_rules_are_the_python_rules(name: str, data: st.DataObject, seed: int) -> None:
    params = data.draw(PARAMS[name])
    assert walk(name, params, seed) > 0


@needs_c
@pytest.mark.parametrize(
    "name, params",
    [
        ("othello", {"rows": 8, "columns": 8}),
        ("othello", {"rows": 4, "columns": 4}),
        ("connect4", {}),
        ("connect4", {"rows": 7, "columns": 8, "k": 1}),
        ("hexapawn", {"rows": 8, "columns": 8}),
        ("pig", {"target": 30, "die": 100, "horizon": 60}),
        ("dotsandboxes", {"rows": 4, "columns": 4}),
        ("nim", {"heap": 300, "take": 128, "misere": True}),
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_the_largest_boards(name: str, params: dict[str, Any], seed: int) -> None:
    """The boards of most squares, lines and moves each representation holds."""
    assert walk(name, params, seed, steps=400) > 0


def test_othello_perft_in_python() -> None:
    """The Python rules' perft(1..5) on 8x8 (gtsearch.sources.gamerules.perft)."""
    obj = Othello(8, 8)
    assert [gamerules.perft(obj, d) for d in range(1, 6)] == list(OTHELLO_PERFT[:5])


@needs_c
def test_othello_perft_in_c() -> None:
    words = native.game_initial("othello", (8, 8))
    assert [native.game_perft("othello", (8, 8), words, d) for d in range(1, 9)] == list(
        OTHELLO_PERFT
    )
    assert native.game_perft("othello", (8, 8), words, 0) == 1


@needs_c
@pytest.mark.parametrize("name", [g.name for g in GAMES])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_perft_is_the_python_trees_leaves(name: str, data: st.DataObject) -> None:
    """game_perft counts what the Python rules' perft counts (passes and chance outcomes are
    plies, a game over above the depth is a leaf), and what the Python tree has there: at
    each depth from 0 while there are at most a few thousand leaves."""
    params = data.draw(PARAMS[name])
    game, rules, tree = opened(name, params)
    words = native.game_initial(rules.name, rules.params)
    level, above = [0], 0  # the tree's nodes at the depth, and its leaves above
    for depth in range(8):
        leaves = native.game_perft(rules.name, rules.params, words, depth)
        assert leaves == gamerules.perft(game.obj, depth) == above + len(level)
        if leaves > 2_000 or not level:
            break
        below = []
        for n in level:
            kids = tree.open(n)
            above += not kids
            below.extend(kids)
        level = below


@needs_c
@pytest.mark.parametrize(
    "source, depth",
    [
        pytest.param("othello:rows=4,columns=4", 20, marks=pytest.mark.slow),
        ("othello:rows=2,columns=4", 20),
        ("othello:rows=4,columns=2", 20),
        ("pig", 40),
        ("pig:target=4,die=3,horizon=9", 40),
        ("dotsandboxes:rows=1,columns=2", 20),
        ("hexapawn", 20),
        ("hexapawn:rows=4,columns=3", 40),
        ("nim:heap=12,misere=true", 20),
        ("connect4:rows=3,columns=4,k=3", 20),
        ("tictactoe", 9),
    ],
)
def test_perft_to_the_end_is_the_counted_trees_leaves(source: str, depth: int) -> None:
    """Deeper than the game lasts, perft is every leaf of the whole tree: as GameTree counts
    them from the Python game's distinct states (passes, chance nodes and ends included)."""
    game = game_of(source)
    rules = rules_of(game)
    assert rules is not None
    tree = GameTree(game, source=source, max_nodes=10**9)
    words = native.game_initial(rules.name, rules.params)
    assert native.game_perft(rules.name, rules.params, words, depth) == tree.n_leaves


@needs_c
def test_pig_forced_pass_and_chance() -> None:
    """Pig's roll: a chance node of the die's faces, equally likely; a face other than 1 gives
    the other player's forced pass, a 1 the other player's turn."""
    kind, moves, kids, weights, value = native.game_step(
        "pig", (6, 6, 6), native.game_initial("pig", (6, 6, 6))
    )
    assert (kind, moves, weights, value) == (MAX, [0, 1], None, 0.0)
    rolling = kids[0]
    kind, moves, kids, weights, _ = native.game_step("pig", (6, 6, 6), rolling)
    assert (kind, moves, weights) == (CHANCE, [1, 2, 3, 4, 5, 6], [1] * 6)
    assert native.game_step("pig", (6, 6, 6), kids[0])[:2] == (MIN, [0, 1])
    assert native.game_step("pig", (6, 6, 6), kids[1])[:2] == (MIN, [PASS_CODE])


@needs_c
@pytest.mark.parametrize(
    "name, params",
    [
        ("tictactoe", (1,)),
        ("nim", (10, 3)),
        ("nim", (-1, 3, 0)),
        ("nim", (10, 0, 0)),
        ("nim", (200, 129, 0)),
        ("connect4", (6, 7)),
        ("connect4", (0, 7, 4)),
        ("connect4", (6, 0, 4)),
        ("connect4", (6, 7, 0)),
        ("connect4", (10, 10, 4)),
        ("othello", (8,)),
        ("othello", (1, 8)),
        ("othello", (8, 1)),
        ("othello", (3, 8)),
        ("othello", (8, 3)),
        ("othello", (10, 8)),
        ("hexapawn", (3,)),
        ("hexapawn", (1, 3)),
        ("hexapawn", (3, 0)),
        ("hexapawn", (10, 8)),
        ("pig", (6, 6)),
        ("pig", (0, 6, 6)),
        ("pig", (1 << 41, 6, 6)),
        ("pig", (6, 1, 6)),
        ("pig", (6, 129, 6)),
        ("pig", (6, 6, 0)),
        ("pig", (6, 6, 1 << 33)),
        ("dotsandboxes", (1,)),
        ("dotsandboxes", (0, 2)),
        ("dotsandboxes", (2, 0)),
        ("dotsandboxes", (65, 1)),
        ("dotsandboxes", (1, 65)),
        ("dotsandboxes", (5, 6)),
    ],
)
def test_open_refuses_what_the_representation_cannot_hold(
    name: str, params: tuple[int, ...]
) -> None:
    assert native.game_initial(name, params) is None
    assert native.game_step(name, params, (0, 0, 0, 0)) is None
    assert native.game_perft(name, params, (0, 0, 0, 0), 2) is None


@needs_c
@pytest.mark.parametrize(
    "args, error",
    [
        (("chess", (), (0, 0, 0, 0)), "no game chess in C"),
        ((3, (), (0, 0, 0, 0)), "must be str"),
        (("nim", [10, 3, 0], (0, 0, 0, 0)), "a tuple of at most 4 ints"),
        (("nim", (1, 2, 3, 4, 5), (0, 0, 0, 0)), "a tuple of at most 4 ints"),
        (("nim", (10, 3, 0), [0, 0, 0, 0]), "a tuple of at most 4 ints"),
        (("nim", (10, 3, 0), (0, 0, 0)), "a tuple of at most 4 ints"),
    ],
)
def test_the_entry_points_refuse_what_is_not_their_arguments(
    args: tuple[Any, ...], error: str
) -> None:
    with pytest.raises((ValueError, TypeError), match=error):
        native.game_step(*args)
    with pytest.raises((ValueError, TypeError), match=error):
        native.game_perft(*args, 1)
    if args[0] != "nim":
        with pytest.raises((ValueError, TypeError), match=error):
            native.game_initial(*args[:2])


@needs_c
@pytest.mark.parametrize(
    "params, words",
    [((10, "3", 0), (0, 0, 0, 0)), ((1 << 64, 3, 0), (0, 0, 0, 0)), ((10, 3, 0), (0, -1, 0, 0))],
)
def test_ints_that_do_not_fit(params: tuple[Any, ...], words: tuple[Any, ...]) -> None:
    with pytest.raises((TypeError, OverflowError)):
        native.game_step("nim", params, words)
    with pytest.raises((TypeError, OverflowError)):
        native.game_perft("nim", params, words, 1)


@needs_c
def test_hexapawn_estimates_without_a_pawn_of_one_side() -> None:
    """The estimate reads the furthest pawn of each side as Python's bit_length does (-1
    rows without one): states with the last pawn of one side taken, the other to move."""
    obj = find_game("hexapawn").make(rows=4, columns=3)  # type: ignore[union-attr]
    for state in [(0, 0b010 << 6, False), (0b010 << 3, 0, True), (0b001, 0b100 << 9, True)]:
        words = gamerules.words(obj, state)
        kind, moves, _, _, value = native.game_step("hexapawn", (4, 3), words)
        assert kind == (MAX if state[2] else MIN) and moves
        assert value == obj.estimate(state)


@needs_c
def test_tictactoe_drawn() -> None:
    """A full board without a line: the end, worth 0 (X O X / X O O / O X X)."""
    x = sum(1 << sq for sq in (0, 2, 3, 7, 8))
    o = sum(1 << sq for sq in (1, 4, 5, 6))
    state = x | o << 9 | 1 << 19
    obj = find_game("tictactoe").make()  # type: ignore[union-attr]
    assert obj.moves(state) == () and obj.utility(state) == 0
    assert native.game_step("tictactoe", (), gamerules.words(obj, state)) == (
        END,
        [],
        [],
        None,
        0.0,
    )


@needs_c
def test_dots_and_boxes_of_64_lines() -> None:
    """One row of 21 boxes has 64 lines, the most the words hold."""
    words = native.game_initial("dotsandboxes", (1, 21))
    kind, moves, *_ = native.game_step("dotsandboxes", (1, 21), words)
    assert kind == MAX and moves == list(range(64))
    assert native.game_step("dotsandboxes", (1, 21), (2**64 - 1, 3, 1, 0))[:2] == (END, [])


@needs_c
def test_perft_refuses_a_negative_depth() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        native.game_perft("nim", (3, 3, 0), (3, 1, 0, 0), -1)


@needs_c
def test_a_deep_walk_grows_the_stack() -> None:
    """Nim from 5,000, a counter a move: the walk's stack grows to 5,000 states."""
    assert native.game_perft("nim", (5_000, 1, 0), (5_000, 1, 0, 0), 10_000) == 1


@needs_c
def test_words_of_no_state_stay_within_bounds() -> None:
    """game_step trusts the words, but the moves of any words fit its room (Hexapawn's most:
    three a pawn)."""
    kind, moves, *_ = native.game_step("hexapawn", (8, 8), (2**64 - 1, 0, 1, 0))
    assert kind == END and moves == []
    kind, moves, *_ = native.game_step(
        "hexapawn", (8, 8), (0x00FF00FF00FF00FF, 0xFF00FF00FF00FF00, 1, 0)
    )
    assert kind == MAX and len(moves) <= 3 * 64


def test_rules_of_a_subclass_or_a_wrapped_game_is_none() -> None:
    class Mine(Othello):
        pass

    assert rules_of(Game(Mine(4, 4), "mine")) is None
    assert rules_of(game_of("othello:rows=4,columns=4", "math:floor")) is None


@needs_c
def test_rules_of_every_built_in_game() -> None:
    for found in GAMES:
        game = game_of(found.name)
        assert rules_of(game) == Rules(
            found.name, tuple(int(getattr(game.obj, p.name)) for p in found.params)
        )


@needs_c
def test_a_board_too_big_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    gamerules._said.discard("game:connect4:rows=10,columns=10")
    game = game_of("connect4:rows=10,columns=10")
    assert rules_of(game) is None
    assert rules_of(game) is None
    err = capsys.readouterr().err
    assert err == (
        "note: game:connect4:rows=10,columns=10: too big for the C core's rules of connect4 "
        '(docs/core.md, "Games in C"): the Python rules run\n'
    )
    assert rules_of(game_of("nim:heap=100000000000000000000")) is None


def test_rules_of_in_the_pure_core() -> None:
    with core.pure():
        assert rules_of(game_of("othello")) is None


def test_python_perft_passes_and_chance() -> None:
    """The Python perft counts a forced pass as a ply (Othello 4x4's tree has them) and a
    chance node's outcomes (Pig)."""
    pig = find_game("pig")
    assert pig is not None
    obj = pig.make()
    # roll or stop; the roll's six faces, and MIN's roll or stop after the stop
    assert gamerules.perft(obj, 2) == 8
    assert gamerules.perft(obj, 0) == 1
