"""The core that runs searches, loaders and the tree generator: compiled C or the pure-Python reference.

gtsearch has one interface and two implementations of it, as msgpack and
PyYAML do: the pure-Python modules (gtsearch/algorithms, gtsearch/formats,
gtsearch/sources) are the reference and the fallback, and the C extension
``gtsearch._native._core``, built by ``pip install`` where a C compiler is
present, runs the same steps faster.  The choice is made here, once, on
first use: the extension when it imports, unless the environment variable
``GTSEARCH_PURE`` is set to anything but ``""`` or ``"0"``.  ``gtsearch
--version`` names the core that runs.  This is the only module that
imports ``gtsearch._native``; every other module asks :func:`native`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

#: the environment variable that forces the pure-Python core
ENV = "GTSEARCH_PURE"
#: what --version and ``gtsearch algorithms --format json`` call the two cores
C = "C"
PURE = "pure Python"

_UNSET: Any = object()
_native: Any = _UNSET


def pure_asked() -> bool:
    """Whether the environment asks for the pure-Python core (GTSEARCH_PURE set, and not "0")."""
    return os.environ.get(ENV, "") not in ("", "0")


def native() -> ModuleType | None:
    """The compiled extension module, or None when the pure-Python core runs.

    Imported on the first call, not with gtsearch, so that a command that
    never searches or loads a tree does not pay for it.
    """
    global _native
    if _native is _UNSET:
        _native = None if pure_asked() else _import()
    return _native  # type: ignore[no-any-return]


def _import() -> ModuleType | None:
    try:
        from ._native import _core
    except ImportError:  # not built (no compiler at install time): the pure core runs
        return None
    return _core


def name() -> str:
    """``"C"`` or ``"pure Python"``: the core that runs."""
    return C if native() is not None else PURE


def __getattr__(attr: str) -> Any:
    if attr == "NAME":  # the core's name, looked up (and the extension imported) on first use
        return name()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


@contextmanager
def pure() -> Iterator[None]:
    """Run the pure-Python reference inside the block, whatever the core.

    For comparing the two cores in one process (the tests and scripts/fuzz.py).
    """
    global _native
    saved = native()
    _native = None
    try:
        yield
    finally:
        _native = saved


__all__ = ["C", "ENV", "PURE", "name", "native", "pure", "pure_asked"]
