"""Exercises as GIFT questions, the text format Moodle and other platforms import.

GIFT cannot carry files, so the tree is drawn in text (``<pre>``); it has no
case-sensitive answers and no blanks graded one by one (docs/classroom.md,
"GIFT"), so:

- numbers are ``{#22}``; an exact value that is no integer ``{=13/3}``;
- a list is one short answer, right or wrong as a whole, accepting the names
  separated by spaces or commas (the node names differ in more than case, so a
  grader that ignores case confuses none of them);
- "which leaves are never evaluated" is a matching question: every leaf is
  matched with ``evaluated`` or ``never evaluated``, each pair worth the same
  (Moodle grades a matching question pair by pair), so the grades are even and
  add up to 100% for any number of leaves.  GIFT's matching needs three pairs:
  a tree of two leaves gets a multiple choice whose right options share 100%
  equally instead.  A question none of these can grade (k right options with
  no equal share on Moodle's list) is left out, and :func:`left_out` says so
  in one line (the command prints it on stderr).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..render.labels import format_extended
from .model import CHOOSE, MULTICHOICE, NUMERICAL, TICK, Exercise, Question
from .quiz import EVALUATED, NEVER, equal_share, penalty, question_html

#: characters GIFT gives a meaning to, escaped with a backslash
GIFT_SPECIAL = "\\~=#{}:"


def gift_escape(text: str) -> str:
    """Text for GIFT: ``~ = # { } :`` and ``\\`` escaped with a backslash, line breaks as ``\\n``."""
    out = "".join("\\" + ch if ch in GIFT_SPECIAL else ch for ch in text)
    return out.replace("\n", "\\n")


def grades(q: Question) -> list[str] | None:
    """The grade of each option of a multiple choice (``-P`` for a wrong one), the right ones
    equal and adding up to 100%; None when Moodle's list has no equal share for them."""
    right = sum(1 for _, ok in q.choices if ok)
    share = equal_share(right)
    if share is None:
        return None
    bad = "-" + penalty(len(q.choices) - right)
    return [share if ok else bad for _, ok in q.choices]


#: the fewest pairs GIFT's matching question takes
MATCHING_PAIRS = 3


def matching(q: Question) -> bool:
    """Whether the multiple choice is asked as a matching question (leaf -> evaluated or not)."""
    return len(q.choices) >= MATCHING_PAIRS


def why_not(q: Question) -> str | None:
    """Why GIFT cannot ask the question, or None when it can."""
    if q.kind == MULTICHOICE and not matching(q) and grades(q) is None:
        right = sum(1 for _, ok in q.choices if ok)
        return (
            f"{right} right options cannot share 100% equally in the grades Moodle accepts "
            "(1 to 10, or 20); --format moodle asks it leaf by leaf"
        )
    return None


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
        q = q._replace(text=f"{q.text} {CHOOSE if matching(q) else TICK}")
    text = gift_escape(question_html(ex, q, None))
    if q.kind == NUMERICAL:
        assert q.number is not None
        answers = "#" + gift_escape(format_extended(q.number))
        if q.tolerance:  # GIFT's number:tolerance
            answers += ":" + gift_escape(format_extended(q.tolerance))
    elif q.kind == MULTICHOICE and matching(q):
        answers = " ".join(
            f"={gift_escape(option)} -> {NEVER if never else EVALUATED}"
            for option, never in q.choices
        )
    elif q.kind == MULTICHOICE:
        weights = grades(q)
        assert weights is not None
        answers = " ".join(
            f"~%{grade}%{gift_escape(option)}"
            for (option, _), grade in zip(q.choices, weights, strict=True)
        )
    else:
        answers = " ".join("=" + gift_escape(a) for a in q.accepted)
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
    "MATCHING_PAIRS",
    "gift",
    "gift_escape",
    "gift_question",
    "grades",
    "left_out",
    "matching",
    "why_not",
]
