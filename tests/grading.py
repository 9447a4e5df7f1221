"""Moodle's grading, written out from its question types, to grade the quizzes of gtsearch exercise.

Each function follows the Moodle code named in its docstring (moodle/moodle,
question/type/...):

- ``qtype_multianswer_question::grade_response``: the sum over the blanks of
  the blank's fraction times its weight, over the sum of the weights (no
  clamping: a negative blank counts);
- ``qtype_shortanswer_question::compare_string_with_wildcard``: the response
  trimmed, ``*`` matching any text, case ignored unless the question says so;
  the first answer that matches gives its fraction;
- ``qtype_numerical``: the first answer within its tolerance;
- ``qtype_multichoice_single_question``: the chosen option's fraction;
  ``qtype_multichoice_multi_question``: the sum of the ticked options'
  fractions, clamped to [0, 1];
- ``qtype_match_question``: right pairs over pairs.

A GIFT quiz is graded as Moodle imports it (qformat_gift): ``{#x}`` numerical,
answers all ``=`` a short answer (case ignored), ``~%w%`` options a multiple
choice with several answers, ``=a -> b`` a matching question.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

#: a cloze blank as qtype_multianswer reads it: {weight:TYPE:answers}
BLANK = re.compile(
    r"\{(?P<weight>\d*):(?P<type>SHORTANSWER_C|SHORTANSWER|SA|NUMERICAL|NM|MULTICHOICE|MC):"
    r"(?P<answers>(?:\\.|[^}\\])*)\}"
)
#: an answer of a blank: =text, %fraction%text, or text (0%)
ALTERNATIVE = re.compile(
    r"^(?:(?P<eq>=)|%(?P<fraction>-?[0-9]+(?:[.,][0-9]*)?)%)?(?P<text>.*)$", re.S
)


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@dataclass
class Answer:
    fraction: float  # 1.0 for 100%
    text: str
    tolerance: float = 0.0


@dataclass
class Part:
    """One graded part: a cloze blank, or a whole question of one type."""

    kind: str  # shortanswer, shortanswer_c, numerical, choice (one), multi (several), match
    answers: list[Answer]
    weight: int = 1
    pairs: list[tuple[str, str]] = field(default_factory=list)  # match: (item, right option)


@dataclass
class Item:
    """One question as Moodle grades it: its parts (one, or a cloze's blanks)."""

    name: str
    parts: list[Part]
    cloze: bool = False


def split_answers(text: str) -> list[str]:
    return re.split(r"(?<!\\)~", text)


def cloze_parts(html: str) -> list[Part]:
    parts = []
    for m in BLANK.finditer(html):
        kind = {"SA": "shortanswer", "NM": "numerical", "MC": "choice"}.get(
            m.group("type"), m.group("type").lower()
        )
        kind = "choice" if kind == "multichoice" else kind
        answers = []
        for alt in split_answers(m.group("answers")):
            a = ALTERNATIVE.match(alt)
            assert a is not None
            fraction = (
                1.0 if a.group("eq") else float((a.group("fraction") or "0").replace(",", "."))
            )
            fraction = fraction if a.group("eq") else fraction / 100
            text = a.group("text")
            text = re.split(r"(?<!\\)#", text)[0]  # feedback
            tolerance = 0.0
            if kind == "numerical" and ":" in text:
                text, tol = text.rsplit(":", 1)
                tolerance = float(tol)
            answers.append(Answer(fraction, unescape(text), tolerance))
        parts.append(Part(kind, answers, int(m.group("weight") or 1)))
    return parts


def moodle_items(xml: str) -> list[Item]:
    """Every question of a Moodle XML quiz, as Moodle's importer makes it."""
    items = []
    for q in ET.fromstring(xml).findall("question"):
        kind = q.get("type") or ""
        name = q.findtext("name/text") or ""
        html = q.findtext("questiontext/text") or ""
        if kind == "cloze":
            items.append(Item(name, cloze_parts(html), cloze=True))
            continue
        answers = [
            Answer(
                float(a.get("fraction") or 0) / 100,
                a.findtext("text") or "",
                float(a.findtext("tolerance") or 0),
            )
            for a in q.findall("answer")
        ]
        if kind == "shortanswer":
            kind = "shortanswer_c" if q.findtext("usecase") == "1" else "shortanswer"
        elif kind == "multichoice":
            kind = "choice" if q.findtext("single") == "true" else "multi"
        items.append(Item(name, [Part(kind, answers)]))
    return items


# -- GIFT ----------------------------------------------------------------------------------------
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


def gift_items(text: str) -> list[Item]:
    """Every question of a GIFT quiz, as qformat_gift imports it."""
    items = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [x for x in block.splitlines() if not x.lstrip().startswith("//")]
        if not lines:
            continue
        body = "\n".join(lines)
        title, rest = gift_split(body[2:], ":")
        rest = rest[2:]
        if rest.startswith("["):
            rest = rest.split("]", 1)[1]
        _, rest = gift_split(rest, "{")
        inner = rest.strip()[1:-1].strip()
        if inner.startswith("#"):
            value, _ = gift_split(inner[1:], "")
            number, _, tol = value.strip().partition(":")
            answers = [Answer(1.0, number, float(tol or 0))]
            items.append(Item(title, [Part("numerical", answers)]))
            continue
        raw: list[tuple[str, str]] = []
        while inner:
            mark, inner = inner[0], inner[1:]
            value, inner = gift_split(inner, "=~")
            raw.append((mark, value.strip()))
        if all(" -> " in v for _, v in raw) and {m for m, _ in raw} == {"="}:
            pairs = [(a, b) for a, b in (v.split(" -> ") for _, v in raw)]
            items.append(Item(title, [Part("match", [], pairs=pairs)]))
            continue
        answers = []
        for mark, value in raw:
            m = re.match(r"%(-?[0-9.]+)%(.*)$", value, re.S)
            fraction = float(m.group(1)) / 100 if m else (1.0 if mark == "=" else 0.0)
            answers.append(Answer(fraction, m.group(2) if m else value))
        marks = {m for m, _ in raw}
        if marks == {"="}:
            items.append(Item(title, [Part("shortanswer", answers)]))
        else:
            several = (
                any(0 < a.fraction < 1 for a in answers)
                or sum(1 for a in answers if a.fraction > 0) > 1
            )
            items.append(Item(title, [Part("multi" if several else "choice", answers)]))
    return items


# -- grading -----------------------------------------------------------------------------------
def wildcard(pattern: str, response: str, ignore_case: bool) -> bool:
    """qtype_shortanswer_question::compare_string_with_wildcard."""
    bits = re.split(r"(?<!\\)\*+", pattern)
    regexp = "^" + ".*".join(re.escape(b.replace("\\*", "*")) for b in bits) + "$"
    return re.match(regexp, response.strip(), re.I | re.S if ignore_case else re.S) is not None


def grade_part(part: Part, response: Any) -> float:
    """The fraction one part earns (a string, an option's text, or a set of ticked texts)."""
    if part.kind in ("shortanswer", "shortanswer_c"):
        if not str(response).strip():
            return 0.0  # not gradable: no answer
        for a in part.answers:
            if wildcard(a.text, str(response), part.kind == "shortanswer"):
                return a.fraction
        return 0.0
    if part.kind == "numerical":
        try:
            x = float(str(response).strip())
        except ValueError:
            return 0.0
        for a in part.answers:
            if a.text == "*" or abs(x - float(a.text)) <= a.tolerance + 1e-12:
                return a.fraction
        return 0.0
    if part.kind == "choice":
        return next((a.fraction for a in part.answers if a.text == response), 0.0)
    if part.kind == "multi":
        got = sum(a.fraction for a in part.answers if a.text in response)
        return min(max(0.0, got), 1.0)
    if part.kind == "match":
        right = sum(1 for (item, want) in part.pairs if response.get(item) == want)
        return right / len(part.pairs)
    raise AssertionError(part.kind)


def grade(item: Item, responses: list[Any]) -> float:
    """The question's fraction: qtype_multianswer_question::grade_response for a cloze."""
    total = sum(p.weight for p in item.parts)
    return (
        sum(grade_part(p, r) * p.weight for p, r in zip(item.parts, responses, strict=True)) / total
    )


# -- what a student may answer -------------------------------------------------------------------
def options(part: Part) -> list[str]:
    if part.kind == "match":
        return sorted({b for _, b in part.pairs})
    return [a.text for a in part.answers]


def know_nothing(item: Item) -> list[list[Any]]:
    """The answers of a student who knows nothing: every blank a dash or empty, every drop-down
    the same option, every box ticked or none, every pair matched alike."""
    kinds = {p.kind for p in item.parts}
    out: list[list[Any]] = [["-"] * len(item.parts), [""] * len(item.parts)]
    if kinds <= {"choice"}:
        shared = set.intersection(*(set(options(p)) for p in item.parts))
        out = [[o] * len(item.parts) for o in sorted(shared)] + [[None] * len(item.parts)]
    elif kinds == {"multi"}:
        (p,) = item.parts
        out = [[set(options(p))], [set()]]
    elif kinds == {"match"}:
        (p,) = item.parts
        out = [[{a: o for a, _ in p.pairs}] for o in options(p)]
    return out


def right_response(part: Part) -> Any:
    if part.kind == "multi":
        return {a.text for a in part.answers if a.fraction > 0}
    if part.kind == "match":
        return dict(part.pairs)
    best = max(part.answers, key=lambda a: a.fraction)
    return best.text


def key(item: Item) -> list[Any]:
    """The right answer to every part."""
    return [right_response(p) for p in item.parts]


#: the questions whose answer is a list of names or numbers, in order
LISTS = ("principal variation", "leaves in order", "pruned subtrees", "merits", "probed outcomes")


def is_list(item: Item) -> bool:
    return any(t in item.name for t in LISTS)


def list_slips(items: list[str], others: list[str]) -> dict[str, list[list[str]]]:
    """Every answer with one slip: one wrong name, two neighbours swapped, one left out."""
    wrong = [x for x in others if x not in items][:1] or ["zz9"]
    return {
        "one wrong name": [[*items[:j], wrong[0], *items[j + 1 :]] for j in range(len(items))],
        "two neighbours swapped": [
            [*items[:j], items[j + 1], items[j], *items[j + 2 :]]
            for j in range(len(items) - 1)
            if items[j] != items[j + 1]
        ],
        "one left out": [[*items[:j], *items[j + 1 :]] for j in range(len(items))],
    }


def slips(item: Item, names: list[str]) -> dict[str, list[list[Any]]]:
    """The responses with one slip, by kind of slip (each in every place), as a student gives
    them to this question; ``names`` are the tree's names (for a wrong one)."""
    out: dict[str, list[list[Any]]] = {}
    kinds = {p.kind for p in item.parts}
    if item.cloze and kinds <= {"shortanswer", "shortanswer_c", "numerical"}:
        right = [str(r) for r in key(item)]
        items = [r for r in right if r != "-"]
        for slip, answers in list_slips(items, names).items():
            out[slip] = [a + ["-"] * (len(right) - len(a)) for a in answers if len(a) <= len(right)]
    elif is_list(item) and kinds <= {"shortanswer", "shortanswer_c"}:
        items = str(key(item)[0]).split()
        for slip, answers in list_slips(items, names).items():
            out[slip] = [[" ".join(a)] for a in answers]
    elif kinds <= {"choice"} and len(item.parts) > 1:  # one drop-down a leaf
        right = key(item)
        flips = []
        for j, p in enumerate(item.parts):
            other = next(o for o in options(p) if o != right[j])
            flips.append([*right[:j], other, *right[j + 1 :]])
        out["one leaf wrong"] = flips
    elif kinds == {"multi"}:
        (p,) = item.parts
        right = right_response(p)
        out["one leaf wrong"] = [[right ^ {o}] for o in options(p)]
    elif kinds == {"match"}:
        (p,) = item.parts
        right = dict(p.pairs)
        opts = options(p)
        out["one leaf wrong"] = [
            [{**right, a: next(o for o in opts if o != right[a])}] for a in right
        ]
    return out


__all__ = ["Item", "Part", "gift_items", "grade", "key", "know_nothing", "moodle_items"]
