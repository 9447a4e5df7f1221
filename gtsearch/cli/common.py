"""What every command shares: options, loading with a progress display, output, error lines.

Only this package talks to the user: a GtsearchError becomes one line on
standard error (:func:`report`) and its exit status; output goes through
:func:`write_output` or click.echo, and a standard output that cannot be
written is an error too (see :class:`gtsearch.cli.GtsearchGroup`).
"""

from __future__ import annotations

import errno
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..algorithms import ALGORITHMS, Algorithm, plan, run
from ..algorithms.base import Stats
from ..algorithms.params import Params, parse_leaf_bounds, refuse_chance
from ..errors import GtsearchError, UsageError, os_reason
from ..formats import FORMATS, format_for_path, load_tree
from ..numbers import Number, parse_number
from ..result import SearchResult
from ..sources.randomtree import MODELS
from ..tree import DEFAULT_MAX_NODES, Tree

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

#: exit statuses (docs/commands.md "Exit status"); GtsearchError subclasses carry theirs
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_OUTPUT = 2  # standard output closed or failing, like an unwritable -o FILE

FORMAT_NAMES = [f.name for f in FORMATS]
#: a click command function, as decorators take and give it
F = TypeVar("F", bound=Callable[..., Any])
STDIN = "-"
#: errors of a write that mean the output is lost (a closed descriptor, a full disk, ...)
WRITE_ERRORS = frozenset(
    {errno.EBADF, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EROFS}
)


class NumberParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """An int when typed as one (``3``), else a finite float (``2.5``)."""

    name = "number"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Number:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        try:
            return parse_number(str(value))
        except ValueError as e:
            self.fail(f"{e}; give a finite number such as 3 or -2.5", param, ctx)


NUMBER = NumberParam()


class PathParam(click.ParamType):  # type: ignore[type-arg]  # generic in click >= 8.2
    """A file name, taken as given (the readers and writers report what is wrong with it).

    Unlike click.Path it checks nothing, so a bad file is reported as every bad
    input is; it only tells shell completion to complete file names.
    """

    name = "path"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="file")]


def random_tree_options(command: F) -> F:
    """--model, --order and --p: how gen and experiment draw their random trees (docs/sources.md)."""
    options = (
        click.option(
            "--model",
            type=click.Choice(MODELS),
            default="iid",
            show_default=True,
            help="How leaf values are drawn (docs/sources.md): independent, a permutation of "
            "1..B**D, sums of arc values along the path, or 0/1 leaves.",
        ),
        click.option(
            "--order",
            default="random",
            show_default=True,
            metavar="ORDER",
            help="random, best, worst (children best-first / worst-first for the mover) or "
            "strong:P (the best child first with probability P); iid and binary models.",
        ),
        click.option(
            "--p",
            "p",
            type=click.FloatRange(0.0, 1.0),
            default=None,
            metavar="P",
            help="model binary: the probability that a leaf is 1 (default 0.5).",
        ),
    )
    for option in reversed(options):  # as if stacked in this order above the command
        command = option(command)
    return command


