"""Gambit .efg against Gambit itself: pygambit reads what gtsearch writes, gtsearch reads what it writes.

pygambit is the Python package of Gambit (the extra ``gambit``: ``pip install
-e '.[gambit]'``; .ci/run installs it).  Without it these tests are skipped,
with the reason.  Values are compared with the value of backward induction
computed here over pygambit's own tree, exactly (fractions).
"""

from __future__ import annotations

import importlib
import io
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import search
from gtsearch.errors import TreeFormatError
from gtsearch.formats import dump_tree, efg, load_tree, loads_tree
from gtsearch.tree import Meta, Tree

from .conftest import load_script, need_extra
from .strategies import named_trees
from .test_chance import chance_trees

pytestmark = pytest.mark.extra("gambit")
need_extra("gambit")  # the whole module: its module-level names read pygambit
gbt: Any = importlib.import_module("pygambit")

ROOT = Path(__file__).resolve().parent.parent
#: the one-line refusals of docs/formats.md, one of which every game gtsearch cannot read gets
REFUSALS = (
    "gtsearch reads two-player games",
    "gtsearch reads games of perfect information only",
    "gtsearch reads zero-sum games",
)


def gambit_value(game: Any) -> Fraction:
    """Backward induction over pygambit's tree: max for player 1, min for player 2, the
    expectation at chance nodes (exact).

    Outcomes on decision nodes add to everything below them, as in Gambit.
    """
    first = list(game.players)[0]

    def payoff(node: Any) -> Fraction:
        outcome = node.outcome  # a proxy, false when the node has no outcome
        return Fraction(str(outcome[first])) if outcome else Fraction(0)

    values: dict[Any, Fraction] = {}
    stack = [(game.root, False)]
    while stack:  # post-order without recursion
        node, done = stack.pop()
        if node.is_terminal:
            values[node] = payoff(node)
        elif not done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children)
        else:
            kids = [values[child] for child in node.children]
            if node.player.is_chance:
                probs = [Fraction(str(a.prob)) for a in node.infoset.actions]
                best = sum((p * v for p, v in zip(probs, kids, strict=True)), Fraction(0))
            else:
                best = max(kids) if node.player == first else min(kids)
            values[node] = payoff(node) + best
    return values[game.root]


def same(value: int | float, exact: Fraction) -> bool:
    """Whether gtsearch's value is Gambit's exact value (a float: rounded to the nearest)."""
    return value == exact if isinstance(value, int) else value == float(exact)


def terminals(game: Any) -> int:
    return sum(1 for node in game.nodes if node.is_terminal)


def read_in_gambit(text: str) -> Any:
    return gbt.read_efg(io.StringIO(text))


# -- gtsearch writes, Gambit reads -------------------------------------------------------------
names_st = st.sampled_from(["a", "b", "take 1", "x y", 'q"', "é", None, None, None])


def action_paths(game: Any) -> list[tuple[str, ...]]:
    """Each terminal of a Gambit game, in preorder, as the labels of the actions leading to it
    (an empty label, which Gambit numbers _1, _2, ..., as "")."""
    out: list[tuple[str, ...]] = []
    stack: list[tuple[Any, tuple[str, ...]]] = [(game.root, ())]
    while stack:
        node, path = stack.pop()
        if node.is_terminal:
            out.append(path)
            continue
        kids = [
            (c, (*path, "" if re.fullmatch("_[0-9]+", a.label) else a.label))
            for c, a in zip(node.children, node.infoset.actions, strict=True)
        ]
        stack.extend(reversed(kids))
    return out


def name_paths(t: Tree, drop: str | None = None) -> list[tuple[str, ...]]:
    """Each leaf of a tree, in preorder, as the names below the root leading to it ("" for none;
    ``drop``: a name left out, the forced moves the .efg reader puts in)."""
    out = []
    for n in range(len(t)):
        if t.is_leaf(n):
            path, m = [], 0
            for i in t.path_of(n):
                m = t.child(m, i)
                path.append(t.names.get(m, ""))
            out.append(tuple(x for x in path if x != drop))
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(named_trees(names_st, st.builds(Meta, title=st.sampled_from([None, "game"]))))
def test_gambit_reads_what_gtsearch_writes(t: Tree) -> None:
    text = dump_tree(t, "efg")
    game = read_in_gambit(text)
    assert terminals(game) == t.n_leaves
    assert same(search(t, "minimax").value, gambit_value(game))
    labels = [o.label for o in game.outcomes]
    assert len(labels) == len(set(labels)) and all(labels)
    # one outcome per value as written (3 and 3.0 are two)
    assert len(labels) == len({repr(t.number(n)) for n in range(len(t)) if t.is_leaf(n)})
    for node in game.nodes:  # one information set per decision node, the player by the level
        if not node.is_terminal:
            assert len(list(node.infoset.members)) == 1
    if len(t) > 1:
        assert (game.root.player.label == "MAX") == t.root_max
    # every name is the label of the action leading to its node (Gambit labels as written:
    # only names that Gambit cannot hold, such as "é" and 'q"', become empty labels) ...
    labels = [tuple(efg.gambit_label(x or None) for x in path) for path in name_paths(t)]
    assert action_paths(game) == labels
    # ... and reads back as written
    again = loads_tree(text, "efg", "again.efg")
    assert name_paths(again) == labels


