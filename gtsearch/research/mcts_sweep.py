"""MCTS measured against minimax: ``experiment -a mcts`` over seeded random trees.

For every cell (b, d, trial) the tree is the ``random:`` source seeded as
the leaf sweeps seed it (:func:`.experiment.tree_seed`); the minimax value
of each of the root's moves comes from the leaves by a reduction of their
b**d array (numpy, level by level: independent of the search algorithms),
alpha-beta searches it once, and mcts (UCT, docs/algorithms.md) once per
iteration count, seeded with the tree's seed.  A record says whether mcts's
final move is minimax-optimal (its minimax value equals the root's), the
error of its value estimate against the root's minimax value (in leaf
values, MAX's terms), and, on the ``trap`` model, whether the move is a
planted trap (Ramanujan, Sabharwal & Selman 2010; docs/sources.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..algorithms import find_algorithm, plan, run
from ..errors import UsageError
from ..sources import traps
from ..sources.randomtree import LazyTree, RandomSpec, materialize
from ..sources.splitmix import root_key
from ..sources.uniform import check_params
from ..tree import DEFAULT_MAX_NODES, Tree
from .experiment import Grid, cell_record, tree_seed

#: the per-(trial, iterations) record, key by key (JSON lines and CSV columns)
MCTS_RECORD_KEYS = (
    "b",
    "d",
    "trial",
    "seed",
    "tree_seed",
    "model",
    "lo",
    "hi",
    "p",
    "k",
    "source",
    "iterations",
    "minimax",
    "move",
    "optimal",
    "trap",
    "value",
    "error",
    "leaves",
    "alphabeta_move",
    "alphabeta_trap",
    "alphabeta_leaves",
)

#: one summary row per (b, d, iterations)
MCTS_SUMMARY_KEYS = (
    "b",
    "d",
    "iterations",
    "trials",
    "optimal",
    "trap",
    "alphabeta_trap",
    "mean_error",
    "max_error",
    "mean_leaves",
    "alphabeta_leaves",
)


@dataclass(frozen=True)
class MctsSweep(Grid):
    """The grid, its trees and mcts's iteration counts (and UCB1's constant, default sqrt 2)."""

    iterations: tuple[int, ...] = ()
    exploration: float | None = None

    def spec(self, b: int, d: int, seed: int) -> RandomSpec:
        """The source of one cell's tree (checked)."""
        return RandomSpec(
            b, d, seed=seed, model=self.model, lo=self.lo, hi=self.hi, p=self.p, k=self.k
        )

    def check(self, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        """Refuse a sweep that cannot run, before any tree is built."""
        if self.trials < 1:
            raise UsageError(f"--trials must be 1 or more, got {self.trials}")
        if not self.iterations or min(self.iterations) < 1:
            raise UsageError("experiment -a mcts needs --iterations N[,N...], each 1 or more")
        for b in self.branchings:
            for d in self.depths:
                check_params(b, d, self.lo, self.hi, "random")
                if d < 1:
                    raise UsageError("experiment -a mcts needs trees of depth 1 or more: a move")
                size = len(LazyTree(self.spec(b, d, 0)).end)
                if size > max_nodes:
                    raise UsageError(
                        f"experiment -a mcts builds every tree whole: b={b} d={d} has "
                        f"{size:,} nodes, more than --max-nodes {max_nodes:,}"
                    )
        plan(["mcts"], iterations=max(self.iterations), exploration=self.exploration)


def move_values(tree: Tree, b: int, d: int) -> list[float]:
    """The minimax value of each of the root's b moves (MAX at the root) of a uniform tree,
    from its leaves alone: the b**d leaf values reduced level by level."""
    import numpy as np

    values = np.asarray(tree.values, dtype=np.float64)
    leaves = values[~np.isnan(values)].reshape((b,) * d)
    # the deepest level first: its mover is MAX when d - 1 is even
    for level in range(d - 1, 0, -1):
        leaves = leaves.max(axis=-1) if level % 2 == 0 else leaves.min(axis=-1)
    return [float(v) for v in leaves]


def run_mcts_cell(
    sweep: MctsSweep, b: int, d: int, trial: int, max_nodes: int = DEFAULT_MAX_NODES
) -> list[dict[str, Any]]:
    """One tree: alpha-beta once, mcts once per iteration count; one record per count."""
    seed = tree_seed(sweep.seed, b, d, trial)
    spec = sweep.spec(b, d, seed)
    tree = materialize(LazyTree(spec), max_nodes)
    values = move_values(tree, b, d)
    best = max(values)
    planted = (
        [
            traps.is_trap(
                traps.child_state(traps.ROOT, root_key(seed), 0, i, b, d, sweep.p, sweep.k)
            )
            for i in range(b)
        ]
        if sweep.model == "trap"
        else None
    )
    ab = run(tree, find_algorithm("alphabeta"), {})
    ab_move = ab.pv[0]  # a PV is child indices from the root
    records = []
    for n in sweep.iterations:
        ((algo, params),) = plan(["mcts"], iterations=n, seed=seed, exploration=sweep.exploration)
        r = run(tree, algo, params)
        move = r.pv[0]
        value = float(r.value)
        records.append(
            {
                **cell_record(sweep, b, d, trial, seed),
                "model": sweep.model,
                "lo": sweep.lo,
                "hi": sweep.hi,
                "p": sweep.p if sweep.model in ("binary", "trap") else None,
                "k": sweep.k if sweep.model == "trap" else None,
                "source": spec.text(),
                "iterations": n,
                "minimax": best,
                "move": move,
                "optimal": values[move] == best,
                "trap": None if planted is None else planted[move],
                "value": value,
                "error": abs(value - best),
                "leaves": r.leaves,
                "alphabeta_move": ab_move,
                "alphabeta_trap": None if planted is None else planted[ab_move],
                "alphabeta_leaves": ab.leaves,
            }
        )
    return records


def run_mcts_job(job: tuple[MctsSweep, int, int, int, int]) -> list[dict[str, Any]]:
    """One cell as a job for a process pool: (sweep, b, d, trial, max_nodes)."""
    sweep, b, d, t, max_nodes = job
    return run_mcts_cell(sweep, b, d, t, max_nodes)


def iter_mcts_sweep(
    sweep: MctsSweep, jobs: int = 1, max_nodes: int = DEFAULT_MAX_NODES
) -> Iterator[list[dict[str, Any]]]:
    """The records of every cell, cell by cell, in cell order, whatever ``jobs`` is."""
    import os

    sweep.check(max_nodes)
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (every core) or more, got {jobs}")
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    cells = [(sweep, b, d, t, max_nodes) for b, d, t in sweep.cells()]
    if workers <= 1 or len(cells) <= 1:
        yield from map(run_mcts_job, cells)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(cells)), mp_context=context) as pool:
        yield from pool.map(run_mcts_job, cells)


