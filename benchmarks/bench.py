"""gtsearch's speed and memory, as ratios against baselines measured in the same run.

Run from the repository root::

    python benchmarks/bench.py            # every tree of the issue; about 10 minutes
    python benchmarks/bench.py --quick    # small trees only, for a smoke test

It generates seeded uniform trees (``gtsearch gen`` parameters, integer leaves
in [-100, 100]) into benchmarks/data/ (kept between runs), then measures, in
this one process unless a whole process is the point:

- load time per format against ``json.loads`` on the same tree's JSON text and
  against ``yaml.load(text, Loader=yaml.CSafeLoader)`` on its YAML text;
- search time and leaves per second of every algorithm against a plain
  recursive alpha-beta over nested lists written the textbook way;
- bytes per node of the loaded tree, and the peak memory (VmHWM) of a
  ``gtsearch eval`` process against ``python -c "import json; json.load(...)"``;
- the whole-process time of ``gtsearch eval`` on a 9-leaf tree against
  ``python -c pass``.

Times are the best of a few repeats (the minimum is the least disturbed by
other work on the machine).  The targets of the scale issue are printed beside
each ratio.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gtsearch import load_tree, search  # noqa: E402
from gtsearch.algorithms import ALGORITHMS  # noqa: E402
from gtsearch.sources.uniform import write_uniform  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
TREES = [(4, 10), (4, 11), (8, 6), (3, 12)]
QUICK = [(4, 7), (3, 8)]
FORMATS = {"json": ".json", "yaml": ".yaml", "sexp": ".sexp"}


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def tree_file(b: int, d: int, fmt: str) -> Path:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"b{b}d{d}s1{FORMATS[fmt]}"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            write_uniform(out, b, d, fmt, seed=1, lo=-100, hi=100)
        tmp.rename(path)
    return path


# -- the textbook baseline ---------------------------------------------------------------
def textbook_alphabeta(
    node: Any, alpha: float, beta: float, maximizing: bool, count: list[int]
) -> float:
    """Alpha-beta as the textbooks and most Python peers write it: recursive, nested lists."""
    if not isinstance(node, list):
        count[0] += 1
        return node
    if maximizing:
        value = -float("inf")
        for child in node:
            value = max(value, textbook_alphabeta(child, alpha, beta, False, count))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = float("inf")
    for child in node:
        value = min(value, textbook_alphabeta(child, alpha, beta, True, count))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


# -- whole processes -------------------------------------------------------------------------
#: run in a child: report the peak resident memory of this very process (VmHWM) at exit.
#: (ru_maxrss of a child counts the parent's pages copied by fork, before exec; VmHWM does not.)
_REPORT = (
    "import atexit, sys\n"
    "def _hwm():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('VmHWM ' + line.split()[1] + '\\n')\n"
    "atexit.register(_hwm)\n"
)


def peak_rss_mib(code: str, argv: list[str] | None = None) -> tuple[float, float]:
    """Peak resident memory (MiB) and wall time of a fresh Python process running ``code``."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _REPORT + code, *(argv or [])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - t0
    marks = [line for line in proc.stderr.splitlines() if line.startswith("VmHWM ")]
    if proc.returncode != 0 or not marks:
        raise SystemExit(f"{code!r} failed: {proc.stderr}")
    return int(marks[-1].split()[1]) / 1024, wall


def gtsearch_cmd() -> list[str]:
    script = Path(sys.executable).with_name("gtsearch")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gtsearch"]


