"""gtsearch exercise: the trees chosen, the answers against eval, and every format checked.

The quizzes (Moodle XML, GIFT) are checked in tests/test_quiz.py, what a student
receives in tests/test_students.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gtsearch import loads_tree, search
from gtsearch.algorithms import ALGORITHMS, find_algorithm
from gtsearch.classroom import exercises
from gtsearch.classroom.exercises import (
    Spec,
    check_count,
    check_spec,
    confusable_pairs,
    letters,
    make_exercises,
    name_nodes,
)
from gtsearch.cli import cli
from gtsearch.errors import UsageError

from .strategies import minimax

EXACT = [a.name for a in ALGORITHMS if not a.needs_bound]
#: the algorithms whose exercises have no chance nodes
DECISION = [a.name for a in ALGORITHMS if not a.needs_bound and not a.chance]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["exercise", *args], env={"COLUMNS": "200"})


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def records(*args: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in ok(*args, "--format", "json").splitlines()]


# -- the trees ---------------------------------------------------------------------------------
def test_names() -> None:
    assert [letters(i, False) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa",
    ]  # fmt: skip
    assert letters(2, True) == "C"


def leaf_names(tree: Any) -> set[str]:
    return {tree.names[n] for n in range(tree.n_nodes) if tree.is_leaf(n)}


def test_leaves_are_named_after_their_parent() -> None:
    rec = records("-b", "2", "-d", "2", "--seed", "1")[0]
    tree = loads_tree(json.dumps(rec["tree"]), "json")
    assert [tree.names[n] for n in range(tree.n_nodes)] == ["A", "B", "b1", "b2", "C", "c1", "c2"]


@pytest.mark.parametrize(("b", "d"), [(2, 2), (3, 3), (2, 6), (4, 4), (3, 5), (10, 2), (2, 9)])
def test_no_two_names_differ_only_by_case_or_spacing(b: int, d: int) -> None:
    """The goal: 0 pairs a lenient grader could confuse, whatever the size of the tree."""
    for algo in ("alphabeta", "star1"):
        spec = Spec(find_algorithm(algo), {}, b, d, (0, 10 * b**d), any_tree=True)
        (ex,) = make_exercises(spec, 1, 1)
        names = list(ex.tree.names.values())
        assert len(names) == ex.tree.n_nodes == len(set(names))
        assert confusable_pairs(names) == []
        assert all(name.isalnum() and len(name) <= 6 for name in names)
    assert confusable_pairs(["f", "F", "a b", "ab", "c"]) == [("f", "F"), ("a b", "ab")]


@pytest.mark.parametrize("algo", DECISION)
def test_good_exercises(algo: str) -> None:
    """Distinct leaf values, one PV, and (random order) some but not too much pruning."""
    for rec in records("-a", algo, "--count", "4", "--seed", "11"):
        tree = loads_tree(json.dumps(rec["tree"]), "json")
        values = [tree.number(n) for n in range(tree.n_nodes) if tree.is_leaf(n)]
        assert len(set(values)) == len(values) == 27
        assert all(0 <= v <= 40 for v in values)
        answers = rec["answers"]
        evaluated = {tuple(p) for p in answers["leaves"]}
        if algo not in ("minimax", "expectiminimax"):
            assert 27 - len(evaluated) >= 27 / 6
            assert len(evaluated) >= 27 / 3
        # with distinct leaves the PV is the only line that keeps the value
        assert answers["value"] == minimax(tree.to_nested(), tree.root_max)
        assert answers["exact"] is True
        seen, never = set(answers["leaf_labels"]), set(answers["pruned_leaf_labels"])
        assert not seen & never and seen | never == leaf_names(tree)


def test_a_set_is_different_trees_from_one_seed() -> None:
    recs = records("--count", "5", "--seed", "3")
    trees = [json.dumps(r["tree"]["tree"]) for r in recs]
    assert len(set(trees)) == 5
    assert [r["exercise"] for r in recs] == [1, 2, 3, 4, 5]

    # exercise k does not depend on how many come after it
    def drawn(rs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "command"} for r in rs]

    assert drawn(records("--count", "2", "--seed", "3")) == drawn(recs[:2])
    assert records("--seed", "4")[0]["tree"] != recs[0]["tree"]


def test_the_rule_rejects_trees_and_any_takes_them() -> None:
    spec = Spec(find_algorithm("alphabeta"), {})
    exercises = make_exercises(spec, 0, 30)
    assert any(ex.attempt > 0 for ex in exercises)  # some trees were drawn again
    anyway = make_exercises(spec._replace(any_tree=True), 0, 30)
    assert all(ex.attempt == 0 for ex in anyway)
    assert any(27 - ex.result.leaves < 27 / 6 for ex in anyway)  # one the rule would refuse


def test_ordered_trees() -> None:
    best = records("--order", "best", "-b", "3", "-d", "4", "--values", "0:99")[0]
    assert best["answers"]["leaf_count"] == 9 + 9 - 1  # Knuth & Moore's minimal tree
    worst = records("--order", "worst", "-b", "3", "-d", "2")[0]
    assert worst["answers"]["leaf_count"] == 9 and worst["answers"]["pruned"] == []
    assert [q["id"] for q in worst["questions"]] == ["value", "pv", "count", "leaves"]


# -- the answers are eval's ----------------------------------------------------------------------
@pytest.mark.parametrize("algo", [*DECISION, "sss-bounded", "dual-bounded"])
def test_the_answers_are_what_eval_says(algo: str, tmp_path: Path) -> None:
    extra = ["--bound", "20"] if algo.endswith("bounded") else []
    rec = records("-a", algo, "--seed", "5", "-b", "2", "-d", "4", *extra)[0]
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(rec["tree"]))
    result = CliRunner().invoke(
        cli, ["eval", str(path), "-a", algo, "--leaves", "--format", "json", *extra]
    )
    assert result.exit_code == 0, result.stderr
    said = json.loads(result.stdout)
    answers = rec["answers"]
    assert said["leaf_order"] == answers["leaves"]
    assert (said["value"], said["exact"], said["bound"]) == (
        answers["value"],
        answers["exact"],
        answers["bound"],
    )
    assert said["pv"] == answers["pv"] and said["pv_labels"] == answers["pv_labels"]
    assert said["leaves"] == answers["leaf_count"]
    assert rec["algorithm"] == algo and rec["params"] == ({"bound": 20} if extra else {})


def test_sss_merits_come_from_its_states() -> None:
    rec = records("-a", "sss", "-b", "2", "-d", "2", "--seed", "1")[0]
    assert rec["answers"]["leaf_labels"] == ["b1", "c1", "b2"]
    assert rec["answers"]["merits"] == [5, 4, 5]  # min(+inf, 5), min(+inf, 4), min(5, 6)
    dual = records("-a", "dual", "-b", "2", "-d", "3", "--seed", "2")[0]
    tree = loads_tree(json.dumps(dual["tree"]), "json")
    assert dual["answers"]["merits"][-1] == search(tree, "dual").value
    assert "merits" not in records("-a", "alphabeta")[0]["answers"]


# -- reproducible ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["text", "json", "moodle", "gift"])
def test_the_same_arguments_give_the_same_bytes(fmt: str) -> None:
    args = ["-a", "sss", "--count", "2", "--seed", "9", "--format", fmt]
    assert ok(*args) == ok(*args)
    assert ok(*args) != ok(*args[:-3], "10", "--format", fmt)


def test_html_writes_two_pages(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.html"
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    two = ("--count", "2", "--seed", "0")
    assert ok(*two, "--format", "html", "-o", str(sheet), "--answers", str(teacher)) == ""
    key = teacher / "sheet-answers.html"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.html", "teacher"]
    first, first_key = sheet.read_bytes(), key.read_bytes()
    ok(*two, "--format", "html", "-o", str(sheet), "--answers", str(key))
    assert sheet.read_bytes() == first and key.read_bytes() == first_key
    for page in (first.decode(), first_key.decode()):
        assert page.startswith("<!DOCTYPE html>")
        assert "@media print" in page and "break-after: page" in page
        assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in page and "src=" not in page and "<script" not in page
        assert page.count("<svg ") == 2 and page.count('<section class="exercise"') == 2
    rec = records(*two)
    sheet_text, key_text = first.decode(), first_key.decode()
    for r in rec:
        answer = " ".join(r["answers"]["leaf_labels"])
        assert f'<p class="answer">{answer}</p>' in key_text
        assert answer not in sheet_text.replace("<span>", " ")  # the sheet gives nothing away
    assert "leaf evaluated" in key_text and "leaf evaluated" not in sheet_text


def test_the_key_goes_only_where_the_teacher_names_it(tmp_path: Path) -> None:
    """No key beside the students' files unasked; html needs --answers; a random seed each time,
    in the key and the record only."""
    quiz = tmp_path / "quiz.xml"
    result = run("--format", "moodle", "-o", str(quiz))
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["quiz.xml"]
    (note,) = result.stderr.splitlines()
    seed = re.fullmatch(
        r"no answer key written \(--answers PATH writes one\); this set is "
        r"--seed (\d+)",
        note,
    )
    assert seed is not None and seed.group(1) not in quiz.read_text()
    again = run("--format", "moodle", "--seed", seed.group(1))
    assert again.stdout == quiz.read_text() and again.stderr == ""
    refused = run("--format", "html", "-o", str(tmp_path / "sheet.html"))
    assert refused.exit_code == 2 and "--answers" in refused.stderr
    assert not (tmp_path / "sheet.html").exists()
    clash = run("--format", "gift", "-o", str(quiz), "--answers", str(quiz))
    assert clash.exit_code == 2 and "of its own" in clash.stderr
    # a random seed: two sets differ, each records its seed for the teacher
    first, second = records("-n", "1"), records("-n", "1")
    assert first[0]["seed"] != second[0]["seed"] and first[0]["tree"] != second[0]["tree"]
    assert f"--seed {first[0]['seed']} " in first[0]["command"]


def test_text_has_questions_then_answers() -> None:
    out = ok("-b", "2", "-d", "3", "--seed", "1")
    questions, answers = out.split("\nAnswers\n=======\n")
    assert questions.startswith("Exercise 1: alpha-beta\n")  # the field's name, not -a's
    assert "A  MAX\n├── B  MIN\n" in questions and "●" not in questions
    assert "seed" not in questions and "b=2" not in questions
    assert "1. value: 22" in answers and "4. leaves in order: c1 c2 d1 f1 f2" in answers
    assert "alphabeta: value 22, PV B → C → c1, 5 of 8 leaves evaluated" in answers
    assert "(b=2, d=3, values 0..40), seed 1, tree drawn at attempt" in answers
    assert "gtsearch exercise -a alphabeta -b 2 -d 3 --seed 1 --values 0:40" in answers


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "1000000", "-b", "2", "-d", "2"], "--count 1,000,000 is more than a course needs"),
        (["-n", "50", "-b", "1", "-d", "1"], "--count 50 asks for more exercises than the 41"),
        (["--format", "html"], "--format html writes two pages, the worksheet and its answer key"),
        (["-b", "3", "-d", "3", "--values", "0:20"], "--values 0:20 holds 21 integers, fewer"),
        (["--values", "5"], "--values takes LO:HI with two integers"),
        (["--values", "9:1"], "--values LO:HI needs LO <= HI, got 9:1"),
        (["-b", "4", "-d", "4"], "a tree of 256 leaves needs a range of at least 256"),
        (["-a", "sss-bounded"], "sss-bounded needs --bound"),
        (["-a", "sss", "--alpha", "3"], "--alpha/--beta apply to alphabeta only"),
        (["-a", "nope"], "unknown algorithm 'nope'"),
        (
            ["-a", "sss-bounded", "--bound", "-1"],
            "none of 1,000 trees drawn makes a good exercise for sss-bounded (b=3, d=3)",
        ),
    ],
)
def test_errors(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.stdout
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


# -- chance nodes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["expectiminimax", "star1", "star2"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_chance_exercises_have_chance_nodes_and_eval_s_keys(
    algo: str, seed: int, tmp_path: Path
) -> None:
    """Real chance nodes (weights), an exact key, and the key is what eval says on the tree."""
    rec = records("-a", algo, "--seed", str(seed), "-b", "2", "-d", "3")[0]
    tree = loads_tree(json.dumps(rec["tree"]), "json")
    assert tree.chance_nodes() == 2 and tree.weights  # MAX, chance, MIN, leaves
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(rec["tree"]))
    bounds: list[str] = []
    if algo != "expectiminimax":  # every format states L and U, and the key uses exactly them
        shape = ("-a", algo, "--seed", str(seed), "-b", "2", "-d", "3")
        gift = re.sub(r"\\(.)", r"\1", ok(*shape, "--format", "gift"))  # GIFT's escapes undone
        texts = [ok(*shape), gift, ok(*shape, "--format", "moodle")]
        stated = [
            re.findall(r"Every leaf lies in \[L, U\] with L = (\S+) and U = (\S+) \(", t)
            for t in texts
        ]
        assert all(len(set(s)) == 1 for s in stated) and len({s[0] for s in stated}) == 1
        lo, hi = stated[0][0]
        leaves = [tree.values[n] for n in range(tree.n_nodes) if tree.is_leaf(n)]
        assert (float(lo), float(hi)) == (min(leaves), max(leaves))
        bounds = ["--leaf-bounds", f"{lo}:{hi}"]
        rule = "Star2 probes only where a probe can cut"
        assert all((rule in t) == (algo == "star2") for t in texts)
    result = CliRunner().invoke(
        cli, ["eval", str(path), "-a", algo, *bounds, "--leaves", "--format", "json"]
    )
    assert result.exit_code == 0, result.stderr
    said = json.loads(result.stdout)
    answers = rec["answers"]
    assert said.get("value_exact", str(said["value"])) == answers["value_exact"]
    assert said["leaf_order"] == answers["leaves"] and said["leaves"] == answers["leaf_count"]
    assert said["pv"] == answers["pv"] and said["pv_labels"] == answers["pv_labels"]
    if algo == "star2":
        assert said["probes"] == len(answers["probes"])
        assert [q["id"] for q in rec["questions"]][-2:] in (
            ["probes", "probed"],
            ["subtrees", "probes"],
        )
    # the text and the key give the value as an exact fraction
    value = next(q for q in rec["questions"] if q["id"] == "value")
    assert "a fraction p/q in lowest terms" in value["text"]


def test_a_chance_value_is_exact() -> None:
    """13/3 and the like: the key holds the fraction, never a rounded decimal."""
    fractions = {
        rec["answers"]["value_exact"]
        for seed in range(1, 9)
        for rec in records("-a", "star1", "--seed", str(seed))
    }
    assert any("/" in f for f in fractions)
    assert all(re.fullmatch(r"-?\d+(/\d+)?", f) for f in fractions)


def test_star1_is_not_alphabeta_under_another_name() -> None:
    assert records("-a", "star1", "--seed", "1")[0]["tree"] != records("--seed", "1")[0]["tree"]


# -- the checks of the library's entry points (the command line's option types refuse the same
# values before they reach them) ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"branching": 0}, "--branching must be 1 or more, got 0"),
        ({"depth": 0}, "--depth must be 1 or more, got 0"),
        ({"order": "sideways"}, "--order must be one of"),
    ],
)
def test_a_spec_out_of_range_is_refused(changes: dict[str, Any], message: str) -> None:
    spec = Spec(find_algorithm("alphabeta"), {})._replace(**changes)
    with pytest.raises(UsageError, match=re.escape(message)):
        check_spec(spec)


@pytest.mark.parametrize(
    ("count", "values", "message"),
    [
        (0, (0, 40), "--count must be 1 or more, got 0"),
        (1001, (0, 40), "--count 1,001 is more than a course needs: at most 1,000"),
        # b=2, d=2 with 4 distinct values 0..3: 4! = 24 orders of the leaves
        (25, (0, 3), "--count 25 asks for more exercises than the 24 different trees"),
    ],
)
def test_a_count_out_of_range_is_refused(count: int, values: tuple[int, int], message: str) -> None:
    spec = Spec(find_algorithm("alphabeta"), {}, branching=2, depth=2)
    with pytest.raises(UsageError, match=re.escape(message)):
        check_count(spec, count, *values)


def test_a_lone_leaf_is_named_a1() -> None:
    tree = loads_tree("7", "json")
    name_nodes(tree)
    assert tree.names == {0: "a1"}


def test_no_good_tree_in_every_attempt_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """When none of the trees drawn makes a good exercise, the error says so and what to try."""
    monkeypatch.setattr(exercises, "MAX_ATTEMPTS", 3)
    monkeypatch.setattr(exercises, "verdict", lambda *args: "prunes nothing")
    spec = Spec(find_algorithm("alphabeta"), {}, branching=2, depth=2)
    with pytest.raises(UsageError, match=r"none of 3 trees drawn makes a good exercise for "):
        make_exercises(spec, seed=1, count=1)
