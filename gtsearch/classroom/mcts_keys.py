"""mcts's exercises: what a student can do by hand after k iterations of UCT, and the answers.

Given the search tree after ``iterations`` iterations (the root's visits,
each child's visits n and reward sum w), the student says which child UCB1
selects in the next iteration and its UCB value; then, told the leaf that
iteration reaches, the reward it backs up, the visits and mean reward of the
selected child afterwards, and the move the search would play then.  Every
answer is read off the trace of ``iterations + 1`` iterations
(:func:`gtsearch.algorithms.mcts_steps.mcts_steps`, the pure reference,
whose result the compiled core equals).  docs/classroom.md lists the questions.
"""

from __future__ import annotations

from typing import Any, cast

from ..algorithms import Algorithm
from ..algorithms.events import PHASES, Backup, Decide, Event, Playout, Select
from ..algorithms.mcts import DEFAULT_EXPLORATION
from ..algorithms.mcts_steps import mcts_steps
from ..algorithms.params import Params, leaf_bounds
from ..numbers import format_number
from ..tree import Tree
from .model import NUMERICAL, SHORT_ANSWER, Question

#: how far an answer asked to three decimals may lie from the exact value
TOLERANCE = 0.002
#: the least gap between the greatest UCB value and the next for a good exercise (no rounding
#: by hand can swap them)
UCB_GAP = 0.02


def next_iteration(tree: Tree, params: Params) -> tuple[list[Event], int]:
    """The events of ``params["iterations"] + 1`` iterations, and that last iteration's number."""
    k = int(cast(int, params.get("iterations")))
    events, _ = mcts_steps(tree, cast(Params, {**params, "iterations": k + 1}))
    return events, k + 1


def phase(events: list[Event], kind: type, iteration: int) -> Any:
    """The first event of ``kind`` (one of the four phases) in ``iteration``."""
    return next(
        ev
        for ev in events
        if isinstance(ev, PHASES) and isinstance(ev, kind) and ev.iteration == iteration
    )


def mcts_verdict(tree: Tree, params: Params) -> str | None:
    """Why the tree makes a poor mcts exercise (a child of the root not tried yet, or two UCB
    values too close to tell apart by hand), or None."""
    events, last = next_iteration(tree, params)
    select = next((ev for ev in events if isinstance(ev, Select) and ev.iteration == last), None)
    if select is None or select.node != 0:
        return "the root still has a child to try"
    ucbs = sorted((a.ucb for a in select.arms if a.ucb is not None), reverse=True)
    if len(ucbs) > 1 and ucbs[0] - ucbs[1] < UCB_GAP:
        return "two UCB values too close"
    return None


def r3(x: float) -> float:
    return round(x, 3)


def mcts_key(
    tree: Tree, algo: Algorithm, params: Params
) -> tuple[tuple[Question, ...], dict[str, Any]]:
    """The questions of one mcts exercise and their answers (the JSON output's ``answers``)."""
    names = tree.names
    root = names[0]
    events, last = next_iteration(tree, params)
    k = last - 1
    given = params.get("exploration")
    c = DEFAULT_EXPLORATION if given is None else float(given)
    lo, hi = leaf_bounds(tree, None)[0]
    select: Select = phase(events, Select, last)
    playout: Playout = phase(events, Playout, last)
    backup: Backup = phase(events, Backup, last)
    decide = events[-2]
    assert isinstance(decide, Decide) and decide.child is not None
    chosen = names[select.child]
    arm = next(a for a in backup.path if a.node == select.child)
    ucb = {names[a.node]: a.ucb for a in select.arms}
    best = ucb[chosen]
    assert best is not None
    c_text = "√2" if c == DEFAULT_EXPLORATION else format_number(c)
    state = ", ".join(f"{names[a.node]}: n = {a.visits}, w = {a.total:.3f}" for a in select.arms)
    shown = ", ".join(f"{name} {u:.3f}" for name, u in ucb.items() if u is not None)
    reached = names[playout.reached]
    value = format_number(playout.value)
    questions = (
        Question(
            "select",
            "UCB1's choice",
            SHORT_ANSWER,
            f"After {k} iterations of MCTS (UCT, exploration constant c = {c_text}) the root "
            f"{root} (MAX) has "
            f"n = {select.visits} visits, and its children, with their visits n and the sums w "
            f"of the rewards backed up through them (MAX's terms): {state}. Which child of "
            f"{root} does UCB1 select in iteration {last}?",
            f"{chosen} (UCB1: {shown})",
            accepted=(chosen,),
        ),
        Question(
            "ucb",
            "its UCB value",
            NUMERICAL,
            f"What is the UCB1 value of the child {root} selects in iteration {last}, "
            "q + c·√(ln n(parent) / n(child)) with c the exploration constant, to three "
            "decimals?",
            f"{best:.3f}",
            number=r3(best),
            tolerance=TOLERANCE,
        ),
        Question(
            "reward",
            "the reward",
            NUMERICAL,
            f"Iteration {last} ends at leaf {reached}, worth {value}. The rewards are the "
            f"values scaled by L = {format_number(lo)} and U = {format_number(hi)} (the least "
            "and greatest leaf): r = (v − L) / (U − L). What reward does the backup carry, "
            "to three decimals?",
            f"{playout.reward:.3f}",
            number=r3(playout.reward),
            tolerance=TOLERANCE,
        ),
        Question(
            "visits",
            "visits after the backup",
            NUMERICAL,
            f"How many visits does {chosen} have after the backup of iteration {last}?",
            str(arm.visits),
            number=arm.visits,
        ),
        Question(
            "mean",
            "mean reward after the backup",
            NUMERICAL,
            f"What is {chosen}'s mean reward w / n after that backup (MAX's terms), to three "
            "decimals?",
            f"{arm.total / arm.visits:.3f}",
            number=r3(arm.total / arm.visits),
            tolerance=TOLERANCE,
        ),
        Question(
            "move",
            "the move played",
            SHORT_ANSWER,
            f"If the search stopped after iteration {last}, which child of {root} would it "
            "play (the most visits, ties to the leftmost)?",
            names[decide.child],
            accepted=(names[decide.child],),
        ),
    )
    answers: dict[str, Any] = {
        "iterations": k,
        "exploration": c,
        "leaf_bounds": [lo, hi],
        "root_visits": select.visits,
        "children": [
            {"label": names[a.node], "visits": a.visits, "total": a.total, "ucb": a.ucb}
            for a in select.arms
        ],
        "select": tree.path_of(select.child),
        "select_label": chosen,
        "ucb": best,
        "leaf": tree.path_of(playout.reached),
        "leaf_label": reached,
        "leaf_value": playout.value,
        "reward": playout.reward,
        "visits": arm.visits,
        "mean": arm.total / arm.visits,
        "move": tree.path_of(decide.child),
        "move_label": names[decide.child],
    }
    return questions, answers


__all__ = ["TOLERANCE", "UCB_GAP", "mcts_key", "mcts_verdict", "next_iteration"]