def test_gambit_reads_a_large_tree_with_one_outcome_per_value() -> None:
    from gtsearch.sources.uniform import uniform_tree

    t = uniform_tree(4, 7, seed=3)  # 21,845 nodes, leaves in -100..100
    game = read_in_gambit(dump_tree(t, "efg"))
    assert terminals(game) == 4**7
    assert gambit_value(game) == search(t, "alphabeta").value
    distinct = {t.number(n) for n in range(len(t)) if t.is_leaf(n)}
    assert len(list(game.outcomes)) == len(distinct) <= 201


# -- Gambit writes, gtsearch reads -------------------------------------------------------------
def random_game(seed: int, chance: bool = False) -> Any:
    """A random two-player zero-sum game of perfect information, built with pygambit.

    Any player may move at any node (twice in a row too); outcomes sit on
    terminals and on decision nodes, some terminals have none; payoffs are
    integers, fractions and decimals.  With ``chance``, some moves are chance
    moves with random rational probabilities (zero ones included), and the
    payoffs are integers and decimals only: gtsearch's values are floats, which
    hold decimals as the decimals they print as but no 1/3, so that its exact
    expectation is Gambit's.
    """
    rnd = random.Random(seed)
    game = gbt.Game.new_tree(players=["Max", "Min"], title=f"random game {seed}")
    players = list(game.players)
    kinds = [0, 3, -2, gbt.Rational(1, 3), gbt.Rational(-5, 4), gbt.Decimal("2.5")]
    if chance:
        kinds = [0, 3, -2, gbt.Decimal("0.1"), gbt.Decimal("-1.25"), gbt.Decimal("2.5")]
    outcomes = []
    for k, p in enumerate(kinds):
        minus = -p if not isinstance(p, gbt.Rational) else gbt.Rational(-p.numerator, p.denominator)
        outcomes.append(game.add_outcome(f"o{k}", [p, minus]))
    todo = [(game.root, 0)]
    while todo:
        node, depth = todo.pop()
        if depth < 5 and (depth == 0 or rnd.random() < 0.7):
            k = rnd.randint(1, 3)
            if chance and rnd.random() < 0.35:
                game.append_move(node, game.players.chance, [f"r{i}" for i in range(k)])
                weights = [rnd.randint(0, 3) for _ in range(k)]
                weights[rnd.randrange(k)] += 1  # a positive total
                total = sum(weights)
                game.set_chance_probs(node.infoset, [gbt.Rational(w, total) for w in weights])
            else:
                game.append_move(node, rnd.choice(players), [f"m{i}" for i in range(k)])
            todo.extend((child, depth + 1) for child in node.children)
            if rnd.random() < 0.3:
                game.set_outcome(node, rnd.choice(outcomes))
        elif rnd.random() < 0.8:
            game.set_outcome(node, rnd.choice(outcomes))
    return game


@pytest.mark.parametrize("seed", range(20))
def test_gtsearch_reads_what_gambit_writes_with_chance_moves(seed: int) -> None:
    """Chance moves become chance nodes: expectiminimax, Star1 and Star2 find Gambit's value."""
    game = random_game(1000 + seed, chance=True)
    text = game.to_efg()
    t = loads_tree(text, "efg", f"random-chance-{seed}.efg")
    assert t.n_leaves == terminals(game)
    expected = gambit_value(game)
    for algo in ("expectiminimax", "star1", "star2"):
        r = search(t, algo)
        assert r.exact_value() == expected, (algo, r.value, expected, text)
    assert name_paths(t, drop="pass") == action_paths(game)  # r0, r1, m0, ... as written


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chance_trees(), st.booleans())
def test_gambit_reads_what_gtsearch_writes_with_chance_nodes(nested: Any, root_max: bool) -> None:
    t = Tree.from_nested(nested, root_max=root_max)
    game = read_in_gambit(dump_tree(t, "efg"))
    assert terminals(game) == t.n_leaves
    assert gambit_value(game) == search(t, "expectiminimax").exact_value()


