"""Searches handed to the compiled core: the C version of a search when it can take the tree.

Each function runs one search of this package in C (gtsearch.core), fills the
Stats exactly as the Python version does (the evaluated leaves, in order, as
an ``array`` of node numbers; nodes; the extra figures) and returns what the
Python version returns; or returns None when the pure-Python core runs or the
tree is not held in flat arrays, and the Python version runs instead.  The C
code mirrors the Python code step for step; the Python code is the reference
and the tests compare the two.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core import native
from ..errors import OutOfTime
from ..numbers import INF, Exact, Number, exact
from ..tree import Tree, index_array
from .base import Outcome, Stats, count_rereadings

if TYPE_CHECKING:
    from .table import Table

_BOUNDS = {None: 0, "lower": 1, "upper": 2}


def takes(tree: Tree, chance: bool = False) -> Any:
    """The compiled core, when it runs and the tree is in flat arrays without chance nodes
    (with them too, for a search that takes them: ``chance``) or a ``random:`` source it
    computes on demand (``native_view``); else None."""
    core = native()
    if core is None:
        return None
    end, values = tree.end, tree.values
    if (
        type(end) is array
        and type(values) is array
        and end.typecode in ("i", "q")
        and values.typecode == "d"
        and 0 < len(end) == len(values)
        and (chance or tree.chance is None)  # the searches of chance nodes are Python's
    ):
        return core
    view = getattr(tree, "native_view", None)
    if view is not None and view() is not None:
        return core
    return None


def _call(tree: Tree, function: Any, *args: Any) -> Any:
    """``function(end, values, *args)`` of the compiled core on the tree's arrays, or on the
    spec of a random: source computed on demand (``end`` the spec, ``values`` None); the
    nodes the C cursor visited are the tree's, and passing --max-nodes is the tree's own
    error (NodeLimit)."""
    if type(tree.end) is array:
        return function(tree.end, tree.values, *args)
    view = tree.native_view()  # type: ignore[attr-defined]
    try:
        result = function(view, None, *args)
    except native().VisitLimit:  # type: ignore[union-attr]  # raised at the next tick
        raise tree.limit_error() from None  # type: ignore[attr-defined]
    finally:
        tree.native_done(view)  # type: ignore[attr-defined]
    visited, most = view[-1]
    if visited > most:  # passed in the search's last steps, after its last tick
        raise tree.limit_error()  # type: ignore[attr-defined]
    return result


def _record(stats: Stats, leaves: array[int]) -> int:
    """Add a search's evaluated leaves to ``stats``; how many were there before."""
    prior = len(stats.leaves)
    if prior:
        stats.leaves.extend(leaves)
    else:
        stats.leaves = leaves
    return prior


def _distinct(stats: Stats, leaves: array[int], distinct: int) -> int:
    """Record a search's leaves; the different ones among all of ``stats``'s: the core's count
    of its own, or counted again when leaves were recorded before."""
    return len(set(stats.leaves)) if _record(stats, leaves) else distinct


def negamax(
    tree: Tree, stats: Stats, alpha: float, beta: float, deep: bool, prune: bool
) -> tuple[float, list[int]] | None:
    """depthfirst._negamax in C."""
    core = takes(tree)
    if core is None:
        return None
    m, line, leaves, nodes = _call(
        tree, core.negamax, tree.root_max, alpha, beta, deep, prune, stats.progress
    )
    prior = _record(stats, leaves)
    stats.nodes += nodes + (prior if tree.end[0] != 1 else 0)
    return m, line


def negamax_on_demand(
    tree: Tree, stats: Stats, alpha: float, beta: float, deep: bool, prune: bool, hard: bool
) -> tuple[float, list[int]] | None:
    """depthfirst._negamax_on_demand in C, over the game's rules in the core (game_tree.c):
    the nodes numbered as the OnDemandTree numbers them, which then takes them
    (``numbered_in_c``); None when the pure core runs or the core has no rules of the game."""
    done = _on_demand(tree, "game_negamax", alpha, beta, deep, prune, hard, stats.progress)
    if done is None:
        return None
    m, line, leaves, nodes = done[:4]
    prior = _record(stats, leaves)
    stats.nodes += nodes + (prior if tree.end[0] != 1 else 0)
    return m, line


