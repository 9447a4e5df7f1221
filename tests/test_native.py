"""The C core against the pure-Python reference: the same results, leaf for leaf, on random trees.

Every search (value and its kind, PV, leaves, leaf order, nodes, the extra
figures), the seeded generator (values bit for bit) and the tokenizers (the
very tree the format's own reader gives, or None) are run under both cores in
this process (:func:`gtsearch.core.pure` switches to the reference) and
compared.  Skipped when the extension is not built, and in the
``GTSEARCH_PURE=1`` run of the suite (the pure core is forced there; this
module compares the two cores in the other run).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from array import array
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, Stats, find_algorithm, search
from gtsearch.algorithms.compiled import takes
from gtsearch.builder import TreeBuilder
from gtsearch.errors import UsageError
from gtsearch.formats import FORMATS, dump_tree, jsonfmt, loads_tree, sexp, yamlfmt
from gtsearch.formats.compiled import parse_compiled
from gtsearch.result import SearchResult
from gtsearch.sources.randomtree import (
    LazyTree,
    NodeLimit,
    RandomSpec,
    materialize,
    native_whole,
)
from gtsearch.sources.uniform import ORDERS, uniform_tree
from gtsearch.tree import Meta, Tree

from .strategies import trees
from .test_chance import chance_trees
from .test_formats import full_trees

if core.pure_asked():
    pytest.skip("GTSEARCH_PURE is set: the pure core is forced", allow_module_level=True)
if core.native() is None:
    pytest.skip("the C core is not built (no C compiler at install time?)", allow_module_level=True)

T = TypeVar("T")
READERS = {"json": jsonfmt.parse, "yaml": yamlfmt.parse, "sexp": sexp.parse}

#: the searches the C core runs (the chance searches are Python's under both cores)
TWO_PLAYER = [a for a in ALGORITHMS if not a.chance]


def both(work: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, T]:
    """``work(*args, **kwargs)`` under the C core, then under the pure-Python reference."""
    compiled = work(*args, **kwargs)
    with core.pure():
        reference = work(*args, **kwargs)
    return compiled, reference


def comparable(r: SearchResult) -> tuple[Any, ...]:
    """Everything a result says but its time, the value with its type (3 is not 3.0)."""
    return (r._replace(seconds=0.0), type(r.value), repr(r.value))


# -- searches ----------------------------------------------------------------------------------
values = st.integers(-20, 20) | st.integers(0, 3) | st.sampled_from([0.5, -1.25, 2.0, -0.0, 0.0])
params = st.integers(-22, 22) | st.sampled_from([0.5, -1.25, 2.0, 3.0, -0.0])


@st.composite
def labelled_trees(draw: st.DrawFn) -> tuple[Tree, int | None]:
    """A random tree with some names, static values on inner nodes, either root; a depth limit."""
    nested = draw(trees)
    limit = draw(st.none() | st.integers(0, 4))
    b = TreeBuilder("<random>")
    stack: list[Any] = [iter([nested])]
    count = 0
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            if stack:
                b.close()
            continue
        count += 1
        name = f"n{count}" if draw(st.booleans()) else None
        if isinstance(item, list):
            # a static value on every inner node when there is a depth limit
            static = draw(values) if limit is not None or draw(st.booleans()) else None
            b.open(name, static)
            stack.append(iter(item))
        else:
            b.leaf(item, name)
    tree = b.finish(root_max=draw(st.booleans()))
    return (tree if limit is None else tree.truncated(limit)), limit


def runs(draw: st.DrawFn) -> list[tuple[Any, dict[str, Any]]]:
    """Every algorithm, with the parameters it takes drawn (bounds, windows) or left out."""
    out: list[tuple[Any, dict[str, Any]]] = []
    for algo in TWO_PLAYER:
        if algo.takes == "bound":
            if not algo.needs_bound:
                out.append((algo, {}))
            out.append((algo, {"bound": draw(params)}))
        elif algo.takes == "window":
            out.append((algo, {}))
            a, b = draw(params), draw(params)
            if a != b:
                out.append((algo, {"alpha": min(a, b), "beta": max(a, b)}))
        else:
            out.append((algo, {}))
    return out


def check_searches(tree: Tree, planned: list[tuple[Any, dict[str, Any]]]) -> None:
    assert takes(tree) is not None, "the C core takes a tree in flat arrays"
    for algo, kwargs in planned:
        compiled, reference = both(search, tree, algo, leaf_order=True, **kwargs)
        assert comparable(compiled) == comparable(reference), (algo.name, kwargs, tree)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled_trees(), st.data())
def test_every_search_is_the_same_in_both_cores(case: tuple[Tree, int | None], data: Any) -> None:
    check_searches(case[0], runs(data.draw))


@pytest.mark.parametrize("root_max", [True, False])
@pytest.mark.parametrize("nested", [[[3, 12, 8], [2, 4, 6], [14, 5, 2]], 7, [[1]], [1.5, [2, 0.5]]])
def test_small_trees(nested: Any, root_max: bool) -> None:
    planned = [(a, {"bound": 3} if a.needs_bound else {}) for a in TWO_PLAYER]
    planned += [(a, {"bound": -1.5}) for a in TWO_PLAYER if a.takes == "bound"]
    planned.append((find_algorithm("alphabeta"), {"alpha": 2, "beta": 9}))
    check_searches(Tree.from_nested(nested, root_max=root_max), planned)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(1, 5), st.sampled_from(ORDERS), st.integers(0, 10**6))
def test_uniform_trees_searched_alike(b: int, d: int, order: str, seed: int) -> None:
    """Larger trees (up to 1,365 nodes), ordered and random, ties included (values 0..3)."""
    tree = uniform_tree(b, d, seed=seed, lo=0, hi=3, order=order, root_max=seed % 2 == 0)
    check_searches(tree, [(a, {"bound": 2} if a.needs_bound else {}) for a in TWO_PLAYER])


def test_stats_are_filled_alike() -> None:
    """The leaves come as an array of node numbers, in evaluation order; counters as Python's."""
    tree = uniform_tree(3, 4, seed=5)
    for algo in TWO_PLAYER:
        kwargs = {"bound": 0} if algo.needs_bound else {}
        stats, ref = Stats(), Stats()
        algo.run(tree, stats, **kwargs)
        with core.pure():
            algo.run(tree, ref, **kwargs)
        assert isinstance(stats.leaves, array) and list(stats.leaves) == list(ref.leaves)
        assert (stats.nodes, stats.extra) == (ref.nodes, ref.extra), algo.name
        assert stats.count() == len(ref.leaves)


