"""Virtual sequences: the arrays of a tree computed on demand, for the lazy sources.

A :class:`Virtual` is a read-only sequence of ``size`` items whose item ``n``
is ``_at(n)``, computed from its owner (the cursor of a ``random:`` source, a
game's tree); the flat algorithms index it as they index an array.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

Owner = TypeVar("Owner")


class Virtual(Sequence[Any], Generic[Owner]):
    """``size`` items computed on demand from ``owner`` by ``_at(n)``; negative indices and
    slices as a list takes them."""

    __slots__ = ("owner", "size")

    def __init__(self, owner: Owner, size: int) -> None:
        self.owner = owner
        self.size = size

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Any]:
        for n in range(self.size):
            yield self[n]

    def _at(self, n: int) -> Any:
        raise NotImplementedError

    @overload
    def __getitem__(self, n: int) -> Any: ...
    @overload
    def __getitem__(self, n: slice) -> Sequence[Any]: ...
    def __getitem__(self, n: int | slice) -> Any:
        if isinstance(n, slice):
            return [self[i] for i in range(*n.indices(self.size))]
        if n < 0:
            n += self.size
        if not 0 <= n < self.size:
            raise IndexError(n)
        return self._at(n)


__all__ = ["Virtual"]