@pytest.mark.parametrize("seed", range(40))
def test_gtsearch_reads_what_gambit_writes(seed: int) -> None:
    game = random_game(seed)
    text = game.to_efg()
    t = loads_tree(text, "efg", f"random-{seed}.efg")
    assert t.n_leaves == terminals(game)
    expected = gambit_value(game)
    for algo in ("minimax", "alphabeta", "sss", "negascout", "mtdf"):
        got = search(t, algo).value
        assert same(got, expected), (algo, got, expected, text)
    # Gambit's action labels (m0, m1, ... at every node) as written; the forced moves put in
    # where a player moves twice are named "pass"
    assert name_paths(t, drop="pass") == action_paths(game)


def test_the_labels_of_gambit_are_the_pv() -> None:
    """Issue 26's game: actions L, R at the root and l, r at both of player 2's nodes."""
    game = gbt.Game.new_tree(players=["Max", "Min"], title="L, R then l, r")
    first, second = list(game.players)
    game.append_move(game.root, first, ["L", "R"])
    for node in game.root.children:
        game.append_move(node, second, ["l", "r"])
    terminal = [n for n in game.nodes if n.is_terminal]
    for k, (node, v) in enumerate(zip(terminal, [3, 5, 1, 7], strict=True)):
        game.set_outcome(node, game.add_outcome(f"o{k}", [v, -v]))
    t = loads_tree(game.to_efg(), "efg", "lr.efg")
    r = search(t, "alphabeta")
    assert r.value == gambit_value(game) == 3
    assert r.pv_labels == ("L", "l")
    assert name_paths(t) == action_paths(game) == [("L", "l"), ("L", "r"), ("R", "l"), ("R", "r")]


def test_the_sample_is_what_gambit_writes(capsys: pytest.CaptureFixture[str]) -> None:
    """sample_trees/nim-5.efg is Gambit's own output (scripts/gambit_nim.py), read by gtsearch."""
    script = load_script("gambit_nim")
    assert script.main([]) == 0
    written = capsys.readouterr().out
    path = ROOT / "sample_trees" / "nim-5.efg"
    assert path.read_text(encoding="utf-8") == written
    t = load_tree(str(path))
    game = read_in_gambit(written)
    assert t.n_leaves == terminals(game) == 8
    assert search(t, "alphabeta").value == gambit_value(game) == 1
    assert t.names[0] == "5 stones" and len(t.names) == len(t)


# -- Gambit's own catalogue of games ------------------------------------------------------------
CATALOG = sorted(Path(gbt.__file__).parent.glob("catalog_data/**/*.efg"))


@pytest.mark.skipif(not CATALOG, reason="this pygambit has no catalogue of games")
@pytest.mark.parametrize("path", CATALOG, ids=lambda p: p.stem)
def test_every_catalogue_game_loads_or_is_refused_in_one_line(path: Path) -> None:
    game = gbt.read_efg(str(path))
    try:
        t = load_tree(str(path))
    except TreeFormatError as e:
        message = str(e)
        assert "\n" not in message and message.startswith(f"{path}:")
        assert any(reason in message for reason in REFUSALS), message
        players = len(list(game.players))
        perfect = all(len(list(i.members)) == 1 for i in game.infosets)
        assert players != 2 or not perfect or "zero-sum" in message
        return
    assert t.n_leaves == terminals(game)
    if t.has_chance:
        assert search(t, "expectiminimax").exact_value() == gambit_value(game)
    else:
        assert same(search(t, "minimax").value, gambit_value(game))


def test_a_poker_game_is_refused_for_its_hidden_card() -> None:
    """Myerson's poker (the catalogue's figure 2.1) deals a card only player 1 sees: its chance
    node is read, but player 2's information set holds two nodes (imperfect information)."""
    poker = [p for p in CATALOG if p.parts[-2:] == ("myerson1991", "fig2_1.efg")]
    if not poker:
        pytest.skip("the catalogue has no Myerson (1991) figure 2.1")
    with pytest.raises(TreeFormatError, match="perfect information only"):
        load_tree(str(poker[0]))
