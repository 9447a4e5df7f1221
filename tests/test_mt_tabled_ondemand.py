"""The MT family with a transposition table on a game searched on demand, in C over the game's C
rules (search_tabled_ondemand.c's kind 2 over game_tree.c's MT passes), against the same search
in Python on the same OnDemandTree.

``eval -a mt-sss|mt-dual|mtdf --tt`` (tabled.mt_family: mt.py's passes over TableMemory, then
the line of a TableSearch of its own) numbers the game's positions as it meets their entries;
the C search numbers them alike and hands them back to the tree.  Over every built-in game
without chance nodes, random positions, cut or not, either player at the root, every first
guess, tables of 1 MiB and of one to three buckets (entries lost all the time: leaves read
again): the value, the PV and its names, the leaves in order, the positions proved, the passes,
every count of the table, and afterwards the tree itself must be the same.  Under
GTSEARCH_PURE=1 both sides are Python's (the C side is then skipped).
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

from gtsearch import core, search
from gtsearch.algorithms import compiled, mt, tabled
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.table import Table
from gtsearch.cli import cli
from gtsearch.errors import NodeLimit
from gtsearch.sources.gamespec import game_of
from gtsearch.sources.ondemand import OnDemandTree

from .test_game_ondemand_c import opened, pure
from .test_tabled_ondemand import GAMES, SIZES, after, untimed
from .test_tt_native import table_of

pytestmark = pytest.mark.skipif(core.native() is None, reason="needs the C core")
native: Any = core.native()

#: the MT family and its first guesses: MT-SSS* (+inf), MT-DUAL* (-inf), MTD(f) from several
#: guesses (0, a value between the leaves', below and above them all)
WORKS: list[tuple[str, dict[str, Any]]] = [
    ("mt-sss", {}),
    ("mt-dual", {}),
    ("mtdf", {}),
    ("mtdf", {"bound": 0.05}),
    ("mtdf", {"bound": -5}),
    ("mtdf", {"bound": 2}),
]


@contextlib.contextmanager
def in_c() -> Iterator[None]:
    """The MT family with a table on a game on demand in C only: the Python passes and the
    Python line's searches refuse."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the Python search ran")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mt.MTSearch, "test", refuse)
        mp.setattr(tabled.TableSearch, "node", refuse)
        yield


def both(make: Any, kind: str, params: dict[str, Any], size: Any) -> Any:
    """The search in Python and in C on two trees made alike: everything equal (the tree
    afterwards too); the C side's result."""
    with table_of(size) as tt:
        with pure():
            t = make()
            expected = untimed(search(t, kind, leaf_order=True, tt=tt, **params)), after(t)
        t = make()
        with in_c():
            found = untimed(search(t, kind, leaf_order=True, tt=tt, **params)), after(t)
    assert found == expected
    return found[0]


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize(("kind", "params"), WORKS, ids=str)
@pytest.mark.parametrize(("spec", "depth"), GAMES, ids=str)
def test_the_c_search_is_the_pythons(
    spec: str, depth: int | None, kind: str, params: dict[str, Any], size: Any
) -> None:
    """From the start, both players at the root."""
    for root in (None, False):
        both(partial(opened, spec, depth, [], root), kind, params, size)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    work=st.sampled_from(WORKS),
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
    make = partial(opened, spec, depth, moves, False if other_root else None)
    both(make, *work, size)


def test_connect_four_at_depth_5_reads_leaves_again() -> None:
    """The full board: a tiny table loses entries, so leaves are read again (re_evaluations),
    and a large one answers from its entries (cuts); the counts the same."""
    make = partial(opened, "connect4", 5, [3, 3])
    r = both(make, "mtdf", {}, ("tiny", 3))
    assert r.extra["tt"]["overwrites"] > 1000 and r.extra["re_evaluations"] > 100
    r = both(make, "mt-sss", {}, 1)
    assert r.extra["tt"]["cuts"] > 100 and r.extra["passes"] > 2
    assert r.nodes == r.extra["tt"]["used"]  # every position proved kept: the table is large


