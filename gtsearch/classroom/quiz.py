"""Exercises as auto-graded quiz questions: Moodle XML (a ``<quiz>`` Moodle imports) and GIFT.

Every question of an exercise becomes one question of the quiz, its text
showing the tree: in Moodle XML as an SVG picture embedded in the question
(``<file encoding="base64">`` referred to by ``@@PLUGINFILE@@``), in GIFT,
which cannot carry files, as the tree drawn in text (``<pre>``).  Numerical
questions (the value, the number of leaf evaluations) take the exact number;
short answers (the PV, the leaves in order, the pruned subtrees, SSS*'s
merits) accept the names separated by spaces or commas, in any case; "which
leaves are never evaluated" is a multiple choice with several right answers.

Moodle accepts only the grades of its list (100%, 50%, 33.33333%, ...; see
:data:`GRADES`), and the right answers of a multiple choice must add up to
100%: k right options get 100/k each when that is on the list (k = 1 to 10,
or 20), else, for 11 to 19, 10% or 5% each (the first 20 − k get 10%).  More
than 20 leaves never evaluated cannot be graded so, and is refused.  Each
wrong option takes off the smallest grade on the list that makes ticking
every wrong one worth −100% or less.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from xml.sax.saxutils import escape as xml_escape

from ..errors import UsageError
from ..render.labels import format_extended
from ..render.svg import to_svg
from ..render.view import bare_view
from .model import MULTICHOICE, NUMERICAL, SHORT_ANSWER, Exercise, Question
from .worksheet import instructions, text_escape, tree_text

#: the grades Moodle's import accepts, in percent (question_bank::fraction_options_full)
GRADES = (
    "100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333", "30",
    "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5",
)  # fmt: skip
#: characters GIFT gives a meaning to, escaped with a backslash
GIFT_SPECIAL = "\\~=#{}:"


def shares(k: int) -> list[str]:
    """Grades (percent, from :data:`GRADES`) for k right options, adding up to 100."""
    if k < 1:
        raise ValueError("a multiple choice needs a right answer")
    equal = [g for g in GRADES if abs(float(g) * k - 100) < 1e-3]
    if equal:
        return [equal[0]] * k
    if k < 20:
        return ["10"] * (20 - k) + ["5"] * (2 * k - 20)
    raise UsageError(
        f"{k} right answers cannot share 100% in the grades Moodle accepts (20 at most); "
        "ask for a smaller tree (-b, -d)"
    )


def penalty(wrong: int) -> str:
    """The grade a wrong option takes off: the smallest on the list with wrong × it ≥ 100."""
    fits = [g for g in GRADES if float(g) * wrong >= 100 - 1e-3]
    return fits[-1] if fits else GRADES[-1]


def grades(q: Question) -> list[str]:
    """The grade of each option of a multiple choice, in order (``-10`` for a wrong one)."""
    right = sum(1 for _, ok in q.choices if ok)
    good = iter(shares(right))
    bad = "-" + penalty(len(q.choices) - right)
    return [next(good) if ok else bad for _, ok in q.choices]


def check_gradable(exercises: Sequence[Exercise]) -> None:
    """Refuse, before writing anything, an exercise whose multiple choice Moodle cannot grade."""
    for ex in exercises:
        for q in ex.questions:
            if q.kind == MULTICHOICE:
                try:
                    grades(q)
                except UsageError as e:
                    raise UsageError(f"exercise {ex.number}, {q.title}: {e}") from None


# -- Moodle XML --------------------------------------------------------------------------------
def _text(value: str, tag: str = "text") -> str:
    return f"<{tag}>{xml_escape(value)}</{tag}>"


def _question_html(ex: Exercise, q: Question, image: str | None) -> str:
    picture = (
        f'<p><img src="@@PLUGINFILE@@/{image}" alt="{escape(ex.heading())}"></p>'
        if image
        else f"<pre>{text_escape(tree_text(ex.tree))}</pre>"
    )
    return f"<p>{text_escape(instructions(ex))}</p>{picture}<p>{text_escape(q.text)}</p>"


def moodle_question(ex: Exercise, q: Question) -> str:
    """One ``<question>`` element."""
    image = f"exercise-{ex.number}.svg"
    svg = to_svg(bare_view(ex.tree), state=False).encode("utf-8")
    lines = [
        f'  <question type="{q.kind}">',
        "    <name>" + _text(f"Exercise {ex.number} (seed {ex.seed}): {q.title}") + "</name>",
        '    <questiontext format="html">',
        "      " + _text(_question_html(ex, q, image)),
        f'      <file name="{image}" path="/" encoding="base64">'
        f"{base64.b64encode(svg).decode('ascii')}</file>",
        "    </questiontext>",
        '    <generalfeedback format="html">'
        + _text(f"<p>{text_escape(q.title)}: {text_escape(q.answer)}</p>")
        + "</generalfeedback>",
        "    <defaultgrade>1</defaultgrade>",
        "    <penalty>0.3333333</penalty>",
        "    <hidden>0</hidden>",
    ]
    if q.kind == NUMERICAL:
        assert q.number is not None
        lines.append(
            '    <answer fraction="100">'
            + _text(format_extended(q.number))
            + "<tolerance>0</tolerance></answer>"
        )
    elif q.kind == SHORT_ANSWER:
        lines.append("    <usecase>0</usecase>")
        lines += [
            '    <answer fraction="100">' + _text(a.replace("*", "\\*")) + "</answer>"
            for a in q.accepted
        ]
    else:
        lines += [
            "    <single>false</single>",
            "    <shuffleanswers>false</shuffleanswers>",
            "    <answernumbering>none</answernumbering>",
        ]
        lines += [
            f'    <answer fraction="{grade}" format="plain_text">' + _text(option) + "</answer>"
            for (option, _), grade in zip(q.choices, grades(q), strict=True)
        ]
    lines.append("  </question>")
    return "\n".join(lines)


def moodle_xml(exercises: Sequence[Exercise]) -> str:
    """A Moodle XML ``<quiz>``: every question of every exercise, the tree embedded as SVG."""
    check_gradable(exercises)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"]
    for ex in exercises:
        parts.append(f"<!-- {xml_escape(ex.heading()).replace('--', '- -')} -->")
        parts.extend(moodle_question(ex, q) for q in ex.questions)
    parts.append("</quiz>")
    return "\n".join(parts) + "\n"


# -- GIFT --------------------------------------------------------------------------------------
def gift_escape(text: str) -> str:
    """Text for GIFT: ``~ = # { } :`` and ``\\`` escaped with a backslash, line breaks as ``\\n``."""
    out = "".join("\\" + ch if ch in GIFT_SPECIAL else ch for ch in text)
    return out.replace("\n", "\\n")


