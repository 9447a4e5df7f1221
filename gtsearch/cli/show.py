"""``gtsearch show`` and ``gtsearch trace``: a search drawn as a tree, step by step, and as pictures."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import click

from ..algorithms.params import SearchParams, check_one
from ..errors import UsageError
from ..numbers import Number
from ..render.console import console
from ..render.paper import LAYOUTS, PAGES
from .common import STDIN, display_name, load_with_root, write_output
from .options import (
    algo_option,
    bound_option,
    file_argument,
    format_option,
    input_options,
    int_option,
    leaf_bounds_option,
    mcts_shown_options,
    moves_option,
    ordering_options,
    path_option,
    root_option,
    stack,
    tt_option,
    window_options,
)

if TYPE_CHECKING:
    from ..algorithms import Algorithm
    from ..render.view import SearchView
    from ..tree import Tree

#: the search that show and trace follow: the tree, the algorithm and its numbers
search_options = stack(
    file_argument,
    algo_option("alphabeta, or star1 on a tree with chance nodes", several=False),
    bound_option(),
    window_options,
    leaf_bounds_option,
    mcts_shown_options,
    tt_option(),
    root_option,
    moves_option,
)


#: the page show's pictures are made for, and how they lay the tree out (render.layout)
picture_options = stack(
    click.option(
        "--page",
        type=click.Choice(list(PAGES)),
        default="a4",
        show_default=True,
        help="The page the pictures (--svg, --html, --tikz) are made to fit, with no text "
        "under 8 pt: " + "; ".join(f"{p.name}, {p.what}" for p in PAGES.values()) + ".",
    ),
    click.option(
        "--layout",
        "picture_layout",
        type=click.Choice(LAYOUTS),
        default="auto",
        show_default=True,
        help="How the pictures lay the tree out: auto (the plain tree if it fits the page, "
        "else its lowest levels as indented columns, as few as make it fit, else sideways, "
        "else the outline; --tikz splits a tree that fits none over pages), tree, compact "
        "(columns even if the tree would fit), sideways (the tree on its side, the leaves of "
        "a node in one row), outline (the whole tree as an indented list).",
    ),
)


class Picture(NamedTuple):
    """A picture show writes: its option, and the function of gtsearch.render that draws it."""

    option: str
    metavar: str
    what: str
    #: "module:function" in gtsearch.render, called (view, max_depth, source=..., **keywords)
    draw: str
    keywords: tuple[tuple[str, bool], ...] = ()
    #: whether it takes --page and --layout (DOT is laid out by Graphviz)
    laid_out: bool = True

    @property
    def dest(self) -> str:
        """The keyword argument of show_command: ``--tikz-body`` -> ``tikz_body_out``."""
        return self.option.lstrip("-").replace("-", "_") + "_out"


PICTURES = (
    Picture("--dot", "OUT.dot", "the picture as Graphviz DOT", "svg:to_dot", (), False),
    Picture("--svg", "OUT.svg", "the picture as SVG, laid out by gtsearch", "svg:to_svg"),
    Picture(
        "--html",
        "OUT.html",
        "one self-contained HTML page that replays the search step by step",
        "replay:to_html",
    ),
    Picture(
        "--tikz",
        "OUT.tex",
        "the picture as a LaTeX document with TikZ, for pdflatex",
        "tikz:to_tikz",
    ),
    Picture(
        "--tikz-body",
        "OUT.tex",
        "the bare tikzpicture, to \\input into slides or a paper",
        "tikz:to_tikz",
        (("body", True),),
    ),
)


# -- show ----------------------------------------------------------------------------------
@click.command("show")
@search_options
@int_option(
    "--max-depth",
    help="Draw the nodes down to depth N only (the root is at depth 0); applies to "
    "--dot, --svg and --html too.",
)
@int_option(
    "--max-lines",
    help="Stop the terminal drawing after N node lines (0: no limit). Without it, a "
    "drawing of more than 400 lines is collapsed to the PV with its siblings folded.",
)
@click.option(
    "--fold/--no-fold",
    default=True,
    show_default=True,
    help="Fold each pruned subtree, and runs of 4 or more pruned siblings, into one line.",
)
@stack(
    *(
        path_option(
            pic.option,
            pic.dest,
            metavar=pic.metavar,
            help=f"Also write {pic.what} ('-': standard output).",
        )
        for pic in PICTURES
    )
)
@picture_options
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
    help="Draw only the subtree at PATH: child indices from 0 (0.2: the root's first "
    "child's third child) or the names from the root down (B/b1), with the whole search's "
    "marks; applies to the pictures too.",
)
@click.option("-q", "--quiet", is_flag=True, help="Write the files only; no drawing.")
@input_options
def show_command(
    max_depth: int | None,
    max_lines: int | None,
    fold: bool,
    node_types: bool,
    focus: str | None,
    quiet: bool,
    page: str,
    picture_layout: str,
    **options: Any,
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
      gtsearch show sample_trees/aima-fig5-2.yaml
      gtsearch show sample:aima-fig5-2 --algo sss --svg tree.svg --html replay.html
      gtsearch show sample_trees/aima-fig5-2.yaml --node-types --tikz tree.tex
      gtsearch show random:b=3,d=6,seed=1 --focus 0.2
      gtsearch show sample_trees/nim-5.efg --focus 'take 2/take 1'
      gtsearch show random:b=3,d=6,seed=1 --max-depth 3
      gtsearch show sample_trees/wikipedia-alphabeta.json -a alphabeta --dot - | dot -Tpng -o tree.png
    """
    from ..render.focus import collapsed, focus_view, parse_path, too_large_note
    from ..render.view import build_view

    outs: dict[str, str | None] = {pic.dest: options.pop(pic.dest) for pic in PICTURES}
    asked = [(pic, out) for pic in PICTURES if (out := outs[pic.dest]) is not None]
    to_stdout = [pic.option for pic, out in asked if out == STDIN]
    if len(to_stdout) > 1:
        raise UsageError(f"only one of {', '.join(to_stdout)} can go to standard output ('-')")
    path = parse_path(focus) if focus is not None else ()
    tree, algorithm, params, name = searched(**options)
    keep_events = outs["html_out"] is not None
    view = build_view(tree, algorithm, keep_events=keep_events, node_types=node_types, **params)
    view = focus_view(view, path)
    texts: list[tuple[str, str]] = []
    if asked:
        from ..render.svg import MAX_PICTURE_NODES, fits

        picture = view
        if max_depth is None and not fits(view) and fits(collapsed(view)):
            picture = collapsed(view)
            warn(too_large_note(view, f"a picture of more than {MAX_PICTURE_NODES:,} nodes"))
        laid = {"page": page, "layout": picture_layout}
        texts = [(out, pictured(pic, picture, max_depth, name, laid)) for pic, out in asked]
    if not quiet and not to_stdout:
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
        for block in game_positions(options, view.result.pv):
            click.echo(block)
    for out, text in texts:
        write_output(out, text)


