"""``gtsearch eval``: evaluate tree files with algorithms; a table, JSON lines or CSV."""

from __future__ import annotations

import click

from ..algorithms import plan
from ..errors import GtsearchError
from ..numbers import Number
from ..render.console import console, stdout_is_terminal
from ..render.tables import Row, csv_text, json_lines, render_table
from ..research.compare import mismatch
from .common import (
    NUMBER,
    alpha_option,
    beta_option,
    check_stdin_once,
    complete_algorithms,
    depth_option,
    display_name,
    expect_place,
    files_argument,
    input_format_option,
    leaf_bounds_option,
    max_nodes_option,
    plan_for_tree,
    prepare,
    report,
    root_option,
    run_search,
)


@click.command("eval")
@files_argument
@click.option(
    "-a",
    "--algo",
    "algos",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_algorithms,
    help="Algorithm to run (repeatable, or a comma list; default alphabeta). "
    "Aliases work (ab, f2, sss*, dual*, bs*...). 'all' runs every algorithm "
    "that needs no bound; on a tree with chance nodes, expectiminimax, star1 "
    "and star2. See 'gtsearch algorithms'.",
)
@click.option(
    "--bound",
    type=NUMBER,
    default=None,
    metavar="V",
    help="Bound for f1 (default +inf), sss-bounded (V) and dual-bounded (L), or mtdf's first "
    "guess (default 0). With '--algo all' it goes to those of them that take one.",
)
@alpha_option
@beta_option
@leaf_bounds_option
@root_option
@depth_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "csv"]),
    default=None,
    help="Output: a table, JSON lines (one object per file and algorithm) or CSV. "
    "Default: table on a terminal, json when standard output is not a terminal.",
)
@click.option(
    "--leaves",
    is_flag=True,
    help="Also list the evaluated leaves in order (paths of child indices).",
)
@click.option(
    "--expect",
    type=NUMBER,
    default=None,
    metavar="V",
    help="Expected value: a result that contradicts it prints a line on standard "
    "error and makes the exit status 1. Replaces the file's 'expect:'.",
)
@input_format_option
@max_nodes_option
def eval_command(
    files: tuple[str, ...],
    algos: tuple[str, ...],
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    leaf_bounds: tuple[Number, Number] | None,
    root: str | None,
    depth: int | None,
    output_format: str | None,
    leaves: bool,
    expect: Number | None,
    input_format: str | None,
    max_nodes: int,
) -> None:
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
      gtsearch eval -a star1,star2 --leaf-bounds -100:100 dice.yaml
    """
    check_stdin_once(files)
    planned = plan(algos, bound=bound, alpha=alpha, beta=beta, leaf_bounds=leaf_bounds)
    fmt = output_format or ("table" if stdout_is_terminal() else "json")
    status = 0
    rows: list[Row] = []
    for path in files:
        name = display_name(path)
        try:
            tree, load_seconds, expected = prepare(
                path, root, depth, expect, input_format, max_nodes
            )
            searches = plan_for_tree(tree, planned, algos, bound, alpha, beta, leaf_bounds)
        except GtsearchError as err:
            status = max(status, report(err))
            continue
        at = expect_place(tree, expect, expected)
        for algo, params in searches:
            result = run_search(name, tree, algo, params, leaves)
            row: Row = (name, load_seconds, result)
            if fmt == "json":
                click.echo(json_lines([row]), nl=False)
            else:  # kept for the table: without the tree, so that each file's is freed
                rows.append((name, load_seconds, result._replace(tree=None)))
            if expected is not None:
                failed = mismatch(name, expected, result, at)
                if failed is not None:
                    status = max(status, report(failed))
    if fmt == "table" and rows:
        render_table(rows, console())
    elif fmt == "csv":
        click.echo(csv_text(rows), nl=False)
    if status:
        raise click.exceptions.Exit(status)
