"""The algorithm registry: ALGORITHMS and SAMPLING, one entry per algorithm, and find_algorithm().

Every command, the docs test and the cross-check tests read this tuple: an
algorithm exists for gtsearch when it has an entry here (name, aliases, a
one-line summary, which numeric option it takes, its source) pointing at one
function of a family module, and a family in :data:`FAMILIES`.  An entry names
its function (``"depthfirst:alphabeta"``) and imports the family module on the
first call, so that naming, listing and checking algorithms imports none of
them, and a search imports only its own family.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from ..errors import UsageError

if TYPE_CHECKING:
    from .base import Outcome


class Algorithm(NamedTuple):
    """One registry entry: how the command line names it and what it accepts."""

    name: str
    aliases: tuple[str, ...]
    summary: str
    #: "bound" (f1, sss-bounded, dual-bounded, mtdf), "window" (alphabeta),
    #: "leaf_bounds" (star1, star2), "mcts" (its numbers and the leaf bounds) or None
    takes: str | None
    #: True when the algorithm cannot run without --bound
    needs_bound: bool
    source: str
    #: the function that runs it, "module:function" in this package (imported on first use)
    function: str
    #: True when it searches trees with chance nodes (and then only it does)
    chance: bool = False
    #: True when it samples (mcts): it searches any tree, chance nodes too, its value is an
    #: estimate, and 'all' leaves it out
    sampled: bool = False
    #: the field's name for it, as textbooks and papers write it (alpha-beta, SSS*, Star2):
    #: what student material says (the command-line name is for commands)
    title: str = ""

    @property
    def field_name(self) -> str:
        """The field's name for the algorithm (:attr:`title`), else its command-line name."""
        return self.title or self.name

    @property
    def run(self) -> Callable[..., Outcome]:
        """The function that runs it, ``run(tree, stats, **params) -> Outcome``."""
        module, _, name = self.function.partition(":")
        function: Callable[..., Outcome] = getattr(import_module(f".{module}", __package__), name)
        return function


ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm(
        "minimax",
        ("backsearch", "f", "negamax", "mm"),
        "every leaf, left to right: Knuth's F(p), the textbooks' BackSearch",
        None,
        False,
        "Knuth & Moore 1975, procedure F",
        "depthfirst:minimax",
        title="minimax",
    ),
    Algorithm(
        "f1",
        ("branch-and-bound", "bb"),
        "one-sided branch and bound: Knuth & Moore's F1(p, bound); --bound V (default +inf)",
        "bound",
        False,
        "Knuth & Moore 1975, procedure F1",
        "depthfirst:f1",
        title="F1",
    ),
    Algorithm(
        "alphabeta",
        ("ab", "f2", "alpha-beta"),
        "alpha-beta pruning: Knuth & Moore's F2(p, alpha, beta), fail-soft "
        "(--variant fail-hard: as printed); --alpha/--beta window",
        "window",
        False,
        "Knuth & Moore 1975, procedure F2",
        "depthfirst:alphabeta",
        title="alpha-beta",
    ),
    Algorithm(
        "sss",
        ("sss*", "sssstar", "stockman"),
        "Stockman's SSS*: best-first over MAX's solution trees, OPEN list of states",
        None,
        False,
        "Stockman 1979",
        "sss:sss",
        title="SSS*",
    ),
    Algorithm(
        "sss-bounded",
        ("bs*", "bs", "sss*-bounded", "sssb"),
        "SSS* started from the upper bound --bound V (exact if the value < V)",
        "bound",
        True,
        "Stockman 1979; Sun & Ma 1993 (BS*)",
        "sss:sss",
        title="bounded SSS*",
    ),
    Algorithm(
        "dual",
        ("dual*", "dualstar"),
        "DUAL*: SSS* with the roles of MAX and MIN exchanged",
        None,
        False,
        "Marsland, Reinefeld & Schaeffer 1987; Sun & Ma 1993",
        "sss:dual",
        title="DUAL*",
    ),
    Algorithm(
        "dual-bounded",
        ("dual*-bounded", "dualb"),
        "DUAL* started from the lower bound --bound L (exact if the value > L)",
        "bound",
        True,
        "Sun & Ma 1993",
        "sss:dual",
        title="bounded DUAL*",
    ),
    Algorithm(
        "negascout",
        ("pvs", "nega-scout", "ns"),
        "NegaScout / PVS: first child with the full window, the others with null "
        "windows, re-searched on a fail high",
        None,
        False,
        "Reinefeld 1983; Marsland & Campbell 1982 (PVS)",
        "scout:negascout",
        title="NegaScout",
    ),
    Algorithm(
        "scout",
        ("pearl-scout",),
        "Pearl's SCOUT: TEST whether each later child beats the best so far, EVAL it only then",
        None,
        False,
        "Pearl 1980",
        "scout:scout",
        title="SCOUT",
    ),
    Algorithm(
        "mt-sss",
        ("mt-sss*", "mtd+inf", "mtd(+inf)"),
        "MT-SSS*: MTD(+inf), null-window passes with a transposition table; "
        "SSS*'s leaves in SSS*'s order",
        None,
        False,
        "Plaat, Schaeffer, Pijls & de Bruin 1996",
        "mt:mt_sss",
        title="MT-SSS*",
    ),
    Algorithm(
        "mt-dual",
        ("mt-dual*", "mtd-inf", "mtd(-inf)"),
        "MT-DUAL*: MTD(-inf), null-window passes with a transposition table; DUAL*'s leaf set",
        None,
        False,
        "Plaat, Schaeffer, Pijls & de Bruin 1996",
        "mt:mt_dual",
        title="MT-DUAL*",
    ),
    Algorithm(
        "mtdf",
        ("mtd(f)", "mtd-f"),
        "MTD(f): MT passes from the first guess --bound F (default 0) until the bounds meet",
        "bound",
        False,
        "Plaat, Schaeffer, Pijls & de Bruin 1996",
        "mt:mtdf",
        title="MTD(f)",
    ),
    Algorithm(
        "expectiminimax",
        ("expectimax", "emm", "expecti-minimax"),
        "every leaf of a tree with chance nodes: max/min at decision nodes, the "
        "probability-weighted sum at chance nodes",
        None,
        False,
        "Michie 1966; Russell & Norvig, Stochastic games",
        "chance:expectiminimax",
        True,
        title="expectiminimax",
    ),
    Algorithm(
        "star1",
        ("*-alpha-beta", "star-1", "*1"),
        "Ballard's Star1: alpha-beta, and windows through chance nodes from the leaf bounds "
        "--leaf-bounds L:U (default: the least and greatest leaf)",
        "leaf_bounds",
        False,
        "Ballard 1983; Hauk, Buro & Schaeffer 2004",
        "chance:star1",
        True,
        title="Star1",
    ),
    Algorithm(
        "star2",
        ("star-2", "*2"),
        "Ballard's Star2: Star1 that first probes the first child of every outcome of a "
        "chance node; the search then reads those leaves again",
        "leaf_bounds",
        False,
        "Ballard 1983; Hauk, Buro & Schaeffer 2004",
        "chance:star2",
        True,
        title="Star2",
    ),
)

