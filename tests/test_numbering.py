"""One numbering of evaluations (issue 38, point 4): the key's "leaves in order", the text tree,
the SVG, the TikZ and the replay number every evaluation, a leaf read twice twice (Star2's
probes, negascout's re-searches), and the summary says leaves and evaluations apart."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from gtsearch import load_tree
from gtsearch.algorithms import find_algorithm
from gtsearch.classroom.exercises import Spec, make_exercises
from gtsearch.render.terminal import LEGEND
from gtsearch.render.tikz import to_tikz
from gtsearch.render.view import build_view

SAMPLES = Path(__file__).resolve().parent.parent / "sample_trees"


def star2_exercise():  # type: ignore[no-untyped-def]
    """The issue's case: Star2 on b=3 d=3, seed 1, which reads k1, l1 and m1 twice."""
    (ex,) = make_exercises(Spec(find_algorithm("star2"), {}, 3, 3), 1, 1)
    return ex


def key_numbers(labels: list[str]) -> dict[str, list[int]]:
    """Each leaf's places in the key's list of evaluations."""
    out: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(labels, 1):
        out[name].append(i)
    return dict(out)


def test_the_picture_numbers_what_the_key_lists() -> None:
    ex = star2_exercise()
    want = key_numbers(ex.answers["leaf_labels"])
    assert any(len(v) > 1 for v in want.values())  # the case of the issue: leaves read twice
    view = build_view(ex.tree, "star2", **ex.params)
    names = ex.tree.names
    got = {names[n]: view.order_text(n) for n in view.rank}
    assert got == {k: "#" + ",".join(map(str, v)) for k, v in want.items()}
    # the text tree, the SVG and the TikZ say the same
    from gtsearch.render.svg import to_svg
    from gtsearch.render.terminal import draw_text

    text = draw_text(view)
    svg = to_svg(view)
    tikz = to_tikz(view)
    for name, numbers in want.items():
        mark = "#" + ",".join(map(str, numbers))
        assert re.search(rf"\b{name}\s+\d+\s+● {mark}(\s|$)", text, re.M), (name, mark)
        assert f">{mark}</text>" in svg
        assert "{\\#" + ",".join(map(str, numbers)) + "}" in tikz


def test_the_summary_says_leaves_and_evaluations_apart() -> None:
    ex = star2_exercise()
    view = build_view(ex.tree, "star2", **ex.params)
    count = ex.answers["leaf_count"]
    distinct = len(set(ex.answers["leaf_labels"]))
    assert count > distinct
    total = ex.answers["leaves_total"]
    assert f"{distinct} of {total} leaves evaluated in {count} evaluations" in view.title()
    # a search that reads each leaf once says it as before
    once = build_view(ex.tree, "expectiminimax")
    assert once.title().endswith(f"{total} of {total} leaves evaluated")


@pytest.mark.parametrize(
    ("algo", "sample"),
    [("negascout", "wikipedia-alphabeta.json"), ("mtdf", "stockman-binary-d4.sexp"),
     ("star1", "chance-worked.yaml"), ("star2", "chance-worked.yaml")],
)  # fmt: skip
def test_rereading_searches_number_each_reading(algo: str, sample: str) -> None:
    """Traced and untraced searches alike: the numbers are 1..evaluations, each once, a
    leaf's in increasing order, and the leaves read again (negascout reads two of the
    Wikipedia tree twice) show each of their numbers."""
    tree = load_tree(str(SAMPLES / sample))
    view = build_view(tree, algo)
    numbers = [[int(k) for k in view.order_text(n)[1:].split(",")] for n in view.rank]
    assert sorted(k for ks in numbers for k in ks) == list(range(1, view.result.leaves + 1))
    assert all(ks == sorted(ks) for ks in numbers)
    assert sum(len(ks) > 1 for ks in numbers) == view.result.leaves - len(view.rank)
    if algo == "negascout":
        assert view.result.leaves > len(view.rank)


def test_the_legends_say_what_they_number() -> None:
    ex = star2_exercise()
    view = build_view(ex.tree, "star2", **ex.params)
    assert "#n: n-th evaluation" in LEGEND
    from gtsearch.render.svg import to_svg

    assert "#n: n-th evaluation" in to_svg(view)
    assert "\\#n: n-th evaluation" in to_tikz(view)


def test_the_trace_says_leaves_and_evaluations_apart() -> None:
    """The trace's result line says what the pictures' summary says: distinct leaves, and the
    evaluations where some leaf was read twice (Star2's probes read k1, l1 and m1 again)."""
    from gtsearch.algorithms.steps import trace as trace_steps
    from gtsearch.render.trace import trace_text

    ex = star2_exercise()
    count = ex.answers["leaf_count"]
    distinct = len(set(ex.answers["leaf_labels"]))
    total = ex.answers["leaves_total"]
    lines = list(trace_text(trace_steps(ex.tree, "star2", **ex.params), ex.tree, "star2", "ex"))
    assert lines[-1].endswith(f"{distinct} of {total} leaves evaluated in {count} evaluations")
    once = list(trace_text(trace_steps(ex.tree, "expectiminimax"), ex.tree, "expectiminimax", "x"))
    assert once[-1].endswith(f"{total} of {total} leaves evaluated")
