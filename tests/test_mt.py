"""MT-SSS*, MT-DUAL* and MTD(f) through the registry: SSS*/DUAL*'s leaves, Plaat's MTD, exact values."""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import find_algorithm, search
from gtsearch.cli import cli
from gtsearch.tree import Tree

from .strategies import minimax, trees
from .test_scout import assert_valid_pv, distinct_values, evaluated, ranked

INF = math.inf
BIG = 10**9  # the papers' integer "infinity", beyond every rank
Path_ = tuple[int, ...]


# -- Plaat et al.'s MT and MTD, recursive, integers, on the ranked tree ----------------------
def ref_mt(
    node: Any,
    gamma: int,
    is_max: bool,
    path: Path_,
    table: dict[Path_, list[int]],
    out: list[Path_],
) -> int:
    """MT(n, gamma): a null-window (gamma - 1, gamma) search with a transposition table."""
    entry = table.get(path)
    if entry is not None:
        if entry[0] >= gamma:
            return entry[0]
        if entry[1] < gamma:
            return entry[1]
    if not isinstance(node, list):
        out.append(path)
        table[path] = [node, node]
        return node  # type: ignore[no-any-return]
    if is_max:
        g = -BIG
        for i, c in enumerate(node):
            if g >= gamma:
                break
            g = max(g, ref_mt(c, gamma, False, path + (i,), table, out))
    else:
        g = BIG
        for i, c in enumerate(node):
            if g < gamma:
                break
            g = min(g, ref_mt(c, gamma, True, path + (i,), table, out))
    entry = table.setdefault(path, [-BIG, BIG])
    if g < gamma:
        entry[1] = g
    else:
        entry[0] = g
    return g


def ref_mtd(nested: Any, root_max: bool, first: float) -> tuple[Any, list[Path_], int]:
    """MTD(first) on the ranked tree: (value, leaves in order, passes).

    ``first`` is a value of the original tree (or +-inf); its place among the
    leaf values gives the first test: "value >= first" is "rank >= place".
    """
    values = distinct_values(nested)
    tree = ranked(nested)
    if first == INF:
        g = BIG
    elif first == -INF:
        g = -BIG
    else:
        g = bisect_left(values, first)
    table: dict[Path_, list[int]] = {}
    out: list[Path_] = []
    lower, upper = -BIG, BIG
    passes = 0
    while lower < upper:
        gamma = g + 1 if g == lower else g
        g = ref_mt(tree, gamma, root_max, (), table, out)
        passes += 1
        if g < gamma:
            upper = g
        else:
            lower = g
    return values[g], out, passes


# -- properties --------------------------------------------------------------------------------
guesses = (
    st.integers(-22, 22).map(float)
    | st.sampled_from([0.5, -1.25, 2.0, 3.0])
    | st.floats(-12, 12, allow_nan=False, width=32).map(float)
)


@settings(max_examples=250, deadline=None)
@given(trees, st.booleans())
@example([[3, 12, 8], [2, 4, 6], [14, 5, 2]], True)
@example(5, False)
def test_mt_sss_and_mt_dual_are_sss_and_dual(nested: Any, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    sss = search(tree, "sss", leaf_order=True)
    dual = search(tree, "dual", leaf_order=True)
    mt_sss = search(tree, "mt-sss", leaf_order=True)
    mt_dual = search(tree, "mt-dual", leaf_order=True)
    for r in (mt_sss, mt_dual):
        assert r.exact and r.value == true
        assert_valid_pv(tree, nested, r)
        leaves = evaluated(tree, r)
        assert len(leaves) == len(set(leaves)) == r.leaves, "the table keeps every leaf"
    assert mt_sss.leaf_order == sss.leaf_order, "MT-SSS* evaluates SSS*'s leaves in SSS*'s order"
    assert set(mt_dual.leaf_order or ()) == set(dual.leaf_order or ()), "MT-DUAL*: DUAL*'s leaf set"
    for name, first in (("mt-sss", INF), ("mt-dual", -INF)):
        r = mt_sss if name == "mt-sss" else mt_dual
        ref_value, ref_leaves, passes = ref_mtd(nested, root_max, first)
        assert ref_value == true and [tuple(p) for p in r.leaf_order or ()] == ref_leaves
        assert r.extra["passes"] == passes


@settings(max_examples=250, deadline=None)
@given(trees, st.booleans(), guesses)
@example([[0.1, 0.2], [0.30000000000000004, 0.3]], True, 0.30000000000000004)
@example([[1, 2], [3, 4]], True, 3.0)
@example([[1, 2], [3, 4]], False, 1e9)
def test_mtdf_from_any_first_guess(nested: Any, root_max: bool, guess: float) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    true = minimax(nested, root_max)
    r = search(tree, "mtdf", bound=guess, leaf_order=True)
    assert r.exact and r.value == true and r.params == {"bound": guess}
    assert_valid_pv(tree, nested, r)
    leaves = evaluated(tree, r)
    assert len(leaves) == len(set(leaves)) == r.leaves
    ref_value, ref_leaves, passes = ref_mtd(nested, root_max, guess)
    assert ref_value == true and [tuple(p) for p in r.leaf_order or ()] == ref_leaves
    assert r.extra["passes"] == passes
    if guess == true:  # one pass proves value >= guess, one value <= guess
        assert passes == 2


@settings(max_examples=100, deadline=None)
@given(trees, st.booleans())
def test_mtdf_default_guess_is_zero(nested: Any, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    plain = search(tree, "mtdf", leaf_order=True)
    zero = search(tree, "mtdf", bound=0, leaf_order=True)
    assert plain.leaf_order == zero.leaf_order and plain.value == minimax(nested, root_max)


def test_guess_equal_to_a_float_value_terminates() -> None:
    x = 0.1 + 0.2  # 0.30000000000000004: an epsilon step of 1e-9 would skip past 0.3
    tree = Tree.from_nested([[0.3, x], [x, 0.5]])
    r = search(tree, "mtdf", bound=x)
    assert r.value == x and r.extra["passes"] == 2
    r = search(tree, "mtdf", bound=0.3)
    assert r.value == x


@pytest.mark.parametrize("name", ["mt-sss", "mt-dual", "mtdf"])
def test_registry_entries(name: str) -> None:
    algo = find_algorithm(name)
    assert not algo.needs_bound and "Plaat" in algo.source
    assert algo.takes == ("bound" if name == "mtdf" else None)
    assert find_algorithm("MTD(f)").name == "mtdf"
    assert find_algorithm("mt-sss*").name == "mt-sss"
    assert find_algorithm("mtd(-inf)").name == "mt-dual"


def test_eval_takes_the_first_guess_as_bound() -> None:
    result = CliRunner().invoke(
        cli,
        ["eval", "-", "-a", "mtdf", "--bound", "3", "--format", "json"],
        input="((3 12 8) (2 4 6) (14 5 2))",
    )
    assert result.exit_code == 0, result.stderr
    assert '"params": {"bound": 3}' in result.stdout and '"value": 3' in result.stdout
    assert '"passes": 2' in result.stdout