def test_deep_chain_in_c() -> None:
    depth = 100_000
    text = "[" * depth + "7" + "]" * depth
    tree = parse_compiled(text, "json", "chain", 10**9)
    assert tree is not None and tree.max_depth() == depth
    for algo in TWO_PLAYER:
        kwargs = {"bound": 0 if algo.name.startswith("dual") else 9} if algo.needs_bound else {}
        r = search(tree, algo, **kwargs)
        assert (r.value, r.leaves, len(r.pv)) == (7, 1, depth), algo.name


def test_worst_case_sizes_take_no_recursion() -> None:
    """A wide root over deep chains, and a long flat list, in C: the stacks grow, nothing recurses."""
    nested: Any = 1
    for _ in range(3000):
        nested = [nested, 0]
    tree = Tree.from_nested([nested, list(range(50_000))])
    check_searches(tree, [(a, {"bound": 0} if a.needs_bound else {}) for a in TWO_PLAYER])


# -- the random: sources built whole -------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(0, 5),
    st.sampled_from(["iid", "binary", "incremental", "permutation", "trap"]),
    st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, -1, 2**64 - 1, 2**64]),
    st.integers(-(2**53), 2**53),
    st.integers(0, 20) | st.sampled_from([2**31, 2**40, 2**53]),
    st.floats(0, 1),
)
def test_random_sources_built_whole_alike(
    b: int, d: int, model: str, seed: int, lo: int, width: int, p: float
) -> None:
    """The C builder of random: sources gives the cursor's tree, node for node, in every model."""
    hi = min(lo + width, 2**53)
    try:
        spec = RandomSpec(b, d, seed=seed, model=model, lo=lo, hi=hi, p=p)
    except UsageError:  # a permutation of more than 2**53 leaves, say
        return
    built = native_whole(spec)
    with core.pure():
        reference = materialize(LazyTree(spec))
    if built is None:  # incremental sums that could leave 2**53 stay with Python
        assert model == "incremental"
        return
    assert list(built.end) == list(reference.end)
    assert [repr(v) for v in built.values] == [repr(v) for v in reference.values]
    assert built.n_leaves == reference.n_leaves and built.source == reference.source


def test_random_sources_the_c_builder_declines() -> None:
    """Ordered and chance sources are the cursor's; so is everything under the pure core."""
    for spec in (
        RandomSpec(3, 2, order="best"),
        RandomSpec(3, 2, order="strong:0.5"),
        RandomSpec(3, 2, chance=2),
        RandomSpec(2, 2, model="incremental", lo=-(2**53), hi=0),
    ):
        assert native_whole(spec) is None
    with core.pure():
        assert native_whole(RandomSpec(3, 2)) is None
    # the test vector of docs/sources.md
    tree = native_whole(RandomSpec(2, 3, seed=1))
    assert tree is not None and tree.to_nested() == [[[61, -81], [-28, 45]], [[81, -24], [27, -47]]]


