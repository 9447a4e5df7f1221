"""SearchResult: what one algorithm found on one tree, and how much work it took."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from .numbers import Number

_NOTHING: Mapping[str, Any] = MappingProxyType({})


class SearchResult(NamedTuple):
    """The outcome of one search, in MAX's terms (immutable; ``._replace`` makes a changed copy).

    ``bound`` is None for an exact value, ``"lower"`` when the true value is
    at least ``value`` and ``"upper"`` when it is at most ``value``.
    """

    algorithm: str
    value: Number
    exact: bool
    bound: str | None
    pv: tuple[int, ...]
    pv_labels: tuple[str | None, ...]
    leaves: int
    leaves_total: int
    seconds: float
    nodes: int = 0
    leaf_order: tuple[tuple[int, ...], ...] | None = None
    params: Mapping[str, Any] = _NOTHING
    extra: Mapping[str, Any] = _NOTHING

    def to_dict(self, file: str | None = None, load_seconds: float | None = None) -> dict[str, Any]:
        """The JSON-lines record of docs/commands.md, "JSON output" (the keys are a contract)."""
        d: dict[str, Any] = {
            "file": file,
            "algorithm": self.algorithm,
            "value": self.value,
            "exact": self.exact,
            "bound": self.bound,
            "pv": list(self.pv),
            "pv_labels": list(self.pv_labels),
            "leaves": self.leaves,
            "leaves_total": self.leaves_total,
            "seconds": round(self.seconds, 6),
            "load_seconds": None if load_seconds is None else round(load_seconds, 6),
            "nodes": self.nodes,
        }
        if self.params:
            d["params"] = dict(self.params)
        d.update(self.extra)
        if self.leaf_order is not None:
            d["leaf_order"] = [list(p) for p in self.leaf_order]
        return d
