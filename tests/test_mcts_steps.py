"""mcts step by step (gtsearch.algorithms.mcts_steps): the trace's phases, checked by hand on the
AIMA tree, equal to the C core's search and to search()'s result on random trees; show and trace."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import core, load_tree, search
from gtsearch.algorithms import compiled
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.events import Backup, Decide, Expand, Playout, Result, Select, Start
from gtsearch.algorithms.mcts import DEFAULT_EXPLORATION, chance_weights
from gtsearch.algorithms.mcts_steps import mcts_steps
from gtsearch.algorithms.params import check
from gtsearch.algorithms.steps import trace
from gtsearch.cli import cli
from gtsearch.tree import Tree

from .test_mcts import random_tree

AIMA = "sample_trees/aima-fig5-2.yaml"
needs_c = pytest.mark.skipif(core.native() is None, reason="compares the C core's search tree")


def phases(events: list[Any], iteration: int) -> list[Any]:
    return [ev for ev in events if getattr(ev, "iteration", None) == iteration]


def test_aima_six_iterations_by_hand() -> None:
    """AIMA Figure 5.2, seed 1, 6 iterations, C = √2; L = 2, U = 14 (the least and greatest
    leaf), so r(v) = (v - 2) / 12.

    Iterations 1-3: every child of A is tried once before UCB1 compares them, left to
    right: B, C, D are expanded, each played out by one uniform move (the generator's
    choice: b3 = 8, c2 = 4, d1 = 14), rewards 6/12 = 0.5, 2/12 = 0.1667, 12/12 = 1.
    Iteration 4: at A (n = 3), C·√(ln 3 / 1) = 1.41421 · 1.04815 = 1.48230, so
    UCB(B) = 0.5 + 1.48230 = 1.98230, UCB(C) = 0.16667 + 1.48230 = 1.64897,
    UCB(D) = 1 + 1.48230 = 2.48230: D.  At D no child is in the tree: d1 (leftmost) is
    expanded, a leaf: no playout, reward r(14) = 1.  Backup: A n = 4 w = 2.6667, D n = 2 w = 2.
    Iteration 5: ln 4 = 1.38629; B: 0.5 + 1.41421 · 1.17741 = 2.16511; C: 1.83178;
    D: 2/2 + 1.41421 · √(1.38629 / 2) = 1 + 1.17741 = 2.17741 > 2.16511: D again; d2
    expanded, r(5) = 3/12 = 0.25; D n = 3 w = 2.25.
    Iteration 6: ln 5 = 1.60944; B: 0.5 + 1.41421 · 1.26864 = 2.29412; C: 1.96079;
    D: 0.75 + 1.41421 · 0.73245 = 1.78584: B; b1 expanded, r(3) = 1/12 = 0.08333;
    B n = 2 w = 0.58333, A n = 6 w = 3.
    Final move: most visits, B 2, C 1, D 3: D; below D, d1 and d2 have 1 visit each, the
    leftmost, d1, is the PV.  Value L + (U - L) · w(D)/n(D) = 2 + 12 · 0.75 = 11.
    """
    tree = load_tree(AIMA)
    events = list(trace(tree, "mcts", iterations=6, seed=1))
    assert isinstance(events[0], Start) and events[0].params["seed"] == 1
    n = tree.node_at
    b, c, d = n((0,)), n((1,)), n((2,))
    for i, (node, leaf, value, r) in enumerate(
        [(b, (0, 2), 8, 0.5), (c, (1, 1), 4, 2 / 12), (d, (2, 0), 14, 1.0)], start=1
    ):
        expand, playout, backup = phases(events, i)
        assert expand == Expand(node, i)
        assert (playout.reached, playout.value, playout.rank) == (n(leaf), value, i)
        assert playout.reward == pytest.approx(r)
        assert [a.visits for a in backup.path] == [i, 1]
    expected = {
        4: ([1.98230, 1.64897, 2.48230], d, n((2, 0)), 1.0, (4, 2.66667, 2, 2.0)),
        5: ([2.16511, 1.83178, 2.17741], d, n((2, 1)), 0.25, (5, 2.91667, 3, 2.25)),
        6: ([2.29412, 1.96079, 1.78584], b, n((0, 0)), 1 / 12, (6, 3.0, 2, 0.58333)),
    }
    for i, (ucbs, chosen, new, r, (na, wa, nc, wc)) in expected.items():
        select, expand, playout, backup = phases(events, i)
        assert isinstance(select, Select) and select.node == 0 and select.visits == i - 1
        assert [a.ucb for a in select.arms] == pytest.approx(ucbs, abs=1e-5)
        assert select.child == chosen
        assert expand == Expand(new, i)
        assert playout.moves == () and playout.reached == new and playout.reward == r
        top, mid, low = backup.path
        assert (top.visits, mid.visits, low.visits) == (na, nc, 1)
        assert (top.total, mid.total) == pytest.approx((wa, wc), abs=1e-5)
    decide, result = events[-2:]
    assert isinstance(decide, Decide) and isinstance(result, Result)
    assert [a.visits for a in decide.arms] == [2, 1, 3]
    assert decide.child == d and decide.pv == (0, d, n((2, 0)))
    assert (result.value, result.bound, result.leaves) == (11, "estimate", 6)
    fast = search(tree, "mcts", iterations=6, seed=1)
    assert (fast.value, fast.pv, fast.leaves) == (11, (2, 0), 6)


def final_state(tree: Tree, params: dict[str, Any]) -> tuple[list[Any], dict[int, list[float]]]:
    """The trace's events and the search tree its backups leave (visits and totals)."""
    _, checked = check("mcts", **params)
    events, _ = mcts_steps(tree, checked)
    state: dict[int, list[float]] = {}
    for ev in events:
        if isinstance(ev, Backup):
            for a in ev.path:
                state[a.node] = [a.visits, a.total]
    return events, state


