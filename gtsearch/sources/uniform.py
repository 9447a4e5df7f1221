"""Seeded uniform trees: streamed to a file in any format, or built in memory.

A tree is named by its parameters (branching, depth, seed, value range,
order), so a benchmark or a bug report can say "b=4 d=11 seed 1" and anyone
gets the same tree, bit for bit: the leaf values come from Python's
``random.Random(seed)``, whose integer stream is stable across versions.

Orders:
- ``random``: every leaf drawn independently from [lo, hi].
- ``best``: children sorted best-first for the player to move (Knuth &
  Moore's perfectly ordered tree; alpha-beta then evaluates exactly the
  minimal tree).  Built top-down: a node worth v gives its first child v and
  the others values no better for the mover, drawn from the range and sorted.
- ``worst``: the same with the children in the opposite order (best last).

Regular *-minimax trees (Ballard's "regular" trees, ``chance`` C > 0): the
levels alternate between decision nodes and chance nodes; every decision
node has B children, each a chance node with C equally likely outcomes,
each outcome a decision node of the other player, and below the D-th level
of decision nodes the outcomes are the leaves.  So D decision levels put
the leaves at depth 2D, (B*C)**D of them, drawn like a random tree's (only
``random`` order: "best first" has no meaning for an average).

Leaves are produced in preorder, so writing needs memory for one line of
pending siblings per level only, whatever the size of the tree.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator
from typing import TextIO

from ..core import native
from ..errors import UsageError
from ..tree import Tree, index_array

ORDERS = ("random", "best", "worst")

#: how the three formats spell the bare form
_SYNTAX = {
    "json": ("[", "]", ","),
    "yaml": ("[", "]", ", "),
    "sexp": ("(", ")", " "),
}
#: and a chance node whose outcomes are equally likely
_CHANCE = {
    "json": ('{"chance":[', "]}"),
    "yaml": ("{chance: [", "]}"),
    "sexp": ("(:chance ", ")"),
}


def parse_value_range(text: str) -> tuple[int, int]:
    """``--values LO:HI`` as two integers (the order is checked by :func:`check_params`)."""
    lo, sep, hi = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(lo), int(hi)
    except ValueError:
        raise UsageError(
            f"--values takes LO:HI with two integers, e.g. -100:100, got {text!r}"
        ) from None


def check_params(branching: int, depth: int, lo: int, hi: int, order: str, chance: int = 0) -> None:
    if branching < 1:
        raise UsageError(f"--branching must be 1 or more, got {branching}")
    if depth < 0:
        raise UsageError(f"--depth must be 0 or more, got {depth}")
    if lo > hi:
        raise UsageError(f"--values LO:HI needs LO <= HI, got {lo}:{hi}")
    if order not in ORDERS:
        raise UsageError(f"--order must be one of {', '.join(ORDERS)}, got {order!r}")
    if chance < 0:
        raise UsageError(f"--chance must be 1 or more (outcomes per chance node), got {chance}")
    if chance and order != "random":
        raise UsageError(
            f"--order {order} orders the children of decision nodes by value; trees with "
            "--chance are random: drop --order"
        )


def levels(branching: int, depth: int, chance: int = 0) -> list[int]:
    """The children of a node at each level, from the root to the leaves (which have none).

    A uniform tree has ``branching`` at every level above the leaves; a regular
    *-minimax tree (``chance`` > 0) alternates ``branching`` (decision nodes) and
    ``chance`` (chance nodes) over ``depth`` decision levels, 2 * depth levels in all.
    """
    if not chance:
        return [branching] * depth + [0]
    return [branching, chance] * depth + [0]


def leaf_count(branching: int, depth: int, chance: int = 0) -> int:
    return int((branching * max(chance, 1)) ** depth)


#: the compiled generator draws from values, ranges and counts that fit in 62 bits
_NATIVE_LIMIT = 2**62
#: leaf values handed over by the compiled generator at a time (constant memory)
_CHUNK = 1 << 16


def _seed_key(seed: int, branching: int, depth: int, lo: int, hi: int) -> bytes | None:
    """The seed as random.Random(seed) takes it (the 32-bit words of abs(seed), little-endian).

    None when the compiled generator is not for these parameters (a seed that is
    not an int, values or sizes beyond 62 bits): the Python generator runs.
    """
    if type(seed) is not int or not -_NATIVE_LIMIT <= lo <= hi <= _NATIVE_LIMIT:
        return None
    if hi - lo >= _NATIVE_LIMIT:
        return None
    if branching**depth >= _NATIVE_LIMIT:
        return None
    n = abs(seed)
    return n.to_bytes(4 * max(1, (n.bit_length() + 31) // 32), "little")


def leaf_values(
    branching: int,
    depth: int,
    *,
    seed: int = 0,
    lo: int = -100,
    hi: int = 100,
    order: str = "random",
    chance: int = 0,
) -> Iterator[int]:
    """The leaf values of the uniform tree (with ``chance``: the regular *-minimax tree), left to right."""
    check_params(branching, depth, lo, hi, order, chance)
    core = native()
    # a regular *-minimax tree's leaves are drawn as a random uniform tree's of B*C children
    width = branching * max(chance, 1)
    key = _seed_key(seed, width, depth, lo, hi)
    if core is not None and key is not None:
        values = core.UniformLeaves(width, depth, key, lo, hi, ORDERS.index(order))
        while chunk := values.take(_CHUNK):
            yield from chunk
        return
    rng = random.Random(seed)
    if order == "random":
        draw = rng.randint
        for _ in range(leaf_count(branching, depth, chance)):
            yield draw(lo, hi)
        return
    best = order == "best"
    # pending[k]: the values still to hand to the nodes of level k (a stack per level)
    pending: list[list[int]] = [[rng.randint(lo, hi)]]
    is_max = [True]
    while pending:
        level = len(pending) - 1
        if not pending[level]:
            pending.pop()
            is_max.pop()
            continue
        v = pending[level].pop()
        if level == depth:
            yield v
            continue
        mover_max = is_max[level]
        if mover_max:  # the others are no better for MAX: <= v
            others = sorted((rng.randint(lo, v) for _ in range(branching - 1)), reverse=True)
        else:  # the others are no better for MIN: >= v
            others = sorted(rng.randint(v, hi) for _ in range(branching - 1))
        kids = [v, *others] if best else [*reversed(others), v]
        pending.append(kids[::-1])  # popped from the end: first child first
        is_max.append(not mover_max)


def uniform_tree(
    branching: int,
    depth: int,
    *,
    seed: int = 0,
    lo: int = -100,
    hi: int = 100,
    order: str = "random",
    root_max: bool = True,
    chance: int = 0,
) -> Tree:
    """The same tree as :func:`write_uniform` writes, built straight into the flat arrays."""
    check_params(branching, depth, lo, hi, order, chance)
    name = f"gen b={branching} d={depth}" + (f" chance={chance}" if chance else "")
    source = f"{name} seed={seed}"
    core = native()
    key = _seed_key(seed, branching, depth, lo, hi)
    if core is not None and key is not None and not chance:
        size = sum(branching**k for k in range(depth + 1))
        wide = index_array(size).typecode == "q"
        end_arr, vals_arr = core.uniform_tree(
            branching, depth, key, lo, hi, ORDERS.index(order), wide
        )
        return Tree(end_arr, vals_arr, root_max=root_max, source=source, n_leaves=branching**depth)
    values = leaf_values(branching, depth, seed=seed, lo=lo, hi=hi, order=order, chance=chance)
    kids = levels(branching, depth, chance)
    top = len(kids) - 1
    # subtree size by level, so end[] follows without a stack of open nodes
    sub = [1] * len(kids)
    for k in range(top - 1, -1, -1):
        sub[k] = 1 + kids[k] * sub[k + 1]
    end = index_array(sub[0])
    vals = array("d")
    marks = bytearray(sub[0]) if chance else None
    level_of: list[int] = [0]
    nan = float("nan")
    n = 0
    while level_of:
        k = level_of.pop()
        end.append(n + sub[k])
        if k == top:
            vals.append(next(values))
        else:
            vals.append(nan)
            level_of.extend([k + 1] * kids[k])
            if marks is not None and k % 2:
                marks[n] = 1
        n += 1
    return Tree(
        end,
        vals,
        root_max=root_max,
        source=source,
        n_leaves=leaf_count(branching, depth, chance),
        chance=marks,
    )


def write_uniform(
    out: TextIO,
    branching: int,
    depth: int,
    fmt: str = "json",
    *,
    seed: int = 0,
    lo: int = -100,
    hi: int = 100,
    order: str = "random",
    chunk: int = 1 << 16,
    chance: int = 0,
) -> None:
    """Write the uniform tree's bare form to ``out``, streaming (constant memory).

    With ``chance``, the regular *-minimax tree: its chance nodes are the one
    thing written in the full form (``{"chance": [...]}``, ``(:chance ...)``).
    """
    opening, closing, sep = _SYNTAX[fmt]
    values = leaf_values(branching, depth, seed=seed, lo=lo, hi=hi, order=order, chance=chance)
    kids = levels(branching, depth, chance)
    top = len(kids) - 1
    openings = [_CHANCE[fmt][0] if chance and k % 2 else opening for k in range(top)]
    closings = [_CHANCE[fmt][1] if chance and k % 2 else closing for k in range(top)]
    parts: list[str] = []
    # remaining[k]: children still to write at level k of the open path
    remaining: list[int] = []
    level = 0
    while True:
        if level == top:
            parts.append(str(next(values)))
        else:
            parts.append(openings[level])
            remaining.append(kids[level])
            level += 1
            continue
        # climb until a level has a next sibling to write
        while remaining:
            remaining[-1] -= 1
            if remaining[-1]:
                parts.append(sep)
                break
            remaining.pop()
            level -= 1
            parts.append(closings[level])
        else:
            break
        if len(parts) >= chunk:
            out.write("".join(parts))
            parts.clear()
    parts.append("\n")
    out.write("".join(parts))