def test_a_search_after_the_c_one_numbers_on() -> None:
    """A second search with a table on the same tree runs in Python (the C numbering is
    handed over): its positions go on from the C search's, as after a Python search."""
    found = []
    for context in (pure, contextlib.nullcontext):
        tree = opened("connect4:rows=3,columns=4,k=3", 4, [1])
        with context():
            a = untimed(search(tree, "mtdf", leaf_order=True, tt=1))
            b = untimed(search(tree, "alphabeta", leaf_order=True, tt=1))
        found.append((a, b, after(tree)))
    assert found[0] == found[1]


def test_the_mt_family_falls_back_where_it_must() -> None:
    """Entries met before on the tree, or a deadline of play --time's: the Python search."""
    tree = opened("connect4", 3, [])
    with pure():
        search(tree, "f1")
    table = Table(1)
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "mtd", 0.0) is None
    tree = opened("connect4", 3, [])
    tree.deadline = 1e30
    assert compiled.tabled_on_demand(tree, Stats(), table, table, "mtd", 0.0) is None


def test_the_core_returns_the_mt_figures() -> None:
    """game_tabled's kind 2: the positions proved and the passes; 0 of them for alphabeta (and
    no inner node entered by the MT family); -1 and 3 are none."""
    from array import array

    root = array("q", [-1])
    head = ("connect4", (4, 4, 3), (0, 0, 0, 0), True, 3, 10**6, root, False, 512, 512)
    r = native.game_tabled(*head, 2, 0.0, 0.0, None)
    assert len(r) == 13 and r[4:6] == (0, 0) and r[6] > 0 and r[7] >= 2
    r = native.game_tabled(*head, 0, -1.0, 1.0, None)
    assert r[6:8] == (0, 0) and r[4] > 0
    for kind in (-1, 3):
        with pytest.raises(ValueError, match="kind"):
            native.game_tabled(*head, kind, -1.0, 1.0, None)


def test_max_nodes() -> None:
    """--max-nodes: the same error at the same listing as Python's, or the same result."""
    stopped = {}
    for most in (1, 8, 60, 400, 3000):
        outcomes = []
        for context in (pure, in_c):
            found: list[Any] = []
            for kind in ("mt-sss", "mtdf"):
                tree = OnDemandTree(
                    game_of("connect4"), source="game:connect4", limit=4, max_nodes=most
                )
                with context():
                    try:
                        r = untimed(search(tree, kind, leaf_order=True, tt=1))
                        found.append((r, after(tree)))
                    except NodeLimit as e:
                        found.append(str(e))
            outcomes.append(found)
        assert outcomes[0] == outcomes[1]
        stopped[most] = [type(x) is str for x in outcomes[0]]
    assert stopped == {
        1: [True, True],
        8: [True, True],
        60: [True, True],
        400: [True, True],
        3000: [False, False],
    }


def test_ctrl_c_stops_the_c_search() -> None:
    """A SIGINT while the C search runs: KeyboardInterrupt at its next tick."""

    def interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    tree = OnDemandTree(game_of("connect4"), source="game:connect4", max_nodes=10**8)
    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with in_c(), pytest.raises(KeyboardInterrupt):
            search(tree, "mtdf", tt=16)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize(
    ("algorithms", "count"), [(["mt-sss,mt-dual,mtdf"], 3), (["mtdf", "--bound", "0.1"], 1)]
)
def test_the_command_line_says_the_same(algorithms: list[str], count: int) -> None:
    """eval -a mt-sss,mt-dual,mtdf --tt on a game: the same records from both cores (the first
    search in C; the others on the same tree in Python, numbering on)."""
    argv = ["eval", "game:connect4", "--depth", "4", "--tt", "1", "-a", *algorithms]
    outputs = []
    for context in (pure, contextlib.nullcontext):
        with context():
            r = CliRunner().invoke(cli, [*argv, "--format", "json"])
        assert r.exit_code == 0, r.output
        outputs.append([line for line in r.output.splitlines() if line])
    strip = [
        [{k: v for k, v in json.loads(x).items() if "seconds" not in k} for x in o] for o in outputs
    ]
    assert strip[0] == strip[1] and len(strip[0]) == count
