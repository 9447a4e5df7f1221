"""The searches with a transposition table on a game searched on demand, in C over the game's C
rules (search_tabled_ondemand.c), against the same searches in Python on the same OnDemandTree.

alphabeta and negascout with --tt (tabled.TableSearch), the MT family with --tt
(tabled.mt_family: mt.py's passes over TableMemory, then the line of a TableSearch of its own;
in C game_tree.c's MT passes over the table), eval --iterative (iterative.iterate) and the
generic solver's iterations (solve.solve) number the game's positions as they meet their
entries (docs/algorithms.md, "The key"); the C search numbers them alike and hands them back
to the tree.  Over every built-in game without chance nodes, random positions, cut or not,
either player at the root, every first guess of the MT family, tables of 1 MiB and of one to
three buckets (entries lost all the time, leaves read again): the value, the PV and its names,
the leaves in order, the nodes, the passes, every count of the table and of the iterations, and
afterwards the tree itself (every node's parent, first child and depth, and the positions it
answers, a search after it in Python too) must be the same.  Under GTSEARCH_PURE=1 both sides
are Python's (the C side is then skipped).
"""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import compiled, iterative, mt, search, solve, tabled
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.table import Table
from gtsearch.cli import cli
from gtsearch.errors import NodeLimit
from gtsearch.sources.gamerules import rules_of
from gtsearch.sources.gamespec import game_of
from gtsearch.sources.ondemand import OnDemandTree

from .test_game_ondemand_c import opened, pure
from .test_tt_native import table_of

pytestmark = pytest.mark.skipif(core.native() is None, reason="needs the C core")
native: Any = core.native()

#: the built-in games without chance nodes, small enough for the Python search, with the
#: --depth cuts tried (None: searched to the end)
SPECS: list[tuple[str, list[int | None]]] = [
    ("connect4", [1, 4]),
    ("connect4:rows=3,columns=4,k=3", [3, None]),
    ("connect4:rows=2,columns=3,k=2", [None]),
    ("othello:rows=4,columns=4", [2, None]),
    ("tictactoe", [None]),
    ("hexapawn", [2, None]),
    ("nim:7", [None]),
    ("dotsandboxes:rows=1,columns=2", [2, None]),
    ("dotsandboxes:rows=2,columns=2", [3]),
]
GAMES = [(spec, depth) for spec, depths in SPECS for depth in depths]
#: a table's size: MiB, or ("tiny", buckets): a 1 MiB table cut down to that many buckets
SIZES: list[Any] = [1, ("tiny", 1), ("tiny", 2), ("tiny", 3)]
#: what runs: (kind, its parameters)
WORKS: list[tuple[str, dict[str, Any]]] = [
    ("alphabeta", {}),
    ("alphabeta", {"alpha": -0.05, "beta": 0.05}),
    ("negascout", {}),
    ("iterate", {}),
    ("iterate", {"max_depth": 2}),
    ("solve", {}),
    # the MT family: MT-SSS* (+inf), MT-DUAL* (-inf), MTD(f) from 0, from a value between
    # the leaves', from below and from above them all
    ("mt-sss", {}),
    ("mt-dual", {}),
    ("mtdf", {}),
    ("mtdf", {"bound": 0.05}),
    ("mtdf", {"bound": -5}),
    ("mtdf", {"bound": 2}),
]


