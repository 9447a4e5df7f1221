"""OpenSpiel's games searched on demand by the compiled core calling their states itself
(search_objects.c): minimax, F1, alpha-beta and expectiminimax give what the Python search gives
(value, PV and its names, the leaves in order, nodes, every count), and where the Python search
words an error (a state's method that raises or answers outside the protocol, a state that
comes back along a line, --max-nodes) the same error, in one line.

The states here are OpenSpiel's in form only: a game drawn as nested lists behind the
adapter's own classes (tests/drawn.py), so that any tree, any fault and any number can be
given, with or without pyspiel installed.  The games of
OpenSpiel itself are compared in tests/test_openspiel.py (test_searched_on_demand_as_counted).
"""

from __future__ import annotations

import contextlib
from array import array
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import compiled, search
from gtsearch.algorithms.base import Stats
from gtsearch.errors import GtsearchError
from gtsearch.numbers import INF
from gtsearch.sources.openspiel import c_states

from .drawn import Spec, State, drawn_comb, opened

needs_core = pytest.mark.skipif(core.native() is None, reason="the pure-Python core runs")


@contextlib.contextmanager
def spied() -> Iterator[list[bool]]:
    """Whether each call of the core's searches over states ran (True) or left the search to
    Python (False)."""
    native = core.native()
    assert native is not None
    calls: list[bool] = []
    saved = native.objects_negamax, native.objects_expectiminimax

    def spy(function: Any) -> Any:
        def call(*args: Any) -> Any:
            done = function(*args)
            calls.append(done is not None)
            return done

        return call

    native.objects_negamax, native.objects_expectiminimax = map(spy, saved)
    try:
        yield calls
    finally:
        native.objects_negamax, native.objects_expectiminimax = saved


def outcome(
    root: Any, chance: bool, algo: str, pure: bool, params: Any, faults: Any, max_nodes: int = 10**6
) -> Any:
    """What a search of the drawn game gives: its result's every figure, or its error's words."""
    with core.pure() if pure else contextlib.nullcontext():
        try:
            tree = opened(root, chance, max_nodes, **faults)
            r = search(tree, algo, leaf_order=True, **params)
        except GtsearchError as e:
            return type(e).__name__, str(e)
        names = [tree.name_at(n) for n in r.pv]
        figures = (r.value, r.exact, r.bound, r.pv, r.pv_labels, names, r.leaves, r.leaf_order)
        return (*figures, r.nodes, r.extra, tree.path_of(r.pv[-1] if r.pv else 0), len(tree.keys))


ALGORITHMS = [
    ("minimax", {}),
    ("f1", {"bound": 1}),
    ("alphabeta", {}),
    ("alphabeta", {"alpha": -1, "beta": 2}),
    ("alphabeta", {"alpha": 0, "beta": 1, "variant": "fail-hard"}),
]


def same_in_both(
    root: Any, chance: bool, algo: str, ran: bool = True, params: Any = None, **faults: Any
) -> Any:
    """The search in C and in Python, the same; that the C one ran (``ran``) or left it to
    Python (fail-hard is Python's alone); the result."""
    params = params or {}
    want = outcome(root, chance, algo, True, params, faults)
    with spied() as calls:
        got = outcome(root, chance, algo, False, params, faults)
    assert got == want
    assert calls == ([] if params.get("variant") else [ran])
    return got


# -- games drawn at random ------------------------------------------------------------------------
def decision(kids: Any) -> Any:
    return st.tuples(st.sampled_from([0, 1]), st.lists(kids, min_size=1, max_size=3)).map(
        lambda t: [t[0], *t[1]]
    )


#: probabilities as OpenSpiel gives them (floats adding up to 1 once read exactly)
ODDS = {1: [(1.0,)], 2: [(0.5, 0.5), (0.25, 0.75)], 3: [(0.2, 0.3, 0.5), (1 / 3,) * 3]}


def chance_node(kids: Any) -> Any:
    return st.lists(kids, min_size=1, max_size=3).flatmap(
        lambda ks: st.sampled_from(ODDS[len(ks)]).map(
            lambda ps: ["c", *([p, k] for p, k in zip(ps, ks, strict=True))]
        )
    )


