"""gtsearch: search two-player game trees (chance nodes, random trees and games included) with the
classic algorithms and Monte Carlo Tree Search, with or without a transposition table, and report
the value, the principal variation and exact counts of the work."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: where each public name lives; imported on first use (PEP 562), so that
#: importing one submodule, as the command line does, does not import them all
_HOME = {
    "ALGORITHMS": "algorithms",
    "find_algorithm": "algorithms",
    "search": "algorithms",
    "GtsearchError": "errors",
    "TreeFormatError": "errors",
    "dump_tree": "formats",
    "load_tree": "formats",
    "loads_tree": "formats",
    "SearchResult": "result",
    "Tree": "tree",
}

__version__: str  # set on first use by __getattr__ below


def __getattr__(name: str) -> Any:
    if name in _HOME:
        import importlib

        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    elif name == "__version__":
        # importlib.metadata costs more at start-up than a small `gtsearch eval`
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("gtsearch")
        except PackageNotFoundError:  # running from a checkout that is not installed
            value = "0+unknown"
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
