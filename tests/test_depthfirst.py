"""What the depth-first searches hand on: their own line, and the work they leave to others.

The values, leaves and counts of minimax, F1 and alpha-beta are checked against references in
test_counts.py and test_algorithms.py.  These tests pin down what those cannot see, because the
result would be the same by another road (each found by mutation testing,
docs/development.md): each search hands over its own principal variation, so that no walk over
the evaluated leaves has to find it again; the compiled core gets the very window and flags of
the search (the Python loop runs only for F2 as printed, fail-hard, which the core lacks); and
plain minimax takes the vectorised numpy pass exactly for the flat trees it was made for.  F1's
bound and alpha-beta's line are checked here by name: the invariants elsewhere take any bound
that is not "lower" for an upper one, and a line found again from the leaves for the search's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import Stats, compiled, depthfirst, pv, vector
from gtsearch.formats import loads_tree
from gtsearch.numbers import INF
from gtsearch.sources.randomtree import LazyTree, RandomSpec
from gtsearch.tree import Tree

from .strategies import minimax, trees


def random_trees(count: int, seed: int) -> list[Tree]:
    rng = random.Random(seed)

    def node(depth: int) -> Any:
        if depth == 0 or rng.random() < 0.2:
            return rng.randint(-3, 3)
        return [node(depth - 1) for _ in range(rng.randint(1, 4))]

    trees = []
    for _ in range(count):
        nested = [node(rng.randint(1, 4)) for _ in range(rng.randint(1, 4))]
        root = rng.choice(["max", "min"])
        trees.append(loads_tree(f'{{"tree": {nested}, "root": "{root}"}}', "json"))
    return trees


TREES = random_trees(60, seed=28)
#: (search, keyword arguments): every form, with windows and bounds inside and outside
SEARCHES: list[tuple[Any, dict[str, Any]]] = [
    (depthfirst.minimax, {}),
    (depthfirst.f1, {}),
    (depthfirst.f1, {"bound": 0}),
    (depthfirst.alphabeta, {}),
    (depthfirst.alphabeta, {"alpha": -1, "beta": 1}),
    (depthfirst.alphabeta, {"variant": "fail-hard"}),
    (depthfirst.alphabeta, {"alpha": -1, "beta": 1, "variant": "fail-hard"}),
    (depthfirst.alphabeta, {"alpha": 2, "variant": "fail-hard"}),
    (depthfirst.alphabeta, {"beta": -2, "variant": "fail-hard"}),
]


@pytest.mark.parametrize("tree", TREES)
def test_each_search_hands_over_its_own_line(tree: Tree) -> None:
    """outcome.pv is a line from the root down to an evaluated leaf, never None: the search
    found it on its way (the PV walk over the leaves is for the searches that cannot)."""
    for fn, kwargs in SEARCHES:
        stats = Stats()
        outcome = fn(tree, stats, **kwargs)
        line = outcome.pv
        assert line is not None and line[0] == 0, (fn.__name__, kwargs)
        for parent, child in zip(line, line[1:], strict=False):
            assert parent < child < tree.end[parent], (fn.__name__, kwargs, line)
        assert tree.end[line[-1]] == line[-1] + 1 and line[-1] in stats.leaves


def test_a_lone_leaf_is_its_own_line() -> None:
    for root in ("max", "min"):
        tree = loads_tree(f'{{"tree": 7, "root": "{root}"}}', "json")
        assert depthfirst.minimax(tree, Stats()).value == 7
        for fn, kwargs in SEARCHES:
            stats = Stats()
            outcome = fn(tree, stats, **kwargs)
            assert (outcome.pv, list(stats.leaves), stats.nodes) == ([0], [0], 1)


@pytest.mark.parametrize(
    "tree",
    [t for t in TREES[:12] if t.root_max][:1] + [t for t in TREES[:12] if not t.root_max][:1],
)
def test_the_compiled_core_gets_the_window_and_flags(
    monkeypatch: pytest.MonkeyPatch, tree: Tree
) -> None:
    """compiled.negamax is asked with the search's own tree, stats, window and flags (and not
    for fail-hard); when it declines (None, as under the pure core), Python searches."""
    calls: list[tuple[Any, ...]] = []

    def declining(*args: Any) -> None:
        calls.append(args)

    monkeypatch.setattr(compiled, "negamax", declining)
    # the window in the terms of the player at the root (MIN: negated and swapped)
    sign = 1 if tree.root_max else -1
    window = (-1, 3) if tree.root_max else (-3, 1)
    expected = [
        (depthfirst.minimax, {}, (-INF, INF, False, False)),
        (depthfirst.f1, {"bound": 2}, (-INF, sign * 2, False, True)),
        (depthfirst.alphabeta, {"alpha": -1, "beta": 3}, (*window, True, True)),
        (depthfirst.alphabeta, {"variant": "fail-hard"}, None),
    ]
    for fn, kwargs, asked in expected:
        stats = Stats()
        calls.clear()
        fn(tree, stats, **kwargs)
        if asked is None:
            assert calls == []
            continue
        assert len(calls) == 1 and calls[0][0] is tree and calls[0][1] is stats
        assert calls[0][2:] == asked, (fn.__name__, calls[0][2:])


def test_minimax_takes_the_numpy_pass_where_it_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    """From VECTOR_MIN_NODES nodes on, a tree in arrays that the compiled core does not take
    and that is less than MAX_LEVELS deep goes to vector.minimax_levels(tree, stats)."""
    calls: list[tuple[Any, ...]] = []
    real = vector.minimax_levels

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(vector, "minimax_levels", spy)
    asked: list[Tree] = []
    monkeypatch.setattr(compiled, "takes", asked.append)  # None: the core takes no tree
    tree = TREES[1]
    size = len(tree.end)

    def taken(min_nodes: int, subject: Tree = tree) -> bool:
        monkeypatch.setattr(depthfirst, "VECTOR_MIN_NODES", min_nodes)
        calls.clear()
        stats = Stats()
        outcome = depthfirst.minimax(subject, stats)
        if calls:
            assert calls == [(subject, stats)] and asked[-1] is subject
        assert outcome.value == real(subject, Stats()).value if calls else True
        return bool(calls)

    assert taken(size) and not taken(size + 1)
    # a source computed on demand is searched node by node, and so is a chain deeper than
    # MAX_LEVELS
    assert not taken(0, LazyTree(RandomSpec(2, 3, seed=1)))
    monkeypatch.setattr(vector, "MAX_LEVELS", tree.max_depth())
    assert not taken(0)
    monkeypatch.setattr(vector, "MAX_LEVELS", tree.max_depth() + 1)
    assert taken(0)
    # and the compiled core, where it takes the tree, comes first
    monkeypatch.setattr(compiled, "takes", lambda tree: object())
    monkeypatch.setattr(compiled, "negamax", lambda *args: None)
    assert not taken(0)


@settings(max_examples=200, deadline=None)
@given(trees, st.booleans(), st.integers(-22, 22).map(float) | st.sampled_from([0.5, -1.25]))
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], False, 3.0)
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True, 3.0)
def test_f1_names_its_bound(nested: Any, root_max: bool, bound: float) -> None:
    """F1(bound) in MAX's terms against the minimax oracle: exact on the far side of the bound,
    else "lower" (a MAX root, value in [bound, true]) or "upper" (a MIN root, in [true, bound])."""
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    outcome = depthfirst.f1(tree, Stats(), bound=bound)
    if (true < bound) if root_max else (true > bound):
        assert (outcome.value, outcome.bound) == (true, None)
    elif root_max:
        assert outcome.bound == "lower" and bound <= outcome.value <= true
    else:
        assert outcome.bound == "upper" and true <= outcome.value <= bound


@pytest.mark.parametrize("tree", TREES[:20])
def test_only_fail_hard_bounds_find_their_line_again(
    monkeypatch: pytest.MonkeyPatch, tree: Tree
) -> None:
    """Fail-soft alpha-beta hands over its own line, bound or not; fail-hard finds the line again
    from the leaves (pv.principal_variation) only when its value is alpha or beta itself."""
    calls: list[Any] = []
    real = pv.principal_variation

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(pv, "principal_variation", spy)
    for variant in (None, "fail-hard"):
        for window in ({}, {"alpha": -1, "beta": 1}, {"alpha": 2}, {"beta": -2}):
            calls.clear()
            outcome = depthfirst.alphabeta(tree, Stats(), variant=variant, **window)
            again = variant == "fail-hard" and outcome.bound is not None
            assert len(calls) == again, (variant, window, outcome)
