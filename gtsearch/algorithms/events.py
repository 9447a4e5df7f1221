"""The events of a step-by-step search: what the teaching versions (gtsearch.algorithms.steps) emit.

Small frozen dataclasses, one per kind of step: entering a node with its
window, evaluating a leaf, a cutoff, a value handed back (depth-first
searches); one application of Stockman's Gamma operator with the states it
inserted and purged (SSS*, DUAL*); the start and the result.  Renderers
(gtsearch.render.trace, .view, .replay) turn them into text, JSON and pictures.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..numbers import Number

LIVE = "live"
SOLVED = "solved"


@dataclass(frozen=True)
class State:
    """One entry of SSS*'s OPEN list: a node, LIVE or SOLVED, and its merit h."""

    node: int
    status: str
    h: Number


@dataclass(frozen=True)
class Start:
    """Before the first step: the algorithm, its parameters and (SSS*/DUAL*) the first OPEN."""

    node: int
    algorithm: str
    params: dict[str, Number]
    open: tuple[State, ...] | None


@dataclass(frozen=True)
class Enter:
    """Depth-first: the search enters internal node ``node`` with the window (alpha, beta)."""

    node: int
    alpha: Number
    beta: Number


@dataclass(frozen=True)
class Leaf:
    """Depth-first: leaf ``node`` is evaluated (the ``rank``-th evaluation).

    ``parent_best`` is the parent's best value so far once this one is counted
    (None at the root).
    """

    node: int
    value: Number
    rank: int
    parent_best: Number | None


@dataclass(frozen=True)
class Cutoff:
    """Depth-first: ``node``'s value reached a bound, so its remaining children are skipped.

    ``side`` is ``"beta"`` (a MAX node whose value rose to beta or above) or
    ``"alpha"`` (a MIN node whose value fell to alpha or below); ``bound`` is
    that alpha or beta.  ``skipped`` are the children never searched, and
    ``pruned_leaves`` the leaves below them.
    """

    node: int
    value: Number
    side: str
    bound: Number
    skipped: tuple[int, ...]
    pruned_leaves: int


@dataclass(frozen=True)
class Return:
    """Depth-first: ``node`` is done and hands ``value`` to its parent.

    ``kind`` says what the value is, fail-soft: ``"exact"``, ``"lower"`` (the
    true value is at least it: the node was cut at beta) or ``"upper"`` (at
    most it).  ``parent_best`` as in :class:`Leaf`.
    """

    node: int
    value: Number
    kind: str
    parent_best: Number | None


@dataclass(frozen=True)
class Take:
    """SSS*/DUAL*: one application of Stockman's Gamma operator.

    ``state`` was taken from OPEN and ``case`` (1-6) applied to it;
    ``inserted`` and ``purged`` are the states it put into and removed from
    OPEN.  Case 2 evaluates the leaf: ``leaf_value`` and ``rank`` are set.
    ``open`` is OPEN afterwards, in the order it will be taken (None when the
    trace was asked without OPEN lists).
    """

    node: int
    state: State
    case: int
    inserted: tuple[State, ...]
    purged: tuple[State, ...]
    leaf_value: Number | None
    rank: int | None
    open: tuple[State, ...] | None


@dataclass(frozen=True)
class Result:
    """The end: the value at the root (MAX's terms) and whether it is exact or a bound."""

    node: int
    value: Number
    bound: str | None
    leaves: int


Event = Start | Enter | Leaf | Cutoff | Return | Take | Result
