"""Transposition tables cut down to a few buckets, for the tests that make entries collide
(every store then may lose another position's entry, and the searches read leaves again)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from gtsearch.algorithms.table import Table


def tiny(buckets: int | None) -> type[Table]:
    """The Table whose every instance has ``buckets`` buckets, whatever its MiB (None: as it
    is); its counters still say the MiB asked for."""

    class Tiny(Table):
        __slots__ = ()

        def __init__(self, mib: int) -> None:
            super().__init__(mib)
            if buckets is not None:
                self.buckets = buckets

    return Tiny


@contextmanager
def tiny_tables(buckets: int | None, *modules: ModuleType) -> Iterator[None]:
    """While the block runs, the Table each of ``modules`` makes has ``buckets`` buckets."""
    saved = [m.Table for m in modules]
    for m in modules:
        m.Table = tiny(buckets)
    try:
        yield
    finally:
        for m, kept in zip(modules, saved, strict=True):
            m.Table = kept
