"""SearchResult: what one algorithm found on one tree, and how much work it took."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from .numbers import BOUND_PREFIX, Number, exact, format_exact, format_number

if TYPE_CHECKING:
    from fractions import Fraction

    from .tree import Tree

_NOTHING: Mapping[str, Any] = MappingProxyType({})


class SearchResult(NamedTuple):
    """The outcome of one search, in MAX's terms (immutable; ``._replace`` makes a changed copy).

    ``bound`` is None for an exact value, ``"lower"`` when the true value is
    at least ``value``, ``"upper"`` when it is at most ``value`` and
    ``"estimate"`` when it is MCTS's estimate.
    """

    algorithm: str
    value: Number
    exact: bool
    bound: str | None
    pv: tuple[int, ...]
    pv_labels: tuple[str | None, ...]
    leaves: int
    #: the leaves of the tree searched; None where they were not counted (a game searched on
    #: demand, docs/sources.md)
    leaves_total: int | None
    seconds: float
    nodes: int = 0
    leaf_order: tuple[tuple[int, ...], ...] | None = None
    params: Mapping[str, Any] = _NOTHING
    extra: Mapping[str, Any] = _NOTHING
    #: the tree searched (search() sets it), so that a notebook can draw the search
    tree: Tree | None = None

    def __repr__(self) -> str:
        """The fields without the tree, which is shown by its size only."""
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._fields if k != "tree")
        tree = "None" if self.tree is None else f"<{self.tree.n_nodes} nodes>"
        return f"SearchResult({fields}, tree={tree})"

    def _repr_html_(self) -> str:
        """Jupyter's rich display: the result's table and the tree with the search's marks.

        The drawing is gtsearch.render.notebook's, imported when a notebook asks
        (the one exception to the layers, see tests/test_architecture.py).
        """
        from .render.notebook import result_html

        return result_html(self)

    def exact_value(self) -> Fraction:
        """The value as an exact rational: ``value_exact`` where the algorithm gave one."""
        from fractions import Fraction

        text = self.extra.get("value_exact")
        return Fraction(text) if text is not None else Fraction(exact(self.value))

    def value_text(self) -> str:
        """The value for people, ``≥``/``≤`` in front of a bound; an exact value that is not
        an integer as a decimal when a float prints it exactly (``2.5``), else ``13/3``."""
        prefix = BOUND_PREFIX.get(self.bound or "", "")
        if self.bound == "estimate":  # MCTS's: four figures, and its standard error
            se = self.extra.get("value_se")
            return f"{prefix}{self.value:.4g}" + ("" if se is None else f" ± {se:.2g}")
        if "value_exact" in self.extra:
            return prefix + format_exact(self.exact_value())
        return prefix + format_number(self.value)

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
