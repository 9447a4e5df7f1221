"""How long hostile input takes: the timings that the tests no longer assert.

Run from the repository root::

    python benchmarks/hostile.py              # every section; about two minutes
    python benchmarks/hostile.py --quick      # smaller inputs, a smoke test of the script
    python benchmarks/hostile.py --only limit,chains --json figures.json

tests/test_hostile.py checks that hostile input is handled (refused early, read in
linear time, never a crash) by counting work, which does not depend on the
machine's load.  This script measures the time and memory that work takes:

- **corpus**: every file of tests/cases/bad and tests/cases/good through
  ``load_tree`` (best of three), the slowest twelve, and the whole bad corpus
  through one ``gtsearch validate`` process;
- **chains**: 1,000,000-level chains in every format: the format's own
  streaming reader on 250,000 and 1,000,000 levels (CPU time; linear time is a
  ratio of about 4, quadratic 16), ``load_tree``, and every algorithm on 250,000
  and 1,000,000 levels of the JSON chain, with the peak memory of each process;
- **limit**: 5,000,001 nodes against ``--max-nodes 1000``: the refusal against
  a full load (time and peak memory), the vectorised reader giving way, and the
  refusal through the command line;
- **patterns**: every reader on 3,000 and 12,000 repetitions of adversarial
  units (blanks, comments, brackets, anchors...) with odd endings: the worst
  ratios of CPU time;
- **bombs**: a billion laughs (ten levels of ten YAML aliases) and a gzip bomb
  (72 MiB of blanks in 72 KiB) through the command line: time and peak memory.

Times are the best of a few runs where a run is cheap.  Each figure with a
target prints whether it was met; the exit status is 1 when one was missed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gtsearch.algorithms import ALGORITHMS  # noqa: E402
from gtsearch.errors import TreeFormatError  # noqa: E402
from gtsearch.formats import GZIP_FREE_BYTES, load_tree  # noqa: E402

CASES = ROOT / "tests" / "cases"
GTSEARCH = [sys.executable, "-m", "gtsearch"]
EXT = {"json": ".json", "sexp": ".sexp", "yaml": ".yaml"}
CHAIN_KINDS = ["json", "sexp", "yaml-flow", "yaml-block"]
#: bounds for the algorithms that need one, on both sides of a chain's value (1)
BOUNDS = {"sss-bounded": 2, "dual-bounded": 0}

MISSED: list[str] = []


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), e.get("PYTHONPATH")]))
    e["GTSEARCH_NO_PROGRESS"] = "1"
    return e


def best(
    f: Callable[[], Any], runs: int = 3, clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(runs):
        t0 = clock()
        f()
        times.append(clock() - t0)
    return min(times)


def check(label: str, value: float, limit: float, unit: str = "") -> str:
    """``value`` against an upper ``limit``: 'met' or 'MISSED' (remembered for the exit status)."""
    if value < limit:
        return f"target < {limit:g}{unit}: met"
    MISSED.append(f"{label}: {value:.3g}{unit}, target < {limit:g}{unit}")
    return f"target < {limit:g}{unit}: MISSED"


def child(script: str, *args: str) -> dict[str, Any]:
    """Run ``script`` in a fresh Python; it prints one JSON object, completed with its peak memory."""
    proc = subprocess.run(
        [sys.executable, "-c", PEAK + script, *args],
        capture_output=True,
        text=True,
        env=env(),
        timeout=1800,
    )
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


#: prepended to every child script: peak_mb(), the peak resident memory since exec
PEAK = r"""
def peak_mb():
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:")) / 1024
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""


def chain(kind: str, depth: int) -> str:
    if kind in ("json", "yaml-flow"):
        return "[" * depth + "1" + "]" * depth
    if kind == "sexp":
        return "(" * depth + "1" + ")" * depth
    return "- " * depth + "1\n"  # yaml-block