@needs_c
@pytest.mark.parametrize("i", range(30))
def test_the_c_cores_search_tree_is_what_the_events_show(i: int) -> None:
    """For the same seed the C core's search tree holds the nodes the trace expanded, with the
    visits and reward sums its last backups show, bit for bit; the same leaves in order."""
    rng = random.Random(1000 + i)
    tree = Tree.from_nested(random_tree(rng), root_max=bool(i % 2))
    params = {"iterations": rng.choice([1, 5, 40, 200]), "seed": rng.randrange(2**64)}
    if rng.random() < 0.3:
        params["exploration"] = rng.choice([0.0, 0.5, 2.0])
    events, state = final_state(tree, params)
    if tree.is_leaf(0):
        return
    _, checked = check("mcts", **params)
    leaf_values = [tree.values[m] for m in range(tree.n_nodes) if tree.is_leaf(m)]
    bounds = (min(leaf_values), max(leaf_values))
    stats = Stats()
    done = compiled.mcts(
        tree,
        stats,
        bounds,
        params["iterations"],
        None,
        params["seed"],
        params.get("exploration", DEFAULT_EXPLORATION),
        None,
        weights=chance_weights(tree),
    )
    assert done is not None
    nodes, visits, sums = done[0], done[1], done[2]
    c_state = {nodes[k]: [visits[k], sums[k]] for k in range(len(nodes))}
    assert c_state == state
    expanded = [ev.node for ev in events if isinstance(ev, Expand)]
    assert sorted(c_state) == sorted([0, *expanded])
    reached = [ev.reached for ev in events if isinstance(ev, Playout) and ev.rank is not None]
    assert list(stats.leaves) == reached


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 60), st.integers(0, 2**64 - 1))
def test_the_trace_ends_where_the_search_does(shape: int, iterations: int, seed: int) -> None:
    """On random trees (chance nodes too): the trace's result, final move and PV are search()'s
    (either core); every selection takes the greatest UCB, ties leftmost; every backup adds
    one visit to each node on its path, the reward to its total."""
    rng = random.Random(shape)
    tree = Tree.from_nested(random_tree(rng), root_max=bool(shape % 2))
    events, state = final_state(tree, {"iterations": iterations, "seed": seed})
    fast = search(tree, "mcts", iterations=iterations, seed=seed)
    decide, result = events[-2:]
    assert isinstance(decide, Decide) and isinstance(result, Result)
    assert (result.value, result.leaves) == (fast.value, fast.leaves)
    assert decide.pv == tuple(tree.node_at(fast.pv[:k]) for k in range(len(fast.pv) + 1))
    assert len(state) == fast.extra["tree_nodes"]
    before: dict[int, list[float]] = {}
    for ev in events:
        if isinstance(ev, Select) and ev.arms:
            ucbs = [a.ucb for a in ev.arms]
            assert ev.child == ev.arms[ucbs.index(max(ucbs))].node  # type: ignore[type-var]
            assert all(a.visits == before[a.node][0] for a in ev.arms)
        elif isinstance(ev, Backup):
            for a in ev.path:
                n0, w0 = before.get(a.node, [0, 0.0])
                assert a.visits == n0 + 1 and a.total == w0 + ev.reward
                before[a.node] = [a.visits, a.total]
    assert before == state
    assert sum(isinstance(ev, Backup) for ev in events) == iterations


