"""The events of a step-by-step search: what the teaching versions (gtsearch.algorithms.steps) emit.

Small frozen dataclasses, one per kind of step: entering a node with its
window, evaluating a leaf, a cutoff, a value handed back (depth-first
searches); at chance nodes (Star1, Star2) the window each outcome gets, a
probe and its bound, a cutoff; one application of Stockman's Gamma operator with the states it
inserted and purged (SSS*, DUAL*); a transposition table's probes, hits and stores
(alpha-beta with ``--tt``); MCTS's four phases, iteration by iteration, and its final
move; the start and the result.  Renderers
(gtsearch.render.trace, .view, .replay) turn them into text, JSON and pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..numbers import Exact, Number

#: a value in an event: a number as the file wrote it, or an exact rational (chance nodes)
Value = Number | Fraction

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
    params: dict[str, Any]
    open: tuple[State, ...] | None


@dataclass(frozen=True)
class Enter:
    """Depth-first: the search enters internal node ``node`` with the window (alpha, beta)."""

    node: int
    alpha: Value
    beta: Value


@dataclass(frozen=True)
class Leaf:
    """Depth-first: leaf ``node`` is evaluated (the ``rank``-th evaluation).

    ``parent_best`` is the parent's best value so far once this one is counted
    (None at the root).
    """

    node: int
    value: Value
    rank: int
    parent_best: Value | None


@dataclass(frozen=True)
class Cutoff:
    """Depth-first: ``node``'s value reached a bound, so its remaining children are skipped.

    ``side`` is ``"beta"`` (a MAX node whose value rose to beta or above) or
    ``"alpha"`` (a MIN node whose value fell to alpha or below); ``bound`` is
    that alpha or beta.  ``skipped`` are the children never searched, and
    ``pruned_leaves`` the leaves below them.
    """

    node: int
    value: Value
    side: str
    bound: Value
    skipped: tuple[int, ...]
    pruned_leaves: int


@dataclass(frozen=True)
class Return:
    """Depth-first: ``node`` is done and hands ``value`` to its parent.

    ``kind`` says how the value stands to the node's window (F2's contract):
    ``"exact"``, ``"lower"`` (the true value is at least it: the node was cut at
    beta) or ``"upper"`` (at most it).  ``lo`` and ``hi`` are what the leaves
    read so far prove of the node (what ``gtsearch show`` draws, docs/algorithms.md,
    "Exact values, bounds and the PV"); :func:`~.steps.trace` fills them in.
    ``parent_best`` as in :class:`Leaf`.
    """

    node: int
    value: Value
    kind: str
    parent_best: Value | None
    lo: Value | None = None
    hi: Value | None = None


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
    value: Value
    bound: str | None
    leaves: int


@dataclass(frozen=True)
class Window:
    """Star1/Star2 at chance node ``node``: the window its outcome ``child`` is searched with.

    ``p`` is the outcome's probability, ``total`` the weighted sum of the
    outcomes searched before it (sum p_j v_j), ``rest_lo`` and ``rest_hi`` what
    the outcomes after it add at least and at most (L and U times their
    probability; Star2: their probe bounds).  Then ``a`` = (alpha - total -
    rest_hi) / p and ``b`` = (beta - total - rest_lo) / p are the edges whose
    crossing ends the chance node's search, and the outcome is searched with
    (``alpha``, ``beta``) = (max(a, L), min(b, U)).  Infinite edges stay infinite.
    """

    node: int
    child: int
    p: Fraction
    total: Exact
    rest_lo: Exact
    rest_hi: Exact
    a: Number | Fraction
    b: Number | Fraction
    alpha: Number | Fraction
    beta: Number | Fraction


@dataclass(frozen=True)
class Probe:
    """Star2: outcome ``node`` of chance node ``chance`` is probed: its first child only is
    searched with (``alpha``, ``beta``), for a ``"lower"`` bound (a MAX outcome) or an
    ``"upper"`` one (MIN)."""

    node: int
    chance: int
    side: str
    alpha: Number | Fraction
    beta: Number | Fraction


@dataclass(frozen=True)
class Probed:
    """Star2: the probe of ``node`` is done: ``value`` bounds it on ``side``; the chance node
    is now known to lie in [``low``, ``high``]."""

    node: int
    value: Exact
    side: str
    low: Exact
    high: Exact


@dataclass(frozen=True)
class ChanceCutoff:
    """Star1/Star2: chance node ``node`` stops: its value is at most ``value`` <= alpha
    (``side`` ``"alpha"``, a fail low) or at least ``value`` >= beta (``"beta"``).

    ``phase`` says what decided it: ``"bounds"`` (L and U alone, before any
    outcome), ``"probe"`` (Star2's probing phase) or ``"search"`` (the value
    of outcome ``child``, ``child_value``, crossed the edge ``edge``, a or b
    of its :class:`Window`).  ``skipped`` are the outcomes after it, never
    searched; ``pruned_leaves`` the leaves below them not read so far.
    """

    node: int
    value: Exact
    side: str
    bound: Number | Fraction
    phase: str
    child: int | None
    child_value: Exact | None
    edge: Number | Fraction | None
    skipped: tuple[int, ...]
    pruned_leaves: int


@dataclass(frozen=True)
class TableProbe:
    """Alpha-beta with a table (``trace --tt``): ``node``'s position is looked up.

    ``found`` says whether the table holds it; then ``lower`` and ``upper``
    (MAX's terms), ``draft`` (None: to the leaves) and ``move`` (the best
    child's index, -1: none) are the entry's.
    """

    node: int
    found: bool
    lower: Value | None = None
    upper: Value | None = None
    draft: int | None = None
    move: int = -1


@dataclass(frozen=True)
class TableCut:
    """A hit that cuts: the entry's bounds decide ``node`` for its window, so nothing below it
    is searched and ``value`` (MAX's terms) is handed up; ``parent_best`` as in :class:`Leaf`."""

    node: int
    value: Value
    lower: Value
    upper: Value
    parent_best: Value | None


@dataclass(frozen=True)
class TableOrder:
    """A hit that only orders: the entry's best move, child ``move`` of ``node``, goes first."""

    node: int
    move: int


@dataclass(frozen=True)
class TableStore:
    """What the search proved of ``node`` is written: bounds (MAX's terms), draft (None: to
    the leaves) and best move; ``overwrite``: an entry of another position was lost."""

    node: int
    lower: Value
    upper: Value
    draft: int | None
    move: int
    overwrite: bool


@dataclass(frozen=True)
class Arm:
    """MCTS: a node of the search tree as it stands: its visits n, the sum w of the rewards
    backed up through it (MAX's terms, in [0, 1] each) and, a child compared by selection, its
    UCB value (None elsewhere)."""

    node: int
    visits: int
    total: float
    ucb: float | None = None


@dataclass(frozen=True)
class Select:
    """MCTS, selection in iteration ``iteration``: at decision node ``node`` (``visits`` n) every
    child compared by UCB (``arms``) and ``child`` the greatest, ties leftmost; at a chance node
    the outcome ``child`` drawn (``arms`` empty)."""

    node: int
    iteration: int
    visits: int
    arms: tuple[Arm, ...]
    child: int


@dataclass(frozen=True)
class Expand:
    """MCTS, expansion: ``node`` enters the search tree, with zeros."""

    node: int
    iteration: int


@dataclass(frozen=True)
class Playout:
    """MCTS, the playout from ``node``: ``moves`` random moves (the nodes passed, the last
    ``reached``) to a leaf worth ``value`` (the ``rank``-th leaf evaluation), or with
    --playout-depth to a static value (``rank`` None); ``reward`` is r(value), MAX's terms."""

    node: int
    iteration: int
    moves: tuple[int, ...]
    reached: int
    value: Number
    reward: float
    rank: int | None


@dataclass(frozen=True)
class Backup:
    """MCTS, the backup of ``reward`` from ``node`` to the root: ``path`` the nodes from the root
    with their visits and totals once it is counted."""

    node: int
    iteration: int
    reward: float
    path: tuple[Arm, ...]


@dataclass(frozen=True)
class Decide:
    """MCTS, after the last iteration: the root's children in the search tree (``arms``), the
    final move ``child`` (most visits, ties leftmost; None if none) and the PV by visits."""

    node: int
    arms: tuple[Arm, ...]
    child: int | None
    pv: tuple[int, ...]


#: MCTS's four phases, each in one iteration, and all its events (gtsearch.algorithms.mcts_steps)
PHASES = (Select, Expand, Playout, Backup)
MCTS_EVENTS = (*PHASES, Decide)

Event = (
    Start
    | Enter
    | Leaf
    | Cutoff
    | Return
    | Take
    | Result
    | Window
    | Probe
    | Probed
    | ChanceCutoff
    | TableProbe
    | TableCut
    | TableOrder
    | TableStore
    | Select
    | Expand
    | Playout
    | Backup
    | Decide
)
