"""Sweeps over seeded random trees: leaves per algorithm, shards and merging, statistics, Pearl's R(b).

Knuth, D. E. & Moore, R. W. (1975). An analysis of alpha-beta pruning.
Artificial Intelligence 6(4), 293-326 (the minimal tree, b^ceil(d/2) + b^floor(d/2) - 1).
Pearl, J. (1982). The solution for the branching factor of the alpha-beta
pruning algorithm and its optimality. Communications of the ACM 25(8), 559-564
(R(b) = xi / (1 - xi), xi the positive root of x^b + x - 1 = 0).

With ``chance`` C, the trees are regular *-minimax trees (Ballard 1983: B
moves, each followed by a chance node of C equally likely outcomes, d levels
of decision nodes; gtsearch.sources.uniform) and the algorithms those that
search chance nodes: expectiminimax, Star1 and Star2 (records: key ``chance``).

A sweep is a grid of cells (b, d, trial).  Trial t of (b, d) searches the
source ``random:`` seeded from (S, b, d, t) alone (:func:`tree_seed`), so any
cell can be rerun by itself, in any process, on any machine, and a sweep
split into shards (:func:`shard_cells`) gives, merged
(:func:`merge_records`), exactly the records of one run.  Records carry
no timings for the same reason.  Statistics sum with ``math.fsum``, which
does not depend on the order of the records.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..algorithms import ALGORITHMS, Algorithm, find_algorithm, plan, run
from ..algorithms.params import Params
from ..algorithms.registry import TABLE_ALGORITHMS
from ..errors import CheckFailed, UsageError
from ..numbers import Number
from ..sources.randomtree import LazyTree, RandomSpec, materialize, native_whole
from ..sources.uniform import ORDERS, check_params, leaf_count
from ..tree import DEFAULT_MAX_NODES
from .theory import full_tree, minimal_tree, pearl_r, pearl_xi

try:  # hashlib's own BLAKE2b, without hashlib, whose import loads OpenSSL (a few ms of start-up)
    from _blake2 import blake2b
except ImportError:  # a Python built without it: hashlib has another
    from hashlib import blake2b

Shard = tuple[int, int]
LIMIT = DEFAULT_MAX_NODES
#: the algorithm whose first guess ``Sweep.guess`` sets
GUESS_ALGORITHM = "mtdf"

#: the per-trial record, key by key (JSON lines and CSV columns, in this order)
RECORD_KEYS = (
    "b",
    "d",
    "trial",
    "seed",
    "tree_seed",
    "order",
    "lo",
    "hi",
    "model",
    "p",
    "source",
    "algorithm",
    "params",
    "value",
    "exact",
    "leaves",
    "distinct_leaves",
    "nodes",
    "leaves_total",
    "open_max",
    "passes",
    "sweep",
    "shard",
)
#: the keys that say which sweep a record belongs to (equal across shards), beside ``sweep``
SWEEP_KEYS = ("seed", "order", "lo", "hi", "model", "p")
#: the keys of a record's ``sweep``: the rest of the sweep's settings (:meth:`Sweep.settings`)
SETTINGS_KEYS = ("b", "d", "trials", "algorithms", "guess", "tt", "k")
#: keys that older records lack: their values then (records without ``sweep`` and ``shard``
#: do not say whether a set of them is the whole sweep: they merge only with --partial)
OLD_DEFAULTS: dict[str, Any] = {
    "model": "iid",
    "p": None,
    "source": None,
    "sweep": None,
    "shard": None,
}
#: trees of at most this many nodes are built whole (the compiled core then searches
#: them); larger ones are searched lazily, at the cost of the nodes the algorithms visit
WHOLE_MAX_NODES = 100_000

#: one summary row per (b, d, algorithm), key by key
SUMMARY_KEYS = (
    "b",
    "d",
    "algorithm",
    "trials",
    "mean",
    "stderr",
    "min",
    "max",
    "share",
    "minimal_tree",
    "full_tree",
    "mean_distinct",
)


# -- the sweep ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """The cells of a sweep, (b, d, trial), and how their trees are drawn: the seed, the value
    range, the leaf model (docs/sources.md), its p (models binary and trap) and the depth of
    its traps (model trap)."""

    branchings: tuple[int, ...]
    depths: tuple[int, ...]
    trials: int
    seed: int = 0
    lo: int = -100
    hi: int = 100
    model: str = "iid"
    p: float = 0.5
    k: int = 1

    def cells(self) -> list[tuple[int, int, int]]:
        """Every (b, d, trial), b then d then trial ascending: the order of one run's records."""
        return [
            (b, d, t)
            for b in sorted(set(self.branchings))
            for d in sorted(set(self.depths))
            for t in range(self.trials)
        ]


