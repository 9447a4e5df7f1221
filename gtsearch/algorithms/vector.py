"""Full minimax as a vectorised bottom-up pass over the flat tree (numpy).

Minimax evaluates every leaf whatever their values, so its leaves, their
order (preorder: left to right) and its value do not depend on the order in
which the values are combined.  This pass combines them level by level with
``np.maximum.reduceat``/``np.minimum.reduceat`` instead of node by node, and
picks the PV with the same rule as the node-by-node search (at every node the
first child whose value equals the node's), so both report the same result.
"""

from __future__ import annotations

import numpy as np

from ..tree import Tree
from .base import Outcome, Stats


def depths(end: np.ndarray) -> np.ndarray:
    """Depth of every node of a preorder tree given its ``end`` array."""
    size = len(end)
    idx = np.arange(size, dtype=np.int64)
    internal = idx[end != idx + 1]
    delta = np.bincount(internal + 1, minlength=size + 1) - np.bincount(end[internal], minlength=size + 1)
    return np.cumsum(delta[:size], dtype=np.int32)


def node_values(tree: Tree) -> np.ndarray:
    """The minimax value (MAX's terms) of every node, as float64."""
    end = np.frombuffer(tree.end, dtype=np.int32 if tree.end.itemsize == 4 else np.int64)
    vals = np.frombuffer(tree.values, dtype=np.float64).copy()
    size = len(end)
    depth = depths(end)
    order = np.argsort(depth, kind="stable")  # nodes by level, preorder inside a level
    counts = np.bincount(depth)
    starts = np.concatenate(([0], np.cumsum(counts)))
    leaf = end == np.arange(1, size + 1)
    for d in range(len(counts) - 2, -1, -1):
        level = order[starts[d]:starts[d + 1]]
        parents = level[~leaf[level]]
        if not len(parents):
            continue
        below = order[starts[d + 1]:starts[d + 2]]
        # the children of the parents, in order, are exactly the next level's
        # nodes; each parent's run starts where its first child (parent + 1) is
        first = np.searchsorted(below, parents + 1)
        is_max = tree.root_max == (d % 2 == 0)
        reduce = np.maximum if is_max else np.minimum
        vals[parents] = reduce.reduceat(vals[below], first)
    return vals


def minimax_levels(tree: Tree, stats: Stats) -> Outcome:
    """Knuth's F(p) by levels: every leaf, the value, and the leftmost PV."""
    values = node_values(tree)
    end = tree.end
    size = len(end)
    endarr = np.frombuffer(end, dtype=np.int32 if end.itemsize == 4 else np.int64)
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
