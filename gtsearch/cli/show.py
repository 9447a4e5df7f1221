"""``gtsearch show`` and ``gtsearch trace``: a search drawn as a tree, step by step, and as pictures."""

from __future__ import annotations

import click

from ..algorithms.params import check_one
from ..errors import UsageError
from ..numbers import Number
from ..render.console import console
from .common import (
    NUMBER,
    STDIN,
    PathParam,
    alpha_option,
    beta_option,
    complete_algorithms,
    display_name,
    input_format_option,
    load_with_root,
    max_nodes_option,
    root_option,
    write_output,
)

algo_option = click.option(
    "-a",
    "--algo",
    "algo",
    default="alphabeta",
    show_default=True,
    metavar="NAME",
    shell_complete=complete_algorithms,
    help="The algorithm (aliases work: ab, sss*, dual*, bs*...). See 'gtsearch algorithms'.",
)
bound_option = click.option(
    "--bound",
    type=NUMBER,
    default=None,
    metavar="V",
    help="Bound for f1, sss-bounded (V) and dual-bounded (L).",
)


# -- show ----------------------------------------------------------------------------------
@click.command("show")
@click.argument("file", metavar="FILE", type=PathParam())
@algo_option
@bound_option
@alpha_option
@beta_option
@root_option
@click.option(
    "--max-depth",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Draw the nodes down to depth N only (the root is at depth 0); applies to "
    "--dot, --svg and --html too.",
)
@click.option(
    "--max-lines",
    type=click.IntRange(min=0),
    default=400,
    show_default=True,
    metavar="N",
    help="Stop the terminal drawing after N node lines (0: no limit).",
)
@click.option(
    "--fold/--no-fold",
    default=True,
    show_default=True,
    help="Fold each pruned subtree, and runs of 4 or more pruned siblings, into one line.",
)
@click.option(
    "--dot",
    "dot_out",
    type=PathParam(),
    default=None,
    metavar="OUT.dot",
    help="Also write the picture as Graphviz DOT ('-': standard output).",
)
@click.option(
    "--svg",
    "svg_out",
    type=PathParam(),
    default=None,
    metavar="OUT.svg",
    help="Also write the picture as SVG, laid out by gtsearch ('-': standard output).",
)
@click.option(
    "--html",
    "html_out",
    type=PathParam(),
    default=None,
    metavar="OUT.html",
    help="Also write one self-contained HTML page that replays the search step by "
    "step ('-': standard output).",
)
@click.option("-q", "--quiet", is_flag=True, help="Write the files only; no drawing.")
@input_format_option
@max_nodes_option
def show_command(
    file: str,
    algo: str,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    root: str | None,
    max_depth: int | None,
    max_lines: int,
    fold: bool,
    dot_out: str | None,
    svg_out: str | None,
    html_out: str | None,
    quiet: bool,
    input_format: str | None,
    max_nodes: int,
) -> None:
    """Draw the tree as one algorithm searched it.

    Each node shows its name (or its path of child indices), MAX or MIN, and
    the value range its evaluated leaves prove (= exact, ≥ / ≤ a bound).
    Leaves show their value and, when evaluated, their place in the order
    (● #3); pruned nodes are dimmed and marked ✂; the PV is marked ★.
    Depth-first searches name the cutoff that stopped a node. Without a
    terminal, or with NO_COLOR set, the drawing is plain text.

    \b
    Examples:
      gtsearch show tree.yaml
      gtsearch show tree.yaml --algo sss --svg tree.svg --html replay.html
      gtsearch show big.json --max-depth 3
      gtsearch show tree.json -a alphabeta --dot - | dot -Tpng -o tree.png
    """
    from ..render.view import build_view

    outs = [o for o in (dot_out, svg_out, html_out) if o is not None]
    if sum(1 for o in outs if o == STDIN) > 1:
        raise UsageError("only one of --dot, --svg and --html can go to standard output ('-')")
    algorithm, params = check_one([algo], bound, alpha, beta)
    tree = load_with_root(file, root, input_format, max_nodes)
    name = display_name(file)
    view = build_view(tree, algorithm, keep_events=html_out is not None, **params)
    texts: list[tuple[str, str]] = []
    if dot_out is not None:
        from ..render.svg import to_dot

        texts.append((dot_out, to_dot(view, max_depth, source=name)))
    if svg_out is not None:
        from ..render.svg import to_svg

        texts.append((svg_out, to_svg(view, max_depth, source=name)))
    if html_out is not None:
        from ..render.replay import to_html

        texts.append((html_out, to_html(view, max_depth, source=name)))
    if not quiet and STDIN not in outs:
        from ..render.terminal import Options, print_view

        print_view(
            view,
            console(),
            Options(max_depth=max_depth, max_lines=max_lines or None, fold=fold),
            source=name,
        )
    for path, text in texts:
        write_output(path, text)


# -- trace ---------------------------------------------------------------------------------
@click.command("trace")
@click.argument("file", metavar="FILE", type=PathParam())
@algo_option
@bound_option
@alpha_option
@beta_option
@root_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Numbered lines of text, or one JSON object per step (JSON lines).",
)
@click.option(
    "--open/--no-open",
    "open_lists",
    default=True,
    show_default=True,
    help="SSS*/DUAL*: show OPEN after every step.",
)
@input_format_option
@max_nodes_option
def trace_command(
    file: str,
    algo: str,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    root: str | None,
    output_format: str,
    open_lists: bool,
    input_format: str | None,
    max_nodes: int,
) -> None:
    """Follow one search step by step.

    minimax, f1 and alphabeta: every node entered with its window (alpha,
    beta) or bound, in MAX's terms, every leaf evaluated, every cutoff and the
    bound that caused it, every value handed back. sss, dual and their bounded
    forms: every state taken from OPEN, which of Stockman's cases 1-6
    applied, the states inserted and purged, and OPEN afterwards. The traces
    evaluate exactly the leaves that 'gtsearch eval' counts, in its order.

    \b
    Examples:
      gtsearch trace tree.yaml
      gtsearch trace tree.yaml --algo sss
      gtsearch trace tree.json -a dual-bounded --bound 4 --format json
    """
    from ..algorithms.steps import trace
    from ..render.labels import Labels
    from ..render.tables import json_records
    from ..render.trace import event_dict, trace_text

    algorithm, params = check_one([algo], bound, alpha, beta)
    tree = load_with_root(file, root, input_format, max_nodes)
    name = display_name(file)
    events = trace(tree, algorithm, open_lists=open_lists, **params)
    if output_format == "text":
        for line in trace_text(events, tree, algorithm.name, name):
            click.echo(line)
        return
    labels = Labels(tree)
    for step, ev in enumerate(events):
        d = event_dict(ev, step, labels)
        if step == 0:
            d = {"step": 0, "event": "start", "file": name, **d}
        click.echo(json_records([d], ascii_only=False), nl=False)
