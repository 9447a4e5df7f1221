"""SVG and TikZ pictures read back into scenes (gtsearch.render.geometry): every text, shape and
line at the coordinates the writer drew it, so that the tests measure what is drawn."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from gtsearch.render.geometry import Line, Point, Scene, Shape, Text
from gtsearch.render.tikz import SPECIAL

SVG = "{http://www.w3.org/2000/svg}"
_NUMBER = r"-?\d+(?:\.\d+)?"


def _pieces(d: str) -> tuple[tuple[Point, ...], ...]:
    out = []
    for part in d.split("M")[1:]:
        pts = re.findall(rf"({_NUMBER}),({_NUMBER})", part)
        out.append(tuple((float(x), float(y)) for x, y in pts))
    return tuple(out)


def svg_scene(svg: str) -> Scene:
    """The texts, shapes and lines of an SVG picture of gtsearch, in its user units."""
    root = ET.fromstring(svg)
    _, _, width, height = map(float, root.get("viewBox", "0 0 0 0").split())
    scene = Scene(width, height, [], [], [])

    def walk(el: ET.Element, node: int) -> None:
        for child in el:
            tag = child.tag.removeprefix(SVG)
            n = int(child.get("data-node", node)) if tag == "g" else node
            if tag == "g":
                walk(child, n)
            elif tag == "text" and child.text:
                scene.texts.append(
                    Text(
                        float(child.get("x", 0)),
                        float(child.get("y", 0)),
                        child.text,
                        float(child.get("font-size", 0)),
                        child.get("text-anchor", "start"),
                        # a name is monospaced; the others are checked against their own
                        # node's shape like a value
                        "name" if "Mono" in child.get("font-family", "") else "value",
                        node,
                        child.get("font-weight") == "bold",
                    )
                )
            elif tag == "polygon":
                pts = re.findall(rf"({_NUMBER}),({_NUMBER})", child.get("points", ""))
                scene.shapes.append(
                    Shape("polygon", node, tuple((float(x), float(y)) for x, y in pts))
                )
            elif tag == "rect" and child.get("x") is not None:
                x, y = float(child.get("x", 0)), float(child.get("y", 0))
                w, h = float(child.get("width", 0)), float(child.get("height", 0))
                corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
                scene.shapes.append(Shape("leaf", node, corners))
            elif tag == "circle":
                centre = (float(child.get("cx", 0)), float(child.get("cy", 0)))
                scene.shapes.append(Shape("chance", node, (), centre, float(child.get("r", 0))))
            elif tag == "line":
                a = (float(child.get("x1", 0)), float(child.get("y1", 0)))
                b = (float(child.get("x2", 0)), float(child.get("y2", 0)))
                scene.lines.append(Line(((a, b),), _role(child), int(child.get("data-node", -1))))
            elif tag == "path":
                pieces = _pieces(child.get("d", ""))
                scene.lines.append(Line(pieces, _role(child), int(child.get("data-node", -1))))

    walk(root, -1)
    return scene


def _role(el: ET.Element) -> str:
    """An edge, the drop from an edge's end to its node's head or the stem below a node
    (checked as edges), or a mark."""
    classes = el.get("class", "").split()
    return "edge" if {"edge", "drop", "stem"} & set(classes) else "mark"


_UNTEX = sorted(
    ((tex, ch) for ch, tex in SPECIAL.items() if len(tex) > 1), key=lambda p: -len(p[0])
)


def plain(tex: str) -> str:
    """The text a node of the TikZ picture sets, without LaTeX's markup."""
    tex = re.sub(r"\$\\mathsf\{([^}]*)\}\$", r"\1", tex)
    tex = tex.replace("$+\\infty$", "+∞").replace("$-\\infty$", "-∞")
    for code, ch in _UNTEX:
        tex = tex.replace(code, ch)
    return tex


_ANCHORS = {"base west": "start", "base": "middle", "base east": "end"}


def tikz_scenes(tex: str) -> list[Scene]:
    """Each tikzpicture of a TikZ picture of gtsearch (one for each part of a picture split over
    pages) as a scene."""
    parts = tex.split("\\begin{tikzpicture}")[1:]
    return [
        tikz_scene("\\begin{tikzpicture}" + part.split("\\end{tikzpicture}")[0]) for part in parts
    ]


def tikz_scene(tex: str) -> Scene:
    """The texts, shapes and lines of a TikZ picture of gtsearch, in its coordinates (bp)."""
    assert tex.count("\\begin{tikzpicture}") == 1, "a picture split over pages: tikz_scenes"
    m = re.search(rf"useasboundingbox \(0\.0,0\.0\) rectangle \(({_NUMBER}),({_NUMBER})\)", tex)
    assert m is not None
    scene = Scene(float(m.group(1)), float(m.group(2)), [], [], [])
    node = -1
    for line in tex.splitlines():
        pts = [(float(x), float(y)) for x, y in re.findall(rf"\(({_NUMBER}),({_NUMBER})\)", line)]
        if line.startswith("\\node["):
            t = re.match(
                rf"\\node\[anchor=([a-z ]+), text=[^,]+, font=\\fontsize\{{({_NUMBER})\}}"
                rf"\{{[\d.]+\}}\\selectfont\\(sf|tt)family(\\bfseries)?\] at "
                rf"\(({_NUMBER}),({_NUMBER})\) "
                r"\{(.*)\};$",
                line,
            )
            assert t is not None, line
            anchor, size, family, bold, x, y, body = t.groups()
            scene.texts.append(
                Text(
                    float(x),
                    float(y),
                    plain(body),
                    float(size),
                    _ANCHORS[anchor],
                    "name" if family == "tt" else "value",  # a name: monospaced
                    node,
                    bool(bold),
                )  # fmt: skip
            )
        elif line.startswith("\\draw[") and "circle[radius=" in line:
            r = re.search(rf"radius=({_NUMBER})", line)
            assert r is not None
            node += 1
            scene.shapes.append(Shape("chance", node, (), pts[0], float(r.group(1))))
        elif line.startswith("\\draw[") and "rectangle" in line:
            (x0, y0), (x1, y1) = pts
            node += 1
            scene.shapes.append(Shape("leaf", node, ((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
        elif line.startswith("\\draw[") and line.endswith("-- cycle;"):
            node += 1
            scene.shapes.append(Shape("polygon", node, tuple(pts)))
        elif line.startswith("\\draw["):
            path = line.split("] ", 1)[1]
            found: list[list[Point]] = []
            for joined, x, y in re.findall(rf"(--)?\s*\(({_NUMBER}),({_NUMBER})\)", path):
                if not joined:
                    found.append([])
                found[-1].append((float(x), float(y)))
            pieces = tuple(tuple(p) for p in found)
            role = "mark" if "line width=1pt]" in line else "edge"
            scene.lines.append(Line(pieces, role))
    return scene
