"""Teaching traces: each algorithm as the spec states it, step by step (Knuth & Moore 1975; Stockman 1979).

Sources, as fixed in spec/algorithms.md: Knuth, D. E. & Moore, R. W. (1975),
An analysis of alpha-beta pruning, Artificial Intelligence 6(4) (procedures F,
F1 and F2); Stockman, G. C. (1979), A minimax algorithm better than alpha-beta?,
Artificial Intelligence 12(2) (SSS*, the Gamma operator, cases 1-6);
Marsland, Reinefeld & Schaeffer (1987) and Sun & Ma (1993) (DUAL*, bounded starts).

These are not the fast implementations of :mod:`gtsearch.algorithms`: they
follow the textbook form literally so that every step can be shown, and they
yield one event (a small frozen dataclass) per step.  They evaluate exactly the
same leaves, in the same order, and return the same value as the fast ones
(the tests check it over random trees).

- The depth-first searches (``minimax``, ``f1``, ``alphabeta``) are written in
  the MAX/MIN form with the window (alpha, beta) in MAX's terms at every node,
  which is Knuth & Moore's negamax F, F1 and fail-soft F2 with the signs
  unfolded.  F1 passes one bound only: a MAX node is cut when its value
  reaches beta (the MIN parent's best so far), a MIN node when it falls to
  alpha.  They run on an explicit stack, so deep trees do not recurse.
- SSS* and DUAL* keep OPEN as a list of states (node, LIVE/SOLVED, h) in the
  order they will be taken (highest h first for SSS*, lowest for DUAL*; ties
  to the leftmost node) and apply Stockman's cases 1-6 one state at a time.

Every number is in MAX's terms; leaf values are the file's numbers (3 stays
3, 2.5 stays 2.5); infinities are ``float('inf')``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .algorithms import Algorithm, find_algorithm
from .errors import UsageError
from .numbers import format_number
from .tree import Tree

Number = int | float
INF = float("inf")

LIVE = "live"
SOLVED = "solved"


# -- events ------------------------------------------------------------------------------
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


# -- entry point -----------------------------------------------------------------------
def trace(tree: Tree, algorithm: str | Algorithm = "alphabeta", *, bound: Number | None = None,
          alpha: Number | None = None, beta: Number | None = None,
          open_lists: bool = False) -> Iterator[Event]:
    """The events of one search, from :class:`Start` to :class:`Result`.

    Parameters as for :func:`gtsearch.search`.  ``open_lists`` puts a copy of
    OPEN into every SSS*/DUAL* step (costs time on large trees).
    """
    algo = algorithm if isinstance(algorithm, Algorithm) else find_algorithm(algorithm)
    tracer = TRACERS.get(algo.name)
    if tracer is None:
        raise UsageError(f"there is no step-by-step trace of {algo.name}; traced algorithms: "
                         + ", ".join(TRACERS))
    params = _check_params(algo, bound, alpha, beta)
    return tracer(tree, params, open_lists)


def _check_params(algo: Algorithm, bound: Number | None, alpha: Number | None,
                  beta: Number | None) -> dict[str, Number]:
    """The same checks as :func:`gtsearch.search`, with the same messages."""
    if bound is not None and algo.takes != "bound":
        raise UsageError(f"--bound does not apply to {algo.name}; it is for f1, sss-bounded, "
                         "dual-bounded")
    if (alpha is not None or beta is not None) and algo.takes != "window":
        raise UsageError(f"--alpha/--beta apply to alphabeta only, not to {algo.name}")
    if algo.needs_bound and bound is None:
        raise UsageError(f"{algo.name} needs --bound")
    if alpha is not None and beta is not None and not alpha < beta:
        raise UsageError(f"the window needs alpha < beta, got alpha={format_number(alpha)} "
                         f"and beta={format_number(beta)}")
    params: dict[str, Number] = {}
    for key, v in (("bound", bound), ("alpha", alpha), ("beta", beta)):
        if v is not None:
            params[key] = v
    return params


# -- depth-first: F, F1, F2 -------------------------------------------------------------
class _Frame:
    """A node on the depth-first stack: its window, best value so far, next child."""

    __slots__ = ("node", "is_max", "alpha", "beta", "best", "next", "cut")

    def __init__(self, node: int, is_max: bool, alpha: Number, beta: Number) -> None:
        self.node = node
        self.is_max = is_max
        self.alpha = alpha
        self.beta = beta
        self.best: Number = -INF if is_max else INF
        self.next = node + 1
        self.cut = False

    def take(self, t: Number) -> bool:
        """Count a child's value; True when it improved the best (strictly, as F2 does)."""
        if t > self.best if self.is_max else t < self.best:
            self.best = t
            return True
        return False

    def reached(self) -> bool:
        """Whether the best so far has reached the bound that ends the search here."""
        return self.best >= self.beta if self.is_max else self.best <= self.alpha


