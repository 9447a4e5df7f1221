"""What every command shares: options, loading with a progress display, output, error lines.

Only this package talks to the user: a GtsearchError becomes one line on
standard error (:func:`report`) and its exit status; output goes through
:func:`write_output` or click.echo, and a standard output that cannot be
written is an error too (see :class:`gtsearch.cli.GtsearchGroup`).
"""

from __future__ import annotations

import errno
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import click

from ..algorithms import Algorithm, search
from ..algorithms.base import Stats
from ..errors import GtsearchError, UsageError, os_reason
from ..formats import FORMATS, format_for_path, load_tree
from ..numbers import Number, parse_number
from ..result import SearchResult
from ..tree import DEFAULT_MAX_NODES, Tree

#: exit statuses (docs/commands.md "Exit status"); GtsearchError subclasses carry theirs
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_OUTPUT = 2  # standard output closed or failing, like an unwritable -o FILE

FORMAT_NAMES = [f.name for f in FORMATS]
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
files_argument = click.argument("files", metavar="FILE...", nargs=-1, required=True)
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
depth_option = click.option(
    "--depth",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Cut the tree at depth N: nodes there count as leaves worth their static value.",
)


# -- errors and output ------------------------------------------------------------------------
def report(err: GtsearchError) -> int:
    """Report an error the user can fix: exactly one line on standard error; its exit status."""
    click.echo(" ".join(str(err).split("\n")), err=True)
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


def load(path: str, input_format: str | None, max_nodes: int) -> tuple[Tree, float]:
    """Load one tree file and time it (the time goes into every result for that file)."""
    from ..render.progress import progress

    t0 = time.perf_counter()
    with progress(f"loading {display_name(path)}"):
        tree = load_tree(path, input_format=input_format, max_nodes=max_nodes)
    return tree, time.perf_counter() - t0


def load_with_root(path: str, root: str | None, input_format: str | None, max_nodes: int) -> Tree:
    """Load one tree file and apply --root."""
    tree, _seconds = load(path, input_format, max_nodes)
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


def run_search(
    name: str, tree: Tree, algo: Algorithm, params: dict[str, Number], leaves: bool = False
) -> SearchResult:
    """search(), with a progress display on a terminal's stderr when it takes a while."""
    from ..render.progress import progress

    stats = Stats()
    with progress(f"{algo.name} on {name}", count=stats.count, total=tree.n_leaves):
        return search(tree, algo, leaf_order=leaves, stats=stats, **params)
