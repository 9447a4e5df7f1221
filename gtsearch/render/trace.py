"""The events of a step-by-step search as text lines and JSON objects (``gtsearch trace``).

Pure functions of the events of :mod:`gtsearch.algorithms.events` and the
tree: one line of text per step (numbered, indented by depth, OPEN after
SSS*/DUAL* steps) and one JSON object per step (the schema in docs/pictures.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..algorithms import events as kinds  # the kinds of event, kinds.Enter ...
from ..numbers import INF
from ..tree import Tree
from .labels import Labels, format_extended, json_value, param_texts, range_text
from .mcts import MCTS_NAMES, mcts_dict, mcts_text


def state_text(s: kinds.State, labels: Labels) -> str:
    return f"({labels.label(s.node)}, {s.status.upper()}, {format_extended(s.h)})"


def states_text(states: tuple[kinds.State, ...], labels: Labels) -> str:
    return " ".join(state_text(s, labels) for s in states) if states else "(empty)"


def event_text(
    ev: kinds.Event, labels: Labels, algorithm: str = "alphabeta", distinct: int | None = None
) -> str:
    """What one event says, in one line (no step number, no indentation).

    ``algorithm`` decides how a window reads: minimax has none, f1 one bound; ``distinct``:
    at the result, how many distinct leaves the evaluations read (Star2's probes and
    NegaScout's re-searches read some twice).
    """
    lab = labels.label
    if isinstance(ev, kinds.Start):
        if ev.open is not None:
            return "OPEN: " + states_text(ev.open, labels)
        return f"start at {lab(0)} ({labels.player(0)})"
    if isinstance(ev, kinds.Enter):
        text = f"enter {lab(ev.node)} ({labels.player(ev.node)})"
        window = window_text(ev, labels, algorithm)
        return f"{text}  {window}" if window else text
    if isinstance(ev, kinds.Leaf):
        text = f"leaf {lab(ev.node)} = {format_extended(ev.value)}  (leaf #{ev.rank})"
        return text + _parent_text(ev.node, ev.parent_best, labels)
    if isinstance(ev, kinds.Cutoff):
        who = lab(ev.node)
        above = labels.tree.parent[ev.node] if ev.node else -1
        if ev.side == "beta":
            why = f"{format_extended(ev.value)} ≥ β = {format_extended(ev.bound)}"
            reason = "MIN above will not allow this"
        else:
            why = f"{format_extended(ev.value)} ≤ α = {format_extended(ev.bound)}"
            reason = "MAX above has a better move"
        if not ev.node:
            reason = "the root's bound is reached"
        elif labels.tree.is_chance(above):
            reason = f"{lab(above)} cannot reach its window with this"
        skipped = ", ".join(lab(c) for c in ev.skipped)
        return f"cutoff at {who}: {why} ({reason}); skip {skipped} ({_leaves(ev)} pruned)"
    if isinstance(ev, kinds.Return):
        return f"return {lab(ev.node)} {return_text(ev)}" + _parent_text(
            ev.node, ev.parent_best, labels
        )
    if isinstance(ev, (kinds.Window, kinds.Probe, kinds.Probed, kinds.ChanceCutoff)):
        return chance_text(ev, labels)
    if isinstance(ev, kinds.Take):
        return f"take {state_text(ev.state, labels)}  case {ev.case}: " + _case_text(ev, labels)
    if isinstance(ev, (kinds.TableProbe, kinds.TableCut, kinds.TableOrder, kinds.TableStore)):
        return table_text(ev, labels)
    if isinstance(ev, kinds.MCTS_EVENTS):
        return mcts_text(ev, labels)
    if ev.bound == "estimate":  # mcts: a leaf is read once per playout, and again
        return (
            f"result: value ≈ {format_extended(ev.value)} (estimate), {ev.leaves} leaf evaluations"
        )
    rel = {None: "", "lower": "≥ ", "upper": "≤ "}[ev.bound]
    kind = "exact" if ev.bound is None else f"{ev.bound} bound"
    said = f"{ev.leaves} of {labels.tree.n_leaves} leaves evaluated"
    if distinct is not None and distinct != ev.leaves:  # some read twice: as the pictures say
        said = f"{distinct} of {labels.tree.n_leaves} leaves evaluated in {ev.leaves} evaluations"
    return f"result: value {rel}{format_extended(ev.value)} ({kind}), {said}"


def table_text(
    ev: kinds.TableProbe | kinds.TableCut | kinds.TableOrder | kinds.TableStore, labels: Labels
) -> str:
    """A step of the transposition table (``trace --tt``): a probe, a hit that cuts or only
    orders, a store."""
    lab = labels.label(ev.node)
    if isinstance(ev, kinds.TableOrder):
        return f"table orders {lab}: its move {_move(ev.node, ev.move, labels)} first (a hit)"
    if isinstance(ev, kinds.TableCut):
        said = range_text(ev.lower, ev.upper)
        return f"table cuts at {lab}: {said} decides it, {format_extended(ev.value)} handed up" + (
            _parent_text(ev.node, ev.parent_best, labels)
        )
    if isinstance(ev, kinds.TableProbe) and not ev.found:
        return f"probe {lab}: not in the table"
    assert ev.lower is not None and ev.upper is not None
    entry = (
        f"{range_text(ev.lower, ev.upper)}, draft {'∞' if ev.draft is None else ev.draft}, "
        f"move {_move(ev.node, ev.move, labels)}"
    )
    if isinstance(ev, kinds.TableProbe):
        return f"probe {lab}: found {entry}"
    return f"store {lab}: {entry}" + (" (overwrites another position's entry)" * ev.overwrite)


def _move(n: int, move: int, labels: Labels) -> str:
    return "none" if move < 0 else labels.label(labels.tree.child(n, move))


def return_text(ev: kinds.Return) -> str:
    """What a returning node is worth: what its leaves prove, as show draws it (``= 2``,
    ``≤ 2``, ``∈ [1, 2]``), and the value it hands up when the range does not say it."""
    if ev.lo is None or ev.hi is None:  # no leaf read below: the search's own word
        rel = {"exact": "=", "lower": "≥", "upper": "≤"}[ev.kind]
        return f"{rel} {format_extended(ev.value)} (no leaf read below it)"
    said = range_text(ev.lo, ev.hi)
    shown = (
        ev.value == ev.lo == ev.hi
        or ev.hi == INF
        and ev.value == ev.lo
        or ev.lo == -INF
        and ev.value == ev.hi
    )
    return said if shown else f"{said} (hands up {format_extended(ev.value)})"


def _parent_text(n: int, best: kinds.Value | None, labels: Labels) -> str:
    """What a value handed up does to its parent: a decision node's best so far, a chance
    node's weighted sum so far."""
    if best is None:
        return ""
    p = labels.tree.parent[n]
    what = "sum so far" if labels.tree.is_chance(p) else "best so far"
    return f"  {labels.label(p)}: {what} {format_extended(best)}"


def chance_text(
    ev: kinds.Window | kinds.Probe | kinds.Probed | kinds.ChanceCutoff, labels: Labels
) -> str:
    """The steps of Star1 and Star2 at chance nodes, in words."""
    lab = labels.label
    if isinstance(ev, kinds.Window):
        return (
            f"{lab(ev.node)}: outcome {lab(ev.child)} (p = {format_extended(ev.p)}): "
            f"a = {_edge_text('α', ev.a, ev.total, ev.rest_hi, ev.p)}, "
            f"b = {_edge_text('β', ev.b, ev.total, ev.rest_lo, ev.p)}; "
            f"window α = {format_extended(ev.alpha)}, β = {format_extended(ev.beta)}"
        )
    if isinstance(ev, kinds.Probe):
        bound = "a lower bound" if ev.side == "lower" else "an upper bound"
        return (
            f"probe {lab(ev.node)} ({labels.player(ev.node)}) for {bound}: its first child only, "
            f"α = {format_extended(ev.alpha)}, β = {format_extended(ev.beta)}"
        )
    if isinstance(ev, kinds.Probed):
        rel = "≥" if ev.side == "lower" else "≤"
        p = labels.tree.parent[ev.node]
        return (
            f"probed {lab(ev.node)} {rel} {format_extended(ev.value)}; {lab(p)} ∈ "
            f"[{format_extended(ev.low)}, {format_extended(ev.high)}]"
        )
    who = lab(ev.node)
    rel, edge, greek = ("≥", "b", "β") if ev.side == "beta" else ("≤", "a", "α")
    bound = f"{rel} {format_extended(ev.value)} {rel} {greek} = {format_extended(ev.bound)}"
    if ev.phase == "bounds":
        why = f"{who} {bound}: the leaf bounds alone decide"
    elif ev.phase == "probe":
        why = f"the probes give {who} {bound}"
    else:
        assert ev.child is not None and ev.child_value is not None and ev.edge is not None
        why = (
            f"{lab(ev.child)} = {format_extended(ev.child_value)} {rel} {edge} = "
            f"{format_extended(ev.edge)}, so {who} {bound}"
        )
    if not ev.skipped:
        return f"cutoff at {who}: {why}"
    skipped = ", ".join(lab(c) for c in ev.skipped)
    return f"cutoff at {who}: {why}; skip {skipped} ({_leaves(ev)} pruned)"


def _leaves(ev: kinds.Cutoff | kinds.ChanceCutoff) -> str:
    """The leaves a cutoff prunes: ``1 leaf``, ``3 leaves``."""
    n = ev.pruned_leaves
    return f"{n} leaf" if n == 1 else f"{n} leaves"


def _edge_text(
    greek: str, value: kinds.Value, total: kinds.Value, rest: kinds.Value, p: kinds.Value
) -> str:
    """How a window edge at a chance node comes about: ``(α - sum - rest) / p = value``."""
    if abs(value) == INF:
        return format_extended(value)
    terms = " - ".join(format_extended(x) for x in (total, rest))
    return f"({greek} - {terms}) / {format_extended(p)} = {format_extended(value)}"


def window_text(ev: kinds.Enter, labels: Labels, algorithm: str) -> str:
    """The window a node is entered with, as the algorithm sees it (minimax: none, f1: one bound)."""
    if algorithm in ("minimax", "expectiminimax"):
        return ""
    if algorithm == "f1":  # one bound: MAX nodes stop at beta, MIN nodes at alpha
        if labels.tree.is_max(ev.node):
            return f"bound β = {format_extended(ev.beta)}"
        return f"bound α = {format_extended(ev.alpha)}"
    return f"α = {format_extended(ev.alpha)}, β = {format_extended(ev.beta)}"


def _case_text(ev: kinds.Take, labels: Labels) -> str:
    lab = labels.label
    n = ev.node
    ins = states_text(ev.inserted, labels)
    if ev.case == 1:
        return f"the root is solved: value {format_extended(ev.state.h)}"
    if ev.case == 2:
        return (
            f"evaluate {lab(n)} = {format_extended(ev.leaf_value)} (leaf #{ev.rank}), insert {ins}"
        )
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
    if ev.inserted[0].status == kinds.LIVE:
        return f"{lab(p)} is {labels.player(p)}: next sibling, insert {ins}"
    return f"{lab(p)} is {labels.player(p)}: {lab(n)} was its last child, insert {ins}"


def trace_text(
    events: Iterator[kinds.Event], tree: Tree, algorithm: str, source: str
) -> Iterator[str]:
    """The trace as lines of text: a header, then one numbered line per step.

    Depth-first steps are indented by the node's depth; SSS*/DUAL* steps are
    followed by OPEN as it stands after them (when the events carry it).
    """
    labels = Labels(tree)
    depth = tree.depth
    who = tree.names.get(0)
    root = f"root {who} is " if who is not None else "root "
    yield (
        f"{algorithm} on {source}: {root}{labels.player(0)}, {tree.n_nodes} nodes, "
        f"{tree.n_leaves} leaves"
    )
    iteration = 0
    read: set[int] = set()  # the leaves evaluated, each once
    for step, ev in enumerate(events):
        if isinstance(ev, kinds.Leaf) or (isinstance(ev, kinds.Take) and ev.rank is not None):
            read.add(ev.node)
        if isinstance(ev, kinds.Start):
            if ev.params:
                yield "parameters: " + ", ".join(param_texts(ev.params, " = "))
            if ev.open is not None:
                yield f"{0:4d}  " + event_text(ev, labels)
            continue
        if isinstance(ev, kinds.Result):
            yield "      " + event_text(ev, labels, algorithm, len(read) or None)
            continue
        if isinstance(ev, kinds.PHASES) and ev.iteration != iteration:  # mcts: a heading
            iteration = ev.iteration
            yield f"      iteration {iteration}"
        indent = "" if isinstance(ev, kinds.Take) else "  " * depth[ev.node]
        yield f"{step:4d}  {indent}" + event_text(ev, labels, algorithm)
        if isinstance(ev, kinds.Take) and ev.open is not None:
            yield "      OPEN: " + states_text(ev.open, labels)


def state_dict(s: kinds.State, labels: Labels) -> dict[str, Any]:
    return {"node": s.node, "label": labels.label(s.node), "status": s.status, "h": json_value(s.h)}


def event_dict(ev: kinds.Event, step: int, labels: Labels) -> dict[str, Any]:
    """One event as a JSON object (the schema in docs/pictures.md)."""
    tree = labels.tree
    d: dict[str, Any] = {"step": step}
    if isinstance(ev, kinds.Start):
        d.update(
            event="start",
            algorithm=ev.algorithm,
            params={k: json_value(v) for k, v in ev.params.items()},
            root="max" if tree.root_max else "min",
            nodes=tree.n_nodes,
            leaves_total=tree.n_leaves,
        )
        if ev.open is not None:
            d["open"] = [state_dict(s, labels) for s in ev.open]
        return d
    if isinstance(ev, kinds.Result):
        d.update(
            event="result",
            value=json_value(ev.value),
            exact=ev.bound is None,
            bound=ev.bound,
            leaves=ev.leaves,
            leaves_total=tree.n_leaves,
        )
        return d
    d.update(
        event=EVENT_NAMES[type(ev)],
        node=ev.node,
        path=list(labels.path(ev.node)),
        label=labels.label(ev.node),
        player=labels.player(ev.node).lower(),
    )
    if isinstance(ev, kinds.MCTS_EVENTS):
        return mcts_dict(ev, d, labels)
    if isinstance(ev, kinds.Enter):
        d.update(alpha=json_value(ev.alpha), beta=json_value(ev.beta))
    elif isinstance(ev, kinds.Leaf):
        d.update(value=ev.value, rank=ev.rank, parent_best=_maybe(ev.parent_best))
    elif isinstance(ev, (kinds.Cutoff, kinds.ChanceCutoff)):
        # what stopped the node, (at a chance node: how), and what it skipped
        d.update(value=json_value(ev.value), side=ev.side, bound=json_value(ev.bound))
        if isinstance(ev, kinds.ChanceCutoff):
            d.update(
                phase=ev.phase,
                child=ev.child,
                child_value=_maybe(ev.child_value),
                edge=_maybe(ev.edge),
            )
        d.update(
            skipped=list(ev.skipped),
            skipped_labels=[labels.label(c) for c in ev.skipped],
            pruned_leaves=ev.pruned_leaves,
        )
    elif isinstance(ev, kinds.Return):
        d.update(value=json_value(ev.value), kind=ev.kind, parent_best=_maybe(ev.parent_best))
        if ev.lo is not None:
            d.update(lo=json_value(ev.lo), hi=json_value(ev.hi))
    elif isinstance(ev, kinds.Window):
        d.update(
            child=ev.child,
            child_label=labels.label(ev.child),
            p=json_value(ev.p),
            total=json_value(ev.total),
            rest_lo=json_value(ev.rest_lo),
            rest_hi=json_value(ev.rest_hi),
            a=json_value(ev.a),
            b=json_value(ev.b),
            alpha=json_value(ev.alpha),
            beta=json_value(ev.beta),
        )
    elif isinstance(ev, kinds.Probe):
        d.update(
            chance=ev.chance, side=ev.side, alpha=json_value(ev.alpha), beta=json_value(ev.beta)
        )
    elif isinstance(ev, kinds.Probed):
        d.update(
            value=json_value(ev.value),
            side=ev.side,
            low=json_value(ev.low),
            high=json_value(ev.high),
        )
    elif isinstance(ev, kinds.TableProbe):
        d.update(found=ev.found)
        if ev.found:
            d.update(_entry_dict(ev, labels))
    elif isinstance(ev, kinds.TableCut):
        d.update(
            value=json_value(ev.value),
            lower=json_value(ev.lower),
            upper=json_value(ev.upper),
            parent_best=_maybe(ev.parent_best),
        )
    elif isinstance(ev, kinds.TableOrder):
        d.update(move=ev.move, move_label=labels.label(tree.child(ev.node, ev.move)))
    elif isinstance(ev, kinds.TableStore):
        d.update(_entry_dict(ev, labels), overwrite=ev.overwrite)
    else:
        d.update(
            status=ev.state.status,
            h=json_value(ev.state.h),
            case=ev.case,
            inserted=[state_dict(s, labels) for s in ev.inserted],
            purged=[state_dict(s, labels) for s in ev.purged],
        )
        if ev.case == 2:
            d.update(value=ev.leaf_value, rank=ev.rank)
        if ev.open is not None:
            d["open"] = [state_dict(s, labels) for s in ev.open]
    return d


def _entry_dict(ev: kinds.TableProbe | kinds.TableStore, labels: Labels) -> dict[str, Any]:
    """A table entry's keys: bounds, draft ("+inf": to the leaves) and best move (-1: none)."""
    return {
        "lower": json_value(ev.lower),
        "upper": json_value(ev.upper),
        "draft": json_value(INF) if ev.draft is None else ev.draft,
        "move": ev.move,
        "move_label": None if ev.move < 0 else labels.label(labels.tree.child(ev.node, ev.move)),
    }


def _maybe(v: kinds.Value | None) -> Any:
    return None if v is None else json_value(v)


#: the ``event`` key of each kind of step
EVENT_NAMES: dict[type, str] = {
    kinds.Enter: "enter",
    kinds.Leaf: "leaf",
    kinds.Cutoff: "cutoff",
    kinds.Return: "return",
    kinds.Take: "take",
    kinds.Window: "window",
    kinds.Probe: "probe",
    kinds.Probed: "probed",
    kinds.ChanceCutoff: "chance_cutoff",
    kinds.TableProbe: "tt_probe",
    kinds.TableCut: "tt_cut",
    kinds.TableOrder: "tt_order",
    kinds.TableStore: "tt_store",
    **MCTS_NAMES,
}
