"""What every command shares: loading with a progress display, output, error lines.

Only this package talks to the user: a GtsearchError becomes one line on
standard error (:func:`report`) and its exit status; output goes through
:func:`write_output` or click.echo, and a standard output that cannot be
written is an error too (see :class:`gtsearch.cli.GtsearchGroup`).  The options
are declared in :mod:`.options`.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import click

from ..errors import GtsearchError, UsageError, os_reason

if TYPE_CHECKING:  # the group imports this module: --help and --version need none of these
    from ..algorithms import Algorithm
    from ..algorithms.params import Params
    from ..numbers import Number
    from ..result import SearchResult
    from ..tree import Tree

#: exit statuses (docs/commands.md "Exit status"); GtsearchError subclasses carry theirs
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_OUTPUT = 2  # standard output closed or failing, like an unwritable -o FILE
EXIT_MEMORY = 2  # out of memory: the input asks for more than the machine has, like a bad file

STDIN = "-"
#: errors of a write that mean the output is lost (a closed descriptor, a full disk, ...)
WRITE_ERRORS = frozenset(
    {errno.EBADF, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EROFS}
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


def out_of_memory() -> GtsearchError:
    """The error to report when memory ran out (a MemoryError from the C core or Python)."""
    err = GtsearchError("out of memory: the tree or the search needs more than this machine has")
    err.exit_code = EXIT_MEMORY
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
    """Write ``text`` to the file ``path`` (UTF-8, ``\\n`` line ends), whole or not at all
    (:mod:`gtsearch.files`: a temporary file beside it, renamed over it when whole)."""
    from ..files import write_text_file

    try:
        write_text_file(path, text)
    except OSError as e:
        raise GtsearchError(f"{path}: cannot write: {os_reason(e)}") from None


def write_output(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``, or to standard output for '-'."""
    if path == STDIN:
        click.echo(text, nl=False)
    else:
        write_file(path, text)


def echo_registry(
    output_format: str,
    entries: Sequence[Any],
    table: Callable[[Any, Any], None],
    record: Callable[[Any], dict[str, Any]],
    text: Callable[[Any], str],
) -> None:
    """A registry listed (``gtsearch algorithms``, ``gtsearch games``): ``table(entries,
    console)`` on a terminal, JSON lines of ``record(entry)``, or the aligned ``text``."""
    if output_format == "table":
        from ..render.console import console

        table(entries, console())
    elif output_format == "json":
        from ..render.tables import json_records

        click.echo(json_records(record(e) for e in entries), nl=False)
    else:
        click.echo(text(entries), nl=False)


def format_of_output(output: str | None) -> str:
    """The format named by OUT's extension, or a usage error saying to give --to."""
    from ..formats import format_for_path
    from .options import FORMAT_NAMES

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
    path: str,
    input_format: str | None,
    max_nodes: int,
    *,
    whole: bool = False,
    depth: int | None = None,
    on_demand: bool = False,
    moves: str | None = None,
    estimate: str | None = None,
    root: str | None = None,
) -> tuple[Tree, float]:
    """Load one tree file and time it (the time goes into every result for that file).

    A source (``random:...``, ``game:...``, docs/sources.md) is opened instead: expanded as
    the search reaches it, --max-nodes bounding the nodes visited; ``whole``
    (show, trace, convert, validate) builds it in full, bounded by --max-nodes.
    ``depth`` (--depth) cuts a game before its states are counted; ``on_demand``: a game with
    too many states to count is searched on demand (the searches to run can).  ``moves`` and
    ``estimate`` (--moves, --estimate) apply to a game only; ``root`` (--root, applied by the
    caller) is refused by a game that says who moves (:func:`rooted`), before it is built.
    """
    from ..formats import load_tree
    from ..render.progress import progress
    from ..sources import is_source, open_source, refuse_position

    t0 = time.perf_counter()
    if is_source(path):
        tree = open_source(
            path,
            max_nodes=max_nodes,
            depth=depth,
            on_demand=on_demand,
            moves=moves,
            estimate=estimate,
        )
        if root is not None:
            refuse_root(tree)
        if whole:
            from ..sources import whole as build_whole

            tree = build_whole(tree, max_nodes)
        return tree, time.perf_counter() - t0
    refuse_position(display_name(path), moves, estimate)
    with progress(f"loading {display_name(path)}"):
        tree = load_tree(path, input_format=input_format, max_nodes=max_nodes)
    return tree, time.perf_counter() - t0


def load_with_root(
    path: str,
    root: str | None,
    input_format: str | None,
    max_nodes: int,
    whole: bool = True,
    moves: str | None = None,
    estimate: str | None = None,
) -> Tree:
    """Load one tree file (a source in full, unless not ``whole``) and apply --root;
    ``moves`` and ``estimate``: --moves and --estimate of a game."""
    tree, _seconds = load(
        path, input_format, max_nodes, whole=whole, moves=moves, estimate=estimate, root=root
    )
    return rooted(tree, root)


def rooted(tree: Tree, root: str | None) -> Tree:
    """``tree`` with --root's player to move at the root (None: as it is).  A game whose
    ``player()`` says who moves takes no --root, as it takes no ``root`` attribute
    (docs/sources.md): one line, exit 2."""
    if root is None:
        return tree
    refuse_root(tree)
    return tree.with_root(root.lower() == "max")