def big_text(fmt: str, groups: int) -> str:
    """A bare tree of 4 * groups + 1 nodes."""
    if fmt == "sexp":
        return "(" + "(1 2 3) " * (groups - 1) + "(1 2 3))\n"
    sep = ", " if fmt == "yaml" else ","
    return "[" + f"[1{sep}2{sep}3]{sep}" * (groups - 1) + f"[1{sep}2{sep}3]]\n"


def table(title: str, header: list[str], rows: list[list[Any]]) -> None:
    print(f"\n## {title}")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")


# -- corpus ---------------------------------------------------------------------------------------
def corpus(figures: dict[str, Any], quick: bool) -> None:
    times: dict[str, float] = {}
    for kind in ("bad", "good"):
        folder = CASES / kind
        for path in sorted(folder.iterdir()):
            if path.name.endswith(".expected"):
                continue

            def load(p: Path = path) -> None:
                try:
                    load_tree(str(p))
                except TreeFormatError:
                    pass

            load()  # imports, caches
            times[f"{kind}/{path.name}"] = best(load, 1 if quick else 3)
    bad = sorted(p.name for p in (CASES / "bad").iterdir() if not p.name.endswith(".expected"))
    t0 = time.perf_counter()
    subprocess.run([*GTSEARCH, "validate", *bad], cwd=CASES / "bad", capture_output=True, env=env())
    whole = time.perf_counter() - t0
    worst = sorted(times.items(), key=lambda kv: -kv[1])
    rows = [[label, f"{s * 1000:.2f} ms"] for label, s in worst[:12]]
    rows.append([f"all {len(times)} files", f"{sum(times.values()) * 1000:.1f} ms"])
    rows.append([f"gtsearch validate on the {len(bad)} bad files (one process)", f"{whole:.2f} s"])
    table("Corpus: load_tree per file (best of 3), the slowest", ["input", "time"], rows)
    slowest = worst[0][1]
    print(f"\nslowest file: {check('slowest corpus file', slowest, 0.5, ' s')}")
    figures["corpus"] = {"files": dict(worst), "validate_all_bad_s": whole}


# -- chains ---------------------------------------------------------------------------------------
CHAIN_CHILD = r"""
import json, sys, time
from gtsearch.formats import jsonfmt, load_tree, sexp, yamlfmt

kind, small, big = sys.argv[1:]
general = {"json": jsonfmt, "sexp": sexp, "yaml": yamlfmt}[kind.split("-")[0]].parse
texts = {p: open(p, encoding="utf-8").read() for p in (small, big)}

def cpu(f):
    t0 = time.process_time()
    r = f()
    return r, time.process_time() - t0

out = {"small_s": min(cpu(lambda: general(texts[small], small))[1] for _ in range(2))}
tree, out["big_s"] = cpu(lambda: general(texts[big], big))
out["nodes"] = len(tree)
del tree, texts
loaded, out["load_tree_s"] = cpu(lambda: load_tree(big))
out["peak_mb"] = peak_mb()
print(json.dumps(out))
"""

SEARCH_CHILD = r"""
import json, sys, time
from gtsearch.algorithms import search
from gtsearch.formats import load_tree

path, algo, bound = sys.argv[1:]
tree = load_tree(path)
params = {"bound": float(bound)} if bound else {}
t0 = time.process_time()
r = search(tree, algo, **params)
out = {"s": time.process_time() - t0, "ok": [r.value, r.exact, r.leaves] == [1, True, 1]}
out["peak_mb"] = peak_mb()
print(json.dumps(out))
"""


