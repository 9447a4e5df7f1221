"""What `gtsearch validate` reports about a tree: size, depth, branching, names, chance nodes, metadata."""

from __future__ import annotations

from typing import Any

from .tree import Tree


def summarize(tree: Tree) -> dict[str, Any]:
    """Counts and shape of ``tree`` as a flat dict (one pass over the nodes, no recursion)."""
    end, values = tree.end, tree.values
    size = len(end)
    internal = statics = 0
    bmin: int | None = None
    bmax = 0
    for n in range(size):
        stop = end[n]
        if stop == n + 1:
            continue
        internal += 1
        if values[n] == values[n]:  # NaN marks "no static value"
            statics += 1
        k = 0
        c = n + 1
        while c < stop:
            k += 1
            c = end[c]
        if bmin is None or k < bmin:
            bmin = k
        if k > bmax:
            bmax = k
    out: dict[str, Any] = {
        "nodes": size,
        "leaves": size - internal,
        "internal": internal,
        "depth": tree.max_depth(),
        "branching_min": bmin,
        "branching_mean": round((size - 1) / internal, 3) if internal else None,
        "branching_max": bmax if internal else None,
        "root": "max" if tree.root_max else "min",
        "names": len(tree.names),
        "static_values": statics,
        "title": tree.meta.title,
        "expect": tree.meta.expect,
    }
    if tree.has_chance:  # only then, so that the summary of a plain tree stays as it was
        out["chance_nodes"] = tree.chance_nodes()
        out["weighted"] = len(tree.weights)
    return out
