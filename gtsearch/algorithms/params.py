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
from typing import NamedTuple

from ..errors import UsageError
from ..numbers import MAX_EXACT_INT, Number, format_number, too_large
from ..tree import Tree
from .registry import ALGORITHMS, CHANCE_NAMES, Algorithm, find_algorithm

#: a parameter's value: a number, or the pair of --leaf-bounds
Param = Number | tuple[Number, Number]
#: the parameters of a planned search, as search() takes them
Params = dict[str, Param]


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
)


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
    names: Sequence[str],
    bound: Number | None = None,
    alpha: Number | None = None,
    beta: Number | None = None,
    leaf_bounds: tuple[Number, Number] | None = None,
    *,
    chance: bool = False,
) -> list[tuple[Algorithm, Params]]:
    """The algorithms to run (default alphabeta; star1 on a tree with chance nodes), each with
    the parameters it takes.

    Algorithms named one by one must accept every option given; ``all``
    hands each option only to the algorithms that take it.  ``chance`` says
    the tree has chance nodes (which ``all`` means, see :func:`named`).
    """
    if leaf_bounds is not None:
        leaf_bounds = check_leaf_bounds(leaf_bounds)
    for option, v in (("--bound", bound), ("--alpha", alpha), ("--beta", beta)):
        if v is not None:
            check_value(option, v)
    if alpha is not None and beta is not None and not alpha < beta:
        raise UsageError(
            f"the window needs alpha < beta, got --alpha {format_number(alpha)} "
            f"--beta {format_number(beta)}"
        )
    takers = ", ".join(a.name for a in ALGORITHMS if a.takes == "bound")
    out: list[tuple[Algorithm, Params]] = []
    # without --algo: alpha-beta, or on a tree with chance nodes its counterpart, Star1
    for algo, explicit in named(names or (("star1",) if chance else ("alphabeta",)), chance):
        params: Params = {}
        if leaf_bounds is not None:
            if algo.takes == "leaf_bounds":
                params["leaf_bounds"] = leaf_bounds
            elif explicit:
                raise UsageError(
                    f"--leaf-bounds applies to star1 and star2 only, not to {algo.name}: "
                    "drop it or choose one of those with --algo"
                )
        if bound is not None:
            if algo.takes == "bound":
                params["bound"] = bound
            elif explicit:
                raise UsageError(
                    f"--bound does not apply to {algo.name}; it is for {takers}: "
                    "drop --bound or choose one of those with --algo"
                )
        elif algo.needs_bound:
            raise UsageError(
                f"{algo.name} needs --bound: it needs a bound to start from; add --bound V"
            )
        for key, v in (("alpha", alpha), ("beta", beta)):
            if v is not None:
                if algo.takes == "window":
                    params[key] = v
                elif explicit:
                    raise UsageError(
                        f"--alpha/--beta apply to alphabeta only, not to {algo.name}: "
                        "drop them or choose alphabeta with --algo"
                    )
        out.append((algo, params))
    return out


def check(
    algorithm: str | Algorithm,
    bound: Number | None = None,
    alpha: Number | None = None,
    beta: Number | None = None,
    leaf_bounds: tuple[Number, Number] | None = None,
) -> tuple[Algorithm, Params]:
    """One algorithm (a name or an entry) with its parameters checked as :func:`plan` checks them."""
    algo = algorithm if isinstance(algorithm, Algorithm) else find_algorithm(algorithm)
    ((_, params),) = plan([algo.name], bound, alpha, beta, leaf_bounds)
    return algo, params


def check_one(
    names: Sequence[str],
    bound: Number | None = None,
    alpha: Number | None = None,
    beta: Number | None = None,
    leaf_bounds: tuple[Number, Number] | None = None,
) -> tuple[Algorithm, Params]:
    """The one algorithm ``names`` must name (show and trace follow one search at a time)."""
    planned = plan(names, bound, alpha, beta, leaf_bounds)
    if len(planned) != 1:
        raise UsageError("show and trace follow one algorithm at a time; name one with --algo")
    return planned[0]


def refuse_chance(algo: Algorithm, tree: Tree) -> None:
    """Refuse an algorithm that cannot search the tree's chance nodes (a usage error, exit 2).

    Called before any search starts, whichever implementation would run it.
    """
    if tree.chance is not None and not algo.chance:
        raise UsageError(
            f"{tree.source}: the tree has chance nodes, which {algo.name} cannot search; "
            f"use {CHANCE_NAMES}"
        )


def leaf_bounds(
    tree: Tree, given: tuple[Number, Number] | None
) -> tuple[tuple[Number, Number], str]:
    """Star1's and Star2's leaf bounds (L, U) and where they come from: "option" or "tree".

    Without ``given``, the tree's least and greatest leaf; a given pair must
    bound every leaf, and a leaf outside it is an error that names the leaf.
    """
    if given is None:
        from .chance import tree_leaf_bounds  # the chance family, imported when it searches

        return tree_leaf_bounds(tree), "tree"
    lo, hi = check_leaf_bounds(given)
    end, values = tree.end, tree.values
    for n in range(len(end)):
        if end[n] == n + 1 and not lo <= values[n] <= hi:
            raise UsageError(
                f"{tree.source}: leaf {tree.describe(n)} = {format_number(tree.number(n))} "
                f"lies outside --leaf-bounds {format_number(lo)}:{format_number(hi)}; "
                "L and U must bound every leaf"
            )
    return (lo, hi), "option"
