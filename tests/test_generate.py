"""gtsearch.generate: seeded uniform trees, streamed or in memory, identical either way."""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import search
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.sources.uniform import leaf_values, uniform_tree, write_uniform
from gtsearch.tree import Tree

from .strategies import minimax, order


@pytest.mark.parametrize("how", ["random", "best", "worst"])
@pytest.mark.parametrize(("b", "d"), [(1, 0), (1, 5), (3, 0), (2, 3), (3, 4), (5, 3)])
def test_streamed_and_in_memory_trees_are_the_same(how: str, b: int, d: int) -> None:
    out = io.StringIO()
    write_uniform(out, b, d, "json", seed=5, order=how)
    from_text = Tree.from_nested(json.loads(out.getvalue()))
    assert from_text == uniform_tree(b, d, seed=5, order=how)
    assert from_text.n_leaves == b**d


def test_seed_names_the_tree() -> None:
    a = list(leaf_values(3, 4, seed=11))
    assert a == list(leaf_values(3, 4, seed=11))
    assert a != list(leaf_values(3, 4, seed=12))
    # the first values of seed 1 are fixed forever: trees are named by their parameters
    assert list(leaf_values(2, 3, seed=1)) == [61, -81, -28, 45, 81, -24, 27, -47]


def test_value_range() -> None:
    vals = list(leaf_values(4, 5, seed=3, lo=-2, hi=2))
    assert set(vals) <= {-2, -1, 0, 1, 2} and len(set(vals)) == 5


@pytest.mark.parametrize("b", [2, 3, 4])
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 6])
def test_best_first_order_is_perfect(b: int, d: int) -> None:
    tree = uniform_tree(b, d, seed=b * 10 + d, order="best")
    nested = tree.to_nested()
    assert order(nested, True, best_first=True) == nested
    minimal = b ** math.ceil(d / 2) + b ** (d // 2) - 1
    for name in ("alphabeta", "sss", "dual"):
        assert search(tree, name).leaves == minimal


def test_worst_first_order() -> None:
    tree = uniform_tree(3, 4, seed=2, order="worst", lo=-1000, hi=1000)
    nested = tree.to_nested()
    assert order(nested, True, best_first=False) == nested
    assert minimax(nested) == search(tree, "minimax").value


@pytest.mark.parametrize(
    "fmt,first", [("json", "[[61,-81],"), ("yaml", "[[61, -81], "), ("sexp", "((61 -81) ")]
)
def test_formats(fmt: str, first: str) -> None:
    out = io.StringIO()
    write_uniform(out, 2, 3, fmt, seed=1)
    assert out.getvalue().startswith("[" + first if fmt != "sexp" else "(" + first)
    assert out.getvalue().endswith("\n")


def test_bad_parameters() -> None:
    with pytest.raises(UsageError, match="branching"):
        list(leaf_values(0, 2))
    with pytest.raises(UsageError, match="LO <= HI"):
        list(leaf_values(2, 2, lo=3, hi=1))
    with pytest.raises(UsageError, match="order"):
        list(leaf_values(2, 2, order="sideways"))
    with pytest.raises(UsageError, match=r"--depth must be 0 or more, got -1"):
        list(leaf_values(2, -1))
    with pytest.raises(UsageError, match=r"--chance must be 1 or more .*, got -2"):
        list(leaf_values(2, 2, chance=-2))


def test_gen_writes_gzip_and_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    """`gtsearch gen -o FILE.gz` writes the tree gzipped; --p without --model binary and an
    output it cannot write are one line each, exit status 2."""
    out = tmp_path / "t.json.gz"
    r = CliRunner().invoke(cli, ["gen", "-b", "2", "-d", "3", "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    plain = CliRunner().invoke(cli, ["gen", "-b", "2", "-d", "3", "--seed", "1"])
    assert gzip.decompress(out.read_bytes()).decode() == plain.stdout
    r = CliRunner().invoke(cli, ["gen", "-b", "2", "-d", "2", "--p", "0.3"])
    assert (r.exit_code, r.stderr) == (2, "--p applies to --model binary and trap only\n")
    where = str(tmp_path / "missing" / "t.json")
    r = CliRunner().invoke(cli, ["gen", "-b", "2", "-d", "2", "-o", where])
    assert (r.exit_code, r.stderr) == (2, f"{where}: cannot write: no such file or directory\n")
