"""``gtsearch compare`` and ``gtsearch experiment``: the research workbench on the command line."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from .algorithms import ALGORITHMS, Algorithm, find_algorithm
from .cli import (NUMBER, _check_stdin_once, _console, _display_name, _error, _mismatch,
                  _plan, _prepare, _search, _stdout_is_terminal, depth_option,
                  input_format_option, max_nodes_option, root_option)
from .cli_gen import _value_range
from .errors import CheckFailed, GtsearchError, UsageError
from .numbers import Number, agrees, format_number
from .render import Row, csv_cell, csv_text, format_seconds, format_value, json_lines
from .result import SearchResult
from .tree import Tree

if TYPE_CHECKING:
    from rich.console import Console

    from .experiment import Sweep

BEST = "★"
GUESS_HELP = "MTD(f)'s first guess (default 0): the closer to the value, the fewer passes."


def _fail(status: int, err: GtsearchError) -> int:
    _error(err)
    return max(status, err.exit_code)


# -- compare ------------------------------------------------------------------------------
@click.command("compare")
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@click.option("-a", "--algo", "algos", multiple=True, metavar="NAME",
              help="Algorithms to compare (repeatable, or a comma list). Default: every "
                   "algorithm that needs no bound ('all').")
@click.option("--bound", type=NUMBER, default=None, metavar="V",
              help="Bound for the algorithms that take one (f1, mtdf's first guess, and "
                   "sss-bounded/dual-bounded when named), as in 'gtsearch eval'.")
@click.option("--guess", type=NUMBER, default=None, metavar="F",
              help=GUESS_HELP + " Overrides --bound for mtdf.")
@root_option
@depth_option
@click.option("--format", "output_format", type=click.Choice(["table", "json", "csv"]),
              default=None,
              help="A table per file, JSON lines or CSV (one record per file and algorithm, "
                   "with 'share' and 'best'). Default: table on a terminal, json otherwise.")
@click.option("--expect", type=NUMBER, default=None, metavar="V",
              help="Expected value (replaces the file's 'expect:'); a result that "
                   "contradicts it makes the exit status 1.")
@input_format_option
@max_nodes_option
def compare_command(files: tuple[str, ...], algos: tuple[str, ...], bound: Number | None,
                    guess: Number | None, root: str | None, depth: int | None,
                    output_format: str | None, expect: Number | None,
                    input_format: str | None, max_nodes: int) -> None:
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
    _check_stdin_once(files)
    plan = _plan(algos or ("all",), bound, None, None)
    if guess is not None:
        if not any(algo.name == "mtdf" for algo, _ in plan):
            raise UsageError("--guess is the first guess of mtdf, which is not among the "
                             "algorithms: add -a mtdf")
        plan = [(a, {"bound": guess} if a.name == "mtdf" else p) for a, p in plan]
    fmt = output_format or ("table" if _stdout_is_terminal() else "json")
    console = _console() if fmt == "table" else None
    status = 0
    csv_rows: list[Row] = []
    for path in files:
        name = _display_name(path)
        try:
            tree, load_seconds, expected = _prepare(path, root, depth, expect,
                                                    input_format, max_nodes)
        except GtsearchError as err:
            status = _fail(status, err)
            continue
        rows = _compare(tree, name, load_seconds, plan)
        if fmt == "json":
            click.echo(json_lines(rows), nl=False)
        elif fmt == "csv":
            csv_rows.extend(rows)
        else:
            assert console is not None
            _render_compare(name, tree, [r for _, _, r in rows], console)
        for problem in _disagreements(name, [r for _, _, r in rows], expected):
            status = _fail(status, problem)
    if fmt == "csv":
        click.echo(csv_text(csv_rows), nl=False)
    if status:
        raise click.exceptions.Exit(status)


def _compare(tree: Tree, name: str, load_seconds: float,
             plan: Sequence[tuple[Algorithm, dict[str, Number]]]) -> list[Row]:
    """Every planned search on one tree, each result's extra figures carrying share and best."""
    results = [_search(name, tree, algo, False, params) for algo, params in plan]
    exact_leaves = [r.leaves for r in results if r.exact]
    best = min(exact_leaves) if exact_leaves else None
    total = tree.n_leaves
    return [(name, load_seconds,
             r._replace(extra={**r.extra, "share": r.leaves / total,
                               "best": r.exact and r.leaves == best}))
            for r in results]


