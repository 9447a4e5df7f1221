"""search() runs one registered algorithm on a tree; run() the same with the parameters checked."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..numbers import Number
from ..result import SearchResult
from ..tree import Tree
from .base import Stats
from .params import Params, SearchParams, check, leaf_bounds, mcts_defaults, refuse_chance
from .pv import principal_variation
from .registry import DEFAULT_TABLE_ALGORITHMS, Algorithm

if TYPE_CHECKING:
    from typing_extensions import Unpack


def search(
    tree: Tree,
    algorithm: str | Algorithm = "alphabeta",
    *,
    leaf_order: bool = False,
    stats: Stats | None = None,
    **params: Unpack[SearchParams],
) -> SearchResult:
    """Run one algorithm on ``tree`` and return its SearchResult (values in MAX's terms).

    ``params`` are the numbers the algorithm takes (:class:`~.params.SearchParams`):
    ``bound`` is f1's bound, SSS-bounded's V, DUAL-bounded's L or MTD(f)'s
    first guess; ``alpha`` and ``beta`` are alphabeta's window;
    ``leaf_bounds`` (L, U) bound every leaf for star1 and star2 (default: the
    tree's least and greatest leaf; checked by
    :func:`gtsearch.algorithms.params.check`).  An algorithm that cannot
    search chance nodes refuses a tree that has some (a UsageError).
    ``leaf_order`` keeps the evaluated leaves; ``stats`` receives the
    counters as the search runs (a progress display reads them).
    """
    algo, checked = check(algorithm, **params)
    return run(tree, algo, checked, leaf_order=leaf_order, stats=stats)


def run(
    tree: Tree,
    algo: Algorithm,
    params: Params,
    *,
    leaf_order: bool = False,
    stats: Stats | None = None,
) -> SearchResult:
    """:func:`search` with the algorithm and its parameters as :func:`~.params.plan` checked them.

    For callers that run one plan on many trees (``experiment``): the check is done once.
    """
    refusal = refuse_chance(algo, tree)
    shown: dict[str, Any] = dict(params)
    if algo.name in DEFAULT_TABLE_ALGORITHMS and params.get("tt") is None:
        from .chance_tabled import default_table  # a game's: docs/algorithms.md

        mib = default_table(tree)
        if mib is not None:
            params = cast(Params, {**params, "tt": mib})
            shown = {**shown, "tt": mib, "tt_from": "game"}
    if algo.takes in ("leaf_bounds", "mcts"):
        bounds, origin = leaf_bounds_of(tree, params)
        params = cast(Params, {**params, "leaf_bounds": bounds})
        # star1's and star2's (mcts's: mcts_defaults below)
        shown = {"leaf_bounds": bounds, "leaf_bounds_from": origin, **shown_tt(shown)}
    if algo.takes == "mcts":
        params, shown = mcts_defaults(params, origin)
    if stats is None:
        stats = Stats()
    t0 = time.perf_counter()
    tt = params.get("tt")
    params = cast(Params, {k: v for k, v in params.items() if k != "tt"})
    with tree.searched(refusal):
        if tt:  # a transposition table: the searches of .tabled, in Python (docs/algorithms.md)
            from .tabled import run as run_with_table

            outcome = run_with_table(tree, stats, algo.name, tt, dict(params))
        else:  # --tt 0 or none
            outcome = algo.run(tree, stats, **params)
        pv = principal_variation(tree, stats.leaves, outcome)
    seconds = time.perf_counter() - t0
    return SearchResult(
        algorithm=algo.name,
        value=outcome.number(tree, pv, params),
        exact=outcome.bound is None,
        bound=outcome.bound,
        pv=tuple(tree.path_of(pv[-1])) if pv else (),
        pv_labels=tree.line_labels(pv),
        leaves=len(stats.leaves),
        leaves_total=tree.n_leaves,
        seconds=seconds,
        nodes=stats.nodes,
        leaf_order=_leaf_paths(tree, stats.leaves) if leaf_order else None,
        params=shown,
        extra=stats.extra,
        tree=tree,
    )


def shown_tt(params: Mapping[str, Any]) -> dict[str, Any]:
    """The table's size among the parameters shown, when a search has one (and ``tt_from``:
    "game" when star1 or star2 took it by default on a game)."""
    if not params.get("tt"):
        return {}
    return {k: params[k] for k in ("tt", "tt_from") if k in params}


def leaf_bounds_of(tree: Tree, params: Params) -> tuple[tuple[Number, Number], str]:
    """Star1's and Star2's (L, U) for this tree, from the parameters or from its leaves."""
    given = params.get("leaf_bounds")
    return leaf_bounds(tree, given if isinstance(given, tuple) else None)


def _leaf_paths(tree: Tree, leaves: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    paths = tree.paths_of(leaves)
    return tuple(paths[int(n)] for n in leaves)
