"""The figures of docs/research.md, "The literature, reproduced on sources", from the sweeps.

Every number comes from gtsearch's own sweeps over ``random:`` sources
(gtsearch.research.experiment), with the seeds given here, so the pictures
can be made again bit for bit; nothing is typed in by hand.  Needs the
``plot`` extra (matplotlib)::

    python scripts/research_figures.py all --out docs          # every figure
    python scripts/research_figures.py minimal --out docs      # one of them
    python scripts/research_figures.py all --quick --out /tmp  # small sizes (the tests)

Figures (PNG, named ``research-NAME.png``):

- ``minimal``: alpha-beta's and SSS*'s leaves on best-ordered trees against
  Knuth & Moore's minimal tree b^ceil(d/2) + b^floor(d/2) - 1 (exit status 1
  if any point is off it);
- ``pearl``: alpha-beta's growth per ply on random trees, (N(d)/N(d-2))^(1/2),
  against Pearl's R(b) and sqrt(b);
- ``models``: SSS*'s leaves as a share of alpha-beta's in the four models;
- ``b40``: every algorithm on two trees of Knuth & Moore's size, b=40 d=5.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gtsearch.research.experiment import Sweep, run_sweep, summarize
from gtsearch.research.theory import minimal_tree, pearl_r

#: one seed for every sweep of the figures
SEED = 1
#: the four leaf models of docs/sources.md, in the order of the figure's legend
MODELS = ("iid", "permutation", "incremental", "binary")
#: values wide enough to make ties rare on best-ordered trees (the minimal tree needs them)
WIDE = (0, 10**9)


# -- the data -----------------------------------------------------------------------------------
def minimal_data(quick: bool = False) -> list[dict[str, Any]]:
    """Leaves of alpha-beta and SSS* on best-ordered trees, one tree a cell, with the formula."""
    branchings = (2, 3) if quick else (2, 3, 5, 10)
    depths = tuple(range(1, 5 if quick else 9))
    sweep = Sweep(
        branchings=branchings,
        depths=depths,
        trials=1,
        seed=SEED,
        order="best",
        lo=WIDE[0],
        hi=WIDE[1],
        algorithms=("alphabeta", "sss"),
    )
    rows = summarize(run_sweep(sweep))
    for row in rows:
        row["formula"] = minimal_tree(row["b"], row["d"])
    return rows


def pearl_data(quick: bool = False) -> list[dict[str, Any]]:
    """Alpha-beta's growth per ply, (N(d)/N(d-2))^(1/2) for every d with d-2, per b."""
    plan = {2: 14, 3: 12, 4: 10, 8: 8} if not quick else {2: 6, 4: 5}
    trials = 10 if quick else 100
    out: list[dict[str, Any]] = []
    for b, deepest in plan.items():
        sweep = Sweep(
            branchings=(b,),
            depths=tuple(range(1, deepest + 1)),
            trials=trials,
            seed=SEED,
            lo=-WIDE[1],  # Pearl's leaves are continuous: values wide enough to make ties rare
            hi=WIDE[1],
            algorithms=("alphabeta",),
        )
        means = {r["d"]: r["mean"] for r in summarize(run_sweep(sweep))}
        for d in range(3, deepest + 1):
            out.append(
                {
                    "b": b,
                    "d": d,
                    "trials": trials,
                    "growth": (means[d] / means[d - 2]) ** 0.5,
                    "pearl_r": pearl_r(b),
                    "sqrt_b": math.sqrt(b),
                }
            )
    return out


def models_data(quick: bool = False) -> list[dict[str, Any]]:
    """SSS*'s mean leaves over alpha-beta's, b = 4, per model and depth."""
    depths = tuple(range(2, 5 if quick else 8))
    trials = 5 if quick else 20
    out: list[dict[str, Any]] = []
    for model in MODELS:
        sweep = Sweep(
            branchings=(4,),
            depths=depths,
            trials=trials,
            seed=SEED,
            model=model,
            algorithms=("alphabeta", "sss"),
        )
        rows = summarize(run_sweep(sweep))
        mean = {(r["d"], r["algorithm"]): r["mean"] for r in rows}
        for d in depths:
            out.append(
                {
                    "model": model,
                    "d": d,
                    "trials": trials,
                    "alphabeta": mean[(d, "alphabeta")],
                    "sss": mean[(d, "sss")],
                    "share": mean[(d, "sss")] / mean[(d, "alphabeta")],
                }
            )
    return out


def b40_data(quick: bool = False) -> list[dict[str, Any]]:
    """Every algorithm but minimax (it would visit every node) on b=40 d=5, two trees."""
    b, d = (10, 3) if quick else (40, 5)
    sweep = Sweep(
        branchings=(b,),
        depths=(d,),
        trials=2,
        seed=0,
        algorithms=("f1", "alphabeta", "sss", "dual", "negascout", "scout", "mtdf"),
    )
    return summarize(run_sweep(sweep))


# -- the drawings -------------------------------------------------------------------------------
def _figure(width: float = 6.4, height: float = 4.4) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100)


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    # no date or version in the file: the same data make the same bytes
    fig.savefig(path, format="png", metadata={"Software": None})


