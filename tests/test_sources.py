"""Sources: ``random:`` trees searched lazily equal the files ``gen`` writes (docs/sources.md)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.algorithms.compiled import takes
from gtsearch.cli import cli
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.formats import loads_tree
from gtsearch.sources import is_source, open_source
from gtsearch.sources.randomtree import LazyTree, RandomSpec, materialize, parse_random
from gtsearch.sources.splitmix import Feistel, child_key, draw, integer, root_key, splitmix64, unit
from gtsearch.sources.uniform import write_uniform
from gtsearch.tree import Tree

#: the spec's models and orders, every combination a source takes
COMBINATIONS = [
    ("iid", "random"),
    ("iid", "best"),
    ("iid", "worst"),
    ("iid", "strong:0.7"),
    ("permutation", "random"),
    ("incremental", "random"),
    ("binary", "random"),
    ("binary", "best"),
    ("binary", "worst"),
    ("binary", "strong:0.5"),
    ("trap", "random"),
]


# -- the numbers: test vectors another implementation must reproduce ------------------------
def test_splitmix64_vectors() -> None:
    assert splitmix64(0) == 0xE220A8397B1DCDAF  # the first output of SplitMix64 seeded 0
    assert splitmix64(1) == 0x910A2DEC89025CC1
    assert splitmix64(2**64 - 1) == 0xE4D971771B652C20
    assert root_key(1) == 0x910A2DEC89025CC1 and root_key(-1) == splitmix64(2**64 - 1)
    assert child_key(root_key(1), 0) == 0xF18D6CE93D6CF1EE
    assert draw(root_key(1), 0) == 0xB891CEEC547369F1
    assert integer(0, -100, 100) == -100 and integer(2**64 - 1, -100, 100) == 100
    assert unit(0) == 0.0 and unit(2**64 - 1) < 1.0


def test_feistel_is_a_bijection() -> None:
    for n in (1, 2, 3, 10, 17, 64, 100):
        f = Feistel(n, 1)
        assert sorted(f(i) for i in range(n)) == list(range(n))
    assert [Feistel(10, 1)(i) for i in range(10)] == [3, 7, 2, 9, 8, 5, 4, 0, 6, 1]


def test_first_leaves_are_fixed() -> None:
    """gen's trees are named by their parameters: these values are fixed forever."""
    tree = open_source("random:b=2,d=3,seed=1")
    assert materialize(tree).to_nested() == [[[61, -81], [-28, 45]], [[81, -24], [27, -47]]]
    perm = materialize(open_source("random:b=2,d=2,model=permutation"))
    assert perm.to_nested() == [[3, 2], [1, 4]]


# -- one tree, two forms -----------------------------------------------------------------------
def gen_file(spec: RandomSpec) -> Any:
    out = io.StringIO()
    write_uniform(
        out,
        spec.b,
        spec.d,
        "json",
        seed=spec.seed,
        lo=spec.lo,
        hi=spec.hi,
        order=spec.order,
        chance=spec.chance,
        model=spec.model,
        p=spec.p,
        k=spec.k,
    )
    return loads_tree(out.getvalue(), "json")


def params(algo: Any) -> dict[str, Any]:
    return {"bound": 0} if algo.needs_bound else {}


def same_results(lazy: Any, flat: Any) -> None:
    for algo in ALGORITHMS:
        if algo.chance != (lazy.chance is not None) and algo.chance:
            if lazy.chance is None:
                continue
        if lazy.chance is not None and not algo.chance:
            continue
        a = search(lazy, algo, leaf_order=True, **params(algo))
        b = search(flat, algo, leaf_order=True, **params(algo))
        assert (a.value, a.exact, a.pv, a.leaves, a.leaf_order, a.nodes, a.extra) == (
            b.value,
            b.exact,
            b.pv,
            b.leaves,
            b.leaf_order,
            b.nodes,
            b.extra,
        ), algo.name