def _disagreements(name: str, results: Sequence[SearchResult],
                   expected: Number | None) -> list[CheckFailed]:
    """What contradicts what among one file's results, each as one CheckFailed."""
    problems = []
    by_value: dict[Number, list[str]] = {}
    for r in results:
        if r.exact:
            by_value.setdefault(r.value, []).append(r.algorithm)
    if len(by_value) > 1:
        said = " vs ".join(f"{format_number(v)} ({', '.join(names)})"
                           for v, names in by_value.items())
        problems.append(CheckFailed(f"{name}: the exact results disagree: {said}"))
    for r in results:
        if not r.exact:
            for v, names in by_value.items():
                if not agrees(r.value, r.bound, v):
                    problems.append(CheckFailed(
                        f"{name}: {r.algorithm} proved {format_value(r)}, but "
                        f"{names[0]} found the exact value {format_number(v)}"))
    if expected is not None:
        problems += filter(None, (_mismatch(name, expected, r) for r in results))
    return problems


def _render_compare(name: str, tree: Tree, results: Sequence[SearchResult],
                    console: Console) -> None:
    from rich.table import Table
    from rich.text import Text

    values = {format_value(r) for r in results if r.exact}
    shown = values.pop() if len(values) == 1 else "disputed"
    table = Table(title=f"{name}: {tree.n_leaves} leaves, value {shown}", title_justify="left")
    # (header, cell of a result); a column that no result fills is left out
    columns: list[tuple[str, Callable[[SearchResult], str]]] = [
        ("algorithm", _algorithm_cell),
        ("value", format_value),
        ("leaves", lambda r: str(r.leaves)),
        ("share", lambda r: _percent(r.extra["share"])),
        ("re-read", lambda r: str(r.extra.get("re_evaluations") or "")),
        ("nodes", lambda r: str(r.nodes)),
        ("OPEN peak", lambda r: str(r.extra.get("open_max", ""))),
        ("MT passes", lambda r: str(r.extra.get("passes", ""))),
        ("time", lambda r: format_seconds(r.seconds)),
        ("best", lambda r: BEST if r.extra["best"] else ""),
    ]
    grid = [[cell(r) for _, cell in columns] for r in results]
    keep = [k for k, (header, _) in enumerate(columns)
            if header == "best" or any(row[k] for row in grid)]
    for k in keep:
        header = columns[k][0]
        table.add_column(header, justify="left" if header == "algorithm" else
                         "center" if header == "best" else "right",
                         style="cyan" if header == "algorithm" else
                         "bold" if header == "value" else None)
    for row in grid:
        table.add_row(*(Text(row[k]) for k in keep))
    console.print(table)


def _algorithm_cell(r: SearchResult) -> str:
    params = " ".join(f"{k}={format_number(v)}" for k, v in r.params.items())
    return r.algorithm + (f" ({params})" if params else "")


def _percent(share: float) -> str:
    return f"{100 * share:.3g}%"


# -- experiment ----------------------------------------------------------------------------
#: the options that describe a sweep to run (not allowed with --merge)
SWEEP_OPTIONS = ("branching", "depth", "trials", "seed", "order", "value_range", "algos",
                 "guess", "jobs", "shard")


@click.command("experiment")
@click.argument("files", metavar="[FILE...]", nargs=-1)
@click.option("-b", "--branching", default="2..4", show_default=True, metavar="RANGE",
              help="Branching factors: B, A..B or a comma list (2..4,8).")
@click.option("-d", "--depth", default="2..6", show_default=True, metavar="RANGE",
              help="Depths, written like --branching.")
@click.option("-n", "--trials", type=click.IntRange(min=1), default=20, show_default=True,
              metavar="N", help="Trees per (b, d).")
@click.option("-s", "--seed", type=int, default=0, show_default=True, metavar="S",
              help="Sweep seed: trial t of (b, d) searches the tree seeded from (S, b, d, t).")
@click.option("--order", type=click.Choice(["random", "best", "worst"]), default="random",
              show_default=True,
              help="random leaves, or children sorted best-first / worst-first for the mover.")
@click.option("--values", "value_range", default="-100:100", show_default=True,
              metavar="LO:HI", help="Leaf values are integers drawn from LO..HI.")