def chains(figures: dict[str, Any], quick: bool, folder: Path) -> None:
    small_depth, big_depth = (25_000, 100_000) if quick else (250_000, 1_000_000)
    rows = []
    figures["chains"] = {}
    for kind in CHAIN_KINDS:
        ext = EXT[kind.split("-")[0]]
        small, big = folder / f"{kind}-small{ext}", folder / f"{kind}-big{ext}"
        small.write_text(chain(kind, small_depth), encoding="utf-8")
        big.write_text(chain(kind, big_depth), encoding="utf-8")
        f = child(CHAIN_CHILD, kind, str(small), str(big))
        ratio = f["big_s"] / max(f["small_s"], 1e-3)
        rows.append(
            [
                kind,
                f"{f['small_s']:.2f}",
                f"{f['big_s']:.2f}",
                f"{ratio:.1f}x",
                check(f"{kind} chain, streaming reader", ratio, 10, "x"),
                f"{f['load_tree_s']:.2f}",
                f"{f['peak_mb']:.0f}",
            ]
        )
        figures["chains"][kind] = f
    table(
        f"Chains: the streaming reader on {small_depth:,} and {big_depth:,} levels, and "
        f"load_tree on {big_depth:,} (CPU seconds)",
        [
            "format",
            f"{small_depth:,}",
            f"{big_depth:,}",
            "ratio",
            "linear",
            "load_tree s",
            "peak MB",
        ],
        rows,
    )
    rows = []
    figures["chain_searches"] = {}
    small, big = folder / "json-small.json", folder / "json-big.json"
    for algo in ALGORITHMS:
        bound = str(BOUNDS[algo.name]) if algo.needs_bound else ""
        a = child(SEARCH_CHILD, str(small), algo.name, bound)
        b = child(SEARCH_CHILD, str(big), algo.name, bound)
        if not (a["ok"] and b["ok"]):
            MISSED.append(f"{algo.name} on a chain: wrong result")
        ratio = b["s"] / max(a["s"], 1e-3)
        rows.append(
            [
                algo.name,
                f"{a['s']:.2f}",
                f"{b['s']:.2f}",
                f"{ratio:.1f}x",
                check(f"{algo.name} on chains", ratio, 10, "x"),
                f"{b['peak_mb']:.0f}",
            ]
        )
        figures["chain_searches"][algo.name] = {"small": a, "big": b}
    table(
        f"Chains: every algorithm on the JSON chain, {small_depth:,} and {big_depth:,} levels "
        "(CPU s, the search alone)",
        ["algorithm", f"{small_depth:,}", f"{big_depth:,}", "ratio", "linear", "peak MB"],
        rows,
    )


# -- node limit -----------------------------------------------------------------------------------
LIMIT_CHILD = r"""
import json, sys, time
from gtsearch import core
from gtsearch.errors import TreeFormatError
from gtsearch.formats import jsonfmt, load_tree, sexp, yamlfmt  # the readers that word errors
from gtsearch.formats.bare import parse_bare

fmt, path = sys.argv[1], sys.argv[2]
load_tree(path.replace("big", "tiny"))  # imports the reader: not part of the figures
out = {"base_mb": peak_mb()}
t0 = time.perf_counter()
try:
    load_tree(path, max_nodes=1000)
except TreeFormatError as e:
    out["error"] = str(e)
out["fail_s"] = time.perf_counter() - t0
out["fail_mb"] = peak_mb()
text = open(path, encoding="utf-8").read()
t0 = time.perf_counter()
out["fast_gives_way"] = parse_bare(text, fmt, path, 1000) is None
out["fast_s"] = time.perf_counter() - t0
del text
t0 = time.perf_counter()
out["nodes"] = len(load_tree(path))
out["full_s"] = time.perf_counter() - t0
out["full_mb"] = peak_mb()
# the refusal is the same under both cores (the Python reader words it); a full load by the
# C core takes a few times less than the pure core's, the reference of the targets
with core.pure():
    t0 = time.perf_counter()
    load_tree(path)
    out["full_pure_s"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def limit(figures: dict[str, Any], quick: bool, folder: Path) -> None:
    groups = 125_000 if quick else 1_250_000
    rows = []
    figures["limit"] = {}
    for fmt in ("json", "sexp", "yaml"):
        path = folder / f"big{EXT[fmt]}"
        path.write_text(big_text(fmt, groups), encoding="utf-8")
        (folder / f"tiny{EXT[fmt]}").write_text(big_text(fmt, 2), encoding="utf-8")
        f = child(LIMIT_CHILD, fmt, str(path))
        if "error" not in f or not f["fast_gives_way"] or f["nodes"] != 4 * groups + 1:
            MISSED.append(f"node limit ({fmt}): {f}")
        fail = f["fail_s"] / f["full_pure_s"]
        fast = f["fast_s"] / f["full_pure_s"]
        grew = f["fail_mb"] - f["base_mb"]
        rows.append(
            [
                fmt,
                f"{f['fail_s']:.3f}",
                f"{f['full_pure_s']:.3f}",
                f"{f['full_s']:.3f}",
                f"{fail:.2f} ({check(f'refusal/full load ({fmt})', fail, 0.25)})",
                f"{fast:.3f} ({check(f'vectorised reader giving way/full load ({fmt})', fast, 0.1)})",
                f"{grew:.0f} ({check(f'memory of the refusal ({fmt})', grew, 64, ' MB')})",
                f"{f['full_mb'] - f['base_mb']:.0f}",
            ]
        )
        figures["limit"][fmt] = f
    t0 = time.perf_counter()
    subprocess.run(
        [*GTSEARCH, "eval", "big.json", "--max-nodes", "1000"],
        cwd=folder,
        capture_output=True,
        env=env(),
    )
    cli = time.perf_counter() - t0
    figures["limit"]["cli_s"] = cli
    table(
        f"Node limit: {4 * groups + 1:,} nodes with --max-nodes 1000 (seconds; MB above the "
        "process's start)",
        [
            "format",
            "refused in",
            "full load (pure core)",
            "full load (this core)",
            "refusal/full (pure)",
            "vectorised reader gives way/full (pure)",
            "refusal MB",
            "full load MB",
        ],
        rows,
    )
    print(f"\ngtsearch eval big.json --max-nodes 1000, the whole process: {cli:.2f} s")


# -- repeated patterns ----------------------------------------------------------------------------
PATTERNS_CHILD = r"""
import json, sys, time
from gtsearch.errors import TreeFormatError
from gtsearch.formats import jsonfmt, sexp, yamlfmt

