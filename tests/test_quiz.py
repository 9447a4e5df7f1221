"""The quizzes of gtsearch exercise: Moodle XML and GIFT, checked as their importers read them.

Moodle's own import is not available here, so Moodle XML is checked against the
format's documented structure (docs.moodle.org, "Moodle XML format" and
"Embedded Answers (Cloze) question type"): well-formed XML, every grade on
Moodle's list, the right answers adding up to 100%, every ``@@PLUGINFILE@@``
with its file, and every cloze blank parsed by the pattern Moodle's
``qtype_multianswer`` uses.  GIFT is read by a small parser written here from
the format's rules, and, where node and the npm package gift-pegjs are at hand
(``GTSEARCH_GIFT_PEGJS`` names a folder where ``npm install gift-pegjs`` was
run), by that real GIFT parser too.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction
from html import escape as html_escape
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gtsearch import loads_tree
from gtsearch.classroom.gift import gift_escape
from gtsearch.classroom.quiz import GRADES, TREE_AS_TEXT, equal_share, penalty
from gtsearch.classroom.worksheet import tree_text
from gtsearch.cli import cli
from tests.grading import gift_split

SVG_NS = "{http://www.w3.org/2000/svg}"
#: a cloze blank, as Moodle's qtype_multianswer reads it: {weight:TYPE:answers}
BLANK = re.compile(
    r"\{(?P<weight>\d+):(?P<type>SHORTANSWER|NUMERICAL|MULTICHOICE):(?P<answers>(?:\\.|[^}\\])*)\}"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["exercise", *args], env={"COLUMNS": "200"})


def ok(*args: str, stderr: str = "") -> str:
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == stderr
    return result.stdout


def records(*args: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in ok(*args, "--format", "json").splitlines()]


def percent(text: str) -> float:
    assert text.lstrip("-") in GRADES, text
    return float(text)


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def blanks(html: str) -> list[tuple[int, str, list[tuple[str, str]]]]:
    """Every cloze blank: its weight, its type and its answers as (mark, text)."""
    out = []
    for m in BLANK.finditer(html):
        answers = []
        for part in re.split(r"(?<!\\)~", m.group("answers")):
            weight = re.match(r"=|%(-?[0-9.]+)%", part)
            assert weight is not None, part
            mark = "=" if weight.group(0) in ("=", "%100%") else weight.group(0)
            if weight.group(1):
                percent(weight.group(1))
            text = part[weight.end() :]
            if m.group("type") == "NUMERICAL":  # =value:tolerance
                text, tolerance = text.rsplit(":", 1)
                assert tolerance == "0"
            answers.append((mark, unescape(text)))
        out.append((int(m.group("weight")), m.group("type"), answers))
    assert BLANK.sub("", html).count("{") == 0, html  # no blank Moodle would not read
    return out


# -- Moodle XML ---------------------------------------------------------------------------------
def check_moodle(xml: str, recs: dict[int, dict[str, Any]]) -> set[str]:
    """Check a quiz question by question against the exercises' answers; the types used."""
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n')
    quiz = ET.fromstring(xml)
    assert quiz.tag == "quiz"
    questions = quiz.findall("question")
    assert len(questions) == sum(len(r["questions"]) for r in recs.values())
    kinds = set()
    for q in questions:
        kind = q.get("type") or ""
        kinds.add(kind)
        name = q.findtext("name/text") or ""
        m = re.fullmatch(r"Exercise (\d+): (.+)", name)
        assert m is not None, name
        rec = recs[int(m.group(1))]
        (asked,) = [x for x in rec["questions"] if title_of(x["id"]) == m.group(2)]
        answers = rec["answers"]
        qtext = q.find("questiontext")
        assert qtext is not None and qtext.get("format") == "html"
        html = qtext.findtext("text") or ""
        img = re.search(r'<img src="@@PLUGINFILE@@/([\w.-]+)" alt="([^"]*)"', html)
        assert img is not None, html
        # the alt says what the picture is and where the tree is in words, and the tree as
        # text follows it, in a <pre> a screen reader reads (as GIFT's)
        number = m.group(1)
        assert img.group(2) == (
            f"The game tree of exercise {number}, drawn; the same tree is written out as "
            "text below the picture"
        )
        tree = loads_tree(json.dumps(rec["tree"]), "json")
        drawn = f"<p>{TREE_AS_TEXT}</p><pre>{html_escape(tree_text(tree), quote=False)}</pre>"
        assert drawn in html and html.index(drawn) > img.end()
        files = qtext.findall("file")
        assert [f.get("name") for f in files] == [img.group(1)]
        assert files[0].get("encoding") == "base64" and files[0].get("path") == "/"
        svg = ET.fromstring(base64.b64decode(files[0].text or ""))
        assert svg.tag == f"{SVG_NS}svg"
        if kind == "cloze":
            assert q.find("answer") is None
            found = blanks(html)
            rights = [[a for mark, a in ans if mark == "="] for _, _, ans in found]
            assert all(len(r) == 1 for r in rights)
            right = [r[0] for r in rights]
            if asked["id"] == "pruned":
                assert {t for _, t, _ in found} == {"MULTICHOICE"}
                never = [r == "never evaluated" for r in right]
                leaves = re.findall(r"<li>(\w+): \{", html)
                assert [x for x, n in zip(leaves, never, strict=True) if n] == answers[
                    "pruned_leaf_labels"
                ]
                assert len(leaves) == answers["leaves_total"]
                # weighted so that one choice for every leaf adds up to 0
                p = len(answers["pruned_leaf_labels"])
                weights = {
                    w * (p if n else len(leaves) - p)
                    for (w, _, _), n in zip(found, never, strict=True)
                }
                assert len(weights) == 1
            else:
                key = KEYS[asked["id"]]
                words = [str(w) for w in answers[key]]
                assert right[: len(words)] == words and set(right[len(words) :]) <= {"-"}
                types = {t for _, t, _ in found[: len(words)]}
                assert types == ({"NUMERICAL"} if asked["id"] == "merits" else {"SHORTANSWER"})
                # the answer's blanks weigh more than the dashes' (dashes everywhere <= 10%)
                w = found[0][0]
                assert {x for x, _, _ in found[: len(words)]} == {w}
                assert {x for x, _, _ in found[len(words) :]} <= {1}
                assert (len(found) - len(words)) <= 0.1 * (w * len(words) + len(found) - len(words))
            continue
        graded = q.findall("answer")
        fractions = [percent(a.get("fraction", "")) for a in graded]
        texts = [a.findtext("text") for a in graded]
        assert fractions == [100] * len(fractions) and all(texts)
        if kind == "numerical":
            assert [a.findtext("tolerance") for a in graded] == ["0"]
            want = {"value": "value", "count": "leaf_count", "probes": "probes"}[asked["id"]]
            got = answers[want] if want != "probes" else len(answers["probes"])
            assert texts == [str(got)]
        else:
            assert kind == "shortanswer" and asked["id"] == "value"
            assert q.findtext("usecase") == "0"  # names and fractions alike: case ignored
            assert Fraction(texts[0] or "") == Fraction(answers["value_exact"])
    return kinds


