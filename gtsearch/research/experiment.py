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

import functools
import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..algorithms import ALGORITHMS, Algorithm, find_algorithm, plan, run
from ..algorithms.params import Params
from ..algorithms.registry import TABLE_ALGORITHMS
from ..errors import CheckFailed, GtsearchError, UsageError, os_reason
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
def record_keys(records: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The keys of the records, in order: RECORD_KEYS, and ``chance`` for *-minimax sweeps."""
    return (("chance",) if records and "chance" in records[0] else ()) + RECORD_KEYS


def records_jsonl(records: Iterable[dict[str, Any]]) -> str:
    """One JSON object per record and line."""
    return "".join(
        json.dumps({k: r[k] for k in ("chance",) if k in r} | {k: r.get(k) for k in RECORD_KEYS})
        + "\n"
        for r in records
    )


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a JSON lines file written by ``experiment -o FILE.jsonl``, every field
    checked (:func:`record_problem`): a bad one is one line with the path and line number."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise GtsearchError(f"{path}: cannot read: {os_reason(e)}") from None
    except UnicodeDecodeError:
        raise GtsearchError(
            f"{path}: not UTF-8 text; --merge reads the JSON lines of 'experiment -o FILE.jsonl'"
        ) from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError) as e:
            why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
            raise GtsearchError(
                f"{path}:{number}: not a JSON line ({why}); --merge reads the "
                "JSON lines of 'experiment -o FILE.jsonl'"
            ) from None
        if isinstance(rec, dict):
            rec = {k: rec[k] if k in rec else v for k, v in OLD_DEFAULTS.items()} | rec
        if not isinstance(rec, dict) or set(rec) - {"chance"} != set(RECORD_KEYS):
            raise GtsearchError(
                f"{path}:{number}: not an experiment record (expected the keys "
                f"{', '.join(RECORD_KEYS)})"
            )
        problem = record_problem(rec)
        if problem is not None:
            raise GtsearchError(f"{path}:{number}: {problem}")
        records.append(rec)
    return records


def _whole(v: Any, minimum: int | None = None) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and (minimum is None or v >= minimum)


def _real(v: Any) -> bool:
    # an int of any size is finite (math.isfinite would overflow on 10**400)
    return _whole(v) or (isinstance(v, float) and math.isfinite(v))


def _value(v: Any) -> bool:
    """A result's value as records write it: a number, or an exact fraction as text."""
    if isinstance(v, str):
        if not re.fullmatch(r"-?[0-9]{1,1000}(?:/[0-9]{1,1000})?", v):
            return False
        try:
            Fraction(v)
        except (ValueError, ZeroDivisionError):  # 1/0; digits past int's limit
            return False
        return True
    return _real(v)


def _count(v: Any) -> bool:
    return _whole(v, 0)


#: each key of a record, what its value must be, and those words for the message
_FIELDS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("chance", lambda v: _whole(v, 1), "a whole number 1 or more"),
    ("b", lambda v: _whole(v, 1), "a whole number 1 or more"),
    ("d", _count, "a whole number 0 or more"),
    ("trial", _count, "a whole number 0 or more"),
    ("seed", _whole, "a whole number"),
    ("tree_seed", lambda v: _whole(v, 0) and v < 2**64, "a whole number of 64 bits"),
    ("order", lambda v: isinstance(v, str), "text"),
    ("lo", _whole, "a whole number"),
    ("hi", _whole, "a whole number"),
    ("model", lambda v: isinstance(v, str), "text"),
    ("p", lambda v: v is None or _real(v), "a number or null"),
    ("source", lambda v: v is None or isinstance(v, str), "text or null"),
    ("algorithm", lambda v: isinstance(v, str), "text"),
    (
        "params",
        lambda v: (
            v is None
            or (isinstance(v, dict) and all(isinstance(k, str) and _real(x) for k, x in v.items()))
        ),
        "null or an object of numbers",
    ),
    ("value", _value, 'a number or an exact fraction such as "-7/3"'),
    ("exact", lambda v: isinstance(v, bool), "true or false"),
    ("leaves", _count, "a whole number 0 or more"),
    ("distinct_leaves", _count, "a whole number 0 or more"),
    ("nodes", _count, "a whole number 0 or more"),
    ("leaves_total", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("open_max", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("passes", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("sweep", lambda v: v is None or isinstance(v, dict), "an object, or null"),
    ("shard", lambda v: v is None or _parse_shard(v) is not None, 'a shard "I/N", or null'),
)
#: the keys of a record's ``sweep``, what each must be, and those words
_SETTINGS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("b", lambda v: _ascending(v, 1), "a list of ascending whole numbers 1 or more"),
    ("d", lambda v: _ascending(v, 0), "a list of ascending whole numbers 0 or more"),
    ("trials", lambda v: _whole(v, 1), "a whole number 1 or more"),
    (
        "algorithms",
        lambda v: (
            isinstance(v, list)
            and bool(v)
            and all(isinstance(a, str) for a in v)
            and len(set(v)) == len(v)
        ),
        "a list of distinct algorithm names",
    ),
    ("guess", lambda v: v is None or _real(v), "a number or null"),
    ("tt", _count, "a whole number 0 or more"),
    ("k", lambda v: v is None or _whole(v, 1), "a whole number 1 or more, or null"),
)


def _ascending(v: Any, minimum: int) -> bool:
    return (
        isinstance(v, list)
        and bool(v)
        and all(_whole(x, minimum) for x in v)
        and all(x < y for x, y in zip(v, v[1:], strict=False))
    )


def _parse_shard(text: Any) -> tuple[int, int] | None:
    m = (
        re.fullmatch(r"([1-9][0-9]{0,17})/([1-9][0-9]{0,17})", text)
        if isinstance(text, str)
        else None
    )
    if m is None or int(m.group(1)) > int(m.group(2)):
        return None
    return int(m.group(1)), int(m.group(2))


def _shown(v: Any) -> str:
    if isinstance(v, str):
        return repr(v) if len(v) <= 40 else repr(v[:40]) + "..."
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:40] + "..."


@dataclass(frozen=True)
class _Checked:
    """What one sweep's settings allow (:func:`_checked_sweep`): its grid and each algorithm's
    parameters."""

    sweep: Sweep
    branchings: dict[int, int]
    depths: dict[int, int]
    params: dict[str, Params | None]


def record_problem(rec: dict[str, Any]) -> str | None:
    """What is wrong with one record read from a file (its keys are those of RECORD_KEYS), or
    None: every field's type and range, the sweep it names (checked as the command line
    checks one), its place in that sweep's grid and shard, its algorithm's parameters."""
    for key, ok, what in _FIELDS:
        if key in rec and not ok(rec[key]):
            return f"{key!r} must be {what}, got {_shown(rec[key])}"
    settings = rec["sweep"]
    if (settings is None) != (rec["shard"] is None):
        return "'sweep' and 'shard' are both given or both null"
    if settings is not None:
        if set(settings) != set(SETTINGS_KEYS):
            return f"'sweep' must have the keys {', '.join(SETTINGS_KEYS)}"
        for key, ok, what in _SETTINGS:
            if not ok(settings[key]):
                return f"'sweep' {key!r} must be {what}, got {_shown(settings[key])}"
    try:
        checked = _checked_sweep(_sweep_key(rec))
    except GtsearchError as e:
        return f"the record's sweep cannot run: {e.message}"
    name = rec["algorithm"]
    if name not in checked.params:
        return f"algorithm {name!r} is not among the sweep's algorithms"
    if rec["params"] != checked.params[name]:
        return f"the parameters of {name} are not those of the sweep: {_shown(rec['params'])}"
    if settings is None:
        return None
    b, d, trial = rec["b"], rec["d"], rec["trial"]
    if b not in checked.branchings or d not in checked.depths or trial >= settings["trials"]:
        return f"b={b} d={d} trial {trial} is not a cell of the sweep ({sweep_options(settings)})"
    index, count = _parse_shard(rec["shard"]) or (1, 1)
    if cell_index(settings, b, d, trial) % count != index - 1:
        return f"b={b} d={d} trial {trial} is not a cell of shard {index}/{count}"
    return None


def _sweep_key(rec: dict[str, Any]) -> str:
    """The settings one record gives its sweep, as a key for :func:`_checked_sweep`."""
    base = {k: rec[k] for k in SWEEP_KEYS} | {"chance": rec.get("chance", 0)}
    settings = rec["sweep"]
    if settings is None:  # an older record: its own cell and algorithm stand for the sweep
        settings = {"b": [rec["b"]], "d": [rec["d"]], "algorithms": [rec["algorithm"]]}
        settings |= {"trials": 1, "guess": None, "tt": 0, "k": None}
        base["old"] = True
    return json.dumps(base | {"settings": settings}, sort_keys=True)


@functools.lru_cache(maxsize=64)
def _checked_sweep(key: str) -> _Checked:
    """The sweep a record names, checked as ``experiment`` checks its options (once for all
    the records of a sweep)."""
    spec = json.loads(key)
    s = spec["settings"]
    for name in s["algorithms"]:
        canonical = find_algorithm(name).name
        if canonical != name:
            raise UsageError(f"the algorithm {name!r} is written {canonical!r} in records")
    if (spec["model"] == "trap") != (s["k"] is not None) and "old" not in spec:
        raise UsageError("'k' (the traps' depth) is given for model trap and only for it")
    if (spec["p"] is not None) != (spec["model"] in ("binary", "trap")):
        raise UsageError("'p' is given for models binary and trap and only for them")
    sweep = Sweep(
        tuple(s["b"]),
        tuple(s["d"]),
        s["trials"],
        seed=spec["seed"],
        lo=spec["lo"],
        hi=spec["hi"],
        model=spec["model"],
        p=0.5 if spec["p"] is None else spec["p"],
        k=s["k"] or 1,
        order=spec["order"],
        algorithms=tuple(s["algorithms"]),
        guess=s["guess"],
        tt=s["tt"],
        chance=spec["chance"],
    )
    sweep.check()
    params: dict[str, Params | None] = {a.name: p or None for a, p in sweep.planned()}
    branchings = {b: i for i, b in enumerate(s["b"])}
    depths = {d: i for i, d in enumerate(s["d"])}
    return _Checked(sweep, branchings, depths, params)


def cell_index(settings: dict[str, Any], b: int, d: int, trial: int) -> int:
    """The place of the cell (b, d, trial) in :meth:`Grid.cells` of a record's ``sweep``."""
    bs: list[int] = settings["b"]
    ds: list[int] = settings["d"]
    trials: int = settings["trials"]
    return (bs.index(b) * len(ds) + ds.index(d)) * trials + trial


def sweep_options(settings: dict[str, Any]) -> str:
    """A record's ``sweep`` as the options that ran it: ``-b 2..4 -d 2,5 -n 10 -a alphabeta``
    (and ``--guess``, ``--tt``, ``--trap-depth`` when they were given)."""
    return " ".join(
        f"{flag} {text}" for flag, text in _settings_options(settings).items() if text is not None
    )


def _settings_options(settings: dict[str, Any]) -> dict[str, str | None]:
    return {
        "-b": _ranges(settings["b"]),
        "-d": _ranges(settings["d"]),
        "-n": str(settings["trials"]),
        "-a": ",".join(settings["algorithms"]),
        "--guess": None if settings["guess"] is None else str(settings["guess"]),
        "--tt": str(settings["tt"]) if settings["tt"] else None,
        "--trap-depth": None if settings["k"] is None else str(settings["k"]),
    }


def _ranges(xs: Sequence[int]) -> str:
    """Ascending numbers as a range list: 2..4,8 (2,3 for a run of two)."""
    parts: list[str] = []
    start = prev = xs[0]
    for x in [*xs[1:], None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        # a run of three or more as A..B (2..4), shorter ones as they are (2,3)
        parts.append(
            f"{start}..{prev}" if prev - start >= 2 else ",".join(map(str, range(start, prev + 1)))
        )
        if x is not None:
            start = prev = x
    return ",".join(parts)


def _options(rec: dict[str, Any]) -> dict[str, str | None]:
    """The options of the sweep a record comes from, flag by flag (None: not given)."""
    out: dict[str, str | None] = {
        "-s": str(rec["seed"]),
        "--order": rec["order"],
        "--values": f"{rec['lo']}:{rec['hi']}",
        "--model": rec["model"],
        "--p": None if rec["p"] is None else f"{rec['p']:g}",
        "--chance": str(rec["chance"]) if rec.get("chance") else None,
    }
    if rec.get("sweep") is not None:
        out |= _settings_options(rec["sweep"])
    return out


#: where a record is: its file (or group) and its number there, from 1
Place = tuple[str, int]


def _places(a: Place, b: Place) -> tuple[str, str]:
    """Two records' places in words: their files, or, in one file, their record numbers too."""
    if a[0] != b[0]:
        return a[0], b[0]
    return f"{a[0]} (record {a[1]})", f"{b[0]} (record {b[1]})"


def _difference(a: dict[str, Any], a_at: Place, b: dict[str, Any], b_at: Place) -> str:
    """How the sweeps of two records differ, flag by flag, each side named by its place."""
    oa, ob = _options(a), _options(b)
    flags = [f for f in oa if f in ob and oa[f] != ob[f]]

    def side(options: dict[str, str | None]) -> str:
        return " ".join(f"{f} {options[f]}" if options[f] is not None else f"no {f}" for f in flags)

    a_name, b_name = _places(a_at, b_at)
    return f"{side(oa)} in {a_name}, {side(ob)} in {b_name}"


def merge_records(
    groups: Iterable[Sequence[dict[str, Any]]],
    *,
    partial: bool = False,
    names: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """The records of several shards of one sweep as one run would list them.

    Refuses shards of different sweeps (any setting: seed, order, values, model, grid,
    trials, algorithms, guess, table) or of different splits (I/N with other N's), a cell
    that two shards both hold, a record whose tree seed does not follow from its cell, and,
    unless ``partial``, a set of records that is not the whole sweep (:func:`missing_part`
    says what is missing).  ``names`` names the groups in the messages (the files).
    Merged records of the whole sweep are those of one run, shard ``1/1``; those of a part
    keep their shards.
    """
    merged: list[dict[str, Any]] = []
    seen: set[tuple[int, int, int, str]] = set()
    first: tuple[dict[str, Any], Place] | None = None  # the first record, and where it is
    first_full: tuple[dict[str, Any], Place] | None = None  # the first that says its sweep
    for number, group in enumerate(groups):
        name = names[number] if names is not None else f"file {number + 1}"
        for count, rec in enumerate(group, 1):
            where = (name, count)
            if first is None:
                first = (rec, where)
            base = first[0]
            if any(rec[k] != base[k] for k in SWEEP_KEYS) or rec.get("chance", 0) != base.get(
                "chance", 0
            ):
                raise UsageError(
                    "the files come from different sweeps: "
                    + _difference(base, first[1], rec, where)
                )
            if rec["sweep"] is not None:
                if first_full is None:
                    first_full = (rec, where)
                full = first_full[0]
                if rec["sweep"] != full["sweep"]:
                    raise UsageError(
                        "the files come from different sweeps: "
                        + _difference(full, first_full[1], rec, where)
                    )
                if _shard_count(rec) != _shard_count(full):
                    a_name, b_name = _places(first_full[1], where)
                    raise UsageError(
                        "the files split the sweep in different ways: shard "
                        f"{full['shard']} in {a_name}, shard {rec['shard']} in {b_name}"
                    )
            key = (rec["b"], rec["d"], rec["trial"], rec["algorithm"])
            if key in seen:
                raise UsageError(
                    f"b={key[0]} d={key[1]} trial {key[2]} {key[3]} is in the "
                    "files twice: shards must not overlap"
                )
            seen.add(key)
            chance = rec.get("chance", 0)
            if rec["tree_seed"] != tree_seed(rec["seed"], rec["b"], rec["d"], rec["trial"], chance):
                raise UsageError(
                    f"b={key[0]} d={key[1]} trial {key[2]}: tree seed "
                    f"{rec['tree_seed']} does not follow from seed {rec['seed']}"
                )
            merged.append(rec)
    rank: dict[str, int] = {}
    if first_full is not None:
        rank = {name: i for i, name in enumerate(first_full[0]["sweep"]["algorithms"])}
    # within a cell the records come in the order of the sweep's algorithms (older records:
    # in the order of the files)
    merged.sort(key=lambda r: (r["b"], r["d"], r["trial"], rank.get(r["algorithm"], 0)))
    for cell in _cells_of(merged):
        check_agreement(cell)
    missing = missing_part(merged)
    if missing is None:
        return [rec | {"shard": "1/1"} for rec in merged]
    if partial:
        return merged
    if any(rec["sweep"] is None for rec in merged):
        raise UsageError(
            f"{missing}, so --merge cannot tell the whole sweep from a part: add --partial "
            "to summarise them as a part"
        )
    raise UsageError(
        f"the files hold part of the sweep: {missing}; merge every shard, "
        "or add --partial to summarise a part"
    )


def _shard_count(rec: dict[str, Any]) -> int:
    return (_parse_shard(rec["shard"]) or (1, 1))[1]


def missing_part(records: Sequence[dict[str, Any]]) -> str | None:
    """What the records of one sweep lack to be the whole sweep, in words (``shard 2/3 is
    missing``), or None when they are whole.  The records are those :func:`merge_records`
    checked (of one sweep, one split, no cell twice)."""
    if not records:
        return None
    if any(rec["sweep"] is None for rec in records):
        return (
            "records written by an older gtsearch do not say which sweep and shards they come from"
        )
    settings = records[0]["sweep"]
    count = _shard_count(records[0])
    algorithms = len(settings["algorithms"])
    cells = len(settings["b"]) * len(settings["d"]) * settings["trials"]
    if len(records) == cells * algorithms:
        return None
    have: dict[int, int] = {}
    for rec in records:
        shard = cell_index(settings, rec["b"], rec["d"], rec["trial"]) % count + 1
        have[shard] = have.get(shard, 0) + 1
    if count == 1:
        return f"{cells * algorithms - len(records):,} of its {cells * algorithms:,} records are missing"
    # the shards that have cells at all: 1 .. min(count, cells)
    top = min(count, cells)
    absent = top - sum(1 for i in have if i <= top)
    parts = []
    if absent:
        listed = list(itertools.islice((i for i in range(1, top + 1) if i not in have), 6))
        if absent == 1:
            parts.append(f"shard {listed[0]}/{count} is missing")
        elif absent > len(listed):
            shown = ", ".join(map(str, listed))
            parts.append(f"shards {shown} and {absent - len(listed):,} more of {count} are missing")
        else:
            shown = ", ".join(map(str, listed[:-1])) + f" and {listed[-1]}"
            parts.append(f"shards {shown} of {count} are missing")
    short = []
    for i, n in sorted(have.items()):
        whole = len(range(i - 1, cells, count)) * algorithms
        if n < whole:
            short.append(f"shard {i}/{count} lacks {whole - n:,} of its {whole:,} records")
    parts.extend(short[:3])
    if len(short) > 3:
        parts.append(f"{len(short) - 3:,} more shards lack records")
    return "; ".join(parts)


def csv_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as CSV writes them: ``sweep`` as its options (:func:`sweep_options`)."""
    return [
        rec | {"sweep": None if rec["sweep"] is None else sweep_options(rec["sweep"])}
        for rec in records
    ]


def _cells_of(records: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
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
    "record_keys",
    "full_tree",
    "growth",
    "merge_records",
    "minimal_tree",
    "missing_part",
    "record_problem",
    "sweep_options",
    "csv_records",
    "parse_range",
    "parse_shard",
    "pearl_r",
    "pearl_xi",
    "read_records",
    "records_jsonl",
    "iter_sweep",
    "run_cell",
    "run_sweep",
    "shard_cells",
    "summarize",
    "tree_seed",
    "ORDERS",
]
