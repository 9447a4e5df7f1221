"""MCTS step by step: the four phases of every iteration as events, from the pure reference.

The trace runs :func:`gtsearch.algorithms.mcts.iterate` itself (the readable
reference, under either core) with its ``emit`` hook: Select (the UCB values
compared at every decision node, or the outcome drawn at a chance node),
Expand, Playout (the leaf reached and its reward), Backup (the visits and
totals along the path once the reward is counted), then Decide (the final
move by visits) and the Result.  The compiled core makes the same choices
from the same numbers (tests/test_mcts_steps.py checks it), so what the
trace shows is what ``gtsearch eval -a mcts`` did.  Browne et al., "A Survey
of Monte Carlo Tree Search Methods" (2012), name the phases.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from ..tree import Tree
from .base import Outcome, Stats
from .events import Arm, Decide, Event, Result, Start
from .mcts import DEFAULT_EXPLORATION, Searched, children, estimate, iterate, principal_line
from .params import Params, leaf_bounds, mcts_defaults


def mcts_steps(tree: Tree, params: Params) -> tuple[list[Event], Searched]:
    """The events of one search (Start to Result) and the search tree it leaves."""
    given = params.get("leaf_bounds")
    bounds, origin = leaf_bounds(tree, given if isinstance(given, tuple) else None)
    full, shown = mcts_defaults(cast(Params, {**params, "leaf_bounds": bounds}), origin)
    exploration = full.get("exploration")
    events: list[Event] = [Start(0, "mcts", shown, None)]
    stats = Stats()
    searched = iterate(
        tree,
        stats,
        bounds,
        full.get("iterations"),
        full.get("seconds"),
        full.get("seed") or 0,
        DEFAULT_EXPLORATION if exploration is None else float(exploration),
        full.get("playout_depth"),
        emit=events.append,
    )
    line = principal_line(tree, searched)
    value, _ = estimate(searched, line, bounds)
    final = line[1] if len(line) > 1 else None
    events.append(Decide(0, root_arms(tree, searched), final, tuple(line)))
    number = Outcome(value, "estimate", pv=line).number(tree, line, full)  # as search() says it
    events.append(Result(0, number, "estimate", len(stats.leaves)))
    return events, searched


def root_arms(tree: Tree, searched: Searched) -> tuple[Arm, ...]:
    """The root's children in the search tree, with their visits and reward sums."""
    got = searched.stats
    return tuple(Arm(c, int(got[c][0]), got[c][1]) for c in children(tree, 0) if c in got)


def trace_mcts(tree: Tree, params: Params, open_lists: bool = False) -> Iterator[Event]:
    """The tracer of :data:`gtsearch.algorithms.steps.TRACERS` for mcts."""
    events, _ = mcts_steps(tree, params)
    return iter(events)


__all__ = ["mcts_steps", "root_arms", "trace_mcts"]
