"""The ``trap`` model of ``random:`` sources: shallow search traps (docs/sources.md).

After Ramanujan, Sabharwal & Selman, "On Adversarial Search Spaces and
Sampling-Based Planning" (ICAPS 2010): a move is a *level-k trap* when the
opponent has a strategy that decides the game against the mover within k
plies.  Here a node carries a state handed down from its parent:

- FREE: no trap above.  Where the mover has at least k + 1 levels below it,
  one child (``safe``) stays FREE and each other child is a trap with
  probability p: a TRAP(k) against the mover.
- TRAP(r) against player P, r plies of the opponent's strategy left: the
  opponent's node has one refutation (child TRAP(r - 1)), its other children
  are GOOD for P (the bait a random playout mostly finds); P's node has
  every child TRAP(r - 1).  TRAP(0) is LOST for P: every leaf below is P's
  worst value.
- GOOD for P: every leaf below is drawn from P's better half.

A state is ``(kind, player, r)``: kind FREE, TRAP (r = 0 is lost) or GOOD,
player 0 for MAX, 1 for MIN (MAX moves at even levels, as the orders
assume).  The compiled core computes the same (random_source.c).
"""

from __future__ import annotations

from .splitmix import draw, integer, unit

FREE, TRAP, GOOD = 0, 1, 2
State = tuple[int, int, int]
ROOT: State = (FREE, 0, 0)


def child_state(
    state: State, key: int, level: int, i: int, b: int, d: int, p: float, k: int
) -> State:
    """The state of child i of the node of key ``key`` at ``level`` (of ``d``) in ``state``."""
    kind, player, r = state
    mover = level % 2
    if kind == FREE:
        if d - level < k + 1 or i == integer(draw(key, 1), 0, b - 1):
            return ROOT
        return (TRAP, mover, k) if unit(draw(key, 2 + i)) < p else ROOT
    if kind == TRAP and r > 0:
        if mover == player or i == integer(draw(key, 1), 0, b - 1):
            return (TRAP, player, r - 1)
        return (GOOD, player, 0)
    return state


def leaf_value(state: State, key: int, lo: int, hi: int) -> int:
    """A leaf's value in its state: lost is the worst for the trapped player, good from their
    better half, free in [lo + 1, hi - 1]."""
    kind, player, r = state
    mid = lo + (hi - lo) // 2
    if kind == TRAP:  # r = 0 at the leaves: the strategy fits above them
        return lo if player == 0 else hi
    x = draw(key, 0)
    if kind == GOOD:
        return integer(x, mid, hi - 1) if player == 0 else integer(x, lo + 1, mid)
    return integer(x, lo + 1, hi - 1)


def is_trap(state: State) -> bool:
    """Whether a node in this state is a planted trap (or below one)."""
    return state[0] == TRAP


__all__ = ["FREE", "GOOD", "ROOT", "TRAP", "child_state", "is_trap", "leaf_value"]
