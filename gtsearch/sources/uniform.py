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


def check_params(branching: int, depth: int, lo: int, hi: int, order: str) -> None:
    if branching < 1:
        raise UsageError(f"--branching must be 1 or more, got {branching}")
    if depth < 0:
        raise UsageError(f"--depth must be 0 or more, got {depth}")
    if lo > hi:
        raise UsageError(f"--values LO:HI needs LO <= HI, got {lo}:{hi}")
    if order not in ORDERS:
        raise UsageError(f"--order must be one of {', '.join(ORDERS)}, got {order!r}")


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
) -> Iterator[int]:
    """The leaf values of the uniform tree, left to right."""
    check_params(branching, depth, lo, hi, order)
    core = native()
    key = _seed_key(seed, branching, depth, lo, hi)
    if core is not None and key is not None:
        values = core.UniformLeaves(branching, depth, key, lo, hi, ORDERS.index(order))
        while chunk := values.take(_CHUNK):
            yield from chunk
        return
    rng = random.Random(seed)
    if order == "random":
        draw = rng.randint
        for _ in range(branching**depth):
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
) -> Tree:
    """The same tree as :func:`write_uniform` writes, built straight into the flat arrays."""
    check_params(branching, depth, lo, hi, order)
    size = sum(branching**k for k in range(depth + 1))
    source = f"gen b={branching} d={depth} seed={seed}"
    core = native()
    key = _seed_key(seed, branching, depth, lo, hi)
    if core is not None and key is not None:
        wide = index_array(size).typecode == "q"
        end_arr, vals_arr = core.uniform_tree(
            branching, depth, key, lo, hi, ORDERS.index(order), wide
        )
        return Tree(end_arr, vals_arr, root_max=root_max, source=source, n_leaves=branching**depth)
    values = leaf_values(branching, depth, seed=seed, lo=lo, hi=hi, order=order)
    # subtree size by level, so end[] follows without a stack of open nodes
    sub = [1] * (depth + 1)
    for k in range(depth - 1, -1, -1):
        sub[k] = 1 + branching * sub[k + 1]
    end = index_array(size)
    vals = array("d")
    level_of: list[int] = [0]
    nan = float("nan")
    n = 0
    while level_of:
        k = level_of.pop()
        end.append(n + sub[k])
        if k == depth:
            vals.append(next(values))
        else:
            vals.append(nan)
            level_of.extend([k + 1] * branching)
        n += 1
    return Tree(end, vals, root_max=root_max, source=source, n_leaves=branching**depth)


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
) -> None:
    """Write the uniform tree's bare form to ``out``, streaming (constant memory)."""
    opening, closing, sep = _SYNTAX[fmt]
    values = leaf_values(branching, depth, seed=seed, lo=lo, hi=hi, order=order)
    parts: list[str] = []
    # remaining[k]: children still to write at level k of the open path
    remaining: list[int] = []
    level = 0
    while True:
        if level == depth:
            parts.append(str(next(values)))
        else:
            parts.append(opening)
            remaining.append(branching)
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
            parts.append(closing)
        else:
            break
        if len(parts) >= chunk:
            out.write("".join(parts))
            parts.clear()
    parts.append("\n")
    out.write("".join(parts))
