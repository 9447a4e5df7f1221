"""What a picture of one search shows: evaluated and pruned nodes, each node's known value range, the PV.

Shared by the terminal drawing (gtsearch.render.terminal) and the pictures
(gtsearch.render.svg, gtsearch.render.replay).  The range of a node is what its evaluated leaves prove,
the way Russell & Norvig's Figure 5.5 draws alpha-beta: a leaf evaluated is
[f, f], a subtree with no evaluated leaf is [-inf, +inf], a MAX node is
[max lo, max hi] of its children and a MIN node [min lo, min hi].  In a tree
with chance nodes an unknown subtree is [L, U] (the leaf bounds), and a chance
node is [sum p lo, sum p hi] of its children, exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..algorithms import Algorithm, find_algorithm, search
from ..algorithms import events as kinds
from ..algorithms.chance import tree_leaf_bounds
from ..algorithms.explored import (
    RangeTracker,
    knuth_moore_types,
    searched_nodes,
    type_notes,
    value_ranges,
)
from ..algorithms.params import SearchParams, check
from ..algorithms.steps import TRACERS, trace
from ..errors import UsageError
from ..numbers import exact
from ..result import SearchResult
from ..tree import Tree
from .labels import Labels, format_pv, param_texts, range_text, total_text
from .trace import event_dict, event_text

if TYPE_CHECKING:
    from typing_extensions import Unpack


class Tally(NamedTuple):
    """MCTS: a node of the search tree as the search left it: its visits, its mean reward in
    MAX's terms (w / n, in [0, 1]) and the UCB1 value its parent's next selection would give
    it (None at the root and below chance nodes)."""

    visits: int
    mean: float
    ucb: float | None

    def text(self) -> str:
        """``n=5, mean 0.600, UCB 1.234``: what the terminal drawing says."""
        ucb = "" if self.ucb is None else f", UCB {self.ucb:.3f}"
        return f"n={self.visits}, mean {self.mean:.3f}{ucb}"

    def short(self) -> str:
        """``5 · .600 · 1.23``: visits, mean and UCB, short enough for a picture."""
        parts = [str(self.visits), f"{self.mean:.3f}".removeprefix("0")]
        if self.ucb is not None:
            parts.append(f"{self.ucb:.2f}")
        return " · ".join(parts)


@dataclass
class SearchView:
    """One search of one tree, ready to draw."""

    tree: Tree
    algorithm: str
    result: SearchResult
    #: evaluated leaf -> the number of its first evaluation (1-based), counting every
    #: evaluation: a leaf read again takes a number again (readings), as in the key's list
    rank: dict[int, int]
    #: searched[n] == 1 when a leaf at or below n was evaluated; the others were pruned
    searched: bytearray
    #: node -> (lo, hi), the range its evaluated leaves prove (searched nodes only)
    ranges: dict[int, tuple[kinds.Value, kinds.Value]]
    #: the PV as nodes from the root
    pv: list[int]
    #: depth-first searches: the cutoff that stopped a node, if one did
    cutoffs: dict[int, kinds.Cutoff | kinds.ChanceCutoff] = field(default_factory=dict)
    #: every event, kept when asked (the HTML replay needs them)
    events: list[kinds.Event] | None = None
    #: trees with chance nodes: the leaf bounds (L, U) that stand for what is unknown
    bounds: tuple[kinds.Value, kinds.Value] | None = None
    #: node -> "PV", "CUT" or "ALL", Knuth & Moore's types by position (docs/algorithms.md),
    #: when asked
    node_types: dict[int, str] | None = None
    #: node -> what the search did otherwise than its type says (explored.type_notes)
    type_notes: dict[int, str] | None = None
    #: the path of this view's root in the whole tree (a focused view: see render.focus)
    focus: tuple[int, ...] = ()
    #: a collapsed view: only these nodes have their children drawn (None: every node)
    expanded: frozenset[int] | None = None
    #: mcts: the nodes of its search tree with their visits, means and UCB values (the others,
    #: never visited, are drawn dimmed as pruned nodes are)
    tallies: dict[int, Tally] | None = None
    #: evaluated leaf -> the numbers of all its evaluations, when it has more than one (a
    #: re-search's, Star2's probes): ``#3,16`` in the pictures
    readings: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def order_text(self, n: int) -> str:
        """The numbers of a leaf's evaluations in the order of evaluation: ``#3``, or ``#3,16``
        for a leaf read twice; empty for a leaf never evaluated."""
        got = self.readings.get(n) or ((self.rank[n],) if n in self.rank else ())
        return "#" + ",".join(map(str, got)) if got else ""

    def evaluated_text(self) -> str:
        """How many leaves the search evaluated, and, when it read some twice, in how many
        evaluations: ``5 of 8 leaves evaluated``, ``21 of 27 leaves evaluated in 24
        evaluations``."""
        r = self.result
        total = total_text(r.leaves_total, "")
        # the whole tree's leaves: a focused view's rank holds its subtree's only
        whole = len(self.rank) if self.rank and not self.focus else r.leaves
        distinct = int(r.extra.get("distinct_leaves", whole))
        if distinct == r.leaves:
            return f"{r.leaves} of {total} leaves evaluated"
        return f"{distinct} of {total} leaves evaluated in {r.leaves} evaluations"

    @property
    def unsearched(self) -> str:
        """What a node the search did not reach is called: pruned, or (mcts) unvisited."""
        return "pruned" if self.tallies is None else "unvisited"

    @property
    def labels(self) -> Labels:
        """Node labels; an unnamed node of a focused view keeps its path in the whole tree."""
        return Labels(self.tree, prefix=self.focus)

    def is_cut(self, n: int) -> bool:
        """Whether n heads a pruned subtree: nothing below it evaluated, its parent searched."""
        if self.searched[n]:
            return False
        p = self.tree.parent[n]
        return p < 0 or bool(self.searched[p])

    def range_text(self, n: int) -> str:
        """The node's range: ``= 3``, ``≥ 3``, ``≤ 3``, ``∈ [2, 5]``, or ``?`` (nothing known)."""
        if self.tallies is not None:
            t = self.tallies.get(n)
            return "?" if t is None else t.text()
        r = self.ranges.get(n)
        return "?" if r is None else range_text(*r)

    def title(self) -> str:
        """One line: the algorithm, its parameters, the value and the PV."""
        r = self.result
        params = ", ".join(param_texts(r.params, " "))
        kind = "" if r.bound is None else f" ({r.bound} bound)"
        pv = format_pv(r)
        head = self.algorithm + (f" ({params})" if params else "")
        if self.tallies is not None:  # mcts: an estimate, by visits; leaves read again
            return (
                f"{head}: value {r.value_text()}, PV {pv}, "
                f"{len(self.tallies)} tree nodes"  # eval's tree_nodes: its search tree's
            )
        return f"{head}: value {r.value_text()}{kind}, PV {pv}, {self.evaluated_text()}"


