"""The research workbench's tables: compare's side-by-side table, experiment's summary and growth."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..result import SearchResult
from .labels import format_seconds, format_value, params_text, total_text
from .tables import csv_cell

if TYPE_CHECKING:
    from rich.console import Console

    from ..tree import Tree

BEST = "★"


def render_compare(
    name: str, tree: Tree, results: Sequence[SearchResult], console: Console
) -> None:
    from rich.table import Table
    from rich.text import Text

    values = {format_value(r) for r in results if r.exact}
    shown = values.pop() if len(values) == 1 else "disputed"
    leaves = total_text(tree.n_leaves, "")
    table = Table(title=f"{name}: {leaves} leaves, value {shown}", title_justify="left")
    # (header, cell of a result); a column that no result fills is left out
    columns: list[tuple[str, Callable[[SearchResult], str]]] = [
        ("algorithm", algorithm_cell),
        ("value", format_value),
        ("leaves", lambda r: str(r.leaves)),
        ("share", lambda r: _percent(r.extra["share"])),
        ("re-read", lambda r: str(r.extra.get("re_evaluations") or "")),
        ("nodes", lambda r: str(r.nodes)),
        ("OPEN peak", lambda r: str(r.extra.get("open_max", ""))),
        ("MT passes", lambda r: str(r.extra.get("passes", ""))),
        ("probes", lambda r: str(r.extra.get("probes", ""))),
        ("time", lambda r: format_seconds(r.seconds)),
        ("best", lambda r: BEST if r.extra["best"] else ""),
    ]
    grid = [[cell(r) for _, cell in columns] for r in results]
    keep = [
        k
        for k, (header, _) in enumerate(columns)
        if header == "best" or any(row[k] for row in grid)
    ]
    for k in keep:
        header = columns[k][0]
        table.add_column(
            header,
            justify="left" if header == "algorithm" else "center" if header == "best" else "right",
            style="cyan" if header == "algorithm" else "bold" if header == "value" else None,
        )
    for row in grid:
        table.add_row(*(Text(row[k]) for k in keep))
    console.print(table)


def algorithm_cell(r: SearchResult) -> str:
    params = params_text(r.params)
    return r.algorithm + (f" ({params})" if params else "")


def _percent(share: float | None) -> str:
    """Three significant digits (77.8%, 100%), whole percents from 1,000% up (mcts's re-reads:
    11,111%, not 1.11e+04%); nothing for a search on demand (its leaves are not counted)."""
    if share is None:
        return ""
    percent = 100 * share
    return f"{percent:,.0f}%" if percent >= 999.5 else f"{percent:.3g}%"


#: how the title names the trees of each --order
ORDER_WORDS = {
    "random": "random trees",
    "best": "best-first ordered trees",
    "worst": "worst-first ordered trees",
}


def sweep_title(records: Sequence[dict[str, Any]]) -> str:
    tables: set[int] = set()
    for rec in records:
        mib = (rec.get("params") or {}).get("tt")
        if mib:
            tables.add(int(mib))
    title = _trees_title(records)
    return title + "".join(f", table {mib} MiB" for mib in sorted(tables))


def _trees_title(records: Sequence[dict[str, Any]]) -> str:
    r = records[0]
    trials = len({rec["trial"] for rec in records})
    chance = r.get("chance")
    trees = (
        f"regular *-minimax trees (c = {chance} equally likely outcomes per chance node)"
        if chance
        else ORDER_WORDS.get(r["order"], f"{r['order']} ordered trees")
    )
    model = r.get("model", "iid")
    if model == "binary":
        return f"{trials} {trees} per (b, d), model binary (p = {r['p']:g}), seed {r['seed']}"
    if model != "iid":
        trees += f", model {model}"
    if model == "permutation":
        return f"{trials} {trees} per (b, d), seed {r['seed']}"
    return f"{trials} {trees} per (b, d), integer leaves in {r['lo']}..{r['hi']}, seed {r['seed']}"


def table_csv(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for row in rows:
        writer.writerow([csv_cell(row.get(k)) for k in keys])
    return out.getvalue()


def _pm(mean: float, se: float) -> str:
    """mean ± standard error, the mean rounded where the error's second figure is."""
    if se <= 0:
        return f"{mean:g}" if mean < 1e6 else f"{mean:.0f}"
    decimals = max(0, 1 - math.floor(math.log10(se)))
    return f"{mean:.{decimals}f} ± {se:.{decimals}f}"


