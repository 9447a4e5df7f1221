"""gtsearch.algorithms.params: one check of algorithm names and parameters for every command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import ALGORITHMS, plan, search
from gtsearch.algorithms.params import check, check_one, named
from gtsearch.algorithms.steps import trace
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.tree import Tree

AIMA = "sample_trees/aima-fig5-2.yaml"
TREE = Tree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
TOO_LARGE = 2**53 + 1


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("option", ["--bound", "--alpha", "--beta"])
@pytest.mark.parametrize("value", [TOO_LARGE, -TOO_LARGE, 10**400])
def test_parameters_obey_the_leaves_rule_on_the_command_line(option: str, value: int) -> None:
    algo = "alphabeta" if option != "--bound" else "f1"
    code, out, err = run("eval", AIMA, "-a", algo, option, str(value))
    assert (code, out) == (2, "")
    assert err.endswith("is too large: integers must lie within ±2**53 to stay exact\n"), err
    assert err.startswith(f"{option} "), err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("command", ["show", "trace", "compare"])
def test_every_command_checks_the_same_way(command: str) -> None:
    args = [command, AIMA, "-a", "f1", "--bound", str(TOO_LARGE)]
    code, _, err = run(*args)
    assert code == 2
    assert (
        err == f"--bound {TOO_LARGE} is too large: integers must lie within ±2**53 to stay exact\n"
    )


def test_the_edges_of_the_range_are_accepted() -> None:
    for v in (2**53, -(2**53)):
        assert search(TREE, "f1", bound=v).value == 3
    assert search(TREE, "alphabeta", alpha=-(2**53), beta=2**53).value == 3


@pytest.mark.parametrize(
    "kwargs",
    [{"bound": TOO_LARGE}, {"bound": float("inf")}, {"bound": float("nan")}, {"alpha": -TOO_LARGE}],
)
def test_the_library_refuses_what_the_command_line_refuses(kwargs: dict[str, float]) -> None:
    algo = "alphabeta" if "alpha" in kwargs else "f1"
    with pytest.raises(UsageError):
        search(TREE, algo, **kwargs)
    with pytest.raises(UsageError):
        list(trace(TREE, algo, **kwargs))


def test_one_message_everywhere() -> None:
    """search(), trace() and the command line say the same thing for the same mistake."""
    with pytest.raises(UsageError) as lib:
        search(TREE, "sss-bounded")
    with pytest.raises(UsageError) as steps:
        list(trace(TREE, "sss-bounded"))
    code, _, err = run("eval", AIMA, "-a", "sss-bounded")
    assert code == 2
    assert str(lib.value) == str(steps.value) == err.strip()
    assert err.strip() == "sss-bounded needs --bound: it needs a bound to start from; add --bound V"


def test_all_hands_each_option_only_to_the_algorithms_that_take_it() -> None:
    planned = dict((a.name, p) for a, p in plan(["all"], bound=2, alpha=1, beta=5))
    assert planned["f1"] == {"bound": 2} and planned["mtdf"] == {"bound": 2}
    assert planned["alphabeta"] == {"alpha": 1, "beta": 5}
    assert planned["minimax"] == {}
    assert not any(a.needs_bound for a, _ in plan(["all"]))


def test_names_comma_lists_aliases_and_repeats() -> None:
    assert [a.name for a, _ in named(["ab,sss*", "alphabeta", " dual* "])] == [
        "alphabeta",
        "sss",
        "dual",
    ]
    assert [explicit for _, explicit in named(["all", "minimax"])][0] is True
    with pytest.raises(UsageError, match="names no algorithm"):
        named([" , "])
    with pytest.raises(UsageError, match="unknown algorithm 'nope'"):
        named(["nope"])


def test_check_takes_one_algorithm() -> None:
    algo, params = check("mtd(f)", bound=3)
    assert (algo.name, params) == ("mtdf", {"bound": 3})
    with pytest.raises(UsageError, match="unknown algorithm"):
        check("sss,dual")
    with pytest.raises(UsageError, match="one algorithm at a time"):
        check_one(["sss,dual"])
    for a in ALGORITHMS:
        assert check(a.name, bound=1 if a.needs_bound else None)[0] == a