@click.option("-a", "--algo", "algos", multiple=True, metavar="NAME",
              help="Algorithms (repeatable, or a comma list). Default: every one that needs "
                   "no bound.")
@click.option("--guess", type=NUMBER, default=None, metavar="F", help=GUESS_HELP)
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              metavar="J", help="Processes to run the trees in; 0 = one per core. The "
                                "results are the same for every J.")
@click.option("--shard", default=None, metavar="I/N",
              help="Run only the I-th of N shares of the (b, d, trial) cells (needs -o); "
                   "merge the shards' files with --merge.")
@click.option("--merge", is_flag=True,
              help="Run nothing: merge and summarise the records in FILE... (JSON lines "
                   "written by -o), e.g. the shards of a sweep.")
@click.option("--format", "output_format", type=click.Choice(["table", "json", "csv"]),
              default=None,
              help="Summary per (b, d, algorithm): a table (with the growth per ply beside "
                   "Pearl's R(b)), JSON lines or CSV. Default: table on a terminal, json "
                   "otherwise.")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write every trial's record there: CSV if FILE ends in .csv, else JSON "
                   "lines (what --merge reads).")
@click.option("--plot", "plot_path", default=None, metavar="FILE",
              help="Draw mean leaves against depth (log scale) to FILE (.png, .svg, .pdf); "
                   "needs matplotlib: pip install 'gtsearch[plot]'.")
@max_nodes_option
@click.pass_context
def experiment_command(ctx: click.Context, files: tuple[str, ...], branching: str, depth: str,
                       trials: int, seed: int, order: str, value_range: str,
                       algos: tuple[str, ...], guess: Number | None, jobs: int,
                       shard: str | None, merge: bool, output_format: str | None,
                       output: str | None, plot_path: str | None, max_nodes: int) -> None:
    """Run the algorithms over seeded random trees and report mean leaves ± standard error.

    Trees are generated in memory (as 'gtsearch gen' would write them); every
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
    """
    from . import experiment as ex

    fmt = output_format or ("table" if _stdout_is_terminal() else "json")
    if merge:
        for param in ctx.command.params:
            if (param.name in SWEEP_OPTIONS and ctx.get_parameter_source(param.name)
                    != click.core.ParameterSource.DEFAULT):
                raise UsageError(f"--merge summarises the files as they are; drop "
                                 f"{param.opts[-1]}")
        if not files:
            raise UsageError("--merge needs the record files to merge: FILE...")
        records = ex.merge_records(ex.read_records(path) for path in files)
        if not records:
            raise UsageError("the files hold no records")
    else:
        if files:
            raise UsageError(f"unexpected argument {files[0]!r}: FILE... is for --merge")
        sweep = _sweep(ex, branching, depth, trials, seed, order, value_range, algos, guess)
        index, count = ex.parse_shard(shard) if shard is not None else (1, 1)
        if count > 1 and output is None:
            raise UsageError("--shard needs -o FILE.jsonl to keep the records for --merge")
        from .progress import progress

        total = len(ex.shard_cells(sweep.cells(), index, count))
        with progress(f"experiment: {total:,} trees x {len(sweep.algorithms)} algorithms"):
            records = ex.run_sweep(sweep, (index, count), jobs, max_nodes)
    if output is not None:
        _write(output, _records_csv(records) if output.endswith(".csv")
               else ex.records_jsonl(records))
    rows = ex.summarize(records)
    title = _sweep_title(records)
    if plot_path is not None:
        ex.plot(rows, plot_path, title=title)
    if fmt == "json":
        click.echo("".join(_json(r) for r in rows), nl=False)
    elif fmt == "csv":
        click.echo(_table_csv(rows, ex.SUMMARY_KEYS), nl=False)
    else:
        _render_experiment(rows, ex.growth(rows), title, _console())


def _sweep(ex: Any, branching: str, depth: str, trials: int, seed: int, order: str,
           value_range: str, algos: tuple[str, ...], guess: Number | None) -> Sweep:
    lo, hi = _value_range(value_range)
    names: dict[str, None] = {}
    for raw in algos or ("all",):
        for name in raw.split(","):
            name = name.strip()
            if name.lower() == "all":
                names.update((a.name, None) for a in ALGORITHMS if not a.needs_bound)
            elif name:
                names[find_algorithm(name).name] = None
    if not names:
        raise UsageError("--algo names no algorithm; give a name such as alphabeta, or 'all'")
    return ex.Sweep(branchings=ex.parse_range(branching, "--branching", 1),
                    depths=ex.parse_range(depth, "--depth", 0), trials=trials, seed=seed,
                    order=order, lo=lo, hi=hi, algorithms=tuple(names), guess=guess)