LEAF = st.integers(-3, 3)
DETERMINISTIC = st.recursive(LEAF, decision, max_leaves=24)
WITH_CHANCE = st.recursive(LEAF, lambda k: st.one_of(decision(k), chance_node(k)), max_leaves=24)


@needs_core
@settings(max_examples=60, deadline=None)
@given(DETERMINISTIC.filter(lambda t: isinstance(t, list)), st.sampled_from(ALGORITHMS))
def test_depth_first_searches_as_python(root: Any, algorithm: tuple[str, dict[str, Any]]) -> None:
    """minimax, F1 and alpha-beta (fail-soft; fail-hard stays Python's) over the states in C:
    what the Python search gives, on games where a player may move twice (a pass between)."""
    algo, params = algorithm
    same_in_both(root, False, algo, params=params)


@needs_core
@settings(max_examples=60, deadline=None)
@given(WITH_CHANCE.filter(lambda t: isinstance(t, list)))
def test_expectiminimax_as_python(root: Any) -> None:
    """expectiminimax over the states in C: the same exact value (an int or a Fraction), PV,
    leaves, nodes and counts, chance at the root or below, players moving twice."""
    same_in_both(root, True, "expectiminimax")


@needs_core
def test_a_pass_and_chance_at_the_root() -> None:
    """A chance root whose outcomes let one player move twice: the forced moves numbered as
    Python numbers them, the value -7/4 exact."""
    root = ["c", [0.25, [0, [1, 1, -1], 2]], [0.75, [1, [1, 0, -3], -2]]]
    got = same_in_both(root, True, "expectiminimax")
    assert got[0] == -1.75 and got[9]["value_exact"] == "-7/4"
    assert "pass" in got[4]


# -- what the C search leaves to Python ---------------------------------------------------------
DRAWN = [0, [1, 3, [0, 2, 5]], [1, 4, -1], [1, [0, 1, 2], 0]]
DICE = ["c", [0.5, [0, 1, [1, 2, 3]]], [0.5, [1, ["c", [0.25, 4], [0.75, -4]], 0]]]


@needs_core
@pytest.mark.parametrize("method", ["is_terminal", "current_player", "legal_actions", "child"])
@pytest.mark.parametrize("how", [ValueError, SystemExit])
def test_a_method_that_raises_is_pythons_one_line(method: str, how: type) -> None:
    """A state's method that raises, at the root or below: the search is Python's, which
    words it in one line naming the method and the place."""
    for where in ((0, 1), (2, 0)):  # states first listed by the search, not as it is opened
        got = same_in_both(DRAWN, False, "alphabeta", ran=False, **{method: where, "how": how})
        assert got[0] == "GameError" and "raised" in got[1] and "\n" not in got[1]


@needs_core
@pytest.mark.parametrize(
    "faults",
    [
        {"returns": (1, 0)},
        {"str": (1, 1)},
        {"chance_outcomes": (1, 0)},
        {"same": True},  # every state's string the same: it comes back along a line
    ],
    ids=["returns", "str", "outcomes", "comes-back"],
)
def test_other_errors_are_pythons(faults: dict[str, Any]) -> None:
    """The value of a leaf, the string that keys a state, a chance state's outcomes, and a
    state met again along a line of play: Python's error, in one line."""
    chance = "chance_outcomes" in faults
    algo = "expectiminimax" if chance else "alphabeta"
    got = same_in_both(DICE if chance else DRAWN, chance, algo, ran=False, **faults)
    assert got[0] == "GameError" and "\n" not in got[1]


