"""``random:`` sources: seeded uniform trees expanded as a search reaches them (docs/sources.md).

A :class:`LazyTree` is a :class:`~gtsearch.tree.Tree` whose ``end``,
``values`` and ``depth`` are virtual sequences: for a uniform tree the
preorder numbers are arithmetic (the subtree at level k has S_k nodes, so
``end[n] = n + S_depth(n)``), a node's path follows from its number by a
descent from the root, and its value from the model's SplitMix64 draws along
that path (:mod:`.splitmix`).  A cursor keeps the last path, so depth-first
access costs O(1) amortised; memory stays O(depth x branching).  The same
flat algorithms search it and ``gen`` writes it, node for node.  The compiled
core searches sources without chance levels through a cursor of its own with
the same numbers (:meth:`LazyTree.native_view`, random_source.c).

Models (a leaf's value): ``iid`` a draw in [lo, hi]; ``permutation`` 1 + pi(r)
for the leaf's rank r, pi a seeded Feistel bijection of 0 .. b^d - 1;
``incremental`` the sum of the arcs on its path, every arc a draw in [lo, hi];
``binary`` 1 when a uniform real is below p, else 0; ``trap`` shallow traps of depth k
planted with probability p (:mod:`.traps`).  Orders other than
``random`` (``iid`` and ``binary`` only) generate values top-down: a node's
value first, its children's from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from ..core import native
from ..errors import NodeLimit, UsageError
from ..tree import DEFAULT_MAX_NODES, Tree, index_array
from . import traps
from .splitmix import MASK, Feistel, child_key, draw, integer, root_key, unit
from .virtual import Virtual

MODELS = ("iid", "permutation", "incremental", "binary", "trap")
#: the orders without a parameter; ``strong:P`` takes one
ORDERS = ("random", "best", "worst")
#: the models whose children the orders can arrange top-down
ORDERED_MODELS = ("iid", "binary")
#: leaf values are float64 in the tree: integers beyond 2**53 would not survive
VALUE_LIMIT = 2**53
NAN = float("nan")
#: the most levels of a source (a chain, b=1, of this depth is already a large tree)
MAX_DEPTH = 1 << 24
#: the most leaves of a source: its nodes are numbered in 64 bits
MAX_LEAVES_LOG2 = 62
#: the models as the compiled core numbers them (random_source.c)
_NATIVE_MODELS = {"iid": 0, "binary": 1, "incremental": 2, "permutation": 3, "trap": 4}
#: the orders as the compiled core's cursor numbers them (strong:P is 3)
_NATIVE_ORDERS = {"random": 0, "best": 1, "worst": 2}
#: sources of up to this many nodes are built whole by the compiled core (16 bytes a node)
NATIVE_WHOLE_MAX_NODES = 1 << 23


class RandomSpec:
    """The parameters of a ``random:`` source (checked on construction)."""

    __slots__ = ("b", "d", "seed", "model", "lo", "hi", "order", "p", "chance", "k")

    def __init__(
        self,
        b: int,
        d: int,
        *,
        seed: int = 0,
        model: str = "iid",
        lo: int = -100,
        hi: int = 100,
        order: str = "random",
        p: float = 0.5,
        chance: int = 0,
        k: int = 1,
        checked: bool = True,
    ) -> None:
        self.b, self.d, self.seed, self.model = b, d, seed, model
        self.lo, self.hi, self.order, self.p, self.chance = lo, hi, order, p, chance
        self.k = k
        if checked:  # False: the caller checks, with its own messages first
            self.check()

    def check(self) -> None:
        if self.b < 1:
            raise UsageError(f"random source: b (branching) must be 1 or more, got {self.b}")
        if self.d < 0:
            raise UsageError(f"random source: d (depth) must be 0 or more, got {self.d}")
        if self.d > MAX_DEPTH:
            raise UsageError(f"random source: d (depth) must be at most 2**24, got {self.d}")
        width = self.b * max(self.chance, 1)
        if width > 1 and self.d * math.log2(width) > MAX_LEAVES_LOG2:
            raise UsageError(
                f"random source: b={self.b}, d={self.d}"
                + (f", chance={self.chance}" if self.chance else "")
                + " make more than 2**62 leaves (the nodes are numbered in 64 bits)"
            )
        if self.model not in MODELS:
            raise UsageError(
                f"random source: model must be one of {', '.join(MODELS)}, got {self.model!r}"
            )
        if self.lo > self.hi:
            raise UsageError(f"random source: values LO:HI needs LO <= HI, got {self.lo}:{self.hi}")
        if not -VALUE_LIMIT <= self.lo <= self.hi <= VALUE_LIMIT:
            raise UsageError("random source: values must lie within -2**53 .. 2**53")
        if not 0.0 <= self.p <= 1.0:
            raise UsageError(f"random source: p must lie in [0, 1], got {self.p}")
        strength = strong_p(self.order)
        if self.order not in ORDERS and strength is None:
            raise UsageError(
                "random source: order must be random, best, worst or strong:P "
                f"(0 <= P <= 1), got {self.order!r}"
            )
        if self.chance < 0:
            raise UsageError(f"random source: chance must be 0 or more, got {self.chance}")
        if self.order != "random" and self.model not in ORDERED_MODELS:
            raise UsageError(
                f"random source: order {self.order} arranges the children by value top-down, "
                f"which model {self.model} does not define; use model iid or binary, "
                "or order random"
            )
        if self.chance and self.order != "random":
            raise UsageError(
                f"random source: order {self.order} orders the children of decision nodes; "
                "trees with chance nodes are random: drop the order"
            )
        if self.model == "trap":
            self.check_trap()
        if self.model == "permutation" and self.leaves() > VALUE_LIMIT:
            raise UsageError("random source: a permutation tree may have at most 2**53 leaves")

    def check_trap(self) -> None:
        if not 1 <= self.k <= MAX_DEPTH:
            raise UsageError(
                f"random source: k (the traps' depth) must be 1 to 2**24, got {self.k}"
            )
        if self.hi - self.lo < 2:
            raise UsageError(
                "random source: model trap needs values LO:HI with HI - LO >= 2 (LO and HI "
                f"are the lost values), got {self.lo}:{self.hi}"
            )
        if self.chance:
            raise UsageError("random source: model trap has no chance levels: drop chance")

    def levels(self) -> list[int]:
        """The children of a node at each level, from the root to the leaves (which have none)."""
        if not self.chance:
            return [self.b] * self.d + [0]
        return [self.b, self.chance] * self.d + [0]

    def leaves(self) -> int:
        return int((self.b * max(self.chance, 1)) ** self.d)

    def text(self) -> str:
        """The canonical spec: every parameter, in a fixed order."""
        parts = [f"b={self.b}", f"d={self.d}", f"seed={self.seed}", f"model={self.model}"]
        if self.model != "permutation":
            parts.append(f"values={self.lo}:{self.hi}" if self.model != "binary" else "")
        parts.append(f"order={self.order}")
        if self.model in ("binary", "trap"):
            parts.append(f"p={self.p:g}")
        if self.model == "trap":
            parts.append(f"k={self.k}")
        if self.chance:
            parts.append(f"chance={self.chance}")
        return "random:" + ",".join(p for p in parts if p)


def strong_p(order: str) -> float | None:
    """P of an order ``strong:P``, or None when the order is not of that form."""
    name, sep, arg = order.partition(":")
    if name != "strong" or not sep:
        return None
    try:
        p = float(arg)
    except ValueError:
        return None
    return p if 0.0 <= p <= 1.0 else None


_KEYS = ("b", "d", "seed", "model", "values", "order", "p", "chance", "k")


def parse_random(text: str) -> RandomSpec:
    """``random:KEY=VALUE,...`` (the text after ``random:``) as a RandomSpec."""
    given: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in _KEYS:
            raise UsageError(
                f"random source: {item!r} is not KEY=VALUE with KEY one of {', '.join(_KEYS)}"
            )
        if key in given:
            raise UsageError(f"random source: {key} is given twice")
        given[key] = value.strip()
    for key in ("b", "d"):
        if key not in given:
            raise UsageError(f"random source: {key}= is required, e.g. random:b=3,d=4,seed=1")
    kw: dict[str, Any] = {}
    key = ""
    try:
        for key in ("b", "d", "seed", "chance", "k"):
            if key in given:
                kw[key] = int(given[key])
        key = "p"
        if "p" in given:
            kw["p"] = float(given["p"])
        key = "values"
        if "values" in given:
            lo, sep, hi = given["values"].partition(":")
            if not sep:
                raise ValueError
            kw["lo"], kw["hi"] = int(lo), int(hi)
    except ValueError:
        kind = {"p": "a real number", "values": "LO:HI, two integers"}.get(key, "an integer")
        raise UsageError(
            f"random source: bad number {key}={given[key]!r} ({key} is {kind})"
        ) from None
    for key in ("model", "order"):
        if key in given:
            kw[key] = given[key]
    if "p" in kw and kw.get("model", "iid") not in ("binary", "trap"):
        raise UsageError("random source: p applies to model=binary and model=trap only")
    if "k" in kw and kw.get("model", "iid") != "trap":
        raise UsageError("random source: k applies to model=trap only")
    if math.isnan(kw.get("p", 0.5)):
        raise UsageError("random source: p must lie in [0, 1], got nan")
    return RandomSpec(**kw)


class _Cursor:
    """The last path visited: node, key, child index and the model's running values per level."""

    __slots__ = (
        "spec",
        "sub",
        "top",
        "nodes",
        "keys",
        "idx",
        "sums",
        "vals",
        "arranged",
        "visited",
        "max_nodes",
        "rank_unit",
        "perm",
        "ordered",
        "strength",
        "states",
    )

    def __init__(self, spec: RandomSpec, sub: list[int], max_nodes: int) -> None:
        self.spec = spec
        self.sub = sub
        self.top = len(sub) - 1
        key = root_key(spec.seed)
        self.nodes = [0]
        self.keys = [key]
        self.idx: list[int] = []
        self.sums = [0]
        self.ordered = spec.order != "random"
        self.strength = strong_p(spec.order)
        self.vals: list[int] = [self._leaf(key) if self.ordered else 0]
        self.arranged: list[list[int] | None] = [None]
        self.states = [traps.ROOT]
        self.visited = 1
        self.max_nodes = max_nodes
        kids = spec.levels()
        # leaves below one node of each level, for a leaf's rank
        below = [1] * len(kids)
        for k in range(len(kids) - 2, -1, -1):
            below[k] = kids[k] * below[k + 1]
        self.rank_unit = below
        self.perm = Feistel(spec.leaves(), spec.seed) if spec.model == "permutation" else None

    def _leaf(self, x: int) -> int:
        """A leaf value of the iid or binary model from the node key x (its draw 0)."""
        spec = self.spec
        if spec.model == "binary":
            return 1 if unit(draw(x, 0)) < spec.p else 0
        return integer(draw(x, 0), spec.lo, spec.hi)

    def locate(self, n: int) -> int:
        """Move the path to node n; return n's level."""
        nodes = self.nodes
        k = len(nodes) - 1
        if nodes[k] == n:
            return k
        sub = self.sub
        while k and not nodes[k] <= n < nodes[k] + sub[k]:
            k -= 1
        if k + 1 < len(nodes):
            del nodes[k + 1 :], self.keys[k + 1 :], self.idx[k:], self.sums[k + 1 :]
            del self.vals[k + 1 :], self.arranged[k + 1 :], self.states[k + 1 :]
        while nodes[k] != n:
            m = nodes[k]
            s = sub[k + 1]
            i = (n - m - 1) // s
            self._push(k, i, m + 1 + i * s)
            k += 1
        return k

    def limit_error(self) -> NodeLimit:
        """The error of a search that visited more than ``max_nodes`` nodes."""
        return NodeLimit.visited(self.spec.text(), self.max_nodes)

    def _push(self, k: int, i: int, c: int) -> None:
        self.visited += 1
        if self.visited > self.max_nodes:
            raise self.limit_error()
        key = child_key(self.keys[k], i)
        self.nodes.append(c)
        self.keys.append(key)
        self.idx.append(i)
        spec = self.spec
        if spec.model == "incremental":
            self.sums.append(self.sums[k] + integer(draw(key, 0), spec.lo, spec.hi))
        else:
            self.sums.append(0)
        if spec.model == "trap":
            state = traps.child_state(
                self.states[k], self.keys[k], k, i, spec.b, spec.d, spec.p, spec.k
            )
            self.states.append(state)
        if self.ordered:
            kids = self.arranged[k]
            if kids is None:
                kids = self.arranged[k] = self._arrange(k)
            self.vals.append(kids[i])
        else:
            self.vals.append(0)
        self.arranged.append(None)

    def _arrange(self, k: int) -> list[int]:
        """The values of the children of the node at level k, in the order's arrangement."""
        spec = self.spec
        key, v, b = self.keys[k], self.vals[k], spec.b
        is_max = k % 2 == 0  # generated with MAX to move at the root
        others: list[int] = []
        for j in range(1, b):
            x = draw(key, j)
            if spec.model == "binary":
                o = 1 if unit(x) < spec.p else 0
                o = min(o, v) if is_max else max(o, v)
            else:
                o = integer(x, spec.lo, v) if is_max else integer(x, v, spec.hi)
            others.append(o)
        if self.strength is None:
            others.sort(reverse=is_max)  # best-first for the mover
            kids = [v, *others]
            return kids if spec.order == "best" else kids[::-1]
        pos = 0 if unit(draw(key, b)) < self.strength else integer(draw(key, b + 1), 0, b - 1)
        rest = others
        for step, i in enumerate(range(len(rest) - 1, 0, -1)):  # Fisher-Yates
            j = integer(draw(key, b + 2 + step), 0, i)
            rest[i], rest[j] = rest[j], rest[i]
        return [*rest[:pos], v, *rest[pos:]]

    def value(self, n: int) -> float:
        k = self.locate(n)
        if k != self.top:
            return NAN
        spec = self.spec
        if self.ordered:
            return float(self.vals[k])
        model = spec.model
        if model == "incremental":
            return float(self.sums[k])
        if model == "trap":
            return float(traps.leaf_value(self.states[k], self.keys[k], spec.lo, spec.hi))
        if model == "permutation":
            assert self.perm is not None
            unit_ = self.rank_unit
            rank = sum(i * unit_[j + 1] for j, i in enumerate(self.idx))
            return float(1 + self.perm(rank))
        return float(self._leaf(self.keys[k]))