UNITS = [" ", "\n", "\t", "\r\n", "  # c\n", "; c\n", "[", "(", "- ", "1,", "1 ", "a ", "a:",
         "'a', ", '"a", ', ":0", "&a ", "*a ", "tree: ", "{a: ", "- [", "#"]
TAILS = ["x", "]", "", "#", ":", '"', "\x00"]
READERS = {"json": jsonfmt.parse, "yaml": yamlfmt.parse, "sexp": sexp.parse}
n = int(sys.argv[1])

def cpu(read, text):
    best = 1e9
    for _ in range(2):
        t0 = time.process_time()
        try:
            read(text, "s", max_nodes=10**9)
        except TreeFormatError:
            pass
        best = min(best, time.process_time() - t0)
    return best

rows = []
for fmt, read in READERS.items():
    for unit in UNITS:
        for tail in TAILS:
            small, big = cpu(read, unit * n + tail), cpu(read, unit * 4 * n + tail)
            rows.append((big / max(small, 0.002), small, big, fmt, unit, tail))
rows.sort(reverse=True)
print(json.dumps({"rows": rows, "total_s": sum(r[1] + r[2] for r in rows)}))
"""


def patterns(figures: dict[str, Any], quick: bool) -> None:
    n = 1_000 if quick else 3_000
    f = child(PATTERNS_CHILD, str(n))
    rows = [
        [fmt, repr(unit), repr(tail), f"{small * 1000:.1f}", f"{big * 1000:.1f}", f"{ratio:.1f}x"]
        for ratio, small, big, fmt, unit, tail in f["rows"][:10]
    ]
    table(
        f"Repeated patterns: {n:,} and {4 * n:,} units, the worst ratios of CPU time "
        f"({len(f['rows'])} cases, {f['total_s']:.1f} s in all)",
        ["reader", "unit", "ending", f"{n:,} (ms)", f"{4 * n:,} (ms)", "ratio"],
        rows,
    )
    print(f"\nworst ratio: {check('repeated patterns', f['rows'][0][0], 10, 'x')}")
    figures["patterns"] = {"n": n, "worst": f["rows"][:10]}


# -- bombs ----------------------------------------------------------------------------------------
BOMB_CHILD = r"""
import json, sys, time
from gtsearch.errors import TreeFormatError
from gtsearch.formats import load_tree

