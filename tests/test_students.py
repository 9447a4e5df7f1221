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

import pytest
from click.testing import CliRunner

from gtsearch.cli import cli

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