def complete_algorithms(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Algorithm names for shell completion, after a comma too (``-a alphabeta,ss``).

    Registry names (and ``all`` where several may be named) first; aliases
    only when no name fits, and only those a shell takes unquoted (``pvs``,
    not ``sss*``), so that ``-a alph`` completes to ``alphabeta`` at once.
    """
    from click.shell_completion import CompletionItem

    done, _, word = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    word = word.lower()
    several = getattr(param, "multiple", False)
    names = [(a.name, a.summary) for a in ALGORITHMS]
    if several:
        names.append(("all", "every algorithm that needs no bound"))
    found = [(n, h) for n, h in names if n.startswith(word)]
    if not found:
        found = [
            (alias, f"{a.name}: {a.summary}")
            for a in ALGORITHMS
            for alias in a.aliases
            if alias.startswith(word) and _SHELL_WORD.fullmatch(alias)
        ]
    return [CompletionItem(prefix + n, help=h) for n, h in found]


_SHELL_WORD = re.compile(r"[a-z0-9-]+")


# -- the options commands share ------------------------------------------------------------
input_format_option = click.option(
    "--input-format",
    type=click.Choice(FORMAT_NAMES, case_sensitive=False),
    default=None,
    help="Format of the input files (default: from the extension; for '-', sniffed: "
    "'(' s-expression, '[' or '{' JSON, else YAML).",
)
max_nodes_option = click.option(
    "--max-nodes",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_NODES,
    show_default=True,
    metavar="N",
    help="Refuse trees with more nodes than this (YAML aliases expanded).",
)
files_argument = click.argument(
    "files", metavar="FILE...", nargs=-1, required=True, type=PathParam()
)
alpha_option = click.option(
    "--alpha",
    type=NUMBER,
    default=None,
    metavar="A",
    help="Lower end of alphabeta's window (default -inf).",
)
beta_option = click.option(
    "--beta",
    type=NUMBER,
    default=None,
    metavar="B",
    help="Upper end of alphabeta's window (default +inf).",
)
root_option = click.option(
    "--root",
    type=click.Choice(["max", "min"], case_sensitive=False),
    default=None,
    help="Player to move at the root, overriding the file.",
)
leaf_bounds_option = click.option(
    "--leaf-bounds",
    "leaf_bounds",
    default=None,
    metavar="L:U",
    callback=lambda ctx, param, value: None if value is None else parse_leaf_bounds(value),
    help="Bounds on every leaf value, for star1 and star2 (default: the tree's least and "
    "greatest leaf). A leaf outside them is an error.",
)
depth_option = click.option(
    "--depth",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Cut the tree at depth N: nodes there count as leaves worth their static value.",
)


# -- errors and output ------------------------------------------------------------------------
#: where the group keeps --annotate (in the root context's meta)
ANNOTATE = "gtsearch.annotate"
ANNOTATIONS = ("github", "none")


def annotation_kind() -> str:
    """The CI annotations to print beside error lines: "github" or "none".

    ``--annotate`` (an option of the group) decides; without it, "github"
    when ``GITHUB_ACTIONS`` is ``true`` (GitHub Actions sets it in every step).
    """
    ctx = click.get_current_context(silent=True)
    chosen = ctx.find_root().meta.get(ANNOTATE) if ctx is not None else None
    if chosen is None:
        chosen = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "none"
    return str(chosen)


def report(err: GtsearchError) -> int:
    """Report an error the user can fix: one line on standard error; its exit status.

    In GitHub Actions (or with ``--annotate github``) a workflow command
    follows the line, ``::error file=PATH,line=L,col=C::message``, which
    marks the place in the pull request.
    """
    click.echo(" ".join(str(err).split("\n")), err=True)
    if annotation_kind() == "github":
        from ..render.annotations import github_annotation

        click.echo(github_annotation(err), err=True)
    return err.exit_code


def output_error(e: OSError) -> GtsearchError | None:
    """The error to report when ``e`` means standard output cannot be written, else None."""
    if e.errno not in WRITE_ERRORS:
        return None
    reason = "it is closed" if e.errno == errno.EBADF else os_reason(e)
    err = GtsearchError(f"<stdout>: cannot write: {reason}")
    err.exit_code = EXIT_OUTPUT
    return err


class ClosedStdout:
    """Stands in for ``sys.stdout`` when file descriptor 1 is closed (Python sets it to None).

    Writing to it raises EBADF, so that a command that has output to give
    fails with one line instead of losing it silently; a command that writes
    nothing to standard output (``convert -o FILE``) still succeeds.
    """

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "Bad file descriptor")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "Bad file descriptor")


def silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor (tests), or closed
        pass


def write_file(path: str, text: str) -> None:
    """Write ``text`` to the file ``path`` (UTF-8, ``\\n`` line ends)."""
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise GtsearchError(f"{path}: cannot write: {os_reason(e)}") from None


def write_output(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``, or to standard output for '-'."""
    if path == STDIN:
        click.echo(text, nl=False)
    else:
        write_file(path, text)


def format_of_output(output: str | None) -> str:
    """The format named by OUT's extension, or a usage error saying to give --to."""
    choices = ", ".join(FORMAT_NAMES)
    if output is None or output == STDIN:
        raise UsageError(f"give the output format with --to ({choices})")
    fmt = format_for_path(output)
    if fmt is None:
        raise UsageError(
            f"cannot tell the format of {output!r} from its extension; give --to ({choices})"
        )
    return fmt.name


# -- loading and searching ---------------------------------------------------------------------
def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def check_stdin_once(files: Sequence[str]) -> None:
    if sum(1 for f in files if f == STDIN) > 1:
        raise UsageError("standard input ('-') can be read only once; name it once")


def load(
    path: str, input_format: str | None, max_nodes: int, *, whole: bool = False
) -> tuple[Tree, float]:
    """Load one tree file and time it (the time goes into every result for that file).

    A source (``random:...``, ``game:...``, docs/sources.md) is opened instead: expanded as
    the search reaches it, --max-nodes bounding the nodes visited; ``whole``
    (show, trace, convert, validate) builds it in full, bounded by --max-nodes.
    """
    from ..render.progress import progress
    from ..sources import is_source, open_source

    t0 = time.perf_counter()
    if is_source(path):
        tree = open_source(path, max_nodes=max_nodes)
        if whole:
            from ..sources import whole as build_whole

            tree = build_whole(tree, max_nodes)
        return tree, time.perf_counter() - t0
    with progress(f"loading {display_name(path)}"):
        tree = load_tree(path, input_format=input_format, max_nodes=max_nodes)
    return tree, time.perf_counter() - t0


def load_with_root(path: str, root: str | None, input_format: str | None, max_nodes: int) -> Tree:
    """Load one tree file (a source in full) and apply --root."""
    tree, _seconds = load(path, input_format, max_nodes, whole=True)
    if root is not None:
        tree = tree.with_root(root.lower() == "max")
    return tree


def prepare(
    path: str,
    root: str | None,
    depth: int | None,
    expect: Number | None,
    input_format: str | None,
    max_nodes: int,
) -> tuple[Tree, float, Number | None]:
    """Load a file, apply --root/--depth, and say which value it must have.

    A file's 'expect:' applies unless --expect replaces it or --root/--depth
    change the tree it was written for.
    """
    tree, load_seconds = load(path, input_format, max_nodes)
    expected = expect
    if expected is None and tree.meta.expect is not None:
        changed_root = root is not None and (root.lower() == "max") != tree.root_max
        cut = depth is not None and depth < tree.max_depth()
        if not (changed_root or cut):
            expected = tree.meta.expect
    if root is not None:
        tree = tree.with_root(root.lower() == "max")
    if depth is not None:
        tree = tree.truncated(depth)
    return tree, load_seconds, expected


def plan_for_tree(
    tree: Tree,
    planned: list[tuple[Algorithm, Params]],
    algos: Sequence[str],
    bound: Number | None = None,
    alpha: Number | None = None,
    beta: Number | None = None,
    leaf_bounds: tuple[Number, Number] | None = None,
) -> list[tuple[Algorithm, Params]]:
    """The searches for one tree: on a tree with chance nodes 'all' means the algorithms that
    search them; any other algorithm is refused (a UsageError naming the file)."""
    if tree.has_chance:
        planned = plan(
            algos, chance=True, bound=bound, alpha=alpha, beta=beta, leaf_bounds=leaf_bounds
        )
    for algo, _params in planned:
        refuse_chance(algo, tree)
    return planned


def expect_place(
    tree: Tree, option: Number | None, expected: Number | None
) -> tuple[int, int] | None:
    """Where the file states the value checked (its ``expect``), when that is what is checked."""
    if option is not None or expected is None:
        return None
    return tree.meta.expect_at


def run_search(
    name: str, tree: Tree, algo: Algorithm, params: Params, leaves: bool = False
) -> SearchResult:
    """search(), with a progress display on a terminal's stderr when it takes a while."""
    from ..render.progress import progress

    stats = Stats()
    with progress(f"{algo.name} on {name}", count=stats.count, total=tree.n_leaves):
        return run(tree, algo, params, leaf_order=leaves, stats=stats)