def test_trace_text_and_json() -> None:
    run = CliRunner().invoke(cli, ["trace", AIMA, "-a", "mcts", "--iterations", "4", "--seed", "1"])
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[1] == "parameters: iterations = 4, seed = 1, L = 2, U = 14 from the leaves"
    assert "      iteration 4" in lines
    assert (
        "  10  select at A (MAX, n=3): B (n=1, q=0.500, UCB 1.982), C (n=1, q=0.167, UCB 1.649), "
        "D (n=1, q=1.000, UCB 2.482); greatest UCB: D" in lines
    )
    assert "   2    playout: B → b3 = 8 (leaf #1), reward 0.500" in lines
    assert "  13      backup 1.000: A n=4 w=2.667, D n=2 w=2.000, d1 n=1 w=1.000" in lines
    assert lines[-1] == "      result: value ≈ 14 (estimate), 4 leaf evaluations"  # D: 2 + 12 · 2/2
    run = CliRunner().invoke(
        cli, ["trace", AIMA, "-a", "mcts", "--iterations", "4", "--seed", "1", "--format", "json"]
    )
    steps = [json.loads(line) for line in run.output.splitlines()]
    select = steps[10]
    assert select["event"] == "select" and select["iteration"] == 4 and select["child_label"] == "D"
    assert [a["label"] for a in select["arms"]] == ["B", "C", "D"]
    assert select["arms"][2]["ucb"] == pytest.approx(1 + math.sqrt(2) * math.sqrt(math.log(3)))
    assert steps[-2]["event"] == "decide" and steps[-2]["pv_labels"] == ["D", "d1"]
    assert steps[-1]["event"] == "result" and steps[-1]["bound"] == "estimate"


def test_show_draws_the_search_tree() -> None:
    run = CliRunner().invoke(cli, ["show", AIMA, "-a", "mcts", "--iterations", "6", "--seed", "1"])
    assert run.exit_code == 0, run.output
    lines = [line.rstrip() for line in run.output.splitlines()]
    assert lines[1].startswith("mcts (iterations 6, seed 1, L=2, U=14 from the leaves): value ≈ 11")
    assert lines[1].endswith("value ≈ 11 ± 3, PV D → d1, 7 tree nodes")
    assert lines[2] == "A  MAX  n=6, mean 0.500  ★"
    assert "├── B  MIN  n=2, mean 0.292, UCB 1.630" in lines
    assert "│   ├── b2  12  ✂ unvisited" in lines
    assert "    ├── d1  14  n=1, mean 1.000, UCB 1.482  ★" in lines


@pytest.mark.parametrize("option", ["--svg", "--tikz", "--dot", "--html"])
def test_show_writes_every_picture(option: str, tmp_path: Any) -> None:
    out = tmp_path / "picture"
    argv = ["show", AIMA, "-a", "mcts", "--iterations", "30", "--seed", "2", option, str(out)]
    run = CliRunner().invoke(cli, [*argv, "-q"])
    assert run.exit_code == 0, run.output
    text = out.read_text()
    assert "mcts" in text and "tree nodes" in text
    if option != "--html":
        assert "unvisited" in text or option == "--dot" and "mean" in text