# -- the random: sources computed on demand ---------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 4),
    st.integers(0, 5),
    st.sampled_from(["iid", "binary", "incremental", "permutation", "trap"]),
    st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 2**64 - 1]),
    st.integers(-(2**53), 2**53),
    st.integers(0, 20) | st.sampled_from([2**31, 2**53]),
    st.floats(0, 1),
    st.booleans(),
    st.sampled_from(["random", "best", "worst", "strong:0", "strong:0.5", "strong:1"]),
)
def test_random_sources_searched_on_demand_alike(
    b: int, d: int, model: str, seed: int, lo: int, width: int, p: float, root_max: bool, order: str
) -> None:
    """The C searches of a random: source computed on demand by the C cursor give what the
    pure searches give on the Python cursor: value, PV, leaves in order, nodes, OPEN; in
    every model and order."""
    hi = min(lo + width, 2**53)
    try:
        spec = RandomSpec(b, d, seed=seed, model=model, lo=lo, hi=hi, p=p, order=order)
    except UsageError:  # an order of the models that have none, say
        return
    tree = LazyTree(spec, root_max=root_max)
    if model == "incremental" and tree.native_view() is None:
        return  # sums that could leave 2**53 stay with Python
    assert takes(tree) is not None
    for algo in TWO_PLAYER:
        params = {"bound": 0} if algo.needs_bound else {}
        ours = search(tree, algo, leaf_order=True, **params)
        with core.pure():
            ref = search(LazyTree(spec, root_max=root_max), algo, leaf_order=True, **params)
        assert ours._replace(seconds=0.0, tree=None) == ref._replace(seconds=0.0, tree=None)


def test_knuth_and_moores_size_on_demand_in_c() -> None:
    """random:b=40,d=5,seed=1 (102,400,000 leaves, never built): docs/research.md's figures,
    searched in C in a fraction of a second (the Python cursor takes about 20 s)."""
    tree = LazyTree(RandomSpec(40, 5, seed=1))
    r = search(tree, "alphabeta")
    s = search(tree, "sss")
    assert (r.value, r.leaves, s.value, s.leaves, s.extra["open_max"]) == (
        88,
        1_447_582,
        88,
        1_285_118,
        64_000,
    )
    assert r.pv == s.pv == (23, 1, 5, 7, 17)


def test_on_demand_searches_stop_at_max_nodes() -> None:
    """--max-nodes bounds the nodes the C cursor visits, as the Python cursor's: past it, the
    search stops with the source's NodeLimit, at its next tick or at its end; a search of
    another tree afterwards is not stopped by it."""
    short = LazyTree(RandomSpec(10, 6), max_nodes=100)  # ends before its first tick
    with pytest.raises(NodeLimit, match="more than --max-nodes 100 nodes"):
        search(short, "alphabeta")
    for name in ("minimax", "negascout", "mtdf", "sss"):  # stopped at a tick
        long = LazyTree(RandomSpec(2, 40), max_nodes=100_000)
        with pytest.raises(NodeLimit, match="more than --max-nodes 100,000 nodes"):
            search(long, name)
        assert 100_000 < long.visited < 100_000 + 2 * 8192 * 40  # a tick comes every 8192 steps
    assert search(Tree.from_nested([[1, 2], [3, 4]]), "minimax").value == 3
    ok = LazyTree(RandomSpec(3, 4), max_nodes=10**6)
    search(ok, "alphabeta")
    assert 0 < ok.visited < 121  # counted as the Python cursor counts, entered nodes


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees, st.booleans())
def test_sss_with_a_sparse_bit_set(nested: Any, root_max: bool) -> None:
    """SSS*'s parked nodes are a bit set of arrays up to 2**33 nodes and of maps beyond (a
    source computed on demand can have 2**62): with the limit at 0, every tree takes the
    maps, and every SSS* and DUAL* search is still the reference's."""
    native = core.native()
    assert native is not None
    tree = Tree.from_nested(nested, root_max=root_max)
    was = native.sss_dense_limit(0)
    try:
        for name in ("sss", "dual", "sss-bounded", "dual-bounded"):
            params = {"bound": 0} if name.endswith("bounded") else {}
            ours, ref = both(search, tree, name, leaf_order=True, **params)
            assert ours._replace(seconds=0.0, tree=None) == ref._replace(seconds=0.0, tree=None)
    finally:
        assert native.sss_dense_limit(was) == 0