@needs_core
@pytest.mark.parametrize(
    "root, chance, algo, faults",
    [
        (DRAWN, False, "minimax", {"tuple_moves": True}),  # moves as a tuple: read by Python
        (DICE, True, "expectiminimax", {"list_pairs": True}),  # outcomes as lists
        ([0, 1.5, [1, 0.25, 2]], True, "expectiminimax", {}),  # leaves that are not integers
        ([0, 1.5, [1, 0.25, 2]], False, "minimax", {}),  # read in C by minimax
        (["c", [Fraction(1, 2), 1], [Fraction(1, 2), 2]], True, "expectiminimax", {}),
        ([0, [1, ["c", [0.5, 1], [0.25, 2]], 0], 0], True, "expectiminimax", {}),  # 3/4 in all
        ([0, 2.0**60, 1], False, "alphabeta", {}),  # a value beyond 2**53
        ([0, float("inf"), 1], False, "alphabeta", {}),
        ([0, 1, [1, [0, [1, 2]]]], False, "alphabeta", {"same": True}),
        (5, False, "alphabeta", {}),  # a leaf at the root
        (DRAWN, False, "alphabeta", {"truth": (0, 1)}),  # is_terminal() neither true nor false
        (DRAWN, False, "alphabeta", {"current_player": (0, 0)}),  # raised at a leaf
        (DRAWN, False, "alphabeta", {"players": (0, "one")}),  # a player that is no int
        ([0, [1, 1, ["c"]], 2], True, "expectiminimax", {}),  # no outcome
        (DRAWN, False, "alphabeta", {"players": (0, 100)}),  # read in C
        (DICE, True, "expectiminimax", {"players": (0, 100)}),
        (DRAWN, False, "alphabeta", {"players": (0, 2**70)}),  # no C long
        ([0, [1, ["c", [0.5, 1], [0.5, 2]], 0], 3], True, "expectiminimax", {"triples": True}),
        (DRAWN, False, "alphabeta", {"returns_as": tuple}),
        (DRAWN, False, "alphabeta", {"returns_as": lambda pair: [int(x) for x in pair]}),
        (DRAWN, False, "alphabeta", {"returns_as": lambda pair: []}),
        (5, True, "expectiminimax", {}),  # a leaf at the root
        (["c", [1, 2], [0, 3]], True, "expectiminimax", {}),  # odds given as ints
        (["c", [1.0, 7]], True, "expectiminimax", {}),  # a chance root over one leaf
    ],
    ids=[
        "tuple-moves",
        "list-pairs",
        "float-leaves",
        "float-leaves-minimax",
        "fractions",
        "three-quarters",
        "huge",
        "infinite",
        "comes-back-deep",
        "leaf-root",
        "undecided",
        "player-raised-at-a-leaf",
        "player-no-int",
        "no-outcome",
        "player-100",
        "player-100-chance",
        "player-2**70",
        "triples",
        "returns-tuple",
        "returns-ints",
        "returns-nothing",
        "leaf-root-chance",
        "int-odds",
        "one-outcome",
    ],
)
def test_what_python_reads_is_pythons(root: Any, chance: bool, algo: str, faults: Any) -> None:
    """What the C search does not read itself (another sequence, a number that is not an
    integer where exact values are summed, odds the protocol refuses, a value outside the
    rules, a lone leaf) goes to the Python search, with the same outcome."""
    ran = (algo == "minimax" and not faults) or root == ["c", [1.0, 7]]
    ran = ran or faults.get("players") == (0, 100) or root == ["c", [1, 2], [0, 3]]
    same_in_both(root, chance, algo, ran=ran, **faults)


def chain(depth: int, odds: tuple[float, ...]) -> Any:
    """A chance node of these odds under each outcome, ``depth`` deep, MAX choosing between it
    and 0 at the top: exact denominators that grow with the depth."""
    node: Any = 1
    for _ in range(depth):
        node = ["c", *([p, node if i == 0 else i % 3 - 1] for i, p in enumerate(odds))]
    return [0, node, 0]


@needs_core
@pytest.mark.parametrize("depth, ran", [(30, True), (45, False)])
def test_exact_values_past_2_62_are_pythons(depth: int, ran: bool) -> None:
    """Denominators of 3**30 are summed in C; of 3**45, beyond 2**62, by Python's Fractions:
    the same value."""
    got = same_in_both(chain(depth, (1 / 3,) * 3), True, "expectiminimax", ran=ran)
    assert Fraction(got[9]["value_exact"]).denominator == 3**depth


def test_odds_past_2_62_are_pythons() -> None:
    """A chance node whose common denominator passes 2**62 (odds as the protocol reads them,
    Fractions): not for the C search (None), which leaves it to Python's Fractions."""
    tree = opened(DICE, True)
    assert tree.game.chance_weights((0.5, 0.25, 0.25)) == ((2, 1, 1), 4)
    tiny = Fraction(1, 2**70)
    assert tree.game.chance_weights((tiny, 1 - tiny)) is None
    with pytest.raises(GtsearchError, match="add up to 3/4"):
        tree.game.chance_weights((0.5, 0.25))


