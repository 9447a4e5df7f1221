"""numpy views of the flat tree arrays, for the passes that large trees make vectorised."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # a bare np.ndarray fails mypy --strict under numpy < 2.3 (Python 3.10)
    from numpy.typing import NDArray


def as_numpy(a: Sequence[int] | Sequence[float] | NDArray[Any]) -> NDArray[Any]:
    """A zero-copy numpy view of an ``array.array`` (``end`` or ``values``)."""
    if isinstance(a, array):
        dtype = {"i": np.int32, "l": np.int64, "q": np.int64, "d": np.float64}[a.typecode]
        return np.frombuffer(a, dtype=dtype)
    return np.asarray(a)


def to_array(a: NDArray[Any]) -> array[Any]:
    """An ``array.array`` with the contents of a 1-d int32/int64/float64 numpy array."""
    code = {np.dtype(np.int32): "i", np.dtype(np.int64): "q", np.dtype(np.float64): "d"}[a.dtype]
    out: array[Any] = array(code)
    out.frombytes(np.ascontiguousarray(a).tobytes())
    return out


def depths(end: Sequence[int] | NDArray[Any]) -> NDArray[Any]:
    """Depth of every node of a preorder tree given its ``end`` array (int32)."""
    e = as_numpy(end)
    size = len(e)
    idx = np.arange(size, dtype=np.int64)
    internal = idx[e != idx + 1]
    # +1 from the first node inside each internal node, -1 from its end
    delta = np.bincount(internal + 1, minlength=size + 1) - np.bincount(
        e[internal], minlength=size + 1
    )
    return np.cumsum(delta[:size], dtype=np.int32)


def leaf_extremes(
    end: Sequence[int] | NDArray[Any], values: Sequence[float] | NDArray[Any]
) -> tuple[int, int] | None:
    """The first leaf of the least value and the first of the greatest, or None when the
    tree has no leaf or a leaf's value is NaN (the caller's scan then decides)."""
    e = as_numpy(end)
    idx = np.flatnonzero(e == np.arange(1, len(e) + 1, dtype=e.dtype))
    if not len(idx):
        return None
    leaf = as_numpy(values)[idx]
    if np.isnan(leaf).any():
        return None
    # argmin and argmax take the first of equal values, as a scan with a strict < or > does
    return int(idx[int(np.argmin(leaf))]), int(idx[int(np.argmax(leaf))])