def test_sss_on_a_source_beyond_the_dense_bit_set() -> None:
    """random:b=2,d=34,order=best has 2**35 nodes, past the dense bit sets of SSS* (2**33
    nodes) and of the PV's Prover (2**27): its SSS* and DUAL* run in C with the sparse bit
    set and read the minimal tree, 2**17 + 2**17 - 1 leaves; the Prover finds alpha-beta's
    value and line (the first child all the way)."""
    ab = search(LazyTree(RandomSpec(2, 34, seed=3, order="best"), max_nodes=10**8), "alphabeta")
    assert ab.pv == (0,) * 34
    for name in ("sss", "dual"):
        r = search(LazyTree(RandomSpec(2, 34, seed=3, order="best"), max_nodes=10**8), name)
        assert r.leaves == 2**18 - 1 and r.leaves_total == 2**34
        assert (r.value, r.exact, r.pv) == (ab.value, True, ab.pv)


def expand(graph: dict[int, list[int]], values: dict[int, float], root: int, wide: bool) -> Any:
    """expand_states() on a graph of states given as {state: children}."""
    native = core.native()
    assert native is not None
    sizes: dict[int, int] = {}

    def size(s: int) -> int:
        if s not in sizes:
            sizes[s] = 1 + sum(size(k) for k in graph[s])
        return sizes[s]

    states = sorted(graph)
    first, kids = array("q", [0]), array("q")
    for s in states:
        kids.extend(graph[s])
        first.append(len(kids))
    return native.expand_states(
        first,
        kids,
        array("q", [size(s) for s in states]),
        array("d", [values[s] for s in states]),
        root,
        wide,
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 30), max_size=3), min_size=1, max_size=12), st.booleans())
def test_game_states_written_out_as_their_tree(raw: list[list[int]], wide: bool) -> None:
    """expand_states() writes a graph of states (children may be shared) as its tree in
    preorder: the tree a recursive expansion gives, in either width of end."""
    n = len(raw)
    graph = {s: [k % n for k in kids if k % n > s] for s, kids in enumerate(raw)}  # acyclic
    values = {s: (float(s) if not graph[s] else math.nan) for s in graph}

    def nested(s: int) -> Any:
        return [nested(k) for k in graph[s]] if graph[s] else values[s]

    end, vals = expand(graph, values, 0, wide)
    assert end.typecode == ("q" if wide else "i") and vals.typecode == "d"
    tree = Tree.from_nested(nested(0))
    assert list(end) == list(tree.end)
    assert [repr(v) for v in vals] == [repr(v) for v in tree.values]


def test_game_states_checked_before_they_are_written() -> None:
    """A graph whose sizes do not add up, or with numbers out of range, is a ValueError (the
    walk could otherwise write outside the arrays or never end); a cycle cannot add up."""
    native = core.native()
    assert native is not None
    q, d = array("q"), array("d")
    good = (array("q", [0, 1, 1]), array("q", [1]), array("q", [2, 1]), array("d", [0, 1]))
    assert [list(a) for a in native.expand_states(*good, 0, False)] == [[2, 2], [0.0, 1.0]]
    bad_cases = [
        (good[0], good[1], array("q", [3, 1]), good[3], 0),  # 3 != 1 + 1
        (good[0], array("q", [5]), good[2], good[3], 0),  # a child out of range
        (good[0], array("q", [-1]), good[2], good[3], 0),
        (array("q", [0, 1, 2]), array("q", [1, 1]), array("q", [2, 1]), good[3], 0),  # 2 != 1
        (array("q", [0, 1]), array("q", [0]), array("q", [2]), array("d", [0]), 0),  # a cycle
        (good[0], good[1], good[2], good[3], 2),  # the root out of range
        (array("q", [1, 1, 1]), good[1], good[2], good[3], 0),  # first[0] != 0
        (q, q, q, d, 0),
        (good[0], good[1], array("q", [2**62, 1]), good[3], 0),
    ]
    for case in bad_cases:
        with pytest.raises(ValueError):
            native.expand_states(*case[:4], case[4], False)
    with pytest.raises(TypeError):
        native.expand_states(good[0], good[1], array("i", [2, 1]), good[3], 0, False)
    with pytest.raises(TypeError):
        native.expand_states([0, 1, 1], good[1], good[2], good[3], 0, False)


# -- the tokenizers ----------------------------------------------------------------------------
def negative_zeros(t: Tree) -> list[int]:
    """The nodes worth -0.0, which Tree's equality does not tell from 0.0."""
    return [n for n, v in enumerate(t.values) if v == 0 and math.copysign(1.0, v) < 0]