def build_view(
    tree: Tree,
    algorithm: str | Algorithm = "alphabeta",
    *,
    keep_events: bool = False,
    node_types: bool = False,
    **params: Unpack[SearchParams],
) -> SearchView:
    """Run the search (the fast algorithm for the result and PV, the trace for the rest).

    ``params`` are the search's numbers, as :func:`gtsearch.search` takes them.

    An algorithm without a teaching trace (gtsearch.algorithms.steps.TRACERS), or searched
    with a transposition table (``tt``) other than alphabeta, is drawn from its result
    alone: the leaves it evaluated, no cutoffs, no events.
    ``node_types`` labels the nodes with Knuth & Moore's types by position
    (:func:`gtsearch.algorithms.explored.knuth_moore_types`) and notes where the
    search behaved otherwise (:func:`~gtsearch.algorithms.explored.type_notes`);
    a tree with chance nodes has no such types (a UsageError).
    """
    algo = algorithm if isinstance(algorithm, Algorithm) else find_algorithm(algorithm)
    if algo.sampled:
        if node_types:
            raise UsageError("--node-types labels the searches that prove a value, not mcts")
        return mcts_view(tree, algo, keep_events, params)
    # a search with a transposition table (--tt) is traced for alphabeta only (trace --tt);
    # the others are drawn from their leaves
    traced = algo.name in TRACERS and (not params.get("tt") or algo.name == "alphabeta")
    if keep_events and not traced:
        raise UsageError(
            f"the step-by-step replay needs a trace, and there is none of "
            f"{algo.name}; traced algorithms: " + ", ".join(TRACERS)
        )
    types = knuth_moore_types(tree) if node_types else None  # refused before searching
    result = search(tree, algo, leaf_order=not traced, **params)
    events: list[kinds.Event] = []
    numbers: dict[int, list[int]] = {}
    cutoffs: dict[int, kinds.Cutoff | kinds.ChanceCutoff] = {}
    windows: dict[int, tuple[kinds.Value, kinds.Value]] = {}
    reads = 0
    # every evaluation takes the next number, a leaf read twice (re-searches, Star2's probes)
    # one for each reading: the numbering of the key's "leaves in order" and of the trace
    if not traced:
        for reads, path in enumerate(result.leaf_order or (), 1):
            numbers.setdefault(tree.node_at(path), []).append(reads)
        reads = result.leaves
    else:
        for ev in trace(tree, algo, open_lists=keep_events, **params):
            if isinstance(ev, kinds.Leaf) or isinstance(ev, kinds.Take) and ev.case == 2:
                reads += 1
                numbers.setdefault(ev.node, []).append(reads)
            elif isinstance(ev, (kinds.Cutoff, kinds.ChanceCutoff)):
                cutoffs[ev.node] = ev
            elif isinstance(ev, kinds.Enter):
                windows.setdefault(ev.node, (ev.alpha, ev.beta))
            if keep_events:
                events.append(ev)
    # the tests check that the orders agree; here a cheap check of the count
    if result.leaves != reads:
        raise AssertionError(
            f"bug: the trace of {algo.name} evaluates {reads} leaves, the algorithm {result.leaves}"
        )
    bounds = view_bounds(tree, result)
    pv = pv_nodes(tree, result)
    rank = {n: got[0] for n, got in numbers.items()}
    return SearchView(
        tree,
        algo.name,
        result,
        rank,
        searched_nodes(tree, rank),
        value_ranges(tree, rank, bounds),
        pv,
        cutoffs,
        events if keep_events else None,
        bounds=bounds,
        node_types=types,
        type_notes=None if types is None else type_notes(tree, types, rank, windows or None),
        readings={n: tuple(got) for n, got in numbers.items() if len(got) > 1},
    )