def _on_objects(tree: Tree, function: str, weighed: bool, *args: Any) -> Any:
    """``function(state, tag, chance_player, by_string, with_turns, root_max, max_nodes, prior,
    [weigh,] *args)`` of the compiled core calling OpenSpiel's states itself
    (search_objects.c), ``weigh`` (the game's chance_weights) given where ``weighed``: its
    result, whose last item (the nodes numbered) the tree takes; None when the Python search
    runs: the pure core, a game the core does not call itself (``objects_spec``), or whatever
    the Python search words as an error (it then meets it at the same place)."""
    core = native()
    spec = None if core is None else tree.objects_spec()  # type: ignore[attr-defined]
    if spec is None:
        return None
    state, tag, chance_player, by_string, weigh = spec
    try:
        done = getattr(core, function)(
            state,
            tag,
            chance_player,
            by_string,
            tree.chance is not None,
            tree.root_max,
            tree.max_nodes,  # type: ignore[attr-defined]
            tree.numbered(),  # type: ignore[attr-defined]
            *((weigh,) if weighed else ()),
            *args,
        )
    except core.VisitLimit:  # type: ignore[union-attr]  # more nodes listed than --max-nodes
        raise tree.limit_error() from None  # type: ignore[attr-defined]
    if done is not None:
        tree.numbered_in_c(*done[-1])  # type: ignore[attr-defined]
    return done


def negamax_on_objects(
    tree: Tree, stats: Stats, alpha: float, beta: float, deep: bool, prune: bool, hard: bool
) -> tuple[float, list[int]] | None:
    """depthfirst._negamax_on_demand (fail-soft) in C over OpenSpiel's states (:func:`_on_objects`:
    the nodes numbered as the OnDemandTree numbers them); None where the Python search runs
    (fail-hard too)."""
    if hard:
        return None
    done = _on_objects(tree, "objects_negamax", False, alpha, beta, deep, prune, stats.progress)
    if done is None:
        return None
    m, line, leaves, inner, _ = done
    _record(stats, leaves)
    stats.nodes += inner + len(stats.leaves)
    return m, line


def expectiminimax_on_objects(tree: Tree, stats: Stats) -> tuple[Any, list[int], int, int] | None:
    """chance.ListedRun.full from the root in C over OpenSpiel's states (:func:`_on_objects`),
    exact: the root's value (an int or a Fraction), the PV (ListedRun.line's), the inner
    nodes entered and the different leaves among the stats' (each leaf is read once); None
    when the Python search runs."""
    done = _on_objects(tree, "objects_expectiminimax", True, stats.progress)
    if done is None:
        return None
    num, den, line, leaves, entered, _ = done
    distinct = _distinct(stats, leaves, len(leaves))
    if den == 1:
        return num, line, entered, distinct
    from fractions import Fraction  # not at import: a small eval imports no fractions

    return Fraction(num, den), line, entered, distinct


def sss(tree: Tree, stats: Stats, h0: float, mirror: float) -> tuple[float, list[int]] | None:
    """sss._sss_core and sss._solution_line in C."""
    core = takes(tree)
    if core is None:
        return None
    h, line, leaves, generated, open_max = _call(
        tree, core.sss, tree.root_max, h0, mirror, stats.progress
    )
    _record(stats, leaves)
    stats.nodes += generated
    stats.extra["open_max"] = open_max
    return h, line


def _on_demand(tree: Tree, function: str, *args: Any, chance: bool = False) -> Any:
    """``function(name, params, words, root_max, limit, max_nodes, first, *args)`` of the
    compiled core over the game's C rules (game_tree.c), on a game searched on demand: its
    result, whose last three items (the nodes numbered) the tree takes; None when the pure
    core runs or the core has no rules of the game (of a game with chance nodes: unless
    ``chance``, for the searches that take them)."""
    core = native()
    rules = None if core is None else tree.native_game(chance)  # type: ignore[attr-defined]
    if rules is None:
        return None
    name, params, words = rules
    limit = tree.limit  # type: ignore[attr-defined]  # the --depth cut
    if getattr(tree, "deadline", None) is not None:  # play --time: the progress, and the time
        args = (*args[:-1], (args[-1], tree.seconds_left()))  # type: ignore[attr-defined]
    try:
        done = getattr(core, function)(
            name,
            params,
            words,
            tree.root_max,
            -1 if limit is None else limit,
            tree.max_nodes,  # type: ignore[attr-defined]
            tree.first,  # type: ignore[attr-defined]
            *args,
        )
    except core.VisitLimit:  # type: ignore[union-attr]  # more nodes listed than --max-nodes
        raise tree.limit_error() from None  # type: ignore[attr-defined]
    except TimeoutError:  # the time ran out: what the search did is dropped
        raise OutOfTime from None
    if done is not None:  # None: rules that do not hold the game's parameters
        # a game with chance nodes: the new nodes' turns too (Tree.is_max's)
        turns = (done[-4],) if chance else ()
        tree.numbered_in_c(*done[-3:], *turns)  # type: ignore[attr-defined]
    return done


