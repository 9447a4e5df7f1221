"""The trace of alpha-beta with a transposition table (``gtsearch trace --tt``), step by step.

The search is :class:`.tabled.TableSearch` itself, told of every step by a
:class:`TableTrace`: besides the steps of the depth-first trace (entering a
node with its window, a leaf read, a cutoff, a value handed back), every
probe of the table (found or not), every hit that cuts (the entry decides the
node: nothing below it is searched) or only orders (its best move first, with
``--history``/``--killers``), and every store (with the overwrite of another
position's entry).  Values are in MAX's terms, as in :mod:`.steps`;
docs/algorithms.md ("Transposition tables") defines what is probed and stored.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from ..numbers import INF
from ..tree import Tree
from . import events as kinds  # the kinds of event, kinds.Enter ...
from .base import Stats, window_kind
from .table import FULL, Table


class TableTrace:
    """The events of one search with a table, as the search tells them."""

    def __init__(self, tree: Tree, table: Table) -> None:
        self.tree, self.table = tree, table
        self.events: list[kinds.Event] = []
        #: the inner nodes being searched: [node, is MAX, alpha, beta, best so far]
        self.frames: list[list[Any]] = []
        self.rank = 0
        self.overwrites = 0
        #: each value read, as the file wrote it (the search computes in floats: 3.0 is 3)
        self.numbers: dict[float, kinds.Value] = {}

    def _count(self, v: kinds.Value) -> kinds.Value | None:
        """Count a value handed to the node above: its best so far after it (None: the root)."""
        if not self.frames:
            return None
        f = self.frames[-1]
        if f[4] is None or (v > f[4] if f[1] else v < f[4]):
            f[4] = v
        best: kinds.Value = f[4]
        return best

    def probe(self, n: int, entry: list[Any] | None) -> None:
        if entry is None:
            self.events.append(kinds.TableProbe(n, False))
        else:
            draft = None if entry[3] == FULL else entry[3]
            lo, hi = self.number(entry[1]), self.number(entry[2])
            self.events.append(kinds.TableProbe(n, True, lo, hi, draft, entry[4]))

    def cut(self, n: int, entry: list[Any], v: float) -> None:
        value = self.number(v)
        lo, hi = self.number(entry[1]), self.number(entry[2])
        self.events.append(kinds.TableCut(n, value, lo, hi, self._count(value)))

    def order(self, n: int, move: int) -> None:
        self.events.append(kinds.TableOrder(n, move))

    def leaf(self, n: int) -> None:
        self.rank += 1
        v = self.tree.number(n)
        self.numbers.setdefault(float(v), v)
        self.events.append(kinds.Leaf(n, v, self.rank, self._count(v)))

    def store(self, n: int, key: Hashable) -> None:
        e = self.table.peek(key)
        assert e is not None, "bug: a store left no entry"
        lost = self.table.overwrites > self.overwrites
        self.overwrites = self.table.overwrites
        draft = None if e[3] == FULL else e[3]
        lo, hi = self.number(e[1]), self.number(e[2])
        self.events.append(kinds.TableStore(n, lo, hi, draft, e[4], lost))

    def enter(self, n: int, alpha: float, beta: float) -> None:
        a, b = self.number(alpha), self.number(beta)
        self.frames.append([n, self.tree.is_max(n), a, b, None])
        self.events.append(kinds.Enter(n, a, b))

    def cutoff(self, n: int, skipped: list[int], value: float, bound: float) -> None:
        end = self.tree.end
        pruned = sum(1 for c in skipped for m in range(c, end[c]) if end[m] == m + 1)
        side = "beta" if self.tree.is_max(n) else "alpha"
        self.events.append(
            kinds.Cutoff(n, self.number(value), side, self.number(bound), tuple(skipped), pruned)
        )

    def leave(self, n: int, v: float) -> None:
        _, _, alpha, beta, _ = self.frames.pop()
        value = self.number(v)
        kind = window_kind(value, alpha, beta)
        # what the search proved of the node, leaves and table together: what it stores
        lo, hi = {"exact": (value, value), "lower": (value, INF), "upper": (-INF, value)}[kind]
        self.events.append(kinds.Return(n, value, kind, self._count(value), lo, hi))

    def number(self, v: float) -> kinds.Value:
        """A value as the file wrote the leaf it comes from (3 stays 3); infinities as they are."""
        return self.numbers.get(v, v)


def trace_with_table(tree: Tree, params: dict[str, Any]) -> Iterator[kinds.Event]:
    """The events of alpha-beta with a table of ``params["tt"]`` MiB (window, ``history``,
    ``killers`` as :func:`gtsearch.search` takes them), from :class:`Start` to :class:`Result`."""
    from .tabled import TableSearch, move_order

    table = Table(params["tt"])
    log = TableTrace(tree, table)
    stats = Stats()
    search = TableSearch(tree, stats, table, moves=move_order(tree, params), observer=log)
    alpha = params.get("alpha", -INF)
    beta = params.get("beta", INF)
    yield kinds.Start(0, "alphabeta", dict(params), None)
    v = search.value(0, 0, alpha, beta)
    yield from log.events
    kind = window_kind(v, alpha, beta)
    value = log.number(v)
    yield kinds.Result(0, value, None if kind == "exact" else kind, len(stats.leaves))
