"""The options the commands share, each declared once: flags, type, range, metavar and help.

As sqlite-utils declares its shared options: a command stacks the decorators
of the options it takes, and where it must say more than the one help text, the
declaration takes that sentence as a parameter.  The types of :mod:`.values`
parse and check what the options take (one line when it is wrong).  Declaring
imports little: the registry, the sources and the experiment are imported when
a command or a completion uses them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from ..algorithms.params import VARIANTS
from ..algorithms.table import check_table_size
from ..errors import UsageError
from ..formats import FORMATS
from ..numbers import MAX_COUNT
from ..tree import DEFAULT_MAX_NODES
from .values import NUMBER, FloatParam, IntParam, PairParam, PathParam, RangesParam

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

#: an option (or several) as a decorator of a command function
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

FORMAT_NAMES = [f.name for f in FORMATS]


def stack(*options: Decorator) -> Decorator:
    """Several options as one decorator, listed in --help in the order given."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return apply


# -- completion --------------------------------------------------------------------------------
_SHELL_WORD = r"[a-z0-9-]+"  # compiled on first use, not at start-up


def complete_algorithms(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Algorithm names for shell completion, after a comma too (``-a alphabeta,ss``).

    Registry names (and ``all`` where several may be named) first; aliases
    only when no name fits, and only those a shell takes unquoted (``pvs``,
    not ``sss*``), so that ``-a alph`` completes to ``alphabeta`` at once.
    """
    from click.shell_completion import CompletionItem

    from ..algorithms import EVERY

    done, _, word = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    word = word.lower()
    names = [(a.name, a.summary) for a in EVERY]
    if getattr(param, "multiple", False):
        names.append(("all", "every algorithm that needs no bound"))
    found = [(n, h) for n, h in names if n.startswith(word)]
    if not found:
        found = [
            (alias, f"{a.name}: {a.summary}")
            for a in EVERY
            for alias in a.aliases
            if alias.startswith(word) and re.fullmatch(_SHELL_WORD, alias)
        ]
    return [CompletionItem(prefix + n, help=h) for n, h in found]


# -- how options are declared -------------------------------------------------------------------
def int_option(
    *decls: str,
    help: str,
    minimum: int | None = 0,
    maximum: int | None = MAX_COUNT,
    default: int | None = None,
    **attrs: Any,
) -> Decorator:
    """An option that takes one integer from ``minimum`` to ``maximum`` (None: no end); by
    default at most 2**63 - 1, the greatest count the compiled core holds, so that both cores
    refuse the same numbers in the same words (docs/commands.md)."""
    attrs.setdefault("metavar", "N")
    return click.option(
        *decls,
        type=IntParam(min=minimum, max=maximum),
        default=default,
        show_default=default is not None,
        help=help,
        **attrs,
    )


def number_option(flag: str, metavar: str, help: str) -> Decorator:
    """An option that takes one number as a leaf holds one (``--bound V``); none by default."""
    return click.option(flag, type=NUMBER, default=None, metavar=metavar, help=help)


def path_option(*decls: str, metavar: str, help: str, default: str | None = None) -> Decorator:
    """An option that names a file to write (file names complete in the shell)."""
    return click.option(*decls, type=PathParam(), default=default, metavar=metavar, help=help)


# -- input ---------------------------------------------------------------------------------------
def files_argument(required: bool = True) -> Decorator:
    """FILE...: tree files or sources ('-': standard input); ``[FILE...]`` when they may be left out."""
    metavar = "FILE..." if required else "[FILE...]"
    return click.argument("files", metavar=metavar, nargs=-1, required=required, type=PathParam())


file_argument = click.argument("file", metavar="FILE", type=PathParam())
max_nodes_option = int_option(
    "--max-nodes",
    minimum=1,
    maximum=None,
    default=DEFAULT_MAX_NODES,
    # a limit larger than any tree (2**63 nodes) is no limit, and the C core takes 64 bits
    callback=lambda ctx, param, value: min(value, MAX_COUNT),
    help="Refuse trees with more nodes than this (YAML aliases expanded).",
)
#: --input-format and --max-nodes, of every command that reads tree files
input_options = stack(
    click.option(
        "--input-format",
        type=click.Choice(FORMAT_NAMES, case_sensitive=False),
        default=None,
        help="Format of the input files (default: from the extension; for '-', sniffed: "
        "'(' s-expression, '[' or '{' JSON, else YAML).",
    ),
    max_nodes_option,
)
root_option = click.option(
    "--root",
    type=click.Choice(["max", "min"], case_sensitive=False),
    default=None,
    help="Player to move at the root, overriding the file.",
)
depth_option = int_option(
    "--depth",
    help="Cut the tree at depth N: nodes there count as leaves worth their static value.",
)
#: a game's position (docs/sources.md, "A position: --moves")
moves_option = click.option(
    "--moves",
    default=None,
    metavar='"M1 M2 ..."',
    help="A game from the position after these moves, named as the game names them "
    "(the names 'gtsearch play' lists; OpenSpiel's action strings), from the start.",
)
#: a game's position and the estimate its --depth cut takes
position_options = stack(
    moves_option,
    click.option(
        "--estimate",
        default=None,
        metavar="MODULE:ATTR",
        help="A game's positions at the --depth cut valued by this function of the state "
        "(MAX's terms), in place of the game's own estimate.",
    ),
)
#: what eval and compare do to the tree before they search it: --root, --depth to cut it,
#: and a game's position and estimate
tree_options = stack(root_option, depth_option, position_options)


# -- algorithms and their numbers -------------------------------------------------------------
def algo_option(default: str, *, several: bool = True) -> Decorator:
    """-a/--algo: the algorithms to run (repeatable, comma lists, 'all'), or the one (``several``
    False); ``default`` says what runs without it."""
    what = (
        "Algorithms to run (repeatable, or a comma list). " if several else "The algorithm to run. "
    )
    every = (
        "'all' runs every algorithm that needs no bound; on a tree with chance nodes, "
        "expectiminimax, star1 and star2. "
        if several
        else ""
    )
    return click.option(
        "-a",
        "--algo",
        "algos" if several else "algo",
        multiple=several,
        default=None,
        metavar="NAME",
        shell_complete=complete_algorithms,
        help=f"{what}Aliases work (ab, f2, sss*, dual*, bs*...). {every}Default: {default}. "
        "See 'gtsearch algorithms'.",
    )


def bound_option(several: bool = False) -> Decorator:
    """--bound: the one number of f1, sss-bounded, dual-bounded and mtdf (of those of them
    that --algo names, when it may name ``several``)."""
    return number_option(
        "--bound",
        "V",
        "Bound for f1 (default +inf), sss-bounded (V) and dual-bounded (L), or mtdf's first "
        "guess (default 0)."
        + (" With '--algo all' it goes to those of them that take one." if several else ""),
    )


def guess_option(more: str = "") -> Decorator:
    """--guess: MTD(f)'s first guess, where --bound would go to other algorithms too."""
    return number_option(
        "--guess",
        "F",
        "MTD(f)'s first guess (default 0): the closer to the value, the fewer passes." + more,
    )


#: alphabeta's window, and the form of alphabeta whose value a window gives
window_options = stack(
    number_option("--alpha", "A", "Lower end of alphabeta's window (default -inf)."),
    number_option("--beta", "B", "Upper end of alphabeta's window (default +inf)."),
    click.option(
        "--variant",
        type=click.Choice(VARIANTS),
        default=None,
        help="alphabeta's form: fail-soft (the default: m starts at -inf, a value outside "
        "the window is the best bound found) or fail-hard (Knuth & Moore's F2 as printed: "
        "m := alpha). The same leaves; other values outside the window.",
    ),
)
leaf_bounds_option = click.option(
    "--leaf-bounds",
    type=PairParam("L:U", "-10:10 or 0:1.5"),
    default=None,
    metavar="L:U",
    help="Bounds on every leaf value, for star1 and star2, and the range mcts scales its "
    "rewards by (default: the tree's least and greatest leaf). A leaf outside them is an error.",
)
#: mcts's iterations (docs/algorithms.md, "Monte Carlo Tree Search")
iterations_option = int_option(
    "--iterations",
    minimum=1,
    help="mcts: the iterations to run (default 1000; no limit with --time alone).",
)
#: UCB1's exploration constant and the playouts' cutoff, which gtsearch play takes too
exploration_option = click.option(
    "--exploration",
    type=FloatParam(0.0),
    default=None,
    metavar="C",
    help="mcts: UCB1's exploration constant C (default sqrt(2)).",
)
mcts_search_options = stack(
    exploration_option,
    int_option(
        "--playout-depth",
        metavar="D",
        help="mcts: a playout stops after D moves and takes the static value it reached "
        "(a game's estimate); default: playouts run to a leaf.",
    ),
)


def mcts_options(iterative: bool = False) -> Decorator:
    """mcts's numbers (docs/algorithms.md, "Monte Carlo Tree Search"); --leaf-bounds scales its
    rewards.  ``iterative``: --time also limits --iterative (eval's iterative deepening)."""
    deepening = "; with --iterative: start no new depth after T seconds" if iterative else ""
    return stack(
        iterations_option,
        click.option(
            "--time",
            "seconds",
            type=FloatParam(0.0),
            default=None,
            metavar="T",
            help="mcts: stop after T seconds (with --iterations too, at the first limit "
            f"reached){deepening}.",
        ),
        mcts_seed_option,
        mcts_search_options,
    )


#: mcts's seed, for the commands whose --seed is mcts's alone
mcts_seed_option = int_option(
    "--seed",
    minimum=None,
    maximum=None,  # any integer, taken modulo 2**64
    metavar="S",
    help="mcts: the seed of its random numbers (default 0); the same seed gives the same "
    "search, byte for byte, in both cores.",
)
#: what show and trace take of mcts's numbers: no --time, so that the search drawn and its
#: trace (the pure reference's) are the same search
mcts_shown_options = stack(iterations_option, mcts_seed_option, mcts_search_options)


def tt_option(default: int | None = 0) -> Decorator:
    """--tt MIB: the size of a transposition table (docs/algorithms.md); 0 is none.  A
    ``default`` of None leaves it unset when not given: star1 and star2 then take a table on
    a game (:func:`gtsearch.algorithms.chance_tabled.default_table`), the others none."""
    if default:
        more = f"keyed by position (default {default})."
    elif default is None:
        more = (
            "for alphabeta, negascout, mt-sss, mt-dual, mtdf, star1 and star2, keyed by "
            "position; 0 is none. Not given: none, but star1 and star2 on a game take one "
            "large enough for every position (docs/algorithms.md)."
        )
    else:
        more = (
            "for alphabeta, negascout, mt-sss, mt-dual, mtdf, star1 and star2, keyed by "
            "position (0, the default: none; docs/algorithms.md)."
        )
    return int_option(
        "--tt",
        minimum=1 if default else 0,
        default=default,
        metavar="MIB",
        callback=lambda ctx, param, value: None if value is None else check_table_size(value),
        help="A transposition table of MIB mebibytes (at most the machine's memory), " + more,
    )


#: move ordering for alphabeta with a table (docs/algorithms.md, "Move ordering: history and
#: killers"); off by default, so that the counts are the table's alone
ordering_options = stack(
    click.option(
        "--history",
        is_flag=True,
        help="alphabeta with the table: order the moves by the history heuristic (Schaeffer "
        "1989; a cutoff's or best move credited 2^draft), after the table's move and killers.",
    ),
    click.option(
        "--killers",
        is_flag=True,
        help="alphabeta with the table: search the two killer moves of the ply (the last moves "
        "that cut off there) right after the table's move.",
    ),
)
#: eval's iterative deepening (docs/algorithms.md, "Iterative deepening"); its time limit is
#: --time, which mcts_options(iterative=True) declares
iterative_option = click.option(
    "--iterative",
    is_flag=True,
    help="Alpha-beta by iterative deepening, depth 1, 2, ... with the table (--tt, 16 MiB "
    "when not given): one result per depth, a node at the horizon worth its static value.",
)
expect_option = number_option(
    "--expect",
    "V",
    "Expected value: a result that contradicts it prints a line on standard error and makes "
    "the exit status 1. Replaces the file's 'expect:'.",
)


# -- output ------------------------------------------------------------------------------------
def format_option(
    choices: Sequence[str], help: str, default: str | None = None, *, off_terminal: str = ""
) -> Decorator:
    """--format: the form of the output.  With ``off_terminal``, the command gets "table" when
    standard output is a terminal and ``off_terminal`` when not, unless --format says."""

    def resolve(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is not None or not off_terminal:
            return value
        from ..render.console import stdout_is_terminal

        return "table" if stdout_is_terminal() else off_terminal

    if off_terminal:
        help += (
            f" Default: table on a terminal, {off_terminal} when standard output is not a terminal."
        )
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(choices),
        default=default,
        show_default=default is not None,
        callback=resolve,
        help=help,
    )


#: --format of the commands that list a registry: gtsearch algorithms, gtsearch games
listing_format_option = format_option(
    ["table", "text", "json"], "A table, aligned text lines, or JSON lines.", off_terminal="text"
)


def results_format_option(records: str) -> Decorator:
    """--format of eval, compare and experiment: a table, JSON lines or CSV of ``records``."""
    return format_option(
        ["table", "json", "csv"], f"A table, JSON lines or CSV: {records}.", off_terminal="json"
    )


def output_option(
    what: str,
    metavar: str = "FILE",
    more: str = "",
    default: str | None = None,
    instead: str | None = "standard output",
) -> Decorator:
    """-o/--output: where a command writes ``what`` (``instead`` of standard output, or of
    nothing: ``instead=None`` for a command that writes ``what`` only to the file)."""
    place = "" if instead is None else f" instead of {instead}"
    help = f"Write {what} to {metavar}{place}." + more
    return path_option("-o", "--output", metavar=metavar, help=help, default=default)


# -- seeded trees: gen, experiment, exercise ---------------------------------------------------
def shape_options(defaults: tuple[Any, Any] | None = None, *, min_depth: int = 0) -> Decorator:
    """-b/--branching and -d/--depth of uniform trees: required without ``defaults``; ranges
    (2..4,8) when the defaults are ranges, as an experiment sweeps them."""
    several = defaults is not None and isinstance(defaults[0], str)
    given: dict[str, Any] = {"required": True} if defaults is None else {"show_default": True}

    def dimension(
        flags: tuple[str, str], minimum: int, which: int, metavar: str, help: str
    ) -> Decorator:
        kind = RangesParam(minimum) if several else IntParam(min=minimum)
        default = None if defaults is None else defaults[which]
        metavar = "RANGE" if several else metavar
        return click.option(*flags, type=kind, default=default, metavar=metavar, help=help, **given)

    return stack(
        dimension(
            ("-b", "--branching"),
            1,
            0,
            "B",
            "Children of every internal node"
            + (", or several: B, A..B or a comma list (2..4,8)." if several else "."),
        ),
        dimension(
            ("-d", "--depth"),
            min_depth,
            1,
            "D",
            "Levels below the root (the tree has B**D leaves)"
            + (", written like --branching." if several else "."),
        ),
    )


def seed_option(same: str, default: int | None = 0, more: str = "") -> Decorator:
    """-s/--seed; ``same``: what the same seed and arguments give again (``default`` None: no
    default, ``more`` says what happens then)."""
    return int_option(
        "-s",
        "--seed",
        minimum=None,
        maximum=None,  # any integer, taken modulo 2**64
        default=default,
        metavar="S",
        help=f"Seed: the same arguments always give the same {same}.{more}",
    )


def values_option(default: str | None = "-100:100", more: str = "") -> Decorator:
    """--values LO:HI: the leaf values of seeded trees."""
    return click.option(
        "--values",
        "value_range",
        type=PairParam("LO:HI", "-100:100", integers=True),
        default=default,
        show_default=default is not None,
        metavar="LO:HI",
        help=f"Leaf values are integers drawn from LO..HI{more}.",
    )


def order_option(strong: bool = True) -> Decorator:
    """--order: random, best-first, worst-first and (``strong``) strong:P; exercise's trees take
    only the first three."""
    from ..sources.uniform import ORDERS

    return click.option(
        "--order",
        type=None if strong else click.Choice(ORDERS),
        default="random",
        show_default=True,
        metavar="ORDER" if strong else None,
        help="random, best, worst (children best-first / worst-first for the mover)"
        + (
            " or strong:P (the best child first with probability P); iid and binary models."
            if strong
            else "."
        ),
    )


def random_tree_options() -> Decorator:
    """--model, --order, --p and --trap-depth: how gen and experiment draw their random trees
    (docs/sources.md)."""
    from ..sources.randomtree import MODELS

    return stack(
        click.option(
            "--model",
            type=click.Choice(MODELS),
            default="iid",
            show_default=True,
            help="How leaf values are drawn (docs/sources.md): independent, a permutation of "
            "1..B**D, sums of arc values along the path, 0/1 leaves, or shallow traps.",
        ),
        order_option(),
        click.option(
            "--p",
            "p",
            type=FloatParam(0.0, 1.0),
            default=None,
            metavar="P",
            help="model binary: the probability that a leaf is 1; model trap: that a move "
            "is a trap (default 0.5).",
        ),
        int_option(
            "--trap-depth",
            minimum=1,
            metavar="K",
            help="model trap: the plies in which a trap is lost (default 1).",
        ),
    )


def drawn(
    seed: int,
    value_range: tuple[int, int],
    order: str,
    chance: int | None,
    model: str,
    p: float | None,
    trap_depth: int | None = None,
) -> dict[str, Any]:
    """gen's and experiment's options of the trees they draw as the keyword arguments of the
    sources (``spec_of``, ``write_uniform``, ``Sweep``); --p only with --model binary or
    trap, --trap-depth only with trap."""
    if p is not None and model not in ("binary", "trap"):
        raise UsageError("--p applies to --model binary and trap only")
    if trap_depth is not None and model != "trap":
        raise UsageError("--trap-depth applies to --model trap only")
    lo, hi = value_range
    return {
        **({"k": trap_depth or 1} if model == "trap" else {}),
        "seed": seed,
        "lo": lo,
        "hi": hi,
        "order": order,
        "chance": chance or 0,
        "model": model,
        "p": 0.5 if p is None else p,
    }


def chance_option(more: str = "") -> Decorator:
    """--chance C: regular *-minimax trees (gen, experiment)."""
    return int_option(
        "--chance",
        minimum=1,
        metavar="C",
        help="Regular *-minimax trees: every move (B per decision node) leads to a chance node "
        "with C equally likely outcomes; -d counts the levels of moves, so the leaves, "
        "(B*C)**D of them, lie at depth 2D." + more,
    )


def count_option(name: str, default: int, help: str) -> Decorator:
    """-n: how many (experiment's trees per cell, exercise's exercises)."""
    return int_option("-n", name, minimum=1, default=default, help=help)
