"""The game protocol's players and chance (docs/sources.md, "Games"): a game that says who moves
(repeated turns, chance nodes) is searched exactly as the same tree written in Gambit's .efg
format; the alternating protocol is unchanged; a game that breaks the protocol gets one line
that points at its code, exit status 2."""

from __future__ import annotations

import contextlib
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.cli import cli
from gtsearch.errors import GtsearchError
from gtsearch.formats import loads_tree
from gtsearch.sources import open_source, whole
from gtsearch.sources.games import Game, GameTree
from gtsearch.sources.protocol import integer_weights, simplest_fraction

# A tree of the test: a leaf is an int; ("max" | "min", [children]); ("chance", [(w, child)...])
Spec = Any


def _node(kids: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    decision = st.tuples(st.sampled_from(["max", "min"]), st.lists(kids, min_size=1, max_size=3))
    chance = st.tuples(
        st.just("chance"), st.lists(st.tuples(st.integers(0, 3), kids), min_size=1, max_size=3)
    ).filter(lambda node: sum(w for w, _ in node[1]) > 0)
    return decision | chance


specs = st.recursive(st.integers(-9, 9), _node, max_leaves=14)


def at(spec: Spec, path: tuple[int, ...]) -> Spec:
    for i in path:
        spec = spec[1][i][1] if spec[0] == "chance" else spec[1][i]
    return spec


class Annotated:
    """A spec as a game: a state is a path; the spec says who moves."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def initial(self) -> tuple[int, ...]:
        return ()

    def player(self, state: tuple[int, ...]) -> str | None:
        node = at(self.spec, state)
        return None if isinstance(node, int) else str(node[0])

    def moves(self, state: tuple[int, ...]) -> list[int]:
        return list(range(len(at(self.spec, state)[1])))

    def outcomes(self, state: tuple[int, ...]) -> list[tuple[int, Fraction]]:
        pairs = at(self.spec, state)[1]
        total = sum(w for w, _ in pairs)
        return [(i, Fraction(w, total)) for i, (w, _) in enumerate(pairs)]

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return (*state, move)

    def utility(self, state: tuple[int, ...]) -> int:
        return int(at(self.spec, state))

    def label(self, state: tuple[int, ...], move: int) -> str:
        return f"m{move}"


def to_efg(spec: Spec) -> str:
    """The spec as Gambit writes a game: player 1 is MAX, payoffs (v, -v)."""
    lines = ['EFG 2 R "test" { "MAX" "MIN" } ""', ""]
    counter = [0]
    todo = [spec]
    while todo:
        node = todo.pop()
        counter[0] += 1
        n = counter[0]
        if isinstance(node, int):
            lines.append(f't "" {n} "" {{ {node}, {-node} }}')
            continue
        kind, kids = node
        if kind == "chance":
            total = sum(w for w, _ in kids)
            odds = " ".join(f'"m{i}" {w}/{total}' for i, (w, _) in enumerate(kids))
            lines.append(f'c "" {n} "" {{ {odds} }} 0')
            todo.extend(child for _, child in reversed(kids))
        else:
            actions = " ".join(f'"m{i}"' for i in range(len(kids)))
            lines.append(f'p "" {1 if kind == "max" else 2} {n} "" {{ {actions} }} 0')
            todo.extend(reversed(kids))
    return "\n".join(lines) + "\n"


def results(tree: Any, chance: bool) -> list[tuple[Any, ...]]:
    """Every algorithm that fits the tree, searched as it is searched on a file: Star1 and
    Star2 with no table (``tt=0``; on a game they take one by default, docs/algorithms.md)."""
    out = []
    for algo in ALGORITHMS:
        if algo.chance != chance or algo.needs_bound:
            continue
        table = {"tt": 0} if algo.name in ("star1", "star2") else {}
        r = search(tree, algo, leaf_order=True, **table)
        out.append((algo.name, r.value, r.exact, r.pv, r.leaves, r.leaf_order, r.nodes))
    return out


@settings(max_examples=60, deadline=None)
@given(specs)
def test_a_game_with_players_and_chance_is_its_efg_file(spec: Spec) -> None:
    """Who moves, repeated turns and chance: the game's tree is the .efg file's, node for node
    (forced moves where a player moves twice, weights, the root player), and every algorithm
    that fits it gives the same value, leaves and order, under both cores."""
    efg = loads_tree(to_efg(spec), "efg")
    for pure in (True, False):
        with core.pure() if pure else contextlib.nullcontext():
            game = GameTree(Game(Annotated(spec), "game:test"), source="game:test")
            built = whole(game)
            assert list(built.end) == list(efg.end)
            assert list(map(repr, built.values)) == list(map(repr, efg.values))
            assert built.root_max == efg.root_max
            assert (built.chance is None) == (efg.chance is None)
            if efg.chance is not None:
                assert built.chance == efg.chance
                for n in range(len(efg.end)):
                    if efg.chance[n]:
                        assert built.probabilities(n) == efg.probabilities(n)
            assert results(game, efg.has_chance) == results(efg, efg.has_chance)


def test_forced_moves_are_named_pass() -> None:
    """MAX moves twice: MIN's forced move between is named 'pass', the game's names around it."""
    spec = ("max", [("max", [1, 2]), 0])
    tree = whole(GameTree(Game(Annotated(spec), "game:test"), source="game:test"))
    assert [tree.names.get(n) for n in range(len(tree.end))] == [
        None, "m0", "pass", "m0", "m1", "m1"
    ]  # fmt: skip
    assert search(tree, "alphabeta").pv_labels == ("m0", "pass", "m1")


def test_the_alternating_protocol_is_unchanged() -> None:
    """A game without player() alternates, MAX first (or its root): no forced move, no tags."""
    tree = open_source("game:nim:5")
    assert isinstance(tree, GameTree) and not tree.general
    assert all(type(key) is tuple and len(key) == 2 for key in tree.info)  # the states
    assert search(tree, "alphabeta").pv_labels == ("take 1", "take 1", "take 3")


@pytest.mark.parametrize(
    ("x", "q"),
    [
        (1 / 6, Fraction(1, 6)),
        (5 / 6, Fraction(5, 6)),
        (1 - 1 / 6, Fraction(5, 6)),
        (0.1, Fraction(1, 10)),
        (1 / 3, Fraction(1, 3)),
        (0.5, Fraction(1, 2)),
        (1.0, Fraction(1)),
        (0.0, Fraction(0)),
        (1 / 36, Fraction(1, 36)),
        (2 / 7, Fraction(2, 7)),
        (0.75, Fraction(3, 4)),
    ],
)
def test_a_float_probability_is_the_simplest_fraction_that_rounds_to_it(
    x: float, q: Fraction
) -> None:
    assert simplest_fraction(x) == q and float(q) == x


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1, exclude_min=True))
def test_the_simplest_fraction_rounds_back_and_is_no_worse_than_the_float(x: float) -> None:
    """It rounds to x, and no fraction of a smaller denominator does (checked near it)."""
    q = simplest_fraction(x)
    assert float(q) == x and q.denominator <= Fraction(x).denominator
    better = Fraction(x).limit_denominator(q.denominator - 1) if q.denominator > 1 else None
    assert better is None or float(better) != x


def test_probabilities_become_the_least_integer_weights() -> None:
    assert integer_weights([Fraction(1, 6)] * 6) == (1,) * 6
    assert integer_weights([Fraction(1, 3), Fraction(2, 3)]) == (1, 2)
    assert integer_weights([Fraction(0), Fraction(1)]) == (0, 1)
    assert integer_weights([Fraction(1, 2**60), 1 - Fraction(1, 2**60)]) == (2.0**-60, 1.0)


# -- games that break the protocol ---------------------------------------------------------
BROKEN = {
    "odds_not_one": (
        "def outcomes(self, s):\n        return [(1, 0.5), (2, 0.25)]",
        "outcomes() gave probabilities that add up to 3/4, not 1: 1/2, 1/4 (",
    ),
    "odds_negative": (
        "def outcomes(self, s):\n        return [(1, 1.5), (2, -0.5)]",
        "outcomes() gave the move 2 the probability -0.5: a probability is a number from 0 to 1",
    ),
    "odds_text": (
        "def outcomes(self, s):\n        return [(1, '1/2'), (2, '1/2')]",
        "outcomes() gave the move 1 the probability '1/2'",
    ),
    "not_pairs": (
        "def outcomes(self, s):\n        return [1, 2]",
        "outcomes() must give (move, probability) pairs, got 1",
    ),
    "no_outcome": ("def outcomes(self, s):\n        return []", "outcomes() gave no outcome"),
    "no_outcomes_method": (
        "outcomes = None",
        "said 'chance' but the game has no method outcomes()",
    ),
    "bad_player": (
        "def player(self, s):\n        return 'black'",
        "player() must return 'max', 'min', 'chance' or None, got 'black'",
    ),
    "root_and_player": ("root = 'min'", "root and player() both say who moves first; drop root"),
    "unhashable_state": (
        "def play(self, s, m):\n        return [s, m]",
        "play() gave a state that cannot be a key: states must be hashable (tuples, not lists), "
        "got list",
    ),
    "outcomes_raise": (
        "def outcomes(self, s):\n        return [(1, 1 / 0)]",
        "outcomes() raised ZeroDivisionError: division by zero (",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_games_that_break_the_protocol(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One line naming the method and the file:line of the user's code; exit status 2."""
    method, message = BROKEN[case]
    body = textwrap.dedent(
        """\
        class Game:
            def initial(self):
                return 0
            def player(self, s):
                return "chance" if s == 0 else None
            def outcomes(self, s):
                return [(1, 0.5), (2, 0.5)]
            def moves(self, s):
                return []
            def play(self, s, m):
                return s + m
            def utility(self, s):
                return s
        """
    )
    body += "    " + method + "\n"
    (tmp_path / "broken_odds.py").write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for _ in range(2):
        monkeypatch.delitem(__import__("sys").modules, "broken_odds", raising=False)
        with pytest.raises(GtsearchError) as info:
            search(open_source("game:broken_odds:Game"), "expectiminimax")
        assert message in str(info.value) and "broken_odds.py:" in str(info.value), str(info.value)
    monkeypatch.delitem(__import__("sys").modules, "broken_odds", raising=False)
    r = CliRunner().invoke(cli, ["eval", "game:broken_odds:Game"])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
