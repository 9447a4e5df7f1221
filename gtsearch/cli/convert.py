"""``gtsearch convert`` and ``gtsearch gen``: write trees, from a file or from a seed."""

from __future__ import annotations

import gzip
import sys
from typing import TextIO

import click

from ..errors import UsageError, os_reason
from ..formats import dump_tree, format_for_path
from ..sources.uniform import ORDERS, parse_value_range, write_uniform
from .common import (
    FORMAT_NAMES,
    STDIN,
    format_of_output,
    input_format_option,
    load,
    max_nodes_option,
    write_output,
)


@click.command("convert")
@click.argument("file", metavar="FILE")
@click.option(
    "--to",
    "to_format",
    type=click.Choice(FORMAT_NAMES, case_sensitive=False),
    default=None,
    help="Output format; may be left out when -o names a file with a known extension.",
)
@click.option(
    "-o", "--output", default=None, metavar="OUT", help="Write to OUT instead of standard output."
)
@input_format_option
@max_nodes_option
def convert_command(
    file: str, to_format: str | None, output: str | None, input_format: str | None, max_nodes: int
) -> None:
    """Convert a tree file to another format without loss.

    Structure, order, names, values, static values, the root player and the
    metadata all survive the round trip.

    \b
    Examples:
      gtsearch convert tree.yaml --to sexp
      gtsearch convert tree.json -o tree.yaml
      cat tree.sexp | gtsearch convert - --to json -o tree.json
    """
    if to_format is None:
        to_format = format_of_output(output)
    tree, _load_seconds = load(file, input_format, max_nodes)
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
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="random",
    show_default=True,
    help="random leaves, or children sorted best-first / worst-first for the mover.",
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
    default=None,
    metavar="FILE",
    help="Write to FILE (a .gz name is compressed) instead of standard output.",
)
def gen_command(
    branching: int,
    depth: int,
    seed: int,
    value_range: str,
    order: str,
    fmt: str | None,
    output: str | None,
) -> None:
    """Write a uniform random (or ordered) tree, streaming in constant memory.

    \b
    Examples:
      gtsearch gen -b 4 -d 11 --seed 1 -o b4d11.json
      gtsearch gen -b 3 -d 5 --order best --format sexp | gtsearch eval - -a all
    """
    lo, hi = parse_value_range(value_range)
    if fmt is None:
        known = format_for_path(output) if output else None
        fmt = known.name if known is not None else "json"

    def write(out: TextIO) -> None:
        write_uniform(out, branching, depth, fmt, seed=seed, lo=lo, hi=hi, order=order)

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
