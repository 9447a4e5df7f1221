"""Two builds of the C core side by side in one process: the searches' time under each, A/B.

Run from the repository root, with two builds of ``gtsearch/_native`` (for instance
the one of an earlier commit, built by ``python setup.py build_ext --inplace`` in an
export of that commit, and the current one)::

    python benchmarks/ab.py OLD.so NEW.so                 # every C search on bench.py's trees
    python benchmarks/ab.py OLD.so NEW.so --rounds 60 --quick
    python benchmarks/ab.py OLD.so NEW.so --algorithms sss,dual --trees 4x10,4x11

Whole runs of bench.py move by 5-10 % on a shared machine; one process that loads both
builds and calls them on the same tree in turn gives steady ratios.  Each round calls
every search on every tree under A and under B, one right after the other (which goes
first alternates from round to round), each call after a ``gc.collect()`` over 20,000
lists, as bench.py's timings do (the tree's arrays leave the cache, as in a sweep).  The
whole ``gtsearch.search()`` is timed, the Python around the C call included (the same
code under both).  Each pair of calls must give the same result (value, PV, leaves,
nodes, extra figures), else the script stops.  Printed: the median and the best time of
each build, their ratios B/A, and the median of the ratios of the two calls of each
round (B/A in turn: the figure that moves least on a machine shared with other work).
"""

from __future__ import annotations

import argparse
import gc
import importlib.machinery
import importlib.util
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench import TREES, tree_file  # noqa: E402

import gtsearch.core  # noqa: E402
from gtsearch import load_tree, search  # noqa: E402
from gtsearch.algorithms import ALGORITHMS  # noqa: E402

QUICK = [(4, 8), (3, 10)]


def load_build(path: str, tag: str, tmp: Path) -> ModuleType:
    """The extension at ``path``, imported under a name of its own (a copy in ``tmp``, so
    that two files of the same name, or the installed one, are two modules)."""
    copy = tmp / f"{tag}{''.join(Path(path).suffixes)}"
    shutil.copyfile(path, copy)
    name = f"gtsearch_ab_{tag}._core"  # the init function is the last part's: PyInit__core
    loader = importlib.machinery.ExtensionFileLoader(name, str(copy))
    spec = importlib.util.spec_from_file_location(name, str(copy), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def run(build: ModuleType, tree: Any, algo: str, bound: float | None) -> tuple[float, Any]:
    """One search under ``build``: its time and what it found."""
    # gtsearch.core hands its chosen module to every search; the benchmark chooses for it
    gtsearch.core._native = build
    gc.collect()
    t0 = time.perf_counter()
    r = search(tree, algo, bound=bound)
    took = time.perf_counter() - t0
    return took, (
        r.value,
        r.bound,
        r.pv,
        r.leaves,
        r.leaves_total,
        r.nodes,
        sorted(r.extra.items()),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="the first build (.so), the baseline")
    parser.add_argument("b", help="the second build (.so)")
    parser.add_argument("--rounds", type=int, default=30, help="calls of each search per build")
    parser.add_argument("--quick", action="store_true", help="two small trees (a smoke test)")
    parser.add_argument("--trees", default=None, help="BxD,... (default: bench.py's trees)")
    parser.add_argument("--algorithms", default=None, help="names, comma-separated")
    args = parser.parse_args()
    trees = QUICK if args.quick else TREES
    if args.trees:
        trees = [(int(b), int(d)) for b, d in (x.split("x") for x in args.trees.split(","))]
    algos = [a.name for a in ALGORITHMS if not a.chance]  # the chance searches are Python's
    if args.algorithms:
        algos = [a for a in args.algorithms.split(",") if a]
    tmp = Path(tempfile.mkdtemp(prefix="gtsearch-ab-"))
    builds = {"A": load_build(args.a, "a", tmp), "B": load_build(args.b, "b", tmp)}
    shutil.rmtree(tmp, ignore_errors=True)  # loaded, the copies are no longer needed
    ballast = [[i] for i in range(20_000)]  # what each gc.collect() walks, as in bench.py
    print(f"A = {args.a}\nB = {args.b}\n{args.rounds} rounds, median (best) ms\n")
    print("| tree | algorithm | A | B | B/A of the medians | B/A of the best | B/A in turn |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for b, d in trees:
        gtsearch.core._native = builds["B"]
        tree = load_tree(str(tree_file(b, d, "json")))
        value = search(tree, "alphabeta").value  # the bound of the bounded searches
        times: dict[tuple[str, str], list[float]] = {(a, w): [] for a in algos for w in builds}
        for r in range(args.rounds):
            for algo in algos:
                bound = value if algo.endswith("-bounded") else None
                found = {}
                for which in ("A", "B") if r % 2 == 0 else ("B", "A"):
                    took, found[which] = run(builds[which], tree, algo, bound)
                    times[algo, which].append(took)
                if found["A"] != found["B"]:
                    raise SystemExit(f"b={b} d={d} {algo}: the builds disagree")
        for algo in algos:
            ta, tb = times[algo, "A"], times[algo, "B"]
            med = statistics.median(tb) / statistics.median(ta)
            # the two calls of a round run one right after the other, under the same load:
            # the median of their ratios moves least when other work comes and goes
            paired = statistics.median([y / x for x, y in zip(ta, tb, strict=True)])
            ratios.append(paired)
            print(
                f"| b={b} d={d} | {algo} | {statistics.median(ta) * 1e3:.3f} ({min(ta) * 1e3:.3f}) "
                f"| {statistics.median(tb) * 1e3:.3f} ({min(tb) * 1e3:.3f}) "
                f"| {med:.3f} | {min(tb) / min(ta):.3f} | {paired:.3f} |",
                flush=True,
            )
        del tree
    geo = statistics.geometric_mean(ratios)
    print(f"\ngeometric mean of the ratios B/A in turn: {geo:.3f} ({len(ratios)} rows)")
    del ballast


if __name__ == "__main__":
    main()