KEYS = {
    "pv": "pv_labels",
    "leaves": "leaf_labels",
    "subtrees": "pruned_labels",
    "merits": "merits",
    "probed": "probe_labels",
}
TITLES = {
    "value": "value",
    "pv": "principal variation",
    "count": "leaf count",
    "leaves": "leaves in order",
    "pruned": "leaves never evaluated",
    "subtrees": "pruned subtrees",
    "merits": "merits of the SOLVED states",
    "probes": "probes",
    "probed": "probed outcomes",
}


def title_of(qid: str) -> str:
    return TITLES[qid]


@pytest.mark.parametrize(
    "args",
    [
        ("-a", "sss", "--count", "3", "--seed", "2"),
        ("-a", "star2", "--count", "3", "--seed", "5"),
        ("-b", "3", "-d", "4", "--seed", "1"),
        ("-b", "4", "-d", "4", "--values", "0:999", "--seed", "1"),
    ],
)
def test_moodle_xml_structure(args: tuple[str, ...]) -> None:
    xml = ok(*args, "--format", "moodle")
    recs = {r["exercise"]: r for r in records(*args)}
    kinds = check_moodle(xml, recs)
    assert {"numerical", "cloze"} <= kinds


def test_moodle_grades() -> None:
    for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20):
        share = equal_share(k)
        assert share in GRADES
        assert round(k * float(share or 0) / 100, 2) == 1.0  # Moodle's own check
    assert [equal_share(k) for k in (11, 12, 19, 21, 27)] == [None] * 5
    assert penalty(3) == "33.33333" and penalty(17) == "10" and penalty(40) == "5"


# -- GIFT ------------------------------------------------------------------------------------------
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


def check_gift(text: str, recs: dict[int, dict[str, Any]], left_out: int = 0) -> None:
    questions = parse_gift(text)
    assert len(questions) == sum(len(r["questions"]) for r in recs.values()) - left_out
    for q in questions:
        m = re.fullmatch(r"Exercise (\d+): (.+)", q["title"])
        assert m is not None, q["title"]
        rec = recs[int(m.group(1))]
        answers = rec["answers"]
        assert q["format"] == "html"
        assert "<pre>A  MAX\n├── B  " in q["text"]  # the tree, drawn in text
        kind = m.group(2)
        marks = {mark for mark, _ in q["answers"]}
        if kind in ("leaf count", "probes") or kind == "value" and "value_exact" not in answers:
            assert marks == {"#"}
            want = {"value": answers["value"], "leaf count": answers["leaf_count"]}
            got = want.get(kind, len(answers.get("probes", ())))
            assert q["answers"] == [("#", str(got))]
        elif kind == "value":
            assert [v for _, v in q["answers"]][0] == answers["value_exact"]
        elif kind == "leaves never evaluated":
            assert marks == {"~"}
            weighted = [re.fullmatch(r"%(-?[0-9.]+)%(\w+)", v) for _, v in q["answers"]]
            assert all(weighted)
            grades = [(percent(m.group(1)), m.group(2)) for m in weighted if m]
            assert [leaf for g, leaf in grades if g > 0] == answers["pruned_leaf_labels"]
            assert round(sum(g for g, _ in grades if g > 0), 2) == 100
            assert sum(g for g, _ in grades) <= 0  # every box ticked: nothing
        else:
            assert marks == {"="}
            key = {v: KEYS[k] for k, v in TITLES.items() if k in KEYS}[kind]
            words = [str(w) for w in answers[key]]
            full = [v for _, v in q["answers"] if not v.startswith("%")]
            assert full == [" ".join(words), ", ".join(words), ",".join(words)][: len(full)]
            assert {v.split("%")[1] for _, v in q["answers"] if v.startswith("%")} <= {"50"}


