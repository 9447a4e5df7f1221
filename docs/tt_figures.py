"""The figures of docs/research.md, "Transposition tables: the literature, reproduced".

Every number comes from gtsearch's own searches (``gtsearch.search``,
``gtsearch.algorithms.iterative.iterate``) over ``random:`` and ``game:``
sources with the seeds and sizes written here, so the pictures can be made
again bit for bit.  Needs the ``plot`` extra (matplotlib)::

    python docs/tt_figures.py all --out docs      # every figure, and its numbers
    python docs/tt_figures.py games --out docs    # one of them

Figures (PNG, named ``tt-NAME.png``), each printed as a table too:

- ``mtsss``: MT-SSS* with a table against SSS*, leaf for leaf, on 200 random
  trees (exit status 1 if one tree differs in value or in the leaves read, in order);
- ``games``: alpha-beta, NegaScout and MTD(f), without and with a table, and
  alpha-beta by iterative deepening with the table (alone, and with history and
  killers), on games with transpositions: the leaves each reads;
- ``star``: Star1 and Star2, without and with a table, against expectiminimax
  on regular *-minimax trees: the share of its leaf evaluations they make.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gtsearch import search
from gtsearch.algorithms.iterative import iterate
from gtsearch.algorithms.ordering import MoveOrder
from gtsearch.sources import open_source

#: the table's size in every search of the figures (MiB): large enough to forget nothing here
TT = 16
#: the games: (label, source, depth cut or None)
GAMES = (
    ("tic-tac-toe", "game:tictactoe", None),
    ("Nim 15", "game:nim:heap=15", None),
    ("Hexapawn 3x3", "game:hexapawn", None),
    ("Othello 4x4, d=7", "game:othello", 7),
    ("Connect Four 4x5, d=8", "game:connect4:rows=4,columns=5", 8),
    ("dots and boxes 2x2, d=7", "game:dotsandboxes:rows=2,columns=2", 7),
)
#: the searches of the games figure: label, algorithm, table, iterative deepening, ordering
SEARCHES = (
    ("alphabeta", "alphabeta", 0, False, {}),
    ("negascout", "negascout", 0, False, {}),
    ("mtdf", "mtdf", 0, False, {}),
    ("alphabeta + tt", "alphabeta", TT, False, {}),
    ("negascout + tt", "negascout", TT, False, {}),
    ("mtdf + tt", "mtdf", TT, False, {}),
    ("ID + tt", "alphabeta", TT, True, {}),
    ("ID + tt + history + killers", "alphabeta", TT, True, {"history": True, "killers": True}),
)


def mtsss_data() -> list[tuple[str, int, int]]:
    """(source, SSS*'s leaves, MT-SSS*'s with a table) for 200 random trees; raises when one
    differs in value or leaf order."""
    rows = []
    for seed in range(200):
        b, d = 2 + seed % 3, 2 + seed % 5
        spec = f"random:b={b},d={d},seed={seed},values=-9:9"
        tree = open_source(spec)
        sss = search(tree, "sss", leaf_order=True)
        mt = search(tree, "mt-sss", tt=TT, leaf_order=True)
        if (mt.value, mt.leaf_order) != (sss.value, sss.leaf_order):
            raise SystemExit(f"{spec}: MT-SSS* with a table is not SSS*")
        rows.append((spec, sss.leaves, mt.leaves))
    return rows


def games_data() -> dict[str, dict[str, int | None]]:
    """Leaves read by each search of SEARCHES on each game of GAMES (None: not applicable)."""
    out: dict[str, dict[str, int | None]] = {}
    for label, spec, depth in GAMES:
        tree = open_source(spec, depth=depth)
        row: dict[str, int | None] = {}
        for name, algo, tt, deepening, ordering in SEARCHES:
            if deepening:
                if depth is None:  # no estimate: iterative deepening needs one at its horizon
                    row[name] = None
                    continue
                moves = MoveOrder(tree, **ordering) if ordering else None
                row[name] = sum(r.leaves for r in iterate(tree, tt, moves=moves))
            else:
                row[name] = search(tree, algo, **({"tt": tt} if tt else {})).leaves
        out[label] = row
    return out


def star_data() -> list[dict[str, Any]]:
    """Leaf evaluations of expectiminimax, Star1 and Star2 (without and with a table) summed
    over 30 regular *-minimax trees per (b, d), c = 3."""
    rows = []
    for b in (2, 3, 4):
        for d in (1, 2, 3):
            sums = dict.fromkeys(
                ("expectiminimax", "star1", "star2", "star1 + tt", "star2 + tt"), 0
            )
            for seed in range(30):
                tree = open_source(f"random:b={b},d={d},chance=3,seed={seed}")
                sums["expectiminimax"] += search(tree, "expectiminimax").leaves
                for name in ("star1", "star2"):
                    sums[name] += search(tree, name).leaves
                    sums[name + " + tt"] += search(tree, name, tt=TT).leaves
            rows.append({"b": b, "d": d, **sums})
    return rows


# -- the pictures -------------------------------------------------------------------------------
def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def draw_mtsss(rows: list[tuple[str, int, int]], path: Path) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.2, 3.6), dpi=100)
    xs = [r[1] for r in rows]
    ax.scatter(xs, [r[2] for r in rows], s=12, label="200 random trees")
    top = max(xs)
    ax.plot([0, top], [0, top], color="grey", linewidth=0.8, label="y = x")
    ax.set_xlabel("SSS*: leaves")
    ax.set_ylabel("MT-SSS* with a table: leaves")
    ax.set_title("MT-SSS* + table = SSS* (Plaat et al. 1996)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def draw_games(data: dict[str, dict[str, int | None]], path: Path) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3.8), dpi=100)
    names = [s[0] for s in SEARCHES]
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        xs = [i + k * width for i in range(len(data))]
        ys = [row[name] or 0 for row in data.values()]
        ax.bar(xs, ys, width, label=name)
    ax.set_yscale("log")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(data))])
    ax.set_xticklabels([label.replace(", ", "\n") for label in data], fontsize=7)
    ax.set_ylabel("leaves read (log)")
    ax.set_title("Games with transpositions: leaves read, with and without a table", fontsize=9)
    ax.legend(fontsize=6, ncol=4)
    fig.tight_layout()
    fig.savefig(path)


def draw_star(rows: list[dict[str, Any]], path: Path) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    cells = [f"b={r['b']} d={r['d']}" for r in rows]
    for name in ("star1", "star2", "star1 + tt", "star2 + tt"):
        shares = [r[name] / r["expectiminimax"] for r in rows]
        style = "--" if name == "star1 + tt" else "-"  # on star1's line: it reads each leaf once
        ax.plot(cells, shares, style, marker="o", label=name)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_ylabel("leaf evaluations / expectiminimax's")
    ax.set_title(
        "Star1 and Star2, c = 3, 30 trees a cell (Ballard 1983; Hauk et al. 2004)", fontsize=9
    )
    ax.tick_params(axis="x", labelsize=7, rotation=30)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figure", choices=("all", "mtsss", "games", "star"))
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args(argv)
    chosen = ("mtsss", "games", "star") if args.figure == "all" else (args.figure,)
    if "mtsss" in chosen:
        rows = mtsss_data()
        print(f"mtsss: {len(rows)} trees, {sum(r[1] for r in rows):,} leaves, equal leaf for leaf")
        draw_mtsss(rows, args.out / "tt-mtsss.png")
    if "games" in chosen:
        data = games_data()
        print("| game | " + " | ".join(s[0] for s in SEARCHES) + " |")
        print("|---|" + "---:|" * len(SEARCHES))
        for label, row in data.items():
            cells = ["–" if v is None else f"{v:,}" for v in row.values()]
            print(f"| {label} | " + " | ".join(cells) + " |")
        draw_games(data, args.out / "tt-games.png")
    if "star" in chosen:
        star = star_data()
        keys = ("expectiminimax", "star1", "star2", "star1 + tt", "star2 + tt")
        print("| b | d | " + " | ".join(keys) + " |")
        print("|---|---|" + "---:|" * len(keys))
        for r in star:
            print(f"| {r['b']} | {r['d']} | " + " | ".join(f"{r[k]:,}" for k in keys) + " |")
        draw_star(star, args.out / "tt-star.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