@contextlib.contextmanager
def in_c() -> Iterator[None]:
    """The searches with a table on a game on demand in C only: the Python ones (and MT's
    passes) refuse."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the Python search ran")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tabled.TableSearch, "node", refuse)
        mp.setattr(mt.MTSearch, "test", refuse)
        yield


def untimed(r: Any) -> Any:
    return r._replace(seconds=0.0, tree=None)


def run(tree: Any, kind: str, params: dict[str, Any], tt: int) -> Any:
    """What the work reports, untimed."""
    if kind == "iterate":
        return [untimed(r) for r in iterative.iterate(tree, tt, **params)]
    if kind == "solve":
        done = solve.solve(tree, tt)
        return done._replace(
            seconds=0.0, iterations=[i._replace(seconds=0.0) for i in done.iterations]
        )
    r = search(tree, kind, leaf_order=True, tt=tt, **params)
    return untimed(r)


def after(tree: Any) -> tuple[Any, ...]:
    """What the tree answers after a search: its nodes, and the positions of a sample of them
    (numbered as Python numbers them, from the search's entries on)."""
    n = len(tree.keys)
    sample = sorted({0, *range(0, n, max(1, n // 40)), n - 1})
    return (
        n,
        tree.deepest,
        list(tree.up),
        list(tree.first),
        list(tree.depths),
        [tree.path_of(k) for k in sample],
        [tree.position(k) for k in sample],
    )


def both(make: Any, kind: str, params: dict[str, Any], size: Any, c: bool = True) -> Any:
    """The work in Python and in C (``c``: the C search must run) on two trees made alike:
    everything equal; the C side's result."""
    with table_of(size) as tt:
        with pure():
            t = make()
            expected = run(t, kind, params, tt), after(t)
        t = make()
        with in_c() if c else contextlib.nullcontext():
            found = run(t, kind, params, tt)
        found = found, after(t)
    assert found == expected
    return found[0]


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize(("kind", "params"), WORKS, ids=str)
@pytest.mark.parametrize(("spec", "depth"), GAMES, ids=str)
def test_the_c_search_is_the_pythons(
    spec: str, depth: int | None, kind: str, params: dict[str, Any], size: Any
) -> None:
    """From the start, both players at the root; nim has no estimate: iterative deepening
    stays Python's (and says so: the horizon's error)."""
    no_estimate = kind == "iterate" and not callable(getattr(game_of(spec).obj, "estimate", None))
    for root in (None, False):
        make = partial(opened, spec, depth, [], root)
        if no_estimate:
            with pytest.raises(Exception, match="no static value"):
                both(make, kind, params, size, c=False)
            continue
        both(make, kind, params, size)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    work=st.sampled_from([w for w in WORKS if w[0] != "iterate" or not w[1]][:3] + WORKS[3:]),
    size=st.sampled_from(SIZES),
    moves=st.lists(st.integers(0, 63), max_size=20),
    other_root=st.booleans(),
)
def test_random_positions(
    game: tuple[str, int | None],
    work: tuple[str, dict[str, Any]],
    size: Any,
    moves: list[int],
    other_root: bool,
) -> None:
    """Random positions (an end of the game among them: the root a leaf), either root."""
    spec, depth = game
    kind, params = work
    if kind == "iterate" and not callable(getattr(game_of(spec).obj, "estimate", None)):
        kind, params = "solve", {}
    make = partial(opened, spec, depth, moves, False if other_root else None)
    both(make, kind, params, size)


def test_connect_four_at_depth_5_reads_thousands_of_leaves() -> None:
    """The full board: the same counts where the table matters (cuts, overwrites)."""
    make = partial(opened, "connect4", 5, [3, 3])
    r = both(make, "alphabeta", {}, ("tiny", 3))
    assert r.leaves > 1000 and r.extra["tt"]["overwrites"] > 1000
    r = both(make, "negascout", {}, 1)
    assert r.extra["tt"]["hits"] > 100 and r.extra["tt"]["cuts"] > 100
    its = both(make, "iterate", {}, 1)
    assert len(its) == 5 and its[-1].extra["tt"]["orders"] > 100
    # the MT family: a tiny table loses entries, so leaves are read again; a large one keeps
    # every position proved and answers from them
    r = both(make, "mtdf", {}, ("tiny", 3))
    assert r.extra["tt"]["overwrites"] > 1000 and r.extra["re_evaluations"] > 100
    r = both(make, "mt-sss", {}, 1)
    assert r.extra["tt"]["cuts"] > 100 and r.extra["passes"] > 2
    assert r.nodes == r.extra["tt"]["used"]


def test_a_search_after_the_c_one_numbers_on() -> None:
    """A second search with a table on the same tree runs in Python (the C numbering is
    handed over): its positions go on from the C search's, as after a Python search."""
    found = []
    for context in (pure, contextlib.nullcontext):
        tree = opened("connect4:rows=3,columns=4,k=3", 4, [1])
        with context():
            a = untimed(search(tree, "alphabeta", leaf_order=True, tt=1))
            b = untimed(search(tree, "negascout", leaf_order=True, tt=1))
            c = untimed(search(tree, "minimax", leaf_order=True))
        found.append((a, b, c, after(tree)))
    assert found[0] == found[1]
    found = []
    for context in (pure, contextlib.nullcontext):  # the MT family first, then alpha-beta
        tree = opened("connect4:rows=3,columns=4,k=3", 4, [1])
        with context():
            a = untimed(search(tree, "mtdf", leaf_order=True, tt=1))
            b = untimed(search(tree, "alphabeta", leaf_order=True, tt=1))
        found.append((a, b, after(tree)))
    assert found[0] == found[1]


def test_positions_taken_after_python_expanded_entries() -> None:
    """Entries the tree expanded after the C search (a PV's names, values) are numbered as
    Python would have: the C search's numbers first, then the new ones in the order met."""
    found = []
    for context in (pure, contextlib.nullcontext):
        tree = opened("othello:rows=4,columns=4", 3, [])
        with context():
            search(tree, "alphabeta", tt=1)
        kids = list(tree.open(0))
        grand = [list(tree.open(k)) for k in kids]
        found.append([tree.position(n) for k in grand for n in k] + after(tree)[-1])
    assert found[0] == found[1]


def test_the_table_search_falls_back_where_it_must() -> None:
    """Entries met before on the tree (a Python search without a table kept some), a deadline
    of play --time's on the tree, or rules the core has not: the Python search runs."""
    tree = opened("connect4", 3, [])
    with pure():
        search(tree, "f1")
    assert len(tree.info) > 1
    table = Table(1)
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "alphabeta") is None
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "mtd", 0.0) is None
    tree = opened("connect4", 3, [])
    tree.deadline = 1e30
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "alphabeta") is None
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "mtd", 0.0) is None
    assert compiled.tabled_iterate_on_demand(tree, table, table, None) is None
    tree = opened("connect4:rows=8,columns=8,k=4", 2, [])  # 72 bits: the Python rules
    assert rules_of(tree.game) is None
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "negascout") is None


