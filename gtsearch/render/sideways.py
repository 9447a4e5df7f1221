"""The tree on its side (``--layout sideways``): the lowest picture of a tree, made for a slide.

The root is at the left.  Every node is a row (gtsearch.render.painter: a small
mark, or a leaf's box, with its texts after it); a node's first child sits on
its parent's row, to its right, the others on the rows below, along a spine;
the nodes of one depth line up in a column.  A node whose children are all
leaves (or nodes whose children are hidden) has them in its own row, one
after the other, lined up from row to row like the cells of a table: a
uniform tree of depth d has one row for each node of depth d - 1 (nine for
b=3 d=3).

Each child's edge is a line of its own, as in a column: along the row from
its parent's last text (the first child), down the spine from its previous
sibling's row (the others; the PV's from its parent's row, so that it is drawn
whole).  The leaves of a row hang from a fork above them, as a tree's leaves
hang from their parent: the first leaf's edge goes from the parent along the
row, up to the fork and down on to the leaf's box, each other leaf's along the
fork from the leaf before it (the PV's from the parent); a row with a fork
stands ``RISE`` lower to make room for it.  (The leaves were a chain, each
edge from the leaf before: it read as a path, not as siblings.)
"""

from __future__ import annotations

from .geometry import Items, Line, crosses
from .painter import PITCH, TICK, Painter

#: between a node's last text and the spine of its children
LEAD = 5.0
#: between the leaves of a row: two labels of different nodes stand LABEL_GAP apart
CELL = 8.0
#: the room a row of leaves needs above it for its fork, and how far above the boxes it runs
RISE = 1.0
FORK = 1.5


def sideways_items(pt: Painter, nodes: list[int], top: float) -> Items:
    """Every node placed on its row, the first row's centre at ``top``, the root's at x 0."""
    parent = pt.tree.parent
    depth = pt.tree.depth
    root = nodes[0]
    # the parents of rows of leaves, and each leaf's place in its row
    inline = {p for p in nodes if pt.kids[p] and all(not pt.kids[k] for k in pt.kids[p])}
    index = {k: i for p in nodes for i, k in enumerate(pt.kids[p])}
    row = {root: 0}
    rows = 0
    for n in nodes[1:]:
        if parent[n] not in inline and index[n]:
            rows += 1
        row[n] = rows if parent[n] not in inline and index[n] else row[parent[n]]
    # each row's centre: a row with a fork stands RISE lower
    forked = {row[p] for p in inline}
    row_y = []
    y = top
    for r in range(rows + 1):
        y += RISE if r in forked else 0.0
        row_y.append(y)
        y += PITCH
    # the leaves of the rows, cell by cell: (depth, index) -> the leaves
    cells: dict[tuple[int, int], list[int]] = {}
    for n in nodes[1:]:
        if parent[n] in inline:
            cells.setdefault((depth[n], index[n]), []).append(n)
    slots = {cell: pt.slots(leaves) for cell, leaves in cells.items()}

    def slot(n: int) -> tuple[float, float] | None:
        if n == root:
            return pt.slots([root])
        return slots[depth[n], index[n]] if parent[n] in inline else None

    width = {n: pt.row(n, 0.0, 0.0, slot(n), hug=True)[0].extent()[2] for n in nodes}
    # each depth's column starts after the widest node of the depth before it
    column = {depth[root]: 0.0}
    d = depth[root]
    while True:
        widest = [width[n] for n in nodes if depth[n] == d and parent[n] not in inline]
        if not widest:
            break
        column[d + 1] = column[d] + max(widest) + LEAD + TICK
        d += 1
    cell_width = {cell: max(width[n] for n in leaves) + CELL for cell, leaves in cells.items()}
    out = Items()
    end: dict[int, float] = {}
    hang: dict[int, tuple[float, float]] = {}  # a leaf of a row: the top centre of its box
    for n in nodes:
        y = row_y[row[n]]
        x = column[depth[n]]
        if parent[n] in inline:
            x += sum(cell_width[depth[n], i] for i in range(index[n]))
        items, start, _, _ = pt.row(n, x, y, slot(n), hug=True)
        out.extend(items)
        end[n] = x + width[n]
        if n == root:
            continue
        p = parent[n]
        spine = column[depth[n]] - TICK
        if p in inline:
            box = next(s for s in items.shapes if s.node == n).box()
            hang[n] = ((box[0] + box[2]) / 2, box[1])
            (cx, cy), fork = hang[n], box[1] - FORK
            if index[n] and n not in pt.pv:
                before = hang[pt.kids[p][index[n] - 1]][0]
                piece: tuple[tuple[float, float], ...] = ((before, fork), (cx, fork), (cx, cy))
            else:  # from the parent, along the row, up to the fork
                piece = ((end[p] + 2.0, y), (spine, y), (spine, fork), (cx, fork), (cx, cy))
            along = (piece[-3], piece[-2])
        elif not index[n]:
            piece = ((end[p] + 2.0, y), (start, y))
            along = (piece[-2], piece[-1])
        else:
            up = row_y[row[p]] if n in pt.pv else row_y[row[pt.kids[p][index[n] - 1]]]
            piece = ((spine, up), (spine, y), (start, y))
            if n in pt.pv:  # from the parent's row: the spine from its top
                piece = ((end[p] + 2.0, up), *piece)
            along = (piece[-2], piece[-1])
        out.lines.append(Line((piece,), "edge", n))
        if pt.pruned_head(n):  # on the fork, short: the row above stands RISE + 1.5 above it
            reach = 2.0 if p in inline else 3.5
            out.lines += crosses(n, along[0], along[1], 0.5, 1.2, reach, 0.0)
    return out


__all__ = ["CELL", "FORK", "LEAD", "RISE", "sideways_items"]
