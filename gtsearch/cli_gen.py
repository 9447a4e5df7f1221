"""``gtsearch gen``: write a seeded uniform tree, streaming, in any format."""

from __future__ import annotations

import gzip
import sys
from typing import TextIO

import click

from .errors import UsageError
from .generate import ORDERS, write_uniform


def _value_range(text: str) -> tuple[int, int]:
    lo, sep, hi = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(lo), int(hi)
    except ValueError:
        raise UsageError(f"--values takes LO:HI with two integers, e.g. -100:100, got {text!r}") from None


@click.command("gen")
@click.option("-b", "--branching", type=click.IntRange(min=1), required=True, metavar="B",
              help="Children of every internal node.")
@click.option("-d", "--depth", type=click.IntRange(min=0), required=True, metavar="D",
              help="Levels below the root (the tree has B**D leaves).")
@click.option("-s", "--seed", type=int, default=0, show_default=True, metavar="S",
              help="Seed: the same parameters always give the same tree, bit for bit.")
@click.option("--values", "value_range", default="-100:100", show_default=True, metavar="LO:HI",
              help="Leaf values are integers drawn from LO..HI.")
@click.option("--order", type=click.Choice(ORDERS), default="random", show_default=True,
              help="random leaves, or children sorted best-first / worst-first for the mover.")
@click.option("--format", "fmt", type=click.Choice(["json", "yaml", "sexp"]), default=None,
              help="Output format (default: from -o's extension, else json).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write to FILE (a .gz name is compressed) instead of standard output.")
def gen_command(branching: int, depth: int, seed: int, value_range: str, order: str,
                fmt: str | None, output: str | None) -> None:
    """Write a uniform random (or ordered) tree, streaming in constant memory.

    \b
    Examples:
      gtsearch gen -b 4 -d 11 --seed 1 -o b4d11.json
      gtsearch gen -b 3 -d 5 --order best --format sexp | gtsearch eval - -a all
    """
    lo, hi = _value_range(value_range)
    if fmt is None:
        name = (output or "").removesuffix(".gz")
        fmt = next((f for f, exts in (("yaml", (".yaml", ".yml")), ("sexp", (".sexp", ".lisp", ".scm", ".sx")))
                    if name.endswith(exts)), "json")
    if output is None:
        _write(sys.stdout, branching, depth, fmt, seed, lo, hi, order)
        return
    try:
        if output.endswith(".gz"):
            with gzip.open(output, "wt", encoding="utf-8", compresslevel=6) as out:
                _write(out, branching, depth, fmt, seed, lo, hi, order)
        else:
            with open(output, "w", encoding="utf-8") as out:
                _write(out, branching, depth, fmt, seed, lo, hi, order)
    except OSError as e:
        raise UsageError(f"{output}: cannot write: {e.strerror or e}") from None


def _write(out: TextIO, branching: int, depth: int, fmt: str, seed: int, lo: int, hi: int,
           order: str) -> None:
    write_uniform(out, branching, depth, fmt, seed=seed, lo=lo, hi=hi, order=order)