@needs_core
@pytest.mark.parametrize("chance", [False, True])
def test_max_nodes(chance: bool) -> None:
    """More nodes listed than --max-nodes: the tree's own error, as Python says it."""
    root = DICE if chance else DRAWN
    algo = "expectiminimax" if chance else "alphabeta"
    want = outcome(root, chance, algo, True, {}, {}, max_nodes=6)
    got = outcome(root, chance, algo, False, {}, {}, max_nodes=6)
    assert got == want and want[0] == "NodeLimit"


@needs_core
@pytest.mark.parametrize("pure", [True, False])
def test_ctrl_c_in_a_method_is_ctrl_c(pure: bool) -> None:
    """KeyboardInterrupt raised in a state's method stays ^C, in both cores."""
    with core.pure() if pure else contextlib.nullcontext(), pytest.raises(KeyboardInterrupt):
        tree = opened(DRAWN, child=(2,), how=KeyboardInterrupt)
        search(tree, "alphabeta")


@needs_core
def test_the_tree_after_a_search_in_c() -> None:
    """The nodes a C search numbered are the tree's: a second search on it (in C too, the nodes
    already numbered kept) gives the same, and every node's path and name are found again;
    a search in C after one in Python goes on with its numbers."""
    tree = opened(DICE, True)
    with spied() as calls:
        first = search(tree, "expectiminimax", leaf_order=True)
        again = search(tree, "expectiminimax", leaf_order=True)
    assert calls == [True, True]  # the second goes on with the nodes numbered
    assert (first.value, first.pv, first.leaf_order, first.nodes) == (
        again.value,
        again.pv,
        again.leaf_order,
        again.nodes,
    )
    fresh = opened(DICE, True)
    with core.pure():
        search(fresh, "expectiminimax")
    assert list(tree.up) == list(fresh.up) and list(tree.first) == list(fresh.first)
    assert list(tree.turn_counts) == list(fresh.turn_counts)
    assert [tree.name_at(n) for n in range(len(tree.keys))] == [
        fresh.name_at(n) for n in range(len(fresh.keys))
    ]