def median_wall(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- report ------------------------------------------------------------------------------------
class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def table(self, header: list[str], rows: list[list[str]]) -> None:
        self.say("| " + " | ".join(header) + " |")
        self.say("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            self.say("| " + " | ".join(row) + " |")
        self.say()


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def tree_bytes(tree: Any) -> int:
    """The bytes the loaded tree holds in its arrays (the depths too, when kept)."""
    arrays = [tree.end, tree.values, tree.floats, tree._depth, tree._parent]
    return sum(len(a) * getattr(a, "itemsize", 1) for a in arrays if a is not None)


def measure_loads(b: int, d: int, repeat: int, rows: list[list[str]]) -> tuple[Any, Any]:
    """Load one tree in every format against json.loads and yaml.load; the JSON tree and nested lists."""
    import yaml

    paths = {fmt: tree_file(b, d, fmt) for fmt in FORMATS}
    json_text = paths["json"].read_text()
    t_json, nested = best_of(lambda: json.loads(json_text), repeat)
    # PyYAML's C loader takes about a minute per million leaves: once is enough
    t_yaml, _ = best_of(partial(yaml.load, paths["yaml"].read_text(), Loader=yaml.CSafeLoader), 1)
    kept = None
    for fmt, path in paths.items():
        t, tree = best_of(partial(load_tree, str(path)), repeat)
        ratio = t / t_json
        row = [
            f"b={b} d={d}",
            fmt,
            f"{tree.n_nodes:,}",
            f"{t:.3f}",
            f"{t_json:.3f}",
            f"{ratio:.2f}x",
        ]
        if fmt == "json":
            row.append(f"target ≤ 1.5x: {verdict(ratio <= 1.5)}")
            kept = tree
        elif fmt == "sexp":
            row.append(f"target ≤ 2x: {verdict(ratio <= 2.0)}")
        else:
            speedup = t_yaml / t
            row.append(
                f"yaml.load CSafeLoader {t_yaml:.2f} s: {speedup:.0f}x faster, "
                f"target ≥ 5x: {verdict(speedup >= 5)}"
            )
        rows.append(row)
    return kept, nested


def measure_searches(
    b: int, d: int, tree: Any, nested: Any, repeat: int, rows: list[list[str]]
) -> None:
    """Every algorithm that needs no bound, against the textbook alpha-beta on the nested lists."""
    count = [0]
    t_base, _ = best_of(
        lambda: (
            count.__setitem__(0, 0),
            textbook_alphabeta(nested, -float("inf"), float("inf"), True, count),
        ),
        repeat,
    )
    base_lps = count[0] / t_base
    rows.append(
        [
            f"b={b} d={d}",
            "textbook alpha-beta (baseline)",
            f"{count[0]:,}",
            f"{t_base:.3f}",
            f"{base_lps / 1e6:.2f}",
            "1.00x",
            "",
        ]
    )
    ab_per_leaf = None
    for algo in ALGORITHMS:
        if algo.needs_bound:
            continue
        t, r = best_of(partial(search, tree, algo), repeat)
        lps = r.leaves / t
        ratio = lps / base_lps
        note = ""
        if algo.name == "alphabeta":
            ab_per_leaf = t / r.leaves
            note = f"target ≥ 4x: {verdict(ratio >= 4)}"
        elif algo.name == "minimax":
            note = f"target ≥ 10x: {verdict(ratio >= 10)}"
        elif algo.name in ("sss", "dual") and ab_per_leaf:
            per_leaf = (t / r.leaves) / ab_per_leaf
            note = (
                f"time per leaf {per_leaf:.2f}x alphabeta's, target ≤ 3x: {verdict(per_leaf <= 3)}"
            )
        rows.append(
            [
                f"b={b} d={d}",
                algo.name,
                f"{r.leaves:,}",
                f"{t:.3f}",
                f"{lps / 1e6:.2f}",
                f"{ratio:.2f}x",
                note,
            ]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small trees only (a smoke test)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per timing (best is kept)")
    parser.add_argument("--out", default=None, help="also write the report (markdown) to this file")
    args = parser.parse_args()
    trees = QUICK if args.quick else TREES
    rep = Report()
    rep.say(
        f"gtsearch benchmark, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores; best of {args.repeat}"
    )
    rep.say()

    # Each tree is loaded, searched and dropped before the next one, so that no
    # baseline runs with another tree's millions of objects alive (json.loads
    # would then pay for the garbage collector walking them).
    load_rows: list[list[str]] = []
    search_rows: list[list[str]] = []
    mem_rows: list[list[str]] = []
    sys.setrecursionlimit(10_000)
    for b, d in trees:
        tree, nested = measure_loads(b, d, args.repeat, load_rows)
        measure_searches(b, d, tree, nested, args.repeat, search_rows)
        per_node = tree_bytes(tree) / tree.n_nodes
        mem_rows.append(
            [
                f"b={b} d={d}",
                f"{tree.n_nodes:,}",
                f"{per_node:g} bytes/node",
                f"target ≤ 24: {verdict(per_node <= 24)}",
                "",
                "",
            ]
        )
        del tree, nested
        gc.collect()
    rep.say("## Loading (seconds; the file read from the page cache is included)")
    rep.table(
        ["tree", "format", "nodes", "gtsearch", "json.loads", "ratio", "against target"], load_rows
    )
    rep.say(
        "## Searching (seconds; leaves per second in millions; ratio of leaves per second "
        "to the textbook alpha-beta's)"
    )
    rep.table(
        ["tree", "algorithm", "leaves", "seconds", "M leaves/s", "vs baseline", "against target"],
        search_rows,
    )

    # 3. memory
    big = (4, 11) if (4, 11) in trees else trees[0]
    path = str(tree_file(*big, "json"))
    rss_json, _ = peak_rss_mib(f"import json; json.load(open({path!r}))")
    rss_ours, wall = peak_rss_mib(
        "import sys, runpy; sys.argv[0] = 'gtsearch'; runpy.run_module('gtsearch', run_name='__main__')",
        ["eval", path, "--algo", "alphabeta", "--format", "json"],
    )
    ratio = rss_ours / rss_json
    mem_rows.append(
        [
            f"b={big[0]} d={big[1]} JSON file",
            "peak RSS",
            f"gtsearch eval {rss_ours:.0f} MiB",
            f"json.load {rss_json:.0f} MiB",
            f"{ratio:.2f}x",
            f"target ≤ 1.5x: {verdict(ratio <= 1.5)} (eval took {wall:.1f} s)",
        ]
    )
    rep.say("## Memory")
    rep.table(
        ["tree", "nodes / what", "gtsearch", "baseline / target", "ratio", "against target"],
        mem_rows,
    )

    # 4. start-up
    tiny = DATA / "tiny.json"
    tiny.write_text("[[3,12,8],[2,4,6],[14,5,2]]\n")
    cmd = gtsearch_cmd() + ["eval", str(tiny), "--format", "json"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # warm the caches
    t_pass = median_wall([sys.executable, "-c", "pass"], 21)
    t_eval = median_wall(cmd, 21)
    ratio = t_eval / t_pass
    rep.say("## Start-up (whole process, median of 21 runs)")
    rep.table(
        ["command", "seconds", "ratio", "against target"],
        [
            ["python -c pass", f"{t_pass:.4f}", "1.00x", ""],
            [
                "gtsearch eval tiny.json (9 leaves)",
                f"{t_eval:.4f}",
                f"{ratio:.2f}x",
                f"target ≤ 4x: {verdict(ratio <= 4)}",
            ],
        ],
    )
    if args.out:
        Path(args.out).write_text("\n".join(rep.lines) + "\n")


if __name__ == "__main__":
    main()
