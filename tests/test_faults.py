"""Every allocation of the C core failed in turn, and every tick of its loops interrupted.

The C core allocates through one wrapper (``gt_malloc`` & co., core.h), which the first test
here holds it to.  The others need the core's test build (``-DGTSEARCH_FAULTS``, under
AddressSanitizer and LeakSanitizer: ``python scripts/native_tests.py --faults
tests/test_faults.py`` builds it into a copy of the tree and runs this module there; CI's
step 3), whose private functions fail the n-th allocation (``_faults(allocation=n)``,
CPython's own allocations made while a function of the core runs counted too with
``python=True``) or raise KeyboardInterrupt at the n-th tick (``_faults(tick=n)``), and count
them (``_counts()``).  For each input (every reader on each shape of document, every C search,
the ``random:`` cursor, the generator, a game's states, the PV from the leaves), the
allocations N and the ticks T of a plain run are counted, then each n in 1..N is failed and
each tick in 1..T interrupted.  The call must give the plain run's result or raise a clean
MemoryError (KeyboardInterrupt) and hold no block of the core after it; a tick past the last
changes nothing.  (The Python objects the core makes are not counted: CPython keeps a small
object now and then after one of its own allocations failed, and sys.getallocatedblocks()
moves with its caches.)  Under the normal build these tests are skipped
(``GTSEARCH_FAULTS_REQUIRED=1``: they fail instead).
"""

from __future__ import annotations

import functools
import gc
import json
import os
import random
import re
from array import array
from collections.abc import Callable
from math import nan as NAN
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import gtsearch
from gtsearch import core
from gtsearch.algorithms import ALGORITHMS, search
from gtsearch.algorithms.iterative import iterate
from gtsearch.algorithms.solve import solve
from gtsearch.cli import cli
from gtsearch.formats import dump_tree, loads_tree
from gtsearch.formats.compiled import parse_compiled
from gtsearch.sources.gamespec import open_game
from gtsearch.sources.randomtree import LazyTree, RandomSpec, native_whole
from gtsearch.tree import Tree

from .tables import tiny_tables

NATIVE = Path(gtsearch.__file__).parent / "_native"
OUT_OF_MEMORY = "out of memory: the tree or the search needs more than this machine has\n"
SAMPLES = Path(__file__).parent.parent / "sample_trees"

#: a call of the C library's allocator, or of one that hands out memory free() takes
BARE = re.compile(
    r"(?<![\w.>])(malloc|calloc|realloc|free|strdup|strndup|aligned_alloc|posix_memalign)\s*\("
)
#: the wrapper's normal build, in core.h: the only bare calls allowed (faults.c, the test
#: build's wrapper, is the other place that calls the C library's allocator)
WRAPPER = re.compile(r"^static inline \w+ \*?gt_(malloc|calloc|realloc|free)\(")


def test_every_allocation_goes_through_the_wrapper() -> None:
    """No malloc, calloc, realloc or free under gtsearch/_native but gt_malloc & co."""
    bare = []
    for path in sorted(NATIVE.glob("*.[ch]")):
        if path.name == "faults.c":
            continue
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m[0].count("\n"), path.read_text(), flags=re.S)
        for number, line in enumerate(text.splitlines(), 1):
            if BARE.search(line) and not (path.name == "core.h" and WRAPPER.match(line)):
                bare.append(f"{path.name}:{number}: {line.strip()}")
    assert not bare, "allocate through gt_malloc, gt_calloc, gt_realloc and gt_free:\n" + "\n".join(
        bare
    )


