"""The transposition table: two-entry buckets, depth-preferred and always-replace.

docs/algorithms.md ("Transposition tables") defines it: a size in MiB gives
MIB * 32,768 entries of 32 bytes, in buckets of two; a key goes to bucket
k mod buckets; the first entry of a bucket keeps the deeper draft,
the second whatever came last.  An entry is ``[key, lower, upper, draft,
move]``: bounds in MAX's terms, the draft (:data:`FULL` when the search below
went to the leaves) and the best move as a child index (-1: none).  The
entries live in a dict by slot number, so a large table costs only what it
holds; the slots, and so every count, are those of the fixed array.  The compiled
core keeps the same table in C (gtsearch/_native/table.c) and hands its counters
back (:meth:`Table.take`).
Breuker, Uiterwijk & van den Herik (1994), Replacement schemes for
transposition tables, ICCA Journal 17(4), describe the two-tier scheme.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import Any, TypeAlias

from ..errors import UsageError
from ..numbers import Exact

#: a bound an entry keeps: a float (infinities included), or an exact rational (chance nodes)
Bound: TypeAlias = "float | Exact"

#: the draft of an entry whose search went to the leaves (no horizon below it)
FULL = 65_535
#: bytes an entry is counted as: key, lower and upper bound, draft, move
ENTRY_BYTES = 32
#: entries in one MiB
ENTRIES_PER_MIB = 2**20 // ENTRY_BYTES

_MASK = (1 << 64) - 1
#: the most MiB a table may take where the machine does not say how much memory it has (1 TiB)
UNKNOWN_MEMORY_MIB = 2**20


def memory_mib() -> int:
    """The machine's physical memory in MiB (1 TiB where the system does not say)."""
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        return UNKNOWN_MEMORY_MIB
    return pages * size // 2**20 if pages > 0 and size > 0 else UNKNOWN_MEMORY_MIB


def check_table_size(mib: int) -> int:
    """``mib`` if a table of that size fits in the machine's memory, else one line (exit 2).

    The compiled core allocates the whole table at once and the pure one only what it fills;
    both refuse a table larger than the memory, so that ``--tt`` means the same in both."""
    if mib > memory_mib():
        raise UsageError(
            f"--tt {mib:,} MiB is more than this machine's memory ({memory_mib():,} MiB)"
        )
    return mib


def key_number(key: Hashable) -> int:
    """The number a key is placed by: the key itself when it is an int (mod 2**64), else
    hash(key) (the searches' keys are ints: nodes, and positions numbered as they were met).

    Dense numbers go to buckets in turn (no two share one before every bucket has one), and a
    search that meets its keys nearly in order walks the table nearly in order, from cache
    line to cache line (docs/algorithms.md, "The layout").
    """
    return (key if type(key) is int else hash(key)) & _MASK


class Table:
    """A transposition table of ``mib`` MiB and its counters (docs/algorithms.md)."""

    __slots__ = (
        "mib",
        "entries",
        "buckets",
        "slots",
        "probes",
        "hits",
        "cuts",
        "orders",
        "stores",
        "overwrites",
        "held",
    )

    def __init__(self, mib: int) -> None:
        if mib < 1:
            raise ValueError(f"a table needs at least 1 MiB, got {mib}")
        self.mib = mib
        self.entries = mib * ENTRIES_PER_MIB
        self.buckets = self.entries // 2
        #: slot number -> entry [key, lower, upper, draft, move]
        self.slots: dict[int, list[Any]] = {}
        self.probes = self.hits = self.cuts = self.orders = self.stores = self.overwrites = 0
        #: the entries used, when the compiled core kept the table (None: the slots held here)
        self.held: int | None = None

    def slot(self, key: Hashable) -> int:
        """The first slot of the key's bucket."""
        return 2 * (key_number(key) % self.buckets)

    def peek(self, key: Hashable) -> list[Any] | None:
        """The entry of ``key``, or None; not counted (the PV's walk, a store's merge)."""
        b = self.slot(key)
        slots = self.slots
        for e in (slots.get(b), slots.get(b + 1)):
            if e is not None and e[0] == key:
                return e
        return None

    def probe(self, key: Hashable) -> list[Any] | None:
        """The entry of ``key``, or None: one probe, and a hit when found."""
        self.probes += 1
        e = self.peek(key)
        if e is not None:
            self.hits += 1
        return e

    def store(
        self, key: Hashable, lower: Bound, upper: Bound, draft: int, move: int, merge: bool = True
    ) -> None:
        """Write what a search proved of ``key``: bounds in MAX's terms, draft, best move.

        An entry of the key already there is updated in place; with the same
        draft (and ``merge``) its bounds are merged with the new ones (both
        hold), and the old move stays when the new one is -1.  Otherwise the
        two-tier rule places a new entry and counts an overwrite when one of
        another key is lost.  (Proof-number search keeps its two numbers in
        the bounds' places and replaces them: ``merge`` False.)
        """
        self.stores += 1
        b = self.slot(key)
        slots = self.slots
        first = slots.get(b)
        second = slots.get(b + 1)
        for e in (first, second):
            if e is not None and e[0] == key:
                if merge and e[3] == draft:
                    lower = max(lower, e[1])
                    upper = min(upper, e[2])
                    if move < 0:
                        move = e[4]
                e[1:] = [lower, upper, draft, move]
                return
        entry = [key, lower, upper, draft, move]
        if first is None or first[3] <= draft:
            if first is not None:
                if second is not None:
                    self.overwrites += 1
                slots[b + 1] = first
            slots[b] = entry
        else:
            if second is not None:
                self.overwrites += 1
            slots[b + 1] = entry

    def take(self, counts: tuple[int, ...]) -> None:
        """The counters of the same table kept by the compiled core: probes, hits, cuts,
        orders, stores, overwrites and the entries used."""
        (self.probes, self.hits, self.cuts, self.orders, self.stores, self.overwrites) = counts[:6]
        self.held = counts[6]

    def counts(self) -> dict[str, int]:
        """The ``tt`` object of a result (docs/algorithms.md, "The counts")."""
        return {
            "mib": self.mib,
            "entries": self.entries,
            "probes": self.probes,
            "hits": self.hits,
            "cuts": self.cuts,
            "orders": self.orders,
            "stores": self.stores,
            "overwrites": self.overwrites,
            "used": len(self.slots) if self.held is None else self.held,
        }
