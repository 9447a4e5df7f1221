"""Algorithm names and parameters, read and checked in one place for every command and for search().

The command line, search(), the step-by-step traces, compare and experiment
all go through :func:`plan` (several algorithms, as ``--algo`` names them) or
:func:`check` (one algorithm): the same rules and the same messages
everywhere.  A parameter is a number the user gives (``--bound``, ``--alpha``,
``--beta``, the two of ``--leaf-bounds L:U``); it obeys the rule leaves obey
(finite, integers within ±2**53).  Here too: which algorithms a tree with
chance nodes allows (:func:`refuse_chance`), and the leaf bounds of Star1 and
Star2 (:func:`leaf_bounds`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict, cast

from ..errors import UsageError, clipped
from ..numbers import MAX_COUNT, MAX_COUNT_TEXT, MAX_EXACT_INT, Number, format_number, too_large
from ..tree import Tree
from .registry import (
    ALGORITHMS,
    CHANCE_NAMES,
    DEFAULT_TABLE_ALGORITHMS,
    TABLE_ALGORITHMS,
    Algorithm,
    find_algorithm,
)
from .table import check_table_size

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: a parameter's value: a number, or the pair of --leaf-bounds
Param = Number | tuple[Number, Number]


class SearchParams(TypedDict, total=False):
    """The numbers a search takes, declared once: the keyword arguments of :func:`gtsearch.search`,
    :func:`~.steps.trace`, :func:`gtsearch.render.view.build_view`, :func:`plan`, :func:`check`
    and :func:`check_one`, and what :func:`plan` hands each algorithm (only those it takes).

    ``bound`` is f1's bound, sss-bounded's V, dual-bounded's L or mtdf's first
    guess; ``alpha`` and ``beta`` are alphabeta's window, and ``variant`` its
    form (:data:`VARIANTS`: ``"fail-soft"``, the default, or ``"fail-hard"``,
    Knuth & Moore's F2 as printed); ``leaf_bounds`` (L, U) bound every leaf for
    star1, star2 and mcts (default: the tree's least and greatest leaf).
    ``iterations``, ``seconds`` (--time), ``seed``, ``exploration`` (UCB1's C) and
    ``playout_depth`` are mcts's (:data:`MCTS`); ``tt`` the size in MiB of a
    transposition table (:data:`~.registry.TABLE_ALGORITHMS`; 0: none; None: none, but for
    star1 and star2 on a game, which then take the table :func:`.chance_tabled.default_table`
    sizes, docs/algorithms.md);
    ``history`` and ``killers`` order alphabeta's moves with the table
    (:mod:`.ordering`).  None, or leaving one out, means "not given".
    """

    bound: Number | None
    alpha: Number | None
    beta: Number | None
    variant: str | None
    leaf_bounds: tuple[Number, Number] | None
    iterations: int | None
    seconds: float | None
    seed: int | None
    exploration: float | None
    playout_depth: int | None
    tt: int | None
    history: bool | None
    killers: bool | None


#: the parameters of a planned search, checked, as search() takes them
Params = SearchParams
#: alphabeta's forms (docs/algorithms.md, "Alpha-beta"): m starts from -inf (fail-soft) or from
#: alpha (fail-hard: Knuth & Moore's F2 as printed); the same leaves, other values off the window
VARIANTS = ("fail-soft", "fail-hard")
#: the names :class:`SearchParams` declares (a keyword argument outside them is a TypeError)
PARAM_NAMES = tuple(SearchParams.__annotations__)


class Parameter(NamedTuple):
    """A number an algorithm takes, as ``gtsearch algorithms --format json`` describes it."""

    name: str  # search()'s keyword argument
    option: str  # the command line's option
    meaning: str
    #: what applies without it: a number, "+inf" or "-inf"; None when it is required
    default: Number | str | None

    @property
    def required(self) -> bool:
        return self.default is None


#: what --bound is to each algorithm that takes one, and what applies without it (docs/algorithms.md)
BOUND_USES: dict[str, tuple[str, Number | str | None]] = {
    "f1": ("F1's bound: exact when the value is below it (above it with MIN at the root)", "+inf"),
    "sss-bounded": ("the merit of the first state: exact when the value is below it", None),
    "dual-bounded": ("the merit of the first state: exact when the value is above it", None),
    "mtdf": ("the first guess", 0),
}
LEAF_BOUNDS = Parameter(
    "leaf_bounds",
    "--leaf-bounds",
    "the bounds L:U on every leaf that Star1's and Star2's windows use",
    "the least and greatest leaf",
)
WINDOW = (
    Parameter("alpha", "--alpha", "the lower end of the root window", "-inf"),
    Parameter("beta", "--beta", "the upper end of the root window", "+inf"),
    Parameter(
        "variant",
        "--variant",
        "fail-soft (m from -inf) or fail-hard (Knuth & Moore's F2 as printed: m from alpha)",
        "fail-soft",
    ),
)


#: mcts's numbers (docs/algorithms.md, "Monte Carlo Tree Search"), the leaf bounds first
MCTS = (
    Parameter(
        "leaf_bounds",
        "--leaf-bounds",
        "the range L:U that scales values to rewards in [0, 1]",
        "the least and greatest leaf",
    ),
    Parameter("iterations", "--iterations", "the iterations to run", "1000, or none with --time"),
    Parameter("seconds", "--time", "stop after this many seconds", "+inf"),
    Parameter("seed", "--seed", "the seed of its SplitMix64 numbers", 0),
    Parameter("exploration", "--exploration", "UCB1's constant C", "sqrt(2)"),
    Parameter(
        "playout_depth",
        "--playout-depth",
        "moves after which a playout takes the static value it reached",
        "+inf",
    ),
)
#: mcts's iterations when neither --iterations nor --time says (docs/algorithms.md)
DEFAULT_ITERATIONS = 1000
#: the options of mcts alone, as messages name them
MCTS_OPTIONS = {p.name: p.option for p in MCTS[1:]}


def parameters(name: str) -> tuple[Parameter, ...]:
    """The numbers the algorithm called ``name`` takes (what :func:`plan` lets through)."""
    algo = find_algorithm(name)
    if algo.takes == "window":
        return WINDOW
    if algo.takes == "bound":
        meaning, default = BOUND_USES[algo.name]
        return (Parameter("bound", "--bound", meaning, default),)
    if algo.takes == "leaf_bounds":
        return (LEAF_BOUNDS,)
    if algo.takes == "mcts":
        return MCTS
    return ()


def check_value(option: str, v: Number) -> None:
    """Refuse a parameter that a leaf could not have: not finite, or an integer beyond ±2**53."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise UsageError(f"{option} must be a number, got {v!r}")
    if isinstance(v, int):
        if not -MAX_EXACT_INT <= v <= MAX_EXACT_INT:
            text = str(v) if v.bit_length() < 14_000 else f"<an integer of {v.bit_length():,} bits>"
            raise UsageError(too_large(text, option))
    elif not math.isfinite(v):
        raise UsageError(f"{option} {v!r} is not a finite number")


def check_leaf_bounds(bounds: object) -> tuple[Number, Number]:
    """Leaf bounds (L, U) as given to search(): two numbers under the leaves' rule, L <= U."""
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise UsageError(f"--leaf-bounds must be two numbers L, U, got {bounds!r}")
    lo, hi = bounds
    check_value("--leaf-bounds", lo)
    check_value("--leaf-bounds", hi)
    if not lo <= hi:
        raise UsageError(f"--leaf-bounds needs L <= U, got {format_number(lo)}:{format_number(hi)}")
    return lo, hi


def check_mcts(given: SearchParams) -> None:
    """Refuse mcts's numbers out of their ranges (one line each)."""
    for key in ("iterations", "playout_depth"):
        v = given.get(key)
        least = 1 if key == "iterations" else 0
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < least):
            raise UsageError(f"{MCTS_OPTIONS[key]} must be an integer >= {least}, got {v!r}")
        if v is not None and v > MAX_COUNT:  # what the compiled core's 64-bit counts hold
            raise UsageError(
                f"{MCTS_OPTIONS[key]} must be at most {MAX_COUNT_TEXT}, the greatest count, got "
                f"{clipped(str(v)) if v.bit_length() < 14_000 else 'a larger integer'}"
            )
    seed = given.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise UsageError(f"--seed must be an integer, got {seed!r}")
    for key in ("seconds", "exploration"):
        v = given.get(key)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise UsageError(f"{MCTS_OPTIONS[key]} must be a finite number, got {v!r}")
        if v < 0 or (key == "seconds" and v == 0):
            sign = "> 0" if key == "seconds" else ">= 0"
            raise UsageError(f"{MCTS_OPTIONS[key]} must be {sign}, got {format_number(v)}")


#: the order plan() hands the numbers out in (and refuses them in)
HANDED_OUT = (
    "leaf_bounds",
    "bound",
    "alpha",
    "beta",
    "variant",
    *MCTS_OPTIONS,
    "tt",
    "history",
    "killers",
)
#: the algorithms that take a number: those whose registry entry ``takes`` one of these (the
#: table's size: those of TABLE_ALGORITHMS, whatever they take)
TAKEN_BY: dict[str, tuple[str, ...]] = {
    "leaf_bounds": ("leaf_bounds", "mcts"),
    "bound": ("bound",),
    "alpha": ("window",),
    "beta": ("window",),
    "variant": ("window",),
    **{key: ("mcts",) for key in MCTS_OPTIONS},
    "tt": (),
    "history": ("window",),
    "killers": ("window",),
}
#: why an algorithm named explicitly refuses a number it does not take
REFUSED = {
    "leaf_bounds": "--leaf-bounds applies to star1, star2 and mcts only, not to {name}: "
    "drop it or choose one of those with --algo",
    "bound": "--bound does not apply to {name}; it is for {takers}: "
    "drop --bound or choose one of those with --algo",
    "alpha": "--alpha/--beta apply to alphabeta only, not to {name}: "
    "drop them or choose alphabeta with --algo",
}
REFUSED["beta"] = REFUSED["alpha"]
for _key, _option in MCTS_OPTIONS.items():
    REFUSED[_key] = f"{_option} applies to mcts only, not to {{name}}: drop it or choose mcts"
REFUSED["tt"] = (
    "--tt applies to {tables} only, not to {name}: drop it or choose one of those with --algo"
)
REFUSED["history"] = REFUSED["killers"] = (
    "--history and --killers order alphabeta's moves, not {name}'s: drop them or choose "
    "alphabeta with --algo"
)
REFUSED["variant"] = (
    "--variant applies to alphabeta only, not to {name}: drop it or choose alphabeta with --algo"
)


def named(names: Iterable[str], chance: bool = False) -> list[tuple[Algorithm, bool]]:
    """The registry entries that ``--algo`` values name, in order, without repeats.

    Each value may be a comma list; ``all`` stands for every algorithm that
    needs no bound: on a tree with chance nodes (``chance``) every algorithm
    that searches them, on any other tree every other one.  The flag says
    whether the entry was named explicitly (an entry named both ways counts as
    explicit).  An empty list is an error.
    """
    chosen: dict[str, tuple[Algorithm, bool]] = {}
    for raw in names:
        for name in raw.split(","):
            name = name.strip()
            if not name:
                continue
            if name.lower() == "all":
                for algo in ALGORITHMS:
                    if not algo.needs_bound and algo.chance == chance:
                        chosen.setdefault(algo.name, (algo, False))
            else:
                algo = find_algorithm(name)
                chosen[algo.name] = (algo, True)
    if not chosen:
        raise UsageError("--algo names no algorithm; give a name such as alphabeta, or 'all'")
    return list(chosen.values())


def plan(
    names: Sequence[str], *, chance: bool = False, **given: Unpack[SearchParams]
) -> list[tuple[Algorithm, Params]]:
    """The algorithms to run (default alphabeta; star1 on a tree with chance nodes), each with
    the parameters it takes.

    Algorithms named one by one must accept every option given; ``all``
    hands each option only to the algorithms that take it.  ``chance`` says
    the tree has chance nodes (which ``all`` means, see :func:`named`).
    """
    unknown = [k for k in given if k not in PARAM_NAMES]
    if unknown:
        raise TypeError(
            f"unexpected keyword argument {unknown[0]!r}: a search takes {', '.join(PARAM_NAMES)}"
        )
    bound, alpha, beta = given.get("bound"), given.get("alpha"), given.get("beta")
    leaf_bounds = given.get("leaf_bounds")
    if leaf_bounds is not None:
        leaf_bounds = check_leaf_bounds(leaf_bounds)
    for option, v in (("--bound", bound), ("--alpha", alpha), ("--beta", beta)):
        if v is not None:
            check_value(option, v)
    check_mcts(given)
    variant = given.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise UsageError(f"--variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    tt = given.get("tt")
    if tt is not None:
        if isinstance(tt, bool) or not isinstance(tt, int) or tt < 0:
            raise UsageError(f"--tt must be a whole number of MiB, 0 or more, got {tt!r}")
        check_table_size(tt)
        if variant == "fail-hard" and tt:
            raise UsageError("--tt searches the fail-soft alphabeta only: drop --variant fail-hard")
    ordering = {k: True for k in ("history", "killers") if given.get(k)}
    if ordering and not tt:
        raise UsageError(
            "--history and --killers order the moves of alphabeta with a table: add --tt MIB "
            "(or, in eval, --iterative)"
        )
    if alpha is not None and beta is not None and not alpha < beta:
        raise UsageError(
            f"the window needs alpha < beta, got --alpha {format_number(alpha)} "
            f"--beta {format_number(beta)}"
        )
    checked: dict[str, Param | str | None] = {
        "leaf_bounds": leaf_bounds,
        "bound": bound,
        "alpha": alpha,
        "beta": beta,
        "variant": variant,
        "tt": tt,
        **ordering,
    }
    for key in MCTS_OPTIONS:
        checked[key] = cast("Param | None", given.get(key))
    takers = ", ".join(a.name for a in ALGORITHMS if a.takes == "bound")
    out: list[tuple[Algorithm, Params]] = []
    # without --algo: alpha-beta, or on a tree with chance nodes its counterpart, Star1
    for algo, explicit in named(names or (("star1",) if chance else ("alphabeta",)), chance):
        params: dict[str, Param | str] = {}
        for key in HANDED_OUT:
            given_value = checked.get(key)
            if key == "tt" and given_value == 0 and algo.name not in DEFAULT_TABLE_ALGORITHMS:
                continue  # --tt 0: no table, which only star1 and star2 would have by default
            if given_value is None:
                if key == "bound" and algo.needs_bound:
                    raise UsageError(
                        f"{algo.name} needs --bound: it needs a bound to start from; add --bound V"
                    )
            elif algo.takes in TAKEN_BY[key] or (key == "tt" and algo.name in TABLE_ALGORITHMS):
                params[key] = given_value
            elif explicit:
                raise UsageError(
                    REFUSED[key].format(
                        name=algo.name, takers=takers, tables=", ".join(TABLE_ALGORITHMS)
                    )
                )
        out.append((algo, cast(Params, params)))
    return out


def check(algorithm: str | Algorithm, **given: Unpack[SearchParams]) -> tuple[Algorithm, Params]:
    """One algorithm (a name or an entry) with its parameters checked as :func:`plan` checks them."""
    algo = algorithm if isinstance(algorithm, Algorithm) else find_algorithm(algorithm)
    ((_, params),) = plan([algo.name], **given)
    return algo, params


def check_one(names: Sequence[str], **given: Unpack[SearchParams]) -> tuple[Algorithm, Params]:
    """The one algorithm ``names`` must name (show and trace follow one search at a time)."""
    planned = plan(names, **given)
    if len(planned) != 1:
        raise UsageError("show and trace follow one algorithm at a time; name one with --algo")
    return planned[0]


def refuse_chance(algo: Algorithm, tree: Tree) -> UsageError | None:
    """Refuse an algorithm that cannot search the tree's chance nodes (a usage error, exit 2).

    Called before any search starts, whichever implementation would run it.  On a game
    searched on demand that may have chance nodes but has met none so far
    (``tree.chance_unknown()``) the refusal is returned instead: the search raises it at the
    first chance node it meets (``tree.searched(refusal)``), if any.
    """
    if tree.chance is None or algo.chance or algo.sampled:
        return None
    return refused(
        tree,
        UsageError(
            f"{tree.source}: the tree has chance nodes, which {algo.name} cannot search; "
            f"use {CHANCE_NAMES}"
        ),
    )


def refused(tree: Tree, error: UsageError) -> UsageError:
    """``error`` raised where the tree has chance nodes, returned where it may have some
    without any known yet (:func:`refuse_chance`)."""
    if tree.chance_unknown():
        return error
    raise error


#: the numbers of an mcts run that its output shows, in this order
MCTS_SHOWN = ("iterations", "seconds", "seed", "exploration", "playout_depth", "leaf_bounds")


def mcts_defaults(params: Params, origin: str) -> tuple[Params, dict[str, Any]]:
    """mcts's parameters with the seed and the iterations a run needs to be repeated (0, and
    1000 without --time), and what its output shows of them (``origin``: of the leaf bounds)."""
    given: dict[str, Any] = {"seed": 0, **params}
    if given.get("seconds") is None and given.get("iterations") is None:
        given["iterations"] = DEFAULT_ITERATIONS
    shown = {k: given[k] for k in MCTS_SHOWN if given.get(k) is not None}
    shown["leaf_bounds_from"] = origin
    return cast(Params, given), shown


def leaf_bounds(
    tree: Tree, given: tuple[Number, Number] | None
) -> tuple[tuple[Number, Number], str]:
    """Star1's and Star2's leaf bounds (L, U) and where they come from: "option" or "tree".

    Without ``given``, the tree's least and greatest leaf; a given pair must
    bound every leaf, and a leaf outside it is an error that names the leaf.
    """
    if tree.on_demand:  # a game searched on demand: its leaves are not known beforehand
        if given is None:
            return tree.leaf_bounds(), "game"  # type: ignore[attr-defined]
        return check_leaf_bounds(given), "option"
    from .chance import tree_leaf_bounds  # the chance family, imported when it searches

    if given is None:
        return tree_leaf_bounds(tree), "tree"
    lo, hi = check_leaf_bounds(given)
    least, greatest = tree_leaf_bounds(tree)
    if lo <= least and greatest <= hi:
        return (lo, hi), "option"
    end, values = tree.end, tree.values  # name the first leaf outside
    for n in range(len(end)):
        if end[n] == n + 1 and not lo <= values[n] <= hi:
            raise UsageError(
                f"{tree.source}: leaf {tree.describe(n)} = {format_number(tree.number(n))} "
                f"lies outside --leaf-bounds {format_number(lo)}:{format_number(hi)}; "
                "L and U must bound every leaf"
            )
    return (lo, hi), "option"