def allocation_sites() -> set[str]:
    """file:line of every call of gt_malloc, gt_calloc and gt_realloc in the core."""
    sites = set()
    for path in sorted(NATIVE.glob("*.c")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bgt_(malloc|calloc|realloc)\(", line):
                sites.add(f"{path.name}:{number}")
    return sites


def test_the_sites_are_found() -> None:
    """allocation_sites() sees the wrapper's calls (the test of the fault build relies on it)."""
    assert len(allocation_sites()) > 40


# -- the test build ------------------------------------------------------------------------------
native = core.native()
faulty = native is not None and hasattr(native, "_faults")
if not faulty and os.environ.get("GTSEARCH_FAULTS_REQUIRED"):
    raise RuntimeError("GTSEARCH_FAULTS_REQUIRED: the C core is not its test build")
needs_faults = pytest.mark.skipif(
    not faulty, reason="needs the C core's test build: python scripts/native_tests.py --faults"
)


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def tree_of(text: str, fmt: str) -> Tree:
    """The tree of a text, read by the Python reader: the module loads under the pure core."""
    return loads_tree(text, fmt)


NAMED = """{"title": "t", "description": "d", "root": "min", "expect": 2.5, "tree":
  {"name": "r", "children": [
    {"name": "a", "value": 3, "children": [{"name": "a1", "value": 2.5}, {"value": -1}]},
    {"chance": true, "children": [{"weight": 1, "value": 4}, {"weight": 3, "value": 0.5}]},
    [1, [2, 3.25]], {"name": "z", "value": -7}]}}"""
CHANCE_SEXP = (
    '(tree :title "c" :root max (chance (1 4) (3 (min 2 5))) (a 1 2.5) (b :value 3 (4 5)))'
)
FLOW_YAML = "{tree: [[3, 12, 8], [2, 4, 6], [14, 5, 2.5]], title: aima, expect: 3}"
#: block YAML: literal text, a sequence at its key's indentation, a flow tree on its lines
BLOCK_YAML = """---  # a tree
title: |-
  two
  lines
description: >
  folded

  text
root: min
expect: 1.0e+1
tree:
  name: r
  children:
  - {name: a, value: 3}
  - - 1
    -
      - 2.5
  - name: b
    value: -4
    children: [5,
      6]
"""
#: static values on the inner nodes (mcts's playouts cut at depth 1)
ESTIMATES = """{"tree": {"value": 1, "children": [{"value": 2, "children": [3, 4]},
  {"value": -1, "children": [5, {"value": 0, "children": [1, 2]}]}]}}"""
#: Gambit's labels as written (L, R then l, r), a move of one player twice (a forced pass put in)
FORCED_EFG = """EFG 2 R "forced" { "P1" "P2" } ""
p "" 1 1 "" { "L" "R" } 0
p "" 2 1 "" { "l" "r" } 0
t "" 1 "" { 3, -3 }
p "" 2 2 "" { "x" "y" } 0
t "" 2 "" { 1.5, -1.5 }
t "" 3 "" { -2, 2 }
p "" 1 2 "" { "a" "b" } 0
p "" 1 3 "" { "c" "d" } 0
t "" 4 "" { 4, -4 }
t "" 5 "" { 0, 0 }
t "" 6 "" { 5, -5 }
"""

#: documents the readers take, by format: bare lists, names, metadata, floats, chance nodes
DOCUMENTS: list[tuple[str, str, str]] = [
    ("json-bare", "json", sample("aima-fig5-2.bare.json")),
    ("json-named", "json", NAMED),
    ("json-sample", "json", sample("wikipedia-alphabeta.json")),
    ("json-declined", "json", '{"tree": [1, 2], "other": 3}'),
    ("yaml-flow", "yaml", FLOW_YAML),
    ("yaml-bare", "yaml", sample("aima-fig5-2.bare.yaml")),
    ("yaml-named", "yaml", NAMED),
    ("yaml-block", "yaml", sample("aima-fig5-2.yaml")),
    ("yaml-block-styles", "yaml", BLOCK_YAML),
    ("yaml-block-deep", "yaml", "- " * 70 + "[1, 2.5]\n"),
    ("yaml-block-declined", "yaml", "tree:\n- - 1\n  - &a 2\n"),
    ("sexp-bare", "sexp", sample("aima-fig5-2.bare.sexp")),
    ("sexp-chance", "sexp", CHANCE_SEXP),
    ("sexp-sample", "sexp", sample("hand-c-min-root.sexp")),
    ("efg-sample", "efg", sample("nim-5.efg")),
    ("efg-forced", "efg", FORCED_EFG),
]


def read(fmt: str, text: str, wide: bool) -> Callable[[], Any]:
    def work() -> Any:
        max_nodes = 2**40 if wide else 10**6
        tree = parse_compiled(text, fmt, "test", max_nodes)
        return None if tree is None else (dump_tree(tree, "sexp"), tree.meta, tree.end.typecode)

    return work


def searched(tree: Callable[[], Tree], name: str, **params: Any) -> Callable[[], Any]:
    def work() -> Any:
        r = search(tree(), name, leaf_order=True, **params)
        return r._replace(seconds=0.0), type(r.value)

    return work


def objects(depth: int, chance: bool, name: str, **params: Any) -> Callable[[], Any]:
    """A search of a drawn game's states in C."""
    from .drawn import drawn_comb, opened

    return searched(lambda: opened(drawn_comb(depth, chance), chance), name, **params)


def objects_again() -> Any:
    """Two searches of a game's states in C on one tree: the second goes on with the nodes the
    first numbered."""
    from .drawn import drawn_comb, opened

    tree = opened(drawn_comb(70, False), False)
    return [
        (r._replace(seconds=0.0), type(r.value))
        for r in (search(tree, "alphabeta", leaf_order=True), search(tree, "minimax"))
    ]


def setting(name: str, value: int, work: Callable[[], Any]) -> Callable[[], Any]:
    """work() with the core's setting ``name`` (a function of the module that sets it and
    returns the former value) at ``value``, the former value put back after."""

    def run() -> Any:
        assert native is not None
        former = getattr(native, name)(value)
        try:
            return work()
        finally:
            getattr(native, name)(former)

    return run


TWO_PLAYER = [a.name for a in ALGORITHMS if not a.chance]
#: the bounds the bounded searches need
BOUND = {"sss-bounded": {"bound": 3}, "dual-bounded": {"bound": 2}}
AIMA = tree_of(sample("aima-fig5-2.bare.json"), "json")
TIES = tree_of("[[[3, 3], [2.5, 3]], [[3, -1], [3, 3]], [[0, 4], 3]]", "json")
LEAF = tree_of("5", "json")


def comb(depth: int, seed: int) -> Tree:
    """A tree 2 * depth deep, one subtree and two or three leaves at each level, the subtree
    at a random place: the searches' stacks and lists outgrow their first room (64 items)."""
    rng = random.Random(seed)
    node: Any = [rng.randint(-9, 9), rng.randint(-9, 9)]
    for _ in range(depth):
        kids: list[Any] = [rng.randint(-9, 9) for _ in range(rng.randint(2, 3))]
        kids.insert(rng.randint(0, len(kids)), [node, rng.randint(-9, 9)])
        node = kids
    return tree_of(json.dumps(node), "json")


COMBS = [comb(40, 1), comb(40, 2), comb(40, 3)]


def lazy() -> Tree:
    return LazyTree(RandomSpec(3, 4, seed=7))


def game() -> Tree:
    return open_game("nim:5")


def mcts_on_demand(spec: str, depth: int | None = None, **params: Any) -> Callable[[], Any]:
    """mcts in C on a game on demand over its C rules (search_mcts.c's game source): its
    figures and the nodes it numbered (an OnDemandTree's repr is refused: a search needs it)."""

    def work() -> Any:
        t = open_game(spec, on_demand=True, depth=depth)
        r = search(t, "mcts", leaf_order=True, **params)
        kept = (list(t.up), list(t.first), list(t.depths), t.loose_paths, t.deepest)
        return r.value, r.pv, r.leaf_order, r.nodes, r.extra, kept

    return work


def tabled_on_demand(
    kind: str, spec: str, depth: int | None, buckets: int | None = None, **params: Any
) -> Callable[[], Any]:
    """A search with a table on a game on demand over its C rules (search_tabled_ondemand.c):
    alphabeta or negascout with --tt 1, eval --iterative or solve's iterations; its result
    untimed, the nodes and positions numbered; ``buckets``: every table cut down to that many
    buckets (the line's uncounted searches then run)."""

    def work() -> Any:
        from gtsearch.algorithms import iterative, tabled
        from gtsearch.algorithms import solve as solving

        with tiny_tables(buckets, tabled, iterative, solving):
            t: Any = open_game(spec, depth=depth, on_demand=True)
            if kind == "iterate":
                r: Any = [x._replace(seconds=0.0, tree=None) for x in iterate(t, 1, **params)]
            elif kind == "solve":
                done = solve(t, 1)
                r = done._replace(seconds=0.0, iterations=[])
            else:
                r = search(t, kind, leaf_order=True, tt=1, **params)._replace(seconds=0.0)
        n = len(t.keys)
        return r, list(t.first), list(t.up), [t.position(k) for k in range(0, n, 7)]

    return work


def deepened() -> Any:
    """eval --iterative with a table (search_tabled.c): each iteration's result, untimed."""
    return [r._replace(seconds=0.0) for r in iterate(tree_of(ESTIMATES, "json"), 1)]


def solved() -> Any:
    """solve with a table on a game (its positions written out first), untimed."""
    done = solve(game(), 1)
    return done._replace(seconds=0.0, iterations=[i._replace(seconds=0.0) for i in done.iterations])


@functools.cache
def tictactoe() -> Tree:
    """The whole of tic-tac-toe, counted once: reopened from a position below."""
    return open_game("tictactoe")


if faulty:  # counted before any walk, so that every run of a walk makes the same calls
    tictactoe()


def kernel_game() -> Tree:
    """Tic-tac-toe from X 5, O 1, X 9 (its entries counted in C): the C searches read its
    tree from their graph (game_graph.c).

    The whole game it is reopened from is counted once, outside the walks: its 5,478
    positions are the same loop of count_game, whose every allocation and tick
    ``game-kernel`` fails from X 5, and walking them again under each search multiplied
    the search's ticks by twenty (5,963 instead of 260 for alpha-beta, each run 7 ms: 40 s
    of the walk's 45)."""
    return tictactoe().reopened(source="game:tictactoe", start=0b100010000 | 1 << 9 | 1 << 19)


def kernel_count(room: int) -> Callable[[], Any]:
    """Tic-tac-toe's entries counted in C from X 5, the arrays first as large as `room`."""

    def work() -> Any:
        assert native is not None
        return native.count_game(0, 1 << 4 | 1 << 19, 10**6, room)

    return work


def game_rules(entry: str, name: str, params: tuple[int, ...], *rest: Any) -> Callable[[], Any]:
    """A built-in game's rules in C (game_rules_py.c): its initial state, a state's step, a
    perft walk (a stack that grows)."""

    def work() -> Any:
        assert native is not None
        return getattr(native, entry)(name, params, *rest)

    return work


def on_demand(spec: str, depth: int | None = None) -> Callable[[], Tree]:
    """A built-in game searched on demand, cut at ``depth``: in C over its rules."""
    return lambda: open_game(spec, depth=depth, on_demand=True)


def expand_star() -> Any:
    """A game's states written out: a root with 70 moves to one state (a stack that grows)."""
    assert native is not None
    first, kids = array("q", [0, 70, 70]), array("q", [1] * 70)
    return native.expand_states(first, kids, array("q", [71, 1]), array("d", [NAN, 1.0]), 0, False)


def sparse(name: str) -> Callable[[], Any]:
    """SSS* or DUAL* with their sets of parked nodes kept sparse (a hash map), as on a tree of
    more than 2**33 nodes."""
    return setting("sss_dense_limit", 1, searched(lambda: LazyTree(RandomSpec(4, 5, seed=3)), name))


def on_demand_4x4(name: str, **params: Any) -> Callable[[], Any]:
    """A search of Connect Four 4 x 4 (three in a row) on demand, cut at depth 5, over its C
    rules (search_sss_ondemand.c, game_tree.c): the result and the nodes numbered."""

    def work() -> Any:
        tree: Any = open_game("connect4:rows=4,columns=4,k=3", depth=5, on_demand=True)
        r = search(tree, name, leaf_order=True, **params)
        return r._replace(seconds=0.0, tree=None), list(tree.first), list(tree.up)

    return work


#: the random: source's models as the C generator numbers them
MODELS = {"iid": 0, "binary": 1, "incremental": 2, "permutation": 3, "trap": 4}


def whole(model: str, wide: bool) -> Callable[[], Any]:
    def work() -> Any:
        assert native is not None
        end, values = native.random_tree(3, 3, MODELS[model], 5, -100, 100, 0.5, wide)
        return end, values

    return work


def c4_solved(most: int) -> Callable[[], Any]:
    """The Connect Four solver (solve_c4.c) on 4x4 after 2 3 2 3 (about 530 positions), the
    probes' times left out; ``most``: the positions it may enter."""

    def work() -> Any:
        assert native is not None
        x, o = 1 << 5 | 1 << 6, 1 << 10 | 1 << 11  # X in column 2, O in column 3, 2 each
        found = native.solve_c4(4, 4, 4, x, x | o, 1 << 10, most)
        if found is None:
            return None
        return (*found[:6], [p[:5] for p in found[6]], found[7])

    return work


#: (id, call) pairs: the work whose allocations and ticks are failed one by one
CASES: list[tuple[str, Callable[[], Any]]] = [
    *[
        (f"read-{id_}-{w}", read(fmt, text, w == "wide"))
        for id_, fmt, text in DOCUMENTS
        for w in ("narrow", "wide")
    ],
    *[
        (f"search-{name}-aima", searched(lambda: AIMA, name, **BOUND.get(name, {})))
        for name in TWO_PLAYER
    ],
    *[
        (f"search-{name}-ties", searched(lambda: TIES, name, **BOUND.get(name, {})))
        for name in TWO_PLAYER
    ],
    *[
        (f"search-{name}-random", searched(lazy, name, **BOUND.get(name, {})))
        for name in TWO_PLAYER
    ],
    *[
        (f"search-{name}-leaf", searched(lambda: LEAF, name, **BOUND.get(name, {})))
        for name in TWO_PLAYER
    ],
    *[
        (f"search-{name}-deep{k}", searched(lambda t=t: t, name, **BOUND.get(name, {})))
        for name in TWO_PLAYER
        for k, t in enumerate(COMBS)
    ],
    ("search-alphabeta-window", searched(lambda: TIES, "alphabeta", alpha=2, beta=3)),
    ("search-mtdf-guess", searched(lambda: TIES, "mtdf", bound=2)),
    ("game", searched(game, "alphabeta")),
    # a built-in game counted in C, its arrays grown or not, and searched from its graph
    ("game-kernel", kernel_count(0)),
    ("game-kernel-grown", kernel_count(1)),
    *[
        (f"search-{name}-graph", searched(kernel_game, name, **params))
        for name, params in (("alphabeta", {}), ("sss", {}), ("alphabeta", {"tt": 1}))
    ],
    ("game-wide-node", expand_star),
    ("game-rules-deep", game_rules("game_perft", "nim", (100, 1, 0), (100, 1, 0, 0), 200)),
    (
        "game-rules-perft",
        game_rules(
            "game_perft", "othello", (4, 4), (0b0000010000100000, 0b0000001001000000, 1, 0), 4
        ),
    ),
    # a game searched on demand over its C rules (game_tree.c): the tree's arrays grown, a
    # game's end, the cut, the root a leaf, the fail-hard form
    ("search-game-c-alphabeta", searched(on_demand("connect4", 3), "alphabeta")),
    ("search-game-c-minimax-end", searched(on_demand("connect4:rows=2,columns=3,k=2"), "minimax")),
    (
        "search-game-c-hard",
        searched(on_demand("connect4", 2), "alphabeta", variant="fail-hard", alpha=0, beta=0.01),
    ),
    ("search-game-c-root-leaf", searched(on_demand("connect4", 0), "f1")),
    ("search-game-c-negascout", searched(on_demand("connect4", 3), "negascout")),
    ("search-game-c-negascout-leaf", searched(on_demand("connect4", 0), "negascout")),
    ("search-game-c-scout", searched(on_demand("connect4", 3), "scout")),
    ("search-game-c-scout-leaf", searched(on_demand("connect4", 0), "scout")),
    ("search-game-c-mtdf", searched(on_demand("connect4", 3), "mtdf")),
    ("search-game-c-mt-dual-leaf", searched(on_demand("connect4", 0), "mt-dual")),
    *[(f"search-{name}-sparse", sparse(name)) for name in ("sss", "dual", "mt-sss")],
    # expectiminimax, Star1 and Star2 on pig on demand in C (search_chance_ondemand.c): the
    # frames and the arrays grown, Star2's probes, the cut's decimals, the root a leaf
    *[
        (f"search-game-c-{name}{tail}", searched(on_demand(spec, depth), name, **params))
        for name, tail, spec, depth, params in (
            ("expectiminimax", "", "pig:target=6,die=3,horizon=5", None, {}),
            ("star1", "", "pig:target=6,die=3,horizon=5", None, {"tt": 0}),
            ("star2", "", "pig:target=6,die=3,horizon=5", None, {"tt": 0}),
            ("star2", "-cut", "pig:target=7,die=4,horizon=9", 4, {"tt": 0}),
            ("expectiminimax", "-leaf", "pig:target=7,die=4,horizon=9", 0, {}),
            # with a table: the default one (the positions' and the buckets' maps grow), --tt 1
            # below a cut, the root a leaf
            ("star1", "-tt", "pig:target=6,die=3,horizon=8", None, {}),
            ("star2", "-tt", "pig:target=6,die=3,horizon=8", None, {}),
            ("star2", "-tt-cut", "pig:target=7,die=4,horizon=9", 4, {"tt": 1}),
            ("star1", "-tt-leaf", "pig:target=7,die=4,horizon=9", 0, {}),
            # the leaf bounds L = U: the PV's walk numbers 58 positions the search did not meet
            ("star1", "-tt-line", "pig:target=2,die=2,horizon=31", None, {"leaf_bounds": (0, 0)}),
        )
    ],
    # SSS*, DUAL* and the MT family on a game's tree on demand over its C rules
    *[
        (f"search-{name}-on-demand", on_demand_4x4(name, **params))
        for name, params in (
            ("sss", {}),
            ("dual", {}),
            ("sss-bounded", {"bound": -0.25}),
            ("dual-bounded", {"bound": 0.25}),
            ("mt-sss", {}),
            ("mt-dual", {}),
            ("mtdf", {"bound": 0.5}),
        )
    ],
    *[
        (
            f"search-alphabeta-{order}",
            searched(lambda o=order: LazyTree(RandomSpec(3, 4, order=o)), "alphabeta"),
        )
        for order in ("best", "strong:0.5")
    ],
    (
        "search-alphabeta-trap",
        searched(lambda: LazyTree(RandomSpec(3, 4, model="trap")), "alphabeta"),
    ),
    # the PV of a search that gives none, from 1,799 leaves out of order among 837,931 nodes
    # (sorted by the radix sort)
    ("search-mtdf-big", searched(lambda: LazyTree(RandomSpec(30, 4, order="best")), "mtdf")),
    ("random-whole", lambda: native_whole(RandomSpec(2, 3, seed=1))),
    # a game's states searched in C, asked through the CPython API (search_objects.c): small
    # games here, with CPython's allocations failed too (the states' methods are Python's);
    # deep ones, whose stacks grow, in OBJECTS_DEEP
    *[
        (f"search-objects-{name}", objects(depth, name == "expectiminimax", name))
        for name, depth in (("minimax", 6), ("alphabeta", 8), ("expectiminimax", 9))
    ],
    # the searches with a transposition table (search_tabled.c, table.c): a tree, a random:
    # source, a game (its positions written out), iterative deepening and solve
    *[
        (f"search-tt-{name}-{id_}", searched(t, name, tt=1))
        for name in ("alphabeta", "negascout", "mt-sss", "mtdf")
        for id_, t in (("ties", lambda: TIES), ("random", lazy), ("game", game))
    ],
    ("search-tt-alphabeta-deep", searched(lambda: COMBS[0], "alphabeta", tt=1)),
    # every table a block of its own (table.c's kept blocks off), MTD(f)'s line's table too
    ("search-tt-unkept", setting("keep_tables", 0, searched(game, "mtdf", tt=1))),
    ("iterate-tt", deepened),
    # the searches with a table on a game on demand over its C rules (search_tabled_ondemand.c):
    # the positions' map grown, the line's uncounted searches (tiny tables), the root a leaf,
    # a cut, passes (Othello), iterative deepening's horizon and solve's scores
    *[
        (f"search-tt-game-c-{kind}-{id_}", tabled_on_demand(kind, spec, depth, buckets))
        for kind in ("alphabeta", "negascout")
        for id_, spec, depth, buckets in (
            ("c4", "connect4:rows=4,columns=4,k=3", 5, None),
            ("tiny", "connect4:rows=3,columns=4,k=3", None, 1),
            ("leaf", "connect4", 0, None),
            ("othello", "othello", None, 2),
        )
    ],
    ("search-tt-game-c-window", tabled_on_demand("alphabeta", "connect4", 3, alpha=0, beta=0.1)),
    # the MT family with a table on a game on demand (search_tabled_ondemand.c's kind 2 over
    # game_tree.c's MT passes): leaves read again (a tiny table), the root a leaf, a cut
    *[
        (f"search-tt-game-c-{kind}-{id_}", tabled_on_demand(kind, spec, depth, buckets, **params))
        for kind, params in (("mt-sss", {}), ("mtdf", {"bound": 0.1}))
        for id_, spec, depth, buckets in (
            ("c4", "connect4:rows=4,columns=4,k=3", 5, None),
            ("tiny", "connect4:rows=3,columns=4,k=3", None, 2),
            ("leaf", "connect4", 0, None),
        )
    ],
    ("iterate-tt-game-c", tabled_on_demand("iterate", "connect4:rows=3,columns=4,k=3", None, 2)),
    ("iterate-tt-game-c-deep", tabled_on_demand("iterate", "othello", None)),
    ("iterate-tt-game-c-cut", tabled_on_demand("iterate", "connect4", 3, max_depth=2)),
    ("solve-tt-game-c", tabled_on_demand("solve", "othello", None, 3)),
    ("solve-tt-game-c-nim", tabled_on_demand("solve", "nim:9", None)),
    # the lines of these need an uncounted search below a node (its own table)
    ("solve-tt-game-c-line", tabled_on_demand("solve", "connect4:rows=3,columns=4,k=3", None)),
    ("iterate-tt-game-c-line", tabled_on_demand("iterate", "dotsandboxes", None)),
    ("solve-tt-game", solved),
    # the Connect Four solver: the probes and the line, and the node limit passed
    ("solve-c4", c4_solved(10**6)),
    ("solve-c4-limit", c4_solved(200)),
    # mcts: its entries, the logs and paths that grow, chance nodes drawn by their weights, a
    # playout cut at a static value
    *[
        (f"search-mcts-{id_}", searched(t, "mcts", iterations=150, seed=3, playout_depth=p))
        for id_, t, p in (
            ("aima", lambda: AIMA, None),
            ("ties", lambda: TIES, None),
            ("chance", lambda: tree_of(sample("chance-worked.yaml"), "yaml"), None),
            ("estimates", lambda: tree_of(ESTIMATES, "json"), 1),
            ("random", lazy, None),
            ("deep", lambda: COMBS[0], None),
        )
    ],
    # mcts on a game's C rules: the nodes numbered, the loose leaves' paths and their map, a
    # playout cut by --playout-depth or the --depth cut
    ("search-mcts-game", mcts_on_demand("connect4:rows=4,columns=4", iterations=150, seed=3)),
    (
        "search-mcts-game-cut",
        mcts_on_demand("connect4:rows=3,columns=5", 4, iterations=100, seed=1, playout_depth=2),
    ),
    # ... Pig's chance nodes drawn by their weights, and a root at the cut (its squares)
    ("search-mcts-game-pig", mcts_on_demand("pig:target=8", 6, iterations=120, seed=2)),
    ("search-mcts-game-pig-leaf", mcts_on_demand("pig", 0, iterations=5, seed=2)),
    *[
        (f"random-tree-{model}-{w}", whole(model, w == "wide"))
        for model in MODELS
        for w in ("narrow", "wide")
    ],
]


def counted(work: Callable[[], Any], **faults: Any) -> tuple[Any, int, int]:
    """work()'s result (or its exception), allocations and ticks, with these faults."""
    assert native is not None
    # no collection while CPython's allocations fail: the collector would run the callbacks
    # other tests registered (hypothesis's), whose MemoryError Python could only print
    collecting = gc.isenabled()
    gc.disable()
    # each run starts and ends with no table's memory kept (table.c), so that every run makes
    # the same allocations, and holds nothing after
    native.release_tables()
    native._faults(**faults)
    try:
        result = work()
    except BaseException as e:  # noqa: BLE001  # the caller judges it
        result = e
    allocations, ticks, _ = native._counts()
    native._faults()
    native.release_tables()
    if collecting:
        gc.enable()
    return result, allocations, ticks


def held() -> int:
    """The blocks the core holds (its own count: LeakSanitizer reports them at exit too)."""
    assert native is not None
    return int(native._counts()[2])


def walk(work: Callable[[], Any], expected: Any, n: int, kind: str, **faults: Any) -> None:
    """work() with each of the n allocations (or ticks) failed in turn: the expected result or
    the exception of that kind of fault, and no block of the core held after it."""
    blocks = held()
    for k in range(1, n + 1):
        result, _, _ = counted(work, **{kind: k}, **faults)
        if isinstance(result, BaseException):
            wanted = MemoryError if kind == "allocation" else KeyboardInterrupt
            assert type(result) is wanted, f"{kind} {k} of {n}: {result!r}"
        else:
            assert kind == "allocation" and same(result, expected), f"{kind} {k} of {n}: {result}"
        result = None
        assert held() == blocks, f"{kind} {k} of {n}: blocks of the core leaked"


def same(a: Any, b: Any) -> bool:
    """Equal results, NaN equal to NaN (the values of inner nodes)."""
    return repr(a) == repr(b)


@needs_faults
@pytest.mark.parametrize("python", [False, True], ids=["core", "core+cpython"])
@pytest.mark.parametrize("work", [w for _, w in CASES], ids=[i for i, _ in CASES])
def test_every_allocation_fails_cleanly(work: Callable[[], Any], python: bool) -> None:
    """Fail each allocation in turn: the plain result or MemoryError, nothing held after.

    With ``python``, CPython's allocations while the core runs are failed too."""
    expected, n, _ = counted(work, python=python)
    assert not isinstance(expected, BaseException), expected
    assert n > 0
    walk(work, expected, n, "allocation", python=python)


#: the game rules' steps in C (game_rules_py.c): no allocation of the core's own and no loop, only
#: CPython's objects (lists, ints, tuples)
RULES_STEPS = [
    ("game-rules-initial", game_rules("game_initial", "othello", (8, 8))),
    (
        "game-rules-step",
        game_rules("game_step", "othello", (8, 8), (1 << 28 | 1 << 35, 1 << 27 | 1 << 36, 1, 0)),
    ),
    (
        "game-rules-chance",
        game_rules("game_step", "pig", (6, 6, 6), (0, 0, 0, 1 << 32 | 1 << 33 | 1)),
    ),
    ("game-rules-pawns", game_rules("game_step", "hexapawn", (8, 8), (0xFF, 0xFF << 56, 1, 0))),
]


@needs_faults
@pytest.mark.parametrize("work", [w for _, w in RULES_STEPS], ids=[i for i, _ in RULES_STEPS])
def test_every_allocation_of_a_step_fails_cleanly(work: Callable[[], Any]) -> None:
    """Fail each of CPython's allocations while a step runs: the plain result or MemoryError."""
    expected, n, _ = counted(work, python=True)
    assert not isinstance(expected, BaseException), expected
    assert n > 0
    walk(work, expected, n, "allocation", python=True)


#: the cases whose ticks are walked: all but the large tree's (100,000 ticks) and the searches of
#: a lone leaf (no loop runs, no tick)
TICKED = [(i, w) for i, w in CASES if i != "search-mtdf-big" and not i.endswith("-leaf")]
#: the searches of a game's states, 70 levels deep: each allocation of the core failed in turn
#: and each tick interrupted (CPython's allocations, thousands in the states' methods, are
#: failed on the small games of CASES)
OBJECTS_DEEP = [
    *[
        (f"search-objects-{name}-deep", objects(70, name == "expectiminimax", name))
        for name in ("minimax", "alphabeta", "expectiminimax")
    ],
    ("search-objects-again", objects_again),
]


@needs_faults
@pytest.mark.parametrize("work", [w for _, w in OBJECTS_DEEP], ids=[i for i, _ in OBJECTS_DEEP])
def test_every_allocation_of_a_deep_search_of_states_fails_cleanly(work: Callable[[], Any]) -> None:
    """A deep search of a game's states in C, each allocation of the core failed in turn."""
    expected, n, _ = counted(work)
    assert not isinstance(expected, BaseException), expected
    walk(work, expected, n, "allocation")


@needs_faults
@pytest.mark.parametrize(
    "work", [w for _, w in TICKED + OBJECTS_DEEP], ids=[i for i, _ in TICKED + OBJECTS_DEEP]
)
def test_every_tick_can_be_interrupted(work: Callable[[], Any]) -> None:
    """Interrupt each tick in turn: KeyboardInterrupt, nothing held after; past the last
    tick, the plain result."""
    expected, _, ticks = counted(work)
    assert ticks > 0
    walk(work, expected, ticks, "tick")
    assert same(counted(work, tick=ticks + 1)[0], expected)


@needs_faults
def test_every_allocation_site_failed() -> None:
    """The walks above failed every allocation the core makes somewhere (run after them)."""
    assert native is not None
    for _, work in CASES + OBJECTS_DEEP:
        _, n, _ = counted(work)
        for k in range(1, n + 1):
            counted(work, allocation=k)
    missed = allocation_sites() - set(native._sites())
    assert not missed, f"allocation sites no input fails: {sorted(missed)}"


# -- at the command line -------------------------------------------------------------------------
def test_memory_running_out_is_one_line_and_status_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError anywhere under a command: one line on standard error, exit status 2."""
    from gtsearch.cli import evaluate

    def exhausted(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(evaluate, "run_search", exhausted)
    result = CliRunner().invoke(cli, ["eval", str(SAMPLES / "aima-fig5-2.bare.json")])
    assert result.exit_code == 2
    assert result.stderr == OUT_OF_MEMORY


def untimed(output: str) -> str:
    return re.sub(r'"(load_)?seconds": [0-9.e-]+', "", output)


@needs_faults
def test_an_allocation_failing_at_the_command_line() -> None:
    """The C reader's allocations failed under `gtsearch eval`: the value, or the line."""
    assert native is not None
    path = str(SAMPLES / "aima-fig5-2.bare.json")
    plain = CliRunner().invoke(cli, ["eval", "--format", "json", path])
    assert plain.exit_code == 0
    failed = 0
    for k in range(1, 40):
        native._faults(allocation=k)
        try:
            result = CliRunner().invoke(cli, ["eval", "--format", "json", path])
        finally:
            native._faults()
        if result.exit_code == 2:
            assert (result.stdout, result.stderr) == ("", OUT_OF_MEMORY)
            failed += 1
        else:
            assert (result.exit_code, untimed(result.stdout)) == (0, untimed(plain.stdout))
    assert failed > 5
