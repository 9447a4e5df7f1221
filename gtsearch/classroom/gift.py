"""Exercises as GIFT questions, the text format Moodle and other platforms import.

GIFT cannot carry files, so the tree is drawn in text (``<pre>``); it has no
case-sensitive blanks and no blanks graded one by one (docs/classroom.md,
"GIFT"), so:

- numbers are ``{#22}``; an exact value that is no integer ``{=13/3}``;
- a list is one short answer accepting the names separated by spaces or
  commas, in any case (the node names differ in more than case); an answer
  with one slip earns half (:func:`slip_answers`: one name left out, two
  neighbours swapped, or one name wrong, written with Moodle's wildcard ``*``),
  for lists of up to :data:`SLIP_ITEMS` items;
- "which leaves are never evaluated" is a multiple choice with several
  answers: the never-evaluated leaves share 100% (:func:`shares`: equally
  where Moodle's list of grades allows, else 10% and 5%), every other leaf
  takes off :func:`gtsearch.classroom.quiz.penalty` so that ticking every box
  scores 0 (Moodle clamps at 0).  More than 20 right leaves cannot share 100%
  in Moodle's grades: that question is left out, and :func:`left_out` says so
  in one line (the command prints it on stderr; ``--format moodle`` asks it
  leaf by leaf).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..render.labels import format_extended
from .keys import spellings
from .model import MULTICHOICE, NUMERICAL, TICK, Exercise, Question
from .quiz import equal_share, penalty, question_html

#: characters GIFT gives a meaning to, escaped with a backslash
GIFT_SPECIAL = "\\~=#{}:"


def gift_escape(text: str) -> str:
    """Text for GIFT: ``~ = # { } :`` and ``\\`` escaped with a backslash, line breaks as ``\\n``."""
    out = "".join("\\" + ch if ch in GIFT_SPECIAL else ch for ch in text)
    return out.replace("\n", "\\n")


#: the longest list whose one-slip answers are listed for half the marks
SLIP_ITEMS = 40
#: the credit of an answer with one slip
SLIP = "50"


def shares(k: int) -> list[str] | None:
    """k grades on Moodle's list that add up to 100%: equal where the list allows (k = 1 to 10,
    or 20), else 20 - k of 10% and 2k - 20 of 5% (k = 11 to 19); None for more than 20."""
    equal = equal_share(k)
    if equal is not None:
        return [equal] * k
    if k > 20:
        return None
    return ["10"] * (20 - k) + ["5"] * (2 * k - 20)


def grades(q: Question) -> list[str] | None:
    """The grade of each option of a multiple choice (``-P`` for a wrong one), the right ones
    adding up to 100% (:func:`shares`); None when Moodle's list cannot share it."""
    right = sum(1 for _, ok in q.choices if ok)
    share = shares(right)
    if share is None:
        return None
    bad = "-" + penalty(max(1, len(q.choices) - right))
    given = iter(share)
    return [next(given) if ok else bad for _, ok in q.choices]


def why_not(q: Question) -> str | None:
    """Why GIFT cannot ask the question, or None when it can."""
    if q.kind == MULTICHOICE and grades(q) is None:
        right = sum(1 for _, ok in q.choices if ok)
        return (
            f"{right} right options cannot share 100% in the grades Moodle accepts "
            "(at most 20); --format moodle asks it leaf by leaf"
        )
    return None


def slip_answers(items: Sequence[str]) -> list[list[str]]:
    """The lists with one slip: one item left out, two neighbours swapped, one item wrong
    (``*``, Moodle's wildcard); none for a list of one item (``*`` would match anything) or of
    more than :data:`SLIP_ITEMS`."""
    k = len(items)
    if k < 2 or k > SLIP_ITEMS:
        return []
    out = [[*items[:j], *items[j + 1 :]] for j in range(k)]
    out += [
        [*items[:j], items[j + 1], items[j], *items[j + 2 :]]
        for j in range(k - 1)
        if items[j] != items[j + 1]
    ]
    out += [[*items[:j], "*", *items[j + 1 :]] for j in range(k)]
    return list({tuple(x): x for x in out if list(x) != list(items)}.values())


def left_out(exercises: Sequence[Exercise]) -> list[str]:
    """One line for every question the GIFT quiz leaves out, saying why."""
    return [
        f"exercise {ex.number}, {q.title}: left out of the GIFT quiz: {reason}"
        for ex in exercises
        for q in ex.questions
        if (reason := why_not(q)) is not None
    ]


def gift_question(ex: Exercise, q: Question) -> str:
    """One question in GIFT, on one line."""
    title = gift_escape(f"Exercise {ex.number}: {q.title}")
    if q.kind == MULTICHOICE:
        q = q._replace(text=f"{q.text} {TICK}")
    text = gift_escape(question_html(ex, q, None))
    if q.kind == NUMERICAL:
        assert q.number is not None
        answers = "#" + gift_escape(format_extended(q.number))
        if q.tolerance:  # GIFT's number:tolerance
            answers += ":" + gift_escape(format_extended(q.tolerance))
    elif q.kind == MULTICHOICE:
        weights = grades(q)
        assert weights is not None
        answers = " ".join(
            f"~%{grade}%{gift_escape(option)}"
            for (option, _), grade in zip(q.choices, weights, strict=True)
        )
    else:
        answers = " ".join("=" + gift_escape(a) for a in q.accepted)
        half = [form for slip in slip_answers(q.items) for form in spellings(slip)]
        answers += "".join(f" =%{SLIP}%{gift_escape(a)}" for a in half)
    return f"::{title}::[html]{text}{{{answers}}}"


def gift(exercises: Sequence[Exercise]) -> str:
    """Every question GIFT can ask, one per block, blocks separated by blank lines."""
    blocks = []
    for ex in exercises:
        lines = [f"// {ex.heading()}"]
        lines += [gift_question(ex, q) for q in ex.questions if why_not(q) is None]
        blocks.append("\n\n".join(lines))
    return "\n\n".join(blocks) + "\n"


__all__ = [
    "GIFT_SPECIAL",
    "SLIP",
    "SLIP_ITEMS",
    "gift",
    "gift_escape",
    "gift_question",
    "grades",
    "left_out",
    "shares",
    "slip_answers",
    "why_not",
]
