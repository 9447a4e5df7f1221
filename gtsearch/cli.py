"""The command line (click only): parse options, load, search, render, map errors to exit codes."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import click

from .algorithms import ALGORITHMS, Algorithm, find_algorithm, search
from .errors import CheckFailed, GtsearchError, UsageError
from .formats import FORMATS, dump_tree, load_tree
from .numbers import Number, agrees, format_number, parse_number
from .render import (Row, algorithm_dict, algorithms_text, csv_text, format_value, json_lines,
                     render_algorithms, render_table, summary_line)
from .result import SearchResult
from .tree import DEFAULT_MAX_NODES, Tree

if TYPE_CHECKING:
    from rich.console import Console

#: exit statuses (README "Exit status"); GtsearchError subclasses carry theirs
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE
EXIT_INTERRUPTED = 130  # 128 + SIGINT

FORMAT_NAMES = [f.name for f in FORMATS]
STDIN = "-"


class NumberParam(click.ParamType):
    """An int when typed as one (``3``), else a finite float (``2.5``)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Number:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        try:
            return parse_number(str(value))
        except ValueError as e:
            self.fail(f"{e}; give a finite number such as 3 or -2.5", param, ctx)


NUMBER = NumberParam()


#: commands kept in modules of their own, imported only when run or listed, so that
#: ``gtsearch eval`` on a small tree starts fast: name -> "module:attribute"
LAZY_COMMANDS: dict[str, str] = {
    "gen": "gtsearch.cli_gen:gen_command",
    "show": "gtsearch.cli_show:show_command",
    "trace": "gtsearch.cli_show:trace_command",
    "compare": "gtsearch.cli_research:compare_command",
    "experiment": "gtsearch.cli_research:experiment_command",
}


class GtsearchGroup(click.Group):
    """The command group; it turns errors, ^C and a closed pipe into exit statuses."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS:
            import importlib

            module, attr = LAZY_COMMANDS[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attr)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                # a closed pipe may only show when the last buffered output is flushed;
                # with file descriptor 1 closed there is no sys.stdout at all
                if sys.stdout is not None:
                    sys.stdout.flush()
        except GtsearchError as err:
            _error(err)
            raise click.exceptions.Exit(err.exit_code) from None
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(EXIT_BROKEN_PIPE) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


def _error(err: GtsearchError) -> None:
    """Report an error the user can fix: exactly one line on standard error."""
    click.echo(" ".join(str(err).split("\n")), err=True)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (tests) or stdout closed
        pass


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from . import __version__

    click.echo(f"gtsearch {__version__}")
    ctx.exit()


def _stdout_is_terminal() -> bool:
    stream = sys.stdout
    return stream is not None and stream.isatty()


def _console() -> Console:
    from rich.console import Console

    # rich assumes 80 columns off a terminal; a table written to a file or a
    # pipe reads better unfolded, unless the user set COLUMNS
    wide = not _stdout_is_terminal() and "COLUMNS" not in os.environ
    return Console(highlight=False, width=200 if wide else None)


def _display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _load(path: str, input_format: str | None, max_nodes: int) -> tuple[Tree, float]:
    """Load one tree file and time it (the time goes into every result for that file)."""
    from .progress import progress

    t0 = time.perf_counter()
    with progress(f"loading {_display_name(path)}"):
        tree = load_tree(path, input_format=input_format, max_nodes=max_nodes)
    return tree, time.perf_counter() - t0


def _prepare(path: str, root: str | None, depth: int | None, expect: Number | None,
             input_format: str | None, max_nodes: int) -> tuple[Tree, float, Number | None]:
    """Load a file, apply --root/--depth, and say which value it must have.

    A file's 'expect:' applies unless --expect replaces it or --root/--depth
    change the tree it was written for.
    """
    tree, load_seconds = _load(path, input_format, max_nodes)
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


def _search(name: str, tree: Tree, algo: Algorithm, leaves: bool,
            params: dict[str, Number]) -> SearchResult:
    """search(), with a progress display on a terminal's stderr when it takes a while."""
    from .algorithms import Stats
    from .progress import progress

    stats = Stats()
    with progress(f"{algo.name} on {name}", count=lambda: len(stats.leaves), total=tree.n_leaves):
        return search(tree, algo, leaf_order=leaves, stats=stats, **params)


