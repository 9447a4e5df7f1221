"""Results as a rich table, JSON lines or CSV: pure functions from data to text, no click.

rich, json and csv are imported by the functions that use them: ``gtsearch eval
--format json`` loads neither rich nor csv.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..core import PURE
from ..core import name as core_name
from ..numbers import format_number
from ..result import SearchResult
from .labels import (
    format_path,
    format_pv,
    format_seconds,
    format_value,
    params_text,
    total_text,
)

if TYPE_CHECKING:  # rich is imported only when a table is drawn
    from rich.console import Console

#: one line of output: (file as the user named it, seconds to load it, the result)
Row = tuple[str, float | None, SearchResult]

#: the CSV columns, in order; list fields are joined (see csv_text)
CSV_COLUMNS = (
    "file",
    "algorithm",
    "value",
    "exact",
    "bound",
    "pv",
    "pv_labels",
    "leaves",
    "leaves_total",
    "seconds",
    "load_seconds",
    "nodes",
    "params",
)


class AlgorithmInfo(Protocol):
    """What the renderers read from a registry entry (gtsearch.algorithms.Algorithm)."""

    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def summary(self) -> str: ...
    @property
    def takes(self) -> str | None: ...
    @property
    def needs_bound(self) -> bool: ...
    @property
    def source(self) -> str: ...
    @property
    def chance(self) -> bool: ...


# -- search results ------------------------------------------------------------------
def render_table(rows: Iterable[Row], console: Console) -> None:
    """Print one table row per (file, algorithm), then the evaluated leaves where asked."""
    from rich.table import Table
    from rich.text import Text

    rows = list(rows)
    table = Table()
    table.add_column("file", overflow="fold")
    table.add_column("algorithm", style="cyan")
    table.add_column("value", justify="right", style="bold")
    table.add_column("PV", overflow="fold")
    table.add_column("leaves", justify="right")
    table.add_column("time", justify="right")
    for file, _load, result in rows:
        params = params_text(result.params)
        name = result.algorithm + (f" ({params})" if params else "")
        table.add_row(
            Text(file),
            Text(name),
            Text(format_value(result)),
            Text(format_pv(result)),
            Text(f"{result.leaves} / {total_text(result.leaves_total, '')}"),
            Text(format_seconds(result.seconds)),
        )
    console.print(table)
    for file, _load, result in rows:
        if result.leaf_order is not None:
            leaves = " ".join(format_path(p) for p in result.leaf_order)
            console.print(
                Text(f"{file}: {result.algorithm} evaluated {result.leaves} leaves: {leaves}"),
                soft_wrap=True,
            )


def json_records(records: Iterable[Mapping[str, Any]], *, ascii_only: bool = True) -> str:
    """One JSON object per record and line, each ending in a newline.

    Ints stay ints and floats print as Python writes them (2.5); a NaN or an
    infinity is a bug upstream, and json refuses it rather than printing
    ``Infinity``.  ``ascii_only`` False keeps non-ASCII text as it is.
    """
    import json

    return "".join(json.dumps(r, ensure_ascii=ascii_only, allow_nan=False) + "\n" for r in records)


def json_lines(rows: Iterable[Row]) -> str:
    """One JSON object per result (SearchResult.to_dict) and line."""
    return json_records(result.to_dict(file, load) for file, load, result in rows)


def csv_text(rows: Iterable[Row]) -> str:
    """A header and one CSV row per result.

    Lists are joined with spaces: ``pv`` and each ``leaf_order`` entry as dotted
    paths (``0.0``), ``pv_labels`` as names with ``-`` for an unnamed node
    (empty when no node is named), ``params`` as ``key=value``.  ``exact`` is
    ``true``/``false``; a missing value is an empty cell.  Algorithm-specific
    figures (the ``extra`` of a result) follow as further columns.
    """
    import csv
    import io

    records = [(result, result.to_dict(file, load)) for file, load, result in rows]
    columns = list(CSV_COLUMNS)
    for _, d in records:
        for key in d:
            if key not in columns and key != "leaf_order":
                columns.append(key)
    with_leaves = any(result.leaf_order is not None for result, _ in records)
    if with_leaves:
        columns.append("leaf_order")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for result, d in records:
        cells = dict(d)
        cells["exact"] = "true" if result.exact else "false"
        cells["pv"] = format_path(result.pv) if result.pv else ""
        labels = result.pv_labels
        cells["pv_labels"] = (
            " ".join("-" if x is None else x for x in labels)
            if any(x is not None for x in labels)
            else ""
        )
        cells["params"] = params_text(result.params)
        if result.leaf_order is not None:
            cells["leaf_order"] = " ".join(format_path(p) for p in result.leaf_order)
        writer.writerow([csv_cell(cells.get(c)) for c in columns])
    return out.getvalue()


def csv_cell(v: Any) -> str:
    """One CSV cell: empty for None, true/false, numbers as written, a mapping as k=v pairs."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return format_number(v)
    if isinstance(v, dict):
        return " ".join(f"{k}={csv_cell(x)}" for k, x in v.items())
    return str(v)