def mcts_view(tree: Tree, algo: Algorithm, keep_events: bool, params: SearchParams) -> SearchView:
    """MCTS drawn: the search tree its events leave (the pure reference's, which the result of
    either core equals), each node with its :class:`Tally`; the rest of the tree unvisited."""
    from ..algorithms.mcts import DEFAULT_EXPLORATION, children, ucb_arms
    from ..algorithms.mcts_steps import mcts_steps

    result = search(tree, algo, **params)
    _, checked = check(algo, **params)
    if checked.get("seconds") is not None:  # stopped by the clock: traced to the same count
        checked = {k: v for k, v in checked.items() if k != "seconds"}  # type: ignore[assignment]
        checked["iterations"] = result.extra["iterations"]
    events, searched = mcts_steps(tree, checked)
    final = events[-1]
    if not isinstance(final, kinds.Result) or (final.value, final.leaves) != (
        result.value,
        result.leaves,
    ):
        raise AssertionError(f"bug: the trace of mcts ends with {final}, the search with {result}")
    got = searched.stats
    c = checked.get("exploration")
    exploration = DEFAULT_EXPLORATION if c is None else float(c)
    tallies = {n: Tally(int(s[0]), s[1] / s[0], None) for n, s in got.items()}
    for p in got:
        if tree.is_leaf(p) or tree.is_chance(p):
            continue
        kids = [k for k in children(tree, p) if k in got]
        if kids:
            for arm in ucb_arms(p, kids, tree.is_max(p), got, exploration):
                tallies[arm.node] = tallies[arm.node]._replace(ucb=arm.ucb)
    marks = bytearray(tree.n_nodes)
    for n in got:
        marks[n] = 1
    pv = pv_nodes(tree, result)
    return SearchView(
        tree,
        algo.name,
        result,
        {},
        marks,
        {},
        pv,
        events=events if keep_events else None,
        tallies=tallies,
    )