@pytest.mark.parametrize(("model", "order"), COMBINATIONS)
def test_random_source_is_gens_file(model: str, order: str) -> None:
    """Every model and order: the same leaves, and every algorithm the same, leaf for leaf."""
    spec = RandomSpec(3, 3, seed=7, model=model, order=order, lo=-5, hi=5)
    lazy = LazyTree(spec)
    flat = gen_file(spec)
    assert materialize(lazy) == flat
    with core.pure():
        same_results(lazy, flat)
    same_results(LazyTree(spec), flat)  # the C core declines the lazy tree, searches the file


@settings(max_examples=12, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(0, 3),
    st.integers(0, 2**70),
    st.sampled_from(COMBINATIONS),
    st.booleans(),
)
def test_random_sources_alike(
    b: int, d: int, seed: int, combination: tuple[str, str], root_max: bool
) -> None:
    model, order = combination
    spec = RandomSpec(b, d, seed=seed, model=model, order=order, lo=0, hi=3)
    lazy = LazyTree(spec, root_max=root_max)
    flat = gen_file(spec).with_root(root_max)
    with core.pure():
        same_results(lazy, flat)


@pytest.mark.parametrize("model", ["iid", "permutation", "incremental", "binary"])
def test_chance_sources(model: str) -> None:
    spec = RandomSpec(2, 2, seed=3, model=model, chance=2)
    lazy = LazyTree(spec)
    flat = gen_file(spec)
    assert materialize(lazy) == flat and lazy.chance_nodes() == flat.chance_nodes()
    same_results(lazy, flat)