def test_the_core_refuses_what_is_not_its_own() -> None:
    """game_tabled's and game_tabled_iterate's arguments checked; rules it has not: None.
    game_tabled's kind 2 (the MT family) gives the positions proved and the passes, and enters
    no inner node of TableSearch's; alpha-beta none of those."""
    from array import array

    root = array("q", [-1])
    head = ("connect4", (6, 7, 4), (0, 0, 0), True, 2, 10**6, root, True, 512, 512)
    for kind in (-1, 3):
        with pytest.raises(ValueError, match="kind"):
            native.game_tabled(*head, kind, -1.0, 1.0, None)
    r = native.game_tabled(*head, 2, 0.0, 0.0, None)
    assert len(r) == 13 and r[4:6] == (0, 0) and r[6] > 0 and r[7] >= 2
    r = native.game_tabled(*head, 0, -1.0, 1.0, None)
    assert r[6:8] == (0, 0) and r[4] > 0
    assert native.game_tabled("chess", *head[1:], 0, -1.0, 1.0, None) is None
    assert native.game_tabled_iterate("chess", *head[1:], False, -1, -1.0, None) is None
    # nim has no estimate: iterative deepening's horizon needs one (Python's error), solve not
    nim = ("nim", (5, 3, 0), (5, 1, 0, 0), True, -1, 10**6, root, True, 512, 512)
    assert native.game_tabled_iterate(*nim, False, -1, -1.0, None) is None
    assert native.game_tabled_iterate(*nim, True, -1, -1.0, None) is not None
    with pytest.raises(TypeError):
        native.game_tabled(*head[:-1], 0, -1.0, 1.0, None)