path, tiny = sys.argv[1:]
load_tree(tiny)  # imports the reader: not part of the figures
base = peak_mb()
t0 = time.perf_counter()
try:
    load_tree(path)
    error = None
except TreeFormatError as e:
    error = str(e)
out = {"s": time.perf_counter() - t0, "error": error, "peak_mb": peak_mb() - base}
print(json.dumps(out))
"""


def bombs(figures: dict[str, Any], quick: bool, folder: Path) -> None:
    def laughs(flow: bool) -> str:
        items = ["&a0 [" + ", ".join(["1"] * 10) + "]"]
        items += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
        if flow:
            return "[" + ", ".join(items) + "]\n"
        return "tree:\n" + "".join(f"- {item}\n" for item in items)

    (folder / "laughs-block.yaml").write_text(laughs(False), encoding="utf-8")
    (folder / "laughs-flow.yaml").write_text(laughs(True), encoding="utf-8")
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(folder / "bomb.json.gz", "wb") as f:
        f.writelines(squeeze.compress(b" " * (1 << 20)) for _ in range((GZIP_FREE_BYTES >> 20) + 8))
        f.write(squeeze.compress(b"[1]") + squeeze.flush())
    (folder / "tiny.yaml").write_text("[1, 2]\n", encoding="utf-8")
    (folder / "tiny.json.gz").write_bytes(gzip.compress(b"[1, 2]"))
    rows = []
    figures["bombs"] = {}
    for name, tiny, what in (
        ("laughs-block.yaml", "tiny.yaml", "billion laughs, block YAML (10**10 leaves)"),
        ("laughs-flow.yaml", "tiny.yaml", "billion laughs, flow YAML"),
        (
            "bomb.json.gz",
            "tiny.json.gz",
            f"gzip bomb: 72 MiB of blanks in {(folder / 'bomb.json.gz').stat().st_size >> 10} KiB",
        ),
    ):
        f = min(
            (
                child(BOMB_CHILD, str(folder / name), str(folder / tiny))
                for _ in range(1 if quick else 3)
            ),
            key=lambda r: r["s"],
        )
        t0 = time.perf_counter()
        proc = subprocess.run([*GTSEARCH, "eval", name], cwd=folder, capture_output=True, env=env())
        whole = time.perf_counter() - t0
        if f["error"] is None or proc.returncode != 2:
            MISSED.append(f"{what}: not refused")
        limit_s = 0.1 if "laughs" in name else 2.0
        rows.append(
            [
                what,
                f"{f['s']:.3f}",
                check(what, f["s"], limit_s, " s"),
                f"{f['peak_mb']:.0f}",
                f"{whole:.2f}",
            ]
        )
        figures["bombs"][name] = {**f, "process_s": whole}
    table(
        "Bombs: load_tree refuses them (seconds, best of 3; MB of peak memory it added), "
        "and the whole gtsearch eval process",
        ["input", "refused in", "", "MB", "process s"],
        rows,
    )


SECTIONS = ("corpus", "chains", "limit", "patterns", "bombs")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--quick", action="store_true", help="inputs a tenth of the size")
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma list of sections")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    args = parser.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections {unknown}; choose from {', '.join(SECTIONS)}")
    print(
        f"gtsearch hostile-input benchmark, {date.today()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores{', quick' if args.quick else ''}"
    )
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="gtsearch-hostile-") as tmp:
        folder = Path(tmp)
        for section in SECTIONS:
            if section not in only:
                continue
            if section in ("corpus", "patterns"):
                globals()[section](figures, args.quick)
            else:
                globals()[section](figures, args.quick, folder)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if MISSED:
        print("\nmissed:", *MISSED, sep="\n  ")
        return 1
    print("\nevery target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
