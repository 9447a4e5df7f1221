"""The picture of one search as LaTeX/TikZ: a document pdflatex compiles, or the bare tikzpicture.

The layout and the geometry are the SVG's (gtsearch.render.svg: ``layout``,
the shapes, where the edges meet them, the texts around a node), so both
pictures show the same tree the same way: MAX triangles, MIN inverted triangles, leaves as
boxes; values and what the evaluated leaves prove; evaluated leaves filled
and numbered in the order of evaluation; pruned branches dashed, grey and
crossed out by a double stroke; the PV in orange; names; node types when the
view has them.  Coordinates are the SVG's pixels (x = 0.75pt, y = -0.75pt).

The document needs nothing beyond LaTeX's base classes, geometry and TikZ
(Debian's texlive-latex-base, texlive-latex-recommended, texlive-pictures):
the page is sized to the picture by geometry, not by the standalone class.
The bare picture (``body=True``) needs ``\\usepackage{tikz}`` only.
"""

from __future__ import annotations

import math

from ..algorithms.events import Value
from ..numbers import INF, fraction_text
from .labels import Labels, format_extended
from .svg import (
    ABOVE,
    BELOW,
    COLOR_CHANCE,
    COLOR_EVALUATED,
    COLOR_MAX,
    COLOR_MIN,
    COLOR_PRUNED,
    COLOR_PV,
    COLOR_TYPE,
    LEAF_H,
    MARGIN,
    RADIUS,
    TOP,
    Layout,
    layout,
    marks,
    shape,
    triangle,
)
from .view import SearchView

#: 1 SVG pixel in TeX points
PT = 0.75

