"""What a student receives from gtsearch exercise carries nothing that rebuilds the tree or the key.

Every student artifact (the HTML worksheet, the Moodle XML quiz with its
pictures decoded, the GIFT quiz, the questions of the text output) is made for
many seeds and searched for the seed and the settings that, with gtsearch,
make the same exercises again (docs/classroom.md, "Students and teachers"):
the count of artifacts that hold one must be 0.  The teacher's files (the
answer key page, the quiz's key, both where --answers names them, the JSON) do hold them.
"""

from __future__ import annotations

import base64
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import EVERY, find_algorithm
from gtsearch.classroom.exercises import Spec, make_exercises, name_nodes, reserved_names
from gtsearch.cli import cli
from gtsearch.tree import Tree

SEEDS = random.Random("gtsearch-students").sample(range(1_000_000, 10_000_000), 4)
ALGORITHMS = ("alphabeta", "sss", "star2")


def exercise(*args: str) -> None:
    result = CliRunner().invoke(cli, ["exercise", *args])
    assert result.exit_code == 0, result.stderr


def decoded(text: str) -> str:
    """The text with every base64 file of a Moodle quiz decoded beside it (the SVG pictures)."""
    files = re.findall(r'encoding="base64">([A-Za-z0-9+/=]+)</file>', text)
    return text + "".join(base64.b64decode(f).decode("utf-8") for f in files)


def leaks(text: str, seed: int, b: int, d: int, lo: int, hi: int) -> list[str]:
    """What in the text rebuilds the exercise: the seed, the shape, the range of values."""
    found = [
        pattern
        for pattern in (
            str(seed),
            r"\bseed\b",
            rf"\bb\s*=\s*{b}\b",
            rf"\bd\s*=\s*{d}\b",
            rf"\b{lo}\s*(\.\.|:|to)\s*{hi}\b",
            r"\bvalues\s+\d",
            r"--(seed|values|order|count|branching|depth)\b|\s-[bdn]\s+\d",
            r"\battempt\b",
            r"gtsearch exercise",
            r"(best|worst)-first",
        )
        if re.search(pattern, text)
    ]
    return found


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_no_student_artifact_holds_the_seed_or_the_settings(algo: str, tmp_path: Path) -> None:
    artifacts = 0
    leaking: list[tuple[str, list[str]]] = []
    for seed in SEEDS:
        b, d = (2, 4) if algo == "sss" else (3, 3)
        args = ["-a", algo, "-b", str(b), "-d", str(d), "--seed", str(seed), "-n", "2"]
        sheet, quiz, gift, text = (tmp_path / n for n in ("s.html", "q.xml", "q.gift", "t.txt"))
        key = tmp_path / "teacher"
        key.mkdir(exist_ok=True)
        exercise(*args, "--format", "html", "-o", str(sheet), "--answers", str(key))
        exercise(*args, "--format", "moodle", "-o", str(quiz), "--answers", str(key))
        exercise(*args, "--format", "gift", "-o", str(gift))
        exercise(*args, "-o", str(text))
        students = {
            "worksheet": sheet.read_text(),
            "moodle": decoded(quiz.read_text()),
            "gift": gift.read_text(),
            "text questions": text.read_text().split("\nAnswers\n=======\n")[0],
        }
        for name, content in students.items():
            artifacts += 1
            found = leaks(content, seed, b, d, 0, 40)
            if found:
                leaking.append((f"{name} of {algo}, seed {seed}", found))
        # the teacher's files say how to make the set again
        for teacher in (key / "s-answers.html", key / "q-answers.txt"):
            assert f"--seed {seed}" in teacher.read_text()
    assert artifacts == len(SEEDS) * 4
    assert leaking == []


def test_the_search_finds_a_leak() -> None:
    """The patterns catch what the student copies used to print."""
    old = "Exercise 1: alphabeta on a uniform tree (b=3, d=3, values 0..40, seed 3)"
    assert len(leaks(old, 3, 3, 3, 0, 40)) >= 4
    assert leaks('the tree of exercise 1 <path d="M 3 4"/>', 1234567, 3, 3, 0, 40) == []