def refuse_root(tree: Tree) -> None:
    """The one line of --root on a game whose ``player()`` says who moves."""
    game = getattr(tree, "game", None)
    if game is not None and game.has_player:
        raise UsageError(
            f"{tree.source}: the game says who moves (its player()), so --root does not "
            "apply: drop --root"
        )


class Loaded(NamedTuple):
    """One FILE of eval or compare, loaded and ready to search."""

    name: str  # as the user named it ('<stdin>' for '-')
    tree: Tree  # --root and --depth applied
    seconds: float  # to load it
    #: the value it must have: --expect, else the file's 'expect:' where it still applies
    expected: Number | None
    #: where the file states that value (line, column), when the file's is checked
    at: tuple[int, int] | None
    searches: list[tuple[Algorithm, Params]]


class Evaluation:
    """What eval and compare do with their FILEs: each loaded (a source opened) with --root
    and --depth applied, its searches planned, and every problem reported as it comes.

    The arguments are the commands' options (they hand them on as keyword
    arguments).  The algorithms and their numbers are planned once, before any
    file is read; on a tree with chance nodes 'all' means the algorithms that
    search them, and any other algorithm is refused (one line naming the file).
    ``status`` is the exit status so far; :meth:`done` exits with it.
    """

    def __init__(
        self,
        *,
        files: Sequence[str],
        algos: Sequence[str],
        bound: Number | None,
        leaf_bounds: tuple[Number, Number] | None,
        root: str | None,
        depth: int | None,
        expect: Number | None,
        input_format: str | None,
        max_nodes: int,
        alpha: Number | None = None,
        beta: Number | None = None,
        variant: str | None = None,
        tt: int = 0,
        history: bool = False,
        killers: bool = False,
        moves: str | None = None,
        estimate: str | None = None,
        **mcts: Any,
    ) -> None:
        from ..algorithms import plan
        from ..algorithms.params import SearchParams

        check_stdin_once(files)
        self.moves, self.estimate = moves, estimate  # a game's position and estimate
        self.files, self.algos = files, algos
        self.numbers = SearchParams(
            bound=bound, alpha=alpha, beta=beta, variant=variant, leaf_bounds=leaf_bounds, tt=tt
        )
        self.numbers["history"], self.numbers["killers"] = history, killers  # move ordering
        self.numbers.update(cast(SearchParams, mcts))  # mcts's: --iterations, --seed, ...
        self.root, self.depth, self.expect = root, depth, expect
        self.input_format, self.max_nodes = input_format, max_nodes
        #: the searches of a tree without chance nodes (bound, alpha, beta, leaf bounds)
        self.planned = plan(algos, **self.numbers)
        self.status = 0

    def __iter__(self) -> Iterator[Loaded]:
        for path in self.files:
            try:
                loaded = self.load(path)
            except GtsearchError as err:
                self.report(err)
                continue
            yield loaded

    def load(self, path: str) -> Loaded:
        """Load a file, apply --root/--depth, and say which value it must have.

        A file's 'expect:' applies unless --expect replaces it or --root/--depth
        change the tree it was written for.
        """
        root, depth = self.root, self.depth
        game = path.startswith("game:")  # cut before its states are counted
        on_demand = game and self.on_demand()
        tree, seconds = load(
            path,
            self.input_format,
            self.max_nodes,
            depth=depth if game else None,
            on_demand=on_demand,
            moves=self.moves,
            estimate=self.estimate,
        )
        expected, at = self.expect, None
        if expected is None and tree.meta.expect is not None:
            changed_root = root is not None and (root.lower() == "max") != tree.root_max
            cut = depth is not None and depth < tree.max_depth()
            if not (changed_root or cut):
                expected, at = tree.meta.expect, tree.meta.expect_at
        tree = rooted(tree, root)
        if depth is not None and not game:
            tree = tree.truncated(depth)
        from ..algorithms import plan
        from ..algorithms.params import refuse_chance

        searches = self.planned
        if tree.has_chance:
            searches = plan(self.algos, chance=True, **self.numbers)
        for algo, _params in searches:
            refuse_chance(algo, tree)
        return Loaded(display_name(path), tree, seconds, expected, at, searches)

    def on_demand(self) -> bool:
        """Whether every search planned can run on a game searched on demand."""
        from ..sources.ondemand import searched_on_demand

        tt = self.numbers.get("tt")
        return all(searched_on_demand(algo.name, tt) for algo, _ in self.planned)

    def report(self, err: GtsearchError) -> None:
        """Report a problem (one line) and keep the worst exit status."""
        self.status = max(self.status, report(err))

    def done(self) -> None:
        """End the command with the exit status of the problems reported."""
        if self.status:
            raise click.exceptions.Exit(self.status)


def run_search(
    name: str, tree: Tree, algo: Algorithm, params: Params, leaves: bool = False
) -> SearchResult:
    """search(), with a progress display on a terminal's stderr when it takes a while."""
    from ..algorithms import run
    from ..algorithms.base import Stats
    from ..render.progress import progress

    stats = Stats()
    with progress(f"{algo.name} on {name}", count=stats.count, total=tree.n_leaves):
        return run(tree, algo, params, leaf_order=leaves, stats=stats)