def draw_minimal(rows: Sequence[dict[str, Any]], path: Path) -> None:
    fig = _figure()
    ax = fig.subplots()
    branchings = sorted({r["b"] for r in rows})
    for i, b in enumerate(branchings):
        color = f"C{i}"
        mine = [r for r in rows if r["b"] == b]
        depths = sorted({r["d"] for r in mine})
        ax.plot(
            depths,
            [minimal_tree(b, d) for d in depths],
            color=color,
            linewidth=1.2,
            label=f"b={b}: $b^{{\\lceil d/2\\rceil}}+b^{{\\lfloor d/2\\rfloor}}-1$",
        )
        for algo, marker, size in (("alphabeta", "o", 7), ("sss", "x", 6)):
            pts = [r for r in mine if r["algorithm"] == algo]
            ax.plot(
                [r["d"] for r in pts],
                [r["mean"] for r in pts],
                linestyle="none",
                marker=marker,
                markersize=size,
                color=color,
                markerfacecolor="none",
            )
    ax.plot([], [], "o", color="0.3", markerfacecolor="none", label="alpha-beta")
    ax.plot([], [], "x", color="0.3", label="SSS*")
    ax.set_yscale("log")
    ax.set_xlabel("depth d")
    ax.set_ylabel("leaves evaluated")
    ax.set_title(
        "Best-first order: alpha-beta and SSS* read the minimal tree\n(Knuth & Moore 1975)",
        fontsize=10,
    )
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    _save(fig, path)


def draw_pearl(rows: Sequence[dict[str, Any]], path: Path) -> None:
    fig = _figure(9.0, 4.6)
    ax = fig.subplots()
    for i, b in enumerate(sorted({r["b"] for r in rows})):
        color = f"C{i}"
        mine = [r for r in rows if r["b"] == b]
        ax.plot(
            [r["d"] for r in mine],
            [r["growth"] for r in mine],
            marker="o",
            markersize=4,
            color=color,
            label=f"b={b}: alpha-beta, $(N(d)/N(d-2))^{{1/2}}$",
        )
        ax.axhline(
            mine[0]["pearl_r"],
            color=color,
            linestyle="--",
            linewidth=1,
            label=f"b={b}: Pearl's $R_b$ = {mine[0]['pearl_r']:.3f}",
        )
        ax.axhline(mine[0]["sqrt_b"], color=color, linestyle=":", linewidth=1)
    ax.plot([], [], color="0.3", linestyle=":", label=r"$\sqrt{b}$: the minimal tree")
    ax.set_xlabel("depth d")
    ax.set_ylabel("growth of the leaves per ply")
    trials = rows[0]["trials"] if rows else 0
    ax.set_title(
        f"Alpha-beta's branching factor on random trees ({trials} trees a point)\n"
        "against Pearl's $R_b = \\xi_b/(1-\\xi_b)$ (Pearl 1982)",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    _save(fig, path)


def draw_models(rows: Sequence[dict[str, Any]], path: Path) -> None:
    fig = _figure()
    ax = fig.subplots()
    for i, model in enumerate(MODELS):
        mine = [r for r in rows if r["model"] == model]
        ax.plot(
            [r["d"] for r in mine],
            [100 * r["share"] for r in mine],
            marker="os^D"[i],
            markersize=5,
            color=f"C{i}",
            label=model,
        )
    ax.axhline(100, color="0.6", linestyle=":", linewidth=1)
    ax.set_ylim(0, 110)
    ax.set_xlabel("depth d (b = 4)")
    ax.set_ylabel("SSS*'s leaves, % of alpha-beta's")
    trials = rows[0]["trials"] if rows else 0
    ax.set_title(
        f"SSS* against alpha-beta by leaf model ({trials} trees a point)\n"
        "(Roizen & Pearl 1983: the savings are limited)",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    _save(fig, path)


def draw_b40(rows: Sequence[dict[str, Any]], path: Path) -> None:
    fig = _figure()
    ax = fig.subplots()
    names = [r["algorithm"] for r in rows]
    means = [r["mean"] for r in rows]
    ax.bar(range(len(rows)), means, yerr=[r["stderr"] for r in rows], color="C0", capsize=3)
    ax.axhline(
        rows[0]["minimal_tree"],
        color="C3",
        linestyle="--",
        linewidth=1,
        label=f"minimal tree: {rows[0]['minimal_tree']:,}",
    )
    ax.set_xticks(range(len(rows)), names, rotation=30, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("leaves evaluated (mean of 2 trees)")
    b, d = rows[0]["b"], rows[0]["d"]
    ax.set_title(
        f"b={b} d={d}: {rows[0]['full_tree']:,} leaves, never written down\n"
        "(Knuth & Moore's largest case)",
        fontsize=10,
    )
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, path)


def check_minimal(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The rows whose leaves differ from the minimal tree (none, by Knuth & Moore)."""
    return [
        f"b={r['b']} d={r['d']} {r['algorithm']}: {r['mean']:g} leaves, minimal tree {r['formula']}"
        for r in rows
        if r["mean"] != r["formula"]
    ]


FIGURES: dict[str, tuple[Callable[[bool], list[dict[str, Any]]], Callable[..., None]]] = {
    "minimal": (minimal_data, draw_minimal),
    "pearl": (pearl_data, draw_pearl),
    "models": (models_data, draw_models),
    "b40": (b40_data, draw_b40),
}


def make(name: str, out: Path, quick: bool = False) -> Path:
    """Compute one figure's data and draw it into out/research-NAME.png; its path."""
    data, draw = FIGURES[name]
    rows = data(quick)
    if name == "minimal":
        off = check_minimal(rows)
        if off:
            raise SystemExit("off the minimal tree:\n" + "\n".join(off))
    path = out / f"research-{name}.png"
    draw(rows, path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", choices=[*FIGURES, "all"])
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder (default docs)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for the tests")
    args = parser.parse_args(argv)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("research_figures.py needs matplotlib: pip install 'gtsearch[plot]'", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in FIGURES if args.figure == "all" else (args.figure,):
        t0 = time.perf_counter()
        path = make(name, args.out, args.quick)
        print(f"{path}  ({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
