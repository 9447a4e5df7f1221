"""``gtsearch show`` and ``gtsearch trace``: a search drawn as a tree, step by step, and as pictures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..algorithms.params import check_one
from ..errors import UsageError
from ..numbers import Number
from ..render.console import console

if TYPE_CHECKING:
    from ..render.view import SearchView
from .common import (
    NUMBER,
    STDIN,
    PathParam,
    alpha_option,
    beta_option,
    complete_algorithms,
    display_name,
    input_format_option,
    leaf_bounds_option,
    load_with_root,
    max_nodes_option,
    root_option,
    write_output,
)

algo_option = click.option(
    "-a",
    "--algo",
    "algo",
    default=None,
    metavar="NAME",
    shell_complete=complete_algorithms,
    help="The algorithm (aliases work: ab, sss*, dual*, bs*...); default alphabeta, or star1 "
    "on a tree with chance nodes. See 'gtsearch algorithms'.",
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
@leaf_bounds_option
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
    default=None,
    metavar="N",
    help="Stop the terminal drawing after N node lines (0: no limit). Without it, a "
    "drawing of more than 400 lines is collapsed to the PV with its siblings folded.",
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
@click.option(
    "--tikz",
    "tikz_out",
    default=None,
    metavar="OUT.tex",
    help="Also write the picture as a LaTeX document with TikZ, for pdflatex ('-': "
    "standard output).",
)
@click.option(
    "--tikz-body",
    "tikz_body_out",
    default=None,
    metavar="OUT.tex",
    help="Also write the bare tikzpicture, to \\input into slides or a paper ('-': "
    "standard output).",
)
@click.option(
    "--node-types",
    is_flag=True,
    help="Label every node with Knuth & Moore's type as the search found it: "
    "PV (type 1), CUT (type 2), ALL (type 3).",
)
@click.option(
    "--focus",
    default=None,
    metavar="PATH",
    help="Draw only the subtree at PATH, child indices from 0 (0.2: the root's first "
    "child's third child), with the whole search's marks; applies to the pictures too.",
)
@click.option("-q", "--quiet", is_flag=True, help="Write the files only; no drawing.")
@input_format_option
@max_nodes_option
def show_command(
    file: str,
    algo: str | None,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    leaf_bounds: tuple[Number, Number] | None,
    root: str | None,
    max_depth: int | None,
    max_lines: int | None,
    fold: bool,
    dot_out: str | None,
    svg_out: str | None,
    html_out: str | None,
    tikz_out: str | None,
    tikz_body_out: str | None,
    node_types: bool,
    focus: str | None,
    quiet: bool,
    input_format: str | None,
    max_nodes: int,
) -> None:
    """Draw the tree as one algorithm searched it.

    Each node shows its name (or its path of child indices), MAX or MIN, and
    the value range its evaluated leaves prove (= exact, ≥ / ≤ a bound).
    Leaves show their value and, when evaluated, their place in the order
    (● #3); pruned nodes are dimmed and marked ✂; the PV is marked ★.
    Depth-first searches name the cutoff that stopped a node; --node-types
    labels every node PV, CUT or ALL (Knuth & Moore's types 1, 2, 3). Without
    a terminal, or with NO_COLOR set, the drawing is plain text. A tree too
    large to draw usefully is drawn collapsed (the PV with its siblings
    folded); --focus PATH draws one subtree.

    \b
    Examples:
      gtsearch show tree.yaml
      gtsearch show tree.yaml --algo sss --svg tree.svg --html replay.html
      gtsearch show tree.yaml --node-types --tikz tree.tex
      gtsearch show big.json --focus 0.2
      gtsearch show big.json --max-depth 3
      gtsearch show tree.json -a alphabeta --dot - | dot -Tpng -o tree.png
    """
    from ..render.focus import collapsed, focus_view, parse_path, too_large_note
    from ..render.view import build_view

    pictures = {
        "--dot": dot_out,
        "--svg": svg_out,
        "--html": html_out,
        "--tikz": tikz_out,
        "--tikz-body": tikz_body_out,
    }
    outs = [o for o in pictures.values() if o is not None]
    if sum(1 for o in outs if o == STDIN) > 1:
        to_stdout = [k for k, o in pictures.items() if o == STDIN]
        raise UsageError(f"only one of {', '.join(to_stdout)} can go to standard output ('-')")
    path = parse_path(focus) if focus is not None else ()
    algorithm, params = check_one(
        [algo or default_algorithm(leaf_bounds)],
        bound=bound,
        alpha=alpha,
        beta=beta,
        leaf_bounds=leaf_bounds,
    )
    tree = load_with_root(file, root, input_format, max_nodes)
    if algo is None and tree.has_chance:
        algorithm, params = check_one(
            [default_algorithm(leaf_bounds, chance=True)],
            bound=bound,
            alpha=alpha,
            beta=beta,
            leaf_bounds=leaf_bounds,
        )
    name = display_name(file)
    kwargs: dict[str, Any] = dict(params)
    view = build_view(
        tree, algorithm, keep_events=html_out is not None, node_types=node_types, **kwargs
    )
    view = focus_view(view, path)
    texts: list[tuple[str, str]] = []
    if outs:
        from ..render.svg import MAX_PICTURE_NODES, fits

        picture = view
        if max_depth is None and not fits(view) and fits(collapsed(view)):
            picture = collapsed(view)
            warn(too_large_note(view, f"a picture of more than {MAX_PICTURE_NODES:,} nodes"))
        texts = pictures_of(
            picture, max_depth, name, dot_out, svg_out, html_out, tikz_out, tikz_body_out
        )
    if not quiet and STDIN not in outs:
        from ..render.terminal import DEFAULT_MAX_LINES, Options, lines_needed, print_view

        drawing = view
        if max_lines is None and max_depth is None:
            if lines_needed(view, fold, DEFAULT_MAX_LINES) > DEFAULT_MAX_LINES:
                drawing = collapsed(view)
                warn(too_large_note(view, f"more than {DEFAULT_MAX_LINES} lines"))
            max_lines = DEFAULT_MAX_LINES
        print_view(
            drawing,
            console(),
            Options(max_depth=max_depth, max_lines=max_lines or None, fold=fold),
            source=name,
        )
    for out, text in texts:
        write_output(out, text)


def default_algorithm(leaf_bounds: object, chance: bool = False) -> str:
    """The algorithm without --algo: alpha-beta, or its counterpart for chance nodes, Star1
    (also when --leaf-bounds, which only Star1 and Star2 take, is given)."""
    return "star1" if chance or leaf_bounds is not None else "alphabeta"


def warn(line: str) -> None:
    """One line on standard error: what show did instead of what was asked."""
    click.echo(line, err=True)


def pictures_of(
    view: SearchView,
    max_depth: int | None,
    name: str,
    dot_out: str | None,
    svg_out: str | None,
    html_out: str | None,
    tikz_out: str | None,
    tikz_body_out: str | None,
) -> list[tuple[str, str]]:
    """(file, text) of every picture asked for."""
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
    if tikz_out is not None:
        from ..render.tikz import to_tikz

        texts.append((tikz_out, to_tikz(view, max_depth, source=name)))
    if tikz_body_out is not None:
        from ..render.tikz import to_tikz

        texts.append((tikz_body_out, to_tikz(view, max_depth, source=name, body=True)))
    return texts


# -- trace ---------------------------------------------------------------------------------
@click.command("trace")
@click.argument("file", metavar="FILE", type=PathParam())
@algo_option
@bound_option
@alpha_option
@beta_option
@leaf_bounds_option
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
    algo: str | None,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    leaf_bounds: tuple[Number, Number] | None,
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

    algorithm, params = check_one(
        [algo or default_algorithm(leaf_bounds)],
        bound=bound,
        alpha=alpha,
        beta=beta,
        leaf_bounds=leaf_bounds,
    )
    tree = load_with_root(file, root, input_format, max_nodes)
    if algo is None and tree.has_chance:
        algorithm, params = check_one(
            [default_algorithm(leaf_bounds, chance=True)],
            bound=bound,
            alpha=alpha,
            beta=beta,
            leaf_bounds=leaf_bounds,
        )
    name = display_name(file)
    kwargs: dict[str, Any] = dict(params)
    events = trace(tree, algorithm, open_lists=open_lists, **kwargs)
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
