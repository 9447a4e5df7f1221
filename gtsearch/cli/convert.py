"""``gtsearch convert`` and ``gtsearch gen``: write trees, from a file or from a seed."""

from __future__ import annotations

import gzip
import sys
from typing import TextIO

import click

from ..errors import UsageError, os_reason
from ..formats import dump_tree, format_for_path
from ..sources import is_source, unique_names
from ..sources.uniform import parse_value_range, spec_of, write_uniform
from .common import (
    FORMAT_NAMES,
    STDIN,
    PathParam,
    format_of_output,
    input_format_option,
    load,
    max_nodes_option,
    random_tree_options,
    write_output,
)


@click.command("convert")
@click.argument("file", metavar="FILE", type=PathParam())
@click.option(
    "--to",
    "to_format",
    type=click.Choice(FORMAT_NAMES, case_sensitive=False),
    default=None,
    help="Output format; may be left out when -o names a file with a known extension.",
)
@click.option(
    "-o",
    "--output",
    type=PathParam(),
    default=None,
    metavar="OUT",
    help="Write to OUT instead of standard output.",
)
@input_format_option
@max_nodes_option
def convert_command(
    file: str, to_format: str | None, output: str | None, input_format: str | None, max_nodes: int
) -> None:
    """Convert a tree file to another format.

    Between yaml, json and sexp nothing is lost: structure, order, names,
    values, static values, the root player and the metadata all survive the
    round trip. efg writes a Gambit file: the game, its names where they are
    Gambit labels, the title and description (no static values, no expect).

    \b
    Examples:
      gtsearch convert tree.yaml --to sexp
      gtsearch convert tree.json -o tree.yaml
      cat tree.sexp | gtsearch convert - --to json -o tree.json
      gtsearch convert tree.yaml -o game.efg
    """
    if to_format is None:
        to_format = format_of_output(output)
    tree, _load_seconds = load(file, input_format, max_nodes, whole=True)
    if is_source(file):
        tree = unique_names(tree)  # a game's move labels repeat; a file's names may not
    text = dump_tree(tree, to_format.lower())
    if not text.endswith("\n"):
        text += "\n"
    write_output(STDIN if output is None else output, text)


@click.command("gen")
@click.option(
    "-b",
    "--branching",
    type=click.IntRange(min=1),
    required=True,
    metavar="B",
    help="Children of every internal node.",
)
@click.option(
    "-d",
    "--depth",
    type=click.IntRange(min=0),
    required=True,
    metavar="D",
    help="Levels below the root (the tree has B**D leaves).",
)
@click.option(
    "-s",
    "--seed",
    type=int,
    default=0,
    show_default=True,
    metavar="S",
    help="Seed: the same parameters always give the same tree, bit for bit.",
)
@click.option(
    "--values",
    "value_range",
    default="-100:100",
    show_default=True,
    metavar="LO:HI",
    help="Leaf values are integers drawn from LO..HI.",
)
@random_tree_options
@click.option(
    "--chance",
    type=click.IntRange(min=1),
    default=None,
    metavar="C",
    help="A regular *-minimax tree: every move (B per decision node) leads to a chance node "
    "with C equally likely outcomes; -d counts the levels of moves, so the leaves, "
    "(B*C)**D of them, lie at depth 2D.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "yaml", "sexp"]),
    default=None,
    help="Output format (default: from -o's extension, else json).",
)
@click.option(
    "-o",
    "--output",
    type=PathParam(),
    default=None,
    metavar="FILE",
    help="Write to FILE (a .gz name is compressed) instead of standard output.",
)
def gen_command(
    branching: int,
    depth: int,
    seed: int,
    value_range: str,
    model: str,
    order: str,
    p: float | None,
    chance: int | None,
    fmt: str | None,
    output: str | None,
) -> None:
    """Write a uniform random (or ordered) tree, streaming in constant memory.

    The tree is exactly the source random:b=B,d=D,seed=S,... (docs/sources.md),
    which eval, compare and experiment search without writing it.

    With --chance, a regular *-minimax tree instead: decision levels and
    chance levels alternate, every chance node with C equally likely outcomes.

    \b
    Examples:
      gtsearch gen -b 4 -d 11 --seed 1 -o b4d11.json
      gtsearch gen -b 3 -d 5 --order best --format sexp | gtsearch eval - -a all
      gtsearch gen -b 3 -d 2 --chance 6 -o dice.json
    """
    lo, hi = parse_value_range(value_range)
    if p is not None and model != "binary":
        raise UsageError("--p applies to --model binary only")
    spec_of(
        branching,
        depth,
        seed=seed,
        lo=lo,
        hi=hi,
        order=order,
        chance=chance or 0,
        model=model,
        p=0.5 if p is None else p,
    )
    if fmt is None:
        known = format_for_path(output) if output else None
        fmt = known.name if known is not None else "json"

    def write(out: TextIO) -> None:
        write_uniform(
            out,
            branching,
            depth,
            fmt,
            seed=seed,
            lo=lo,
            hi=hi,
            order=order,
            chance=chance or 0,
            model=model,
            p=0.5 if p is None else p,
        )

    if output is None:
        write(sys.stdout)
        return
    try:
        if output.endswith(".gz"):
            with gzip.open(output, "wt", encoding="utf-8", compresslevel=6) as out:
                write(out)
        else:
            with open(output, "w", encoding="utf-8") as out:
                write(out)
    except OSError as e:
        raise UsageError(f"{output}: cannot write: {os_reason(e)}") from None
