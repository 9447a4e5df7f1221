"""gtsearch.cli: the command line (click only): parse, call the library, hand results to render.

Owns the commands and everything a user sees of errors: one module per
command group (:mod:`.evaluate`: eval; :mod:`.info`: algorithms, validate;
:mod:`.convert`: convert, gen; :mod:`.show`: show, trace; :mod:`.research`:
compare, experiment; :mod:`.exercise`: exercise; :mod:`.integration`: schema, completion; :mod:`.games`:
games, play), the
options, each declared once, in :mod:`.options` (the types that parse and check
their values in :mod:`.values`), loading and error lines in :mod:`.common`, and
here the group that maps errors, ^C, a closed pipe and an unwritable standard
output to exit statuses.  The only package that imports
click; it may import every other layer.  Command modules are imported only
when their command runs or is listed, so ``gtsearch eval`` starts fast.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import GtsearchError
from .common import (
    ANNOTATE,
    ANNOTATIONS,
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    ClosedStdout,
    out_of_memory,
    output_error,
    report,
    silence_stdout,
)

#: every command: name -> "module:attribute", imported when it runs or is listed
COMMANDS: dict[str, str] = {
    "eval": "gtsearch.cli.evaluate:eval_command",
    "algorithms": "gtsearch.cli.info:algorithms_command",
    "games": "gtsearch.cli.games:games_command",
    "play": "gtsearch.cli.games:play_command",
    "validate": "gtsearch.cli.info:validate_command",
    "convert": "gtsearch.cli.convert:convert_command",
    "gen": "gtsearch.cli.convert:gen_command",
    "show": "gtsearch.cli.show:show_command",
    "trace": "gtsearch.cli.show:trace_command",
    "compare": "gtsearch.cli.research:compare_command",
    "experiment": "gtsearch.cli.research:experiment_command",
    "exercise": "gtsearch.cli.exercise:exercise_command",
    "solve": "gtsearch.cli.solve:solve_command",
    "schema": "gtsearch.cli.integration:schema_command",
    "completion": "gtsearch.cli.integration:completion_command",
}


#: each command's first sentence, as ``gtsearch --help`` lists it without importing the
#: command (tests/test_cli.py checks it against the command's own help)
SUMMARIES: dict[str, str] = {
    "algorithms": "List the algorithms: name, aliases, the options they take, and what they do.",
    "compare": "Run every algorithm on each FILE, side by side, and check that they agree.",
    "completion": "Print the completion script of SHELL: bash, zsh or fish.",
    "convert": "Convert a tree file to another format.",
    "eval": "Evaluate each FILE with each algorithm.",
    "exercise": "Make exercises: trees to search by hand, their questions and the answer key.",
    "experiment": "Run the algorithms over seeded random trees and report mean leaves ± "
    "standard error.",
    "games": "List the built-in games: name, parameters with their defaults, what they are.",
    "gen": "Write a uniform random (or ordered) tree, streaming in constant memory.",
    "play": "Play GAME against an engine: any algorithm, to a depth, for a time or (mcts) for "
    "a number of iterations.",
    "schema": "Print the JSON Schema (draft 2020-12) of JSON and YAML tree files.",
    "show": "Draw the tree as one algorithm searched it.",
    "solve": "Solve a game (or a tree) whose leaves are wins, draws and losses.",
    "trace": "Follow one search step by step.",
    "validate": "Check tree files and summarise each: nodes, leaves, depth, branching.",
}


class GtsearchGroup(click.Group):
    """The command group; it turns errors, ^C and a closed or failing output into exit statuses."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands of ``--help`` from :data:`SUMMARIES`: listing them imports none."""
        names = self.list_commands(ctx)
        width = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            if name in self.commands or name not in SUMMARIES:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(width)))
            else:
                summary = click.Command(name, help=SUMMARIES[name])  # its first sentence
                rows.append((name, summary.get_short_help_str(width)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in COMMANDS:
            import importlib

            module, attr = COMMANDS[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attr)
        return command

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # with file descriptor 1 closed Python has no sys.stdout: output must fail, not vanish
        closed = sys.stdout is None
        if closed:
            sys.stdout = ClosedStdout()  # a stand-in with write(), flush(), isatty()
        try:
            return super().main(*args, **kwargs)
        except OSError as e:  # writing --help or --version, before any command runs
            failed = output_error(e)
            if failed is None:
                raise
            silence_stdout()
            sys.exit(report(failed))
        finally:
            if closed:
                sys.stdout = None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                # a closed pipe or a full disk may only show when the last output is flushed
                sys.stdout.flush()
        except GtsearchError as err:
            raise click.exceptions.Exit(report(err)) from None
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_BROKEN_PIPE) from None
        except MemoryError:
            raise click.exceptions.Exit(report(out_of_memory())) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except OSError as e:
            failed = output_error(e)
            if failed is None:
                raise
            silence_stdout()
            raise click.exceptions.Exit(report(failed)) from None


def _set_annotate(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[ANNOTATE] = value.lower()


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from .. import __version__
    from ..core import name

    click.echo(f"gtsearch {__version__} (core: {name()})")
    ctx.exit()


@click.group(
    cls=GtsearchGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "--annotate",
    type=click.Choice(ANNOTATIONS, case_sensitive=False),
    default=None,
    expose_value=False,
    callback=_set_annotate,
    help="Also print failed checks and bad input as CI annotations: 'github' for GitHub "
    "Actions' '::error file=...,line=...::...' lines on standard error. Default: github "
    "when GITHUB_ACTIONS=true, else none.",
)
def cli() -> None:
    """Search game trees with minimax, alpha-beta, SSS*, NegaScout, MTD(f), Star1, MCTS and more.

    Trees have two players and may have chance nodes. They come from files
    (YAML, JSON, s-expressions, Gambit .efg; '-' reads standard input), from
    seeded random sources (random:b=3,d=4,seed=1) or from games
    (game:tictactoe, game:connect4:rows=4, 'gtsearch games'; OpenSpiel's;
    your own). Every algorithm ('gtsearch algorithms') reports its value,
    principal variation and the exact number of leaves it evaluated (--tt
    adds a transposition table; mcts is seeded and repeatable). solve finds
    a game's win, draw or loss, compare sets the algorithms side by side, experiment sweeps them over seeded
    random trees, show draws a search (terminal, SVG, DOT, TikZ, an HTML
    replay), trace follows it step by step, exercise writes exercises with
    their answer keys, and play plays a game against any algorithm.

    \b
    Examples:
      gtsearch eval sample_trees/aima-fig5-2.yaml
      gtsearch eval sample:aima-fig5-2
      gtsearch eval -a all --format json sample_trees/*.json
      echo '((3 12 8) (2 4 6) (14 5 2))' | gtsearch eval -
      gtsearch compare random:b=3,d=4,seed=1
      gtsearch algorithms

    \b
    Exit status:
      0  success
      1  a check failed (--expect, an 'expect:' in the file, or the algorithms of compare
         or experiment disagree)
      2  usage error, bad input file, output that cannot be written, or out of memory
      130 interrupted; 141 output pipe closed early
    """


__all__ = ["COMMANDS", "SUMMARIES", "GtsearchGroup", "cli"]