@needs_core
@pytest.mark.parametrize("algo", ["alphabeta", "expectiminimax"])
def test_strings_asked_only_where_compared(algo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """pyspiel's own states (keyed 6, :func:`~gtsearch.sources.openspiel.c_states`): a state's
    string is asked only where an entry on the line has its tag and player (a leaf's never),
    with the same result; a state that comes back along a line is still found."""
    import gtsearch.sources.ondemand_c as ondemand_c

    def keyed(game: Any, state: Any) -> Any:  # the drawn states taken for pyspiel's own
        states = c_states(game, state)
        return None if states is None else (states[0], 6 if states[1] else 4)

    monkeypatch.setattr(ondemand_c, "c_states", keyed)
    asked: list[tuple[int, ...]] = []
    plain = State.__str__
    monkeypatch.setattr(State, "__str__", lambda self: asked.append(self.path) or plain(self))
    got = same_in_both(DRAWN, False, algo)
    tree = opened(DRAWN)  # the root and its children asked by the tree as it opens
    asked.clear()
    if algo == "alphabeta":  # the search alone (the PV's names ask their states again)
        done = compiled.negamax_on_objects(tree, Stats(), -INF, INF, True, True, False)
    else:
        done = compiled.expectiminimax_on_objects(tree, Stats())
    assert done is not None and asked
    assert all(State(Spec(DRAWN, False), p).inner() for p in asked)
    same_in_both([0, 1, [1, [0, [1, 2]]]], False, algo, ran=False, same=True)
    assert got[0] == 3
    # a player that is neither one of OpenSpiel's nor chance nor the end: is_terminal() asked
    same_in_both(DRAWN, False, algo, players=(0, -2))
    same_in_both([0, [1, [1, 3, 4], 5], 2], False, algo, players=(0, -2), truth=(0, 0), ran=False)


def ladder(depth: int, odds: tuple[float, ...], side: int, last: Any = 1) -> Any:
    """``depth`` chance nodes of these odds, each the next one's first outcome, ``side`` the
    value of the others: values whose exact denominators grow with the depth."""
    node = last
    for _ in range(depth):
        node = ["c", [odds[0], node], *([p, side] for p in odds[1:])]
    return node


@needs_core
@pytest.mark.parametrize(
    "root",
    [
        # 1/3**39 against 2/3: their cross products pass 2**62
        [0, ladder(39, (1 / 3,) * 3, 0), ["c", [1 / 3, 2], [2 / 3, 0]]],
        # 3**39 times 3 passes 2**62 as the sum is divided
        [0, ladder(40, (1 / 3,) * 3, 0), 0],
        # two values near 3, over 3**19 and 5**13: their sum over 3**19 * 5**13 passes it
        ["c", [0.5, ladder(19, (1 / 3,) * 3, 3)], [0.5, ladder(13, (0.2,) * 5, 3)]],
    ],
    ids=["compared", "divided", "summed"],
)
def test_each_exact_step_past_2_62_is_pythons(root: Any) -> None:
    """Each step of the exact arithmetic that passes 2**62 (a comparison, a division by the
    common denominator, a sum) leaves the search to Python's Fractions: the same value."""
    same_in_both(root, True, "expectiminimax", ran=False)


@needs_core
def test_the_cores_arguments() -> None:
    """What only a caller of the core itself can get wrong: a progress that is not an
    array('q'), a root's tag that is not its entry's, chance weights out of range."""
    native = core.native()
    assert native is not None
    tree = opened(DICE, True)
    state, tag, player, keyed, weigh = tree.objects_spec()  # type: ignore[misc]
    args = (state, tag, player, keyed, True, True, 100, None)
    with pytest.raises(TypeError):
        native.objects_expectiminimax(*args, weigh, "progress")
    assert (
        native.objects_expectiminimax(state, 0, player, keyed, True, True, 100, None, weigh, None)
        is None
    )
    assert (
        native.objects_expectiminimax(state, 2, player, keyed, True, True, 100, None, weigh, None)
        is None
    )
    decision = opened(DRAWN).objects_spec()
    assert decision is not None
    assert (
        native.objects_negamax(decision[0], 4, -1, 1, False, True, 100, None, -INF, INF, 1, 1, None)
        is None
    )
    assert native.objects_expectiminimax(*args, lambda probs: None, None) is None

    class Bare:  # a state whose class lacks the adapter's methods: Python's to say
        def is_terminal(self) -> bool:
            return False

    assert (
        native.objects_negamax(Bare(), 0, -1, 4, False, True, 100, None, -INF, INF, 1, 1, None)
        is None
    )
    with pytest.raises(OverflowError):
        native.objects_expectiminimax(*args, lambda probs: ((1, 1), 2**70), None)
    with pytest.raises(OverflowError):
        native.objects_expectiminimax(*args, lambda probs: ((2**70, 1), 2), None)
    # the nodes numbered before: a tuple of four arrays('q'), one item a node
    numbered = (array("q", [1, -1, -1]), array("q", [-1, 0, 0]), array("q", [0, 1, 1]))
    for prior, error in (
        ("nodes", TypeError),
        ((*numbered, array("q", [0, 1, 1]), 5), TypeError),
        ((array("d", [1.0, -1, -1]), *numbered[1:], array("q", [0, 1, 1])), TypeError),
        ((*numbered[:2], array("q", [0, 1]), array("q", [0, 1, 1])), ValueError),
        ((*numbered, array("q", [0])), ValueError),
    ):
        with pytest.raises(error):
            native.objects_expectiminimax(*args[:-1], prior, weigh, None)


@needs_core
@pytest.mark.parametrize("chance", [False, True])
def test_searches_one_after_another_as_python(chance: bool) -> None:
    """Searches one after another on one tree (eval -a alphabeta,f1, compare): each in C goes
    on with the nodes the ones before numbered (listed nodes keep their numbers, new ones take
    the next), as the Python searches do, with the same figures."""
    root = drawn_comb(12, chance) if chance else DRAWN
    names = ["expectiminimax", "expectiminimax"] if chance else ["alphabeta", "minimax", "f1"]
    results = []
    for pure in (True, False):
        with core.pure() if pure else contextlib.nullcontext():
            tree = opened(root, chance)
            got = [search(tree, name, leaf_order=True) for name in names]
            results.append(
                ([(r.value, r.pv, r.leaf_order, r.nodes, r.extra) for r in got], list(tree.first))
            )
    assert results[0] == results[1]
