"""``gtsearch compare`` and ``gtsearch experiment``: the research workbench on the command line."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import TYPE_CHECKING

import click

from ..algorithms import plan
from ..algorithms.params import named
from ..errors import GtsearchError, UsageError
from ..numbers import Number
from ..render.console import console, stdout_is_terminal
from ..render.tables import Row, csv_text, json_lines, json_records
from ..research.compare import compare, disagreements
from ..sources.uniform import parse_value_range
from .common import (
    NUMBER,
    PathParam,
    check_stdin_once,
    complete_algorithms,
    depth_option,
    display_name,
    expect_place,
    input_format_option,
    leaf_bounds_option,
    max_nodes_option,
    plan_for_tree,
    prepare,
    random_tree_options,
    report,
    root_option,
    run_search,
    write_file,
)

if TYPE_CHECKING:
    from ..research.experiment import Sweep

GUESS_HELP = "MTD(f)'s first guess (default 0): the closer to the value, the fewer passes."


@click.command("compare")
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=PathParam())
@click.option(
    "-a",
    "--algo",
    "algos",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_algorithms,
    help="Algorithms to compare (repeatable, or a comma list). Default: every "
    "algorithm that needs no bound ('all'); on a tree with chance nodes, expectiminimax, "
    "star1 and star2.",
)
@click.option(
    "--bound",
    type=NUMBER,
    default=None,
    metavar="V",
    help="Bound for the algorithms that take one (f1, mtdf's first guess, and "
    "sss-bounded/dual-bounded when named), as in 'gtsearch eval'.",
)
@click.option(
    "--guess",
    type=NUMBER,
    default=None,
    metavar="F",
    help=GUESS_HELP + " Overrides --bound for mtdf.",
)
@leaf_bounds_option
@root_option
@depth_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "csv"]),
    default=None,
    help="A table per file, JSON lines or CSV (one record per file and algorithm, "
    "with 'share' and 'best'). Default: table on a terminal, json otherwise.",
)
@click.option(
    "--expect",
    type=NUMBER,
    default=None,
    metavar="V",
    help="Expected value (replaces the file's 'expect:'); a result that "
    "contradicts it makes the exit status 1.",
)
@input_format_option
@max_nodes_option
def compare_command(
    files: tuple[str, ...],
    algos: tuple[str, ...],
    bound: Number | None,
    guess: Number | None,
    leaf_bounds: tuple[Number, Number] | None,
    root: str | None,
    depth: int | None,
    output_format: str | None,
    expect: Number | None,
    input_format: str | None,
    max_nodes: int,
) -> None:
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
      gtsearch compare -a alphabeta,negascout,sss,mt-sss tree.yaml
      gtsearch compare --guess 3 --format json tree.json
    """
    from ..render.research import render_compare

    check_stdin_once(files)
    names = algos or ("all",)
    planned = plan(names, bound=bound, leaf_bounds=leaf_bounds)
    if guess is not None:
        if not any(algo.name == "mtdf" for algo, _ in planned):
            raise UsageError(
                "--guess is the first guess of mtdf, which is not among the algorithms: add -a mtdf"
            )
        planned = [(a, {"bound": guess} if a.name == "mtdf" else p) for a, p in planned]
    fmt = output_format or ("table" if stdout_is_terminal() else "json")
    out = console() if fmt == "table" else None
    status = 0
    csv_rows: list[Row] = []
    for path in files:
        name = display_name(path)
        try:
            tree, load_seconds, expected = prepare(
                path, root, depth, expect, input_format, max_nodes
            )
            searches = plan_for_tree(tree, planned, names, bound, leaf_bounds=leaf_bounds)
        except GtsearchError as err:
            status = max(status, report(err))
            continue
        results = compare(tree, searches, partial(run_search, name, tree))
        rows: list[Row] = [(name, load_seconds, r) for r in results]
        if fmt == "json":
            click.echo(json_lines(rows), nl=False)
        elif fmt == "csv":
            csv_rows.extend((n, t, r._replace(tree=None)) for n, t, r in rows)  # free the tree
        else:
            assert out is not None
            render_compare(name, tree, results, out)
        for problem in disagreements(name, results, expected, expect_place(tree, expect, expected)):
            status = max(status, report(problem))
    if fmt == "csv":
        click.echo(csv_text(csv_rows), nl=False)
    if status:
        raise click.exceptions.Exit(status)


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
    "jobs",
    "shard",
    "dask",
)


