"""Hypothesis strategies for random game trees, and a tiny independent minimax oracle."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import strategies as st

from gtsearch.tree import Meta, Tree

Nested = Any


def values(kind: str) -> st.SearchStrategy[Any]:
    if kind == "int":
        return st.integers(-20, 20)
    if kind == "ties":
        return st.integers(0, 3)
    return st.floats(-10, 10, allow_nan=False, allow_infinity=False, width=32).map(
        float
    ) | st.sampled_from([0.5, -1.25, 2.0])


@st.composite
def ragged_trees(draw: st.DrawFn, max_leaves: int = 40, max_children: int = 4) -> Nested:
    """Trees of any shape: chains, ragged branching, leaves at every depth."""
    kind = draw(st.sampled_from(["int", "ties", "float"]))
    leaf = values(kind)
    return draw(
        st.recursive(
            leaf,
            lambda kids: st.lists(kids, min_size=1, max_size=max_children),
            max_leaves=max_leaves,
        )
    )


@st.composite
def uniform_trees(draw: st.DrawFn, max_b: int = 4, max_d: int = 4) -> Nested:
    b = draw(st.integers(1, max_b))
    d = draw(st.integers(0, max_d))
    while b**d > 200:
        d -= 1
    kind = draw(st.sampled_from(["int", "ties", "float"]))
    leaf = values(kind)
    return draw(_uniform(b, d, leaf))


def _uniform(b: int, d: int, leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if d == 0:
        return leaf
    return st.lists(_uniform(b, d - 1, leaf), min_size=b, max_size=b)


trees = ragged_trees() | uniform_trees()


@st.composite
def named_trees(
    draw: st.DrawFn, names: st.SearchStrategy[str | None], meta: st.SearchStrategy[Meta]
) -> Tree:
    """Trees of :data:`trees` named from ``names`` (None: no name), the names repeating from
    node to node but never among siblings, with the document's ``meta``."""
    t = Tree.from_nested(draw(trees), root_max=draw(st.booleans()))
    named: dict[int, str] = {}
    for n in range(len(t)):
        taken: set[str] = set()
        for c in t.children(n):
            name = draw(names)
            if name is not None and name not in taken:
                named[c] = name
                taken.add(name)
    root = draw(names)
    if root is not None:
        named[0] = root
    return Tree(t.end, t.values, names=named, floats=t.floats, root_max=t.root_max, meta=draw(meta))


def minimax(t: Nested, is_max: bool = True) -> Any:
    """The textbook recursive minimax over nested lists (the oracle)."""
    if not isinstance(t, list):
        return t
    vals = [minimax(c, not is_max) for c in t]
    return max(vals) if is_max else min(vals)


def order(t: Nested, is_max: bool, best_first: bool) -> Nested:
    """The tree with every node's children sorted by value, best (or worst) for the mover first."""
    if not isinstance(t, list):
        return t
    kids = [order(c, not is_max, best_first) for c in t]
    want_high = is_max == best_first
    return sorted(kids, key=lambda c: minimax(c, not is_max), reverse=want_high)


def uniform_from(seq: list[int], b: int, d: int) -> Nested:
    """A uniform tree with leaves taken from seq in order."""
    it = itertools.cycle(seq)

    def build(depth: int) -> Nested:
        if depth == 0:
            return next(it)
        return [build(depth - 1) for _ in range(b)]

    return build(d)