def pv_nodes(tree: Tree, result: SearchResult) -> list[int]:
    """The result's PV as nodes from the root."""
    pv = [0]
    for i in result.pv:
        pv.append(tree.child(pv[-1], i))
    return pv


def view_bounds(tree: Tree, result: SearchResult) -> tuple[kinds.Value, kinds.Value] | None:
    """What an unknown subtree of a tree with chance nodes is worth at least and at most: the
    leaf bounds the search used, else the tree's least and greatest leaf; None without chance."""
    if not tree.has_chance:
        return None
    given = result.params.get("leaf_bounds")
    lo, hi = given if given is not None else tree_leaf_bounds(tree)
    return exact(lo), exact(hi)


def bare_view(tree: Tree) -> SearchView:
    """A view of no search: what the pictures need to draw the bare tree (``to_svg(state=False)``)."""
    result = SearchResult("", 0, True, None, (), (), 0, tree.n_leaves, 0.0, tree=tree)
    return SearchView(tree, "", result, {}, bytearray(tree.n_nodes), {}, [0])


# -- the replay: the trace with what changes on the picture at each step ---------------------
def replay_steps(view: SearchView) -> Iterator[dict[str, Any]]:
    """Every step as its JSON object plus what the picture needs.

    Besides the trace's own keys (gtsearch.render.trace.event_dict) each step has
    ``text`` (the line the text trace prints), ``ranges`` (nodes whose range
    changed: ``[node, text]``), ``pruned`` (heads of subtrees known from now on
    never to be evaluated: the skipped children of a cutoff, or what a
    SOLVED state leaves unevaluated below its node) and ``solved`` (SSS*/DUAL*:
    the nodes that got a SOLVED state).
    """
    if view.events is None:
        raise ValueError("the view was built without its events (keep_events=True)")
    tree = view.tree
    labels = view.labels
    end = tree.end
    searched = view.searched
    ranges = RangeTracker(tree, view.bounds)
    marked = bytearray(tree.n_nodes)

    def prune_below(n: int) -> list[int]:
        heads: list[int] = []
        m, stop = n, end[n]
        while m < stop:
            if searched[m]:
                m += 1
            elif marked[m]:
                m = end[m]
            else:
                heads.append(m)
                for k in range(m, end[m]):
                    marked[k] = 1
                m = end[m]
        return heads

    for step, ev in enumerate(view.events):
        d = event_dict(ev, step, labels)
        d["text"] = event_text(ev, labels, view.algorithm)
        changed: list[int] = []
        pruned: list[int] = []
        solved: list[int] = []
        if isinstance(ev, kinds.Leaf) or isinstance(ev, kinds.Take) and ev.case == 2:
            changed = ranges.add(ev.node)
        if isinstance(ev, (kinds.Cutoff, kinds.ChanceCutoff)):
            for c in ev.skipped:
                pruned.extend(prune_below(c))
        elif isinstance(ev, kinds.Take):
            for s in ev.inserted:
                if s.status == "solved":
                    solved.append(s.node)
                    if s.node != ev.node:
                        pruned.extend(prune_below(s.node))
        elif isinstance(ev, (kinds.Result, kinds.Return)) and ev.node == 0:
            pruned.extend(prune_below(0))
        d["ranges"] = [[n, range_text(*ranges.ranges[n])] for n in changed]
        if isinstance(ev, kinds.Backup):  # mcts: the visits and means along the path
            d["ranges"] = [
                [a.node, Tally(a.visits, a.total / a.visits, None).short()] for a in ev.path
            ]
        d["pruned"] = pruned
        if isinstance(ev, kinds.Take):
            d["solved"] = solved
        yield d


__all__ = [
    "RangeTracker",
    "SearchView",
    "Tally",
    "bare_view",
    "build_view",
    "range_text",
    "replay_steps",
    "searched_nodes",
    "value_ranges",
]
