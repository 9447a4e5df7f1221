"""exercise -a mcts (gtsearch.classroom.mcts_keys): the next iteration by hand, its answers checked
by hand and against what the search itself does next, in every exercise format."""

from __future__ import annotations

import json
import math
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch.algorithms import find_algorithm
from gtsearch.algorithms.base import Stats
from gtsearch.algorithms.mcts import DEFAULT_EXPLORATION, chance_weights, iterate
from gtsearch.algorithms.params import leaf_bounds
from gtsearch.classroom.exercises import Spec, make_exercises
from gtsearch.cli import cli
from gtsearch.tree import Tree

from .test_quiz import parse_gift

ARGS = ("-a", "mcts", "-b", "3", "-d", "2", "--seed", "3")


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["exercise", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_next_iteration_by_hand() -> None:
    """b = 3, d = 2, seed 3, K = 6 iterations (twice the branching), C = √2; the leaves run
    from L = 0 to U = 32, so r(v) = v / 32.

    After 6 iterations A has n = 6; B n = 1, w = 3/32 = 0.09375; C n = 3, w = 63/32 =
    1.96875; D n = 2, w = 19/32 = 0.59375.  ln 6 = 1.79176, and UCB1 at the MAX root is
    w/n + √2 · √(ln 6 / n):  B 0.09375 + 1.41421 · 1.33857 = 1.98677;
    C 0.65625 + 1.41421 · 0.77282 = 1.74919;  D 0.29688 + 1.41421 · 0.94651 = 1.63545.
    So B.  At B (MIN) no child is in the tree: b1 is expanded, a leaf worth 3: reward
    3/32 = 0.09375; then B has n = 2 and mean (0.09375 + 0.09375) / 2 = 0.094.  Visits
    B 2, C 3, D 2: the move played is C.
    """
    (rec,) = [json.loads(line) for line in run(*ARGS, "--format", "json").splitlines()]
    assert rec["params"] == {"iterations": 6, "seed": 3}
    a = rec["answers"]
    assert (a["iterations"], a["root_visits"], a["leaf_bounds"]) == (6, 6, [0, 32])
    assert [(c["label"], c["visits"]) for c in a["children"]] == [("B", 1), ("C", 3), ("D", 2)]
    assert [c["total"] for c in a["children"]] == pytest.approx([3 / 32, 63 / 32, 19 / 32])
    assert [c["ucb"] for c in a["children"]] == pytest.approx([1.98677, 1.74919, 1.63545], abs=1e-5)
    assert (a["select_label"], a["leaf_label"], a["leaf_value"]) == ("B", "b1", 3)
    assert a["ucb"] == pytest.approx(1.98677, abs=1e-5) and a["reward"] == 3 / 32
    assert (a["visits"], a["mean"], a["move_label"]) == (2, 3 / 32, "C")
    text = run(*ARGS)
    assert "Exercise 1: MCTS (iterations 6)\n" in text and "seed 3" not in text.split("Answers")[0]
    assert "1. UCB1's choice: B (UCB1: B 1.987, C 1.749, D 1.635)" in text
    assert "5. mean reward after the backup: 0.094" in text


def root_children(tree: Tree, iterations: int, seed: int, c: float) -> dict[int, list[float]]:
    """The visits and reward sums of the root's children after ``iterations`` iterations of the
    search itself (the pure reference's iterate, as eval runs it without the compiled core)."""
    bounds, _ = leaf_bounds(tree, None)
    searched = iterate(tree, Stats(), bounds, iterations, None, seed, c, None)
    return {n: list(s[:2]) for n, s in searched.stats.items() if tree.parent[n] == 0}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(2, 2), (3, 2), (2, 3), (4, 2)]))
def test_the_answers_are_what_the_search_does_next(seed: int, shape: tuple[int, int]) -> None:
    """The child the key says UCB1 selects is the one whose visits the next iteration raises,
    and the visits and mean it gives are that child's after it; the reward is what was added."""
    b, d = shape
    k = 2 * b + seed % 3
    algo = find_algorithm("mcts")
    spec = Spec(algo, {"iterations": k, "seed": seed}, b, d, any_tree=True)
    (ex,) = make_exercises(spec, seed, 1)
    tree, a = ex.tree, ex.answers
    before = root_children(tree, k, seed, DEFAULT_EXPLORATION)
    after = root_children(tree, k + 1, seed, DEFAULT_EXPLORATION)
    grew = [n for n in after if after[n][0] == before[n][0] + 1]
    assert [tree.path_of(n) for n in grew] == [a["select"]]
    (n,) = grew
    assert a["visits"] == after[n][0] and a["mean"] == after[n][1] / after[n][0]
    assert a["reward"] == pytest.approx(after[n][1] - before[n][1], abs=1e-12)
    assert [c["visits"] for c in a["children"]] == [before[m][0] for m in sorted(before)]
    most = max(after.values(), key=lambda s: s[0])[0]
    assert tree.path_of(min(m for m in after if after[m][0] == most)) == a["move"]
    log_n = math.log(sum(s[0] for s in before.values()))
    for c, m in zip(a["children"], sorted(before), strict=True):
        q = before[m][1] / before[m][0]
        assert c["ucb"] == q + DEFAULT_EXPLORATION * math.sqrt(log_n / before[m][0])
    assert chance_weights(tree) == {}


