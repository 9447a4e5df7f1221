"""gtsearch.algorithms.params: one check of algorithm names and parameters for every command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import ALGORITHMS, EVERY, plan, search
from gtsearch.algorithms.base import Outcome
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


# -- the parameters as data (gtsearch algorithms --format json) --------------------------------
def test_every_algorithm_lists_the_parameters_plan_lets_through() -> None:
    from gtsearch.algorithms.params import BOUND_USES, parameters

    assert set(BOUND_USES) == {a.name for a in ALGORITHMS if a.takes == "bound"}
    for algo in ALGORITHMS:
        listed = parameters(algo.name)
        assert parameters(algo.aliases[0] if algo.aliases else algo.name) == listed
        names = {p.name for p in listed}
        required = {p.name for p in listed if p.required}
        assert required == ({"bound"} if algo.needs_bound else set()), algo.name
        for p in listed:
            assert p.option == "--" + p.name.replace("_", "-")
            assert (p.default is None) == p.required
            value = {"leaf_bounds": (0, 1), "variant": "fail-hard"}.get(p.name, 1)
            plan([algo.name], **{p.name: value})  # accepted on its own
        for other in {"bound", "alpha", "beta"} - names:
            with pytest.raises(UsageError):
                plan([algo.name], **{other: 1, **({"bound": 1} if required else {})})
        if "variant" not in names:
            with pytest.raises(UsageError, match="--variant applies to alphabeta only"):
                plan([algo.name], variant="fail-hard", **({"bound": 1} if required else {}))
        if required:
            with pytest.raises(UsageError, match="needs --bound"):
                plan([algo.name])


def test_algorithms_as_data_for_scripts() -> None:
    """``gtsearch algorithms --format json``: one record per algorithm, as docs/commands.md says."""
    import json

    from gtsearch.algorithms.registry import FAMILIES, family

    assert set(FAMILIES) == {a.name for a in EVERY}
    assert set(FAMILIES.values()) == {
        "depth-first",
        "best-first",
        "null-window",
        "mt",
        "chance",
        "monte-carlo",
    }
    assert family("ab") == "depth-first" and family("mtd(f)") == "mt"
    result = CliRunner().invoke(cli, ["algorithms", "--format", "json"])
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["name"] for r in records] == [a.name for a in EVERY]
    keys = ["name", "aliases", "takes", "needs_bound", "summary", "source", "family", "parameters"]
    for r in records:
        assert list(r)[: len(keys)] == keys
        assert r["family"] == FAMILIES[r["name"]]
        for p in r["parameters"]:
            assert list(p) == ["name", "option", "type", "required", "default", "meaning"]
            assert p["type"] == {"leaf_bounds": "range", "variant": "choice"}.get(
                p["name"], "number"
            )
            assert p["required"] == (p["default"] is None)
        assert r["chance"] == (r["family"] == "chance")
    by_name = {r["name"]: r for r in records}
    assert [p["name"] for p in by_name["alphabeta"]["parameters"]] == ["alpha", "beta", "variant"]
    assert by_name["alphabeta"]["parameters"][0]["default"] == "-inf"
    assert by_name["mtdf"]["parameters"][0]["default"] == 0
    assert by_name["sss-bounded"]["parameters"][0]["required"] is True
    assert by_name["sss"]["parameters"] == []
    assert [p["option"] for p in by_name["star1"]["parameters"]] == ["--leaf-bounds"]


def test_one_declaration_of_a_searchs_numbers() -> None:
    """search(), trace() and build_view() take SearchParams; a plan's parameters pass as they are,
    and a keyword outside SearchParams is a TypeError, as a misspelt keyword always was."""
    from gtsearch.algorithms.params import MCTS_OPTIONS, PARAM_NAMES
    from gtsearch.render.view import build_view

    assert PARAM_NAMES == (
        "bound",
        "alpha",
        "beta",
        "variant",
        "leaf_bounds",
        *MCTS_OPTIONS,
        "tt",
        "history",
        "killers",
    )
    assert MCTS_OPTIONS == {
        "iterations": "--iterations",
        "seconds": "--time",
        "seed": "--seed",
        "exploration": "--exploration",
        "playout_depth": "--playout-depth",
    }
    ((algo, params),) = plan(["alphabeta"], alpha=3, beta=10)
    assert params == {"alpha": 3, "beta": 10}
    result = search(TREE, algo, **params)
    assert (result.value, result.params) == (3, {"alpha": 3, "beta": 10})
    view = build_view(TREE, algo, **params)
    assert view.result.leaves == result.leaves
    assert sum(1 for _ in trace(TREE, algo, **params)) > 0
    for call in (
        lambda: search(TREE, "alphabeta", alhpa=3),
        lambda: trace(TREE, "alphabeta", alhpa=3),
        lambda: build_view(TREE, "alphabeta", alhpa=3),
        lambda: plan(["alphabeta"], alhpa=3),
    ):
        with pytest.raises(TypeError, match="unexpected keyword argument 'alhpa'"):
            call()


def test_parameters_of_the_wrong_kind_are_refused() -> None:
    tree = Tree.from_nested([[1, 2], [3, 4]])
    with pytest.raises(UsageError, match=r"^--bound must be a number, got '3'$"):
        search(tree, "f1", bound="3")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^--leaf-bounds must be two numbers L, U, got 3$"):
        search(tree, "star1", leaf_bounds=3)  # type: ignore[arg-type]


def test_a_value_that_is_no_leaf_nor_parameter_prints_as_a_number() -> None:
    """Outcome.number: an integral value is an int unless the tree holds floats."""
    tree = Tree.from_nested([[1, 2], [3, 4]])
    assert (
        Outcome(2.0).number(tree, [0], {}) == 2 and type(Outcome(2.0).number(tree, [0], {})) is int
    )
    assert Outcome(2.5).number(tree, [0], {"bound": 1}) == 2.5
    floats = Tree.from_nested([[1.5, 2], [3, 4]])
    assert type(Outcome(2.0).number(floats, [0], {})) is float