def _check_stdin_once(files: Sequence[str]) -> None:
    if sum(1 for f in files if f == STDIN) > 1:
        raise UsageError("standard input ('-') can be read only once; name it once")


# -- shared options ------------------------------------------------------------------
input_format_option = click.option(
    "--input-format", type=click.Choice(FORMAT_NAMES, case_sensitive=False), default=None,
    help="Format of the input files (default: from the extension; for '-', sniffed: "
         "'(' s-expression, '[' or '{' JSON, else YAML).")
max_nodes_option = click.option(
    "--max-nodes", type=click.IntRange(min=1), default=DEFAULT_MAX_NODES, show_default=True,
    metavar="N", help="Refuse trees with more nodes than this (YAML aliases expanded).")
files_argument = click.argument("files", metavar="FILE...", nargs=-1, required=True)
#: options that eval, compare and show share
alpha_option = click.option("--alpha", type=NUMBER, default=None, metavar="A",
                            help="Lower end of alphabeta's window (default -inf).")
beta_option = click.option("--beta", type=NUMBER, default=None, metavar="B",
                           help="Upper end of alphabeta's window (default +inf).")
root_option = click.option("--root", type=click.Choice(["max", "min"], case_sensitive=False),
                           default=None, help="Player to move at the root, overriding the file.")
depth_option = click.option(
    "--depth", type=click.IntRange(min=0), default=None, metavar="N",
    help="Cut the tree at depth N: nodes there count as leaves worth their static value.")