def searched(
    file: str,
    algo: str | None,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    variant: str | None,
    leaf_bounds: tuple[Number, Number] | None,
    root: str | None,
    input_format: str | None,
    max_nodes: int,
    tt: int = 0,
    history: bool = False,
    killers: bool = False,
    moves: str | None = None,
    **mcts: Any,
) -> tuple[Tree, Algorithm, dict[str, Any], str]:
    """The tree (a source built whole, --root applied), the algorithm and its parameters, and
    the name to show: what :data:`search_options` and --input-format and --max-nodes ask for
    (show and trace hand them on as they come, as keyword arguments).

    The algorithm and its numbers are checked before the file is read.  Without
    --algo it is alphabeta, or on a tree with chance nodes its counterpart, star1
    (also when --leaf-bounds, which only star1 and star2 take, is given).
    """
    default = "alphabeta" if leaf_bounds is None else "star1"
    numbers = SearchParams(
        bound=bound, alpha=alpha, beta=beta, variant=variant, leaf_bounds=leaf_bounds, tt=tt
    )
    numbers["history"], numbers["killers"] = history, killers  # trace's, with --tt
    # mcts's --iterations, --seed, --exploration, --playout-depth, when given
    numbers.update(cast(SearchParams, {k: v for k, v in mcts.items() if v is not None}))
    algorithm, params = check_one([algo or default], **numbers)
    # a game searched with a table is kept as the game, keyed by its positions (as eval
    # searches it): built whole, its nodes would be positions of their own
    whole = not (tt and file.startswith("game:"))
    tree = load_with_root(file, root, input_format, max_nodes, whole, moves)
    if algo is None and tree.has_chance and default != "star1":
        algorithm, params = check_one(["star1"], **numbers)
    return tree, algorithm, dict(params), display_name(file)


