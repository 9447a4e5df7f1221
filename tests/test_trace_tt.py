"""trace --tt: alpha-beta with a transposition table step by step (probes, hits, stores)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import load_tree, search
from gtsearch.algorithms.events import Leaf, Result, TableCut, TableProbe, TableStore
from gtsearch.algorithms.steps import trace
from gtsearch.cli import cli
from gtsearch.render.labels import Labels
from gtsearch.render.trace import event_dict
from gtsearch.sources import open_source
from gtsearch.tree import Tree

from .strategies import trees
from .test_show import AIMA, REPO, golden, run


def counted(events: list[Any]) -> dict[str, int]:
    """The table's counters as the trace shows them."""
    probes = [e for e in events if isinstance(e, TableProbe)]
    return {
        "probes": len(probes),
        "hits": sum(e.found for e in probes),
        "cuts": sum(isinstance(e, TableCut) for e in events),
        "stores": sum(isinstance(e, TableStore) for e in events),
        "overwrites": sum(isinstance(e, TableStore) and e.overwrite for e in events),
        "leaves": sum(isinstance(e, Leaf) for e in events),
    }


def test_aima_by_hand() -> None:
    """A tree's positions are its nodes, each entered once: every probe misses. Alpha-beta
    enters A, B, b1-b3, C, c1, D, d1-d3 (c2 and c3 are cut off): 11 probes, 11 stores (the
    7 leaves read and the 4 inner nodes), no hit."""
    events = list(trace(load_tree(str(REPO / AIMA)), tt=1))
    assert counted(events) == {
        "probes": 11,
        "hits": 0,
        "cuts": 0,
        "stores": 11,
        "overwrites": 0,
        "leaves": 7,
    }
    assert isinstance(events[-1], Result) and events[-1].value == 3


def test_nim_5_golden_and_by_hand() -> None:
    """Nim with 5 matches (take 1 to 3; who takes the last wins; MAX first). The first line
    1-1-1-1-1 and its siblings read 2 leaves; from then on every position with 1, 2 or 3
    matches left is a transposition of one already stored: of the 20 probes 10 find their
    position, 8 of them decide it (= 1 or = -1 for a position stored exact), and 2 find only a
    bound that does not decide the node's window (≤ -1 at take 1 under take 2, ≥ 1 at take 1
    under the root's take 2): those nodes are entered again. 12 stores, one per node
    entered."""
    result = run("trace", "--tt", "1", "game:nim:5")
    assert result.exit_code == 0, result.stderr
    golden("nim5-alphabeta-tt.trace.txt", result.stdout)
    events = list(trace(open_source("game:nim:5"), tt=1))
    want = {"probes": 20, "hits": 10, "cuts": 8, "stores": 12, "overwrites": 0, "leaves": 2}
    assert counted(events) == want
    tt = search(open_source("game:nim:5"), tt=1).extra["tt"]
    assert {k: tt[k] for k in ("probes", "hits", "cuts", "stores", "overwrites")} == {
        k: want[k] for k in ("probes", "hits", "cuts", "stores", "overwrites")
    }


def test_json_steps() -> None:
    out = CliRunner().invoke(cli, ["trace", "--tt", "1", "game:nim:5", "--format", "json"])
    steps = [json.loads(line) for line in out.output.splitlines()]
    kinds = Counter(s["event"] for s in steps)
    assert (kinds["tt_probe"], kinds["tt_cut"], kinds["tt_store"]) == (20, 8, 12)
    store = next(s for s in steps if s["event"] == "tt_store")
    assert set(store) >= {"lower", "upper", "draft", "move", "move_label", "overwrite"}
    assert store["draft"] == "+inf"
    ordered = CliRunner().invoke(
        cli, ["trace", "--tt", "1", "--killers", "game:nim:5", "--format", "json"]
    )
    assert any('"tt_order"' in line for line in ordered.output.splitlines())


@settings(max_examples=60, deadline=None)
@given(trees, st.booleans(), st.sampled_from([{}, {"history": True}, {"killers": True}]))
def test_the_trace_is_the_search(nested: Any, root_max: bool, asked: dict[str, bool]) -> None:
    """The trace reads the search's leaves in its order, with its value and counters."""
    tree = Tree.from_nested(nested, root_max=root_max)
    events = list(trace(tree, tt=1, **asked))  # type: ignore[arg-type]
    r = search(tree, tt=1, leaf_order=True, **asked)  # type: ignore[arg-type]
    leaves = [e.node for e in events if isinstance(e, Leaf)]
    assert [tuple(tree.path_of(n)) for n in leaves] == list(r.leaf_order or ())
    assert events[-1].value == r.value
    c = counted(events)
    assert {k: c[k] for k in ("probes", "hits", "cuts", "stores")} == {
        k: r.extra["tt"][k] for k in ("probes", "hits", "cuts", "stores")
    }
    labels = Labels(tree)
    for i, ev in enumerate(events):
        json.dumps(event_dict(ev, i, labels))


@pytest.mark.parametrize("game", ["game:nim:7", "game:tictactoe"])
def test_games_trace_their_counts(game: str) -> None:
    tree = open_source(game)
    c = counted(list(trace(tree, tt=4)))
    tt = search(tree, tt=4).extra["tt"]
    assert {k: c[k] for k in ("probes", "hits", "cuts", "stores")} == {
        k: tt[k] for k in ("probes", "hits", "cuts", "stores")
    }


@pytest.mark.parametrize("game", ["game:nim:4", "game:nim:7"])
def test_show_draws_a_game_searched_with_a_table_by_its_positions(game: str) -> None:
    """show --tt on a game searches it as eval does, keyed by positions (it drew the game
    built whole, every node a position of its own: nim:4 read 7 leaves there, eval 2)."""
    found = search(open_source(game), tt=1)
    out = run("show", "--tt", "1", game)
    assert out.exit_code == 0, out.output
    assert f"{found.leaves} of {found.leaves_total} leaves evaluated" in out.output
    assert found.leaves < found.leaves_total
    svg = run("show", "--tt", "1", game, "--svg", "-")
    assert svg.exit_code == 0 and f"{found.leaves} of {found.leaves_total}" in svg.output