def _kind(v: Number, alpha: Number, beta: Number) -> str:
    """A fail-soft value against its window (as gtsearch.algorithms.base.window_outcome)."""
    if v <= alpha:
        return "upper"
    if v >= beta:
        return "lower"
    return "exact"


def _depth_first(tree: Tree, mode: str, params: dict[str, Number]) -> Iterator[Event]:
    """F (``mode`` "minimax"), F1 ("f1") or fail-soft F2 ("alphabeta"), unfolded to MAX/MIN."""
    end = tree.end
    number = tree.number
    root_max = tree.root_max
    if mode == "alphabeta":
        alpha0: Number = params.get("alpha", -INF)
        beta0: Number = params.get("beta", INF)
    elif mode == "f1":
        # the user's bound is in MAX's terms: a MAX root stops at value >= bound,
        # a MIN root at value <= bound (gtsearch.algorithms.depthfirst.f1)
        given = params.get("bound")
        alpha0, beta0 = (-INF, INF if given is None else given) if root_max else (
            -INF if given is None else given, INF)
    else:
        alpha0, beta0 = -INF, INF
    yield Start(0, mode, dict(params), None)
    if end[0] == 1:
        v = number(0)
        yield Leaf(0, v, 1, None)
        yield Result(0, v, _outcome(_kind(v, alpha0, beta0)), 1)
        return
    rank = 0
    yield Enter(0, alpha0, beta0)
    stack = [_Frame(0, root_max, alpha0, beta0)]
    while True:
        f = stack[-1]
        stop = end[f.node]
        c = f.next
        if c < stop and not f.cut:
            f.next = end[c]
            if end[c] == c + 1:
                rank += 1
                t = number(c)
                improved = f.take(t)
                yield Leaf(c, t, rank, f.best)
                if improved and f.reached():
                    yield from _cut(tree, f)
                continue
            if mode == "alphabeta":
                a, b = (max(f.alpha, f.best), f.beta) if f.is_max else (f.alpha, min(f.beta, f.best))
            elif mode == "f1":
                a, b = (f.best, INF) if f.is_max else (-INF, f.best)
            else:
                a, b = -INF, INF
            yield Enter(c, a, b)
            stack.append(_Frame(c, not f.is_max, a, b))
            continue
        stack.pop()
        kind = _kind(f.best, f.alpha, f.beta)
        if not stack:
            yield Return(f.node, f.best, kind, None)
            yield Result(0, f.best, _outcome(kind), rank)
            return
        p = stack[-1]
        improved = p.take(f.best)
        yield Return(f.node, f.best, kind, p.best)
        if improved and p.reached():
            yield from _cut(tree, p)