def game_positions(options: dict[str, Any], path: tuple[int, ...]) -> list[str]:
    """The positions along the PV of a game that draws them (docs/sources.md), under a heading;
    nothing for a file or a game that does not draw.  ``options``: the command's, its FILE,
    --max-nodes and --moves."""
    file = options["file"]
    if not file.startswith("game:"):
        return []
    from ..render.games import positions
    from ..sources import open_source

    game = open_source(file, max_nodes=options["max_nodes"], moves=options.get("moves"))
    drawn = positions(game, path)
    return ["Positions along the PV:", *drawn] if drawn else []


def warn(line: str) -> None:
    """One line on standard error: what show did instead of what was asked."""
    click.echo(line, err=True)


def pictured(
    pic: Picture, view: SearchView, max_depth: int | None, name: str, laid: dict[str, str]
) -> str:
    """The text of one picture of ``view``; ``laid``: its page and layout, if it takes them."""
    module, _, function = pic.draw.partition(":")
    draw = getattr(import_module(f"gtsearch.render.{module}"), function)
    more = laid if pic.laid_out else {}
    text: str = draw(view, max_depth, source=name, **dict(pic.keywords), **more)
    return text


# -- trace ---------------------------------------------------------------------------------
@click.command("trace")
@search_options
@ordering_options
@format_option(
    ["text", "json"], "Numbered lines of text, or one JSON object per step (JSON lines).", "text"
)
@click.option(
    "--open/--no-open",
    "open_lists",
    default=True,
    show_default=True,
    help="SSS*/DUAL*: show OPEN after every step.",
)
@input_options
def trace_command(output_format: str, open_lists: bool, **options: Any) -> None:
    """Follow one search step by step.

    minimax, f1 and alphabeta: every node entered with its window (alpha,
    beta) or bound, in MAX's terms, every leaf evaluated, every cutoff and the
    bound that caused it, every value handed back. sss, dual and their bounded
    forms: every state taken from OPEN, which of Stockman's cases 1-6
    applied, the states inserted and purged, and OPEN afterwards. The traces
    evaluate exactly the leaves that 'gtsearch eval' counts, in its order.
    alphabeta with --tt: every probe of the table, hit and store besides.

    \b
    Examples:
      gtsearch trace sample_trees/aima-fig5-2.yaml
      gtsearch trace sample_trees/aima-fig5-2.yaml --algo sss
      gtsearch trace sample_trees/wikipedia-alphabeta.json -a dual-bounded --bound 4 --format json
      gtsearch trace --tt 1 game:nim:5
    """
    from ..algorithms.steps import trace
    from ..render.labels import Labels
    from ..render.tables import json_records
    from ..render.trace import event_dict, trace_text

    tree, algorithm, params, name = searched(**options)
    events = trace(tree, algorithm, open_lists=open_lists, **params)
    if output_format == "text":
        for line in trace_text(events, tree, algorithm.name, name):
            click.echo(line)
        if options["file"].startswith("game:"):
            from ..algorithms import search

            pv = search(tree, algorithm, **params).pv
            for block in game_positions(options, pv):
                click.echo(block)
        return
    labels = Labels(tree)
    for step, ev in enumerate(events):
        d = event_dict(ev, step, labels)
        if step == 0:
            d = {"step": 0, "event": "start", "file": name, **d}
        click.echo(json_records([d], ascii_only=False), nl=False)
