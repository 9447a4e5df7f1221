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
  probed outcomes): an embedded-answers question (``cloze``) with more blanks
  than most answers need (the count is no give-away), names graded without
  regard to case (``SHORTANSWER``: the names differ in more than case),
  numbers as ``NUMERICAL``.  A blank of the answer is worth ``W``
  (:func:`answer_weight`), a blank left over (a dash) 1, so that dashes
  everywhere score at most 10%; a blank takes the item one place before or
  after its own at 75%, so that a name left out or two neighbours swapped
  keep most of the marks;
- "which leaves are never evaluated": a ``cloze`` with one drop-down per leaf
  (``evaluated`` / ``never evaluated``), the right choice +100%, the wrong one
  -100%, the pruned leaves' drop-downs weighted by the number of evaluated
  leaves and the others' by the number of pruned ones (:func:`leaf_weights`), so that
  choosing the same for every leaf scores 0 and one leaf wrong costs 1/p or
  1/e of the marks.

The cloze syntax and Moodle XML are Moodle's own (docs.moodle.org, "Embedded
Answers (Cloze) question type" and "Moodle XML format").
"""

from __future__ import annotations

import base64
import math
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
BLANKS = "One name or number a blank, in order; a dash (-) in every blank left over."
#: the credit of a blank's item one place before or after its own (Moodle's list of grades)
NEIGHBOUR = "75"
#: the most a student who answers a dash in every blank may score
DASH_SCORE = 0.1
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


#: what introduces the tree written as text under a question's picture
TREE_AS_TEXT = "The same tree as text (names, MAX/MIN, leaf values):"


def picture_alt(ex: Exercise) -> str:
    """The picture's ``alt``: what it is, and where the tree is in words."""
    return (
        f"The game tree of exercise {ex.number}, drawn; the same tree is written out as text "
        "below the picture"
    )


def picture_html(ex: Exercise, image: str | None) -> str:
    """The tree in a question: the embedded picture and the tree as text under it, which a
    screen reader reads (Moodle); or (GIFT, which carries no file) the tree as text alone."""
    text = f"<pre>{text_escape(tree_text(ex.tree))}</pre>"
    if image:
        picture = f'<p><img src="@@PLUGINFILE@@/{image}" alt="{escape(picture_alt(ex))}"></p>'
        return f"{picture}<p>{text_escape(TREE_AS_TEXT)}</p>{text}"
    return text


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


def blank(item: str, weight: int = 1, near: Sequence[str] = ()) -> str:
    """One cloze blank worth ``weight``: a number (tolerance 0) or a name (any case), and the
    items ``near`` it in the list at :data:`NEIGHBOUR` percent."""
    numeric = is_number(item) and item != DASH
    others = [x for x in dict.fromkeys(near) if x != item and is_number(x) == numeric]
    if numeric:
        alts = [f"={cloze_escape(item)}:0"]
        alts += [f"%{NEIGHBOUR}%{cloze_escape(x)}:0" for x in others]
        return f"{{{weight}:NUMERICAL:{'~'.join(alts)}}}"
    alts = [f"={cloze_escape(item)}", *[f"%{NEIGHBOUR}%{cloze_escape(x)}" for x in others]]
    return f"{{{weight}:SHORTANSWER:{'~'.join(alts)}}}"


def answer_weight(k: int, room: int) -> int:
    """The weight of each of a list's k answer blanks among ``room``, the others worth 1: the
    least with dashes everywhere scoring at most :data:`DASH_SCORE` ((room - k) / (k W + room
    - k) <= 1/10)."""
    spare = room - k
    return max(1, math.ceil(spare * (1 - DASH_SCORE) / DASH_SCORE / k - 1e-9))


def list_blanks(q: Question) -> str:
    """One numbered blank a place of the list; the places left over take a dash."""
    k = len(q.items)
    room = max(q.room, k)
    w = answer_weight(k, room)
    cells = [
        blank(item, w, [*q.items[max(0, i - 1) : i], *q.items[i + 1 : i + 2]])
        for i, item in enumerate(q.items)
    ]
    cells += [blank(DASH)] * (room - k)
    return "<ol>" + "".join(f"<li>{c}</li>" for c in cells) + "</ol>"


def leaf_weights(q: Question) -> tuple[int, int]:
    """The weights of a pruned leaf's drop-down and an evaluated one's: e/g and p/g (p pruned,
    e evaluated, g their gcd), so that one answer for every leaf adds up to 0."""
    p = sum(1 for _, never in q.choices if never)
    e = len(q.choices) - p
    g = math.gcd(p, e) or 1
    return e // g or 1, p // g or 1


def leaf_choices(q: Question) -> str:
    """One drop-down a leaf, ``evaluated`` then ``never evaluated``: the right one +100%, the
    other -100%, weighted by :func:`leaf_weights`."""
    never_w, evaluated_w = leaf_weights(q)
    rows = []
    for option, never in q.choices:
        marks = ("%-100%", "%100%") if never else ("%100%", "%-100%")
        w = never_w if never else evaluated_w
        rows.append(
            f"<li>{text_escape(option)}: "
            f"{{{w}:MULTICHOICE:{marks[0]}{EVALUATED}~{marks[1]}{NEVER}}}</li>"
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
        lines.append("    <usecase>0</usecase>")
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
    "TREE_AS_TEXT",
    "answer_weight",
    "blank",
    "leaf_weights",
    "cloze_escape",
    "equal_share",
    "moodle_question",
    "moodle_xml",
    "penalty",
    "picture_alt",
    "picture_html",
    "question_html",
]