def savings(rows: Sequence[dict[str, Any]], base: str = "expectiminimax") -> list[dict[str, Any]]:
    """What each algorithm saves against ``base`` per (b, d): the share of its mean leaf
    evaluations, and of its mean distinct leaves, that it does not read (rows of
    :func:`gtsearch.research.experiment.summarize`)."""
    ref = {(r["b"], r["d"]): r for r in rows if r["algorithm"] == base}
    out = []
    for r in rows:
        full = ref.get((r["b"], r["d"]))
        if full is None or r["algorithm"] == base or not full["mean"]:
            continue
        out.append(
            {
                "b": r["b"],
                "d": r["d"],
                "algorithm": r["algorithm"],
                "saved": 1 - r["mean"] / full["mean"],
                "saved_distinct": 1 - r["mean_distinct"] / full["mean"],
            }
        )
    return out


def render_savings(rows: Sequence[dict[str, Any]], console: Console) -> None:
    """The savings against expectiminimax, leaf evaluations and distinct leaves."""
    from rich.table import Table
    from rich.text import Text

    saved = savings(rows)
    if not saved:
        return
    algos = list(dict.fromkeys(s["algorithm"] for s in saved))
    console.print(
        Text("Saved against expectiminimax: leaf evaluations (re-reads counted) / distinct leaves")
    )
    table = Table()
    table.add_column("b", justify="right")
    table.add_column("d", justify="right")
    for name in algos:
        table.add_column(name, justify="right")
    cells: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for s in saved:
        cells.setdefault((s["b"], s["d"]), {})[s["algorithm"]] = s
    for (b, d), by_algo in cells.items():
        out = [Text(str(b)), Text(str(d))]
        for name in algos:
            cell = by_algo.get(name)
            out.append(
                Text(
                    ""
                    if cell is None
                    else f"{100 * cell['saved']:.1f}% / {100 * cell['saved_distinct']:.1f}%"
                )
            )
        table.add_row(*out)
    console.print(table)


def render_experiment(
    rows: Sequence[dict[str, Any]], growth: Sequence[dict[str, Any]], title: str, console: Console
) -> None:
    from rich.table import Table
    from rich.text import Text

    algos = list(dict.fromkeys(r["algorithm"] for r in rows))
    cells: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for r in rows:
        cells.setdefault((r["b"], r["d"]), {})[r["algorithm"]] = r
    # titles above the tables, not in them: a narrow table would fold them
    console.print(Text(f"Mean leaves evaluated ± standard error: {title}"))
    table = Table()
    table.add_column("b", justify="right")
    table.add_column("d", justify="right")
    for name in algos:
        table.add_column(name, justify="right")
    chance = rows[0]["minimal_tree"] is None
    if not chance:
        table.add_column("minimal", justify="right", style="dim")
    table.add_column("(bc)^d" if chance else "b^d", justify="right", style="dim")
    for (b, d), by_algo in cells.items():
        best = min(r["mean"] for r in by_algo.values())
        out = [Text(str(b)), Text(str(d))]
        for name in algos:
            row = by_algo.get(name)
            text = "" if row is None else _pm(row["mean"], row["stderr"])
            out.append(Text(text, style="bold" if row is not None and row["mean"] == best else ""))
        any_row = next(iter(by_algo.values()))
        if not chance:
            out.append(Text(str(any_row["minimal_tree"])))
        out.append(Text(str(any_row["full_tree"])))
        table.add_row(*out)
    console.print(table)
    if chance:
        render_savings(rows, console)

    depths = {(g["b"]): g["ratio_depths"] for g in growth if g["ratio_depths"] is not None}
    if not depths:
        return
    console.print(
        Text(
            "Growth per ply, (N(d)/N(d-2))^(1/2) at the deepest d, beside Pearl's "
            "R(b) for alpha-beta and sqrt(b) for the minimal tree"
        )
    )
    gtable = Table()
    gtable.add_column("b", justify="right")
    gtable.add_column("d", justify="right")
    gtable.add_column("R(b) Pearl", justify="right", style="bold")
    gtable.add_column("sqrt(b)", justify="right", style="dim")
    for name in algos:
        gtable.add_column(name, justify="right")
    by_b: dict[int, dict[str, dict[str, Any]]] = {}
    for g in growth:
        by_b.setdefault(g["b"], {})[g["algorithm"]] = g
    for b, by_algo in sorted(by_b.items()):
        if b not in depths:
            continue
        d0, d1 = depths[b]
        first = next(iter(by_algo.values()))
        figures = [str(b), f"{d0}→{d1}", f"{first['pearl_r']:.3f}", f"{first['sqrt_b']:.3f}"]
        figures += [f"{by_algo[name]['ratio']:.3f}" if name in by_algo else "" for name in algos]
        gtable.add_row(*(Text(c) for c in figures))
    console.print(gtable)
