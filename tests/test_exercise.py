"""gtsearch exercise: the trees chosen, the answers against eval, and every format checked.

Moodle XML is checked against the structure of Moodle's import format with the
standard library's XML parser; GIFT with a small parser of its own, written
here from the format's rules (escapes included).
"""

from __future__ import annotations

import base64
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gtsearch import loads_tree, search
from gtsearch.algorithms import ALGORITHMS, find_algorithm
from gtsearch.classroom.exercises import Spec, letters, make_exercises
from gtsearch.classroom.quiz import GRADES, gift_escape, penalty, shares
from gtsearch.cli import cli

from .strategies import minimax

SVG_NS = "{http://www.w3.org/2000/svg}"
EXACT = [a.name for a in ALGORITHMS if not a.needs_bound]


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


@pytest.mark.parametrize("algo", EXACT)
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
        assert not seen & never and seen | never == {letters(i, False) for i in range(27)}


def test_a_set_is_different_trees_from_one_seed() -> None:
    recs = records("--count", "5", "--seed", "3")
    trees = [json.dumps(r["tree"]["tree"]) for r in recs]
    assert len(set(trees)) == 5
    assert [r["exercise"] for r in recs] == [1, 2, 3, 4, 5]
    # exercise k does not depend on how many come after it
    assert records("--count", "2", "--seed", "3") == recs[:2]
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
@pytest.mark.parametrize("algo", [*EXACT, "sss-bounded", "dual-bounded"])
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
    assert rec["answers"]["leaf_labels"] == ["a", "c", "b"]
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
    assert ok("--count", "2", "--format", "html", "-o", str(sheet)) == ""
    key = tmp_path / "sheet-answers.html"
    first, first_key = sheet.read_bytes(), key.read_bytes()
    ok("--count", "2", "--format", "html", "-o", str(sheet))
    assert sheet.read_bytes() == first and key.read_bytes() == first_key
    for page in (first.decode(), first_key.decode()):
        assert page.startswith("<!DOCTYPE html>")
        assert "@media print" in page and "break-after: page" in page
        assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in page and "src=" not in page and "<script" not in page
        assert page.count("<svg ") == 2 and page.count('<section class="exercise"') == 2
    rec = records("--count", "2")
    sheet_text, key_text = first.decode(), first_key.decode()
    for r in rec:
        answer = " ".join(r["answers"]["leaf_labels"])
        assert f'<p class="answer">{answer}</p>' in key_text
        assert answer not in sheet_text.replace("<span>", " ")  # the sheet gives nothing away
    assert "leaf evaluated" in key_text and "leaf evaluated" not in sheet_text


def test_text_has_questions_then_answers() -> None:
    out = ok("-b", "2", "-d", "3", "--seed", "1")
    questions, answers = out.split("\nAnswers\n=======\n")
    assert questions.startswith("Exercise 1: alphabeta on a uniform tree (b=2, d=3, values")
    assert "A  MAX\n├── B  MIN\n" in questions and "●" not in questions
    assert "1. value: 22" in answers and "4. leaves in order: a b c e f" in answers
    assert "alphabeta: value 22, PV B → C → a, 5 of 8 leaves evaluated" in answers


# -- Moodle XML ---------------------------------------------------------------------------------
def percent(text: str) -> float:
    assert text.lstrip("-") in GRADES, text
    return float(text)


def test_moodle_xml_structure() -> None:
    xml = ok("-a", "sss", "--count", "3", "--seed", "2", "--format", "moodle")
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n')
    quiz = ET.fromstring(xml)
    assert quiz.tag == "quiz"
    recs = {r["exercise"]: r for r in records("-a", "sss", "--count", "3", "--seed", "2")}
    questions = quiz.findall("question")
    assert len(questions) == sum(len(r["questions"]) for r in recs.values())
    kinds = set()
    for q in questions:
        kind = q.get("type")
        kinds.add(kind)
        name = q.findtext("name/text")
        assert name and re.fullmatch(r"Exercise \d \(seed 2\): .+", name)
        rec = recs[int(name.split()[1])]
        qtext = q.find("questiontext")
        assert qtext is not None and qtext.get("format") == "html"
        html = qtext.findtext("text") or ""
        m = re.search(r'<img src="@@PLUGINFILE@@/([\w.-]+)"', html)
        assert m is not None, html
        files = qtext.findall("file")
        assert [f.get("name") for f in files] == [m.group(1)]
        assert files[0].get("encoding") == "base64" and files[0].get("path") == "/"
        svg = ET.fromstring(base64.b64decode(files[0].text or ""))
        assert svg.tag == f"{SVG_NS}svg"
        answers = q.findall("answer")
        fractions = [percent(a.get("fraction", "")) for a in answers]
        texts = [a.findtext("text") for a in answers]
        assert all(texts)
        if kind == "numerical":
            assert fractions == [100]
            assert [a.findtext("tolerance") for a in answers] == ["0"]
            want = rec["answers"]["leaf_count" if "leaf count" in name else "value"]
            assert texts == [str(want)]
        elif kind == "shortanswer":
            assert q.findtext("usecase") == "0" and set(fractions) == {100}
            assert "," not in (texts[0] or "")
        else:
            assert kind == "multichoice"
            assert q.findtext("single") == "false"
            right = {t for t, f in zip(texts, fractions, strict=True) if f > 0}
            assert right == set(rec["answers"]["pruned_leaf_labels"])
            assert abs(sum(f for f in fractions if f > 0) - 100) < 0.01
            assert sum(f for f in fractions if f < 0) <= -100 + 0.01
            assert sorted(texts) == sorted(letters(i, False) for i in range(27))  # type: ignore[type-var]
    assert kinds == {"numerical", "shortanswer", "multichoice"}


