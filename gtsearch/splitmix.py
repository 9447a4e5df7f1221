"""SplitMix64 over 64-bit keys: the numbers of the random tree models and of MCTS (docs/sources.md).

Every number a random source uses is a pure function of (seed, path), so any
visiting order, any algorithm, any process and any language sees the same
tree; MCTS's j-th draw is ``draw(root_key(seed), j)`` (docs/algorithms.md).  A ground
module, so that both the sources and the algorithms take their numbers from one place.
SplitMix64 is Steele, Lea & Flood's generator (OOPSLA 2014);
:func:`splitmix64` is the first output of a SplitMix64 generator whose state
is ``x``.  All arithmetic is modulo 2**64.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
#: xored into a node's key before its draws, so that draws and child keys never meet
DRAW = 0x5851F42D4C957F2D
#: a real in [0, 1) from the top 53 bits of a draw
UNIT = 2.0**-53


def splitmix64(x: int) -> int:
    """The first output of SplitMix64 with state x: z = x + golden, then the finaliser."""
    z = (x + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def root_key(seed: int) -> int:
    """key(root) = splitmix64(seed mod 2**64)."""
    return splitmix64(seed & MASK)


def child_key(key: int, i: int) -> int:
    """key(child i) = splitmix64(key + (i + 1) * golden), i counted from 0."""
    return splitmix64((key + (i + 1) * GOLDEN) & MASK)


def draw(key: int, j: int) -> int:
    """The j-th draw at a node: splitmix64((key xor DRAW) + j * golden)."""
    return splitmix64(((key ^ DRAW) + j * GOLDEN) & MASK)


def integer(x: int, lo: int, hi: int) -> int:
    """An integer in [lo, hi] from a draw: lo + ((x * (hi - lo + 1)) >> 64) (Lemire).

    Each value has probability k / 2**64 with k = floor or ceil of
    2**64 / (hi - lo + 1): a bias below (hi - lo + 1) / 2**64.
    """
    return lo + ((x * (hi - lo + 1)) >> 64)


def unit(x: int) -> float:
    """A real in [0, 1) from a draw: (x >> 11) * 2**-53."""
    return (x >> 11) * UNIT


class Feistel:
    """A seeded bijection of 0 .. n-1: a 4-round balanced Feistel network with cycle walking.

    The network permutes 0 .. 4**h - 1, 4**h the smallest power of 4 >= n
    (h >= 1); an output of n or more is fed through again until it is below n.
    Round r (0..3) uses F_r(x) = splitmix64(K_r xor x) mod 2**h with
    K_r = draw(root_key(seed), r).
    """

    __slots__ = ("n", "half", "mask", "keys")

    def __init__(self, n: int, seed: int) -> None:
        self.n = n
        half = 1
        while 4**half < n:
            half += 1
        self.half = half
        self.mask = (1 << half) - 1
        root = root_key(seed)
        self.keys = tuple(draw(root, r) for r in range(4))

    def _round(self, x: int) -> int:
        half, mask = self.half, self.mask
        left, right = x >> half, x & mask
        for k in self.keys:
            left, right = right, left ^ (splitmix64(k ^ right) & mask)
        return (left << half) | right

    def __call__(self, x: int) -> int:
        y = self._round(x)
        while y >= self.n:
            y = self._round(y)
        return y


__all__ = [
    "DRAW",
    "GOLDEN",
    "MASK",
    "MIX1",
    "MIX2",
    "UNIT",
    "Feistel",
    "child_key",
    "draw",
    "integer",
    "root_key",
    "splitmix64",
    "unit",
]