def same_tree(a: Tree, b: Tree) -> bool:
    return (
        a == b
        and a.n_leaves == b.n_leaves
        and list(a.depth) == list(b.depth)
        and (a.floats is None) == (b.floats is None)
        and list(a.floats or b"") == list(b.floats or b"")
        and a.source == b.source
        and a.root_max == b.root_max
        and dict(a.names) == dict(b.names)
        and negative_zeros(a) == negative_zeros(b)
        and repr(a.meta) == repr(b.meta)
        and a.meta.expect_at == b.meta.expect_at
        and list(a.chance or b"") == list(b.chance or b"")
        and a.weights == b.weights
    )


def check_text(text: str, fmt: str, max_nodes: int = 10**6) -> Tree | None:
    """The compiled reader's tree for ``text``, checked against the format's reader (or None)."""
    tree = parse_compiled(text, fmt, "src", max_nodes)
    if tree is not None:
        reference = READERS[fmt](text, "src", max_nodes=max_nodes)
        assert same_tree(tree, reference), (fmt, text[:300])
    return tree


ascii_names = st.text("abcxyz_019 .-", min_size=1, max_size=3).filter(
    lambda s: s.strip() == s and s[0].isalpha()
)


@st.composite
def plain_full_trees(draw: st.DrawFn) -> Tree:
    """Full-form trees the C readers take: ASCII names, static values, floats, metadata."""
    shape = draw(
        st.recursive(st.just(0), lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=30)
    )
    numbers = st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    b = TreeBuilder("src")
    #: the names taken among the siblings of each open level (names repeat across levels)
    used: list[set[str]] = [set()]

    def name() -> str | None:
        n = draw(st.none() | ascii_names)
        if n is None or n in used[-1]:
            return None
        used[-1].add(n)
        return n

    stack: list[Any] = [iter([shape])]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            used.pop()
            if stack:
                b.close()
        elif isinstance(item, list):
            b.open(name(), draw(st.none() | numbers))
            stack.append(iter(item))
            used.append(set())
        else:
            b.leaf(draw(numbers), name())
    root = draw(st.sampled_from([None, "max", "min"]))
    text = st.none() | st.text("abc xyz", max_size=10)
    meta = Meta(draw(text), draw(text), draw(st.none() | numbers), root)
    return b.finish(root_max=root != "min", meta=meta)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_full_trees() | full_trees())
def test_writers_output_reads_alike(tree: Tree) -> None:
    for fmt in ("json", "yaml", "sexp"):
        text = dump_tree(tree, fmt)
        check_text(text, fmt)
        for limit in (tree.n_nodes - 1, tree.n_nodes):  # the node limit, passed in
            if limit >= 1:
                got = parse_compiled(text, fmt, "src", limit)
                assert got is None or limit >= tree.n_nodes


@settings(max_examples=40, deadline=None)
@given(chance_trees(), st.booleans())
def test_chance_trees_go_to_the_python_readers(nested: Any, root_max: bool) -> None:
    """A file with chance nodes is declined by the compiled readers, and read alike in both cores."""
    tree = Tree.from_nested(nested, root_max=root_max)
    for fmt in ("json", "yaml", "sexp"):
        text = dump_tree(tree, fmt)
        if tree.has_chance:
            assert parse_compiled(text, fmt, "src", 10**6) is None, text
        compiled, reference = both(loads_tree, text, fmt, "src")
        assert same_tree(compiled, reference)


@settings(max_examples=60, deadline=None)
@given(plain_full_trees())
def test_json_and_sexp_writers_output_is_taken(tree: Tree) -> None:
    """Names of plain ASCII, floats, metadata: the C reader takes what the writers write."""
    for fmt in ("json", "sexp"):
        assert check_text(dump_tree(tree, fmt), fmt) is not None, dump_tree(tree, fmt)


@settings(max_examples=60, deadline=None)
@given(trees, st.sampled_from(["", " ", "\n  ", "\t"]), st.sampled_from(["json", "yaml", "sexp"]))
def test_bare_trees_are_taken(nested: Any, space: str, fmt: str) -> None:
    opening, closing, sep = {"json": "[],", "yaml": "[],", "sexp": "() "}[fmt]
    sep = sep + space if fmt != "sexp" else " " + space

    def text(t: Any) -> str:
        if isinstance(t, list):
            return opening + space + sep.join(text(c) for c in t) + space + closing
        return repr(t) if isinstance(t, float) else str(t)

    doc = text(nested)
    tree = check_text(doc, fmt)
    # in YAML a lone number is a block document (libyaml's), and 1e-05 a string (YAML 1.1)
    yaml_odd = fmt == "yaml" and (not isinstance(nested, list) or "e" in doc or "\t" in space)
    assert tree is not None or yaml_odd, doc


