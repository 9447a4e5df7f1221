"""Tic-tac-toe opened on demand as every game (issue 36): the kernel exception is gone.

Every command's search opens ``game:tictactoe`` on demand (in C over its C rules under the C
core); the C count (the core's kernel, read from its graph) serves only the trees counted
whole.  Every algorithm must give on demand what it gave on the counted game: the value, the
PV and its names, the leaves in order, the nodes and the extras (star1's and star2's default
table is sized by what is known: the counted positions, or --max-nodes on demand).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from gtsearch import search
from gtsearch.cli import cli
from gtsearch.sources.gamespec import open_game
from gtsearch.sources.ondemand import OnDemandTree

#: (algorithm, parameters) of every algorithm
SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("minimax", {}),
    ("f1", {"bound": 0.5}),
    ("alphabeta", {}),
    ("alphabeta", {"variant": "fail-hard"}),
    ("alphabeta", {"alpha": -0.5, "beta": 0.5}),
    ("sss", {}),
    ("sss-bounded", {"bound": 0.5}),
    ("dual", {}),
    ("dual-bounded", {"bound": -0.5}),
    ("negascout", {}),
    ("scout", {}),
    ("mt-sss", {}),
    ("mt-dual", {}),
    ("mtdf", {}),
    ("expectiminimax", {}),
    ("star1", {"tt": 0}),
    ("star1", {}),
    ("star2", {}),
    ("mcts", {"iterations": 300, "seed": 3}),
    ("alphabeta", {"tt": 1}),
    ("negascout", {"tt": 16}),
    ("mtdf", {"tt": 4}),
    ("mt-sss", {"tt": 16}),
]


def unsized(extra: dict[str, Any]) -> dict[str, Any]:
    if "tt" not in extra:
        return extra
    return {**extra, "tt": {k: v for k, v in extra["tt"].items() if k not in ("mib", "entries")}}


def outcome(on_demand: bool, moves: str, name: str, params: dict[str, Any]) -> Any:
    tree = open_game("tictactoe", moves=moves, on_demand=on_demand)
    assert isinstance(tree, OnDemandTree) == on_demand
    r = search(tree, name, leaf_order=True, **params)
    return (r.value, r.exact, r.pv, r.pv_labels, r.leaves, r.leaf_order, r.nodes), unsized(r.extra)


@pytest.mark.parametrize(("name", "params"), SEARCHES, ids=str)
@pytest.mark.parametrize("moves", ["5", "1 2", "5 1 9"])
def test_every_search_as_on_the_counted_game(name: str, params: dict[str, Any], moves: str) -> None:
    assert outcome(True, moves, name, params) == outcome(False, moves, name, params)


@pytest.mark.parametrize(
    ("name", "params"),
    [s for s in SEARCHES if s[0] not in ("minimax", "expectiminimax", "star1", "star2")],
    ids=str,
)
def test_from_the_start(name: str, params: dict[str, Any]) -> None:
    """The whole game (minimax and the chance family walk its 549,946 nodes: the positions
    above cover them)."""
    assert outcome(True, "", name, params) == outcome(False, "", name, params)


def test_the_command_opens_it_on_demand() -> None:
    """eval's record: leaves_total unknown (nothing counted), under either core alike."""
    r = CliRunner().invoke(cli, ["eval", "game:tictactoe", "-a", "alphabeta", "--format", "json"])
    assert r.exit_code == 0, r.output
    record = json.loads(r.output)
    assert (record["value"], record["leaves_total"], record["pv_labels"][0]) == (0, None, "1")


def test_the_trees_counted_whole_still_count_it() -> None:
    """show/trace/convert open it counted (the C kernel under the C core): every leaf known."""
    tree = open_game("tictactoe")
    assert not tree.on_demand and tree.n_leaves == 255_168
