"""The teaching traces (gtsearch.trace): the fast algorithms' leaves, order and value; text and JSON."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch import load_tree, search
from gtsearch.algorithms import ALGORITHMS
from gtsearch.algorithms.events import (
    LIVE,
    SOLVED,
    ChanceCutoff,
    Cutoff,
    Enter,
    Leaf,
    Probe,
    Probed,
    Result,
    Return,
    Start,
    Take,
    Window,
)
from gtsearch.algorithms.steps import TRACERS, trace
from gtsearch.errors import UsageError
from gtsearch.numbers import exact
from gtsearch.render.labels import Labels
from gtsearch.render.trace import event_dict, trace_text
from gtsearch.tree import Tree

from .strategies import trees
from .test_chance import WORKED, chance_trees

SAMPLES = Path(__file__).resolve().parent.parent / "sample_trees"
TRACED = [a.name for a in ALGORITHMS if a.name in TRACERS]


def evaluated(events: list) -> list[int]:
    """The leaves a trace evaluates, in order."""
    out = []
    for ev in events:
        if isinstance(ev, Leaf) or isinstance(ev, Take) and ev.case == 2:
            out.append(ev.node)
    return out


def params_for(name: str, a: float, b: float, use: bool) -> dict[str, Any]:
    takes = next(x for x in ALGORITHMS if x.name == name)
    if takes.needs_bound or (takes.takes == "bound" and use):
        return {"bound": a}
    if takes.takes == "window" and use:
        lo, hi = sorted((a, b))
        return {"alpha": lo, "beta": hi} if lo < hi else {"alpha": lo}
    return {}


def check_same_as_fast(tree: Tree, name: str, params: dict[str, Any]) -> list:
    fast = search(tree, name, leaf_order=True, **params)
    events = list(trace(tree, name, open_lists=True, **params))
    assert isinstance(events[0], Start) and isinstance(events[-1], Result)
    leaves = evaluated(events)
    assert [tuple(tree.path_of(n)) for n in leaves] == list(fast.leaf_order or ())
    result = events[-1]
    assert result.value == (fast.exact_value() if "value_exact" in fast.extra else fast.value)
    assert result.bound == fast.bound
    assert result.leaves == fast.leaves
    return events


SPEC_ALGORITHMS = [
    "minimax",
    "f1",
    "alphabeta",
    "sss",
    "sss-bounded",
    "dual",
    "dual-bounded",
    "expectiminimax",
    "star1",
    "star2",
]


def test_every_spec_algorithm_is_traced() -> None:
    # and mcts (a sampling algorithm, not in ALGORITHMS), whose trace follows its iterations
    # (tests/test_mcts_steps.py)
    assert TRACED == SPEC_ALGORITHMS == list(TRACERS)[:-1]
    assert list(TRACERS)[-1] == "mcts"


def test_untraced_algorithms_are_refused_clearly() -> None:
    untraced = [a.name for a in ALGORITHMS if a.name not in TRACERS]
    for name in untraced:
        with pytest.raises(UsageError, match="no step-by-step trace"):
            trace(Tree.from_nested([1, 2]), name)


@settings(max_examples=150, deadline=None)
@given(
    trees,
    st.booleans(),
    st.sampled_from(TRACED),
    st.integers(-12, 12),
    st.integers(-12, 12),
    st.booleans(),
)
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True, "sss", 0, 0, False)
@example(4, False, "dual-bounded", 4, 0, True)
@example([[1, 1], [1, 1]], False, "alphabeta", 1, 2, True)
def test_trace_evaluates_the_fast_leaves_in_order(
    nested: object, root_max: bool, name: str, a: int, b: int, use: bool
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    events = check_same_as_fast(tree, name, params_for(name, a, b, use))
    labels = Labels(tree)
    for step, ev in enumerate(events):  # every step is valid JSON (no NaN, no Infinity)
        json.loads(json.dumps(event_dict(ev, step, labels), allow_nan=False))
    lines = list(trace_text(iter(events), tree, name, "<tree>"))
    assert lines[-1].strip().startswith("result: value")
    if name.startswith(("sss", "dual")):
        check_open_invariants(tree, events)
    else:
        check_depth_first_shape(tree, events)


def check_open_invariants(tree: Tree, events: list) -> None:
    """One state per node in OPEN; live states never nest; OPEN is in taking order."""
    dual = events[0].algorithm.startswith("dual")
    for ev in events:
        if not isinstance(ev, Take):
            continue
        assert ev.open is not None
        nodes = [s.node for s in ev.open]
        assert len(nodes) == len(set(nodes))
        keys = [((s.h if dual else -s.h), s.node) for s in ev.open]
        assert keys == sorted(keys)
        live = sorted(s.node for s in ev.open if s.status == LIVE)
        for x, y in zip(live, live[1:], strict=False):
            assert tree.end[x] <= y, "a live state's node lies below another's"
        assert ev.state.status in (LIVE, SOLVED) and 1 <= ev.case <= 6


def check_depth_first_shape(tree: Tree, events: list) -> None:
    """Enter and Return pair up like brackets; cut children are never entered afterwards."""
    stack: list[int] = []
    skipped: set[int] = set()
    for ev in events:
        if isinstance(ev, Enter):
            assert ev.alpha < ev.beta
            assert ev.node not in skipped
            stack.append(ev.node)
        elif isinstance(ev, Return):
            assert stack.pop() == ev.node
        elif isinstance(ev, Cutoff):
            assert ev.node == stack[-1]
            for c in ev.skipped:
                skipped.update(range(c, tree.end[c]))
        elif isinstance(ev, Leaf):
            assert ev.node not in skipped
    assert not stack


def test_deep_chain_does_not_recurse() -> None:
    nested: object = 7
    for _ in range(20_000):
        nested = [nested]
    tree = Tree.from_nested(nested)
    for name in ("alphabeta", "sss", "dual"):
        events = list(trace(tree, name))
        result = events[-1]
        assert isinstance(result, Result)
        assert result.value == 7 and result.leaves == 1


def test_aima_sss_leaf_order() -> None:
    tree = load_tree(str(SAMPLES / "aima-fig5-2.yaml"))
    events = list(trace(tree, "sss"))
    assert [tree.number(n) for n in evaluated(events)] == [3, 2, 14, 5, 2, 12, 8]
    events = list(trace(tree, "alphabeta"))
    assert [tree.number(n) for n in evaluated(events)] == [3, 12, 8, 2, 14, 5, 2]
    cut = [ev for ev in events if isinstance(ev, Cutoff)]
    assert [(ev.node, ev.side, ev.bound, ev.pruned_leaves) for ev in cut] == [
        (tree.node_at([1]), "alpha", 3, 2)
    ]


def test_errors() -> None:
    tree = Tree.from_nested([[1, 2], [3]])
    with pytest.raises(UsageError, match="needs --bound"):
        trace(tree, "sss-bounded")
    with pytest.raises(UsageError, match="does not apply"):
        trace(tree, "sss", bound=3)
    with pytest.raises(UsageError, match="alpha < beta"):
        trace(tree, "alphabeta", alpha=3, beta=3)
    with pytest.raises(UsageError, match="unknown algorithm"):
        trace(tree, "nope")


# -- chance nodes: Star1 and Star2 step by step -------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(chance_trees(), st.booleans(), st.sampled_from(["expectiminimax", "star1", "star2"]))
@example(WORKED, True, "star2")
def test_chance_traces_read_the_fast_leaves_in_order(
    nested: object, root_max: bool, name: str
) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    events = check_same_as_fast(tree, name, {})
    labels = Labels(tree)
    for step, ev in enumerate(events):
        json.loads(json.dumps(event_dict(ev, step, labels), allow_nan=False))
    lines = list(trace_text(iter(events), tree, name, "<tree>"))
    assert lines[-1].strip().startswith("result: value")
    # Enter/Return and Probe/Probed nest like brackets; a skipped outcome is never entered
    stack: list[int] = []
    skipped: set[int] = set()
    for ev in events:
        if isinstance(ev, (Enter, Probe)):
            assert ev.node not in skipped
            stack.append(ev.node)
        elif isinstance(ev, (Return, Probed)):
            assert stack.pop() == ev.node
        elif isinstance(ev, (Cutoff, ChanceCutoff)):
            assert ev.node == stack[-1]
            for c in ev.skipped:
                skipped.update(range(c, tree.end[c]))
        elif isinstance(ev, Window):
            assert ev.node == stack[-1] and tree.parent[ev.child] == ev.node
            L, U = map(exact, events[0].params["leaf_bounds"])
            assert ev.alpha == max(ev.a, L) and ev.beta == min(ev.b, U)
    assert not stack


def test_the_worked_example_step_by_step() -> None:
    """docs/algorithms.md, "A worked example": Star1's windows and cutoff at C2, Star2's probes."""
    tree = load_tree(str(SAMPLES / "chance-worked.yaml"))
    star1 = list(trace(tree, "star1"))
    windows = [(ev.child, ev.a, ev.b, ev.alpha, ev.beta) for ev in star1 if isinstance(ev, Window)]
    m3, m4 = tree.node_at([1, 0]), tree.node_at([1, 1])
    assert windows[2:] == [
        (m3, Fraction(-29, 3), math.inf, 2, 9),
        (m4, Fraction(43, 9), math.inf, Fraction(43, 9), 9),
    ]
    [cut] = [ev for ev in star1 if isinstance(ev, ChanceCutoff)]
    assert (cut.node, cut.value, cut.side, cut.phase, cut.child) == (
        tree.node_at([1]),
        Fraction(9, 4),
        "alpha",
        "search",
        m4,
    )
    star2 = list(trace(tree, "star2"))
    probes = [(ev.node, ev.side, ev.alpha, ev.beta) for ev in star2 if isinstance(ev, Probe)]
    assert probes == [(m3, "upper", 2, 9), (m4, "upper", Fraction(43, 9), 9)]
    [cut] = [ev for ev in star2 if isinstance(ev, ChanceCutoff)]
    assert (cut.phase, cut.value, cut.skipped) == ("probe", Fraction(9, 4), ())
    text = "\n".join(trace_text(iter(star2), tree, "star2", "t"))
    assert "probed m4 ≤ 2; C2 ∈ [2, 2.25]" in text
    assert "cutoff at C2: the probes give C2 ≤ 2.25 ≤ α = 13/3" in text
