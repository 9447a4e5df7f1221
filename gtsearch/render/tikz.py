"""The picture of one search as LaTeX/TikZ: a document pdflatex compiles, or the bare tikzpicture.

The picture is the SVG's scene (gtsearch.render.layout: the same shapes,
texts and lines at the same places, in points: ``x=1bp, y=-1bp``), so both
show the same tree the same way: MAX triangles, MIN inverted triangles, leaves as
boxes; values and what the evaluated leaves prove; evaluated leaves filled
and numbered by their evaluations (#3, or #3,16 for a leaf read twice);
pruned branches dashed, grey and crossed out by a double stroke; the PV in orange; names; node types when the
view has them.  Texts are set at the scene's sizes (``\\fontsize``: 8, 9 and
12 pt, sizes Computer Modern has), never scaled: the picture is made to fit
its page (``page``), not shrunk onto it.

The document needs nothing beyond LaTeX's base classes, geometry, amssymb and
TikZ (Debian's texlive-latex-base, texlive-latex-recommended,
texlive-pictures): the page is sized to the picture by geometry, not by the
standalone class.  The bare picture (``body=True``) needs ``\\usepackage{tikz}``
only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..algorithms.events import Value
from ..numbers import INF
from ..tree import Tree
from .geometry import MONO_ROLES, Line, Scene, Shape, Text
from .labels import format_extended
from .layout import type_note_lines
from .pages import Request, pages
from .painter import NOTED
from .svg import (
    COLOR_CHANCE,
    COLOR_EVALUATED,
    COLOR_MAX,
    COLOR_MIN,
    COLOR_PRUNED,
    COLOR_PV,
    COLOR_TYPE,
    head_lines,
)
from .view import SearchView, bare_view

#: characters LaTeX treats specially in text, and how to write them
SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"$<$",
    ">": r"$>$",
    "|": r"$|$",
    # symbols of the picture's text that pdflatex cannot take as they are
    "→": r"$\to$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "∈": r"$\in$",
    "∞": r"$\infty$",
    "…": r"\dots{}",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "−": "-",
    "▲": r"$\blacktriangle$",
    "▼": r"$\blacktriangledown$",
    "●": r"$\bullet$",
    "≈": r"$\approx$",
    "±": r"$\pm$",
    "·": r"$\cdot$",
}

COLORS = {
    "gtsPV": COLOR_PV,
    "gtsPruned": COLOR_PRUNED,
    "gtsEvaluated": COLOR_EVALUATED,
    "gtsMax": COLOR_MAX,
    "gtsMin": COLOR_MIN,
    "gtsType": COLOR_TYPE,
    "gtsChance": COLOR_CHANCE,
}


def tex_text(text: str) -> str:
    """Text for LaTeX: special characters escaped, the picture's symbols in math mode."""
    return "".join(SPECIAL.get(ch, ch) for ch in text)


def tex_number(v: Value) -> str:
    """A value in math mode, in sans serif like the picture's text (``$\\mathsf{-3}$``)."""
    if v == INF:
        return r"$+\infty$"
    if v == -INF:
        return r"$-\infty$"
    return f"$\\mathsf{{{format_extended(v)}}}$"


def tex_range(lo: Value, hi: Value) -> str:
    """What the evaluated leaves prove, short as in the SVG: ``3``, ``≤ 2``, ``≥ 5``, ``[2, 5]``."""
    if lo == hi:
        return tex_number(lo)
    if hi == INF:
        return "" if lo == -INF else r"$\geq$" + tex_number(lo)
    if lo == -INF:
        return r"$\leq$" + tex_number(hi)
    # (after the comma, a punctuation, TeX sets the upper end's minus as a sign)
    return f"$\\mathsf{{[{format_extended(lo)}, {format_extended(hi)}]}}$"


def _p(x: float, y: float) -> str:
    return f"({x:.1f},{y:.1f})"


#: how each text is set: its colour (None: the node's, or white on an evaluated leaf)
_TEXT_COLORS = {
    "name": None,
    "value": None,
    "range": None,
    "rank": "gtsEvaluated",
    "prob": "gtsChance",
    "type": "gtsType",
    "hidden": "black!60",
    "note": "black!60",
    "title": "black",
    "summary": "black",
    "legend-pruned": "gtsPruned",
    "legend-note": "gtsType",
    "legend-max": "gtsMax",
    "legend-min": "gtsMin",
    "legend-chance": "gtsChance",
}
_ANCHORS = {"start": "base west", "middle": "base", "end": "base east"}
_LEGEND_NODE = "draw=black, fill=white, line width=1pt"


def picture(
    view: SearchView, max_depth: int | None = None, *, source: str | None = None, body: bool = False
) -> str:
    """The tikzpicture environment for A4 (one for each part of a picture split over pages, one
    after the other); ``body`` leaves out the title lines and the legend."""
    scenes = _pages(view, max_depth, source, body, "a4", "auto", True)
    return "".join(_picture(view, scene) for scene in scenes)


