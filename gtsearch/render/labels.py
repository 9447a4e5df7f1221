"""The text of single things: values, bounds, PVs, paths, durations, node labels.

Pure functions (and the small Labels cache) shared by every renderer: a
value prints as the file wrote it, a bound with ``≥``/``≤``, infinities as
``+∞``/``-∞`` (``"+inf"``/``"-inf"`` in JSON, which has no infinity), a node
by its name or its dotted path of child indices.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..numbers import INF, Number, format_number, is_fraction
from ..result import SearchResult
from ..tree import Tree

if TYPE_CHECKING:
    from fractions import Fraction

ARROW = " → "


def format_value(result: SearchResult) -> str:
    """The value, with ``≥``/``≤`` in front when the result is only a lower/upper bound.

    An exact value that is not an integer (``value_exact``, chance nodes) prints as
    a decimal when a float prints it exactly (``2.5``), else as a fraction (``13/3``).
    """
    return result.value_text()


def format_pv(result: SearchResult) -> str:
    """The PV as moves from the root: labels where named, else child indices (``b → b1``)."""
    if not result.pv:
        return "(root)"
    labels = result.pv_labels or (None,) * len(result.pv)
    moves = zip(result.pv, labels, strict=True)
    return ARROW.join(label if label is not None else str(i) for i, label in moves)


def format_path(path: Sequence[int]) -> str:
    """A node as its child indices from the root, dotted (``2.0``); the root is ``(root)``."""
    return ".".join(map(str, path)) if path else "(root)"


def format_seconds(seconds: float) -> str:
    """A duration for people: µs, ms or s with three significant figures, the unit chosen
    after the rounding (999.7 µs is ``1 ms``, never ``1e+03 µs``)."""
    for scale, unit in ((1e6, "µs"), (1e3, "ms")):
        shown = f"{seconds * scale:.3g}"
        if float(shown) < 1000:
            return f"{shown} {unit}"
    return f"{seconds:.3g} s"


def param_texts(params: Mapping[str, Any], sep: str = "=") -> list[str]:
    """The parameters a search ran with, each as ``bound=3`` (``sep`` between name and value).

    Star1's and Star2's leaf bounds read ``L=-5, U=9``, followed by ``from the
    leaves`` when they are the tree's least and greatest leaf; the table they take by
    default on a game reads ``tt=1 by default``.
    """
    out = []
    for k, v in params.items():
        if k == "leaf_bounds":
            lo, hi = v
            eq = sep if sep.strip() else "="
            text = f"L{eq}{format_number(lo)}, U{eq}{format_number(hi)}"
            if params.get("leaf_bounds_from") == "tree":
                text += " from the leaves"
            out.append(text)
        elif k == "tt" and params.get("tt_from") == "game":  # star1's, star2's on a game
            out.append(f"tt{sep}{format_extended(v)} by default")
        elif k not in ("leaf_bounds_from", "tt_from"):
            out.append(f"{k}{sep}{format_extended(v)}")
    return out


def params_text(params: Mapping[str, Any]) -> str:
    """The parameters on one line, separated by spaces (``bound=3 variant=fail-hard``, a CSV
    cell without quotes), and by a comma beside one that has spaces of its own (Star2's ``L=-1,
    U=1 from the leaves, tt=1 by default``)."""
    texts = param_texts(params)
    out = texts[:1]
    for before, text in zip(texts, texts[1:], strict=False):
        out.append((", " if " " in before or " " in text else " ") + text)
    return "".join(out)


def format_extended(v: Number | Fraction | None) -> str:
    """A number for people: as the file wrote it, infinities as +∞ and -∞ (exact ones: 13/3)."""
    if v is None:
        return "-"
    if v == INF:
        return "+∞"
    if v == -INF:
        return "-∞"
    return format_number(v)


def json_value(v: Any) -> Any:
    """A number for JSON, which has no infinity: the strings "+inf" and "-inf" stand for them.

    An exact value that is not an integer is the string ``"p/q"`` (JSON has no rationals),
    an integral one the integer; a pair (leaf bounds) a list.
    """
    if isinstance(v, tuple):
        return [json_value(x) for x in v]
    if is_fraction(v):
        return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, str):
        return v
    if v == INF:
        return "+inf"
    if v == -INF:
        return "-inf"
    return v


class Labels:
    """Node labels (the name, else the dotted path of child indices; "root") and paths, remembered.

    ``prefix`` is the path of ``tree``'s root in a larger tree (a focused
    view): unnamed nodes are labelled by their path in that larger tree.
    """

    def __init__(self, tree: Tree, prefix: Sequence[int] = ()) -> None:
        self.tree = tree
        self.prefix = tuple(prefix)
        self._paths: dict[int, tuple[int, ...]] = {0: ()}

    def path(self, n: int) -> tuple[int, ...]:
        path = self._paths.get(n)
        if path is None:
            p = self.tree.parent[n]
            index = sum(1 for _ in _before(self.tree.children(p), n))
            path = self._paths[n] = (
                (*self.path(p), index) if p in self._paths else (tuple(self.tree.path_of(n)))
            )
        return path

    def label(self, n: int) -> str:
        name = self.tree.names.get(n)
        if name is not None:
            return name
        path = self.prefix + self.path(n)
        return ".".join(map(str, path)) if path else "root"

    def player(self, n: int) -> str:
        if self.tree.is_chance(n):
            return "CHANCE"
        return "MAX" if self.tree.is_max(n) else "MIN"

    def probability(self, n: int) -> Fraction | None:
        """The probability of n when its parent is a chance node, else None."""
        tree = self.tree
        if tree.chance is None or n == 0:
            return None
        p = tree.parent[n]
        if not tree.is_chance(p):
            return None
        index = self.path(n)[-1]
        return tree.probabilities(p)[index]


def _before(children: Iterator[int], n: int) -> Iterator[int]:
    for c in children:
        if c == n:
            return
        yield c


def range_text(lo: Number | Fraction, hi: Number | Fraction) -> str:
    """What is known of a value: ``= 3``, ``≥ 3``, ``≤ 3``, ``∈ [2, 5]``, or ``?`` (nothing)."""
    if lo == hi:
        return f"= {format_extended(lo)}"
    if hi == INF:
        return "?" if lo == -INF else f"≥ {format_extended(lo)}"
    if lo == -INF:
        return f"≤ {format_extended(hi)}"
    return f"∈ [{format_extended(lo)}, {format_extended(hi)}]"


def total_text(total: int | None, spec: str) -> str:
    """A tree's leaves formatted, or ``?`` where they were not counted (a game searched on
    demand)."""
    return "?" if total is None else format(total, spec)