@click.command("experiment")
@click.argument("files", metavar="[FILE...]", nargs=-1, type=PathParam())
@click.option(
    "-b",
    "--branching",
    default="2..4",
    show_default=True,
    metavar="RANGE",
    help="Branching factors: B, A..B or a comma list (2..4,8).",
)
@click.option(
    "-d",
    "--depth",
    default="2..6",
    show_default=True,
    metavar="RANGE",
    help="Depths, written like --branching.",
)
@click.option(
    "--chance",
    type=click.IntRange(min=1),
    default=None,
    metavar="C",
    help="Regular *-minimax trees: every move leads to a chance node with C equally likely "
    "outcomes, and -d counts the levels of moves (leaves at depth 2d). The default "
    "algorithms are then expectiminimax, star1 and star2.",
)
@click.option(
    "-n",
    "--trials",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="Trees per (b, d).",
)
@click.option(
    "-s",
    "--seed",
    type=int,
    default=0,
    show_default=True,
    metavar="S",
    help="Sweep seed: trial t of (b, d) searches the tree seeded from (S, b, d, t).",
)
@random_tree_options
@click.option(
    "--values",
    "value_range",
    default="-100:100",
    show_default=True,
    metavar="LO:HI",
    help="Leaf values are integers drawn from LO..HI.",
)
@click.option(
    "-a",
    "--algo",
    "algos",
    multiple=True,
    metavar="NAME",
    shell_complete=complete_algorithms,
    help="Algorithms (repeatable, or a comma list). Default: every one that needs no bound.",
)
@click.option("--guess", type=NUMBER, default=None, metavar="F", help=GUESS_HELP)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
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
    "written by -o), e.g. the shards of a sweep.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json", "csv"]),
    default=None,
    help="Summary per (b, d, algorithm): a table (with the growth per ply beside "
    "Pearl's R(b)), JSON lines or CSV. Default: table on a terminal, json "
    "otherwise.",
)
@click.option(
    "-o",
    "--output",
    type=PathParam(),
    default=None,
    metavar="FILE",
    help="Write every trial's record there: CSV if FILE ends in .csv, else JSON "
    "lines (what --merge reads).",
)
@click.option(
    "--plot",
    "plot_path",
    type=PathParam(),
    default=None,
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
    branching: str,
    depth: str,
    chance: int | None,
    trials: int,
    seed: int,
    model: str,
    order: str,
    p: float | None,
    value_range: str,
    algos: tuple[str, ...],
    guess: Number | None,
    jobs: int,
    shard: str | None,
    merge: bool,
    output_format: str | None,
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
      gtsearch experiment -b 2..4 -d 2..8 -n 200 -s 1 --jobs 0 --plot leaves.png
      gtsearch experiment -b 3 -d 2..7 --order worst -a alphabeta
      gtsearch experiment -b 2..8 -d 2..6 -n 100 --shard 1/4 -o shard1.jsonl
      gtsearch experiment --merge shard*.jsonl --plot leaves.svg
      gtsearch experiment --chance 3 -b 2..4 -d 1..3 -n 50
    """
    from ..render.research import render_experiment, sweep_title, table_csv
    from ..research import experiment as ex

    fmt = output_format or ("table" if stdout_is_terminal() else "json")
    if merge:
        for param in ctx.command.params:
            if (
                param.name in SWEEP_OPTIONS
                and ctx.get_parameter_source(param.name) != click.core.ParameterSource.DEFAULT
            ):
                raise UsageError(f"--merge summarises the files as they are; drop {param.opts[-1]}")
        if not files:
            raise UsageError("--merge needs the record files to merge: FILE...")
        records = ex.merge_records(ex.read_records(path) for path in files)
        if not records:
            raise UsageError("the files hold no records")
    else:
        if files:
            raise UsageError(f"unexpected argument {files[0]!r}: FILE... is for --merge")
        if p is not None and model != "binary":
            raise UsageError("--p applies to --model binary only")
        sweep = _sweep(branching, depth, trials, seed, order, value_range, algos, guess, chance)
        sweep = dataclasses.replace(sweep, model=model, p=0.5 if p is None else p)
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
            table_csv(records, ex.record_keys(records)) if csv else ex.records_jsonl(records),
        )
    rows = ex.summarize(records)
    title = sweep_title(records)
    if plot_path is not None:
        from ..render.plot import plot

        plot(rows, plot_path, title=title)
    if fmt == "json":
        click.echo(json_records(rows), nl=False)
    elif fmt == "csv":
        click.echo(table_csv(rows, ex.SUMMARY_KEYS), nl=False)
    else:
        render_experiment(rows, ex.growth(rows), title, console())


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


def _sweep(
    branching: str,
    depth: str,
    trials: int,
    seed: int,
    order: str,
    value_range: str,
    algos: tuple[str, ...],
    guess: Number | None,
    chance: int | None = None,
) -> Sweep:
    from ..research import experiment as ex

    lo, hi = parse_value_range(value_range)
    names = [algo.name for algo, _explicit in named(algos or ("all",), chance=bool(chance))]
    return ex.Sweep(
        branchings=ex.parse_range(branching, "--branching", 1),
        depths=ex.parse_range(depth, "--depth", 0),
        trials=trials,
        seed=seed,
        order=order,
        lo=lo,
        hi=hi,
        algorithms=tuple(names),
        guess=guess,
        chance=chance or 0,
    )