def _cut(tree: Tree, f: _Frame) -> Iterator[Cutoff]:
    """Stop searching f's node; say so when it skips children."""
    f.cut = True
    end = tree.end
    skipped: list[int] = []
    c, stop = f.next, end[f.node]
    while c < stop:
        skipped.append(c)
        c = end[c]
    if skipped:
        leaves = sum(_leaves_below(tree, s) for s in skipped)
        side, bound = ("beta", f.beta) if f.is_max else ("alpha", f.alpha)
        yield Cutoff(f.node, f.best, side, bound, tuple(skipped), leaves)


def _leaves_below(tree: Tree, n: int) -> int:
    end = tree.end
    return sum(1 for m in range(n, end[n]) if end[m] == m + 1)


def _outcome(kind: str) -> str | None:
    return None if kind == "exact" else kind


# -- SSS*, DUAL* and the bounded forms -----------------------------------------------------
class _Open:
    """Stockman's OPEN list: states kept in the order they will be taken.

    Keys are (-h, node) for SSS* (highest h first) and (h, node) for DUAL*
    (lowest first); ties go to the smallest preorder number, the leftmost
    node.  A node has at most one state in OPEN; the sorted list of those
    nodes lets case 5 find every state below a node as one interval.
    """

    def __init__(self, dual: bool) -> None:
        self.sign = 1 if dual else -1
        self.keys: list[tuple[Number, int]] = []
        self.states: dict[int, State] = {}
        self.nodes: list[int] = []

    def insert(self, s: State) -> None:
        if s.node in self.states:
            raise AssertionError(f"bug: node {s.node} has two states in OPEN")
        self.states[s.node] = s
        insort(self.keys, (self.sign * s.h, s.node))
        insort(self.nodes, s.node)

    def take(self) -> State:
        _, n = self.keys.pop(0)
        del self.nodes[bisect_left(self.nodes, n)]
        return self.states.pop(n)

    def purge_below(self, p: int, stop: int) -> tuple[State, ...]:
        """Remove every state of a node p+1 .. stop-1 (the descendants of p)."""
        i = bisect_right(self.nodes, p)
        j = bisect_left(self.nodes, stop, i)
        gone = [self.states.pop(n) for n in self.nodes[i:j]]
        del self.nodes[i:j]
        for s in gone:
            del self.keys[bisect_left(self.keys, (self.sign * s.h, s.node))]
        return tuple(sorted(gone, key=lambda s: (self.sign * s.h, s.node)))

    def snapshot(self) -> tuple[State, ...]:
        return tuple(self.states[n] for _, n in self.keys)


def _best_first(tree: Tree, name: str, dual: bool, params: dict[str, Number],
                open_lists: bool) -> Iterator[Event]:
    """SSS* (``dual`` False) or DUAL*, from (root, LIVE, bound) or (root, LIVE, ±inf)."""
    end = tree.end
    number = tree.number
    parent = tree.parent
    h0: Number = params.get("bound", -INF if dual else INF)
    merge = max if dual else min
    opened = _Open(dual)
    opened.insert(State(0, LIVE, h0))
    yield Start(0, name, dict(params), opened.snapshot() if open_lists else None)
    rank = 0
    while True:
        s = opened.take()
        n, h = s.node, s.h
        inserted: list[State] = []
        purged: tuple[State, ...] = ()
        leaf_value: Number | None = None
        taken_rank: int | None = None
        if s.status == SOLVED and n == 0:
            case = 1
        elif s.status == LIVE:
            if end[n] == n + 1:
                case = 2  # the only leaf evaluation
                rank += 1
                taken_rank = rank
                leaf_value = number(n)
                inserted.append(State(n, SOLVED, merge(h, leaf_value)))
            elif tree.is_max(n) != dual:
                case = 3  # SSS*: a MAX node (DUAL*: a MIN node) gets all its children
                inserted.extend(State(c, LIVE, h) for c in tree.children(n))
            else:
                case = 4  # the other player's node: its first child only
                inserted.append(State(n + 1, LIVE, h))
        else:
            p = parent[n]
            if tree.is_max(p) != dual:
                case = 5  # the parent is solved by this child; its other subtrees go
                inserted.append(State(p, SOLVED, h))
                purged = opened.purge_below(p, end[p])
            else:
                case = 6  # the next sibling, or the parent solved after its last child
                c = end[n]
                inserted.append(State(c, LIVE, h) if c < end[p] else State(p, SOLVED, h))
        for new in inserted:
            opened.insert(new)
        yield Take(n, s, case, tuple(inserted), purged, leaf_value, taken_rank,
                   opened.snapshot() if open_lists else None)
        if case == 1:
            exact = h > h0 if dual else h < h0
            yield Result(0, h, None if exact else ("upper" if dual else "lower"), rank)
            return