@click.group(cls=GtsearchGroup, context_settings={"help_option_names": ["-h", "--help"],
                                                  "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and exit.")
def cli() -> None:
    """Evaluate two-player game trees with minimax, alpha-beta, SSS* and DUAL*.

    Trees are YAML, JSON or s-expression files ('-' reads standard input).
    Every algorithm reports its value, principal variation and the exact
    number of leaves it evaluated.

    \b
    Examples:
      gtsearch eval tree.yaml
      gtsearch eval -a all --format json trees/*.json
      echo '((3 12 8) (2 4 6) (14 5 2))' | gtsearch eval -
      gtsearch algorithms

    \b
    Exit status:
      0  success
      1  a check failed (--expect, or an 'expect:' in the file)
      2  usage error or bad input file
      130 interrupted; 141 output pipe closed early
    """


# -- eval --------------------------------------------------------------------------------
def _plan(names: Sequence[str], bound: Number | None, alpha: Number | None,
          beta: Number | None) -> list[tuple[Algorithm, dict[str, Number]]]:
    """The algorithms to run, each with the parameters it takes.

    Algorithms named one by one must accept every option given; ``all``
    hands each option only to the algorithms that take it.
    """
    chosen: dict[str, tuple[Algorithm, bool]] = {}  # name -> (entry, named explicitly)
    for raw in names or ("alphabeta",):
        for name in raw.split(","):
            name = name.strip()
            if not name:
                continue
            if name.lower() == "all":
                for algo in ALGORITHMS:
                    if not algo.needs_bound:
                        chosen.setdefault(algo.name, (algo, False))
            else:
                algo = find_algorithm(name)
                chosen[algo.name] = (algo, True)
    if not chosen:
        raise UsageError("--algo names no algorithm; give a name such as alphabeta, or 'all'")
    if alpha is not None and beta is not None and not alpha < beta:
        raise UsageError(f"the window needs alpha < beta, got --alpha {format_number(alpha)} "
                         f"--beta {format_number(beta)}")
    takers = ", ".join(a.name for a in ALGORITHMS if a.takes == "bound")
    plan: list[tuple[Algorithm, dict[str, Number]]] = []
    for algo, explicit in chosen.values():
        params: dict[str, Number] = {}
        if bound is not None:
            if algo.takes == "bound":
                params["bound"] = bound
            elif explicit:
                raise UsageError(f"--bound does not apply to {algo.name}; it is for {takers}: "
                                 "drop --bound or choose one of those with --algo")
        elif algo.needs_bound:
            raise UsageError(f"{algo.name} needs a bound: add --bound V")
        for key, v in (("alpha", alpha), ("beta", beta)):
            if v is not None:
                if algo.takes == "window":
                    params[key] = v
                elif explicit:
                    raise UsageError(f"--alpha/--beta apply to alphabeta only, not to {algo.name}: "
                                     "drop them or choose alphabeta with --algo")
        plan.append((algo, params))
    return plan


def _mismatch(file: str, expected: Number, result: SearchResult) -> CheckFailed | None:
    """The check failure when ``result`` contradicts the expected value, else None."""
    if agrees(result.value, result.bound, expected):
        return None
    return CheckFailed(f"{file}: {result.algorithm}: value {format_value(result)}, "
                       f"expected {format_number(expected)}")


@cli.command("eval")
@files_argument
@click.option("-a", "--algo", "algos", multiple=True, metavar="NAME",
              help="Algorithm to run (repeatable, or a comma list; default alphabeta). "
                   "Aliases work (ab, f2, sss*, dual*, bs*...). 'all' runs every algorithm "
                   "that needs no bound. See 'gtsearch algorithms'.")
@click.option("--bound", type=NUMBER, default=None, metavar="V",
              help="Bound for f1 (default +inf), sss-bounded (V) and dual-bounded (L). With "
                   "'--algo all' it goes to those of them that take one.")
@alpha_option
@beta_option
@root_option
@depth_option
@click.option("--format", "output_format", type=click.Choice(["table", "json", "csv"]),
              default=None,
              help="Output: a table, JSON lines (one object per file and algorithm) or CSV. "
                   "Default: table on a terminal, json when standard output is not a terminal.")
@click.option("--leaves", is_flag=True,
              help="Also list the evaluated leaves in order (paths of child indices).")
@click.option("--expect", type=NUMBER, default=None, metavar="V",
              help="Expected value: a result that contradicts it prints a line on standard "
                   "error and makes the exit status 1. Replaces the file's 'expect:'.")
@input_format_option
@max_nodes_option
def eval_command(files: tuple[str, ...], algos: tuple[str, ...], bound: Number | None,
                 alpha: Number | None, beta: Number | None, root: str | None,
                 depth: int | None, output_format: str | None, leaves: bool,
                 expect: Number | None, input_format: str | None, max_nodes: int) -> None:
    """Evaluate each FILE with each algorithm.

    '-' reads the tree from standard input. Each file is loaded once; every
    result reports its own search time and the file's load time. A file's
    'expect:' is checked too, unless --expect replaces it or --root/--depth
    change the tree so that it no longer applies. A bound result (printed
    with ≥ or ≤) is checked for consistency with the expected value.

    \b
    Examples:
      gtsearch eval tree.yaml
      gtsearch eval -a alphabeta -a sss --leaves tree.sexp
      gtsearch eval -a all --format csv a.json b.yaml > results.csv
      gtsearch eval -a f1 --bound 5 --root min tree.json
      gtsearch eval --expect 3 --format json tests/*.yaml
    """
    _check_stdin_once(files)
    plan = _plan(algos, bound, alpha, beta)
    fmt = output_format or ("table" if _stdout_is_terminal() else "json")
    status = 0
    rows: list[Row] = []
    for path in files:
        name = _display_name(path)
        try:
            tree, load_seconds, expected = _prepare(path, root, depth, expect, input_format, max_nodes)
        except GtsearchError as err:
            _error(err)
            status = max(status, err.exit_code)
            continue
        for algo, params in plan:
            result = _search(name, tree, algo, leaves, params)
            row: Row = (name, load_seconds, result)
            if fmt == "json":
                click.echo(json_lines([row]), nl=False)
            else:
                rows.append(row)
            if expected is not None:
                failed = _mismatch(name, expected, result)
                if failed is not None:
                    _error(failed)
                    status = max(status, failed.exit_code)
    if fmt == "table" and rows:
        render_table(rows, _console())
    elif fmt == "csv":
        click.echo(csv_text(rows), nl=False)
    if status:
        raise click.exceptions.Exit(status)


# -- algorithms --------------------------------------------------------------------------
@cli.command("algorithms")
@click.option("--format", "output_format", type=click.Choice(["table", "text", "json"]),
              default=None,
              help="A table, aligned text lines, or JSON lines. Default: table on a terminal, "
                   "text otherwise.")
def algorithms_command(output_format: str | None) -> None:
    """List the algorithms: name, aliases, the options they take, and what they do.

    \b
    Examples:
      gtsearch algorithms
      gtsearch algorithms --format json
    """
    fmt = output_format or ("table" if _stdout_is_terminal() else "text")
    if fmt == "table":
        render_algorithms(ALGORITHMS, _console())
    elif fmt == "json":
        click.echo(_json_lines(algorithm_dict(a) for a in ALGORITHMS), nl=False)
    else:
        click.echo(algorithms_text(ALGORITHMS), nl=False)


def _json_lines(records: Iterable[dict[str, Any]]) -> str:
    import json

    return "".join(json.dumps(r, allow_nan=False) + "\n" for r in records)


# -- validate ----------------------------------------------------------------------------
@cli.command("validate")
@files_argument
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="One line per file, or one JSON object per file (bad files get "
                   "\"ok\": false and the error).")