def test_focus_draws_a_subtree_but_not_its_replay() -> None:
    argv = ["show", AIMA, "-a", "mcts", "--iterations", "6", "--seed", "1", "--focus", "D"]
    run = CliRunner().invoke(cli, argv)
    assert run.exit_code == 0 and "D  MIN  n=3, mean 0.750, UCB 1.843  ★" in run.output
    run = CliRunner().invoke(cli, [*argv, "--html", "-"])
    assert run.exit_code == 2
    assert run.stderr == "the replay of mcts follows the whole tree: drop --focus or --html\n"
    run = CliRunner().invoke(cli, ["show", AIMA, "-a", "mcts", "--node-types"])
    assert run.exit_code == 2 and "not mcts" in run.stderr


def test_a_search_stopped_by_the_clock_is_drawn_to_its_count() -> None:
    from gtsearch.render.view import build_view

    view = build_view(load_tree(AIMA), "mcts", seconds=0.002)
    assert view.tallies is not None
    assert view.tallies[0].visits == view.result.extra["iterations"]


def test_trace_at_chance_nodes_static_values_and_a_lone_root(tmp_path: Any) -> None:
    """The worked chance tree (outcomes drawn by their weights), --playout-depth on a tree with
    static values (the playout stops at one), and a root that is a leaf (no move to play)."""

    def traced(*args: str) -> list[str]:
        run = CliRunner().invoke(cli, ["trace", *args, "-a", "mcts", "--seed", "1"])
        assert run.exit_code == 0, run.output
        return run.output.splitlines()

    lines = traced("sample_trees/chance-worked.yaml", "--iterations", "4")
    assert "   8    select at C2 (CHANCE, n=1): outcome m4 drawn" in lines
    static = tmp_path / "static.yaml"
    static.write_text(
        "tree:\n  name: A\n  value: 5\n  children:\n"
        "  - name: B\n    value: 4\n    children:\n"
        "    - {name: b1, value: 2, children: [1, 7]}\n"
        "    - {name: b2, value: 3, children: [3, 9]}\n"
        "  - name: C\n    value: 6\n    children:\n"
        "    - {name: c1, value: 8, children: [1, 7]}\n"
        "    - {name: c2, value: 1, children: [3, 9]}\n"
    )
    lines = traced(str(static), "--iterations", "3", "--playout-depth", "1")
    assert "   2    playout: B → b2 static value 3, reward 0.250" in lines  # (3 - 1) / (9 - 1)
    lone = tmp_path / "lone.json"
    lone.write_text("7\n")
    lines = traced(str(lone), "--iterations", "2")
    assert lines[-2:] == [
        "   5  final move: none (the root is a leaf or a chance node)",
        "      result: value ≈ 7 (estimate), 2 leaf evaluations",
    ]


def test_mcts_renderers_refuse_other_events() -> None:
    from gtsearch.algorithms.events import Enter
    from gtsearch.render import mcts as drawn
    from gtsearch.render.trace import Labels

    labels = Labels(load_tree(AIMA))
    with pytest.raises(TypeError, match="not an event of mcts"):
        drawn.mcts_text(Enter(0, 0.0, 1.0), labels)
    with pytest.raises(TypeError, match="not an event of mcts"):
        drawn.mcts_dict(Enter(0, 0.0, 1.0), {}, labels)


def test_a_chance_roots_selections_and_expansions_by_hand() -> None:
    """A chance node at the root, outcomes 3 and 5 (nodes 1 and 2), uniform: iteration i
    draws outcome integer(draw(key, i - 1), 0, 1) (its only random number: the outcomes are
    leaves, no playout) and selects it with no arms, after i - 1 visits of the root; an
    outcome met for the first time is expanded in that iteration."""
    from gtsearch.splitmix import draw, integer, root_key

    tree = Tree.from_nested({"chance": [3, 5]})
    events = list(trace(tree, "mcts", iterations=6, seed=7))
    drawn = [1 + integer(draw(root_key(7), j), 0, 1) for j in range(6)]
    assert len(set(drawn)) == 2  # both outcomes come up in six draws of this seed
    selects = [e for e in events if isinstance(e, Select)]
    expands = [e for e in events if isinstance(e, Expand)]
    assert selects == [Select(0, i, i - 1, (), c) for i, c in enumerate(drawn, 1)]
    first = [drawn.index(c) + 1 for c in (1, 2)]
    assert sorted(expands, key=lambda e: e.iteration) == sorted(
        (Expand(c, i) for c, i in zip((1, 2), first, strict=True)), key=lambda e: e.iteration
    )