ALPHABET = '[]{}(),:;"#-.+ \t\n\r0123456789eEnamevlucildrtx:.\\'


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=60), st.sampled_from(["json", "yaml", "sexp"]))
def test_any_text_gives_the_same_tree_or_goes_to_the_python_reader(text: str, fmt: str) -> None:
    check_text(text, fmt)


@pytest.mark.parametrize(
    "fmt,text",
    [
        (
            "json",
            '{"title": "T", "root": "min", "expect": 3, "tree": [[1, 2], {"name": "b", '
            '"value": 2.5}]}',
        ),
        ("json", '{"name": "A", "value": 1, "children": [{"name": "x", "value": -0.0}, 1e3]}'),
        ("json", "[[1,2,3],[4,5,-6]]"),
        ("yaml", "[[1, 2], [3, 4.5]]  # a comment\n"),
        ("yaml", "---\n{name: A b, children: [{name: x, value: 3}, 4, [5, 6,]]}\n...\n"),
        ("yaml", '{tree: [1, 2], root: min, title: "a title", expect: 1}'),
        ("sexp", '; comment\n(tree :root min :title "T" :expect 2\n  (A :value 5 (b . 3) 2.5))'),
        ("sexp", "((3 12 8) (2 4 6) (14 5 2))"),
        ("sexp", '("x y" (n :value 4) -0 +7 1e2)'),
    ],
)
def test_documents_taken(fmt: str, text: str) -> None:
    assert check_text(text, fmt) is not None


@pytest.mark.parametrize(
    "fmt,text",
    [
        ("json", "[1e400]"),  # not finite
        ("json", "[9007199254740993]"),  # beyond 2**53
        ("json", '[{"name": "a\\u00e9", "value": 1}]'),  # an escape
        ("json", '[{"name": "a", "value": 1}, {"name": "a", "value": 2}]'),  # a duplicate name
        ("json", "[[1, 2], [3"),  # cut short
        ("json", "[]"),
        ("json", "[1] [2]"),
        ("json", "[NaN]"),
        ("json", "[1,]"),
        ("json", '{"tree": [1], "root": "both"}'),
        ("json", "[\u00e9]"),  # not ASCII
        ("yaml", "[1, 2]\n--- [3]"),  # several documents
        ("yaml", "[&a 1, *a]"),  # an alias
        ("yaml", "[010, 1]"),  # an octal in YAML 1.1
        ("yaml", "[5:6]"),  # a sexagesimal
        ("yaml", "- &a 1\n- *a\n"),  # block style with an alias: libyaml's
        ("yaml", "[yes]"),
        ("yaml", "[1, \x07]"),  # not printable
        ("sexp", "(1 2"),
        ("sexp", "(inf 1)"),
        ("sexp", "(a)"),
        ("sexp", '("a\\"b" 1)'),
        ("sexp", "(1 . 2)"),
        ("sexp", "(tree :title a\x0bb 1)"),  # \x0b is white space to Python's reader
        ("sexp", "(#t 1)"),
        # chance nodes: the Python readers' (the compiled ones read two-player trees)
        ("json", '[{"chance": [1, 2]}, 3]'),
        ("json", '{"tree": [{"weights": [1, 3], "chance": [1, 2]}, 3]}'),
        ("yaml", "[{chance: [1, 2], weights: [1, 3]}, 3]"),
        ("sexp", "((:chance 1 2) 3)"),
        ("sexp", "((roll :chance :weights (1 3) 1 2) 3)"),
    ],
)
def test_documents_declined(fmt: str, text: str) -> None:
    assert parse_compiled(text, fmt, "src", 10**6) is None


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_deep_chains_in_every_format(fmt: str) -> None:
    depth = 100_000
    o, c = ("(", ")") if fmt == "sexp" else ("[", "]")
    tree = check_text(o * depth + "1" + c * depth, fmt, 10**9)
    assert tree is not None and tree.n_nodes == depth + 1


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_the_densest_texts_are_taken(fmt: str) -> None:
    """The builder takes room for 3/4 of a node a character once (load_common.c): leaves
    between one-leaf lists, the densest way to write nodes, fill it and are still taken."""
    for k in range(1, 40):
        if fmt == "sexp":
            text = "(" + "".join(f"{i}({i})" for i in range(1, k)) + f"{k})"
        else:
            text = "[" + "".join(f"{i},[{i}]," for i in range(1, k)) + f"{k}]"
        tree = check_text(text, fmt)
        assert tree is not None and tree.n_nodes == 3 * k - 1, text


