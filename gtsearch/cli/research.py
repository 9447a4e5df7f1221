"""``gtsearch compare`` and ``gtsearch experiment``: the research workbench on the command line."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from ..algorithms.params import named
from ..errors import UsageError
from ..numbers import Number
from ..render.console import console
from ..render.tables import Row, csv_text, json_lines, json_records
from ..research.compare import compare, disagreements
from .common import Evaluation, run_search, write_file
from .options import (
    algo_option,
    bound_option,
    chance_option,
    count_option,
    drawn,
    expect_option,
    files_argument,
    guess_option,
    input_options,
    int_option,
    leaf_bounds_option,
    max_nodes_option,
    mcts_options,
    ordering_options,
    path_option,
    random_tree_options,
    results_format_option,
    seed_option,
    shape_options,
    tree_options,
    tt_option,
    values_option,
)

if TYPE_CHECKING:
    from ..research.experiment import Sweep


@click.command("compare")
@files_argument()
@algo_option("all")
@bound_option(several=True)
@guess_option(" Overrides --bound for mtdf.")
@leaf_bounds_option
@mcts_options()
@tt_option(None)
@ordering_options
@tree_options
@results_format_option(
    "a table per file; one record per file and algorithm, with 'share' and 'best'"
)
@expect_option
@input_options
def compare_command(guess: Number | None, output_format: str, **options: Any) -> None:
    """Run every algorithm on each FILE, side by side, and check that they agree.

    For each algorithm: the value (≥/≤ for a bound), the leaves it evaluated,
    their share of minimax's leaves (every leaf), the nodes it visited, the
    peak OPEN list of SSS*/DUAL*, MT passes, re-read leaves of NegaScout and
    SCOUT, and the search time. ★ marks the fewest leaves among exact
    results. If two exact results differ, or a bound contradicts them, or
    the file's 'expect:' (or --expect) is contradicted, a line on standard
    error says so and the exit status is 1: a regression check in one command.

    \b
    Examples:
      gtsearch compare sample_trees/*
      gtsearch compare -a alphabeta,negascout,sss,mt-sss sample_trees/aima-fig5-2.yaml
      gtsearch compare --guess 3 --format json sample_trees/wikipedia-alphabeta.json
    """
    from ..render.research import render_compare

    options["algos"] = options["algos"] or ("all",)  # compare runs them all by default
    evaluation = Evaluation(**options)
    if guess is not None:
        planned = evaluation.planned
        if not any(algo.name == "mtdf" for algo, _ in planned):
            raise UsageError(
                "--guess is the first guess of mtdf, which is not among the algorithms: add -a mtdf"
            )
        evaluation.planned = [
            (a, {**p, "bound": guess} if a.name == "mtdf" else p) for a, p in planned
        ]
    out = console() if output_format == "table" else None
    csv_rows: list[Row] = []
    for f in evaluation:
        results = compare(f.tree, f.searches, partial(run_search, f.name, f.tree))
        rows: list[Row] = [(f.name, f.seconds, r) for r in results]
        if output_format == "json":
            click.echo(json_lines(rows), nl=False)
        elif output_format == "csv":
            csv_rows.extend((n, t, r._replace(tree=None)) for n, t, r in rows)  # free the tree
        else:
            assert out is not None
            render_compare(f.name, f.tree, results, out)
        for problem in disagreements(f.name, results, f.expected, f.at):
            evaluation.report(problem)
    if csv_rows:  # no header without a row: every file was bad
        click.echo(csv_text(csv_rows), nl=False)
    evaluation.done()


#: the options that describe a sweep to run (not allowed with --merge)
SWEEP_OPTIONS = (
    "chance",
    "branching",
    "depth",
    "trials",
    "seed",
    "order",
    "model",
    "p",
    "value_range",
    "algos",
    "guess",
    "tt",
    "jobs",
    "shard",
    "dask",
)


@click.command("experiment")
@files_argument(required=False)
@shape_options(("2..4", "2..6"))
@chance_option(" The default algorithms are then expectiminimax, star1 and star2.")
@count_option("--trials", 20, "Trees per (b, d).")
@seed_option("trees: trial t of (b, d) searches the tree seeded from (S, b, d, t)")
@random_tree_options()
@values_option()
@algo_option("all")
@click.option(
    "--iterations",
    "mcts_iterations",
    default=None,
    metavar="N[,N...]",
    help="With -a mcts: measure MCTS against minimax on every tree, once per iteration count "
    "(e.g. 10,100,1000): how often its move is minimax-optimal, its value's error, beside "
    "alpha-beta's leaves (docs/research.md).",
)
@guess_option()
@tt_option()
@int_option(
    "-j",
    "--jobs",
    default=1,
    metavar="J",
    help="Processes to run the trees in; 0 = one per core. The results are the same for every J.",
)
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Run only the I-th of N shares of the (b, d, trial) cells (needs -o); "
    "merge the shards' files with --merge.",
)
@click.option(
    "--merge",
    is_flag=True,
    help="Run nothing: merge and summarise the records in FILE... (JSON lines "
    "written by -o), e.g. the shards of a sweep. Refuses files of different sweeps, "
    "and a part of a sweep (a shard missing) without --partial.",
)
@click.option(
    "--partial",
    is_flag=True,
    help="With --merge: summarise the files even if they hold only part of the sweep; "
    "the output then says which shards are missing.",
)
@results_format_option(
    "the summary per (b, d, algorithm), the table with the growth per ply beside Pearl's R(b)"
)
@path_option(
    "-o",
    "--output",
    metavar="FILE",
    help="Also write every trial's record to FILE: CSV if FILE ends in .csv, else JSON lines "
    "(what --merge reads).",
)
@path_option(
    "--plot",
    "plot_path",
    metavar="FILE",
    help="Draw mean leaves against depth (log scale) to FILE (.png, .svg, .pdf); "
    "needs matplotlib: pip install 'gtsearch[plot]'.",
)
@click.option(
    "--dask",
    default=None,
    metavar="ADDRESS|local",
    help="Run the trees as tasks on a Dask cluster: its scheduler's address "
    "(tcp://host:8786), or 'local' for a local cluster of --jobs processes (by default "
    "one per core). Needs pip install 'gtsearch[dask]'. The results are those of --jobs 1.",
)
@max_nodes_option
@click.pass_context
def experiment_command(
    ctx: click.Context,
    files: tuple[str, ...],
    branching: tuple[int, ...],
    depth: tuple[int, ...],
    chance: int | None,
    trials: int,
    seed: int,
    model: str,
    order: str,
    p: float | None,
    trap_depth: int | None,
    value_range: tuple[int, int],
    algos: tuple[str, ...],
    mcts_iterations: str | None,
    guess: Number | None,
    tt: int,
    jobs: int,
    shard: str | None,
    merge: bool,
    partial: bool,
    output_format: str,
    output: str | None,
    plot_path: str | None,
    dask: str | None,
    max_nodes: int,
) -> None:
    """Run the algorithms over seeded random trees and report mean leaves ± standard error.

    Trees are the sources random:b=B,d=D,seed=T,... (docs/sources.md: the trees
    'gtsearch gen' writes), searched as the algorithms reach them, so the cost
    grows with the nodes they visit (bounded by --max-nodes), not with b^d; every
    exact result of every tree is checked against the others (exit status 1
    if they disagree). The table also shows the growth of the leaves per ply,
    (N(d)/N(d-2))^(1/2) at the deepest depth, beside Pearl's asymptotic
    branching factor R(b) of alpha-beta and sqrt(b), the minimal tree's.

    A sweep can be split across machines: run it with --shard I/N -o shardI.jsonl
    for I = 1..N, then 'gtsearch experiment --merge shard*.jsonl' gives what
    one run gives.

    \b
    Examples:
      gtsearch experiment -b 2..4 -d 2..6 -n 50 -s 1 --jobs 0 --plot leaves.png
      gtsearch experiment -b 3 -d 2..7 --order worst -a alphabeta
      gtsearch experiment -b 2..5 -d 2..5 -n 20 --shard 1/2 -o shard1.jsonl
      gtsearch experiment -b 2..5 -d 2..5 -n 20 --shard 2/2 -o shard2.jsonl
      gtsearch experiment --merge shard*.jsonl --plot leaves.svg
      gtsearch experiment --chance 3 -b 2..4 -d 1..3 -n 50
      gtsearch experiment -a mcts --iterations 10,100,1000 -b 4 -d 4 --model trap
    """
    from ..render.research import render_experiment, sweep_title, table_csv
    from ..research import experiment as ex
    from ..research import records as er

    if merge:
        for param in ctx.command.params:
            if (
                param.name in SWEEP_OPTIONS
                and ctx.get_parameter_source(param.name) != click.core.ParameterSource.DEFAULT
            ):
                raise UsageError(f"--merge summarises the files as they are; drop {param.opts[-1]}")
        if not files:
            raise UsageError("--merge needs the record files to merge: FILE...")
        records = er.merge_records(
            (er.read_records(path) for path in files), partial=partial, names=files
        )
        if not records:
            raise UsageError("the files hold no records")
        missing = er.missing_part(records)
    else:
        if partial:
            raise UsageError("--partial is for --merge: it summarises part of a sweep's records")
        missing = None
        if files:
            raise UsageError(f"unexpected argument {files[0]!r}: FILE... is for --merge")
        trees = drawn(seed, value_range, order, chance, model, p, trap_depth)
        chosen = named(algos or ("all",), chance=bool(chance))
        if mcts_iterations is not None or any(a.sampled for a, _explicit in chosen):
            sweep = _mcts_sweep(ctx, chosen, mcts_iterations, trees, branching, depth, trials)
            _mcts_experiment(sweep, jobs, max_nodes, output, output_format, plot_path)
            return
        names = [a.name for a, _explicit in chosen]
        sweep = ex.Sweep(
            branching, depth, trials, algorithms=tuple(names), guess=guess, tt=tt, **trees
        )
        sweep.check(max_nodes)  # a sweep that cannot run is one line, before any note
        sweep = _without_full_search(sweep, explicit=bool(algos), max_nodes=max_nodes)
        index, count = ex.parse_shard(shard) if shard is not None else (1, 1)
        if count > 1 and output is None:
            raise UsageError("--shard needs -o FILE.jsonl to keep the records for --merge")
        from ..render.progress import progress

        total = len(ex.shard_cells(sweep.cells(), index, count))
        with progress(f"experiment: {total:,} trees x {len(sweep.algorithms)} algorithms"):
            records = ex.run_sweep(sweep, (index, count), jobs, max_nodes, dask)
    if output is not None:
        csv = output.endswith(".csv")
        write_file(
            output,
            table_csv(er.csv_records(records), er.record_keys(records))
            if csv
            else er.records_jsonl(records),
        )
    rows = ex.summarize(records)
    title = sweep_title(records)
    keys: tuple[str, ...] = ex.SUMMARY_KEYS
    if missing is not None:
        # a part: every output says so (the records keep their shards, I/N)
        click.echo(f"note: a part of the sweep: {missing}", err=True)
        title += f"; PART of the sweep: {missing}"
        rows = [row | {"partial": missing} for row in rows]
        keys += ("partial",)

    def draw() -> None:
        from ..render.plot import plot

        assert plot_path is not None
        plot(rows, plot_path, title=title)

    _summary(
        rows,
        keys,
        output_format,
        draw if plot_path is not None else None,
        lambda: render_experiment(rows, ex.growth(rows), title, console()),
    )


def _summary(
    rows: list[dict[str, Any]],
    keys: tuple[str, ...],
    output_format: str,
    draw: Callable[[], None] | None,
    table: Callable[[], None],
) -> None:
    """A sweep's summary rows: drawn (--plot), then as JSON lines, CSV or the table."""
    from ..render.research import table_csv

    if draw is not None:
        draw()
    if output_format == "json":
        click.echo(json_records(rows), nl=False)
    elif output_format == "csv":
        click.echo(table_csv(rows, keys), nl=False)
    else:
        table()


def _without_full_search(sweep: Sweep, *, explicit: bool, max_nodes: int) -> Sweep:
    """Leave minimax out of a default sweep whose largest tree has more than --max-nodes nodes.

    Minimax visits every node, which --max-nodes forbids; the table's b^d
    column gives its leaves.  Named with -a, it runs and stops at the limit.
    """
    from ..sources.uniform import levels

    b, d = max(sweep.branchings), max(sweep.depths)
    nodes, width = 1, 1
    for k in levels(b, d, sweep.chance)[:-1]:
        width *= k
        nodes += width
    full = ("minimax", "expectiminimax")
    if explicit or nodes <= max_nodes or not set(full) & set(sweep.algorithms):
        return sweep
    click.echo(
        f"note: minimax left out: b={b} d={d} trees have {nodes:,} nodes, more than "
        f"--max-nodes {max_nodes:,}, and it visits them all (the b^d column counts its leaves)",
        err=True,
    )
    kept = tuple(a for a in sweep.algorithms if a not in full)
    return dataclasses.replace(sweep, algorithms=kept)


#: the options of a leaf sweep that an mcts sweep does not take
NOT_MCTS_OPTIONS = ("order", "chance", "guess", "tt", "shard", "dask")


def _mcts_sweep(
    ctx: click.Context,
    chosen: list[tuple[Any, bool]],
    iterations: str | None,
    trees: dict[str, Any],
    branching: tuple[int, ...],
    depth: tuple[int, ...],
    trials: int,
) -> Any:
    """``experiment -a mcts --iterations N,...``: the sweep of MCTS against minimax, checked."""
    from ..research.experiment import parse_range
    from ..research.mcts_sweep import MctsSweep

    names = [a.name for a, _explicit in chosen]
    if "mcts" not in names:
        raise UsageError("--iterations applies to -a mcts only")
    if names != ["mcts"]:
        raise UsageError(
            "experiment -a mcts runs mcts alone (alpha-beta's leaves are measured beside it): "
            "drop the other algorithms"
        )
    if iterations is None:
        raise UsageError("experiment -a mcts needs --iterations N[,N...], e.g. 10,100,1000")
    for param in ctx.command.params:
        if (
            param.name in NOT_MCTS_OPTIONS
            and ctx.get_parameter_source(param.name) != click.core.ParameterSource.DEFAULT
        ):
            raise UsageError(f"experiment -a mcts does not take {param.opts[-1]}")
    counts = parse_range(iterations, "--iterations", minimum=1)
    keep = ("seed", "lo", "hi", "model", "p", "k")
    given = {k: trees[k] for k in keep if k in trees}
    return MctsSweep(branching, depth, trials, iterations=counts, **given)


def _mcts_experiment(
    sweep: Any,
    jobs: int,
    max_nodes: int,
    output: str | None,
    output_format: str,
    plot_path: str | None,
) -> None:
    from ..render.mcts_sweep import mcts_title, plot_mcts, render_mcts_experiment
    from ..render.progress import progress
    from ..render.research import table_csv
    from ..research import mcts_sweep as ms

    sweep.check(max_nodes)
    with progress(f"experiment: {len(sweep.cells()):,} trees x {len(sweep.iterations)} mcts runs"):
        records = ms.run_mcts_sweep(sweep, jobs, max_nodes)
    if output is not None:
        if output.endswith(".csv"):
            text = table_csv(records, ms.MCTS_RECORD_KEYS)
        else:
            text = "".join(
                json.dumps({k: r[k] for k in ms.MCTS_RECORD_KEYS}) + "\n" for r in records
            )
        write_file(output, text)
    rows = ms.summarize_mcts(records)
    title = mcts_title(records)
    path = plot_path
    _summary(
        rows,
        ms.MCTS_SUMMARY_KEYS,
        output_format,
        (lambda: plot_mcts(rows, path, title=title)) if path is not None else None,
        lambda: render_mcts_experiment(rows, title, console()),
    )
