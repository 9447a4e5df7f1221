"""Star1 and Star2 with a transposition table on a game searched on demand, in C over its rules
(search_chance_ondemand.c with a table), against the Python searches (chance_tabled.star).

Everything is compared: the exact value and its type, the PV, the leaves in the order read,
the nodes, every figure (probes, distinct leaves, re-reads), every count of the table (the
"tt" record: probes, hits, cuts, stores, overwrites, used), the tree's numbering after the
search (each node's first child, parent, depth and turns) and every node's position
(tree.position, as Python numbers the positions), with the game's default table, with
``--tt 1`` and with tables cut down to one to three buckets (every store then competes).
Where the C rationals cannot hold a value (past 2**CHANCE_BITS) the Python search runs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.algorithms import chance_tabled, compiled, search
from gtsearch.algorithms.base import Stats
from gtsearch.errors import NodeLimit, UsageError
from gtsearch.numbers import Exact
from gtsearch.tree import DEFAULT_MAX_NODES, Tree

from .interrupt import assert_interrupted
from .tables import tiny
from .test_chance_ondemand import opened, walk

native = core.native()
needs_core = pytest.mark.skipif(native is None, reason="the compiled core does not run")

STARS = ["star1", "star2"]


def run(
    tree: Tree, name: str, python: bool, buckets: int | None = None, **params: Any
) -> tuple[Any, ...]:
    """The search's result, the tree's numbering and every node's position after it, and
    whether the C search ran; ``python``: the Python search."""
    kept, table = chance_tabled._star_in_c, chance_tabled.Table
    ran: list[bool] = []

    def in_c(*args: Any) -> Any:
        done = None if python else kept(*args)
        ran.append(done is not None)
        return done

    chance_tabled._star_in_c = in_c  # type: ignore[assignment]
    chance_tabled.Table = tiny(buckets)  # type: ignore[misc]
    try:
        r = search(tree, name, leaf_order=True, **params)
    finally:
        chance_tabled._star_in_c = kept  # type: ignore[assignment]
        chance_tabled.Table = table  # type: ignore[misc]
    t: Any = tree
    numbering = (list(t.first), list(t.up), list(t.depths), list(t.turn_counts))
    positions = [t.position(n) for n in range(len(t.up))]
    return r._replace(seconds=0.0, tree=None), numbering, positions, ran == [True]


def same_in_both(
    spec: str,
    name: str,
    depth: int | None = None,
    moves: str | None = None,
    root_max: bool | None = None,
    buckets: int | None = None,
    in_c: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
    **params: Any,
) -> Any:
    """The search in C and in Python on two trees opened alike: everything equal; the first
    in C where the core runs (and ``in_c``)."""
    a = run(opened(spec, depth, moves, root_max, max_nodes), name, False, buckets, **params)
    b = run(opened(spec, depth, moves, root_max, max_nodes), name, True, buckets, **params)
    assert a[0] == b[0]
    assert a[1:3] == b[1:3]
    assert a[3] == (native is not None and in_c) and not b[3]
    assert "tt" in a[0].extra
    return a[0]


@settings(max_examples=60, deadline=None)
@given(
    game=st.tuples(st.integers(2, 7), st.integers(2, 4), st.integers(1, 6)),
    depth=st.one_of(st.none(), st.integers(0, 6)),
    picks=st.lists(st.integers(0, 5), max_size=8),
    root=st.sampled_from([None, True, False]),
    name=st.sampled_from(STARS),
    bounds=st.sampled_from([None, (-1, 1), (0, 1), (-1, 0), (-0.25, 0.5), (-2, 1.5), (0, 0)]),
    table=st.sampled_from([(None, None), (1, None), (None, 1), (None, 2), (None, 3)]),
)
def test_random_positions_the_same_in_both(
    game: tuple[int, int, int],
    depth: int | None,
    picks: list[int],
    root: bool | None,
    name: str,
    bounds: tuple[float, float] | None,
    table: tuple[int | None, int | None],
) -> None:
    """Random positions of pig with random targets, dice and horizons, cut by --depth or
    searched to the end, either player at the root, the leaf bounds the game's or given
    (wider or narrower than its values), the default table, --tt 1 or one of 1 to 3 buckets."""
    target, die, horizon = game
    spec = f"pig:target={target},die={die},horizon={horizon}"
    try:
        moves = walk(spec, picks)
        opened(spec, depth, moves)
    except UsageError:  # a line of play that leaves no decision to the moves
        assume(False)
    tt, buckets = table
    given = {} if bounds is None else {"leaf_bounds": bounds}
    if tt is not None:
        given["tt"] = tt
    same_in_both(spec, name, depth, moves, root, buckets, **given)


@pytest.mark.parametrize("name", STARS)
@pytest.mark.parametrize(
    ("spec", "depth", "buckets"),
    [
        ("pig:target=6,die=3,horizon=8", None, None),  # 1,372 positions: the maps grow
        ("pig:target=5,die=3,horizon=6", None, 1),
        ("pig:target=7,die=6,horizon=10", 4, 3),  # sevenths and sixths: long decimals
        ("pig:target=7,die=6,horizon=10", 4, None),
        ("pig:target=1000,die=3,horizon=8", 6, 2),  # estimates like 0.0015
    ],
)
def test_games_larger_and_finer_the_same_in_both(
    spec: str, depth: int | None, buckets: int | None, name: str
) -> None:
    r = same_in_both(spec, name, depth, buckets=buckets)
    assert r.leaves > 8 and r.extra["tt"]["stores"] > 8
    if buckets is not None:
        assert r.extra["tt"]["overwrites"] > 0
    for root_max in (True, False):
        same_in_both(spec, name, depth, "roll 2", root_max, buckets)


def test_the_default_table_keeps_every_position() -> None:
    """The game's default table (buckets for twice --max-nodes keys): no store loses another
    key's entry, no leaf is read twice, and the table's nominal size is reported, not held."""
    r = same_in_both("pig:target=10,die=2,horizon=10", "star2")
    tt = r.extra["tt"]
    assert tt["overwrites"] == 0 and r.extra["re_evaluations"] == 0
    assert tt["mib"] == chance_tabled.default_table(opened("pig")) and tt["mib"] > 6000
    assert tt["used"] < 2000


@pytest.mark.parametrize("name", STARS)
def test_the_line_numbers_positions_the_search_did_not_meet(name: str) -> None:
    """Leaf bounds L = U decide every chance node below the root's window at once: the PV's
    walk (each decision node's first child there) expands the entries below, numbered after
    the search's own, in both cores."""
    r = same_in_both("pig:target=2,die=2,horizon=31", name, leaf_bounds=(0, 0))
    assert len(r.pv) > 50 and r.leaves < 10


@pytest.mark.parametrize("name", STARS)
def test_the_root_a_leaf(name: str) -> None:
    r = same_in_both("pig:target=4,die=3,horizon=3", name, depth=0)
    assert r.leaves == 1 and r.nodes == 1
    assert r.extra["tt"]["probes"] == r.extra["tt"]["stores"] == r.extra["tt"]["used"] == 1


@pytest.mark.parametrize("name", STARS)
@pytest.mark.parametrize("root", ["roll", "roll 2 roll"])
def test_a_chance_node_at_the_root(name: str, root: str) -> None:
    """A root where the die is rolled (its entry tagged with who is expected below it), and
    either player put at the root by --root: the tags are the game's still."""
    for root_max in (None, True, False):
        same_in_both("pig:target=6,die=3,horizon=6", name, None, root, root_max)
        same_in_both("pig:target=6,die=3,horizon=6", name, 3, root, root_max, 2)


@pytest.mark.parametrize(
    ("spec", "depth"),
    [
        ("connect4:rows=3,columns=4,k=3", None),
        ("nim:heap=9,take=3", None),
        ("othello", 3),  # 4x4: forced passes
        ("dotsandboxes:rows=1,columns=2", None),  # repeated turns: forced passes
        ("hexapawn", 4),
    ],
)
@pytest.mark.parametrize("name", STARS)
def test_games_without_chance_nodes_the_same_in_both(
    spec: str, depth: int | None, name: str
) -> None:
    """The other built-in games with C rules (no chance nodes: alpha-beta with a table), their
    positions keyed with or without the player (GameTree.general), either player at the root."""
    for root_max in (None, False):
        for buckets in (None, 2):
            same_in_both(spec, name, depth, None, root_max, buckets, leaf_bounds=(-1, 1))


@needs_core
def test_a_second_search_on_the_tree_runs_in_python() -> None:
    """Positions numbered before on the tree (a first search with a table, in C): the Python
    search numbers on from them, as it would after its own first search."""
    spec = "pig:target=5,die=3,horizon=5"
    tree, other = opened(spec), opened(spec)
    first = [run(t, "star1", python)[0] for t, python in ((tree, False), (other, True))]
    assert first[0] == first[1]
    a, b = run(tree, "star2", False, 2), run(other, "star2", True, 2)
    assert a[:3] == b[:3] and not a[3]


@needs_core
@pytest.mark.parametrize("name", STARS)
def test_past_the_c_rationals_the_python_search_runs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Narrower rationals (CHANCE_BITS): the C search runs while they hold every value, and
    from the first width that does not, the Python search runs: the same result either way,
    nothing the C search numbered kept."""
    spec, depth = "pig:target=7,die=3,horizon=8", 4
    expected = run(opened(spec, depth), name, True, 3)[:3]
    ran = []
    for bits in (2, 8, 16, 32, 56, 72, 96, 126):
        monkeypatch.setattr(compiled, "CHANCE_BITS", bits)
        got = run(opened(spec, depth), name, False, 3)
        assert got[:3] == expected
        ran.append(got[3])
    assert ran[0] is False and ran[-1] is True
    assert ran == sorted(ran)


@pytest.mark.parametrize("name", STARS)
def test_max_nodes_is_the_trees_limit_error(name: str) -> None:
    for python in (False, True):
        tree = opened("pig:target=10,die=3,horizon=8", max_nodes=300)
        with pytest.raises(NodeLimit):
            run(tree, name, python)


@needs_core
def test_the_c_search_refuses_a_table_it_does_not_take() -> None:
    assert native is not None
    from array import array

    one = array("q", [-1])
    args = ("pig", (4, 3, 3), (0, 0, 0, 1 << 32), True, -1, 1000, one)
    with pytest.raises(ValueError):  # expectiminimax takes no table
        native.game_chance(*args, 0, 0, 1, 0, 1, 126, 4, 16, None)
    for tags in (-1, 3, 6):
        with pytest.raises(ValueError):
            native.game_chance(*args, 1, -1, 1, 1, 1, 126, tags, 16, None)
    done = native.game_chance(*args, 2, -1, 1, 1, 1, 126, 4, 16, None)
    assert done is not None and (done[0], done[1]) == (4, 9)
    assert done[6][4] > 0 and len(done[7]) % 5 == 0  # the table's stores, the positions


@needs_core
def test_the_command_line_runs_in_c() -> None:
    """``eval game:pig -a star2`` (its default table) in C, the same output as the pure core's
    but the seconds."""
    cmd = [sys.executable, "-m", "gtsearch", "eval", "game:pig:target=8,die=3,horizon=8"]
    cmd += ["-a", "star1,star2", "--format", "json"]
    out = [
        subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            env={**os.environ, "GTSEARCH_PURE": pure},
            check=True,
        ).stdout
        for pure in ("", "1")
    ]
    untimed = [re.sub(r'"(load_)?seconds": [0-9.e-]+', '"s": 0', o).splitlines() for o in out]
    rows = [[json.loads(line) for line in lines] for lines in untimed]
    assert rows[0] == rows[1] and len(rows[0]) == 2
    assert rows[0][1]["tt"]["stores"] > 0


@needs_core
@pytest.mark.slow
def test_ctrl_c_interrupts_the_c_search() -> None:
    """Ctrl-C during Star2 with its table in C on a large pig: 'interrupted', status 130."""
    assert_interrupted(
        ["eval", "game:pig:target=60,die=6,horizon=200", "-a", "star2", "--max-nodes", "4000000000"]
    )


@pytest.mark.parametrize("probing", [False, True])
@pytest.mark.parametrize(
    ("spec", "moves", "value"),
    [
        ("pig:target=4,die=3,horizon=3", None, Fraction(4, 9)),
        ("pig:target=2,die=3,horizon=3", "roll 2 stop", 1),
    ],
)
def test_the_value_is_a_fraction_or_an_int_as_in_python(
    spec: str, moves: str | None, value: Exact, probing: bool
) -> None:
    """chance_tabled.star's exact value of the same type in both cores: a Fraction where it is
    not whole, an int where it is."""
    found = []
    for python in (False, True):
        kept = chance_tabled._star_in_c
        if python:
            chance_tabled._star_in_c = lambda *args: None  # type: ignore[assignment]
        try:
            tree = opened(spec, None, moves)
            found.append(chance_tabled.star(tree, Stats(), 1, (-1, 1), probing).exact)
        finally:
            chance_tabled._star_in_c = kept  # type: ignore[assignment]
    assert found[0] == found[1] == value and type(found[0]) is type(found[1]) is type(value)