def test_huge_numbers_go_to_python() -> None:
    digits = "9" * 5000
    for fmt in ("json", "yaml", "sexp"):
        o, c, sep = ("(", ")", " ") if fmt == "sexp" else ("[", "]", ", ")
        for number in (digits, "1." + digits, "9007199254740993"):  # too long, or beyond 2**53
            assert parse_compiled(o + "1" + sep + number + c, fmt, "src", 10**6) is None
        for number in ("1." + "3" * 300, "9007199254740992", "-9007199254740992"):
            assert check_text(o + "1" + sep + number + c, fmt) is not None, number


def test_loads_tree_takes_the_compiled_reader() -> None:
    text = dump_tree(uniform_tree(3, 3, seed=2), "json")
    tree = loads_tree(text, "json")
    assert tree.depth is not None and tree == jsonfmt.parse(text)


def test_bad_calls_raise_python_errors() -> None:
    """Misuse from Python is a TypeError or ValueError, never a crash nor a SystemError."""
    native = core.native()
    assert native is not None
    end, values = array("i", [1]), array("d", [1.0])
    with pytest.raises(TypeError):
        native.negamax([1], values, True, -math.inf, math.inf, True, True, None)
    with pytest.raises(TypeError):
        native.negamax(end, array("d", [1.0, 2.0]), True, 0.0, 1.0, True, True, None)
    with pytest.raises(ValueError):
        native.sss(array("i"), array("d"), True, math.inf, 1.0, None)
    with pytest.raises(TypeError):
        native.mtd(end, values, True, 0.0, array("i", [0]))
    with pytest.raises(ValueError):
        native.principal_variation(end, values, True, array("i", [5]), 1.0, 0)
    with pytest.raises(TypeError):
        native.load_mapping(b"[1]", False, 10, False)


def test_bad_calls_of_the_other_functions() -> None:
    """The PV from the leaves, the random sources and a game's states refuse misuse the same
    way: an exception, each buffer given back (no leak under LeakSanitizer)."""
    native = core.native()
    assert native is not None
    end, values = array("i", [3, 2, 3]), array("d", [math.nan, 1.0, 2.0])
    pv = native.principal_variation
    with pytest.raises(TypeError):
        pv([3, 2, 3], values, True, array("i", [1]), 2.0, 0)  # the tree: no buffer
    with pytest.raises(TypeError):
        pv(end, values, True, [1, 2], 2.0, 0)  # the leaves: no buffer
    with pytest.raises(TypeError, match="leaves must be an int array"):
        pv(end, values, True, array("d", [1.0]), 2.0, 0)
    # 8-byte leaves are read as well; leaves that prove nothing give None (as pv.py raises)
    assert pv(end, values, True, array("q", [1, 2]), 2.0, 0) == [0, 2]
    assert pv(end, values, True, array("q"), 2.0, 0) is None
    assert pv(end, values, True, array("i", [1]), 2.0, 0) is None
    assert pv(end, values, True, array("i", [1, 2]), 5.0, 0) is None
    # random_tree(b, d, model, seed, lo, hi, p, wide)
    with pytest.raises(ValueError, match="out of range"):
        native.random_tree(0, 3, 0, 1, 0, 9, 0.5, False)
    with pytest.raises(ValueError, match="2\\*\\*53"):
        native.random_tree(2, 3, 2, 1, -(2**52), 2**52, 0.5, False)
    with pytest.raises(OverflowError):
        native.random_tree(2, 100, 0, 1, 0, 9, 0.5, True)
    with pytest.raises(MemoryError):  # more than 2**31 nodes in 4-byte ends
        native.random_tree(2, 40, 0, 1, 0, 9, 0.5, False)
    # a random source's spec: (b, d, model, seed, lo, hi, p, order, strength, k, counter)
    counter = array("q", [0, 10**6])
    spec = (2, 3, 0, 1, 0, 9, 0.5, 0, 0.0, 1, counter)
    assert native.negamax(spec, None, True, -math.inf, math.inf, True, True, None)[0] >= 0
    bad_specs: list[tuple[Any, type[Exception]]] = [
        (list(spec), TypeError),
        (spec[:10], TypeError),
        ((0, *spec[1:]), ValueError),
        ((*spec[:10], [0, 10**6]), TypeError),
        ((*spec[:10], array("i", [0, 10**6])), TypeError),
        ((2, 100, *spec[2:]), OverflowError),
    ]
    for bad, error in bad_specs:
        with pytest.raises(error):
            native.negamax(bad, None, True, -math.inf, math.inf, True, True, None)
    # expand_states(first, kids, sizes, values, root, wide): each buffer refused in turn
    q, d = array("q", [0, 1]), array("d", [math.nan, 1.0])
    for k in range(4):
        args: list[Any] = [q, q, q, d]
        args[k] = [0, 1]
        with pytest.raises(TypeError):
            native.expand_states(*args, 0, False)
    with pytest.raises(TypeError):
        native.load_sexp(b"(1 2)", 10, False)
    # arguments of the wrong type, and a tree or a progress counter that is no buffer
    with pytest.raises(TypeError):
        native.random_tree("2", 3, 0, 1, 0, 9, 0.5, False)
    with pytest.raises(TypeError):
        native.sss_dense_limit("1")
    with pytest.raises(TypeError):
        native.expand_states(q, q, q, d, "0", False)
    with pytest.raises(TypeError):
        native.negamax(end, [math.nan, 1.0, 2.0], True, -math.inf, math.inf, True, True, None)
    with pytest.raises(TypeError):
        native.negamax(end, values, True, -math.inf, math.inf, True, True, [0])