def sss_on_demand(
    tree: Tree, stats: Stats, h0: float, mirror: float
) -> tuple[float, list[int]] | None:
    """sss._met_sss_core and sss._met_solution_line in C, over the game's rules in the core
    (search_sss_ondemand.c): the nodes numbered as the OnDemandTree numbers them, which then
    takes them (``numbered_in_c``); None when the pure core runs, the core has no rules of the
    game, or ``stats`` holds leaves already (the line is proved from the search's own)."""
    if stats.leaves:
        return None
    args = (tree.up, tree.depths, h0, mirror, stats.progress)  # type: ignore[attr-defined]
    done = _on_demand(tree, "game_sss", *args)
    if done is None:
        return None
    h, line, leaves, generated, open_max = done[:5]
    _record(stats, leaves)
    stats.nodes += generated
    stats.extra["open_max"] = open_max
    return h, line


#: the chance searches in C (search_chance_ondemand.c), by name
_CHANCE = {"expectiminimax": 0, "star1": 1, "star2": 2}
#: the C core's exact rationals: a numerator or a denominator of 2**CHANCE_BITS or more is
#: out of their range, and the Python search runs instead (62 where the compiler has no
#: 128-bit integers)
CHANCE_BITS = 126
#: the range of a leaf bound's numerator and denominator handed to the C core
_INT64 = range(-(2**63), 2**63)


def chance_on_demand(
    tree: Tree, stats: Stats, which: str, bounds: tuple[Exact, Exact], buckets: int = 0
) -> tuple[Exact, list[int], int, int, tuple[int, ...], array[int]] | None:
    """chance.ListedRun's expectiminimax, star1 or star2 (``which``) with the leaf bounds
    ``bounds`` on a game searched on demand, in C over the game's rules
    (search_chance_ondemand.c) in exact rationals, with a table of ``buckets`` (0: none): the
    exact value, the PV, the inner nodes entered, the probes, the table's counts and the
    positions it numbered; the leaves read to ``stats``.  None when the pure core runs, the
    core has no rules of the game, or a value (a bound, a leaf, a sum, a window) is out of the
    C rationals' range (:data:`CHANCE_BITS`): nothing is numbered then, and the Python search
    runs."""
    from fractions import Fraction  # not at import: a small eval imports no fractions

    ends = [Fraction(b) for b in bounds]
    if any(q.numerator not in _INT64 or q.denominator not in _INT64 for q in ends):
        return None
    lo, hi = ends
    args = (_CHANCE[which], lo.numerator, lo.denominator, hi.numerator, hi.denominator)
    tags = tree.chance_tags() if buckets else 0  # type: ignore[attr-defined]
    done = _on_demand(
        tree, "game_chance", *args, CHANCE_BITS, tags, buckets, stats.progress, chance=True
    )
    if done is None:
        return None
    numerator, denominator, line, leaves, entered, probes, counts, positions = done[:8]
    _record(stats, leaves)
    return exact(Fraction(numerator, denominator)), line, entered, probes, counts, positions


def _scout(tree: Tree, stats: Stats, which: str) -> Outcome | None:
    if tree.on_demand:  # a game searched on demand, in C
        # the PV too, from the leaves read (pv.py's walk), when they are all the Stats' leaves
        done = _on_demand(tree, f"game_{which}", not stats.leaves, stats.progress)
        if done is None:
            return None
        value, line, leaves, nodes, distinct = done[:5]
        stats.nodes += nodes
        count_rereadings(stats, _distinct(stats, leaves, distinct))
        return Outcome(value, pv=line)
    core = takes(tree)
    if core is None:
        return None
    value, leaves, nodes, distinct = _call(
        tree, getattr(core, which), tree.root_max, stats.progress
    )
    stats.nodes += nodes
    count_rereadings(stats, _distinct(stats, leaves, distinct))
    return Outcome(value)


def negascout(tree: Tree, stats: Stats) -> Outcome | None:
    """scout.negascout in C."""
    return _scout(tree, stats, "negascout")


def scout(tree: Tree, stats: Stats) -> Outcome | None:
    """scout.scout in C."""
    return _scout(tree, stats, "scout")


def mtd_on_demand(tree: Tree, stats: Stats, first: float) -> tuple[float, list[int] | None] | None:
    """mt.mtd with MT's own table on a game searched on demand, in C over the game's rules
    (game_tree.c): the value and the PV from the leaves read (None when leaves read before
    are in ``stats``: the Python walk then finds it); None when the Python search runs."""
    done = _on_demand(tree, "game_mtd", first, not stats.leaves, stats.progress)
    if done is None:
        return None
    lower, line, leaves, nodes, passes = done[:5]
    _record(stats, leaves)
    stats.nodes = nodes
    stats.extra["passes"] = passes
    return lower, line


