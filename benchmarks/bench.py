"""gtsearch's speed and memory under both cores, as ratios against baselines measured in the same run.

Run from the repository root::

    python benchmarks/bench.py            # every tree of the issues; about 15 minutes
    python benchmarks/bench.py --quick    # small trees only, for a smoke test
    python benchmarks/bench.py --only search,experiment   # some sections only

It generates seeded uniform trees (``gtsearch gen`` parameters, integer leaves
in [-100, 100]) and the tic-tac-toe tree into benchmarks/data/ (kept between
runs), then measures, in this one process unless a whole process is the
point, each figure under the C core and under the pure-Python core
(``gtsearch.core.pure()``, or ``GTSEARCH_PURE=1`` for a process):

- load time per format against ``json.loads`` on the same tree's JSON text and
  against ``yaml.load(text, Loader=yaml.CSafeLoader)`` on its YAML text;
- search time of every algorithm against **the limit**: a plain C alpha-beta
  over the same flat arrays (benchmarks/limit.c, compiled here with gcc -O2 and
  called through ctypes), as time per leaf; and against a plain recursive
  alpha-beta over nested lists written the textbook way;
- bytes per node of the loaded tree, and the peak memory (VmHWM) of a
  ``gtsearch eval`` process against ``python -c "import json; json.load(...)"``;
- the whole-process time of ``gtsearch eval`` on the named tic-tac-toe JSON
  (23.7 MB) against json.load of the same file, of ``gtsearch experiment -b
  2..4 -d 2..7 -n 10`` under both cores, and of ``gtsearch eval`` on 9-leaf
  trees (bare JSON, flow YAML, and the block YAML of sample_trees/aima-fig5-2.yaml)
  against ``python -c pass``;
- the tic-tac-toe tree as Gambit's .efg against the same tree as named JSON: the load
  in this process, and the whole ``gtsearch eval`` with its peak memory, under each core;
- the limits (``limits``): a search on demand stopped by ``--max-nodes`` (alpha-beta with a
  table on Connect Four, mcts down nim's endless line) and the refusal of a game of more
  states than are counted, at a limit and at four times it, the ratio of the two times
  (4x where a node costs the same whatever was visited before, 16x where it grows with
  them); and mcts on Othello 8x8;
- the transposition table in C (``tt``): alpha-beta with a table on the b=4 d=10 file
  against alpha-beta without, and ``solve`` and alpha-beta with a table on game:tictactoe
  against easyAI's Negamax with its TranspositionTable on easyAI's own TicTacToe (the extra
  ``peers``).
- Star1 and Star2 on pig (``star``): leaves evaluated and seconds of expectiminimax,
  star1 and star2 (with the table they take on a game by default), and star2 with
  ``--tt 0`` (Ballard's, without memory) on the smaller pig, under both cores; the target
  is star2's leaves at most expectiminimax's.  Then expectiminimax, star1 and star2
  ``--tt 0`` on pig searched on demand, in C over its C rules against the pure core.

- the built-in games searched on demand in C (``games``, issue 36): alpha-beta (both forms),
  F1, NegaScout, MTD(f) and MT-SSS* on ``game:connect4 --depth 7`` and minimax at
  ``--depth 5``, a fresh tree each run, under both cores, the same value, PV, leaves and
  nodes checked, the goal of >= 20x beside alpha-beta's, NegaScout's and MTD(f)'s ratios;
  then alpha-beta and NegaScout with ``--tt 16`` and ``--iterative`` there, and Star1 and
  Star2 with their default table on pig 10/2/10 and 5/3/10 (the goal of >= 20x beside each);
  and Othello 8x8 minimax at ``--depth d``, its leaves against perft(d) (4, 12, 56, 244,
  1,396, 8,200, 55,092, 390,216), in C where the core has its rules (else a line says so)
  and in pure Python to the depths it takes in seconds; then the searches with a table on
  ``game:connect4 --depth 7`` on demand (alphabeta, negascout, mtdf and mt-sss with
  ``--tt 16``, ``--iterative``), C against pure, every count of the table compared.

- games against OpenSpiel (``openspiel``): ``gtsearch eval game:openspiel:...`` (alpha-beta
  on tic_tac_toe and breakthrough(rows=4,columns=3), expectiminimax on
  pig(winscore=5,diceoutcomes=3,horizon=10)), searched on demand, against a ``python -c``
  that runs OpenSpiel's own Python ``minimax.alpha_beta_search`` or ``minimax.expectiminimax``
  on the same game: whole processes, best of ``--repeat``, the same value checked, the goal
  of issue 35 beside each ratio; and mcts, 2,000 iterations, on connect_four (and on the
  built-in game:connect4) against OpenSpiel's Python ``MCTSBot`` (UCT, c = sqrt(2), one random
  rollout a simulation, ``solve=False``), one step from the start; and, in this process, mcts
  on game:connect4 (in C over its C rules) against OpenSpiel's C++ ``pyspiel.MCTSBot`` with
  ``RandomRolloutEvaluator``, 20,000 simulations each, iterations a second and their ratio
  (issue 36's goal: >= 1x); skipped with a line when OpenSpiel is not installed.
- tic-tac-toe on demand (``tictactoe``): every search of ``game:tictactoe`` on the game
  opened on demand against the game counted in C first (the kernel, read from its graph),
  under the C core, in this process and (some) as whole processes, the same counts checked.
- the rules in C (``perft``): Othello 8x8's perft(d), the leaves of its tree d plies deep,
  walked over the rules in C (the core's ``game_perft``) against the Python rules
  (``gtsearch.sources.gamerules.perft``) at depths 5, 6 and 7 (4 and 5 with ``--quick``),
  and perft(8) in C alone; both must give the known counts (target: C at least 20x).

Times are the best of a few repeats (the minimum is the least disturbed by
other work on the machine); whole processes alternate between the two
commands compared, after one run of each that is not timed, and run as an
installed package runs: with the bytecode of its modules cached (in a
temporary PYTHONPYCACHEPREFIX, so that PYTHONDONTWRITEBYTECODE in the
caller's environment does not make every process compile every module
again; ``experiment`` is also timed that way, as a second row).  The
targets of the issues are printed beside each ratio.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gtsearch import core, load_tree, search  # noqa: E402
from gtsearch.algorithms import ALGORITHMS  # noqa: E402
from gtsearch.sources.uniform import write_uniform  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
TREES = [(4, 10), (4, 11), (8, 6), (3, 12)]
QUICK = [(4, 7), (3, 8)]
FORMATS = {"json": ".json", "yaml": ".yaml", "sexp": ".sexp"}
EXPERIMENT = ["experiment", "-b", "2..4", "-d", "2..7", "-n", "10", "--format", "json"]
CORES = ("C", "pure")
SECTIONS = (
    "load",
    "search",
    "memory",
    "eval",
    "efg",
    "sources",
    "experiment",
    "mcts",
    "tt",
    "star",
    "games",
    "limits",
    "startup",
    "openspiel",
    "perft",
    "connect4",
    "tictactoe",
)
#: the Connect Four positions solved against Pascal Pons' solver (the "connect4" section)
C4_POSITIONS, C4_QUICK, C4_SEED, C4_PLIES = 40, 10, 1, (12, 30)
#: the table of `solve game:connect4` against Pons' solver, in MiB: solve's default (his holds
#: 2**24 entries; a larger table of ours costs more in the pages it touches than it saves)
C4_TT = 16
#: mcts's iterations per search in the "mcts" section (the same in both cores)
MCTS_ITERATIONS = 20_000
#: the iterations of the one run of each MCTS on tic-tac-toe against the peers
PEER_ITERATIONS = 5_000
#: where the processes of the benchmark cache the bytecode of the modules they import
PYCACHE = Path(tempfile.mkdtemp(prefix="gtsearch-bench-pyc-"))


def best_of(
    fn: Callable[[], Any], repeat: int, at_least: float = 0.0, warm: bool = False
) -> tuple[float, Any]:
    """The least time of ``repeat`` runs (more while they add up to less than ``at_least`` s).

    Each run starts after a garbage collection, unless ``warm``: then, as timeit does, the
    collector is off while the runs go one after another.  A collection walks every object of
    the process and leaves the caches cold: before a search of half a millisecond, it decides
    more of the time than the search does.
    """
    best = float("inf")
    result = None
    spent = 0.0
    runs = 0
    collecting = gc.isenabled()
    if warm:
        gc.collect()
        gc.disable()
    try:
        while runs < repeat or spent < at_least:
            if not warm:
                gc.collect()
            t0 = time.perf_counter()
            result = fn()
            took = time.perf_counter() - t0
            best = min(best, took)
            spent += took
            runs += 1
    finally:
        if collecting:
            gc.enable()
    return best, result


def on(which: str, fn: Callable[[], Any]) -> Any:
    """``fn()`` under the C core or the pure one."""
    if which == "C":
        return fn()
    with core.pure():
        return fn()


def tree_file(b: int, d: int, fmt: str) -> Path:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"b{b}d{d}s1{FORMATS[fmt]}"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            write_uniform(out, b, d, fmt, seed=1, lo=-100, hi=100)
        tmp.rename(path)
    return path


def tictactoe_file(fmt: str = "json") -> Path:
    """The named tic-tac-toe tree: JSON from scripts/gen_tictactoe.py, or converted from it."""
    path = DATA / f"tictactoe.{fmt}"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        if fmt == "json":
            script = [str(ROOT / "scripts" / "gen_tictactoe.py"), str(path)]
        else:
            script = ["-m", "gtsearch", "convert", str(tictactoe_file()), "-o", str(path)]
        subprocess.run([sys.executable, *script], check=True, stdout=subprocess.DEVNULL)
    return path


def measure_efg(repeat: int, runs: int, rep: Report) -> None:
    """Tic-tac-toe as .efg against the same tree as named JSON, under each core: the load in
    this process (best of ``repeat``), and ``gtsearch eval`` as a whole process (median of
    ``runs``, in turn) with its peak resident memory."""
    paths = {fmt: str(tictactoe_file(fmt)) for fmt in ("json", "efg")}
    loads = {
        (fmt, which): best_of(partial(on, which, partial(load_tree, path)), repeat)[0]
        for fmt, path in paths.items()
        for which in CORES
    }
    argv = ["-a", "alphabeta", "--format", "json"]
    t = walls(
        {
            f"{fmt} {which}": ([*gtsearch_cmd(), "eval", path, *argv], env_for(which))
            for fmt, path in paths.items()
            for which in CORES
        },
        runs,
    )
    rows = []
    for which in CORES:
        rss = {
            fmt: peak_rss_mib(_GTSEARCH, ["eval", p, *argv], which)[0] for fmt, p in paths.items()
        }
        ratio = loads["efg", which] / loads["json", which]
        rows.append(
            [
                which,
                f"{loads['json', which]:.2f}",
                f"{loads['efg', which]:.2f}",
                f"{ratio:.2f}x",
                f"{t[f'json {which}']:.2f}",
                f"{t[f'efg {which}']:.2f}",
                f"{rss['json']:.0f}",
                f"{rss['efg']:.0f}",
                f"target ≤ 2x: {verdict(ratio <= 2)}" if which == "C" else "",
            ]
        )
    sizes = ", ".join(f"{fmt} {os.path.getsize(p) / 1e6:.1f} MB" for fmt, p in paths.items())
    rep.say(f"## The tic-tac-toe tree as .efg against named JSON ({sizes})")
    rep.say(
        f"(load: in this process, best of {repeat}; eval -a alphabeta: whole process, median of "
        f"{runs} runs in turn, and its peak resident memory)"
    )
    rep.say()
    rep.table(
        [
            "core",
            "load JSON s",
            "load .efg s",
            ".efg / JSON",
            "eval JSON s",
            "eval .efg s",
            "eval JSON MiB",
            "eval .efg MiB",
            "against target",
        ],
        rows,
    )


# -- the baselines ---------------------------------------------------------------------------
def textbook_alphabeta(
    node: Any, alpha: float, beta: float, maximizing: bool, count: list[int]
) -> float:
    """Alpha-beta as the textbooks and most Python peers write it: recursive, nested lists."""
    if not isinstance(node, list):
        count[0] += 1
        return float(node)
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


class Limit:
    """benchmarks/limit.c, compiled with gcc -O2 into a temporary directory and called by ctypes."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="gtsearch-limit-")
        so = Path(self.dir) / "limit.so"
        cc = shutil.which("gcc") or "cc"
        subprocess.run(
            [cc, "-O2", "-shared", "-fPIC", str(ROOT / "benchmarks" / "limit.c"), "-o", str(so)],
            check=True,
        )
        self.lib = ctypes.CDLL(str(so))
        self.lib.alphabeta.restype = ctypes.c_double
        self.lib.alphabeta.argtypes = [
            ctypes.c_void_p,
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_int64),
        ]

    def alphabeta(self, tree: Any) -> tuple[float, int]:
        """The value and the leaves evaluated, on the tree's own arrays (int32 ``end``)."""
        assert tree.end.typecode == "i"
        end = tree.end.buffer_info()[0]
        values = tree.values.buffer_info()[0]
        count = ctypes.c_int64()
        value = self.lib.alphabeta(end, values, int(tree.root_max), ctypes.byref(count))
        return value, count.value

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


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
_GTSEARCH = (
    "import sys, runpy; sys.argv[0] = 'gtsearch'; runpy.run_module('gtsearch', run_name='__main__')"
)


