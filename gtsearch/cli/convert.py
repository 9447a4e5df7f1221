"""``gtsearch convert`` and ``gtsearch gen``: write trees, from a file or from a seed."""

from __future__ import annotations

import gzip
import sys
from typing import TextIO

import click

from ..errors import UsageError, os_reason
from ..files import replacing, replacing_text
from ..formats import dump_tree, format_for_path
from ..sources import is_source, unique_names
from ..sources.uniform import spec_of, write_uniform
from .common import STDIN, format_of_output, load, write_output
from .options import (
    FORMAT_NAMES,
    chance_option,
    drawn,
    file_argument,
    format_option,
    input_options,
    output_option,
    random_tree_options,
    seed_option,
    shape_options,
    values_option,
)


@click.command("convert")
@file_argument
@click.option(
    "--to",
    "to_format",
    type=click.Choice(FORMAT_NAMES, case_sensitive=False),
    default=None,
    help="Output format; may be left out when -o names a file with a known extension.",
)
@output_option("the tree", "OUT")
@input_options
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
      gtsearch convert sample_trees/aima-fig5-2.yaml --to sexp
      gtsearch convert sample_trees/wikipedia-alphabeta.json -o tree.yaml
      cat sample_trees/stockman-binary-d4.sexp | gtsearch convert - --to json -o tree.json
      gtsearch convert sample_trees/aima-fig5-2.yaml -o game.efg
    """
    if to_format is None:
        to_format = format_of_output(output)
    tree, _load_seconds = load(file, input_format, max_nodes, whole=True)
    if is_source(file):
        tree = unique_names(tree)  # a file's siblings have different names; a game's may not
    text = dump_tree(tree, to_format.lower())
    if not text.endswith("\n"):
        text += "\n"
    write_output(STDIN if output is None else output, text)


@click.command("gen")
@shape_options()
@seed_option("tree, byte for byte")
@values_option()
@random_tree_options()
@chance_option()
@format_option(["json", "yaml", "sexp"], "Output format (default: from -o's extension, else json).")
@output_option("the tree", more=" A name ending in .gz is compressed.")
def gen_command(
    branching: int,
    depth: int,
    seed: int,
    value_range: tuple[int, int],
    model: str,
    order: str,
    p: float | None,
    trap_depth: int | None,
    chance: int | None,
    output_format: str | None,
    output: str | None,
) -> None:
    """Write a uniform random (or ordered) tree, streaming in constant memory.

    The tree is exactly the source random:b=B,d=D,seed=S,... (docs/sources.md),
    which eval, compare and experiment search without writing it.

    With --chance, a regular *-minimax tree instead: decision levels and
    chance levels alternate, every chance node with C equally likely outcomes.

    \b
    Examples:
      gtsearch gen -b 4 -d 8 --seed 1 -o b4d8.json
      gtsearch gen -b 3 -d 5 --order best --format sexp | gtsearch eval - -a all
      gtsearch gen -b 3 -d 2 --chance 6 -o dice.json
    """
    trees = drawn(seed, value_range, order, chance, model, p, trap_depth)
    spec_of(branching, depth, **trees)  # every parameter checked before anything is written
    fmt = output_format
    if fmt is None:
        known = format_for_path(output) if output else None
        fmt = known.name if known is not None else "json"

    def write(out: TextIO) -> None:
        write_uniform(out, branching, depth, fmt, **trees)

    if output is None:
        write(sys.stdout)
        return
    try:
        # whole or not at all: a temporary file beside OUT, renamed over it when complete
        if output.endswith(".gz"):
            with (
                replacing(output) as raw,
                gzip.open(raw, "wt", encoding="utf-8", compresslevel=6) as zipped,
            ):
                write(zipped)
        else:
            with replacing_text(output) as text:
                write(text)
    except OSError as e:
        raise UsageError(f"{output}: cannot write: {os_reason(e)}") from None