class _End(Virtual[_Cursor]):
    def _at(self, n: int) -> int:
        return n + self.owner.sub[self.owner.locate(n)]


class _Values(Virtual[_Cursor]):
    def _at(self, n: int) -> float:
        return self.owner.value(n)


class _Depth(Virtual[_Cursor]):
    def _at(self, n: int) -> int:
        return self.owner.locate(n)


class _Turns(Virtual[_Cursor]):
    """Decision nodes strictly above a node: levels 0, 2, 4 ... are decision levels."""

    def _at(self, n: int) -> int:
        return (self.owner.locate(n) + 1) // 2


class _Chance(Virtual[_Cursor]):
    def _at(self, n: int) -> int:
        k = self.owner.locate(n)
        return 1 if k % 2 and k != self.owner.top else 0


class LazyTree(Tree):
    """A ``random:`` source as a Tree whose arrays are computed on demand."""

    __slots__ = ("spec", "cursor")
    lazy = True

    def __init__(
        self,
        spec: RandomSpec,
        *,
        root_max: bool = True,
        max_nodes: int = DEFAULT_MAX_NODES,
        source: str | None = None,
    ) -> None:
        kids = spec.levels()
        sub = [1] * len(kids)
        for k in range(len(kids) - 2, -1, -1):
            sub[k] = 1 + kids[k] * sub[k + 1]
        cursor = _Cursor(spec, sub, max_nodes)
        size = sub[0]
        super().__init__(
            _End(cursor, size),
            _Values(cursor, size),
            root_max=root_max,
            source=source or spec.text(),
            n_leaves=spec.leaves(),
            depth=_Depth(cursor, size),  # type: ignore[arg-type]
        )
        self.spec = spec
        self.cursor = cursor
        if spec.chance:
            self.chance = _Chance(cursor, size)  # type: ignore[assignment]
            self._turns = _Turns(cursor, size)  # type: ignore[assignment]

    @property
    def visited(self) -> int:
        """Nodes the cursor has entered so far (each entry counts)."""
        return self.cursor.visited

    def native_view(self) -> tuple[Any, ...] | None:
        """The source as the compiled core computes it on demand, or None when it cannot.

        ``(b, d, model, seed, lo, hi, p, order, strength, k, counter)``: the C searches read ``end`` and
        ``values`` through their own cursor (random_source.c), with the numbers of this
        one; ``counter`` is ``array('q', [visited, max_nodes])``, which the search updates
        (see :meth:`native_done`).  Every model and order, without chance levels (the C
        searches do not search chance nodes); None under the pure core.
        """
        spec = self.spec
        if native() is None or spec.chance:
            return None
        if spec.model == "incremental" and max(-spec.lo, spec.hi) > VALUE_LIMIT // (spec.d + 1):
            return None
        from array import array

        counter = array("q", [self.cursor.visited, self.cursor.max_nodes])
        model = _NATIVE_MODELS[spec.model]
        strength = strong_p(spec.order)
        order = 3 if strength is not None else _NATIVE_ORDERS[spec.order]
        seed = spec.seed & MASK
        return (
            spec.b,
            spec.d,
            model,
            seed,
            spec.lo,
            spec.hi,
            spec.p,
            order,
            strength or 0.0,
            spec.k,
            counter,
        )

    def native_done(self, view: tuple[Any, ...]) -> None:
        """Count the nodes a C search of :meth:`native_view` visited as the cursor's own."""
        self.cursor.visited = view[-1][0]

    def limit_error(self) -> NodeLimit:
        """The error of a search that visited more than --max-nodes nodes."""
        return self.cursor.limit_error()

    def max_depth(self) -> int:
        return len(self.cursor.sub) - 1

    def path_of(self, n: int) -> list[int]:
        """Child indices from the root down to node n, by arithmetic (the subtrees of a level
        have one size): no node is entered, as a PV of millions of levels would need."""
        sub = self.cursor.sub
        path: list[int] = []
        m = k = 0
        while m != n:
            s = sub[k + 1]
            i = (n - m - 1) // s
            path.append(i)
            m += 1 + i * s
            k += 1
        return path

    def paths_of(self, nodes: Iterable[int]) -> dict[int, tuple[int, ...]]:
        """The paths of many nodes, each by arithmetic (:meth:`path_of`)."""
        return {n: tuple(self.path_of(n)) for n in {int(x) for x in nodes}}

    def with_root(self, root_max: bool) -> Tree:
        return LazyTree(
            self.spec, root_max=root_max, max_nodes=self.cursor.max_nodes, source=self.source
        )

    def chance_nodes(self) -> int:
        if not self.spec.chance:
            return 0
        return sum(self.spec.b ** (k + 1) * self.spec.chance**k for k in range(self.spec.d))

    def leaf_values(self) -> Iterator[int]:
        """The leaf values left to right (a preorder walk: the cursor moves one step at a time)."""
        cursor = self.cursor
        top = self.max_depth()
        for n in range(len(self.end)):
            if cursor.locate(n) == top:
                yield int(cursor.value(n))