def env_for(which: str, cached: bool = True) -> dict[str, str]:
    """The environment of a process under the core ``which`` ("C", "pure"; anything else: as is).

    ``cached``: with the bytecode of the modules cached, as in an installed package.
    """
    env = {k: v for k, v in os.environ.items() if k != "GTSEARCH_PURE"}
    if which == "pure":
        env["GTSEARCH_PURE"] = "1"
    if cached:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def peak_rss_mib(code: str, argv: list[str] | None = None, which: str = "C") -> tuple[float, float]:
    """Peak resident memory (MiB) and wall time of a fresh Python process running ``code``."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _REPORT + code, *(argv or [])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env_for(which),
    )
    wall = time.perf_counter() - t0
    marks = [line for line in proc.stderr.splitlines() if line.startswith("VmHWM ")]
    if proc.returncode != 0 or not marks:
        raise SystemExit(f"{code!r} failed: {proc.stderr}")
    return int(marks[-1].split()[1]) / 1024, wall


def gtsearch_cmd() -> list[str]:
    script = Path(sys.executable).with_name("gtsearch")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gtsearch"]


def wall_times(
    commands: dict[str, tuple[list[str], dict[str, str]]],
    runs: int,
    cpu: dict[str, list[float]] | None = None,
) -> dict[str, list[float]]:
    """The wall times of each command, the commands run in turn ``runs`` times (paired: a
    change in the machine's load falls on all of them alike); ``cpu`` gets each run's
    processor time (user and system, of the process and its children), which the load of a
    shared machine changes much less than the wall time.

    Each command runs once first, untimed (it fills the page cache and the bytecode cache).
    """
    times: dict[str, list[float]] = {name: [] for name in commands}
    for cmd, env in commands.values():
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env
        )
    for _ in range(runs):
        for name, (cmd, env) in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(
                cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env
            )
            times[name].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if cpu is not None:
                cpu.setdefault(name, []).append(
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                )
    return times


def walls(commands: dict[str, tuple[list[str], dict[str, str]]], runs: int) -> dict[str, float]:
    """The median wall time of each command, the commands run in turn ``runs`` times."""
    return {name: statistics.median(t) for name, t in wall_times(commands, runs).items()}


# -- report ----------------------------------------------------------------------------------
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


# -- measures --------------------------------------------------------------------------------
def measure_loads(b: int, d: int, repeat: int, rows: list[list[str]]) -> tuple[Any, Any, Any]:
    """Load one tree in every format under both cores against json.loads and yaml.load.

    Returns the tree loaded from JSON by each core and the nested lists of json.loads.
    """
    import yaml

    paths = {fmt: tree_file(b, d, fmt) for fmt in FORMATS}
    json_text = paths["json"].read_text()
    t_json, nested = best_of(lambda: json.loads(json_text), repeat)
    # PyYAML's C loader takes about a minute per million leaves: once is enough
    t_yaml, _ = best_of(partial(yaml.load, paths["yaml"].read_text(), Loader=yaml.CSafeLoader), 1)
    kept: dict[str, Any] = {}
    for fmt, path in paths.items():
        t = {}
        for which in CORES:
            t[which], tree = best_of(partial(on, which, partial(load_tree, str(path))), repeat)
            if fmt == "json":
                kept[which] = tree
        ratio = t["C"] / t_json
        row = [
            f"b={b} d={d}",
            fmt,
            f"{tree.n_nodes:,}",
            f"{t['C']:.3f}",
            f"{t['pure']:.3f}",
            f"{t_json:.3f}",
            f"{ratio:.2f}x",
        ]
        if fmt == "json":
            row.append(f"target ≤ 1.5x: {verdict(ratio <= 1.5)}")
        elif fmt == "sexp":
            row.append(f"target ≤ 2x: {verdict(ratio <= 2.0)}")
        else:
            speedup = t_yaml / t["C"]
            row.append(
                f"yaml.load CSafeLoader {t_yaml:.2f} s: {speedup:.0f}x faster, "
                f"target ≥ 5x: {verdict(speedup >= 5)}"
            )
        rows.append(row)
    return kept["C"], kept["pure"], nested


def measure_searches(
    b: int, d: int, tree: Any, nested: Any, limit: Limit, repeat: int, rows: list[list[str]]
) -> None:
    """Every algorithm that needs no bound under both cores, against the limit and the textbook."""
    t_limit, (value, limit_leaves) = best_of(partial(limit.alphabeta, tree), repeat, at_least=0.2)
    limit_per_leaf = t_limit / limit_leaves
    count = [0]
    t_text, _ = best_of(
        lambda: (
            count.__setitem__(0, 0),
            textbook_alphabeta(nested, -float("inf"), float("inf"), True, count),
        ),
        repeat,
    )
    rows.append(
        [
            f"b={b} d={d}",
            "the limit: plain C alpha-beta",
            f"{limit_leaves:,}",
            f"{t_limit * 1e3:.3f}",
            "",
            f"{limit_leaves / t_limit / 1e6:.1f}",
            "1.00x",
            "",
            "",
        ]
    )
    rows.append(
        [
            f"b={b} d={d}",
            "textbook alpha-beta (Python, nested lists)",
            f"{count[0]:,}",
            "",
            f"{t_text * 1e3:.1f}",
            f"{count[0] / t_text / 1e6:.2f}",
            f"{t_text / count[0] / limit_per_leaf:.1f}x",
            "",
            "",
        ]
    )
    ab_per_leaf: dict[str, float] = {}
    for algo in ALGORITHMS:
        if algo.needs_bound or algo.chance:  # the chance searches are Python's in both cores
            continue
        t: dict[str, float] = {}
        for which in CORES:
            t[which], r = best_of(partial(on, which, partial(search, tree, algo)), repeat, 0.2)
        per_leaf = {which: t[which] / r.leaves for which in CORES}
        note = ""
        if algo.name == "alphabeta":
            ab_per_leaf = per_leaf
            assert r.leaves == limit_leaves and r.value == value, "the limit is alpha-beta"
            x = per_leaf["C"] / limit_per_leaf
            note = f"target ≤ 3x the limit: {verdict(x <= 3)}"
        elif algo.name in ("sss", "dual") and ab_per_leaf:
            x = per_leaf["C"] / ab_per_leaf["C"]
            xp = per_leaf["pure"] / ab_per_leaf["pure"]
            note = f"per leaf {x:.2f}x alphabeta's (pure {xp:.2f}x), target ≤ 3x: {verdict(x <= 3)}"
        rows.append(
            [
                f"b={b} d={d}",
                algo.name,
                f"{r.leaves:,}",
                f"{t['C'] * 1e3:.3f}",
                f"{t['pure'] * 1e3:.1f}",
                f"{r.leaves / t['C'] / 1e6:.1f}",
                f"{per_leaf['C'] / limit_per_leaf:.1f}x",
                f"{per_leaf['pure'] / limit_per_leaf:.0f}x",
                note,
            ]
        )


def measure_mcts(rep: Report, shape: tuple[int, int], repeat: int) -> None:
    """mcts's iterations per second in each core: the search time of search() (the leaf
    bounds given, so that finding them is not timed), the same seed and iterations, on the
    uniform tree's JSON file, on game:tictactoe and on Pig searched on demand (its chance
    nodes drawn in C over its C rules; a fresh tree each run); the two cores' results must
    agree."""
    from gtsearch.sources import open_source
    from gtsearch.sources.gamespec import open_game

    b, d = shape
    path = str(tree_file(b, d, "json"))
    pig = "game:pig:target=20,horizon=40"
    rows = []
    for name, opener in (
        (f"b={b} d={d} file", load_tree),
        ("game:tictactoe", open_source),
        (f"{pig} on demand", lambda _: open_game(pig[5:], on_demand=True)),
    ):
        spec = path if name.endswith("file") else name
        rate: dict[str, float] = {}
        found = {}
        for which in CORES:
            tree = on(which, partial(opener, spec))
            bounds = (-100, 100) if name.endswith("file") else (-1, 1)

            # a tree searched before runs in Python: on demand, a fresh one each run
            again = partial(opener, spec) if name.endswith("on demand") else None

            def run(
                tree: Any = tree,
                bounds: tuple[int, int] = bounds,
                fresh: Callable[[], Any] | None = again,
            ) -> Any:
                if fresh is not None:
                    tree = fresh()
                return search(tree, "mcts", iterations=MCTS_ITERATIONS, seed=1, leaf_bounds=bounds)

            results = [on(which, run) for _ in range(repeat if which == "C" else 1)]
            rate[which] = MCTS_ITERATIONS / min(r.seconds for r in results)
            found[which] = (results[0].pv, results[0].value, results[0].leaves)
        assert found["C"] == found["pure"], (name, found)
        rows.append(
            [
                name,
                f"{rate['C']:,.0f}",
                f"{rate['pure']:,.0f}",
                f"{rate['C'] / rate['pure']:.1f}x",
                f"target ≥ 30x: {verdict(rate['C'] >= 30 * rate['pure'])}"
                if name.endswith("file")
                else "",
            ]
        )
    rep.say(f"## mcts: iterations per second ({MCTS_ITERATIONS:,} iterations, seed 1, search time)")
    rep.say()
    rep.table(["tree", "C core it/s", "pure core it/s", "C / pure", "against target"], rows)


#: Othello 8x8's perft(d), d = 1..8 (the leaves d plies from the start)
OTHELLO_PERFT = (4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216)


def measure_perft(rep: Report, repeat: int, quick: bool) -> None:
    """Othello 8x8's perft(d) (the leaves of its tree d plies deep) walked over the rules in C
    (the core's game_perft, gtsearch/_native/game_othello.c) against the Python rules
    (gtsearch.sources.gamerules.perft over Othello's own moves() and play()) at the same
    depth, in this process; both must give the known counts."""
    from gtsearch.sources import gamerules
    from gtsearch.sources.library.othello import Othello

    native = core.native()
    if native is None:
        rep.say("## perft: skipped (no C core)")
        return
    obj = Othello(8, 8)
    words = native.game_initial("othello", (8, 8))
    rows = []
    for d in (4, 5) if quick else (5, 6, 7):
        c_time, c_leaves = best_of(partial(native.game_perft, "othello", (8, 8), words, d), repeat)
        py_time, py_leaves = best_of(partial(gamerules.perft, obj, d), 1 if d > 6 else repeat)
        assert c_leaves == py_leaves == OTHELLO_PERFT[d - 1], (d, c_leaves, py_leaves)
        rows.append(
            [
                str(d),
                f"{c_leaves:,}",
                f"{c_time * 1e3:.3f}",
                f"{py_time * 1e3:.1f}",
                f"{py_time / c_time:,.0f}x",
                f"target ≥ 20x: {verdict(py_time >= 20 * c_time)}",
            ]
        )
    d = 6 if quick else 8
    c_time, c_leaves = best_of(partial(native.game_perft, "othello", (8, 8), words, d), repeat)
    assert c_leaves == OTHELLO_PERFT[d - 1]
    rows.append([str(d), f"{c_leaves:,}", f"{c_time * 1e3:.3f}", "", "", ""])
    rep.say("## perft: Othello 8x8, the rules in C against the Python rules")
    rep.say()
    rep.table(["depth", "leaves", "C ms", "Python ms", "Python / C", "against target"], rows)


def easyai_tictactoe() -> tuple[Callable[[], Any], Callable[[], Any]] | None:
    """easyAI's Negamax (depth 9, the whole game) and its solve by iterative deepening, each
    with its TranspositionTable, on easyAI's own TicTacToe (given the ttentry its table needs);
    None without the extra ``peers``."""
    try:
        from easyAI import AI_Player, Negamax, TranspositionTable, solve_with_iterative_deepening
        from easyAI.games import TicTacToe
    except ImportError:
        return None

    class Board(TicTacToe):  # type: ignore[misc]
        def ttentry(self) -> Any:
            return tuple(self.board), self.current_player

    def game() -> Any:
        return Board([AI_Player(None), AI_Player(None)])

    def negamax() -> Any:
        ai = Negamax(9, tt=TranspositionTable())
        return ai(game()), ai.alpha

    def solved() -> Any:
        table = TranspositionTable()
        return solve_with_iterative_deepening(game(), range(1, 10), 90, tt=table, verbose=False)

    return negamax, solved


def cpu_of(fn: Callable[[], Any]) -> tuple[float, Any]:
    """The processor time of ``fn()`` (s) and what it returned, or the exception it raised: a
    search of seconds, timed once; the time the process ran, not the time the machine's
    other work took from it."""
    gc.collect()
    t0 = time.process_time()
    try:
        result = fn()
    except Exception as e:  # the limit that ends the run: what is measured
        result = e
    return time.process_time() - t0, result


def measure_limits(rep: Report, quick: bool) -> None:
    """Every limit bounds time: each figure at a limit and at four times it (a search on demand
    runs in Python under either core, and so does the count of a game without a kernel)."""
    from gtsearch.errors import NodeLimit
    from gtsearch.sources import open_source
    from gtsearch.sources.gamecount import TooMany
    from gtsearch.sources.games import GameTree
    from gtsearch.sources.gamespec import load_game
    from gtsearch.sources.protocol import Game

    scale = 4
    low = 10_000 if quick else 50_000
    heap = "1" + "0" * 21

    def on_demand(spec: str, name: str, nodes: int, **params: Any) -> Any:
        tree = open_source(spec, on_demand=True, max_nodes=nodes)
        return search(tree, name, **params)

    def refuse(spec: str, most: int) -> None:
        obj, name = load_game(spec)
        GameTree(Game(obj, name), source=name, most=most)

    cases: list[tuple[str, int, Callable[[int], Any], type[Exception]]] = [
        (
            "`eval game:connect4 -a alphabeta --tt 16 --max-nodes N`",
            low,
            lambda n: on_demand("game:connect4", "alphabeta", n, tt=16),
            NodeLimit,
        ),
        (
            f"`eval game:nim:{heap} -a mcts --iterations 10 --max-nodes N`",
            low,
            lambda n: on_demand(f"game:nim:{heap}", "mcts", n, iterations=10),
            NodeLimit,
        ),
        (
            "`eval game:nim:1000000000 -a sss` refused at N distinct states",
            low * 5,
            lambda n: refuse("nim:1000000000", n),
            TooMany,
        ),
        (
            "`eval game:connect4 -a sss` refused at N distinct states",
            low * 5,
            lambda n: refuse("connect4", n),
            TooMany,
        ),
    ]
    rows = []
    for what, n, run, stops in cases:
        took = []
        for limit in (n, scale * n):
            seconds, result = cpu_of(partial(run, limit))
            assert isinstance(result, stops), result
            took.append(seconds)
        rows.append(
            [
                what,
                f"{n:,}",
                f"{took[0]:.2f}",
                f"{took[1]:.2f}",
                f"{took[1] / took[0]:.1f}x",
                f"target ≤ {scale + 2}x: {verdict(took[1] <= (scale + 2) * took[0])}",
            ]
        )
    rep.say("## Limits: a search stopped by --max-nodes, and a game refused, at N and at 4N")
    rep.say(
        "(processor seconds, in this process, once each; 4x where a node costs the same "
        "whatever was visited before it, 16x where the cost grows with it)"
    )
    rep.say()
    rep.table(["what", "N", "at N s", "at 4N s", "4N / N", "against target"], rows)
    iterations = 50 if quick else 200
    seconds, result = cpu_of(
        lambda: on_demand(
            "game:othello:rows=8,columns=8", "mcts", 50_000_000, iterations=iterations
        )
    )
    assert not isinstance(result, Exception), result
    rep.say(f"## `eval game:othello:rows=8,columns=8 -a mcts --iterations {iterations}`")
    rep.say("(processor seconds, in this process: the search on demand, nothing counted first)")
    rep.say()
    rep.table(
        ["seconds", "nodes", "against target"],
        [[f"{seconds:.2f}", f"{result.nodes:,}", f"target < 10 s: {verdict(seconds < 10)}"]],
    )
    # --time: the deepening's wall time at T and at 4T (the first depth always finishes)
    from gtsearch.algorithms.iterative import iterate

    deep = open_source("game:othello:rows=8,columns=8", on_demand=True)
    walls_at = []
    for limit in (0.5, 2.0):
        t0 = time.perf_counter()
        done = iterate(deep, 16, seconds=limit)
        walls_at.append((limit, time.perf_counter() - t0, len(done)))
    rep.say("## `eval game:othello:rows=8,columns=8 --iterative --time T`, at T and at 4T")
    rep.say("(wall seconds of the deepening, in this process, and the depths it finished)")
    rep.say()
    rep.table(
        ["T", "wall s", "depths", "against target"],
        [
            [f"{t}", f"{w:.2f}", f"{n}", f"target ≤ T + 0.5 s: {verdict(w <= t + 0.5)}"]
            for t, w, n in walls_at
        ],
    )


def measure_tt(rep: Report, repeat: int, shape: tuple[int, int]) -> None:
    """The transposition table in C: its cost on a uniform file, its speed on tic-tac-toe."""
    from gtsearch.algorithms.solve import solve
    from gtsearch.sources import open_source

    b, d = shape
    tree = load_tree(str(tree_file(b, d, "json")))
    # sub-millisecond searches: as many runs as fill a second, warm (best_of)
    plain, without = best_of(partial(search, tree, "alphabeta"), repeat, 1.0, warm=True)
    rows = []
    for mib in (1, 16):
        took, found = best_of(partial(search, tree, "alphabeta", tt=mib), repeat, 1.0, warm=True)
        assert (found.value, found.pv) == (without.value, without.pv)
        rows.append(
            [
                f"alphabeta --tt {mib} (search)",
                f"{took * 1e3:.2f}",
                f"{plain * 1e3:.2f}",
                f"{took / plain:.1f}x",
                f"target ≤ 2x: {verdict(took <= 2 * plain)}",
            ]
        )
    path = str(tree_file(b, d, "json"))
    cmd = [*gtsearch_cmd(), "eval", path, "-a", "alphabeta", "--format", "json"]
    t = walls({"plain": (cmd, env_for("C")), "tt": ([*cmd, "--tt", "16"], env_for("C"))}, 5)
    rows.append(
        [
            "gtsearch eval --tt 16 (whole process, median of 5)",
            f"{t['tt'] * 1e3:.0f}",
            f"{t['plain'] * 1e3:.0f}",
            f"{t['tt'] / t['plain']:.2f}x",
            f"target ≤ 2x: {verdict(t['tt'] <= 2 * t['plain'])}",
        ]
    )
    rep.say(
        f"## The transposition table in C: alpha-beta on the b={b} d={d} file, with and without"
    )
    rep.say(
        f"({without.leaves:,} leaves without a table; in this process, the best of as many "
        "runs as fill a second, warm: the collector off, as timeit runs)"
    )
    rep.say()
    rep.table(["search", "with ms", "without ms", "ratio", "against target"], rows)

    game = open_source("game:tictactoe")
    game.position_keys()  # the positions' numbers, written out once (timed below, in `whole`)
    ours = {
        "solve (search)": partial(solve, game),
        "alphabeta --tt 16 (search)": partial(search, game, "alphabeta", tt=16),
        "solve (the game's states counted too)": lambda: solve(open_source("game:tictactoe")),
        "alphabeta --tt 16 (the game's states counted too)": lambda: search(
            open_source("game:tictactoe"), "alphabeta", tt=16
        ),
    }
    peers = easyai_tictactoe()
    rows = []
    theirs: dict[str, float] = {}
    if peers is not None:
        theirs["solve"] = best_of(peers[1], repeat)[0]
        theirs["alphabeta"] = best_of(peers[0], repeat)[0]
    for name, run in ours.items():
        took = best_of(run, repeat)[0]
        peer = theirs.get(name.split()[0])
        rows.append(
            [
                f"{name}",
                f"{took * 1e3:.2f}",
                "" if peer is None else f"{peer * 1e3:.0f}",
                "" if peer is None else f"{peer / took:.0f}x",
                "" if peer is None else f"target ≥ 20x: {verdict(peer >= 20 * took)}",
            ]
        )
    rep.say("## game:tictactoe with a table against easyAI's Negamax with its TranspositionTable")
    rep.say(
        "(easyAI: Negamax(9) for alphabeta, solve_with_iterative_deepening(1..9) for solve, on "
        f"its own TicTacToe; best of {repeat} in this process"
        + ("" if peers is not None else "; easyAI is not installed: pip install -e '.[peers]'")
        + ")"
    )
    rep.say()
    rep.table(["gtsearch", "gtsearch ms", "easyAI ms", "easyAI / gtsearch", "against target"], rows)


#: Othello 8x8's perft: the leaves of minimax at depth 1, 2, ... (the positions after that many
#: plies, a pass a ply; Aart Bik's and the Othello community's table)
OTHELLO_PERFT = (4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216)


def measure_games(rep: Report, repeat: int, quick: bool) -> None:
    """The searches of a built-in game on demand (nothing counted first), each on a tree
    opened afresh, in C over the game's C rules (game_tree.c, search_sss_ondemand.c) against
    the pure core's (issue 36)."""
    from gtsearch.sources.gamerules import rules_of
    from gtsearch.sources.gamespec import game_of, open_game

    depth = 5 if quick else 7
    plan: list[tuple[str, int, dict[str, Any], bool]] = [
        ("alphabeta", depth, {}, True),
        ("alphabeta", depth, {"variant": "fail-hard"}, False),
        ("f1", depth, {"bound": 0}, False),
        ("negascout", depth, {}, True),
        ("scout", depth, {}, False),
        ("sss", depth, {}, True),
        ("dual", depth, {}, False),
        ("mtdf", depth, {}, True),
        ("mt-sss", depth, {}, False),
        ("mt-dual", depth, {}, False),
        ("minimax", depth - 2, {}, False),
    ]
    rows = []
    for name, d, params, goal in plan:

        def run(d: int = d, name: str = name, params: dict[str, Any] = params) -> Any:
            return search(open_game("connect4", depth=d, on_demand=True), name, **params)

        took = {}
        found = {}
        for which in CORES:
            took[which], found[which] = on(
                which, partial(best_of, run, 1 if which == "pure" else repeat)
            )
        a, b = found["C"], found["pure"]
        same = (a.value, a.pv, a.leaves, a.nodes, a.extra) == (
            b.value,
            b.pv,
            b.leaves,
            b.nodes,
            b.extra,
        )
        ratio = took["pure"] / took["C"]
        shown = " ".join(f"{k}={v}" for k, v in params.items())
        rows.append(
            [
                f"{name} {shown} --depth {d}".replace("  ", " "),
                f"{a.leaves:,}",
                f"{a.nodes:,}",
                f"{took['C'] * 1e3:.1f}",
                f"{took['pure'] * 1e3:.0f}",
                f"{ratio:.0f}x",
                ("same" if same else "DIFFERENT")
                + (f"; target ≥ 20x: {verdict(same and ratio >= 20)}" if goal else ""),
            ]
        )
    rep.say("## Connect Four searched on demand: the C core (its rules in C) against the pure one")
    rep.say(
        f"(ms, a fresh tree each run: nothing counted first; C best of {repeat}, pure one run; "
        "the same value, PV, leaves and nodes checked)"
    )
    rep.say()
    rep.table(["search", "leaves", "nodes", "C ms", "pure ms", "pure / C", "counts"], rows)

    othello = game_of("othello:rows=8,columns=8")
    in_c = rules_of(othello) is not None
    pure_deepest = 4 if quick else 6
    deepest = (5 if quick else 8) if in_c else pure_deepest
    rows = []
    for d in range(1, deepest + 1):

        def perft(d: int = d) -> Any:
            return search(open_game("othello:rows=8,columns=8", depth=d, on_demand=True), "minimax")

        cells = [f"{d}", f"{OTHELLO_PERFT[d - 1]:,}"]
        took = {}
        for which in CORES:
            if which == "pure" and d > pure_deepest:
                cells += ["", ""]
                continue
            took[which], r = on(which, partial(best_of, perft, 1 if which == "pure" else repeat))
            cells.append(f"{r.leaves:,} {verdict(r.leaves == OTHELLO_PERFT[d - 1])}")
            cells.append(f"{took[which] * 1e3:.1f}")
        if len(took) == 2:
            ratio = took["pure"] / took["C"]
            # below depth 5 a search is a few hundred nodes: what both pay to open a tree and
            # hand back its result (some 0.3 ms) is all there is to time
            target = f"; target ≥ 20x: {verdict(in_c and ratio >= 20)}" if d >= 5 else ""
            cells.append(f"{ratio:.0f}x{target}")
        else:
            cells.append("")
        rows.append(cells)
    rep.say("## Othello 8x8: minimax's leaves at --depth d against perft(d)")
    rep.say(
        "(ms, a fresh tree each run; "
        + ("its rules in C" if in_c else "the core has no Othello rules yet: both run in Python")
        + f"; the pure core to depth {pure_deepest})"
    )
    rep.say()
    rep.table(
        ["d", "perft(d)", "C leaves", "C ms", "pure leaves", "pure ms", "pure / C"],
        rows,
    )


#: the pigs of the "star" section: (target, die, horizon), and whether star2 --tt 0 runs there
STAR_PIGS = ((10, 2, 10, True), (5, 3, 10, False))
STAR_QUICK = ((6, 2, 8, True),)


def measure_star(rep: Report, repeat: int, quick: bool) -> None:
    """Star1 and Star2 on pig with their default table, against expectiminimax (and Star2
    without memory, --tt 0, where it finishes in seconds), under both cores."""
    from gtsearch.sources import open_source

    rows = []
    for target, die, horizon, ballard in STAR_QUICK if quick else STAR_PIGS:
        spec = f"game:pig:target={target},die={die},horizon={horizon}"
        for which in CORES:
            tree = on(which, partial(open_source, spec))
            runs: list[tuple[str, dict[str, Any]]] = [
                ("expectiminimax", {}),
                ("star1", {}),
                ("star2", {}),
            ]
            if ballard:
                runs.append(("star2", {"tt": 0}))
            full = None
            for name, params in runs:
                times = 1 if params else repeat  # star2 --tt 0 takes seconds: once
                took, found = on(
                    which, partial(best_of, partial(search, tree, name, **params), times)
                )
                if full is None:
                    full = found
                assert found.extra.get("value_exact") == full.extra.get("value_exact")
                assert found.value == full.value
                label = name + (" --tt 0" if params else "")
                if name != "expectiminimax" and not params:
                    label += f" (tt={found.params['tt']} by default)"
                target_text = ""
                if name == "star2" and not params:
                    target_text = (
                        f"target ≤ {full.leaves:,}: {verdict(found.leaves <= full.leaves)}"
                    )
                rows.append(
                    [
                        f"{target}/{die}/{horizon}",
                        which,
                        label,
                        f"{found.leaves:,}",
                        f"{full.leaves:,}",
                        f"{took:.3f}",
                        target_text,
                    ]
                )
    rep.say("## Star1 and Star2 on pig (target/die/horizon), against expectiminimax")
    rep.say(
        f"(leaves evaluated; seconds of the search in this process, the game counted before, "
        f"best of {repeat}, once for --tt 0; the same exact value in every row)"
    )
    rep.say()
    rep.table(
        ["pig", "core", "search", "leaves", "expectiminimax's", "seconds", "against target"],
        rows,
    )


#: the pigs of the "star" section searched on demand (target, die, horizon), and the searches
#: run there: expectiminimax and Star2 without a table (--tt 0), in C over pig's C rules
#: (search_chance_ondemand.c) and in the pure core
CHANCE_PIGS = ((10, 2, 10), (5, 3, 10))
CHANCE_QUICK = ((6, 2, 8),)
CHANCE_SEARCHES = (("expectiminimax", {}), ("star1", {"tt": 0}), ("star2", {"tt": 0}))


def measure_chance_on_demand(rep: Report, repeat: int, quick: bool) -> None:
    """Expectiminimax, Star1 and Star2 (--tt 0) on pig searched on demand, each on a tree
    opened afresh: in C over pig's C rules against the pure core (issue 36), the same exact
    value, leaves and nodes in both."""
    from gtsearch.sources import open_source

    rows = []
    for target, die, horizon in CHANCE_QUICK if quick else CHANCE_PIGS:
        spec = f"game:pig:target={target},die={die},horizon={horizon}"
        for name, params in CHANCE_SEARCHES:

            def run(spec: str = spec, name: str = name, params: dict[str, Any] = params) -> Any:
                return search(open_source(spec, on_demand=True), name, **params)

            took: dict[str, float] = {}
            found: dict[str, Any] = {}
            for which in CORES:
                times = repeat if which == "C" else 1  # the pure core takes seconds: once
                took[which], found[which] = on(which, partial(best_of, run, times))
            c, pure = found["C"], found["pure"]
            assert (c.value, c.extra, c.leaves, c.nodes, c.pv) == (
                pure.value,
                pure.extra,
                pure.leaves,
                pure.nodes,
                pure.pv,
            )
            rows.append(
                [
                    f"{target}/{die}/{horizon}",
                    name + (" --tt 0" if params else ""),
                    c.extra.get("value_exact", f"{c.value:g}"),
                    f"{c.leaves:,}",
                    f"{c.nodes:,}",
                    f"{took['C'] * 1000:.1f}",
                    f"{took['pure'] * 1000:.0f}",
                    f"{took['pure'] / took['C']:.0f}x",
                ]
            )
    rep.say("## The chance searches of pig on demand (target/die/horizon), C against pure")
    rep.say(
        f"(each on a tree opened afresh, nothing counted first; the C core best of {repeat}, "
        "the pure one once; the same exact value, leaves, nodes and PV in both)"
    )
    rep.say()
    rep.table(["pig", "search", "value", "leaves", "nodes", "C ms", "pure ms", "pure / C"], rows)


def measure_games_tabled(rep: Report, repeat: int, quick: bool) -> None:
    """The searches with a table of Connect Four on demand to --depth 7 (5 with --quick), each
    on a tree opened afresh: in C over the game's C rules (search_tabled_ondemand.c) against
    the pure core's (once): alphabeta, negascout, mtdf and mt-sss with --tt 16, eval
    --iterative (16 MiB); and Star1 and Star2 with their default table on the pigs of
    CHANCE_PIGS (search_chance_ondemand.c)."""
    from gtsearch.algorithms.iterative import iterate
    from gtsearch.sources import open_source

    depth = 5 if quick else 7

    def fresh() -> Any:
        return open_source("game:connect4", on_demand=True, depth=depth)

    def pig(spec: str, name: str) -> Any:
        return lambda: search(open_source(f"game:pig:{spec}", on_demand=True), name)

    plan: list[tuple[str, Any]] = [
        ("alphabeta --tt 16", lambda: search(fresh(), "alphabeta", tt=16)),
        ("negascout --tt 16", lambda: search(fresh(), "negascout", tt=16)),
        ("mtdf --tt 16", lambda: search(fresh(), "mtdf", tt=16)),
        ("mt-sss --tt 16", lambda: search(fresh(), "mt-sss", tt=16)),
        ("--iterative", lambda: iterate(fresh(), 16)),
    ]
    # Star1 and Star2 with the table a game takes by default (search_chance_ondemand.c)
    for target, die, horizon in CHANCE_QUICK if quick else CHANCE_PIGS:
        spec = f"target={target},die={die},horizon={horizon}"
        for name in ("star1", "star2"):
            plan.append((f"{name} game:pig:{spec} (default table)", pig(spec, name)))
    rows = []
    for label, run in plan:
        took: dict[str, float] = {}
        found: dict[str, Any] = {}
        for which in CORES:
            took[which], found[which] = on(
                which, partial(best_of, run, repeat if which == "C" else 1)
            )
        a, b = found["C"], found["pure"]
        iterations = isinstance(a, list)
        key = (
            (lambda r: (r.value, r.pv, r.leaves, r.nodes, r.extra))
            if not iterations
            else (lambda rs: [(r.value, r.pv, r.leaves, r.nodes, r.extra) for r in rs])
        )
        same = key(a) == key(b)
        last = a[-1] if iterations else a
        leaves = sum(r.leaves for r in a) if iterations else a.leaves
        nodes = sum(r.nodes for r in a) if iterations else a.nodes
        ratio = took["pure"] / took["C"]
        rows.append(
            [
                label + (f" ({len(a)} iterations)" if iterations else ""),
                f"{leaves:,}",
                f"{nodes:,}",
                f"{last.extra['tt']['cuts']:,}",
                f"{took['C']:.3f}",
                f"{took['pure']:.3f}",
                f"{ratio:.0f}x",
                f"same counts: {verdict(same)}; ≥ 20x: {verdict(ratio >= 20)}",
            ]
        )
    rep.say(
        f"## Searches with a table of game:connect4 --depth {depth} (and of pig) on demand, "
        "C against pure"
    )
    rep.say(
        f"(seconds of the whole search, the tree opened afresh each run; C best of {repeat}, "
        "pure once; value, PV, leaves, nodes and every count of the table compared; an "
        "iterative row sums its iterations' leaves and nodes)"
    )
    rep.say()
    rep.table(["search", "leaves", "nodes", "tt cuts", "C s", "pure s", "pure / C", "target"], rows)


def block_yaml_texts(b: int, d: int) -> dict[str, str]:
    """A uniform tree (leaves in [-100, 100]) in block YAML: bare ("- - 1", one entry a line)
    and named (a mapping per node, the leaves as gtsearch's writer writes them)."""
    bare: list[str] = []
    for i in range(b**d):
        t, j = (d - 1, 0) if i == 0 else (0, i)
        while j and j % b == 0:  # how many lists start at this leaf, beyond its own
            t, j = t + 1, j // b
        bare.append("  " * (d - t - 1) + "- " * (t + 1) + f"{i * 7919 % 201 - 100}\n")
    named: list[str] = ["tree:\n"]
    leaf = 0

    def node(k: int, depth: int, ind: str) -> None:
        nonlocal leaf
        if depth == d:
            named.append(f"{ind}- {{name: n{k}, value: {leaf * 7919 % 201 - 100}}}\n")
            leaf += 1
            return
        named.append(f"{ind}- name: n{k}\n{ind}  children:\n")
        for c in range(b):
            node(c, depth + 1, ind + "    ")

    node(0, 0, "  ")
    return {"bare": "".join(bare), "named": "".join(named)}


def measure_block_yaml(rep: Report, shape: tuple[int, int], repeat: int) -> None:
    """Loading block YAML: the C reader (load_block.c) against the Python reader (libyaml's
    events, where the C reader hands a document back) and PyYAML's CSafeLoader alone."""
    import yaml

    from gtsearch.formats import yamlfmt
    from gtsearch.formats.compiled import parse_compiled

    rows = []
    for kind, text in block_yaml_texts(*shape).items():
        c, tree = best_of(partial(parse_compiled, text, "yaml", "bench", 10**9), repeat)
        assert tree is not None and tree == yamlfmt.parse(text), kind
        py, _ = best_of(partial(yamlfmt.parse, text, "bench"), repeat)
        raw, _ = best_of(partial(yaml.load, text, Loader=yaml.CSafeLoader), repeat)
        rows.append(
            [
                f"b={shape[0]} d={shape[1]}, {kind} ({len(text) / 1e6:.1f} MB)",
                f"{tree.n_nodes:,}",
                f"{c:.3f}",
                f"{py:.3f}",
                f"{raw:.3f}",
                f"{py / c:.0f}x",
                f"{raw / c:.0f}x",
            ]
        )
    rep.say("## Loading block YAML (seconds): the C reader against PyYAML")
    rep.table(
        [
            "tree",
            "nodes",
            "C reader",
            "Python reader",
            "yaml CSafeLoader",
            "Python / C",
            "CSafe / C",
        ],
        rows,
    )


def measure_mcts_peers(rep: Report, aima_path: str | None) -> None:
    """One whole MCTS search of tic-tac-toe from the empty board, PEER_ITERATIONS iterations,
    UCT with c = sqrt(2) and random playouts: gtsearch's mcts (C core; the game opened, its
    states counted, before the clock starts) against OpenSpiel's Python MCTSBot (solver off,
    one random rollout per simulation) and, given ``--aima-python PATH``, aima-python's
    monte_carlo_tree_search (AIMA 4th edition, aima/games.py); wall time of the one call."""
    import math
    import random

    from gtsearch.sources import open_source

    n = PEER_ITERATIONS
    runs: dict[str, tuple[float, str]] = {}
    tree = open_source("game:tictactoe")
    t0 = time.perf_counter()
    r = search(tree, "mcts", iterations=n, seed=1, exploration=math.sqrt(2), leaf_bounds=(-1, 1))
    runs["gtsearch mcts (C core), game:tictactoe"] = (time.perf_counter() - t0, str(r.pv_labels[0]))
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts as spiel_mcts
    except ImportError:
        rep.say(
            "(OpenSpiel is not installed: pip install 'gtsearch[openspiel]'; its row is left out)"
        )
    else:
        game = pyspiel.load_game("tic_tac_toe")
        bot = spiel_mcts.MCTSBot(
            game,
            uct_c=math.sqrt(2),
            max_simulations=n,
            evaluator=spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
            solve=False,
            random_state=np.random.RandomState(1),
        )
        state = game.new_initial_state()
        t0 = time.perf_counter()
        action = bot.step(state)
        runs["OpenSpiel MCTSBot (Python), tic_tac_toe"] = (
            time.perf_counter() - t0,
            state.action_to_string(action),
        )
    if aima_path is not None:
        sys.path.insert(0, aima_path)
        try:
            from aima.games import TicTacToe, monte_carlo_tree_search
        finally:
            sys.path.remove(aima_path)
        ttt = TicTacToe()
        random.seed(1)
        t0 = time.perf_counter()
        move = monte_carlo_tree_search(ttt.initial, ttt, N=n)
        runs["aima-python monte_carlo_tree_search, TicTacToe()"] = (
            time.perf_counter() - t0,
            str(move),
        )
    ours = n / runs["gtsearch mcts (C core), game:tictactoe"][0]
    rows = []
    for name, (seconds, move) in runs.items():
        rate = n / seconds
        peer = not name.startswith("gtsearch")
        rows.append(
            [
                name,
                move,
                f"{seconds:.3f}",
                f"{rate:,.0f}",
                f"{ours / rate:.1f}x" if peer else "",
                f"target ≥ 20x: {verdict(ours >= 20 * rate)}" if peer else "",
            ]
        )
    rep.say(f"## mcts on tic-tac-toe against the peers ({n:,} iterations, one whole search)")
    rep.say()
    rep.table(["search", "move", "seconds", "it/s", "gtsearch / this", "against target"], rows)


#: the smallest click program with a command, run as ``eval tiny.json --format json`` and
#: ``--help``: what click alone costs a process (its import, a group, parsing, the help), the
#: floor under any click command line
CLICK_FLOOR = """\
import click


@click.group()
def cli():
    \"\"\"A group of one command.\"\"\"


@cli.command("eval")
@click.argument("files", nargs=-1)
@click.option("--format", "output_format", default="table", help="The output's format.")
def eval_command(files, output_format):
    \"\"\"Print the files' names.\"\"\"
    click.echo(" ".join(files))


cli()
"""


def installed_env(which: str) -> dict[str, str]:
    """The environment of a process of the wheel install under the core ``which``: the
    bytecode pip compiled at install, nothing of this tree on the path."""
    drop = {"GTSEARCH_PURE", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "PYTHONPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    if which == "pure":
        env["GTSEARCH_PURE"] = "1"
    return env


def wheel_install() -> Path | str:
    """The ``bin`` folder of a venv where gtsearch is installed from a wheel of this tree, as
    ``pip install gtsearch`` installs it (not editable), or why there is none.

    The venv is kept in benchmarks/data/wheel-venv (pip installs the dependencies into it
    once, from its configured index); the wheel is built and installed again on every run.
    """
    venv = DATA / "wheel-venv"
    python = venv / "bin" / "python"
    env = installed_env("C")
    with tempfile.TemporaryDirectory(prefix="gtsearch-wheel-") as tmp:
        steps = [[sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, str(ROOT)]]
        if not python.exists():
            steps.append([sys.executable, "-m", "venv", str(venv)])
        install = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        for step in steps:
            proc = subprocess.run(step, capture_output=True, text=True, env=env)
            if proc.returncode:
                return f"{' '.join(step[:4])} failed: {proc.stderr.strip()[-300:]}"
        wheel = str(next(Path(tmp).glob("gtsearch-*.whl")))
        for step in ([*install, "--force-reinstall", "--no-deps", wheel], [*install, wheel]):
            proc = subprocess.run(step, capture_output=True, text=True, env=env)
            if proc.returncode:
                return f"{' '.join(step[:5])} failed: {proc.stderr.strip()[-300:]}"
    return venv / "bin"


def measure_startup(rep: Report, cmd: list[str], wheel: bool, runs: int = 21) -> None:
    """Whole processes of a small ``eval`` and of the help against ``python -c pass``, in this
    (development) install and in a wheel install, all run in turn ``runs`` times.

    The two installs have different floors: an editable install's finder (a .pth file that
    imports pathlib, re and importlib.util) and coverage's .pth run in every process of the
    development venv, ``python -c pass`` included, so its ratios are smaller than a wheel
    install's for the same work.  The smallest click program (CLICK_FLOOR) gives the part of
    each ratio that is click's own.
    """
    DATA.mkdir(parents=True, exist_ok=True)
    tiny = DATA / "tiny.json"
    tiny.write_text("[[3,12,8],[2,4,6],[14,5,2]]\n")
    flow = DATA / "tiny.yaml"  # the same tree as a flow YAML document
    flow.write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n")
    floor = DATA / "click_floor.py"
    floor.write_text(CLICK_FLOOR)
    block = ROOT / "sample_trees" / "aima-fig5-2.yaml"  # block YAML: the C core reads it
    small = ["--format", "json"]
    #: (key, what, arguments of gtsearch or None for python, core)
    rows: list[tuple[str, str, list[str], str]] = [
        ("pass", "python -c pass", ["-c", "pass"], "none"),
        ("click", 'python -c "import click"', ["-c", "import click"], "none"),
        (
            "floor",
            "a one-command click program: eval tiny.json",
            [str(floor), "eval", str(tiny), *small],
            "none",
        ),
        ("floor-h", "a one-command click program: --help", [str(floor), "--help"], "none"),
        (
            "pure",
            "gtsearch eval tiny.json (9 leaves), pure core",
            ["eval", str(tiny), *small],
            "pure",
        ),
        ("C", "gtsearch eval tiny.json (9 leaves), C core", ["eval", str(tiny), *small], "C"),
        ("flow", "gtsearch eval tiny.yaml (flow YAML), C core", ["eval", str(flow), *small], "C"),
        (
            "block",
            "gtsearch eval aima-fig5-2.yaml (block YAML), C core",
            ["eval", str(block), *small],
            "C",
        ),
        (
            "readme",
            "gtsearch eval aima-fig5-2.yaml --algo alphabeta (the README's)",
            ["eval", str(block), "--algo", "alphabeta"],
            "C",
        ),
        ("help", "gtsearch --help", ["--help"], "C"),
        ("eval-h", "gtsearch eval -h", ["eval", "-h"], "C"),
    ]
    python_rows = {"pass", "click", "floor", "floor-h"}
    installs: dict[str, tuple[list[str], list[str], Callable[[str], dict[str, str]]]] = {
        "dev": ([sys.executable], cmd, env_for)
    }
    if wheel:
        where = wheel_install()
        if isinstance(where, str):
            rep.say(f"(No wheel install: {where})")
        else:
            installs["wheel"] = ([str(where / "python")], [str(where / "gtsearch")], installed_env)
    commands = {
        f"{install} {key}": ([*(python if key in python_rows else gts), *args], env(core))
        for install, (python, gts, env) in installs.items()
        for key, _, args, core in rows
    }
    cpu: dict[str, list[float]] = {}
    times = wall_times(commands, runs, cpu)
    best = {name: min(t) for name, t in times.items()}
    median = {name: statistics.median(t) for name, t in times.items()}
    cpu_median = {name: statistics.median(t) for name, t in cpu.items()}

    def cell(install: str, key: str) -> str:
        base = f"{install} pass"
        name = f"{install} {key}"
        return (
            f"{best[name] * 1000:.1f} ms, {best[name] / best[base]:.2f}x "
            f"(median {median[name] / median[base]:.2f}x; processor "
            f"{cpu_median[name] / cpu_median[base]:.2f}x)"
        )

    def target(key: str) -> str:
        if key in python_rows:
            return ""
        limit = 4 if key == "pure" else 3
        met = ", ".join(
            f"{install} {verdict(best[f'{install} {key}'] <= limit * best[f'{install} pass'])}"
            for install in installs
        )
        return f"≤ {limit}x: {met}"

    rep.say(
        f"## Start-up (whole processes, best of {runs} runs in turn, ratio to the same "
        "install's python -c pass; in brackets the ratio of the medians, and of the median "
        "processor times)"
    )
    header = ["command", "development install (editable)"]
    if "wheel" in installs:
        header.append("wheel install")
    rep.table(
        [*header, "target"],
        [[what, *(cell(i, key) for i in installs), target(key)] for key, what, _, _ in rows],
    )
    for install in installs:
        rep.say(
            f"{install}: the one-command click program (the floor) "
            f"{best[f'{install} floor'] * 1000:.1f} ms; above it, gtsearch's own share of a "
            f"small eval {(best[f'{install} C'] - best[f'{install} floor']) * 1000:.1f} ms "
            f"(processor {(cpu_median[f'{install} C'] - cpu_median[f'{install} floor']) * 1000:.1f}"
            f" ms), of --help {(best[f'{install} help'] - best[f'{install} floor-h']) * 1000:.1f}"
            f" ms (processor "
            f"{(cpu_median[f'{install} help'] - cpu_median[f'{install} floor-h']) * 1000:.1f} ms)"
        )


#: issue 35's games against OpenSpiel: (OpenSpiel's game, gtsearch's algorithm, the goal:
#: gtsearch's whole process at most this many times OpenSpiel's)
SPIEL_GAMES = (
    ("tic_tac_toe", "alphabeta", 1.0),
    ("breakthrough(rows=4,columns=3)", "alphabeta", 2.0),
    ("pig(winscore=5,diceoutcomes=3,horizon=10)", "expectiminimax", 1.0),
)


def spiel_peer(game: str, algorithm: str) -> list[str]:
    """A python -c running OpenSpiel's own Python search on ``game`` as its users run it,
    printing the value for player 0 (MAX)."""
    if algorithm == "expectiminimax":
        call = "minimax.expectiminimax(g.new_initial_state(), 1000, None, 0)[0]"
    else:
        call = "minimax.alpha_beta_search(g, maximizing_player_id=0)[0]"
    code = (
        "import pyspiel\nfrom open_spiel.python.algorithms import minimax\n"
        f"g = pyspiel.load_game({game!r})\nprint(repr(float({call})))"
    )
    return [sys.executable, "-c", code]


#: issue 35's mcts goal: 2,000 iterations on connect_four, no slower than OpenSpiel's MCTSBot
SPIEL_MCTS_ITERATIONS = 2000


def spiel_mcts_peer(game: str, iterations: int) -> list[str]:
    """A python -c running OpenSpiel's Python MCTSBot as its users run it (UCT with c = sqrt(2),
    one random rollout a simulation, solver off), one step from the start, printing the move."""
    code = (
        "import math\nimport numpy as np\nimport pyspiel\n"
        "from open_spiel.python.algorithms import mcts\n"
        f"g = pyspiel.load_game({game!r})\n"
        f"bot = mcts.MCTSBot(g, uct_c=math.sqrt(2), max_simulations={iterations}, "
        "evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), solve=False, "
        "random_state=np.random.RandomState(1))\n"
        "s = g.new_initial_state()\nprint(s.action_to_string(bot.step(s)))"
    )
    return [sys.executable, "-c", code]


#: issue 36's mcts goal: iterations a second on connect_four against OpenSpiel's C++ MCTSBot
CPP_MCTS_ITERATIONS = 20_000


def measure_mcts_cpp(rep: Report, repeat: int) -> None:
    """mcts on game:connect4 (6x7) searched on demand, in C over its C rules, against OpenSpiel's
    C++ ``pyspiel.MCTSBot`` (``pyspiel.RandomRolloutEvaluator``: one random rollout a
    simulation; UCT, c = sqrt(2), solve off), the same number of simulations, one move's search
    from the start, both in this process: iterations a second, best of ``repeat`` (issue 36)."""
    import math

    import pyspiel

    from gtsearch.sources.gamespec import open_game

    n = CPP_MCTS_ITERATIONS
    game = pyspiel.load_game("connect_four")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)

    def theirs() -> Any:
        bot = pyspiel.MCTSBot(game, evaluator, math.sqrt(2), n, 1000, False, 1, False)
        return game.new_initial_state().action_to_string(bot.step(game.new_initial_state()))

    def ours() -> Any:
        tree = open_game("connect4", on_demand=True)
        return search(tree, "mcts", iterations=n, seed=1).pv_labels[0]

    rows = []
    times = {}
    for name, fn in (
        ("gtsearch mcts, game:connect4 (C core)", ours),
        ("OpenSpiel MCTSBot (C++)", theirs),
    ):
        best, move = float("inf"), None
        for _ in range(repeat):
            t0 = time.perf_counter()
            move = fn()
            best = min(best, time.perf_counter() - t0)
        times[name] = best
        rows.append([name, f"{n:,}", f"{best * 1000:.1f}", f"{n / best:,.0f}", str(move), ""])
    ratio = times[rows[1][0]] / times[rows[0][0]]
    rows[0][-1] = f"{ratio:.2f}x OpenSpiel's: >= 1x: {verdict(ratio >= 1.0)}"
    rep.say("## mcts on connect_four against OpenSpiel's C++ MCTSBot, in one process")
    rep.say()
    rep.table(["search", "simulations", "ms", "iterations/s", "move", "goal (issue 36)"], rows)
    rep.say(
        f"(best of {repeat}; one move's search from the start, UCT with c = sqrt(2), one "
        "random rollout a simulation, OpenSpiel's solve=False; gtsearch's search includes "
        "opening the game and handing the numbered nodes to the OnDemandTree)"
    )
    rep.say()


def best_wall(cmd: list[str], env: dict[str, str], repeat: int) -> tuple[float, str]:
    """The least wall time of ``repeat`` runs of a whole process (after one untimed run) and
    what it printed."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, env=env)
        best = min(best, time.perf_counter() - t0)
    return best, out


def measure_openspiel(rep: Report, repeat: int) -> None:
    """gtsearch on OpenSpiel's games, searched on demand, against OpenSpiel's own Python
    searches: whole processes side by side, the same value checked (issue 35's goals)."""
    rep.say(
        "## Games against OpenSpiel: whole processes, `gtsearch eval` against OpenSpiel's Python"
    )
    rep.say()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        rep.say("(OpenSpiel is not installed: pip install 'gtsearch[openspiel]'; skipped)")
        rep.say()
        return
    measure_mcts_cpp(rep, repeat)
    rows = []
    for game, algorithm, goal in SPIEL_GAMES:
        ours_cmd = [*gtsearch_cmd(), "eval", f"game:openspiel:{game}", "-a", algorithm]
        ours, printed = best_wall([*ours_cmd, "--format", "json"], env_for("C"), repeat)
        value = json.loads(printed.splitlines()[0])["value"]
        theirs, said = best_wall(spiel_peer(game, algorithm), env_for("none"), repeat)
        if abs(float(said) - value) > 1e-9:
            raise SystemExit(f"{game}: gtsearch's value {value} is not OpenSpiel's {said.strip()}")
        ratio = ours / theirs
        rows.append(
            [
                game,
                algorithm,
                f"{value:g}",
                f"{ours:.3f}",
                f"{theirs:.3f}",
                f"{ratio:.1f}x",
                f"<= {goal:g}x: {verdict(ratio <= goal)}",
            ]
        )
    n = SPIEL_MCTS_ITERATIONS
    theirs, said = best_wall(spiel_mcts_peer("connect_four", n), env_for("none"), repeat)
    for source in ("game:openspiel:connect_four", "game:connect4"):
        cmd = [*gtsearch_cmd(), "eval", source, "-a", "mcts", "--iterations", str(n)]
        ours, printed = best_wall([*cmd, "--seed", "1", "--format", "json"], env_for("C"), repeat)
        value = json.loads(printed.splitlines()[0])["value"]
        ratio = ours / theirs
        rows.append(
            [
                f"{source.removeprefix('game:')} ({n:,} iterations; MCTSBot: {said.strip()})",
                "mcts",
                f"{value:.3f}",
                f"{ours:.3f}",
                f"{theirs:.3f}",
                f"{ratio:.1f}x",
                f"<= 1x: {verdict(ratio <= 1.0)}",
            ]
        )
    rep.table(["game", "algorithm", "value", "gtsearch s", "OpenSpiel s", "ratio", "goal"], rows)
    rep.say(
        f"(best of {repeat} whole processes each, after one untimed run; the same value, but "
        f"mcts's, an estimate, against OpenSpiel's MCTSBot on connect_four: {n:,} simulations "
        "of UCT, c = sqrt(2), one random rollout each, solve=False; game:connect4 is gtsearch's "
        "own Connect Four, the same game)"
    )
    rep.say()


#: the searches of the "tictactoe" section: (algorithm, its parameters, timed as whole
#: processes too); expectiminimax's Python walk of the counted tree takes seconds a run
TTT_SEARCHES: tuple[tuple[str, dict[str, Any], bool], ...] = (
    ("minimax", {}, True),
    ("f1", {}, False),
    ("alphabeta", {}, True),
    ("alphabeta", {"variant": "fail-hard"}, False),
    ("negascout", {}, True),
    ("scout", {}, False),
    ("sss", {}, True),
    ("dual", {}, False),
    ("mt-sss", {}, False),
    ("mt-dual", {}, False),
    ("mtdf", {}, False),
    ("star1", {"tt": 0}, False),
    ("star1", {}, False),
    ("mcts", {"iterations": 1000}, True),
    ("alphabeta", {"tt": 16}, False),
    ("negascout", {"tt": 16}, False),
    ("mtdf", {"tt": 16}, True),
    ("mt-sss", {"tt": 16}, False),
)


def unsized(extra: dict[str, Any]) -> dict[str, Any]:
    """A search's extras without its table's size (star1's and star2's default table is sized
    by the positions a counted game has, by --max-nodes on demand)."""
    if "tt" not in extra:
        return extra
    tt = {k: v for k, v in extra["tt"].items() if k not in ("mib", "entries")}
    return {**extra, "tt": tt}


def measure_tictactoe(rep: Report, repeat: int, runs: int) -> None:
    """game:tictactoe opened on demand (nothing counted) against counted in C first (the core's
    kernel, game_kernels.c, then searched over its graph) under the C core: every search in
    this process, and some as whole processes (``python -c`` opening and searching it, and
    ``gtsearch eval game:tictactoe`` under each core, which opens it on demand)."""
    from gtsearch.sources import open_source

    rows = []
    for name, params, whole in TTT_SEARCHES:
        took = {}
        found = {}
        for how, on_demand in (("counted", False), ("on demand", True)):

            def run(on_demand: bool = on_demand, name: str = name, params: Any = params) -> Any:
                return search(open_source("game:tictactoe", on_demand=on_demand), name, **params)

            took[how], found[how] = on("C", partial(best_of, run, max(repeat, 5)))
        a, b = found["counted"], found["on demand"]
        same = (a.value, a.pv, a.leaves, a.nodes, unsized(a.extra)) == (
            b.value,
            b.pv,
            b.leaves,
            b.nodes,
            unsized(b.extra),
        )
        verdict_ = "same" if same else "DIFFERENT"
        if same and a.extra != b.extra:  # star1's default table: sized by what is known
            sizes = [r.extra["tt"]["mib"] for r in (a, b)]
            verdict_ += f" (its default table: {sizes[0]:,} MiB counted, {sizes[1]:,} on demand)"
        shown = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in params.items())
        cells = [
            f"{name} {shown}".strip(),
            f"{took['counted'] * 1e3:.2f}",
            f"{took['on demand'] * 1e3:.2f}",
            f"{took['on demand'] / took['counted']:.2f}x",
        ]
        if whole:
            code = (
                "from gtsearch import search; from gtsearch.sources import open_source; "
                f"search(open_source('game:tictactoe', on_demand=OD), {name!r}, **{params!r})"
            )
            argv = [*gtsearch_cmd(), "eval", "game:tictactoe", "-a", name, *shown.split()]
            t = walls(
                {
                    "eval C": (argv, env_for("C")),
                    "eval pure": (argv, env_for("pure")),
                    "counted": ([sys.executable, "-c", code.replace("OD", "False")], env_for("C")),
                    "on demand": ([sys.executable, "-c", code.replace("OD", "True")], env_for("C")),
                },
                runs,
            )
            cells += [f"{t[k] * 1e3:.0f}" for k in ("counted", "on demand", "eval C", "eval pure")]
        else:
            cells += ["", "", "", ""]
        rows.append([*cells, verdict_])
    rep.say("## game:tictactoe counted in C first (the kernel) against searched on demand (C core)")
    rep.say(
        f"(ms; in this process best of {max(repeat, 5)}, the game opened afresh each run; whole "
        f"processes median of {runs} runs in turn: `python -c` opening and searching it, and "
        "`gtsearch eval game:tictactoe -a ALGO` under each core; the same value, PV, leaves, "
        "nodes and extras checked)"
    )
    rep.say()
    rep.table(
        [
            "search",
            "counted ms",
            "on demand ms",
            "on demand / counted",
            "process counted ms",
            "process on demand ms",
            "eval C ms",
            "eval pure ms",
            "counts",
        ],
        rows,
    )


def connect4_positions(count: int, seed: int) -> list[tuple[str, tuple[int, int, int]]]:
    """``count`` 6x7 Connect Four positions of 12 to 30 plies of random legal play (seeded),
    none over and none where the player to move wins at once: each as its moves (columns
    1..7, as Pons' solver reads them) and its state (x, o, won)."""
    import random

    from gtsearch.sources.library.connect4 import ConnectFour

    rng, game, out = random.Random(seed), ConnectFour(), []
    while len(out) < count:
        state, moves = game.initial(), []
        for _ in range(rng.randint(*C4_PLIES)):
            c = rng.choice(game.moves(state))
            state = game.play(state, c)
            moves.append(str(c + 1))
            if state[2]:
                break
        if not state[2] and not any(game.play(state, c)[2] for c in game.moves(state)):
            out.append(("".join(moves), state))
    return out


def measure_connect4(rep: Report, pons: str | None, repeat: int, quick: bool) -> None:
    """`solve` on Connect Four (its own solver, the C core, in this process) against Pascal
    Pons' solver (github PascalPons/connect4, -O3, no opening book; one process reading every
    position): the same result and distance on each position, and the total time (issue 36's
    goal: at most 5x)."""
    from gtsearch.algorithms.connect4 import outcome, solve_connect4

    count = C4_QUICK if quick else C4_POSITIONS
    rep.say("## Connect Four solved: `solve game:connect4 --moves ...` against Pons' solver")
    rep.say()
    if pons is None or not Path(pons).is_file():
        rep.say(
            "(Pons' solver not given: --pons PATH, the c4solver binary of github "
            "PascalPons/connect4 built with make; skipped)"
        )
        rep.say()
        return
    positions = connect4_positions(count, C4_SEED)
    text = "".join(f"{moves}\n" for moves, _ in positions)
    theirs, said = math.inf, ""
    for _ in range(repeat):  # -b: a book that does not exist, so that none is read
        t0 = time.perf_counter()
        run = subprocess.run(
            [pons, "-b", str(DATA / "no-such.book")], input=text, capture_output=True, text=True
        )
        theirs = min(theirs, time.perf_counter() - t0)
        said = run.stdout
    scores = [int(line.split()[1]) for line in said.splitlines()]
    if len(scores) != len(positions):
        raise SystemExit(f"{pons}: {len(scores)} scores for {len(positions)} positions")
    ours, found = math.inf, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        found = [solve_connect4(6, 7, 4, s[0], s[1], tt=C4_TT) for _, s in positions]
        ours = min(ours, time.perf_counter() - t0)
    rows, same = [], 0
    for (moves, _), score, f in zip(positions, scores, found, strict=True):
        expected = outcome(score, len(moves), 42)
        agree = expected == (f.result, f.distance)
        same += agree
        rows.append(
            [
                moves,
                f"{score}",
                f"{expected[0]} {expected[1]}",
                f"{f.result} {f.distance}",
                "yes" if agree else "NO",
                f"{f.nodes:,}",
                f"{f.line_nodes:,}",
                f"{f.seconds * 1000:.1f}",
            ]
        )
    rep.table(
        [
            "moves",
            "Pons' score",
            "his result, plies",
            "ours",
            "same",
            "our nodes",
            "PV's nodes",
            "our ms",
        ],
        rows,
    )
    # the same as whole processes, one a position (start-up included), run once each
    whole = 0.0
    for moves, _ in positions:
        cmd = [*gtsearch_cmd(), "solve", "game:connect4", "--moves", " ".join(moves)]
        t0 = time.perf_counter()
        subprocess.run([*cmd, "--format", "json"], env=env_for("C"), capture_output=True)
        whole += time.perf_counter() - t0
    ratio = ours / theirs
    rep.say(
        f"{same} of {len(positions)} the same (goal: all: {verdict(same == len(positions))}); "
        f"total {ours:.3f} s (`solve` with its PV, --tt {C4_TT}, C core, in this process) "
        f"against {theirs:.3f} s (Pons' whole process): {ratio:.2f}x (goal <= 5x: "
        f"{verdict(ratio <= 5)}); best of {repeat}; positions: seed {C4_SEED}, "
        f"{C4_PLIES[0]} to {C4_PLIES[1]} plies of random legal play, none over, none won at once."
        f" As {len(positions)} whole `gtsearch solve` processes, one a position: {whole:.2f} s "
        f"({whole / theirs:.1f}x, Python's and gtsearch's start-up in each)"
    )
    rep.say()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small trees only (a smoke test)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per timing (best is kept)")
    parser.add_argument("--out", default=None, help="also write the report (markdown) to this file")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"the sections to run, comma-separated, of {', '.join(SECTIONS)} (default: all)",
    )
    parser.add_argument(
        "--aima-python",
        default=None,
        metavar="PATH",
        help="a checkout of aima-python (not on PyPI): the mcts section then times its "
        "monte_carlo_tree_search too",
    )
    parser.add_argument(
        "--no-wheel",
        action="store_true",
        help="startup: time this install only (by default a wheel of this tree is also built "
        "and installed into benchmarks/data/wheel-venv, and timed there)",
    )
    parser.add_argument(
        "--pons",
        default=None,
        metavar="PATH",
        help="the c4solver binary of github PascalPons/connect4 (built with make, -O3): the "
        "connect4 section then solves its positions with it too",
    )
    args = parser.parse_args()
    only = {part.strip() for part in args.only.split(",") if part.strip()}
    if not only or only - set(SECTIONS):
        parser.error(f"--only takes sections of {', '.join(SECTIONS)}, got {args.only!r}")
    if core.native() is None:
        raise SystemExit("the C core is not built (or GTSEARCH_PURE is set): nothing to compare")
    trees = QUICK if args.quick else TREES
    rep = Report()
    rep.say(
        f"gtsearch benchmark, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; best of {args.repeat}"
    )
    rep.say()

    # Each tree is loaded, searched and dropped before the next one, so that no
    # baseline runs with another tree's millions of objects alive (json.loads
    # would then pay for the garbage collector walking them).
    load_rows: list[list[str]] = []
    search_rows: list[list[str]] = []
    mem_rows: list[list[str]] = []
    sys.setrecursionlimit(10_000)
    limit = Limit()
    try:
        for b, d in trees if only & {"load", "search", "memory"} else []:
            if "load" in only:
                tree, pure_tree, nested = measure_loads(b, d, args.repeat, load_rows)
            else:
                path = str(tree_file(b, d, "json"))
                tree = load_tree(path)
                pure_tree = on("pure", partial(load_tree, path))
                nested = json.loads(Path(path).read_text())
            if "search" in only:
                measure_searches(b, d, tree, nested, limit, args.repeat, search_rows)
            for which, t in (("C", tree), ("pure", pure_tree)) if "memory" in only else ():
                per_node = tree_bytes(t) / t.n_nodes
                mem_rows.append(
                    [
                        f"b={b} d={d}, loaded by the {which} core",
                        f"{t.n_nodes:,}",
                        f"{per_node:g} bytes/node",
                        f"target ≤ 16: {verdict(per_node <= 16)}",
                        "",
                        "",
                    ]
                )
            del tree, pure_tree, nested
            gc.collect()
    finally:
        limit.close()
    cmd = gtsearch_cmd()
    runs = 3 if args.quick else 5
    if "load" in only:
        rep.say("## Loading (seconds; the file read from the page cache is included)")
        rep.table(
            ["tree", "format", "nodes", "C core", "pure core", "json.loads", "C / json", "target"],
            load_rows,
        )

    if "search" in only:
        rep.say(
            "## Searching (ms; leaves per second of the C core in millions; time per leaf against "
            "the limit's, a plain C alpha-beta over the same arrays)"
        )
        rep.table(
            [
                "tree",
                "algorithm",
                "leaves",
                "C core ms",
                "pure core ms",
                "C M leaves/s",
                "C / limit",
                "pure / limit",
                "against target",
            ],
            search_rows,
        )

    if "memory" in only:
        # memory of a whole `gtsearch eval`
        big = (4, 11) if (4, 11) in trees else trees[0]
        path = str(tree_file(*big, "json"))
        rss_json, _ = peak_rss_mib(f"import json; json.load(open({path!r}))")
        for which in CORES:
            rss, wall = peak_rss_mib(
                _GTSEARCH, ["eval", path, "--algo", "alphabeta", "--format", "json"], which
            )
            ratio = rss / rss_json
            mem_rows.append(
                [
                    f"b={big[0]} d={big[1]} JSON file, {which} core",
                    "peak RSS",
                    f"gtsearch eval {rss:.0f} MiB",
                    f"json.load {rss_json:.0f} MiB",
                    f"{ratio:.2f}x",
                    f"target ≤ 1.5x: {verdict(ratio <= 1.5)} (eval took {wall:.1f} s)",
                ]
            )
        rep.say("## Memory")
        rep.table(
            ["tree", "nodes / what", "gtsearch", "baseline / target", "ratio", "target"], mem_rows
        )

    if "eval" in only:
        # whole processes
        ttt = str(tictactoe_file())
        t = walls(
            {
                "json.load": (
                    [sys.executable, "-c", f"import json; json.load(open({ttt!r}))"],
                    env_for("none"),
                ),
                "C": ([*cmd, "eval", ttt, "--format", "json"], env_for("C")),
                "pure": ([*cmd, "eval", ttt, "--format", "json"], env_for("pure")),
            },
            runs,
        )
        ttt_rows = [
            ["python -c 'import json; json.load(open(F))'", f"{t['json.load']:.2f}", "1.00x", ""],
            [
                "gtsearch eval F (C core)",
                f"{t['C']:.2f}",
                f"{t['C'] / t['json.load']:.2f}x",
                f"target ≤ 1.0x: {verdict(t['C'] <= t['json.load'])}",
            ],
            [
                "gtsearch eval F (pure core)",
                f"{t['pure']:.2f}",
                f"{t['pure'] / t['json.load']:.2f}x",
                "",
            ],
        ]
        rep.say(
            f"## The tic-tac-toe tree, named JSON ({os.path.getsize(ttt) / 1e6:.1f} MB), whole process"
        )
        rep.say(f"(median of {runs} runs, the three commands in turn)")
        rep.say()
        rep.table(["command", "seconds", "ratio", "against target"], ttt_rows)

    if "efg" in only:
        measure_efg(args.repeat, runs, rep)

    if "sources" in only:
        ttt = str(tictactoe_file())
        # sources: the game searched as it is reached, against its file loaded and searched
        ab = ["-a", "alphabeta", "--format", "json"]
        t = walls(
            {
                f"{kind} {which}": ([*cmd, "eval", arg, *ab], env_for(which))
                for kind, arg in (("file", ttt), ("game", "game:tictactoe"))
                for which in CORES
            },
            runs,
        )
        rep.say(
            "## Sources: `eval game:tictactoe` against `eval` of its file, alpha-beta, whole process"
        )
        rep.say(f"(median of {runs} runs, in turn)")
        rep.say()
        rep.table(
            ["core", "file s", "game:tictactoe s", "file / game", "against target"],
            [
                [
                    which,
                    f"{t[f'file {which}']:.3f}",
                    f"{t[f'game {which}']:.3f}",
                    f"{t[f'file {which}'] / t[f'game {which}']:.1f}x",
                    f"target ≥ 3x: {verdict(t[f'file {which}'] >= 3 * t[f'game {which}'])}",
                ]
                for which in CORES
            ],
        )
        if not args.quick:
            spec = "random:b=40,d=5,seed=1"
            rss, wall = peak_rss_mib(_GTSEARCH, ["eval", spec, "-a", "alphabeta,sss"], "C")
            rep.say(
                f"## `gtsearch eval {spec} -a alphabeta,sss` (102,400,000 leaves, never written)"
            )
            rep.table(
                ["peak resident MiB", "seconds", "against target"],
                [[f"{rss:.0f}", f"{wall:.1f}", f"target < 300 MiB: {verdict(rss < 300)}"]],
            )

    if "experiment" in only:
        from gtsearch.research.experiment import Sweep, run_sweep

        # the command's algorithms: every one that needs no bound and is not for chance nodes
        algorithms = tuple(a.name for a in ALGORITHMS if not a.needs_bound and not a.chance)
        sweep = Sweep(
            branchings=(2, 3, 4), depths=tuple(range(2, 8)), trials=10, algorithms=algorithms
        )
        inside = {
            which: best_of(partial(on, which, partial(run_sweep, sweep)), 3)[0] for which in CORES
        }
        t = walls({which: ([*cmd, *EXPERIMENT], env_for(which)) for which in CORES}, runs)
        raw = walls(
            {which: ([*cmd, *EXPERIMENT], env_for(which, cached=False)) for which in CORES}, runs
        )
        rep.say("## `gtsearch experiment -b 2..4 -d 2..7 -n 10` (1,800 searches of 180 trees)")
        rep.say(
            f"(whole process: median of {runs} runs, in turn, with the bytecode cached as when "
            "installed, and without; in this process: best of 3)"
        )
        rep.say()
        rep.table(
            ["", "C core s", "pure core s", "pure / C", "against target"],
            [
                [
                    "whole process",
                    f"{t['C']:.3f}",
                    f"{t['pure']:.3f}",
                    f"{t['pure'] / t['C']:.1f}x",
                    f"target ≥ 10x: {verdict(t['pure'] >= 10 * t['C'])}",
                ],
                [
                    "whole process, no bytecode cache (PYTHONDONTWRITEBYTECODE=1)",
                    f"{raw['C']:.3f}",
                    f"{raw['pure']:.3f}",
                    f"{raw['pure'] / raw['C']:.1f}x",
                    "",
                ],
                [
                    "run_sweep() in this process",
                    f"{inside['C']:.3f}",
                    f"{inside['pure']:.3f}",
                    f"{inside['pure'] / inside['C']:.1f}x",
                    "",
                ],
            ],
        )

    if "mcts" in only:
        measure_mcts(rep, (4, 7) if args.quick else (4, 10), args.repeat)
        measure_mcts_peers(rep, args.aima_python)

    if "tt" in only:
        measure_tt(rep, max(args.repeat, 5), (4, 7) if args.quick else (4, 10))

    if "star" in only:
        measure_star(rep, args.repeat, args.quick)
        measure_chance_on_demand(rep, args.repeat, args.quick)
    if "games" in only:
        measure_games(rep, args.repeat, args.quick)
        measure_games_tabled(rep, args.repeat, args.quick)
    if "limits" in only:
        measure_limits(rep, args.quick)

    if "openspiel" in only:
        measure_openspiel(rep, args.repeat)

    if "perft" in only:
        measure_perft(rep, args.repeat, args.quick)
    if "connect4" in only:
        measure_connect4(rep, args.pons, args.repeat, args.quick)

    if "tictactoe" in only:
        measure_tictactoe(rep, args.repeat, runs)

    if "startup" in only:
        measure_startup(rep, cmd, wheel=not args.no_wheel)
        measure_block_yaml(rep, (4, 5) if args.quick else (4, 8), args.repeat)
    if args.out:
        Path(args.out).write_text("\n".join(rep.lines) + "\n")


if __name__ == "__main__":
    main()
