"""Seeded uniform trees: streamed to a file in any format, or built in memory.

A tree is named by its parameters (branching, depth, seed, model, value
range, order), so a benchmark or a bug report can say "b=4 d=11 seed 1" and
anyone gets the same tree, bit for bit: it is the ``random:`` source of the
same parameters (:mod:`.randomtree`; every model and order is defined in
docs/sources.md), written out node for node.

Regular *-minimax trees (Ballard's "regular" trees, ``chance`` C > 0): the
levels alternate between decision nodes and chance nodes; every decision
node has B children, each a chance node with C equally likely outcomes,
each outcome a decision node of the other player, and below the D-th level
of decision nodes the outcomes are the leaves.  So D decision levels put
the leaves at depth 2D, (B*C)**D of them (only ``random`` order: "best
first" has no meaning for an average).

Leaves are produced in preorder, so writing needs memory for one line of
pending siblings per level only, whatever the size of the tree.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO, TypedDict

from ..errors import UsageError
from ..tree import Tree, index_array
from .randomtree import LazyTree, RandomSpec, strong_p

if TYPE_CHECKING:
    from typing_extensions import Unpack

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


def check_params(branching: int, depth: int, lo: int, hi: int, order: str, chance: int = 0) -> None:
    if branching < 1:
        raise UsageError(f"--branching must be 1 or more, got {branching}")
    if depth < 0:
        raise UsageError(f"--depth must be 0 or more, got {depth}")
    if lo > hi:
        raise UsageError(f"--values LO:HI needs LO <= HI, got {lo}:{hi}")
    if order not in ORDERS and strong_p(order) is None:
        raise UsageError(
            f"--order must be one of {', '.join(ORDERS)} or strong:P (0 <= P <= 1), got {order!r}"
        )
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


class UniformParams(TypedDict, total=False):
    """What names a uniform tree besides its branching and depth: the keyword arguments of
    :func:`spec_of`, :func:`leaf_values`, :func:`uniform_tree` and :func:`write_uniform`,
    with the defaults of :class:`~.randomtree.RandomSpec` (seed 0, values -100..100, order
    random, no chance levels, model iid, p 0.5, k 1)."""

    seed: int
    lo: int
    hi: int
    order: str
    chance: int
    model: str
    p: float
    k: int


def spec_of(branching: int, depth: int, **params: Unpack[UniformParams]) -> RandomSpec:
    """The ``random:`` source of these parameters, checked as ``gen``'s options first."""
    spec = RandomSpec(branching, depth, checked=False, **params)
    check_params(branching, depth, spec.lo, spec.hi, spec.order, spec.chance)
    spec.check()
    return spec


def leaf_values(branching: int, depth: int, **params: Unpack[UniformParams]) -> Iterator[int]:
    """The leaf values of the uniform tree (with ``chance``: the regular *-minimax tree), left to right."""
    return LazyTree(spec_of(branching, depth, **params), max_nodes=2**62).leaf_values()


def uniform_tree(
    branching: int, depth: int, *, root_max: bool = True, **params: Unpack[UniformParams]
) -> Tree:
    """The same tree as :func:`write_uniform` writes, built straight into the flat arrays."""
    spec = spec_of(branching, depth, **params)
    chance = spec.chance
    name = f"gen b={branching} d={depth}" + (f" chance={chance}" if chance else "")
    source = f"{name} seed={spec.seed}"
    values = LazyTree(spec, max_nodes=2**62).leaf_values()
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
    chunk: int = 1 << 16,
    **params: Unpack[UniformParams],
) -> None:
    """Write the uniform tree's bare form to ``out``, streaming (constant memory).

    With ``chance``, the regular *-minimax tree: its chance nodes are the one
    thing written in the full form (``{"chance": [...]}``, ``(:chance ...)``).
    """
    opening, closing, sep = _SYNTAX[fmt]
    spec = spec_of(branching, depth, **params)
    chance = spec.chance
    values = LazyTree(spec, max_nodes=2**62).leaf_values()
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
