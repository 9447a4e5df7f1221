"""Full minimax as a vectorised bottom-up pass over the flat tree (numpy).

Minimax evaluates every leaf whatever their values, so its leaves, their
order (preorder: left to right) and its value do not depend on the order in
which the values are combined.  This pass combines them level by level with
``np.maximum.reduceat``/``np.minimum.reduceat`` instead of node by node, and
picks the PV with the same rule as the node-by-node search (at every node the
first child whose value equals the node's), so both report the same result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..flat import as_numpy
from ..tree import Tree
from .base import Outcome, Stats

if TYPE_CHECKING:  # a bare np.ndarray fails mypy --strict under numpy < 2.3 (Python 3.10)
    from numpy.typing import NDArray

#: deeper trees are searched node by node: the passes here cost one numpy call per level
MAX_LEVELS = 4096


def node_values(tree: Tree) -> NDArray[Any]:
    """The minimax value (MAX's terms) of every node, as float64."""
    end = as_numpy(tree.end)
    vals = as_numpy(tree.values).copy()
    size = len(end)
    depth = as_numpy(tree.depth)  # kept by the fast reader, else built with numpy
    # nodes by level, preorder inside a level (a stable sort on 16 bits is a radix sort)
    order = np.argsort(
        depth.astype(np.uint16) if size and depth.max() < 2**16 else depth, kind="stable"
    )
    counts = np.bincount(depth)
    starts = np.concatenate(([0], np.cumsum(counts)))
    leaf = end == np.arange(1, size + 1)
    for d in range(len(counts) - 2, -1, -1):
        level = order[starts[d] : starts[d + 1]]
        parents = level[~leaf[level]]
        if not len(parents):
            continue
        below = order[starts[d + 1] : starts[d + 2]]
        # the children of the parents, in order, are exactly the next level's
        # nodes; each parent's run starts where its first child (parent + 1) is
        first = np.searchsorted(below, parents + 1)
        is_max = tree.root_max == (d % 2 == 0)
        reduce = np.maximum if is_max else np.minimum
        vals[parents] = reduce.reduceat(vals[below], first)
    return np.asarray(vals)


def minimax_levels(tree: Tree, stats: Stats) -> Outcome:
    """Knuth's F(p) by levels: every leaf, the value, and the leftmost PV."""
    values = node_values(tree)
    end = tree.end
    size = len(end)
    endarr = as_numpy(end)
    stats.leaves = np.flatnonzero(endarr == np.arange(1, size + 1))  # type: ignore[assignment]
    stats.nodes += size
    v = float(values[0])
    line = [0]
    n = 0
    while end[n] != n + 1:
        c = n + 1
        while values[c] != v:
            c = end[c]
        line.append(c)
        n = c
    return Outcome(v, pv=line)
