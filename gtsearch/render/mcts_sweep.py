"""``experiment -a mcts``'s summary: the table and the plot (optimal moves and value error
against iterations)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import GtsearchError, UsageError
from .plot import save_figure

if TYPE_CHECKING:
    from rich.console import Console


def mcts_title(records: Sequence[dict[str, Any]]) -> str:
    """What the trees were: how many per (b, d), the model and its numbers, the seed."""
    r = records[0]
    trials = len({rec["trial"] for rec in records})
    model = r["model"]
    if model == "trap":
        model += f" (p = {r['p']:g}, k = {r['k']})"
    elif model == "binary":
        model += f" (p = {r['p']:g})"
    values = "" if model in ("permutation", "binary") else f", leaves in {r['lo']}..{r['hi']}"
    return (
        f"{trials} random trees per (b, d), model {model}{values}, seed {r['seed']}; "
        "mcts seeded with each tree's seed"
    )


def _share(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def render_mcts_experiment(rows: Sequence[dict[str, Any]], title: str, console: Console) -> None:
    """One line per (b, d, iterations): optimal moves, traps, value error, leaves."""
    from rich.table import Table
    from rich.text import Text

    traps = any(r["trap"] is not None for r in rows)
    console.print(Text(f"MCTS against minimax: {title}"))
    console.print(
        Text(
            "optimal: mcts's move has the root's minimax value; error: |mcts's value - the "
            "root's minimax value|, in leaf values"
            + ("; traps: the move is a planted trap" if traps else "")
        )
    )
    table = Table()
    for name in ("b", "d", "iterations", "optimal"):
        table.add_column(name, justify="right")
    if traps:
        table.add_column("traps: mcts", justify="right")
        table.add_column("alphabeta", justify="right")
    for name in ("mean error", "max error", "mcts leaves", "alphabeta leaves"):
        table.add_column(name, justify="right")
    for r in rows:
        cells = [str(r["b"]), str(r["d"]), str(r["iterations"]), _share(r["optimal"])]
        if traps:
            cells += [_share(r["trap"]), _share(r["alphabeta_trap"])]
        cells += [
            f"{r['mean_error']:.2f}",
            f"{r['max_error']:.2f}",
            f"{r['mean_leaves']:.0f}",
            f"{r['alphabeta_leaves']:.1f}",
        ]
        table.add_row(*cells)
    console.print(table)


def plot_mcts(rows: Sequence[dict[str, Any]], path: str, title: str | None = None) -> None:
    """Two panels against iterations (log scale), one line per (b, d): the share of optimal
    moves (and of trap moves, dashed, on the trap model), and the mean value error."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise GtsearchError(
            "--plot needs matplotlib: install gtsearch[plot] (pip install 'gtsearch[plot]')"
        ) from None
    if not rows:
        raise UsageError("nothing to plot: the sweep has no results")
    shapes = sorted({(r["b"], r["d"]) for r in rows})
    fig = Figure(figsize=(9.0, 4.4))
    left, right = fig.subplots(1, 2)
    for k, (b, d) in enumerate(shapes):
        mine = sorted(
            (r for r in rows if (r["b"], r["d"]) == (b, d)), key=lambda r: r["iterations"]
        )
        xs = [r["iterations"] for r in mine]
        color = f"C{k % 10}"
        left.plot(
            xs,
            [100 * r["optimal"] for r in mine],
            marker="o",
            color=color,
            markersize=3.5,
            label=f"b = {b}, d = {d}",
        )
        if any(r["trap"] is not None for r in mine):
            left.plot(
                xs,
                [100 * r["trap"] for r in mine],
                marker="x",
                color=color,
                linestyle="--",
                markersize=4,
                label=f"b = {b}, d = {d}: trap moves",
            )
        right.plot(
            xs,
            [r["mean_error"] for r in mine],
            marker="o",
            color=color,
            markersize=3.5,
            label=f"b = {b}, d = {d}",
        )
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xlabel("mcts iterations")
        ax.grid(True, alpha=0.3)
    left.set_ylabel("% of trees")
    left.set_ylim(-3, 103)
    left.set_title("mcts's move is minimax-optimal", fontsize=9)
    right.set_ylabel("mean |value - minimax value|")
    right.set_ylim(bottom=0)
    right.set_title("error of mcts's value (leaf values)", fontsize=9)
    handles, labels = left.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=7, frameon=False)
    if title:
        fig.suptitle(title, fontsize=8)
    rows_of_legend = (len(labels) + 2) // 3
    fig.tight_layout(rect=(0, 0.04 * rows_of_legend + 0.02, 1, 1))
    save_figure(fig, path, 90)