def mtd(tree: Tree, stats: Stats, first: float) -> float | None:
    """mt.mtd in C."""
    core = takes(tree)
    if core is None:
        return None
    lower, leaves, table_size, passes = _call(tree, core.mtd, tree.root_max, first, stats.progress)
    _record(stats, leaves)
    stats.nodes = table_size
    stats.extra["passes"] = passes
    return float(lower)


#: the searches of gt_tabled
_TABLED = {"alphabeta": 0, "negascout": 1, "mtd": 2}


class Tabled(NamedTuple):
    """What a search with a table found in C (tabled.py's figures of the same search)."""

    value: float
    line: list[int] | None
    #: the different leaves among those the search added to its Stats
    distinct: int
    entered: int
    expanded: int
    #: the MT family's: the positions its passes proved, and the passes
    positions: int
    passes: int


def tabled(
    tree: Tree,
    stats: Stats,
    table: Table,
    kind: str,
    x: float = -INF,
    y: float = INF,
    line: bool = True,
) -> Tabled | None:
    """tabled.py's alphabeta (window (x, y)), negascout or the MT family's MTD(x) in C, with
    ``table``'s size; the line when ``line``; the table's counters to ``table``."""
    core = takes(tree)
    if core is None:
        return None
    value, pv, leaves, distinct, *figures, counts = _call(
        tree,
        core.tabled,
        tree.root_max,
        tree.position_keys(),
        table.buckets,
        _TABLED[kind],
        x,
        y,
        line,
        stats.progress,
    )
    distinct = _distinct(stats, leaves, distinct)
    table.take(counts)
    return Tabled(value, pv, distinct, *figures)


def fresh(tree: Tree) -> bool:
    """Whether a search with a table in C may number the positions of a game on demand as
    Python would: only the root's entry met so far (Python numbers the entries met before
    first), and no deadline of play --time's on the tree (the Python search keeps it)."""
    return len(tree.info) == 1 and tree.deadline is None  # type: ignore[attr-defined]


def tabled_on_demand(
    tree: Tree,
    stats: Stats,
    table: Table,
    pv_table: Table,
    kind: str,
    x: float = -INF,
    y: float = INF,
) -> Tabled | None:
    """tabled.py's alphabeta (window (x, y)), negascout or the MT family's MTD(x) on a game
    searched on demand, in C over the game's rules (search_tabled_ondemand.c), with ``table``'s
    size, and its line (its uncounted searches with tables of ``pv_table``'s size); the table's
    counters to ``table``, the nodes and positions numbered to the tree (``numbered_positions``).
    None when the Python search runs: the pure core, no C rules of the game, or entries met
    before on this tree that Python would number first."""
    if not fresh(tree):
        return None
    general = tree.general  # type: ignore[attr-defined]
    args = (general, table.buckets, pv_table.buckets, _TABLED[kind], x, y, stats.progress)
    done = _on_demand(tree, "game_tabled", *args)
    if done is None:
        return None
    value, line, leaves, distinct, *figures, counts, positions = done[:10]
    tree.numbered_positions(positions)  # type: ignore[attr-defined]
    distinct = _distinct(stats, leaves, distinct)
    table.take(counts)
    return Tabled(value, line, distinct, *figures)


def tabled_iterate_on_demand(
    tree: Tree,
    table: Table,
    pv_table: Table,
    last: int | None,
    seconds: float | None = None,
    solve: bool = False,
) -> tuple[list[Iteration], int, bool] | None:
    """iterative.iterate's (``solve``: solve.solve's) iterations on a game searched on demand,
    in C over the game's rules (search_tabled_ondemand.c): each iteration, the distinct
    positions entered (solve's), and whether --max-nodes ended the iterations after the first;
    the nodes and positions numbered to the tree.  None when the Python search runs (as
    :func:`tabled_on_demand`, or the game has no estimate in C)."""
    if not fresh(tree):
        return None
    done = _on_demand(
        tree,
        "game_tabled_iterate",
        tree.general,  # type: ignore[attr-defined]
        table.buckets,
        pv_table.buckets,
        solve,
        -1 if last is None else last,
        -1.0 if seconds is None else seconds,
        None,
    )
    if done is None:
        return None
    found, seen, stopped, positions = done[:4]
    tree.numbered_positions(positions)  # type: ignore[attr-defined]
    return [Iteration._make(it) for it in found], seen, stopped


