"""Alpha-beta's two forms: fail-soft (the default) and Knuth & Moore's F2 as printed (fail-hard).

F2 as printed (Knuth & Moore 1975, section 2) starts m from alpha; the
fail-soft form from -inf.  Children get the same windows, so both evaluate
the same leaves in the same order; the values differ outside the window.
The fail-hard form runs in Python in both cores; this file runs under both
(``GTSEARCH_PURE=1`` for the pure one), against a recursive F2 written here
from the paper.
"""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import Tree, search
from gtsearch.algorithms.events import Leaf, Result
from gtsearch.algorithms.steps import trace
from gtsearch.cli import cli

from .strategies import trees

INF = float("inf")


def f2_as_printed(t: Any, alpha: float, beta: float, sign: int, read: list[float]) -> float:
    """Knuth & Moore's F2(p, alpha, beta), negamax, m := alpha (their procedure, word for word)."""
    if not isinstance(t, list):
        read.append(t)
        return sign * t
    m = alpha
    for child in t:
        v = -f2_as_printed(child, -beta, -m, -sign, read)
        if v > m:
            m = v
        if m >= beta:
            break
    return m


@settings(max_examples=300, deadline=None)
@given(trees, st.integers(-5, 45), st.integers(1, 30), st.booleans())
def test_fail_hard_is_f2_as_printed(nested: Any, alpha: int, width: int, root_max: bool) -> None:
    tree = Tree.from_nested(nested, root_max=root_max)
    beta = alpha + width
    read: list[float] = []
    if root_max:
        want = f2_as_printed(nested, alpha, beta, 1, read)
    else:
        want = -f2_as_printed(nested, -beta, -alpha, -1, read)
    hard = search(tree, "alphabeta", alpha=alpha, beta=beta, variant="fail-hard", leaf_order=True)
    soft = search(tree, "alphabeta", alpha=alpha, beta=beta, leaf_order=True)
    assert hard.value == want
    leaves = [tree.number(tree.node_at(p)) for p in hard.leaf_order or ()]
    assert leaves == read
    # the same leaves in the same order as fail-soft; the values agree inside the window
    assert hard.leaf_order == soft.leaf_order and hard.nodes == soft.nodes
    if soft.exact:
        assert (hard.value, hard.exact, hard.pv) == (soft.value, True, soft.pv)
    elif soft.bound == "upper":  # alpha itself, unless a leaf right below the root is lower
        assert hard.bound == "upper" and soft.value <= hard.value <= alpha
    else:
        assert hard.bound == "lower" and beta <= hard.value <= soft.value
    # the trace of the fail-hard form: the same leaves and value
    events = list(trace(tree, "alphabeta", alpha=alpha, beta=beta, variant="fail-hard"))
    assert [e.value for e in events if isinstance(e, Leaf)] == read
    (result,) = [e for e in events if isinstance(e, Result)]
    assert (result.value, result.bound) == (hard.value, hard.bound)


def test_the_full_window_is_the_same_in_both_forms() -> None:
    tree = Tree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    hard = search(tree, "alphabeta", variant="fail-hard", leaf_order=True)
    soft = search(tree, "alphabeta", leaf_order=True)
    assert (hard.value, hard.leaf_order, hard.pv) == (soft.value, soft.leaf_order, soft.pv)


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_the_issue_s_example(tmp_path: Any) -> None:
    """`exercise -b 2 -d 3 --alpha 10 --beta 20 --seed 2` keys ≥ 28 fail-soft, 20 as printed."""
    soft = run("exercise", "-b", "2", "-d", "3", "--alpha", "10", "--beta", "20", "--seed", "2")
    hard = run(
        "exercise", "-b", "2", "-d", "3", "--alpha", "10", "--beta", "20", "--seed", "2",
        "--variant", "fail-hard",
    )  # fmt: skip
    assert soft.exit_code == hard.exit_code == 0
    assert "1. value: ≥ 28" in soft.stdout and "in its fail-soft form" in soft.stdout
    assert "1. value: ≥ 20" in hard.stdout and "as Knuth & Moore's F2 is printed" in hard.stdout


def test_variant_everywhere_and_refused_elsewhere() -> None:
    tree = "sample_trees/aima-fig5-2.yaml"
    for command in ("eval", "show", "trace"):
        result = run(command, tree, "--alpha", "5", "--beta", "9", "--variant", "fail-hard")
        assert result.exit_code == 0, result.stderr
        assert "5" in result.stdout
    out = run(
        "eval", tree, "--alpha", "5", "--beta", "9", "--variant", "fail-hard", "--format", "csv"
    )
    assert ",5,false,upper," in out.stdout
    refused = run("eval", tree, "-a", "sss", "--variant", "fail-hard")
    assert refused.exit_code == 2
    assert "--variant applies to alphabeta only, not to sss" in refused.stderr
    bad = run("eval", tree, "--variant", "soft")
    assert bad.exit_code == 2 and "'soft' is not one of 'fail-soft', 'fail-hard'" in bad.stderr
