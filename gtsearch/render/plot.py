"""Plots of an experiment's summary with matplotlib (the ``plot`` extra): mean leaves against depth."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..errors import GtsearchError, UsageError

#: the reference lines of every panel: (the summary key, the label, the line's style)
REFERENCE_LINES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("full_tree", "full tree $b^d$ (minimax)", {"color": "0.6", "linestyle": ":", "linewidth": 2}),
    (
        "minimal_tree",
        "minimal tree (Knuth & Moore)",
        {"color": "black", "linestyle": "--", "linewidth": 1.2},
    ),
)


def plot(rows: Sequence[dict[str, Any]], path: str, title: str | None = None) -> None:
    """Mean leaves against depth on a log scale, one panel per b, one line per algorithm.

    The Knuth-Moore minimal tree and the full tree b^d (which every summary
    row carries) are drawn as reference lines; error bars are one standard error.  The format follows the
    extension (.png, .svg, .pdf).  Needs matplotlib (``pip install gtsearch[plot]``).
    """
    try:
        # the Figure API draws without pyplot: no backend to choose, no global state
        from matplotlib import colormaps
        from matplotlib.colors import ListedColormap
        from matplotlib.figure import Figure
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    except ImportError:
        raise GtsearchError(
            "--plot needs matplotlib: install gtsearch[plot] (pip install 'gtsearch[plot]')"
        ) from None

    branchings = sorted({r["b"] for r in rows})
    if not branchings:
        raise UsageError("nothing to plot: the sweep has no results")
    series: dict[str, list[tuple[int, int, float, float]]] = {}
    re_read: set[str] = set()
    for r in rows:
        series.setdefault(r["algorithm"], []).append((r["b"], r["d"], r["mean"], r["stderr"]))
        if r.get("mean_distinct", r["mean"]) < r["mean"]:
            re_read.add(r["algorithm"])
    # algorithms with the same numbers everywhere (SSS* and MT-SSS*, ...) share one line;
    # minimax is the full tree, drawn as a reference line
    lines: dict[tuple[tuple[int, int, float, float], ...], list[str]] = {}
    for name, points in series.items():
        if name != "minimax":
            lines.setdefault(tuple(sorted(points)), []).append(name)
    width = 4.0 * len(branchings) + 2.4
    fig = Figure(figsize=(width, 4.4))
    axes = fig.subplots(1, len(branchings), squeeze=False)[0]
    palette = colormaps["tab10"]
    assert isinstance(palette, ListedColormap)  # ten colours, not a gradient
    colors = [palette(i) for i in range(palette.N)]
    markers = "osD^v<>pPhX*"
    for ax, b in zip(axes, branchings, strict=True):
        # the reference sizes each summary row carries, by depth (no minimal tree for
        # chance nodes: that line is left out)
        for key, label, style in REFERENCE_LINES:
            sizes = {r["d"]: r[key] for r in rows if r["b"] == b}
            depths = sorted(sizes)
            if all(sizes[d] is not None for d in depths):
                ax.plot(depths, [sizes[d] for d in depths], label=label, **style)
        for k, (pts, names) in enumerate(lines.items()):
            mine = [p for p in pts if p[0] == b]
            ax.errorbar(
                [p[1] for p in mine],
                [p[2] for p in mine],
                yerr=[p[3] for p in mine],
                color=colors[k % len(colors)],
                marker=markers[k % len(markers)],
                markersize=3.5,
                linewidth=1.1,
                capsize=2,
                label=" = ".join(
                    n + (" (re-reads counted)" if n in re_read else "") for n in names
                ),
            )
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: f"{y:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks(depths)
        ax.set_xlabel("depth d")
        ax.set_title(f"b = {b}")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("mean leaves evaluated")
    handles, labels = axes[0].get_legend_handles_labels()
    legend_width = 2.3 / width
    fig.legend(
        handles,
        labels,
        loc="center left",
        bbox_to_anchor=(1.0 - legend_width, 0.5),
        fontsize=8,
        frameon=False,
    )
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1.0 - legend_width, 1))
    save_figure(fig, path, 130)


def save_figure(fig: Any, path: str, dpi: int) -> None:
    """Write a matplotlib figure to ``path`` in the format its extension names, whole or not
    at all (:mod:`gtsearch.files`); one GtsearchError when it cannot be written."""
    from ..files import replacing

    kind = os.path.splitext(path)[1][1:].lower() or None
    try:
        with replacing(path) as f:
            fig.savefig(f, dpi=dpi, format=kind)
    except (OSError, ValueError) as e:
        raise GtsearchError(f"{path}: cannot write the plot: {e}") from None