#: characters LaTeX treats specially in text, and how to write them
_SPECIAL = {
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
#: how TikZ writes the marks (gtsearch.render.svg.marks) of a leaf (True) or an inner node
#: ({color}: the node's)
TIKZ_MARKS = {
    ("name", True): "text=black!65, fill=white, inner sep=0.5pt",
    ("type", True): "text=gtsType, font=\\sffamily\\scriptsize",
    ("name", False): "anchor=east, text={color}, fill=white, inner sep=0.5pt",
    ("type", False): "anchor=west, text=gtsType, font=\\sffamily\\scriptsize",
    ("hidden", False): "text=black!55, font=\\sffamily\\scriptsize",
}


def tex_text(text: str) -> str:
    """Text for LaTeX: special characters escaped, the picture's symbols in math mode."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def tex_number(v: Value) -> str:
    """A value in math mode, in sans serif like the picture's text (``$\\mathsf{-3}$``)."""
    if v == INF:
        return r"$+\infty$"
    if v == -INF:
        return r"$-\infty$"
    return f"$\\mathsf{{{format_extended(v)}}}$"


def tex_range(lo: Value, hi: Value) -> str:
    """What the evaluated leaves prove, short as in the SVG: ``3``, ``≤ 2``, ``≥ 5``, ``2..5``."""
    if lo == hi:
        return tex_number(lo)
    if hi == INF:
        return "" if lo == -INF else r"$\geq$" + tex_number(lo)
    if lo == -INF:
        return r"$\leq$" + tex_number(hi)
    return f"$\\mathsf{{{format_extended(lo)}..{format_extended(hi)}}}$"


def _p(x: float, y: float) -> str:
    return f"({x:.1f},{y:.1f})"


def picture(
    view: SearchView, max_depth: int | None = None, *, source: str | None = None, body: bool = False
) -> str:
    """The tikzpicture environment; ``body`` leaves out the title lines and the legend."""
    tree = view.tree
    lay = layout(view, max_depth)
    parent = tree.parent
    pv = set(view.pv)
    top = TOP if body else 0.0
    bottom = lay.height - (44 if body else 0)
    lines = [
        "\\begin{tikzpicture}[x=0.75pt, y=-0.75pt, line join=round,",
        "  every node/.style={inner sep=1pt, font=\\sffamily\\footnotesize}]",
    ]
    lines += [f"\\definecolor{{{name}}}{{HTML}}{{{c[1:].upper()}}}" for name, c in COLORS.items()]
    lines.append(f"\\useasboundingbox {_p(0, top)} rectangle {_p(lay.width, bottom)};")
    if not body:
        title = tree.meta.title or source or tree.source
        lines.append(
            f"\\node[anchor=base west, font=\\sffamily\\large\\bfseries] at {_p(MARGIN, 26)} "
            f"{{{tex_text(title)}}};"
        )
        lines.append(
            f"\\node[anchor=base west, font=\\sffamily\\small] at {_p(MARGIN, 48)} "
            f"{{{tex_text(view.title())}}};"
        )
    lines.append("% edges: pruned ones dashed, grey and crossed out; the PV's in orange")
    for n in lay.nodes:
        p = parent[n]
        if p >= 0:
            lines.extend(_edge(view, lay, p, n, pv))
    lines.append("% nodes")
    for n in lay.nodes:
        lines.extend(_node(view, lay, n, pv))
    if not body:
        lines.extend(_legend(lay.height - 22, tree.has_chance))
    lines.append("\\end{tikzpicture}")
    return "\n".join(lines) + "\n"


def _edge(view: SearchView, lay: Layout, p: int, n: int, pv: set[int]) -> list[str]:
    tree = view.tree
    x1, y1 = lay.x[p], lay.y[p] + BELOW[shape(tree, p)]
    x2, y2 = lay.x[n], lay.y[n] - ABOVE[shape(tree, n)]
    out = _probability(view.labels, n, x1, y1, x2, y2)
    if not view.searched[n]:
        out += [
            f"\\draw[gtsPruned, line width=0.9pt, dash pattern=on 3.75pt off 3pt] "
            f"{_p(x1, y1)} -- {_p(x2, y2)};"
        ]
        # the double stroke across the middle of the edge
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length  # along the edge
        vx, vy = -uy, ux  # across it
        for shift in (-3.0, 3.0):
            cx, cy = mx + ux * shift, my + uy * shift
            a = (cx - vx * 7 - ux * 2, cy - vy * 7 - uy * 2)
            b = (cx + vx * 7 + ux * 2, cy + vy * 7 + uy * 2)
            out.append(f"\\draw[gtsPruned, line width=1pt] {_p(*a)} -- {_p(*b)};")
        return out
    if n in pv:
        return [f"\\draw[gtsPV, line width=2.6pt] {_p(x1, y1)} -- {_p(x2, y2)};", *out]
    return [f"\\draw[line width=0.9pt] {_p(x1, y1)} -- {_p(x2, y2)};", *out]


def _probability(labels: Labels, n: int, x1: float, y1: float, x2: float, y2: float) -> list[str]:
    """An outcome of a chance node: its probability at the middle of its edge (as in the SVG)."""
    prob = labels.probability(n)
    if prob is None:
        return []
    return [
        f"\\node[text=gtsChance, fill=white, inner sep=0.5pt, font=\\sffamily\\scriptsize] "
        f"at {_p((x1 + x2) / 2, (y1 + y2) / 2)} {{{tex_text(fraction_text(prob))}}};"
    ]


def _node(view: SearchView, lay: Layout, n: int, pv: set[int]) -> list[str]:
    tree = view.tree
    x, y = lay.x[n], lay.y[n]
    kind = shape(tree, n)
    pruned = not view.searched[n]
    evaluated = n in view.rank
    stroke = "gtsPV" if n in pv else ("gtsPruned" if pruned else "black")
    width = "2.2pt" if n in pv else "1pt"
    dash = ", dash pattern=on 3pt off 2.25pt" if pruned else ""
    fill = "gtsEvaluated" if evaluated else "white"
    text = "white" if evaluated else ("gtsPruned" if pruned else "black")
    style = f"draw={stroke}, fill={fill}, line width={width}{dash}"
    out = [f"% {tex_text(view.labels.label(n))}".replace("\n", " ")]
    if kind == "leaf":
        lw = lay.leaf_width
        out.append(
            f"\\draw[{style}, rounded corners=2.25pt] {_p(x - lw / 2, y - LEAF_H / 2)} "
            f"rectangle {_p(x + lw / 2, y + LEAF_H / 2)};"
        )
        out.append(
            f"\\node[text={text}, font=\\sffamily\\small] at {_p(x, y)} "
            f"{{{tex_number(tree.number(n))}}};"
        )
        rank = view.rank.get(n)
        if rank is not None:
            out.append(
                f"\\node[text=gtsEvaluated, font=\\sffamily\\scriptsize] at "
                f"{_p(x, y + LEAF_H / 2 + 10)} {{\\#{rank}}};"
            )
    else:
        if kind == "chance":
            out.append(f"\\draw[{style}] {_p(x, y)} circle[radius={RADIUS}];")
            ty = y
        else:
            corners = triangle(kind, x, y)
            ty = y + 5 if kind == "max" else y - 5
            out.append(f"\\draw[{style}] " + " -- ".join(_p(*c) for c in corners) + " -- cycle;")
        r = view.ranges.get(n)
        if r is not None and not pruned:
            out.append(
                f"\\node[text={text}, font=\\sffamily\\scriptsize] at {_p(x, ty)} "
                f"{{{tex_range(*r)}}};"
            )
    color = {"max": "gtsMax", "min": "gtsMin"}.get(kind, "gtsChance")
    for mark in marks(view, lay, n):
        node_style = TIKZ_MARKS[mark.role, kind == "leaf"].format(color=color)
        out.append(f"\\node[{node_style}] at {_p(mark.x, mark.y)} {{{tex_text(mark.text)}}};")
    return out


def _legend(y: float, chance: bool = False) -> list[str]:
    x = MARGIN
    return [
        "% legend",
        f"\\draw[fill=gtsEvaluated] {_p(x, y - 9)} rectangle {_p(x + 22, y + 5)};",
        f"\\node[anchor=west] at {_p(x + 28, y - 2)} {{evaluated (\\#order)}};",
        f"\\draw[gtsPruned, line width=0.9pt, dash pattern=on 3.75pt off 3pt] "
        f"{_p(x + 150, y - 2)} -- {_p(x + 180, y - 2)};",
        f"\\draw[gtsPruned, line width=1pt] {_p(x + 163, y - 9)} -- {_p(x + 163, y + 5)};",
        f"\\draw[gtsPruned, line width=1pt] {_p(x + 167, y - 9)} -- {_p(x + 167, y + 5)};",
        f"\\node[anchor=west, text=gtsPruned] at {_p(x + 186, y - 2)} {{pruned}};",
        f"\\draw[gtsPV, line width=2.6pt] {_p(x + 250, y - 2)} -- {_p(x + 280, y - 2)};",
        f"\\node[anchor=west] at {_p(x + 286, y - 2)} {{principal variation}};",
        f"\\node[anchor=west] at {_p(x + 420, y - 2)} "
        "{$\\blacktriangle$ MAX\\enspace $\\blacktriangledown$ MIN"
        + ("\\enspace $\\bigcirc$ chance (probability on the edge)" if chance else "")
        + "};",
    ]


def to_tikz(
    view: SearchView, max_depth: int | None = None, *, source: str | None = None, body: bool = False
) -> str:
    """A LaTeX document of one page, the size of the picture; ``body``: the tikzpicture alone."""
    pic = picture(view, max_depth, source=source, body=body)
    title = tex_text(view.tree.meta.title or source or view.tree.source).replace("\n", " ")
    if body:
        return (
            f"% gtsearch: {title}\n% {tex_text(view.title())}\n"
            "% needs \\usepackage{tikz}; \\input this file where the picture goes\n" + pic
        )
    lay = layout(view, max_depth)
    width, height = lay.width * PT + 2, lay.height * PT + 2
    return (
        f"% gtsearch: {title}\n"
        "% compile with pdflatex: one page, the size of the picture\n"
        "\\documentclass{article}\n"
        f"\\usepackage[paperwidth={width:.1f}pt, paperheight={height:.1f}pt, margin=0pt]"
        "{geometry}\n"
        "\\usepackage{amssymb}\n"
        "\\usepackage{tikz}\n"
        "\\pagestyle{empty}\n"
        "\\begin{document}\n"
        "\\noindent\n" + pic + "\\end{document}\n"
    )


__all__ = ["picture", "tex_number", "tex_range", "tex_text", "to_tikz"]