@dataclass(frozen=True)
class Sweep(Grid):
    """What to run: the grid, the tree order, the algorithms."""

    order: str = "random"
    #: registry names, in the order the results are reported; empty (the default): what
    #: ``--algo all`` runs, every algorithm that needs no bound and searches the sweep's
    #: trees (on chance trees expectiminimax, star1, star2; on the others the rest)
    algorithms: tuple[str, ...] = ()
    #: MTD(f)'s first guess (None: its default, 0)
    guess: Number | None = None
    #: a transposition table of so many MiB for the algorithms that take one (0: none)
    tt: int = 0
    #: outcomes per chance node: regular *-minimax trees (0: trees without chance nodes)
    chance: int = 0

    def __post_init__(self) -> None:
        if not self.algorithms:
            default = tuple(
                a.name for a in ALGORITHMS if not a.needs_bound and a.chance == bool(self.chance)
            )
            object.__setattr__(self, "algorithms", default)

    def check(self, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        """Refuse a sweep that cannot run, before any tree is built."""
        if self.trials < 1:
            raise UsageError(f"--trials must be 1 or more, got {self.trials}")
        if not self.branchings or not self.depths:
            raise UsageError("the sweep needs at least one branching factor and one depth")
        # the sizes a tree may have grow with b and d: the largest tree stands for the others,
        # so that the check costs a step per b and per d, not one per (b, d)
        low_b, low_d = min(self.branchings), min(self.depths)
        for b in sorted(self.branchings):
            check_params(b, low_d, self.lo, self.hi, self.order, self.chance)
        for d in sorted(self.depths):
            check_params(low_b, d, self.lo, self.hi, self.order, self.chance)
        self.spec(max(self.branchings), max(self.depths), 0)
        if max_nodes < 1:
            raise UsageError(f"--max-nodes must be 1 or more, got {max_nodes}")
        for name in self.algorithms:
            algo = find_algorithm(name)
            if algo.needs_bound:
                raise UsageError(
                    f"{algo.name} needs a bound; experiments run algorithms that need none"
                )
            if self.chance and not algo.chance:
                raise UsageError(
                    f"{algo.name} cannot search chance nodes; with --chance, choose among "
                    + ", ".join(a.name for a in ALGORITHMS if a.chance)
                )
        if self.guess is not None and GUESS_ALGORITHM not in self.algorithms:
            raise UsageError(
                f"--guess is MTD(f)'s first guess, but {GUESS_ALGORITHM} is not "
                "among the algorithms"
            )

    def settings(self) -> dict[str, Any]:
        """What a record's ``sweep`` holds: the settings that its other keys do not say (the
        grid, the algorithms, MTD(f)'s guess, the table, the traps' depth), so that ``--merge``
        can tell a whole sweep from a part and two sweeps apart."""
        return {
            "b": sorted(set(self.branchings)),
            "d": sorted(set(self.depths)),
            "trials": self.trials,
            "algorithms": list(self.algorithms),
            "guess": self.guess,
            "tt": self.tt,
            "k": self.k if self.model == "trap" else None,
        }

    def spec(self, b: int, d: int, seed: int) -> RandomSpec:
        """The source of one cell's tree (checked)."""
        kw: dict[str, Any] = {"model": self.model, "lo": self.lo, "hi": self.hi}
        kw["k"] = self.k
        return RandomSpec(b, d, seed=seed, order=self.order, p=self.p, chance=self.chance, **kw)

    def planned(self) -> list[tuple[Algorithm, Params]]:
        """The algorithms with their parameters (MTD(f)'s guess, the table), checked once for
        every tree."""
        out = []
        for name in self.algorithms:
            algo = find_algorithm(name)
            bound = self.guess if algo.name == GUESS_ALGORITHM else None
            tt = self.tt if algo.name in TABLE_ALGORITHMS else None
            out.extend(plan([name], bound=bound, tt=tt))
        return out


def tree_seed(seed: int, b: int, d: int, trial: int, chance: int = 0) -> int:
    """The seed of trial ``trial`` of (b, d) in the sweep seeded ``seed`` (and ``chance``).

    A hash of the numbers (BLAKE2b, 64 bits): the same everywhere, in every
    process, independent of the rest of the grid.
    """
    text = f"gtsearch-experiment {seed} {b} {d} {trial}" + (f" chance {chance}" if chance else "")
    digest = blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (1 <= I <= N) as (I, N)."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m:
        raise UsageError(f"--shard takes I/N, e.g. 2/4, got {text!r}")
    i, n = int(m.group(1)), int(m.group(2))
    if not 1 <= i <= n:
        raise UsageError(f"--shard I/N needs 1 <= I <= N, got {text!r}")
    return i, n


def shard_cells(
    cells: Sequence[tuple[int, int, int]], index: int, count: int
) -> list[tuple[int, int, int]]:
    """Shard ``index`` of ``count`` (1-based): every count-th cell, starting at the index-th.

    Dealt round-robin, so each shard gets its share of the big trees.
    """
    return list(cells[index - 1 :: count])


def parse_range(text: str, what: str, minimum: int = 0) -> tuple[int, ...]:
    """``2..8``, ``2,4,8``, ``3`` or a mix (``2..4,8``) as sorted distinct ints."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(-?\d+)(?:\s*\.\.\s*(-?\d+))?", part)
        if not m:
            raise UsageError(f"{what} takes a number, a range A..B or a comma list, got {text!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if lo > hi:
            raise UsageError(f"{what}: the range {part!r} is empty (A..B needs A <= B)")
        if lo < minimum:
            raise UsageError(f"{what} must be {minimum} or more, got {lo}")
        out.update(range(lo, hi + 1))
    return tuple(sorted(out))


# -- running -------------------------------------------------------------------------------
def run_cell(sweep: Sweep, b: int, d: int, trial: int) -> list[dict[str, Any]]:
    """Search one tree with every algorithm of the sweep: one record per algorithm.

    Raises CheckFailed if two exact results disagree (a regression check on every tree).
    """
    return _run_cell(sweep, sweep.planned(), b, d, trial)


def _run_cell(
    sweep: Sweep,
    planned: list[tuple[Algorithm, Params]],
    b: int,
    d: int,
    trial: int,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> list[dict[str, Any]]:
    seed = tree_seed(sweep.seed, b, d, trial, sweep.chance)
    spec = sweep.spec(b, d, seed)
    source = spec.text()
    lazy = LazyTree(spec)
    size = len(lazy.end)
    # built whole when it is small enough, so that the compiled core searches it
    whole = native_whole(spec) if size <= max_nodes else None
    if whole is None and size <= min(WHOLE_MAX_NODES, max_nodes):
        whole = materialize(lazy)
    records = []
    for algo, params in planned:
        # a fresh lazy tree per search: --max-nodes bounds the nodes each one visits
        tree = whole if whole is not None else LazyTree(spec, max_nodes=max_nodes)
        r = run(tree, algo, params)
        records.append(
            {
                **({"chance": sweep.chance} if sweep.chance else {}),
                **cell_record(sweep, b, d, trial, seed),
                "order": sweep.order,
                "lo": sweep.lo,
                "hi": sweep.hi,
                "model": sweep.model,
                "p": sweep.p if sweep.model in ("binary", "trap") else None,
                "source": source,
                "algorithm": r.algorithm,
                "params": params or None,
                "value": r.extra.get("value_exact", r.value),
                "exact": r.exact,
                "leaves": r.leaves,
                "distinct_leaves": r.extra.get("distinct_leaves", r.leaves),
                "nodes": r.nodes,
                "leaves_total": r.leaves_total,
                "open_max": r.extra.get("open_max"),
                "passes": r.extra.get("passes"),
                "sweep": sweep.settings(),
                # the shard's I/N: iter_sweep says it (a cell alone is in no shard)
                "shard": None,
            }
        )
    check_agreement(records)
    return records


def cell_record(grid: Grid, b: int, d: int, trial: int, seed: int) -> dict[str, Any]:
    """The keys every record of a cell starts with: its place in the grid and its tree's seed."""
    return {"b": b, "d": d, "trial": trial, "seed": grid.seed, "tree_seed": seed}


def check_agreement(records: Sequence[dict[str, Any]]) -> None:
    """Raise CheckFailed when the exact results of one tree differ."""
    exact = [(r["algorithm"], r["value"]) for r in records if r["exact"]]
    if len({Fraction(v) if isinstance(v, str) else v for _, v in exact}) > 1:
        r = records[0]
        said = ", ".join(f"{a} {v}" for a, v in exact)
        raise CheckFailed(
            f"b={r['b']} d={r['d']} trial {r['trial']} (tree seed {r['tree_seed']}, "
            f"order {r['order']}): the algorithms disagree: {said}"
        )


def run_cell_job(job: tuple[Sweep, int, int, int, int]) -> list[dict[str, Any]]:
    """One cell as a job for a pool or a cluster: (sweep, b, d, trial, max_nodes)."""
    sweep, b, d, t, max_nodes = job
    return _run_cell(sweep, sweep.planned(), b, d, t, max_nodes)


def run_sweep(
    sweep: Sweep,
    shard: Shard = (1, 1),
    jobs: int = 1,
    max_nodes: int = LIMIT,
    dask: str | None = None,
) -> list[dict[str, Any]]:
    """The records of every cell of the shard, in cell order, whatever ``jobs`` is.

    ``jobs`` > 1 spreads the cells over that many processes (0: one per core).
    They are started with multiprocessing's "spawn" method, so a script that
    asks for them must keep its top-level code under ``if __name__ == "__main__":``.
    ``dask`` runs the cells as tasks on a Dask cluster instead: the address of
    its scheduler, or ``"local"`` for a local cluster (:func:`.cluster.dask_cells`).
    """
    return [rec for cell in iter_sweep(sweep, shard, jobs, max_nodes, dask) for rec in cell]


def iter_sweep(
    sweep: Sweep,
    shard: Shard = (1, 1),
    jobs: int = 1,
    max_nodes: int = LIMIT,
    dask: str | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """:func:`run_sweep` cell by cell, as the cells finish (in cell order)."""
    sweep.check(max_nodes)
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (every core) or more, got {jobs}")
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    cells = [(sweep, b, d, t, max_nodes) for b, d, t in shard_cells(sweep.cells(), *shard)]
    for cell in _cells_run(sweep, cells, workers, jobs, max_nodes, dask):
        for rec in cell:
            rec["shard"] = f"{shard[0]}/{shard[1]}"
        yield cell


def _cells_run(
    sweep: Sweep,
    cells: list[tuple[Sweep, int, int, int, int]],
    workers: int,
    jobs: int,
    max_nodes: int,
    dask: str | None,
) -> Iterator[list[dict[str, Any]]]:
    if dask is not None:
        from .cluster import dask_cells

        yield from dask_cells(cells, dask, workers if jobs > 1 else None)
        return
    if workers <= 1 or len(cells) <= 1:
        planned = sweep.planned()
        for _, b, d, t, _limit in cells:
            yield _run_cell(sweep, planned, b, d, t, max_nodes)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn, not fork: the same on every platform, and safe in a threaded parent
    context = multiprocessing.get_context("spawn")
    chunk = max(1, len(cells) // (workers * 8))
    with ProcessPoolExecutor(max_workers=min(workers, len(cells)), mp_context=context) as pool:
        yield from pool.map(run_cell_job, cells, chunksize=chunk)


# -- records in and out --------------------------------------------------------------------
def cells_of(records: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    cell: list[dict[str, Any]] = []
    for rec in records:
        if cell and (rec["b"], rec["d"], rec["trial"]) != (
            cell[0]["b"],
            cell[0]["d"],
            cell[0]["trial"],
        ):
            yield cell
            cell = []
        cell.append(rec)
    if cell:
        yield cell


# -- statistics ------------------------------------------------------------------------------
def summarize(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean leaves, standard error, range and share of b^d per (b, d, algorithm).

    Rows come b then d ascending, algorithms in the order the records first name
    them.  ``stderr`` is the sample standard deviation over sqrt(trials) (0 for
    one trial); ``mean_distinct`` the mean of distinct leaves (below ``mean``
    only for algorithms that read leaves again).
    """
    algos: dict[str, None] = {}
    groups: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for rec in records:
        algos.setdefault(rec["algorithm"], None)
        groups.setdefault((rec["b"], rec["d"], rec["algorithm"]), []).append(rec)
    rank = {name: i for i, name in enumerate(algos)}
    rows = []
    for b, d, name in sorted(groups, key=lambda k: (k[0], k[1], rank[k[2]])):
        group = groups[(b, d, name)]
        xs = [float(r["leaves"]) for r in group]
        n = len(xs)
        mean = math.fsum(xs) / n
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
        chance = group[0].get("chance", 0)
        full = leaf_count(b, d, chance)
        rows.append(
            {
                "b": b,
                "d": d,
                "algorithm": name,
                "trials": n,
                "mean": mean,
                "stderr": sd / math.sqrt(n),
                "min": int(min(xs)),
                "max": int(max(xs)),
                "share": mean / full,
                # Knuth & Moore's minimal tree has no meaning with chance nodes
                "minimal_tree": None if chance else minimal_tree(b, d),
                "full_tree": full,
                "mean_distinct": math.fsum(float(r["distinct_leaves"]) for r in group) / n,
            }
        )
    return rows


def growth(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The measured growth of the mean leaves per ply, per (b, algorithm), beside Pearl's R(b).

    ``ratio`` is (N(d) / N(d-2))^(1/2) at the deepest d that has d-2 too (two
    plies, so the odd-even swing of alpha-beta cancels); ``fit`` is exp of
    the least-squares slope of ln N against d over every depth.  For
    reference: sqrt(b) is the growth of the minimal tree, b that of the
    full tree, and R(b) Pearl's limit for alpha-beta as d grows.
    """
    by_key: dict[tuple[int, str], dict[int, float]] = {}
    for row in rows:
        if "minimal_tree" in row and row["minimal_tree"] is None:  # chance nodes: no R(b)
            continue
        by_key.setdefault((row["b"], row["algorithm"]), {})[row["d"]] = row["mean"]
    out = []
    for (b, name), means in by_key.items():
        depths = sorted(means)
        top = next((d for d in reversed(depths) if d - 2 in means), None)
        ratio = None if top is None else (means[top] / means[top - 2]) ** 0.5
        fit = None
        if len(depths) >= 2:
            xs = [float(d) for d in depths]
            ys = [math.log(means[d]) for d in depths]
            mx = math.fsum(xs) / len(xs)
            my = math.fsum(ys) / len(ys)
            slope = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.fsum(
                (x - mx) ** 2 for x in xs
            )
            fit = math.exp(slope)
        out.append(
            {
                "b": b,
                "algorithm": name,
                "ratio": ratio,
                "ratio_depths": None if top is None else (top - 2, top),
                "fit": fit,
                "depths": (depths[0], depths[-1]),
                "pearl_r": pearl_r(b),
                "sqrt_b": math.sqrt(b),
            }
        )
    return out


__all__ = [
    "Sweep",
    "full_tree",
    "growth",
    "minimal_tree",
    "parse_range",
    "parse_shard",
    "pearl_r",
    "pearl_xi",
    "iter_sweep",
    "run_cell",
    "run_sweep",
    "shard_cells",
    "summarize",
    "tree_seed",
    "ORDERS",
]
