"""``gtsearch eval``: evaluate tree files with algorithms; a table, JSON lines or CSV."""

from __future__ import annotations

from typing import Any

import click

from ..algorithms.params import named
from ..errors import UsageError
from ..render.console import console
from ..render.tables import Row, csv_text, json_lines, render_table
from ..research.compare import mismatch
from ..result import SearchResult
from .common import Evaluation, Loaded, run_search
from .options import (
    algo_option,
    bound_option,
    expect_option,
    files_argument,
    input_options,
    iterative_option,
    leaf_bounds_option,
    mcts_options,
    ordering_options,
    results_format_option,
    tree_options,
    tt_option,
    window_options,
)


@click.command("eval")
@files_argument()
@algo_option("alphabeta, or star1 on a tree with chance nodes")
@bound_option(several=True)
@window_options
@leaf_bounds_option
@mcts_options(iterative=True)
@tt_option(None)
@ordering_options
@iterative_option
@tree_options
@results_format_option("one record per file and algorithm")
@click.option(
    "--leaves",
    is_flag=True,
    help="Also list the evaluated leaves in order (paths of child indices).",
)
@expect_option
@input_options
def eval_command(
    output_format: str,
    leaves: bool,
    iterative: bool,
    **options: Any,
) -> None:
    """Evaluate each FILE with each algorithm.

    '-' reads the tree from standard input. Each file is loaded once; every
    result reports its own search time and the file's load time. A file's
    'expect:' is checked too, unless --expect replaces it or --root/--depth
    change the tree so that it no longer applies. A bound result (printed
    with ≥ or ≤) is checked for consistency with the expected value.

    \b
    Examples:
      gtsearch eval sample_trees/aima-fig5-2.yaml
      gtsearch eval -a alphabeta -a sss --leaves sample_trees/stockman-binary-d4.sexp
      gtsearch eval -a all --format csv sample_trees/*.json sample_trees/*.sexp > results.csv
      gtsearch eval -a f1 --bound 5 --root min sample_trees/wikipedia-alphabeta.json
      gtsearch eval --expect 3 --format json sample_trees/aima-fig5-2*.yaml
      gtsearch eval -a star1,star2 --leaf-bounds -10:10 sample_trees/chance-worked.yaml
      gtsearch eval -a alphabeta,mtdf --tt 16 game:tictactoe
      gtsearch eval --iterative --time 1 --format json game:connect4
    """
    time_limit = None
    chosen = {a.name for a, _ in named(options["algos"] or ("alphabeta",))}
    if iterative:
        from ..algorithms.solve import DEFAULT_TT

        time_limit = options.pop("seconds")  # --time: mcts's, or here the deepening's
        if chosen != {"alphabeta"}:
            raise UsageError("--iterative deepens alphabeta only: drop --algo or name alphabeta")
        options["tt"] = options["tt"] or DEFAULT_TT
    elif options["seconds"] is not None and "mcts" not in chosen:
        raise UsageError("--time limits mcts or --iterative: add --algo mcts or --iterative")
    evaluation = Evaluation(**options)
    rows: list[Row] = []
    for f in evaluation:
        for algo, params in f.searches:
            if iterative:
                from ..algorithms.iterative import iterate
                from ..algorithms.tabled import move_order

                moves = move_order(f.tree, dict(params))
                found = iterate(f.tree, options["tt"], seconds=time_limit, moves=moves)
                if found and found[-1].extra.get("stopped") == "max_nodes":
                    click.echo(
                        f"{f.name}: depth {len(found) + 1} would number more than --max-nodes "
                        f"{evaluation.max_nodes:,} nodes; the deepening stops at depth {len(found)}",
                        err=True,
                    )
            else:
                found = [run_search(f.name, f.tree, algo, params, leaves)]
            for result in found:
                show(f, result, output_format, rows, evaluation)
    if output_format == "table" and rows:
        render_table(rows, console())
    elif output_format == "csv" and rows:  # no header without a row: every file was bad
        click.echo(csv_text(rows), nl=False)
    evaluation.done()


def show(
    f: Loaded, result: SearchResult, output_format: str, rows: list[Row], evaluation: Evaluation
) -> None:
    """Print one result as JSON, or keep it for the table; check it against the expected value
    (an iteration of --iterative only when it searched the whole tree)."""
    row: Row = (f.name, f.seconds, result)
    if output_format == "json":
        click.echo(json_lines([row]), nl=False)
    else:  # kept for the table: without the tree, so that each file's is freed
        rows.append((f.name, f.seconds, result._replace(tree=None)))
    depth = result.params.get("iteration")
    whole = depth is None or (not f.tree.on_demand and depth >= f.tree.max_depth())
    if f.expected is not None and whole:
        failed = mismatch(f.name, f.expected, result, f.at)
        if failed is not None:
            evaluation.report(failed)