@input_format_option
@max_nodes_option
def validate_command(files: tuple[str, ...], output_format: str, input_format: str | None,
                     max_nodes: int) -> None:
    """Check tree files and summarise each: nodes, leaves, depth, branching.

    Every file is checked; the good ones are summarised on standard output, the
    bad ones get one line each on standard error, and the exit status is 2 if
    any file is bad.

    \b
    Examples:
      gtsearch validate tree.yaml
      gtsearch validate --format json trees/*
    """
    from .summary import summarize

    _check_stdin_once(files)
    status = 0
    for path in files:
        name = _display_name(path)
        try:
            tree, _load_seconds = _load(path, input_format, max_nodes)
        except GtsearchError as err:
            _error(err)
            status = max(status, err.exit_code)
            if output_format == "json":
                click.echo(_json_lines([{"file": name, "ok": False, "error": str(err)}]), nl=False)
            continue
        summary = summarize(tree)
        if output_format == "json":
            click.echo(_json_lines([{"file": name, "ok": True, **summary}]), nl=False)
        else:
            click.echo(summary_line(name, summary))
    if status:
        raise click.exceptions.Exit(status)


# -- convert -----------------------------------------------------------------------------
@cli.command("convert")
@click.argument("file", metavar="FILE")
@click.option("--to", "to_format", type=click.Choice(FORMAT_NAMES, case_sensitive=False),
              default=None,
              help="Output format; may be left out when -o names a file with a known extension.")
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write to OUT instead of standard output.")
@input_format_option
@max_nodes_option
def convert_command(file: str, to_format: str | None, output: str | None,
                    input_format: str | None, max_nodes: int) -> None:
    """Convert a tree file to another format without loss.

    Structure, order, names, values, static values, the root player and the
    metadata all survive the round trip.

    \b
    Examples:
      gtsearch convert tree.yaml --to sexp
      gtsearch convert tree.json -o tree.yaml
      cat tree.sexp | gtsearch convert - --to json -o tree.json
    """
    if to_format is None:
        to_format = _format_of_output(output)
    tree, _load_seconds = _load(file, input_format, max_nodes)
    text = dump_tree(tree, to_format.lower())
    if not text.endswith("\n"):
        text += "\n"
    write_output(STDIN if output is None else output, text)


def write_output(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``, or to standard output for '-'."""
    if path == STDIN:
        click.echo(text, nl=False)
        return
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise GtsearchError(f"{path}: cannot write: {e.strerror or e}") from None


def _format_of_output(output: str | None) -> str:
    """The format named by OUT's extension, or a usage error saying to give --to."""
    choices = ", ".join(FORMAT_NAMES)
    if output is None or output == STDIN:
        raise UsageError(f"give the output format with --to ({choices})")
    from .formats import format_for_path

    fmt = format_for_path(output)
    if fmt is None:
        raise UsageError(f"cannot tell the format of {output!r} from its extension; "
                         f"give --to ({choices})")
    return fmt.name