#: the algorithms that sample instead of proving (docs/algorithms.md, "Monte Carlo Tree Search"):
#: named like the others and listed by ``gtsearch algorithms``, but their value is an estimate, so
#: they are kept apart from :data:`ALGORITHMS`, the exact searches that 'all', compare, the
#: exercises and the cross-checks take
SAMPLING: tuple[Algorithm, ...] = (
    Algorithm(
        "mcts",
        ("uct", "monte-carlo"),
        "Monte Carlo Tree Search, UCT: UCB1 selection, one node expanded per iteration, random "
        "playouts; --iterations N or --time T, --seed S, --exploration C; the value is an estimate",
        "mcts",
        False,
        "Kocsis & Szepesvári 2006; Browne et al. 2012",
        "mcts:mcts",
        sampled=True,
        title="MCTS",
    ),
)


#: every registered algorithm, the exact ones first: what ``gtsearch algorithms`` lists
EVERY = ALGORITHMS + SAMPLING


#: the algorithms that take a transposition table (--tt MIB; docs/algorithms.md)
TABLE_ALGORITHMS = ("alphabeta", "negascout", "mt-sss", "mt-dual", "mtdf", "star1", "star2")
#: the algorithms that take a table without --tt on a source with positions (a game), so that
#: they never read more leaves than expectiminimax; --tt 0 turns it off (docs/algorithms.md)
DEFAULT_TABLE_ALGORITHMS = ("star1", "star2")


def _either(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


#: the algorithms that search trees with chance nodes, as messages name them
CHANCE_NAMES = _either([a.name for a in ALGORITHMS if a.chance])


#: how each algorithm searches: the families of docs/algorithms.md (what "nodes" counts follows them)
FAMILIES: dict[str, str] = {
    "minimax": "depth-first",
    "f1": "depth-first",
    "alphabeta": "depth-first",
    "sss": "best-first",
    "sss-bounded": "best-first",
    "dual": "best-first",
    "dual-bounded": "best-first",
    "negascout": "null-window",
    "scout": "null-window",
    "mt-sss": "mt",
    "mt-dual": "mt",
    "mtdf": "mt",
    "expectiminimax": "chance",
    "star1": "chance",
    "star2": "chance",
    "mcts": "monte-carlo",
}


def family(name: str) -> str:
    """The family of the algorithm called ``name`` (or one of its aliases)."""
    return FAMILIES[find_algorithm(name).name]


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def find_algorithm(name: str) -> Algorithm:
    """The registry entry called ``name`` or one of its aliases (case-insensitive)."""
    key = _key(name)
    for algo in EVERY:
        if key == algo.name or key in algo.aliases:
            return algo
    names = ", ".join(a.name for a in EVERY)
    raise UsageError(f"unknown algorithm {name!r}; choose from {names} (or 'all')")
