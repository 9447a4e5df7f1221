"""Exercises as auto-graded Moodle questions: a Moodle XML ``<quiz>`` for the question bank's import.

Every question of an exercise becomes one question of the quiz, its text
showing the tree as an SVG picture embedded in the question (``<file
encoding="base64">`` referred to by ``@@PLUGINFILE@@``).  What a student sees
(names, texts, the picture and its ``alt``) says nothing the key could be
rebuilt from: no seed, no shape, no range of values (docs/classroom.md).

How each kind is graded (docs/classroom.md, "Moodle XML"):

- numbers (the value, the leaf count, Star2's probes): ``numerical``,
  tolerance 0; an exact value that is no integer (chance nodes):
  ``shortanswer`` accepting ``p/q`` (and the decimal when it is exact);
- lists (the PV, the leaves in order, the pruned subtrees, the merits, the
  probed outcomes): an embedded-answers question (``cloze``) with one blank a
  place, names graded case-sensitively (``SHORTANSWER_C``), numbers as
  ``NUMERICAL``, each blank worth the same: one slip costs one place;
- "which leaves are never evaluated": a ``cloze`` with one drop-down per leaf
  (``evaluated`` / ``never evaluated``), each worth the same, so the grades
  add up to exactly 100% and are even, for any number of leaves.

The cloze syntax and Moodle XML are Moodle's own (docs.moodle.org, "Embedded
Answers (Cloze) question type" and "Moodle XML format").
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from html import escape
from xml.sax.saxutils import escape as xml_escape

from ..render.labels import format_extended
from ..render.svg import to_svg
from ..render.view import bare_view
from .model import CHOOSE, MULTICHOICE, NUMERICAL, Exercise, Question
from .worksheet import instructions, text_escape, tree_text

#: the grades Moodle's import accepts, in percent (question_bank::fraction_options_full)
GRADES = (
    "100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333", "30",
    "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5",
)  # fmt: skip
#: what a cloze escapes with a backslash inside an answer (Moodle's Cloze documentation)
CLOZE_SPECIAL = '\\}#~/"'
#: what the blanks of a list ask
BLANKS = (
    "One name or number a blank, in order, names as printed (case matters); "
    "a dash (-) in every blank left over."
)
#: the answer of a blank left over
DASH = "-"
#: the two options of a leaf in "which leaves are never evaluated"
EVALUATED, NEVER = "evaluated", "never evaluated"


def equal_share(k: int) -> str | None:
    """The grade on Moodle's list that k right options share equally (100/k), or None."""
    if k < 1:
        raise ValueError("a multiple choice needs a right answer")
    equal = [g for g in GRADES if abs(float(g) * k - 100) < 1e-3]
    return equal[0] if equal else None


def penalty(wrong: int) -> str:
    """The grade a wrong option takes off: the smallest on the list with wrong × it ≥ 100."""
    fits = [g for g in GRADES if float(g) * wrong >= 100 - 1e-3]
    return fits[-1] if fits else GRADES[-1]


def picture_html(ex: Exercise, image: str | None) -> str:
    """The tree in a question: the embedded picture, or (GIFT) the tree drawn in text."""
    if image:
        alt = f"the tree of exercise {ex.number}"
        return f'<p><img src="@@PLUGINFILE@@/{image}" alt="{escape(alt)}"></p>'
    return f"<pre>{text_escape(tree_text(ex.tree))}</pre>"


def question_html(ex: Exercise, q: Question, image: str | None, body: str = "") -> str:
    """A question's text in HTML: what to do, the tree, the question (and a cloze's blanks)."""
    return (
        f"<p>{text_escape(instructions(ex))}</p>{picture_html(ex, image)}"
        f"<p>{text_escape(q.text)}</p>{body}"
    )


def is_list(q: Question) -> bool:
    """Whether a question's answer is a list graded place by place (a cloze in Moodle)."""
    return bool(q.items)


# -- cloze -------------------------------------------------------------------------------------
def cloze_escape(text: str) -> str:
    """An answer inside a cloze blank: ``} # ~ / "`` and ``\\`` escaped with a backslash."""
    return "".join("\\" + ch if ch in CLOZE_SPECIAL else ch for ch in text)


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def blank(item: str) -> str:
    """One cloze blank worth 1: a number (tolerance 0) or a name (case-sensitive)."""
    if is_number(item) and item != DASH:
        return f"{{1:NUMERICAL:={cloze_escape(item)}:0}}"
    return f"{{1:SHORTANSWER_C:={cloze_escape(item)}}}"