def test_moodle_grades() -> None:
    for k in range(1, 21):
        grades = shares(k)
        assert len(grades) == k and all(g in GRADES for g in grades)
        assert round(sum(float(g) / 100 for g in grades), 2) == 1.0  # Moodle's own check
    assert shares(3) == ["33.33333"] * 3 and shares(7) == ["14.28571"] * 7
    assert shares(11) == ["10"] * 9 + ["5"] * 2
    assert penalty(3) == "33.33333" and penalty(17) == "10" and penalty(40) == "5"


def test_too_many_pruned_leaves_for_moodle() -> None:
    result = run("-b", "3", "-d", "4", "--values", "0:99", "--format", "moodle")
    assert result.exit_code == 2
    assert re.fullmatch(
        r"exercise 1, leaves never evaluated: \d+ right answers cannot share 100% in the grades "
        r"Moodle accepts \(20 at most\); ask for a smaller tree \(-b, -d\)\n",
        result.stderr,
    )


# -- GIFT ------------------------------------------------------------------------------------------
def gift_split(text: str, stop: str) -> tuple[str, str]:
    """Text up to the first unescaped character of ``stop``, unescaped, and the rest."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
            continue
        if ch in stop:
            return "".join(out), text[i:]
        out.append(ch)
        i += 1
    return "".join(out), ""


def parse_gift(text: str) -> list[dict[str, Any]]:
    """GIFT's questions: blocks between blank lines, ``//`` comments, ``::title::``, ``{answers}``."""
    questions = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [x for x in block.splitlines() if not x.lstrip().startswith("//")]
        if not lines:
            continue
        body = "\n".join(lines)
        assert body.startswith("::"), body[:80]
        title, rest = gift_split(body[2:], ":")
        assert rest.startswith("::"), rest[:80]
        rest = rest[2:]
        fmt = ""
        if rest.startswith("["):
            fmt, rest = rest[1:].split("]", 1)
        qtext, rest = gift_split(rest, "{")
        assert rest.startswith("{") and rest.rstrip().endswith("}"), rest[-80:]
        inner = rest.strip()[1:-1].strip()
        answers: list[tuple[str, str]] = []
        if inner.startswith("#"):
            value, _ = gift_split(inner[1:], "")
            answers = [("#", value.strip())]
        else:
            while inner:
                mark, inner = inner[0], inner[1:]
                assert mark in "=~", inner
                value, inner = gift_split(inner, "=~")
                answers.append((mark, value.strip()))
        questions.append({"title": title, "format": fmt, "text": qtext, "answers": answers})
    return questions


def test_gift_parses_and_grades() -> None:
    text = ok("-a", "dual", "--count", "2", "--seed", "4", "--format", "gift")
    recs = {r["exercise"]: r for r in records("-a", "dual", "--count", "2", "--seed", "4")}
    questions = parse_gift(text)
    assert len(questions) == sum(len(r["questions"]) for r in recs.values())
    for q in questions:
        m = re.fullmatch(r"Exercise (\d) \(seed 4\): (.+)", q["title"])
        assert m is not None, q["title"]
        rec = recs[int(m.group(1))]
        assert q["format"] == "html"
        assert "<pre>A  MAX\n├── B  MIN\n" in q["text"]  # the tree, drawn in text
        kind = m.group(2)
        marks = {mark for mark, _ in q["answers"]}
        if kind in ("value", "leaf count"):
            assert marks == {"#"}
            want = rec["answers"]["value" if kind == "value" else "leaf_count"]
            assert q["answers"] == [("#", str(want))]
        elif kind == "leaves never evaluated":
            assert marks == {"~"}
            graded = [re.fullmatch(r"%(-?[\d.]+)%(.+)", v) for _, v in q["answers"]]
            assert all(g is not None for g in graded)
            right = {g.group(2) for g in graded if g and float(g.group(1)) > 0}
            assert right == set(rec["answers"]["pruned_leaf_labels"])
            assert (
                abs(sum(percent(g.group(1)) for g in graded if g and float(g.group(1)) > 0) - 100)
                < 0.01
            )
        else:
            assert marks == {"="}
            key = {
                "principal variation": "pv_labels",
                "leaves in order": "leaf_labels",
                "pruned subtrees": "pruned_labels",
                "merits of the SOLVED states": "merits",
            }[kind]
            words = [str(w) for w in rec["answers"][key]]
            assert [v for _, v in q["answers"]] == [
                " ".join(words),
                ", ".join(words),
                ",".join(words),
            ][: len(q["answers"])]


def test_gift_escaping_round_trips() -> None:
    nasty = "a~b=c#d{e}f:g\\h\nnext line"
    escaped = gift_escape(nasty)
    assert escaped == "a\\~b\\=c\\#d\\{e\\}f\\:g\\\\h\\nnext line"
    assert gift_split(escaped, "{")[0] == nasty
    block = f"::T\\: 1::{escaped}{{={gift_escape('x=y')} ~{gift_escape('p:q')}}}"
    (q,) = parse_gift(block)
    assert q["title"] == "T: 1" and q["text"] == nasty
    assert q["answers"] == [("=", "x=y"), ("~", "p:q")]


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
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
