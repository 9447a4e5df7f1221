"""``gtsearch algorithms`` and ``gtsearch validate``: what gtsearch offers, what a file holds."""

from __future__ import annotations

import click

from ..algorithms import ALGORITHMS
from ..errors import GtsearchError
from ..render.console import console, stdout_is_terminal
from ..render.tables import (
    algorithm_dict,
    algorithms_text,
    json_records,
    render_algorithms,
    summary_line,
)
from .common import (
    check_stdin_once,
    display_name,
    files_argument,
    input_format_option,
    load,
    max_nodes_option,
    report,
)


@click.command("algorithms")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "text", "json"]),
    default=None,
    help="A table, aligned text lines, or JSON lines. Default: table on a terminal, "
    "text otherwise.",
)
def algorithms_command(output_format: str | None) -> None:
    """List the algorithms: name, aliases, the options they take, and what they do.

    \b
    Examples:
      gtsearch algorithms
      gtsearch algorithms --format json
    """
    fmt = output_format or ("table" if stdout_is_terminal() else "text")
    if fmt == "table":
        render_algorithms(ALGORITHMS, console())
    elif fmt == "json":
        click.echo(json_records(algorithm_dict(a) for a in ALGORITHMS), nl=False)
    else:
        click.echo(algorithms_text(ALGORITHMS), nl=False)


@click.command("validate")
@files_argument
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="One line per file, or one JSON object per file (bad files get "
    '"ok": false and the error).',
)
@input_format_option
@max_nodes_option
def validate_command(
    files: tuple[str, ...], output_format: str, input_format: str | None, max_nodes: int
) -> None:
    """Check tree files and summarise each: nodes, leaves, depth, branching.

    Every file is checked; the good ones are summarised on standard output, the
    bad ones get one line each on standard error, and the exit status is 2 if
    any file is bad.

    \b
    Examples:
      gtsearch validate tree.yaml
      gtsearch validate --format json trees/*
    """
    from ..summary import summarize

    check_stdin_once(files)
    status = 0
    for path in files:
        name = display_name(path)
        try:
            tree, _load_seconds = load(path, input_format, max_nodes, whole=True)
        except GtsearchError as err:
            status = max(status, report(err))
            if output_format == "json":
                click.echo(json_records([{"file": name, "ok": False, "error": str(err)}]), nl=False)
            continue
        summary = summarize(tree)
        if output_format == "json":
            click.echo(json_records([{"file": name, "ok": True, **summary}]), nl=False)
        else:
            click.echo(summary_line(name, summary))
    if status:
        raise click.exceptions.Exit(status)