def test_models_do_what_they_say() -> None:
    perm = materialize(open_source("random:b=3,d=3,model=permutation,seed=4"))
    assert sorted(perm.number(n) for n in range(len(perm.end)) if perm.is_leaf(n)) == list(
        range(1, 28)
    )
    incr = materialize(open_source("random:b=2,d=2,model=incremental,values=0:0"))
    assert incr.to_nested() == [[0, 0], [0, 0]]
    ones = materialize(open_source("random:b=4,d=2,model=binary,p=1"))
    assert ones.to_nested() == [[1] * 4] * 4
    for order in ("best", "worst"):
        for b, d in ((3, 4), (4, 3)):
            tree = open_source(f"random:b={b},d={d},order={order},values=0:1000000000")
            leaves = search(tree, "alphabeta").leaves
            minimal = b ** ((d + 1) // 2) + b ** (d // 2) - 1
            assert (leaves == minimal) == (order == "best"), (order, b, d)


def test_paths_by_arithmetic() -> None:
    """LazyTree.path_of computes a node's path without entering a node: the path a descent
    through the tree's ``end`` finds, for every node."""
    for spec in ("b=3,d=3", "b=1,d=5", "b=2,d=2,chance=3", "b=4,d=0"):
        lazy = LazyTree(parse_random(spec))
        flat = materialize(LazyTree(parse_random(spec)))
        for n in range(len(flat.end)):
            assert lazy.path_of(n) == Tree.path_of(flat, n), (spec, n)
        assert lazy.visited == 1


def test_which_lazy_trees_the_compiled_core_takes() -> None:
    """The C core computes a random: source without chance levels on demand itself, in
    every model and order; a chance source, or any under the pure core, is Python's."""
    for spec in ("b=2,d=2", "b=2,d=2,order=best", "b=2,d=2,order=strong:0.5,model=binary"):
        tree = LazyTree(parse_random(spec))
        assert (takes(tree) is None) == (core.native() is None)
        with core.pure():
            assert takes(tree) is None
    assert takes(LazyTree(parse_random("b=2,d=2,chance=2"))) is None


def test_small_sources_are_built_whole_under_the_compiled_core() -> None:
    """Under the C core a random: source that fits in --max-nodes is built in C and searched
    in C; the result is the lazy tree's, leaf for leaf."""
    text = "random:b=3,d=5,seed=4,model=incremental,values=-5:9"
    tree = open_source(text)
    lazy = LazyTree(parse_random(text[len("random:") :]), source=text)
    assert isinstance(tree, LazyTree) == (core.native() is None)
    assert tree.source == lazy.source == text
    for name in ("alphabeta", "sss", "mtdf"):
        ours = search(tree, name, leaf_order=True)._replace(seconds=0.0, tree=None)
        ref = search(lazy, name, leaf_order=True)._replace(seconds=0.0, tree=None)
        assert ours == ref
    # more nodes than --max-nodes: lazy, whatever the core
    assert isinstance(open_source(text, max_nodes=100), LazyTree)
    assert isinstance(open_source("random:b=3,d=3,order=best"), LazyTree)


def test_lazy_search_visits_few_nodes() -> None:
    """b=10 d=6: a million leaves; alpha-beta reads about 5% and visits no more."""
    tree = LazyTree(parse_random("b=10,d=6,seed=1"))
    r = search(tree, "alphabeta")
    assert r.leaves_total == 10**6 and r.leaves < 60_000
    assert tree.visited < 2 * r.nodes + 10
    with pytest.raises(NodeLimit, match="more than --max-nodes 100 nodes"):
        search(open_source("random:b=10,d=6", max_nodes=100), "alphabeta")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("random:d=2", "b= is required"),
        ("random:b=2,d=2,x=1", "'x=1' is not KEY=VALUE"),
        ("random:b=2,d=2,model=gauss", "model must be one of"),
        ("random:b=2,d=2,order=strong:2", "order must be random, best, worst or strong:P"),
        ("random:b=2,d=2,model=permutation,order=best", "model permutation does not define"),
        ("random:b=2,d=2,p=0.3", "p applies to model=binary and model=trap only"),
        ("random:b=2,d=two", "bad number d='two' (d is an integer)"),
        ("random:b=2,d=2,values=1", "bad number values='1' (values is LO:HI, two integers)"),
        ("random:b=2,d=2,values=3:1", "needs LO <= HI"),
        ("random:b=2,d=2,b=3", "b is given twice"),
        ("random:b=2,d=1,chance=2,order=best", "trees with chance nodes are random"),
        # hostile sizes are refused at once, before any level is sized
        ("random:b=2,d=1000000", "the nodes are numbered in 64 bits"),
        ("random:b=40,d=12", "the nodes are numbered in 64 bits"),
        ("random:b=2,d=31,chance=3", "the nodes are numbered in 64 bits"),
        ("random:b=1,d=1000000000", "must be at most 2"),
        # every other rule of docs/sources.md, one spec each
        ("random:b=0,d=2", "b (branching) must be 1 or more, got 0"),
        ("random:b=2,d=-1", "d (depth) must be 0 or more, got -1"),
        ("random:b=2,d=2,values=-9007199254740993:0", "values must lie within -2**53 .. 2**53"),
        ("random:b=2,d=2,model=binary,p=1.5", "p must lie in [0, 1], got 1.5"),
        ("random:b=2,d=2,model=binary,p=nan", "p must lie in [0, 1], got nan"),
        ("random:b=2,d=2,order=strong:x", "got 'strong:x'"),
        ("random:b=2,d=2,order=strong", "got 'strong'"),
        ("random:b=2,d=2,chance=-1", "chance must be 0 or more, got -1"),
        ("random:b=2,d=60,model=permutation", "a permutation tree may have at most 2**53 leaves"),
    ],
)
def test_bad_specs(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        parse_random(text[len("random:") :])
    result = CliRunner().invoke(cli, ["eval", text])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    # one line that starts with the argument as typed, as a file's errors start with its path
    assert result.output.startswith(f"{text}: ") and result.output.count("\n") == 1


def test_a_deep_chain_source() -> None:
    """b=1: a chain of 200,000 levels, built in C (C core) or walked lazily (pure core),
    searched without recursion."""
    for lazy in (False, True):
        with core.pure() if lazy else contextlib.nullcontext():
            tree = open_source("random:b=1,d=200000,seed=3")
            assert isinstance(tree, LazyTree) == (lazy or core.native() is None)
            r = search(tree, "alphabeta")
        assert r.leaves == r.leaves_total == 1 and len(r.pv) == 200_000


def test_every_command_takes_a_source(tmp_path: Any) -> None:
    runner = CliRunner()
    spec = "random:b=2,d=3,seed=1"
    r = runner.invoke(cli, ["eval", spec, "-a", "alphabeta,sss"])
    assert r.exit_code == 0 and '"value": 45' in r.output
    for args in (
        ["compare", spec],
        ["show", spec],
        ["trace", spec],
        ["validate", spec],
        ["convert", spec, "--to", "sexp"],
        ["eval", spec, "--root", "min"],
    ):
        r = runner.invoke(cli, args)
        assert r.exit_code == 0, (args, r.output)
    r = runner.invoke(cli, ["convert", spec, "--to", "json"])
    assert json.loads(r.output) == [[[61, -81], [-28, 45]], [[81, -24], [27, -47]]]
    gen = runner.invoke(cli, ["gen", "-b", "2", "-d", "3", "--seed", "1"])
    assert gen.output == r.output
    assert is_source("random:b=1") and not is_source("./random:b=1")
    r = runner.invoke(cli, ["show", "random:b=10,d=6", "--max-nodes", "1000"])
    assert r.exit_code == 2 and "more than --max-nodes 1,000" in r.output


# -- experiment on sources ----------------------------------------------------------------------
def test_experiment_searches_sources_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records name their tree's source; a lazily searched tree gives what the built one gives."""
    import gtsearch.research.experiment as ex

    sweep = ex.Sweep(
        branchings=(3,), depths=(3,), trials=2, seed=4, model="binary", p=0.3, order="strong:0.6"
    )
    whole = ex.run_sweep(sweep)
    monkeypatch.setattr(ex, "WHOLE_MAX_NODES", 0)
    assert ex.run_sweep(sweep) == whole
    r = whole[0]
    assert r["model"] == "binary" and r["p"] == 0.3
    assert (
        r["source"] == f"random:b=3,d=3,seed={r['tree_seed']},model=binary,order=strong:0.6,p=0.3"
    )
    tree = open_source(r["source"])
    assert search(tree, r["algorithm"]).leaves == r["leaves"]


def test_experiment_options() -> None:
    runner = CliRunner()
    r = runner.invoke(
        cli,
        [
            "experiment",
            "-b",
            "3",
            "-d",
            "2",
            "-n",
            "2",
            "--model",
            "permutation",
            "--format",
            "csv",
        ],
    )
    assert r.exit_code == 0 and r.output.startswith("b,d,algorithm")
    r = runner.invoke(cli, ["experiment", "-b", "3", "-d", "2", "--p", "0.2"])
    assert r.exit_code == 2 and "--p applies to --model binary and trap only" in r.output
    r = runner.invoke(cli, ["experiment", "-b", "3", "-d", "2", "--order", "sideways"])
    assert r.exit_code == 2 and "--order must be one of" in r.output


MINIMAL_CASES = [
    (b, d) for b in range(2, 11) for d in range(1, 9) if b ** ((d + 1) // 2) <= 1000 and d >= 2
]


@pytest.mark.parametrize(("b", "d"), MINIMAL_CASES[::3])
def test_best_order_gives_the_minimal_tree(b: int, d: int) -> None:
    """Knuth & Moore: alpha-beta and SSS* read b^ceil(d/2) + b^floor(d/2) - 1 leaves (a third of
    the cases with at most 1,000 leaves in the larger term; docs/research.md runs b <= 10, d <= 8)."""
    tree = open_source(f"random:b={b},d={d},seed={b * d},order=best,values=0:1000000000")
    minimal = b ** ((d + 1) // 2) + b ** (d // 2) - 1
    with core.pure():
        assert [search(tree, a).leaves for a in ("alphabeta", "sss")] == [minimal] * 2