# -- the algorithm registry -------------------------------------------------------------
def takes_text(algo: AlgorithmInfo) -> str:
    """Which numeric options an algorithm accepts, as the command line spells them."""
    if algo.takes == "window":
        return "--alpha/--beta"
    if algo.takes == "bound":
        return "--bound (required)" if algo.needs_bound else "--bound"
    if algo.takes == "leaf_bounds":
        return "--leaf-bounds"
    if algo.takes == "mcts":
        return "--iterations/--seed"
    return "-"


def algorithm_dict(algo: AlgorithmInfo) -> dict[str, Any]:
    """A registry entry as a JSON object (docs/commands.md, "gtsearch algorithms").

    ``core`` is the core that runs it: "C" or "pure Python" (the searches of
    chance nodes are always Python's).
    """
    from ..algorithms.params import parameters
    from ..algorithms.registry import family

    return {
        "name": algo.name,
        "aliases": list(algo.aliases),
        "takes": algo.takes,
        "needs_bound": algo.needs_bound,
        "summary": algo.summary,
        "source": algo.source,
        "family": family(algo.name),
        "parameters": [
            {
                "name": p.name,
                "option": p.option,
                "type": {"leaf_bounds": "range", "variant": "choice"}.get(p.name, "number"),
                "required": p.required,
                "default": p.default,
                "meaning": p.meaning,
            }
            for p in parameters(algo.name)
        ],
        "chance": algo.chance,
        "core": PURE if algo.chance else core_name(),
    }


def algorithms_text(algos: Iterable[AlgorithmInfo]) -> str:
    """One aligned line per algorithm: name, aliases, options it takes, summary."""
    return registry_text(
        [(a.name, ", ".join(a.aliases) or "-", takes_text(a), a.summary) for a in algos]
    )


def registry_text(lines: Sequence[Sequence[str]]) -> str:
    """One aligned line per entry of a registry (``gtsearch algorithms``, ``gtsearch games``):
    every cell but the last padded to its column, two spaces between."""
    if not lines:
        return ""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]) - 1)]
    return "".join(
        "".join(f"{cell.ljust(w)}  " for cell, w in zip(line, widths, strict=False))
        + line[-1]
        + "\n"
        for line in lines
    )


def render_algorithms(algos: Iterable[AlgorithmInfo], console: Console) -> None:
    """The algorithm registry as a rich table."""
    rows = [(a.name, ", ".join(a.aliases), takes_text(a), a.summary) for a in algos]
    registry_table(("name", "aliases", "takes", "summary"), rows, console)


def registry_table(titles: Sequence[str], rows: Iterable[Sequence[str]], console: Console) -> None:
    """A registry as a rich table, its first column (the names) in cyan."""
    from rich.table import Table
    from rich.text import Text

    table = Table()
    table.add_column(titles[0], style="cyan")
    for title in titles[1:]:
        table.add_column(title)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)


# -- validate -------------------------------------------------------------------------
def summary_line(file: str, summary: dict[str, Any]) -> str:
    """One line about a valid tree file (see gtsearch.summary.summarize)."""
    s = summary
    if s["internal"]:
        branching = (
            f"branching {s['branching_min']}-{s['branching_max']} (mean {s['branching_mean']:g})"
        )
    else:
        branching = "branching - (a single leaf)"
    parts = [
        f"{s['nodes']} nodes",
        f"{s['leaves']} leaves",
        f"depth {s['depth']}",
        branching,
        f"root {s['root']}",
        f"{s['names']} names",
        f"{s['static_values']} static values",
    ]
    if s.get("chance_nodes"):
        parts.append(f"{s['chance_nodes']} chance nodes ({s['weighted']} with weights)")
    if s.get("expect") is not None:
        parts.append(f"expect {format_number(s['expect'])}")
    if s.get("title"):
        parts.append(f"title {s['title']!r}")
    return f"{file}: ok: " + ", ".join(parts)
