"""The quizzes grade knowledge: what Moodle gives a student who knows nothing, and one who slips once.

Every question of a set of exercises (alpha-beta, SSS*, Star2, minimax,
mcts) is graded as Moodle grades it (tests/grading.py, written from
qtype_multianswer, qtype_shortanswer, qtype_numerical and qtype_multichoice),
in Moodle XML and in GIFT as Moodle imports it (docs/classroom.md, "Grading,
format by format"):

- the key scores 100%;
- a student who knows nothing (every blank a dash or empty, every drop-down
  the same option, every box ticked or none) scores at most 10% on average and
  at most 20% on any question;
- an answer with one slip (one wrong name, two neighbours swapped, one name
  left out; one leaf wrong) keeps at least half the marks wherever the
  question type allows it: lists of 2 or more (3 or more for a name left
  out of a Moodle cloze), a leaf question with 2 or more leaves of each kind.
"""

from __future__ import annotations

import statistics
from functools import cache

import pytest
from click.testing import CliRunner

from gtsearch.classroom.gift import SLIP_ITEMS
from gtsearch.cli import cli
from tests.grading import Item, gift_items, grade, key, know_nothing, moodle_items, slips

SETS = [
    ("-a", algo, "--seed", str(seed), "-n", "2")
    for algo in ("alphabeta", "sss", "star2", "minimax", "mcts")
    for seed in (1, 2)
]
#: a name no tree has: the worst wrong name (a neighbour's name earns a little)
WRONG = "zz9"


@cache
def quiz(fmt: str) -> tuple[Item, ...]:
    items: list[Item] = []
    for args in SETS:
        result = CliRunner().invoke(cli, ["exercise", *args, "--format", fmt])
        assert result.exit_code == 0, result.stderr
        items += moodle_items(result.stdout) if fmt == "moodle" else gift_items(result.stdout)
    return tuple(items)


def sizes(item: Item) -> tuple[int, int]:
    """What bounds a slip's grade: a list's length (and 0), or the right and wrong options."""
    right = key(item)
    if item.cloze and isinstance(right[0], str) and {p.kind for p in item.parts} != {"choice"}:
        return sum(1 for r in right if r != "-"), 0
    if {p.kind for p in item.parts} == {"choice"}:
        never = sum(1 for r in right if r == "never evaluated")
        return never, len(right) - never
    if item.parts[0].kind == "multi":
        (p,) = item.parts
        good = sum(1 for a in p.answers if a.fraction > 0)
        return good, len(p.answers) - good
    return len(str(right[0]).split()), 0


def allowed(fmt: str, slip: str, item: Item) -> bool:
    """Whether the question type can keep half the marks for this slip (docs/classroom.md)."""
    k, other = sizes(item)
    if slip == "one leaf wrong":
        return k >= 2 and other >= 2
    if fmt == "gift":
        return 2 <= k <= SLIP_ITEMS
    return k >= (3 if slip == "one left out" else 2)


@pytest.mark.parametrize("fmt", ["moodle", "gift"])
def test_the_key_scores_everything(fmt: str) -> None:
    for item in quiz(fmt):
        assert grade(item, key(item)) == pytest.approx(1), item.name


@pytest.mark.parametrize("fmt", ["moodle", "gift"])
def test_knowing_nothing_scores_little(fmt: str) -> None:
    scores = [(max(grade(item, r) for r in know_nothing(item)), item.name) for item in quiz(fmt)]
    assert len(scores) > 100
    assert statistics.mean(s for s, _ in scores) <= 0.10
    assert max(scores)[0] <= 0.20, max(scores)


@pytest.mark.parametrize("fmt", ["moodle", "gift"])
def test_one_slip_keeps_half(fmt: str) -> None:
    checked = 0
    low = []
    for item in quiz(fmt):
        for slip, responses in slips(item, [WRONG]).items():
            if not responses or not allowed(fmt, slip, item):
                continue
            checked += len(responses)
            worst = min(grade(item, r) for r in responses)
            if worst < 0.5:
                low.append((item.name, slip, round(worst, 3)))
    assert checked > 500
    assert low == []