class Iteration(NamedTuple):
    """One iteration of a deepening search with a table in C, and the table's counts after it."""

    value: float
    #: the iteration's line, nodes from the root
    line: list[int]
    leaves: int
    entered: int
    expanded: int
    exhausted: int
    depth: int
    counts: tuple[int, ...]
    seconds: float


def tabled_iterate(
    tree: Tree, table: Table, last: int, seconds: float | None = None, solve: bool = False
) -> tuple[list[Iteration], int, int] | None:
    """iterative.iterate's (``solve``: solve.solve's) iterations in C: each iteration, the
    distinct positions entered (solve's), and a node at a horizon without a static value where
    the iterations stopped (-1: none)."""
    core = takes(tree)
    if core is None:
        return None
    found, positions, bad = _call(
        tree,
        core.tabled_iterate,
        tree.root_max,
        tree.position_keys(),
        table.buckets,
        solve,
        last,
        -1.0 if seconds is None else seconds,
        None,
    )
    return [Iteration._make((*it, took)) for it, took in found], positions, bad


def principal_variation(tree: Tree, evaluated: Sequence[int], outcome: Outcome) -> list[int] | None:
    """pv.principal_variation's walk over the evaluated leaves, in C.

    None also when the leaves do not prove the value: the Python version then says so.
    """
    core = takes(tree)
    if core is None:
        return None
    if not isinstance(evaluated, array):
        evaluated = array(index_array(len(tree.end)).typecode, evaluated)
    line: list[int] | None = _call(
        tree,
        core.principal_variation,
        tree.root_max,
        evaluated,
        outcome.value,
        _BOUNDS[outcome.bound],
    )
    return line


def mcts(
    tree: Tree,
    stats: Stats,
    leaf_bounds: tuple[Number, Number],
    iterations: int | None,
    seconds: float | None,
    seed: int,
    exploration: float,
    playout_depth: int | None,
    *,
    weights: Mapping[int, Sequence[float]],
) -> tuple[Any, ...] | None:
    """mcts.iterate in C: (nodes, visits, reward sums, square sums) of the search tree, then
    iterations, playouts, node visits, the node a playout cut without a static value (-1), the
    distinct leaves, the PV by visits (principal_line's) and its nodes' rows in the arrays.
    On a tree in flat arrays (or a random: source), or on a game searched on demand whose
    rules are in C (:func:`_on_rules`)."""
    lo, hi = float(leaf_bounds[0]), float(leaf_bounds[1])
    limits = (
        lo,
        hi - lo,
        -1 if iterations is None else iterations,
        -1.0 if seconds is None else seconds,
        seed & 0xFFFF_FFFF_FFFF_FFFF,
        exploration,
        -1 if playout_depth is None else playout_depth,
        stats.progress,
    )
    core = takes(tree, chance=True)
    if core is None:
        result = _on_rules(tree, limits)
        if result is None:
            return None
    else:
        wnodes, woff, wval = array("q"), array("q", [0]), array("d")
        for n in sorted(weights):
            wnodes.append(n)
            wval.extend(weights[n])
            woff.append(len(wval))
        args = (tree.root_max, tree.chance, wnodes, woff, wval, *limits)
        result = _call(tree, core.mcts, *args)
    nodes, visits, sums, squares, leaves, *counts, line, rows = result
    _record(stats, leaves)
    return (nodes, visits, sums, squares, *counts, line, rows)


def _on_rules(tree: Tree, limits: tuple[Any, ...]) -> Any:
    """mcts on a game searched on demand whose rules are in C (``tree.c_rules()``), run in C
    over them with ``limits`` (gt_mcts's from lo on): its nodes numbered as the OnDemandTree
    numbers them, which then takes them (``tree.adopt``); gt_mcts's result, or None (the
    pure core, no C rules for this game or this tree, or rules that cannot hold its size)."""
    core = native()
    rules = getattr(tree, "c_rules", None)
    found = None if core is None or rules is None else rules()
    if core is None or found is None:
        return None
    cut = getattr(tree, "limit", None)
    try:
        done = core.mcts_game(
            *found,
            tree.root_max,
            -1 if cut is None else cut,
            tree.max_nodes,  # type: ignore[attr-defined]
            *limits,
            tree.chance is not None,  # the game's chance nodes drawn in C
        )
    except core.VisitLimit:
        raise tree.limit_error() from None  # type: ignore[attr-defined]
    if done is None:
        return None
    result, arena = done
    tree.adopt(*arena)  # type: ignore[attr-defined]
    return result
