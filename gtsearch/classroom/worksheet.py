"""Exercises written out for people and scripts: text, JSON lines, an HTML worksheet and its answer key.

The text is the terminal version: every exercise (its tree drawn as text, its
questions), then the answers with the search drawn as ``gtsearch show`` draws
it.  JSON has one object per exercise and line: the tree as a tree file's JSON
(``gtsearch eval`` reads it), the questions and the answers.  The HTML pages
are self-contained (inline SVG and CSS), printable (one exercise a page), and
come in two: the worksheet and the answer key.  Moodle XML and GIFT are in
:mod:`.quiz`.  The pictures and the drawings of the searches are gtsearch.render's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape as html_escape
from typing import Any

from ..algorithms.params import leaf_bounds
from ..numbers import format_probability
from ..render.labels import Labels, format_extended, param_texts
from ..render.layout import MARGIN, Picture, layout
from ..render.svg import picture_svg, to_svg
from ..render.terminal import draw_text
from ..render.view import SearchView, bare_view, build_view
from ..tree import Tree
from .model import CROSS, MULTICHOICE, TICK, Exercise, Question


# -- shared ------------------------------------------------------------------------------------
def instructions(ex: Exercise) -> str:
    """What to do, in one sentence: the algorithm, its parameters, the conventions."""
    # mcts's seed is the teacher's (Exercise.heading)
    params = ", ".join(param_texts({k: v for k, v in ex.params.items() if k != "seed"}, sep=" "))
    players = (
        "the players alternate over the decision nodes, a chance node is worth the "
        "probability-weighted average of its outcomes (each outcome's p is given)"
        if ex.tree.has_chance
        else "the players alternate"
    )
    return (
        f"Search this tree by hand with {ex.algorithm_name}"
        + (f" ({params})" if params else "")
        + f": MAX moves at the root, {players}, {ORDER.get(ex.algorithm, LEFT_TO_RIGHT)}, "
        "and leaf values are MAX's payoffs." + star_rules(ex)
    )


#: the order in which an algorithm takes children, as the instructions say it
#: (docs/algorithms.md): left to right, but for MCTS, which tries each child once, left to
#: right, and then follows UCB1
LEFT_TO_RIGHT = "children are searched from left to right"
ORDER = {
    "mcts": "a node's children enter the search tree from left to right, each tried once "
    "before UCB1 compares them (UCB1's ties: the leftmost child)",
}


#: Star2's probing rule, as docs/algorithms.md ("Star2") states it
PROBING_RULE = (
    " Star2 probes only where a probe can cut: at a chance node searched with β < +∞ it "
    "probes the outcomes where MAX moves, with α > −∞ those where MIN moves, and with "
    "(−∞, +∞), the root's window, none; it takes the outcomes left to right, and a probe "
    "searches the outcome's first child only (a leaf outcome is read once, a chance outcome "
    "is not probed)."
)


def star_rules(ex: Exercise) -> str:
    """Star1's and Star2's bounds L and U (the key's, exactly), and Star2's probing rule."""
    if ex.algorithm not in ("star1", "star2"):
        return ""
    (lo, hi), _ = leaf_bounds(ex.tree, ex.params.get("leaf_bounds"))
    text = (
        f" Every leaf lies in [L, U] with L = {format_extended(lo)} and "
        f"U = {format_extended(hi)} (the least and the greatest leaf): the bounds "
        f"{ex.algorithm_name} starts from."
    )
    return text + (PROBING_RULE if ex.algorithm == "star2" else "")


def search_view(ex: Exercise) -> SearchView:
    """The view of the exercise's search, for the answer key's drawings (the same engine)."""
    return build_view(ex.tree, ex.algorithm, **ex.params)


def tree_text(tree: Tree) -> str:
    """The bare tree as text: names, MAX/MIN/CHANCE, outcomes' probabilities, leaf values."""
    labels = Labels(tree)
    lines: list[str] = []
    stack: list[tuple[int, str, str]] = [(0, "", "")]  # node, its line's prefix, its children's
    while stack:
        n, first, rest = stack.pop()
        p = labels.probability(n)
        name = tree.names.get(n, str(n)) + ("" if p is None else f"  p={format_probability(p)}")
        if tree.is_leaf(n):
            lines.append(f"{first}{name}  {format_extended(tree.number(n))}")
            continue
        lines.append(f"{first}{name}  {labels.player(n)}")
        kids = list(tree.children(n))
        for i in range(len(kids) - 1, -1, -1):
            last = i == len(kids) - 1
            stack.append(
                (kids[i], rest + ("└── " if last else "├── "), rest + ("    " if last else "│   "))
            )
    return "\n".join(lines) + "\n"


def asked(q: Question) -> str:
    """The question as a sheet asks it: a multiple choice is ticked."""
    return f"{q.text} {TICK}" if q.kind == MULTICHOICE else q.text


# -- text --------------------------------------------------------------------------------------
def exercises_text(exercises: Sequence[Exercise]) -> str:
    """Every exercise with its questions, then the answer key (:func:`key_text`)."""
    out: list[str] = []
    for ex in exercises:
        out += [ex.heading(), "", tree_text(ex.tree), instructions(ex)]
        for i, q in enumerate(ex.questions, 1):
            out.append(f"{i}. {asked(q)}")
            if q.kind == MULTICHOICE:
                out.append("   " + "  ".join(f"[ ] {option}" for option, _ in q.choices))
        out.append("")
    return "\n".join(out) + "\n" + key_text(exercises)


def key_text(exercises: Sequence[Exercise]) -> str:
    """The teacher's answer key as text: every answer, the search drawn, and the record."""
    out = ["Answers", "=======", ""]
    for ex in exercises:
        out += [f"Exercise {ex.number}", ""]
        out += [f"{i}. {q.title}: {q.answer}" for i, q in enumerate(ex.questions, 1)]
        out += ["", draw_text(search_view(ex)), *ex.record(), ""]
    return "\n".join(out).rstrip("\n") + "\n"


# -- JSON --------------------------------------------------------------------------------------
def question_record(q: Question) -> dict[str, Any]:
    """A question without its answer (that is under ``answers``): id, kind, text, options."""
    d: dict[str, Any] = {"id": q.id, "kind": q.kind, "text": q.text}
    if q.kind == MULTICHOICE:
        d["options"] = [option for option, _ in q.choices]
    return d


def exercise_record(ex: Exercise) -> dict[str, Any]:
    """The JSON object of one exercise (docs/classroom.md, "JSON")."""
    return {
        "exercise": ex.number,
        "seed": ex.seed,
        "attempt": ex.attempt,
        "algorithm": ex.algorithm,
        "params": dict(ex.params),
        **ex.settings,
        "tree": ex.document,
        "questions": [question_record(q) for q in ex.questions],
        "answers": dict(ex.answers),
    }


def exercises_json(exercises: Sequence[Exercise]) -> str:
    """One JSON object per exercise and line."""
    return "".join(
        json.dumps(exercise_record(ex), ensure_ascii=False, allow_nan=False) + "\n"
        for ex in exercises
    )


# -- HTML --------------------------------------------------------------------------------------
STYLE = """
  body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 2em auto;
         max-width: 72em; padding: 0 1em; color: #222; line-height: 1.4; }
  h1 { font-size: 1.5em; margin-bottom: 0.2em; }
  h2 { font-size: 1.2em; border-bottom: 1px solid #bbb; padding-bottom: 0.2em; }
  .setting { color: #555; font-size: 0.9em; }
  .tree svg { max-width: 100%; height: auto; }
  ol.questions > li { margin: 0.6em 0 1.4em; }
  .space { border-bottom: 1px dotted #888; height: 1.8em; }
  .options { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; margin-top: 0.4em; }
  .options span::before { content: "\\2610\\00a0"; font-size: 1.1em; }
  .answer { font-weight: bold; color: #1d4f9c; }
  .name-line { margin: 1em 0 2em; }
  @page { size: A4 landscape; margin: 12mm; }
  @media print {
    body { margin: 0; max-width: none; padding: 0; }
    section.exercise { break-after: page; page-break-after: always; }
    section.exercise:last-of-type { break-after: auto; page-break-after: auto; }
  }
"""
#: the worksheet's page: A4 landscape, its margins, and what the tree may take of it (in mm)
SHEET_MARGIN = 10.0
SHEET_WIDTH = 297.0 - 2 * SHEET_MARGIN
SHEET_HEIGHT = 210.0 - 2 * SHEET_MARGIN
#: the tree's box on a worksheet page: at most this wide and high (the questions flow beside
#: it and under it), at least half the page wide, never printed smaller than it is drawn
#: (9-pt names and values), and TREE_ZOOM times larger where that fits
TREE_WIDTH = 200.0
TREE_HEIGHT = 162.0
TREE_MIN_WIDTH = 297.0 / 2 + 2.0  # half the page, and a little more for the rounding
TREE_ZOOM = 1.6
#: what the worksheet's tree writes beside every inner node for the student to fill in: α and
#: β where the algorithm has a window, the node's value where it has none, nothing for mcts
#: (its questions are about the root's children)
BLANKS = "α ___ β ___"
VALUE_BLANK = "v ________"
WINDOWED = ("alphabeta", "f1", "negascout", "scout", "mtdf", "mt-sss", "mt-dual", "star1", "star2")


def blanks(algorithm: str) -> str:
    """What the worksheet's tree writes beside every inner node for this algorithm."""
    if algorithm == "mcts":
        return ""
    return BLANKS if algorithm in WINDOWED else VALUE_BLANK


#: points to millimetres
PT_MM = 25.4 / 72
SHEET_STYLE = f"""
  body {{ font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 2em auto;
         max-width: {SHEET_WIDTH:g}mm; padding: 0 1em; color: #222; line-height: 1.25;
         font-size: 9pt; }}
  header {{ display: flex; justify-content: space-between; align-items: baseline; gap: 1em; }}
  h1 {{ font-size: 12pt; margin: 0 0 1mm; }}
  h1 .sheet {{ font-weight: normal; color: #555; }}
  .name-line {{ margin: 0; }}
  .instructions {{ margin: 0 0 2mm; font-size: 8.5pt; }}
  .tree {{ float: left; margin: 0 5mm 1mm 0; }}
  .tree svg {{ display: block; }}
  ol.questions {{ margin: 0; padding-left: 1.5em; }}
  ol.questions > li {{ margin: 0 0 1.5mm; break-inside: avoid; }}
  ol.questions p {{ margin: 0; }}
  .space {{ border-bottom: 1px dotted #888; height: 5mm; }}
  @page {{ size: A4 landscape; margin: {SHEET_MARGIN:g}mm; }}
  @media print {{
    body {{ margin: 0; max-width: none; padding: 0; }}
    section.exercise {{ break-after: page; page-break-after: always; }}
    section.exercise:last-of-type {{ break-after: auto; page-break-after: auto; }}
  }}
"""


def text_escape(text: str) -> str:
    """Text as the content of an HTML element (quotes stay as they are)."""
    return html_escape(text, quote=False)


def _page(title: str, body: str, style: str = STYLE) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{text_escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        f"{body}</body>\n</html>\n"
    )


def _svg(text: str) -> str:
    """An SVG document as an element inline in HTML."""
    return text.split("\n", 1)[1] if text.startswith("<?xml") else text


#: the arrangements a worksheet's tree may take (gtsearch.render.layout), the first preferred
SHEET_LAYOUTS = ("tree", "compact", "sideways")


def sheet_tree(tree: Tree, blank: str = BLANKS) -> tuple[str, float, float]:
    """The bare tree for a worksheet page, with ``blank`` (room for α and β) at every inner
    node: its SVG and the width and height (mm) it is printed at.

    It is printed at least as large as drawn (names and values of 9 pt or more), at least
    half the page wide, within TREE_WIDTH x TREE_HEIGHT, and at TREE_ZOOM where those allow;
    of the arrangements of :data:`SHEET_LAYOUTS` that can, the lowest on the page (the most
    room for the questions under it), the first of equals.  When none can (a tree too big for
    the page), the one drawn largest.  tests/test_worksheet.py prints them with Chromium.
    """
    view = bare_view(tree)
    fitting: list[tuple[float, int, float, Picture]] = []
    largest: list[tuple[float, int, float, Picture]] = []
    for i, arrangement in enumerate(SHEET_LAYOUTS):
        pic = layout(view, page="a4", layout=arrangement, state=False, blanks=blank)
        w, h = pic.scene.width * PT_MM, pic.scene.height * PT_MM
        drawn = w - 2 * MARGIN * PT_MM  # the tree itself, without the picture's margins
        most = min(TREE_WIDTH / w, TREE_HEIGHT / h)
        least = max(1.0, TREE_MIN_WIDTH / drawn)
        largest.append((-most, i, most, pic))
        if least <= most + 1e-9:
            zoom = min(max(least, TREE_ZOOM), most)
            fitting.append((-zoom, i, zoom, pic))
    _, _, zoom, pic = min(fitting or largest, key=lambda row: row[:2])
    svg = picture_svg(view, pic, state=False, source=None)  # the one laid out, not again
    width, height = pic.scene.width * PT_MM * zoom, pic.scene.height * PT_MM * zoom
    return _svg(svg), width, height


def worksheet_html(exercises: Sequence[Exercise], title: str = "Game-tree search") -> str:
    """The worksheet: one A4 landscape page an exercise, its tree (inline SVG, with room for α
    and β at every inner node) and its questions beside and under it, with room to answer."""
    parts = []
    for ex in exercises:
        items = []
        for q in ex.questions:
            if q.kind == MULTICHOICE:  # on paper, the leaves are crossed out in the tree
                text, extra = f"{q.text} {CROSS}", ""
            else:
                text, extra = q.text, '<div class="space"></div>'
                if len(q.items) > 8 or q.room > 8:  # a long list: two lines to write it on
                    extra += '<div class="space"></div>'
            items.append(f"<li><p>{text_escape(text)}</p>{extra}</li>")
        svg, width, height = sheet_tree(ex.tree, blanks(ex.algorithm))
        svg = svg.replace("<svg ", f'<svg style="width: {width:.1f}mm; height: {height:.1f}mm" ', 1)
        name = (
            '<p class="name-line">Name: ______________________________</p>'
            if ex is exercises[0]
            else ""
        )
        parts.append(
            f'<section class="exercise" id="exercise-{ex.number}">\n'
            f'<header><h1>Exercise {ex.number} <span class="sheet">{text_escape(title)}'
            f"</span></h1>{name}</header>\n"
            f'<p class="instructions">{text_escape(instructions(ex))}</p>\n'
            f'<div class="tree">{svg}</div>\n'
            f'<ol class="questions">{"".join(items)}</ol>\n</section>\n'
        )
    return _page(f"{title}: worksheet", "".join(parts), SHEET_STYLE)


def answers_html(exercises: Sequence[Exercise], title: str = "Game-tree search") -> str:
    """The answer key: every exercise's search drawn with its marks, and every answer."""
    parts = [f"<header><h1>{text_escape(title)}: answer key</h1></header>\n"]
    for ex in exercises:
        items = "".join(
            f'<li><p>{text_escape(q.text)}</p><p class="answer">{text_escape(q.answer)}</p></li>'
            for q in ex.questions
        )
        svg = to_svg(search_view(ex), source=f"exercise {ex.number}")
        record = "<br>".join(text_escape(line) for line in ex.record())
        parts.append(
            f'<section class="exercise" id="answers-{ex.number}">\n'
            f"<h2>Exercise {ex.number}: answers</h2>\n"
            f'<p class="setting">{text_escape(ex.heading())}</p>\n'
            f'<div class="tree">{_svg(svg)}</div>\n'
            f'<ol class="questions">{items}</ol>\n'
            f'<p class="setting">{record}</p>\n</section>\n'
        )
    return _page(f"{title}: answer key", "".join(parts))


__all__ = [
    "answers_html",
    "asked",
    "exercise_record",
    "exercises_json",
    "exercises_text",
    "instructions",
    "key_text",
    "search_view",
    "text_escape",
    "tree_text",
    "worksheet_html",
]