def _pages(
    view: SearchView,
    max_depth: int | None,
    source: str | None,
    body: bool,
    page: str,
    layout: str,
    state: bool,
) -> list[Scene]:
    head = head_lines(view, source) if state and not body else ()
    ask = Request(view, max_depth, page, layout, state)
    return pages(ask, head=head, legend=state and not body, word="part" if body else "page")


def _picture(view: SearchView, scene: Scene, state: bool = True) -> str:
    """One tikzpicture of the scene; ``state`` False draws no search's marks."""
    pv = set(view.pv) if state else set()
    searched: Sequence[int] = view.searched if state else [1] * view.tree.n_nodes
    evaluated = view.rank if state else {}
    lines = [
        "\\begin{tikzpicture}[x=1bp, y=-1bp, line join=round,",
        "  every node/.style={inner sep=0pt, outer sep=0pt}]",
    ]
    lines += [f"\\definecolor{{{name}}}{{HTML}}{{{c[1:].upper()}}}" for name, c in COLORS.items()]
    lines.append(f"\\useasboundingbox {_p(0, 0)} rectangle {_p(scene.width, scene.height)};")
    lines.append("% edges: pruned ones dashed, grey and crossed out; the PV's in orange")
    through = {view.tree.parent[k] for k in pv}  # the nodes whose stems the PV goes down
    for line in scene.lines:
        lines.extend(_line(line, searched, through if line.role == "stem" else pv))
    lines.append("% nodes")
    shapes: dict[int, list[int]] = {}
    for i, s in enumerate(scene.shapes):
        if s.node >= 0:
            shapes.setdefault(s.node, []).append(i)
    texts: dict[int, list[Text]] = {}  # each node's texts after its shape (the nearest: a node
    others = []  # split over pages is drawn twice, where it hangs and where it goes on)
    for t in scene.texts:
        if t.node in shapes:
            near = min(shapes[t.node], key=lambda i: _distance(scene.shapes[i], t))
            texts.setdefault(near, []).append(t)
        else:
            others.append(t)
    for i, s in enumerate(scene.shapes):
        if s.node >= 0:
            lines.extend(_node(view, s, texts.get(i, []), (searched, evaluated, pv)))
    for t in others:  # the titles, notes and the legend
        lines.append(_text(view, t, None))
    for s in scene.shapes:
        if s.kind == "swatch":
            x0, y0, x1, y1 = s.box()
            lines.append(f"\\draw[fill=gtsEvaluated] {_p(x0, y0)} rectangle {_p(x1, y1)};")
        elif s.kind == "legend-chance":  # the legend's nodes, drawn as the nodes are
            lines.append(f"\\draw[{_LEGEND_NODE}] {_p(*s.center)} circle[radius={s.radius:g}];")
        elif s.kind.startswith("legend-"):
            path = " -- ".join(_p(*c) for c in s.points)
            lines.append(f"\\draw[{_LEGEND_NODE}] {path} -- cycle;")
    # no space after it: a picture as wide as the line and the space of the line's end made
    # a second, empty line (and beamer's allowframebreaks a second, empty slide)
    lines.append("\\end{tikzpicture}%")
    return "\n".join(lines) + "\n"


def _distance(s: Shape, t: Text) -> float:
    x0, y0, x1, y1 = s.box()
    return abs((x0 + x1) / 2 - t.x) + abs((y0 + y1) / 2 - t.y)


def _path(line: Line) -> str:
    return " ".join(" -- ".join(_p(x, y) for x, y in piece) for piece in line.pieces)


_STROKES = {
    "pruned": "gtsPruned, line width=0.9pt, dash pattern=on 3.75pt off 3pt",
    "cross": "gtsPruned, line width=1pt",
    "pv": "gtsPV, line width=2.6pt",
    "edge": "line width=0.9pt",
}


def _line(line: Line, searched: Sequence[int], pv: set[int]) -> list[str]:
    role = line.role.removeprefix("legend-")
    if line.role in ("edge", "stem"):  # a stem below a node is styled as its edge
        n = line.node
        role = "pruned" if not searched[n] else "pv" if n in pv else "edge"
    return [f"\\draw[{_STROKES[role]}] {_path(line)};"]


def _text(view: SearchView, t: Text, color: str | None) -> str:
    if not t.text:
        return ""
    family = "\\ttfamily" if t.role in MONO_ROLES else "\\sffamily"  # names: l1 and I apart
    size = f"\\fontsize{{{t.size:g}}}{{{t.size * 1.2:.1f}}}\\selectfont{family}"
    if t.bold:
        size += "\\bfseries"
    color = color or _TEXT_COLORS.get(t.role) or "black"
    if t.role == "value":
        body = tex_number(view.tree.number(t.node))
    elif t.role == "range":
        r = view.ranges.get(t.node)
        body = tex_range(*r) if r is not None else tex_text(t.text)
    else:
        body = tex_text(t.text)
    return f"\\node[anchor={_ANCHORS[t.anchor]}, text={color}, font={size}] at {_p(t.x, t.y)} {{{body}}};"