def test_moodle_xml_grades_to_three_decimals() -> None:
    root = ET.fromstring(run(*ARGS, "--format", "moodle"))
    questions = root.findall("question")
    assert [q.findtext("name/text") for q in questions] == [
        "Exercise 1: UCB1's choice",
        "Exercise 1: its UCB value",
        "Exercise 1: the reward",
        "Exercise 1: visits after the backup",
        "Exercise 1: mean reward after the backup",
        "Exercise 1: the move played",
    ]
    graded = [
        (q.get("type"), q.findtext("answer/text"), q.findtext("answer/tolerance"))
        for q in questions
    ]
    assert graded == [
        ("shortanswer", "B", None),
        ("numerical", "1.987", "0.002"),
        ("numerical", "0.094", "0.002"),
        ("numerical", "2", "0"),
        ("numerical", "0.094", "0.002"),
        ("shortanswer", "C", None),
    ]


def test_gift_numbers_carry_their_tolerance() -> None:
    questions = parse_gift(run(*ARGS, "--format", "gift"))
    assert [q["answers"] for q in questions] == [
        [("=", "B")],
        [("#", "1.987:0.002")],
        [("#", "0.094:0.002")],
        [("#", "2")],
        [("#", "0.094:0.002")],
        [("=", "C")],
    ]


@pytest.mark.parametrize("fmt", ["text", "json", "moodle", "gift", "html"])
def test_every_format(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"quiz.{fmt}"
    key = ("--answers", str(tmp_path / "key")) if fmt in ("html", "moodle", "gift") else ()
    run("-a", "mcts", "--count", "3", "--exploration", "1", "--format", fmt, "-o", str(out), *key)
    text = out.read_text()
    assert text.count("UCB") >= 3
    if fmt != "json":  # what a student receives names no seed (JSON's record is the teacher's)
        assert "seed" not in text.split("Answers")[0]


def test_the_same_seed_the_same_exercises() -> None:
    assert run(*ARGS, "--count", "2", "--format", "json") == run(
        *ARGS, "--count", "2", "--format", "json"
    )
    assert run(*ARGS, "--format", "json") != run(*ARGS[:-1], "4", "--format", "json")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--iterations", "3"], "--iterations applies to mcts only, not to alphabeta"),
        (["-a", "mcts", "--iterations", "2"], "--iterations 2 leaves a child of the root untried"),
        (["-a", "mcts", "--bound", "3"], "--bound does not apply to mcts"),
    ],
)
def test_refused(argv: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["exercise", *argv])
    assert result.exit_code == 2 and message in result.stderr, result.output


@pytest.mark.extra("gift")
def test_a_real_gift_parser_reads_the_mcts_questions(tmp_path: Path) -> None:
    folder = os.environ["GTSEARCH_GIFT_PEGJS"]
    path = tmp_path / "quiz.gift"
    path.write_text(run("-a", "mcts", "--count", "2", "--seed", "1", "--format", "gift"))
    script = (
        "const {parse} = require('gift-pegjs'); const fs = require('fs');"
        "const qs = parse(fs.readFileSync(process.argv[1], 'utf8'));"
        "console.log(JSON.stringify(qs.map(q => [q.type, q.title, q.choices])));"
    )
    done = subprocess.run(
        ["node", "-e", script, str(path)], cwd=folder, capture_output=True, text=True, check=True
    )
    parsed = json.loads(done.stdout)
    kinds = ["Short", "Numerical", "Numerical", "Numerical", "Numerical", "Short"]
    assert [t for t, _, _ in parsed] == kinds * 2
    ucb = parsed[1][2]
    assert ucb["type"] == "range" and ucb["range"] == 0.002
    assert parsed[3][2]["type"] == "simple"  # the visits: a whole number, exact
