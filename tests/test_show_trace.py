"""``show`` and ``trace`` say the same thing about every node.

``show`` draws what the evaluated leaves prove of each node (docs/algorithms.md,
"Exact values, bounds and the PV"); ``trace`` ends each node with a return line
that says the same range, and the value handed up when the range does not say
it.  On the AIMA tree, D's three leaves are all read: both say ``D = 2`` (the
trace said ``return D ≤ 2``, F2's contract for a value at or below α, while
show drew ``= 2``).  Checked here for every node of many random trees and every
algorithm whose trace returns values node by node (the depth-first ones, and
the chance ones on trees with chance nodes); SSS* and DUAL* speak of states
and merits, not of node values, and have no return lines.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gtsearch import Tree, load_tree
from gtsearch.algorithms.events import Enter, Return
from gtsearch.algorithms.steps import trace
from gtsearch.render.labels import Labels
from gtsearch.render.trace import event_text, return_text
from gtsearch.render.view import build_view

from .test_nodetypes import AIMA


def random_tree(rng: random.Random, chance: bool) -> Tree:
    """A random tree: 1 to 4 children a node, 1 to 4 levels, ties likely; chance levels too."""
    depth = rng.randint(1, 4)

    def node(level: int) -> Any:
        if level == depth or level and rng.random() < 0.15:
            return rng.randint(0, 9)
        kids = [node(level + 1) for _ in range(rng.randint(1, 4))]
        if chance and level % 2 == 1:
            return {"chance": kids, "weights": [rng.randint(0, 3) + 1 for _ in kids]}
        return kids

    return Tree.from_nested(node(0), root_max=rng.random() < 0.7)


def searches(rng: random.Random, chance: bool) -> list[tuple[str, dict[str, Any]]]:
    if chance:
        return [("expectiminimax", {}), ("star1", {}), ("star2", {})]
    alpha = rng.randint(-2, 6)
    window = {"alpha": alpha, "beta": alpha + rng.randint(1, 6)}
    return [
        ("minimax", {}),
        ("f1", {}),
        ("f1", {"bound": rng.randint(0, 9)}),
        ("alphabeta", {}),
        ("alphabeta", window),
        ("alphabeta", {**window, "variant": "fail-hard"}),
        # without a chance node Star1 and Star2 are alpha-beta; their traces too
        ("star1", {}),
    ]


@pytest.mark.parametrize("chance", [False, True])
def test_every_node_the_same_in_show_and_trace(chance: bool) -> None:
    rng = random.Random(f"show-trace/{chance}")
    compared = 0
    for _ in range(150):
        tree = random_tree(rng, chance)
        if chance and not tree.has_chance:
            continue
        labels = Labels(tree)
        for algo, params in searches(rng, chance):
            view = build_view(tree, algo, **params)
            last: dict[int, Return] = {}
            entered: set[int] = set()
            for ev in trace(tree, algo, **params):
                if isinstance(ev, Return):
                    last[ev.node] = ev
                elif isinstance(ev, Enter):
                    entered.add(ev.node)
            assert entered <= set(last), (algo, params, tree.sexp())  # every node entered returns
            for n, ev in last.items():
                if n not in view.ranges:  # nothing read below: show draws it pruned
                    assert not view.searched[n] and ev.lo is None
                    assert return_text(ev).endswith("(no leaf read below it)")
                    continue
                said = (ev.lo, ev.hi)
                assert said == view.ranges[n], (algo, params, tree.sexp(), n)
                # the words too: the trace's line opens with show's range
                text = event_text(ev, labels, algo)
                assert return_text(ev).startswith(view.range_text(n)), (text, view.range_text(n))
                compared += 1
    assert compared > 1000


def test_the_aima_tree_s_d() -> None:
    tree = load_tree(AIMA)
    view = build_view(tree, "alphabeta")
    d = next(n for n, name in tree.names.items() if name == "D")
    (ret,) = [ev for ev in trace(tree, "alphabeta") if isinstance(ev, Return) and ev.node == d]
    assert view.range_text(d) == "= 2"
    assert return_text(ret) == "= 2" and ret.kind == "upper"  # F2's contract: 2 ≤ α = 3
    # fail-hard with (4, 10): A hands up alpha, 4, while its leaves prove 2 ≤ A ≤ 3
    hard = [
        ev
        for ev in trace(tree, "alphabeta", alpha=4, beta=10, variant="fail-hard")
        if isinstance(ev, Return) and ev.node == 0
    ]
    assert [return_text(ev) for ev in hard] == ["∈ [2, 3] (hands up 4)"]
