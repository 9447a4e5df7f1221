"""``gtsearch algorithms`` and ``gtsearch validate``: what gtsearch offers, what a file holds."""

from __future__ import annotations

import click

from ..algorithms import EVERY
from ..errors import GtsearchError
from ..render.tables import (
    algorithm_dict,
    algorithms_text,
    json_records,
    render_algorithms,
    summary_line,
)
from .common import check_stdin_once, display_name, echo_registry, load, report
from .options import files_argument, format_option, input_options, listing_format_option


@click.command("algorithms")
@listing_format_option
def algorithms_command(output_format: str) -> None:
    """List the algorithms: name, aliases, the options they take, and what they do.

    \b
    Examples:
      gtsearch algorithms
      gtsearch algorithms --format json
    """
    echo_registry(output_format, EVERY, render_algorithms, algorithm_dict, algorithms_text)


@click.command("validate")
@files_argument()
@format_option(
    ["text", "json"],
    'One line per file, or one JSON object per file (bad files get "ok": false and the error).',
    "text",
)
@input_options
def validate_command(
    files: tuple[str, ...], output_format: str, input_format: str | None, max_nodes: int
) -> None:
    """Check tree files and summarise each: nodes, leaves, depth, branching.

    Every file is checked; the good ones are summarised on standard output, the
    bad ones get one line each on standard error, and the exit status is 2 if
    any file is bad.

    \b
    Examples:
      gtsearch validate sample_trees/aima-fig5-2.yaml
      gtsearch validate --format json sample_trees/*
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
