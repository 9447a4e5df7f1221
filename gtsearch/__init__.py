"""gtsearch: evaluate two-player game trees with minimax, alpha-beta, SSS* and DUAL*."""

from __future__ import annotations

from typing import Any

from .algorithms import ALGORITHMS, find_algorithm, search
from .errors import GtsearchError, TreeFormatError
from .formats import dump_tree, load_tree, loads_tree
from .result import SearchResult
from .tree import Tree

__all__ = [
    "ALGORITHMS",
    "GtsearchError",
    "SearchResult",
    "Tree",
    "TreeFormatError",
    "__version__",
    "dump_tree",
    "find_algorithm",
    "load_tree",
    "loads_tree",
    "search",
]

__version__: str  # set on first use by __getattr__ below


def __getattr__(name: str) -> Any:
    # __version__ is looked up on first use: importlib.metadata costs more at
    # start-up than the rest of `gtsearch eval` on a small tree.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("gtsearch")
        except PackageNotFoundError:  # running from a checkout that is not installed
            value = "0+unknown"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