# -- the words: the field's names, never a node's ------------------------------------------------
def student_material(algo: str, tmp_path: Path, *shape: str) -> dict[str, str]:
    """Every format a student receives of a set of two exercises of ``algo``, as text."""
    args = ["-a", algo, *shape, "--seed", "5", "-n", "2"]
    if algo in ("sss-bounded", "dual-bounded"):
        args += ["--bound", "20"]
    sheet, quiz, gift, text = (tmp_path / n for n in ("s.html", "q.xml", "q.gift", "t.txt"))
    key = tmp_path / "teacher"
    key.mkdir(exist_ok=True)
    exercise(*args, "--format", "html", "-o", str(sheet), "--answers", str(key))
    exercise(*args, "--format", "moodle", "-o", str(quiz), "--answers", str(key))
    exercise(*args, "--format", "gift", "-o", str(gift))
    exercise(*args, "-o", str(text))
    return {
        "worksheet": sheet.read_text(),
        "moodle": decoded(quiz.read_text()),
        "gift": gift.read_text(),
        "text questions": text.read_text().split("\nAnswers\n=======\n")[0],
    }


@pytest.mark.parametrize("algo", [a.name for a in EVERY])
def test_students_read_the_field_s_names(algo: str, tmp_path: Path) -> None:
    """alpha-beta, SSS*, Star2, F1, MCTS ..., never the command line's alphabeta, sss, star2,
    f1, mcts, in every format; and no node of the trees is named as the algorithm is, in any
    case (an F1 exercise has no leaf f1)."""
    algorithm = find_algorithm(algo)
    b, d = (3, 2) if algorithm.sampled else (2, 3)
    for name, content in student_material(algo, tmp_path, "-b", str(b), "-d", str(d)).items():
        assert algorithm.field_name in content, name
        if algorithm.field_name != algo:
            assert not re.search(rf"(?<![\w-]){re.escape(algo)}(?![\w*-])", content), name
    params: dict[str, Any] = {"bound": 20} if algorithm.needs_bound else {}
    if algorithm.sampled:
        params = {"iterations": 6, "seed": 5}
    for ex in make_exercises(Spec(algorithm, params, b, d), 5, 20):  # type: ignore[arg-type]
        names = {n.casefold() for n in ex.tree.names.values()}
        assert algorithm.field_name.casefold() not in names


def test_no_tree_names_a_node_as_its_algorithm_is() -> None:
    """The names an exercise skips: F (so no leaf f1) for F1, STAR for Star1 and Star2, MCTS
    and SCOUT themselves; the others go on in order, each name once."""
    assert reserved_names(find_algorithm("f1")) == {"F"}
    assert reserved_names(find_algorithm("star2")) == reserved_names(find_algorithm("star1"))
    assert reserved_names(find_algorithm("star1")) == {"STAR"}
    assert reserved_names(find_algorithm("mcts")) == {"MCTS"}
    assert reserved_names(find_algorithm("scout")) == {"SCOUT"}
    assert reserved_names(find_algorithm("sss")) == frozenset()  # SSS*: no node has a star
    leaves: list[Any] = [0, 0]
    for _ in range(5):  # 63 inner nodes: A to Z, then AA ...
        leaves = [leaves, leaves]
    tree = Tree.from_nested(leaves)
    name_nodes(tree)
    plain = dict(tree.names)
    name_nodes(tree, frozenset({"F", "AB"}))
    inner = [tree.names[n] for n in range(tree.n_nodes) if not tree.is_leaf(n)]
    assert inner[:6] == ["A", "B", "C", "D", "E", "G"] and "AB" not in inner
    assert "AA" in inner and "AC" in inner
    names = set(tree.names.values())
    assert len(names) == tree.n_nodes and not {"F", "f1", "f2", "AB", "ab1"} & names
    assert {"F", "f1"} <= set(plain.values())


def test_mcts_s_constant_and_order_are_its_own() -> None:
    """MCTS's exploration constant is named so (c, beside a child C), and its instructions say
    how it takes children (each tried once, left to right, then UCB1), not 'searched from left
    to right'."""
    result = CliRunner().invoke(cli, ["exercise", "-a", "mcts", "-b", "3", "-d", "2", "-s", "3"])
    questions = result.stdout.split("\nAnswers\n=======\n")[0]
    assert "C = " not in questions and "C·√" not in questions
    assert "exploration constant c = √2" in questions and "c·√" in questions
    assert "searched from left to right" not in questions
    assert "enter the search tree from left to right, each tried once" in questions