TRACERS: dict[str, Callable[[Tree, dict[str, Number], bool], Iterator[Event]]] = {
    "minimax": lambda t, p, o: _depth_first(t, "minimax", p),
    "f1": lambda t, p, o: _depth_first(t, "f1", p),
    "alphabeta": lambda t, p, o: _depth_first(t, "alphabeta", p),
    "sss": lambda t, p, o: _best_first(t, "sss", False, p, o),
    "sss-bounded": lambda t, p, o: _best_first(t, "sss-bounded", False, p, o),
    "dual": lambda t, p, o: _best_first(t, "dual", True, p, o),
    "dual-bounded": lambda t, p, o: _best_first(t, "dual-bounded", True, p, o),
}


# -- describing events: labels, text, JSON ---------------------------------------------------
def format_value(v: Number | None) -> str:
    """A number for people: as the file wrote it, infinities as +∞ and -∞."""
    if v is None:
        return "-"
    if v == INF:
        return "+∞"
    if v == -INF:
        return "-∞"
    return format_number(v)


def json_value(v: Number) -> Number | str:
    """A number for JSON, which has no infinity: the strings "+inf" and "-inf" stand for them."""
    if v == INF:
        return "+inf"
    if v == -INF:
        return "-inf"
    return v


class Labels:
    """Node labels (the name, else the dotted path of child indices; "root") and paths, remembered."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._paths: dict[int, tuple[int, ...]] = {0: ()}

    def path(self, n: int) -> tuple[int, ...]:
        path = self._paths.get(n)
        if path is None:
            p = self.tree.parent[n]
            index = sum(1 for _ in _before(self.tree.children(p), n))
            path = self._paths[n] = (*self.path(p), index) if p in self._paths else (
                tuple(self.tree.path_of(n)))
        return path

    def label(self, n: int) -> str:
        name = self.tree.names.get(n)
        if name is not None:
            return name
        path = self.path(n)
        return ".".join(map(str, path)) if path else "root"

    def player(self, n: int) -> str:
        return "MAX" if self.tree.is_max(n) else "MIN"


def _before(children: Iterator[int], n: int) -> Iterator[int]:
    for c in children:
        if c == n:
            return
        yield c


def state_text(s: State, labels: Labels) -> str:
    return f"({labels.label(s.node)}, {s.status.upper()}, {format_value(s.h)})"


def states_text(states: tuple[State, ...], labels: Labels) -> str:
    return " ".join(state_text(s, labels) for s in states) if states else "(empty)"


def event_text(ev: Event, labels: Labels, algorithm: str = "alphabeta") -> str:
    """What one event says, in one line (no step number, no indentation).

    ``algorithm`` decides how a window reads: minimax has none, f1 one bound.
    """
    lab = labels.label
    if isinstance(ev, Start):
        if ev.open is not None:
            return "OPEN: " + states_text(ev.open, labels)
        return f"start at {lab(0)} ({labels.player(0)})"
    if isinstance(ev, Enter):
        text = f"enter {lab(ev.node)} ({labels.player(ev.node)})"
        window = window_text(ev, labels, algorithm)
        return f"{text}  {window}" if window else text
    if isinstance(ev, Leaf):
        text = f"leaf {lab(ev.node)} = {format_value(ev.value)}  (leaf #{ev.rank})"
        if ev.parent_best is not None:
            p = labels.tree.parent[ev.node]
            text += f"  {lab(p)}: best so far {format_value(ev.parent_best)}"
        return text
    if isinstance(ev, Cutoff):
        who = lab(ev.node)
        if ev.side == "beta":
            why = f"{format_value(ev.value)} ≥ β = {format_value(ev.bound)}"
            reason = "MIN above will not allow this" if ev.node else "the root's bound is reached"
        else:
            why = f"{format_value(ev.value)} ≤ α = {format_value(ev.bound)}"
            reason = "MAX above has a better move" if ev.node else "the root's bound is reached"
        skipped = ", ".join(lab(c) for c in ev.skipped)
        leaves = f"{ev.pruned_leaves} leaf" if ev.pruned_leaves == 1 else f"{ev.pruned_leaves} leaves"
        return f"cutoff at {who}: {why} ({reason}); skip {skipped} ({leaves} pruned)"
    if isinstance(ev, Return):
        rel = {"exact": "=", "lower": "≥", "upper": "≤"}[ev.kind]
        text = f"return {lab(ev.node)} {rel} {format_value(ev.value)}"
        if ev.parent_best is not None:
            p = labels.tree.parent[ev.node]
            text += f"  {lab(p)}: best so far {format_value(ev.parent_best)}"
        return text
    if isinstance(ev, Take):
        return f"take {state_text(ev.state, labels)}  case {ev.case}: " + _case_text(ev, labels)
    rel = {None: "", "lower": "≥ ", "upper": "≤ "}[ev.bound]
    kind = "exact" if ev.bound is None else f"{ev.bound} bound"
    return (f"result: value {rel}{format_value(ev.value)} ({kind}), "
            f"{ev.leaves} of {labels.tree.n_leaves} leaves evaluated")


def window_text(ev: Enter, labels: Labels, algorithm: str) -> str:
    """The window a node is entered with, as the algorithm sees it (minimax: none, f1: one bound)."""
    if algorithm == "minimax":
        return ""
    if algorithm == "f1":  # one bound: MAX nodes stop at beta, MIN nodes at alpha
        if labels.tree.is_max(ev.node):
            return f"bound β = {format_value(ev.beta)}"
        return f"bound α = {format_value(ev.alpha)}"
    return f"α = {format_value(ev.alpha)}, β = {format_value(ev.beta)}"


def _case_text(ev: Take, labels: Labels) -> str:
    lab = labels.label
    n = ev.node
    ins = states_text(ev.inserted, labels)
    if ev.case == 1:
        return f"the root is solved: value {format_value(ev.state.h)}"
    if ev.case == 2:
        return (f"evaluate {lab(n)} = {format_value(ev.leaf_value)} (leaf #{ev.rank}), "
                f"insert {ins}")
    if ev.case == 3:
        return f"{lab(n)} is {labels.player(n)}: insert all its children {ins}"
    if ev.case == 4:
        return f"{lab(n)} is {labels.player(n)}: insert its first child {ins}"
    p = labels.tree.parent[n]
    if ev.case == 5:
        text = f"{lab(p)} is {labels.player(p)}: {lab(n)} solves it, insert {ins}"
        if ev.purged:
            text += ", purge " + states_text(ev.purged, labels)
        return text
    if ev.inserted[0].status == LIVE:
        return f"{lab(p)} is {labels.player(p)}: next sibling, insert {ins}"
    return f"{lab(p)} is {labels.player(p)}: {lab(n)} was its last child, insert {ins}"


def trace_text(events: Iterator[Event], tree: Tree, algorithm: str,
               source: str) -> Iterator[str]:
    """The trace as lines of text: a header, then one numbered line per step.

    Depth-first steps are indented by the node's depth; SSS*/DUAL* steps are
    followed by OPEN as it stands after them (when the events carry it).
    """
    labels = Labels(tree)
    depth = tree.depth
    who = tree.names.get(0)
    root = f"root {who} is " if who is not None else "root "
    yield (f"{algorithm} on {source}: {root}{labels.player(0)}, {tree.n_nodes} nodes, "
           f"{tree.n_leaves} leaves")
    for step, ev in enumerate(events):
        if isinstance(ev, Start):
            if ev.params:
                yield "parameters: " + ", ".join(f"{k} = {format_value(v)}"
                                                 for k, v in ev.params.items())
            if ev.open is not None:
                yield f"{0:4d}  " + event_text(ev, labels)
            continue
        if isinstance(ev, Result):
            yield "      " + event_text(ev, labels, algorithm)
            continue
        indent = "" if isinstance(ev, Take) else "  " * depth[ev.node]
        yield f"{step:4d}  {indent}" + event_text(ev, labels, algorithm)
        if isinstance(ev, Take) and ev.open is not None:
            yield "      OPEN: " + states_text(ev.open, labels)


def state_dict(s: State, labels: Labels) -> dict[str, Any]:
    return {"node": s.node, "label": labels.label(s.node), "status": s.status,
            "h": json_value(s.h)}


def event_dict(ev: Event, step: int, labels: Labels) -> dict[str, Any]:
    """One event as a JSON object (the schema of docs/README-visualisation.md)."""
    tree = labels.tree
    d: dict[str, Any] = {"step": step}
    if isinstance(ev, Start):
        d.update(event="start", algorithm=ev.algorithm,
                 params={k: json_value(v) for k, v in ev.params.items()},
                 root="max" if tree.root_max else "min", nodes=tree.n_nodes,
                 leaves_total=tree.n_leaves)
        if ev.open is not None:
            d["open"] = [state_dict(s, labels) for s in ev.open]
        return d
    if isinstance(ev, Result):
        d.update(event="result", value=json_value(ev.value), exact=ev.bound is None,
                 bound=ev.bound, leaves=ev.leaves, leaves_total=tree.n_leaves)
        return d
    name = {Enter: "enter", Leaf: "leaf", Cutoff: "cutoff", Return: "return", Take: "take"}
    d.update(event=name[type(ev)], node=ev.node, path=list(labels.path(ev.node)),
             label=labels.label(ev.node), player="max" if tree.is_max(ev.node) else "min")
    if isinstance(ev, Enter):
        d.update(alpha=json_value(ev.alpha), beta=json_value(ev.beta))
    elif isinstance(ev, Leaf):
        d.update(value=ev.value, rank=ev.rank, parent_best=_maybe(ev.parent_best))
    elif isinstance(ev, Cutoff):
        d.update(value=json_value(ev.value), side=ev.side, bound=json_value(ev.bound),
                 skipped=list(ev.skipped), skipped_labels=[labels.label(c) for c in ev.skipped],
                 pruned_leaves=ev.pruned_leaves)
    elif isinstance(ev, Return):
        d.update(value=json_value(ev.value), kind=ev.kind, parent_best=_maybe(ev.parent_best))
    else:
        d.update(status=ev.state.status, h=json_value(ev.state.h), case=ev.case,
                 inserted=[state_dict(s, labels) for s in ev.inserted],
                 purged=[state_dict(s, labels) for s in ev.purged])
        if ev.case == 2:
            d.update(value=ev.leaf_value, rank=ev.rank)
        if ev.open is not None:
            d["open"] = [state_dict(s, labels) for s in ev.open]
    return d


def _maybe(v: Number | None) -> Number | str | None:
    return None if v is None else json_value(v)


__all__ = ["Cutoff", "Enter", "Event", "Labels", "Leaf", "Result", "Return", "Start", "State",
           "TRACERS", "Take", "event_dict", "event_text", "format_value", "json_value",
           "trace", "trace_text", "window_text"]