def _node(
    view: SearchView,
    s: Shape,
    texts: list[Text],
    marks: tuple[Sequence[int], Mapping[int, int], set[int]],
) -> list[str]:
    """A node's shape and texts; ``marks``: which nodes were searched, the evaluated leaves'
    order, the PV."""
    searched, ranks, pv = marks
    n = s.node
    pruned = not searched[n]
    evaluated = n in ranks
    stroke = "gtsPV" if n in pv else ("gtsPruned" if pruned else "black")
    width = "2.2pt" if n in pv else "1pt"
    dash = ", dash pattern=on 3pt off 2.25pt" if pruned else ""
    fill = "gtsEvaluated" if evaluated else "white"
    inner = "white" if evaluated else ("gtsPruned" if pruned else "black")
    style = f"draw={stroke}, fill={fill}, line width={width}{dash}"
    said = [x for x in (_said(view.node_types, n), _said(view.type_notes, n)) if x]
    comment = view.labels.label(n) + (f" [{': '.join(said)}]" if said else "")
    out = [f"% {tex_text(comment)}".replace("\n", " ")]
    if s.radius:
        out.append(f"\\draw[{style}] {_p(*s.center)} circle[radius={s.radius:g}];")
    elif s.kind == "leaf":
        x0, y0, x1, y1 = s.box()
        out.append(f"\\draw[{style}, rounded corners=2.25pt] {_p(x0, y0)} rectangle {_p(x1, y1)};")
    else:
        out.append(f"\\draw[{style}] " + " -- ".join(_p(*c) for c in s.points) + " -- cycle;")
    name_color = {"max": "gtsMax", "min": "gtsMin", "chance": "gtsChance"}.get(s.kind, "black!80")
    for t in texts:
        color = inner if t.role in ("value", "range") else name_color if t.role == "name" else None
        text = _text(view, t, color)
        if text:
            out.append(text)
    return out


def _said(marks: Mapping[int, str] | None, n: int) -> str:
    return (marks or {}).get(n) or ""


def _notes_comment(view: SearchView) -> str:
    """The node-type notes as comments at the head of the bare picture (the full document
    lists them under its legend), one a line: ``% * no cutoff: all 3 children searched: D, E``."""
    label = view.labels.label
    return "".join(
        f"% {tex_text(f'{NOTED} {note}: ' + ', '.join(label(n) for n in nodes))}\n"
        for note, nodes in type_note_lines(view)
    )


def to_tikz(
    view: SearchView,
    max_depth: int | None = None,
    *,
    source: str | None = None,
    body: bool = False,
    page: str = "a4",
    layout: str = "auto",
    state: bool = True,
) -> str:
    """A LaTeX document of one page the size of the picture, or of one page for each part of a
    picture split over pages (gtsearch.render.pages); ``body``: the tikzpicture alone, or
    one for each part, one paragraph each; ``state`` False: the bare tree, with no search's
    marks, title or legend (``tree_picture``)."""
    scenes = _pages(view, max_depth, source, body, page, layout, state)
    title = tex_text(view.tree.meta.title or source or view.tree.source).replace("\n", " ")
    count = len(scenes)
    if body:
        split = (
            f"% the picture in {count} parts, one paragraph each: one to a slide (a frame with "
            "[allowframebreaks]) or a page\n"
            if count > 1
            else ""
        )
        texts = [
            (f"% part {i} of {count}\n" if count > 1 else "") + _picture(view, scene, state)
            for i, scene in enumerate(scenes, 1)
        ]
        return (
            f"% gtsearch: {title}\n% {tex_text(view.title())}\n"
            + (_notes_comment(view) if state else "")
            + "% needs \\usepackage{tikz}; \\input this file where the picture goes\n"
            + split
            + "\\par\n".join(texts)
        )
    width = max(s.width for s in scenes) + 2
    height = max(s.height for s in scenes) + 2
    pictures = "\\newpage\n".join("\\noindent\n" + _picture(view, scene, state) for scene in scenes)
    return (
        f"% gtsearch: {title}\n"
        + (
            f"% compile with pdflatex: {count} pages, each the size of the largest part\n"
            if count > 1
            else "% compile with pdflatex: one page, the size of the picture\n"
        )
        + "\\documentclass{article}\n"
        f"\\usepackage[paperwidth={width:.1f}bp, paperheight={height:.1f}bp, margin=0pt]"
        "{geometry}\n"
        "\\usepackage{amssymb}\n"
        "\\usepackage{tikz}\n"
        "\\pagestyle{empty}\n"
        "\\begin{document}\n" + pictures + "\\end{document}\n"
    )


def tree_picture(tree: Tree, *, page: str = "a4", layout: str = "auto", body: bool = True) -> str:
    """The tree alone as TikZ, with no search's marks (names, shapes, leaf values): the picture
    of an exercise before it is solved, by default the bare tikzpicture, for a slide."""
    return to_tikz(bare_view(tree), state=False, page=page, layout=layout, body=body)


__all__ = [
    "SPECIAL",
    "picture",
    "tex_number",
    "tex_range",
    "tex_text",
    "to_tikz",
    "tree_picture",
]