def list_blanks(q: Question) -> str:
    """One numbered blank a place of the list; the places left over take a dash."""
    items = [*q.items, *[DASH] * (max(q.room, len(q.items)) - len(q.items))]
    cells = "".join(f"<li>{blank(item)}</li>" for item in items)
    return f"<ol>{cells}</ol>"


def leaf_choices(q: Question) -> str:
    """One drop-down a leaf, ``evaluated`` then ``never evaluated``, the right one marked, each
    worth 1."""
    rows = []
    for option, never in q.choices:
        marks = ("", "=") if never else ("=", "")
        rows.append(
            f"<li>{text_escape(option)}: "
            f"{{1:MULTICHOICE:{marks[0]}{EVALUATED}~{marks[1]}{NEVER}}}</li>"
        )
    return f"<ul>{''.join(rows)}</ul>"


# -- Moodle XML --------------------------------------------------------------------------------
def _text(value: str, tag: str = "text") -> str:
    return f"<{tag}>{xml_escape(value)}</{tag}>"


def moodle_question(ex: Exercise, q: Question) -> str:
    """One ``<question>`` element."""
    image = f"exercise-{ex.number}.svg"
    svg = to_svg(bare_view(ex.tree), state=False).encode("utf-8")
    cloze = is_list(q) or q.kind == MULTICHOICE
    body = ""
    if is_list(q):  # the blanks say how to write the list
        q = q._replace(text=re.sub(r",? (names )?separated by spaces", "", q.text))
    if q.kind == MULTICHOICE:
        q = q._replace(text=f"{q.text} {CHOOSE}")
    if cloze:
        body = leaf_choices(q) if q.kind == MULTICHOICE else list_blanks(q)
        if q.kind != MULTICHOICE:
            body = f"<p>{text_escape(BLANKS)}</p>{body}"
    kind = "cloze" if cloze else q.kind
    lines = [
        f'  <question type="{kind}">',
        "    <name>" + _text(f"Exercise {ex.number}: {q.title}") + "</name>",
        '    <questiontext format="html">',
        "      " + _text(question_html(ex, q, image, body)),
        f'      <file name="{image}" path="/" encoding="base64">'
        f"{base64.b64encode(svg).decode('ascii')}</file>",
        "    </questiontext>",
        '    <generalfeedback format="html">'
        + _text(f"<p>{text_escape(q.title)}: {text_escape(q.answer)}</p>")
        + "</generalfeedback>",
    ]
    if not cloze:
        lines.append("    <defaultgrade>1</defaultgrade>")
    lines += ["    <penalty>0.3333333</penalty>", "    <hidden>0</hidden>"]
    if q.kind == NUMERICAL:
        assert q.number is not None
        lines.append(
            '    <answer fraction="100">'
            + _text(format_extended(q.number))
            + f"<tolerance>{format_extended(q.tolerance) if q.tolerance else 0}</tolerance>"
            + "</answer>"
        )
    elif not cloze:  # a short answer of one word: an exact fraction
        lines.append("    <usecase>1</usecase>")
        lines += [
            '    <answer fraction="100">' + _text(a.replace("*", "\\*")) + "</answer>"
            for a in q.accepted
        ]
    lines.append("  </question>")
    return "\n".join(lines)


def moodle_xml(exercises: Sequence[Exercise]) -> str:
    """A Moodle XML ``<quiz>``: every question of every exercise, the tree embedded as SVG.

    Every question can be written (a cloze grades any number of leaves), so nothing is left out.
    """
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"]
    for ex in exercises:
        parts.append(f"<!-- {xml_escape(ex.heading()).replace('--', '- -')} -->")
        parts.extend(moodle_question(ex, q) for q in ex.questions)
    parts.append("</quiz>")
    return "\n".join(parts) + "\n"


__all__ = [
    "EVALUATED",
    "GRADES",
    "NEVER",
    "blank",
    "cloze_escape",
    "equal_share",
    "moodle_question",
    "moodle_xml",
    "penalty",
    "picture_html",
    "question_html",
]
