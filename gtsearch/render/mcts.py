"""MCTS's steps and search tree as text and JSON: what trace, show and the replay say of UCT.

Pure functions of the events of :mod:`gtsearch.algorithms.events` (Select,
Expand, Playout, Backup, Decide): one line of text per phase and one JSON
object per phase (the schema in docs/pictures.md).  Rewards and means are in
[0, 1], printed with three decimals in text and in full in JSON; a mean q is
the reward of the player who moves at the parent (MAX's w / n below a MAX
node, 1 - w / n below a MIN node), as UCB1 compares it.
"""

from __future__ import annotations

from typing import Any

from ..algorithms import events as kinds
from .labels import ARROW, Labels, format_extended, json_value

#: the ``event`` key of each phase
MCTS_NAMES: dict[type, str] = {
    kinds.Select: "select",
    kinds.Expand: "expand",
    kinds.Playout: "playout",
    kinds.Backup: "backup",
    kinds.Decide: "decide",
}


def r3(x: float) -> str:
    """A reward, a mean or a UCB value in text: three decimals."""
    return f"{x:.3f}"


def mover_mean(labels: Labels, parent: int, arm: kinds.Arm) -> float:
    """The mean reward of the player who moves at ``parent`` into ``arm``'s node."""
    mean = arm.total / arm.visits if arm.visits else 0.0
    return mean if labels.tree.is_max(parent) else 1.0 - mean


def player(labels: Labels, n: int) -> str:
    """MAX, MIN, CHANCE, or leaf."""
    return "leaf" if labels.tree.is_leaf(n) else labels.player(n)


def arm_text(labels: Labels, parent: int, arm: kinds.Arm) -> str:
    """One child compared by UCB: ``B (n=1, q=0.500, UCB 1.982)``."""
    q = mover_mean(labels, parent, arm)
    ucb = "" if arm.ucb is None else f", UCB {r3(arm.ucb)}"
    return f"{labels.label(arm.node)} (n={arm.visits}, q={r3(q)}{ucb})"


def tally_text(labels: Labels, arm: kinds.Arm) -> str:
    """A node after a backup: ``B n=2 w=0.583``."""
    return f"{labels.label(arm.node)} n={arm.visits} w={r3(arm.total)}"


def mcts_text(ev: kinds.Event, labels: Labels) -> str:
    """What one phase says, in one line."""
    lab = labels.label
    if isinstance(ev, kinds.Select):
        where = f"{lab(ev.node)} ({player(labels, ev.node)}, n={ev.visits})"
        if not ev.arms:
            return f"select at {where}: outcome {lab(ev.child)} drawn"
        arms = ", ".join(arm_text(labels, ev.node, a) for a in ev.arms)
        return f"select at {where}: {arms}; greatest UCB: {lab(ev.child)}"
    if isinstance(ev, kinds.Expand):
        return f"expand {lab(ev.node)} ({player(labels, ev.node)}): it enters the search tree"
    if isinstance(ev, kinds.Playout):
        value = format_extended(ev.value)
        if ev.rank is None:
            what = f"static value {value}"
        else:
            what = f"= {value} (leaf #{ev.rank})"
        if not ev.moves and ev.rank is not None:
            return f"no playout: {lab(ev.reached)} is a leaf {what}, reward {r3(ev.reward)}"
        moves = ARROW.join(lab(m) for m in (ev.node, *ev.moves))
        return f"playout: {moves} {what}, reward {r3(ev.reward)}"
    if isinstance(ev, kinds.Backup):
        path = ", ".join(tally_text(labels, a) for a in ev.path)
        return f"backup {r3(ev.reward)}: {path}"
    if isinstance(ev, kinds.Decide):
        if ev.child is None:
            return "final move: none (the root is a leaf or a chance node)"
        visits = ", ".join(f"{lab(a.node)} {a.visits}" for a in ev.arms)
        pv = ARROW.join(pv_moves(labels, ev.pv))
        return f"final move: {lab(ev.child)} (most visits: {visits}); PV by visits {pv}"
    raise TypeError(f"not an event of mcts: {ev!r}")


def arm_dict(labels: Labels, parent: int | None, arm: kinds.Arm) -> dict[str, Any]:
    """A node of the search tree in JSON: visits, total, mean (MAX's terms), and the mover's
    mean and UCB when a selection compared it (``parent`` the node it was compared at)."""
    d: dict[str, Any] = {
        "node": arm.node,
        "label": labels.label(arm.node),
        "visits": arm.visits,
        "total": arm.total,
        "mean": arm.total / arm.visits if arm.visits else None,
    }
    if parent is not None and arm.ucb is not None:
        d.update(q=mover_mean(labels, parent, arm), ucb=json_value(arm.ucb))
    return d


def pv_moves(labels: Labels, pv: Any) -> list[str]:
    """A PV of nodes as its moves' names (a game's own labels), else the nodes' labels."""
    moves = labels.tree.line_labels(pv)
    return [labels.label(n) if m is None else m for n, m in zip(pv[1:], moves, strict=True)]


def named(key: str, n: int, labels: Labels) -> dict[str, Any]:
    """A node under ``key`` and its label under ``key_label`` (``child``, ``child_label``)."""
    return {key: n, f"{key}_label": labels.label(n)}


def mcts_dict(ev: kinds.Event, d: dict[str, Any], labels: Labels) -> dict[str, Any]:
    """The keys one phase adds to its JSON object (``d``: step, event, node, path, label)."""
    lab = labels.label
    if isinstance(ev, kinds.Decide):
        d.update(
            arms=[arm_dict(labels, None, a) for a in ev.arms],
            child=ev.child,
            child_label=None if ev.child is None else lab(ev.child),
            pv=list(ev.pv),
            pv_labels=pv_moves(labels, ev.pv),
        )
        return d
    if not isinstance(ev, (kinds.Select, kinds.Expand, kinds.Playout, kinds.Backup)):
        raise TypeError(f"not an event of mcts: {ev!r}")
    d["iteration"] = ev.iteration
    if isinstance(ev, kinds.Select):
        arms = [arm_dict(labels, ev.node, a) for a in ev.arms]
        d.update(visits=ev.visits, arms=arms, **named("child", ev.child, labels))
    elif isinstance(ev, kinds.Playout):
        d.update(moves=list(ev.moves), **named("reached", ev.reached, labels))
        d.update(value=json_value(ev.value), reward=ev.reward, rank=ev.rank)
    elif isinstance(ev, kinds.Backup):
        d.update(reward=ev.reward, updated=[arm_dict(labels, None, a) for a in ev.path])
    return d


__all__ = ["MCTS_NAMES", "arm_text", "mcts_dict", "mcts_text", "mover_mean", "r3"]