def test_bad_search_arguments_raise_what_parse_tuple_raises() -> None:
    """The searches read their arguments in one place (search.c), each its own ones after
    (end, values, root_max): the errors are PyArg_ParseTuple's, as with a format per search."""
    native = core.native()
    assert native is not None
    end, values = array("i", [3, 2, 3]), array("d", [math.nan, 1.0, 2.0])

    class Unbool:
        def __bool__(self) -> bool:
            raise ZeroDivisionError("no truth")

    with pytest.raises(TypeError, match=r"^function takes exactly 8 arguments \(7 given\)$"):
        native.negamax(end, values, True, 0.0, 1.0, True, True)
    with pytest.raises(TypeError, match=r"^function takes exactly 4 arguments \(5 given\)$"):
        native.scout(end, values, True, None, None)
    with pytest.raises(TypeError, match=r"^must be real number, not str$"):
        native.negamax(end, values, True, "0", 1.0, True, True, None)
    with pytest.raises(TypeError, match=r"^must be real number, not NoneType$"):
        native.sss(end, values, True, math.inf, None, None)
    with pytest.raises(ZeroDivisionError, match="no truth"):
        native.negamax(end, values, True, 0.0, 1.0, True, Unbool(), None)
    with pytest.raises(TypeError, match=r"^progress must be an array\('q'\) of one item$"):
        native.mtd(end, values, True, 0.0, array("i", [0]))
    # and read right, each in its place: the same search as the Python version's
    assert native.negamax(end, values, True, -math.inf, math.inf, True, True, None)[:2] == (
        2.0,
        [0, 2],
    )
    assert native.mtd(end, values, False, 0.0, array("q", [0]))[0] == 1.0


# -- Ctrl-C -----------------------------------------------------------------------------------
INTERRUPT = r"""
import os, signal, sys, threading, time
from gtsearch.algorithms import Stats
from gtsearch.algorithms.scout import scout
from gtsearch.sources.randomtree import LazyTree, RandomSpec
# 4**30 leaves computed on demand by the C cursor: SCOUT would not finish for years
tree = LazyTree(RandomSpec(4, 30, seed=1), max_nodes=2**62)
stats = Stats()
# Python turns SIGINT into KeyboardInterrupt only if its parent did not ignore it, and a
# shell ignores it in the commands it starts in the background (`bash .ci/run &`): as a
# terminal's Ctrl-C would, the test wants Python's own handler.
signal.signal(signal.SIGINT, signal.default_int_handler)

def interrupt_when_busy():
    while stats.progress[0] == 0:  # the C search publishes its count as it runs
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGINT)
    # the search records every leaf (about 200 MB a second): stop it, and fail, long
    # before it fills the machine if the interrupt is not heard
    time.sleep(30)
    print("not interrupted after", stats.progress[0], "leaves", file=sys.stderr, flush=True)
    os._exit(3)

threading.Thread(target=interrupt_when_busy, daemon=True).start()
try:
    scout(tree, stats)
except KeyboardInterrupt:
    print("interrupted after", stats.progress[0], "leaves")
    sys.exit(130)
print("finished")
"""


def test_ctrl_c_stops_a_long_c_search() -> None:
    env = {k: v for k, v in os.environ.items() if k != "GTSEARCH_PURE"}
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPT], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stdout.startswith("interrupted after") and proc.stderr == ""


def test_facade() -> None:
    assert core.name() == core.C == core.NAME
    with core.pure():
        assert core.native() is None and core.name() == core.PURE
    assert core.native() is not None
    assert isinstance(FORMATS, tuple)