def gift_question(ex: Exercise, q: Question) -> str:
    """One question in GIFT, on one line."""
    title = gift_escape(f"Exercise {ex.number} (seed {ex.seed}): {q.title}")
    text = gift_escape(_question_html(ex, q, None))
    if q.kind == NUMERICAL:
        assert q.number is not None
        answers = "#" + gift_escape(format_extended(q.number))
    elif q.kind == SHORT_ANSWER:
        answers = " ".join("=" + gift_escape(a) for a in q.accepted)
    else:
        answers = " ".join(
            f"~%{grade}%{gift_escape(option)}"
            for (option, _), grade in zip(q.choices, grades(q), strict=True)
        )
    return f"::{title}::[html]{text}{{{answers}}}"


def gift(exercises: Sequence[Exercise]) -> str:
    """Every question of every exercise in GIFT, one per block, blocks separated by blank lines."""
    check_gradable(exercises)
    blocks = []
    for ex in exercises:
        lines = [f"// {ex.heading()}"]
        lines += [gift_question(ex, q) for q in ex.questions]
        blocks.append("\n\n".join(lines))
    return "\n\n".join(blocks) + "\n"


__all__ = [
    "GRADES",
    "gift",
    "gift_escape",
    "gift_question",
    "grades",
    "moodle_question",
    "moodle_xml",
    "penalty",
    "shares",
]
