"""The reference numbers of the research tables: Knuth & Moore's minimal tree, the full
tree, and Pearl's asymptotic branching factor of alpha-beta on random trees.

Ground-level arithmetic for :mod:`.experiment` (which exports them too); imports
nothing of gtsearch but its errors.
"""

from __future__ import annotations

import math

from ..errors import UsageError


def minimal_tree(b: int, d: int) -> int:
    """Knuth & Moore's minimal tree: the leaves alpha-beta evaluates on a best-first ordered tree."""
    return int(b ** math.ceil(d / 2) + b ** (d // 2) - 1)


def full_tree(b: int, d: int) -> int:
    """Every leaf of the uniform tree: b^d."""
    return int(b**d)


def pearl_xi(b: int) -> float:
    """The root of x^b + x - 1 = 0 in (0, 1), by bisection to the last bit."""
    if b < 1:
        raise UsageError(f"the branching factor must be 1 or more, got {b}")
    lo, hi = 0.0, 1.0
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return lo if abs(lo**b + lo - 1) <= abs(hi**b + hi - 1) else hi
        if mid**b + mid - 1 < 0:
            lo = mid
        else:
            hi = mid


def pearl_r(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta on random trees: xi / (1 - xi)."""
    xi = pearl_xi(b)
    return xi / (1 - xi)


__all__ = ["full_tree", "minimal_tree", "pearl_r", "pearl_xi"]