def test_max_nodes() -> None:
    """--max-nodes: the same error at the same listing as Python's; iterative deepening keeps
    the iterations before the one that would pass it (stopped: max_nodes), solve raises; the MT
    family raises below some 20,000 nodes and searches through above."""
    for most in (1, 8, 3000, 20000, 60, 400):
        outcomes = []
        for context in (pure, in_c):
            found: list[Any] = []
            for kind in ("alphabeta", "negascout", "iterate", "solve", "mt-sss", "mtdf"):
                tree = OnDemandTree(
                    game_of("connect4"), source="game:connect4", limit=5, max_nodes=most
                )
                with context():
                    try:
                        found.append((run(tree, kind, {}, 1), after(tree)))
                    except NodeLimit as e:  # the tree keeps the nodes of no C search stopped so
                        found.append(str(e))
            outcomes.append(found)
        assert outcomes[0] == outcomes[1]
        if most == 20000:  # enough for the MT family: searched through
            assert [type(x) is str for x in outcomes[0][4:]] == [False, False]
    its = outcomes[0][2][0]
    assert its[-1].extra["stopped"] == "max_nodes" and len(its) == 3
    assert outcomes[0][3] == (
        "game:connect4: the search visited more than --max-nodes 400 nodes; raise --max-nodes"
    )


def test_time_limit_zero_is_one_iteration() -> None:
    """--time 0: the first iteration always finishes, and the deepening stops after it."""
    found = []
    for context in (pure, in_c):
        tree = opened("connect4", None, [])
        with context():
            found.append([untimed(r) for r in iterative.iterate(tree, 1, seconds=0.0)])
    assert found[0] == found[1] and len(found[0]) == 1


def test_time_limit_drops_the_iteration_it_ends() -> None:
    """A deadline in the middle of an iteration: the ones before it are the result."""
    tree = opened("connect4", None, [])
    with in_c():
        its = iterative.iterate(tree, 16, seconds=0.05)
    assert 1 <= len(its) < 42
    assert [r.params["iteration"] for r in its] == list(range(1, len(its) + 1))


def test_ctrl_c_stops_the_c_search() -> None:
    """A SIGINT while the C search runs: KeyboardInterrupt at its next tick."""

    def interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    for kind in ("alphabeta", "iterate", "mtdf"):
        tree = OnDemandTree(game_of("connect4"), source="game:connect4", max_nodes=10**8)
        old = signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            with in_c(), pytest.raises(KeyboardInterrupt):
                run(tree, kind, {}, 16)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "game:connect4", "--depth", "5", "-a", "alphabeta,negascout", "--tt", "1"],
        ["eval", "game:connect4", "--depth", "4", "-a", "mt-sss,mt-dual,mtdf", "--tt", "1"],
        ["eval", "game:connect4", "--depth", "4", "-a", "mtdf", "--bound", "0.1", "--tt", "1"],
        ["eval", "game:othello", "--iterative", "--depth", "4"],
        ["eval", "game:hexapawn", "--iterative"],
    ],
)
def test_the_command_line_says_the_same(argv: list[str]) -> None:
    """eval with --tt or --iterative on a game: the same records from both cores."""
    outputs = []
    # the second search of a tree runs in Python (a table numbered its positions before)
    for context in (pure, in_c if "," not in " ".join(argv) else contextlib.nullcontext):
        with context():
            r = CliRunner().invoke(cli, [*argv, "--format", "json"])
        assert r.exit_code == 0, r.output
        outputs.append([line for line in r.output.splitlines() if line])
    strip = [
        [{k: v for k, v in json.loads(x).items() if "seconds" not in k} for x in o] for o in outputs
    ]
    assert strip[0] == strip[1] and strip[0]