def run_mcts_sweep(
    sweep: MctsSweep, jobs: int = 1, max_nodes: int = DEFAULT_MAX_NODES
) -> list[dict[str, Any]]:
    """Every record of the sweep, in cell order, then by iterations."""
    return [rec for cell in iter_mcts_sweep(sweep, jobs, max_nodes) for rec in cell]


def summarize_mcts(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (b, d, iterations): the share of trees where mcts's move is minimax-optimal (and,
    on the trap model, a planted trap; alpha-beta's beside it), the mean and greatest error
    of its value, its mean leaf evaluations and alpha-beta's."""
    groups: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for rec in records:
        groups.setdefault((rec["b"], rec["d"], rec["iterations"]), []).append(rec)
    rows = []
    for (b, d, n), group in sorted(groups.items()):
        count = len(group)
        traps_ = [r["trap"] for r in group if r["trap"] is not None]
        ab_traps = [r["alphabeta_trap"] for r in group if r["alphabeta_trap"] is not None]
        rows.append(
            {
                "b": b,
                "d": d,
                "iterations": n,
                "trials": count,
                "optimal": sum(bool(r["optimal"]) for r in group) / count,
                "trap": sum(traps_) / len(traps_) if traps_ else None,
                "alphabeta_trap": sum(ab_traps) / len(ab_traps) if ab_traps else None,
                "mean_error": math.fsum(r["error"] for r in group) / count,
                "max_error": max(r["error"] for r in group),
                "mean_leaves": math.fsum(r["leaves"] for r in group) / count,
                "alphabeta_leaves": math.fsum(r["alphabeta_leaves"] for r in group) / count,
            }
        )
    return rows


__all__ = [
    "MCTS_RECORD_KEYS",
    "MCTS_SUMMARY_KEYS",
    "MctsSweep",
    "move_values",
    "run_mcts_cell",
    "run_mcts_sweep",
    "iter_mcts_sweep",
    "summarize_mcts",
]