#: how the title names the trees of each --order
ORDER_WORDS = {"random": "random trees", "best": "best-first ordered trees",
               "worst": "worst-first ordered trees"}


def _sweep_title(records: Sequence[dict[str, Any]]) -> str:
    r = records[0]
    trials = len({rec["trial"] for rec in records})
    return (f"{trials} {ORDER_WORDS[r['order']]} per (b, d), integer leaves in "
            f"{r['lo']}..{r['hi']}, seed {r['seed']}")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as e:
        raise GtsearchError(f"{path}: cannot write: {e.strerror or e}") from None


def _json(row: dict[str, Any]) -> str:
    import json

    return json.dumps(row, allow_nan=False) + "\n"




def _table_csv(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for row in rows:
        writer.writerow([csv_cell(row.get(k)) for k in keys])
    return out.getvalue()


def _records_csv(records: Sequence[dict[str, Any]]) -> str:
    from .experiment import RECORD_KEYS

    return _table_csv(records, RECORD_KEYS)


def _pm(mean: float, se: float) -> str:
    """mean ± standard error, the mean rounded where the error's second figure is."""
    if se <= 0:
        return f"{mean:g}" if mean < 1e6 else f"{mean:.0f}"
    import math

    decimals = max(0, 1 - math.floor(math.log10(se)))
    return f"{mean:.{decimals}f} ± {se:.{decimals}f}"


def _render_experiment(rows: Sequence[dict[str, Any]], growth: Sequence[dict[str, Any]],
                       title: str, console: Console) -> None:
    from rich.table import Table
    from rich.text import Text

    algos = list(dict.fromkeys(r["algorithm"] for r in rows))
    cells: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for r in rows:
        cells.setdefault((r["b"], r["d"]), {})[r["algorithm"]] = r
    # titles above the tables, not in them: a narrow table would fold them
    console.print(Text(f"Mean leaves evaluated ± standard error: {title}"))
    table = Table()
    table.add_column("b", justify="right")
    table.add_column("d", justify="right")
    for name in algos:
        table.add_column(name, justify="right")
    table.add_column("minimal", justify="right", style="dim")
    table.add_column("b^d", justify="right", style="dim")
    for (b, d), by_algo in cells.items():
        best = min(r["mean"] for r in by_algo.values())
        out = [Text(str(b)), Text(str(d))]
        for name in algos:
            row = by_algo.get(name)
            text = "" if row is None else _pm(row["mean"], row["stderr"])
            out.append(Text(text, style="bold" if row is not None and row["mean"] == best else ""))
        any_row = next(iter(by_algo.values()))
        out += [Text(str(any_row["minimal_tree"])), Text(str(any_row["full_tree"]))]
        table.add_row(*out)
    console.print(table)

    depths = {(g["b"]): g["ratio_depths"] for g in growth if g["ratio_depths"] is not None}
    if not depths:
        return
    console.print(Text("Growth per ply, (N(d)/N(d-2))^(1/2) at the deepest d, beside Pearl's "
                       "R(b) for alpha-beta and sqrt(b) for the minimal tree"))
    gtable = Table()
    gtable.add_column("b", justify="right")
    gtable.add_column("d", justify="right")
    gtable.add_column("R(b) Pearl", justify="right", style="bold")
    gtable.add_column("sqrt(b)", justify="right", style="dim")
    for name in algos:
        gtable.add_column(name, justify="right")
    by_b: dict[int, dict[str, dict[str, Any]]] = {}
    for g in growth:
        by_b.setdefault(g["b"], {})[g["algorithm"]] = g
    for b, by_algo in sorted(by_b.items()):
        if b not in depths:
            continue
        d0, d1 = depths[b]
        first = next(iter(by_algo.values()))
        figures = [str(b), f"{d0}→{d1}", f"{first['pearl_r']:.3f}", f"{first['sqrt_b']:.3f}"]
        figures += [f"{by_algo[name]['ratio']:.3f}" if name in by_algo else "" for name in algos]
        gtable.add_row(*(Text(c) for c in figures))
    console.print(gtable)