@pytest.mark.parametrize(
    "args",
    [
        ("-a", "dual", "--count", "2", "--seed", "4"),
        ("-a", "star2", "--count", "3", "--seed", "5"),
        ("-b", "3", "-d", "4", "--seed", "1"),
        ("-b", "4", "-d", "4", "--values", "0:999", "--seed", "1"),
    ],
)
def test_gift_parses_and_grades(args: tuple[str, ...]) -> None:
    result = run(*args, "--format", "gift")
    assert result.exit_code == 0
    # more than 20 never-evaluated leaves cannot share 100% on Moodle's list: left out, said so
    said = result.stderr.splitlines()
    assert all("leaves never evaluated: left out of the GIFT quiz" in line for line in said)
    check_gift(result.stdout, {r["exercise"]: r for r in records(*args)}, len(said))


def test_gift_escaping_round_trips() -> None:
    nasty = "a~b=c#d{e}f:g\\h\nnext line"
    escaped = gift_escape(nasty)
    assert escaped == "a\\~b\\=c\\#d\\{e\\}f\\:g\\\\h\\nnext line"
    assert gift_split(escaped, "{")[0] == nasty
    block = f"::T\\: 1::{escaped}{{={gift_escape('x=y')} ~{gift_escape('p:q')}}}"
    (q,) = parse_gift(block)
    assert q["title"] == "T: 1" and q["text"] == nasty
    assert q["answers"] == [("=", "x=y"), ("~", "p:q")]


@pytest.mark.extra("gift")
def test_a_real_gift_parser_reads_every_question(tmp_path: Path) -> None:
    folder = os.environ["GTSEARCH_GIFT_PEGJS"]  # the mark "extra" made sure of it
    script = (
        "const {parse} = require('gift-pegjs'); const fs = require('fs');"
        "const qs = parse(fs.readFileSync(process.argv[1], 'utf8'));"
        "console.log(JSON.stringify(qs.map(q => [q.type, q.title, "
        "q.type === 'Matching' ? q.matchPairs.length : (q.choices || []).length])));"
    )
    sets = [("-b", "3", "-d", "3"), ("-a", "star2", "--count", "3"), ("-a", "sss", "-n", "5")]
    for args in [(*a, "--seed", "1") for a in sets]:
        path = tmp_path / "quiz.gift"
        path.write_text(ok(*args, "--format", "gift"))
        done = subprocess.run(
            ["node", "-e", script, str(path)],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        parsed = json.loads(done.stdout)
        recs = records(*args)
        assert len(parsed) == sum(len(r["questions"]) for r in recs)
        types = {t for t, _, _ in parsed}
        assert types <= {"Numerical", "Short", "MC"}, types
        for t, _, n in parsed:
            if t == "MC":  # a box a leaf
                assert n == recs[0]["answers"]["leaves_total"]


# -- degrade, don't fail ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["text", "json", "moodle", "gift", "html"])
@pytest.mark.parametrize(
    "shape", [("-b", "3", "-d", "4"), ("-b", "4", "-d", "4", "--values", "0:999")]
)
def test_bigger_trees_in_every_format(fmt: str, shape: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / f"quiz.{fmt}"
    key = ("--answers", str(tmp_path / "key")) if fmt in ("html", "moodle", "gift") else ()
    result = run(*shape, "--format", fmt, "-o", str(out), *key)
    assert result.exit_code == 0, result.stderr
    assert out.stat().st_size > 0


def test_gift_leaves_out_what_it_cannot_grade() -> None:
    from gtsearch.classroom.gift import left_out, why_not
    from gtsearch.classroom.model import MULTICHOICE, Question

    # a multiple choice of two options is never left out (1 or 2 right: 100 or 50 each) ...
    two = Question("pruned", "leaves never evaluated", MULTICHOICE, "?", "b", choices=(
        ("a", False), ("b", True)))  # fmt: skip
    assert why_not(two) is None
    assert left_out([]) == []