def native_whole(
    spec: RandomSpec, *, root_max: bool = True, source: str | None = None
) -> Tree | None:
    """The whole tree of ``spec`` built in C (the same numbers as the cursor), or None.

    None under the pure core, and for what the compiled builder does not take:
    orders other than ``random``, chance levels, incremental sums that could
    leave 2**53, trees of more than :data:`NATIVE_WHOLE_MAX_NODES` nodes.
    """
    core = native()
    if core is None or spec.order != "random" or spec.chance:
        return None
    if spec.model == "incremental" and max(-spec.lo, spec.hi) > VALUE_LIMIT // (spec.d + 1):
        return None
    size = spec.d + 1 if spec.b == 1 else (spec.b ** (spec.d + 1) - 1) // (spec.b - 1)
    if size > NATIVE_WHOLE_MAX_NODES:
        return None
    wide = index_array(size).typecode == "q"
    model = _NATIVE_MODELS[spec.model]
    end, values = core.random_tree(
        spec.b, spec.d, model, spec.seed & MASK, spec.lo, spec.hi, spec.p, wide, spec.k
    )
    return Tree(
        end, values, root_max=root_max, source=source or spec.text(), n_leaves=spec.leaves()
    )


def materialize(tree: Tree, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """A lazy tree as a plain flat Tree (for show, trace, convert, validate); others as they are."""
    if not isinstance(tree, LazyTree):
        return tree
    from array import array

    size = len(tree.end)
    if size > max_nodes:
        raise UsageError(
            f"{tree.source}: {size:,} nodes, more than --max-nodes {max_nodes:,}; "
            "this command needs the whole tree: raise --max-nodes"
        )
    built = native_whole(tree.spec, root_max=tree.root_max, source=tree.source)
    if built is not None:
        return built
    fresh = LazyTree(tree.spec, root_max=tree.root_max, max_nodes=size + 1, source=tree.source)
    cursor = fresh.cursor
    sub = cursor.sub
    end = index_array(size)
    vals = array("d")
    chance = bytearray(size) if tree.spec.chance else None
    top = len(sub) - 1
    for n in range(size):
        k = cursor.locate(n)
        end.append(n + sub[k])
        vals.append(cursor.value(n) if k == top else NAN)
        if chance is not None and k % 2 and k != top:
            chance[n] = 1
    return Tree(
        end,
        vals,
        root_max=tree.root_max,
        source=tree.source,
        n_leaves=tree.n_leaves,
        chance=chance,
    )
