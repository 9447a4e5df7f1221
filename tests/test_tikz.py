"""show --tikz / --tikz-body: the LaTeX picture's marks, its escaping, and a real pdflatex run.

The compile test needs ``pdflatex`` with TikZ (Debian's texlive-latex-base,
texlive-latex-recommended and texlive-pictures, which .ci/run installs); it is
skipped, with the reason, where pdflatex is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch import load_tree, loads_tree
from gtsearch.cli import cli
from gtsearch.render.tikz import tex_number, tex_range, tex_text, to_tikz
from gtsearch.render.view import build_view

REPO = Path(__file__).resolve().parent.parent
AIMA = str(REPO / "sample_trees" / "aima-fig5-2.yaml")
WIKI = str(REPO / "sample_trees" / "wikipedia-alphabeta.json")
needs_pdflatex = pytest.mark.extra("latex")
SPECIAL = '{"tree": {"name": "a_b $5 & 50% #1 {x} ~y^ \\\\z", "children": [[-3, 4], [2.5, 7]]}}'


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def pdf_pages(pdf: Path) -> int:
    """The page count: pdfinfo's when installed, else the /Type /Page objects, streams inflated."""
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is not None:
        out = subprocess.run([pdfinfo, str(pdf)], capture_output=True, text=True, check=True)
        m = re.search(r"^Pages:\s+(\d+)$", out.stdout, re.M)
        assert m is not None, out.stdout
        assert int(m.group(1)) == parsed_pages(pdf.read_bytes())
        return int(m.group(1))
    return parsed_pages(pdf.read_bytes())


def parsed_pages(data: bytes) -> int:
    """The /Type /Page objects of a PDF, in its text and its inflated streams (object streams)."""
    chunks = [data]
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            chunks.append(zlib.decompress(m.group(1)))
        except zlib.error:
            pass  # not a FlateDecode stream (an image, a font)
    return sum(len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", c)) for c in chunks)


def compile_tex(tex: str, where: Path, name: str = "picture") -> Path:
    (where / f"{name}.tex").write_text(tex, encoding="utf-8")
    # looked up as the test runs (its mark, "latex", decided that it runs): a TeX installed
    # while the suite runs is found
    pdflatex = shutil.which("pdflatex")
    assert pdflatex is not None
    proc = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )
    errors = [line for line in proc.stdout.splitlines() if line.startswith("!")]
    assert proc.returncode == 0, "\n".join(errors) or proc.stdout[-2000:]
    return where / f"{name}.pdf"


# -- the marks, without TeX --------------------------------------------------------------------
def test_the_document_has_the_marks_of_the_svg() -> None:
    view = build_view(load_tree(AIMA), "alphabeta", node_types=True)
    tex = to_tikz(view, source="aima-fig5-2.yaml")
    assert tex.startswith("% gtsearch: AIMA Figure 5.2, a two-ply game tree\n")
    assert "\\documentclass{article}" in tex and tex.rstrip().endswith("\\end{document}")
    assert "standalone" not in tex  # not in texlive-latex-base/recommended/pictures
    assert tex.count("\\begin{tikzpicture}") == 1
    # the shapes: 1 MAX triangle, 3 MIN triangles, 9 leaf boxes; the legend's MAX and MIN,
    # drawn as the nodes are
    triangles = re.findall(
        r"^\\draw\[([^\]]*)\] \([^)]*\) -- \([^)]*\) -- \([^)]*\) -- cycle;", tex, re.M
    )
    assert len(triangles) == 4 + 2
    assert triangles[-2:] == ["draw=black, fill=white, line width=1pt"] * 2
    assert len(re.findall(r"rounded corners=2.25pt\] .* rectangle", tex)) == 9
    # seven leaves filled and numbered, in order
    assert tex.count("fill=gtsEvaluated, line width") == 7
    assert re.findall(r"\{\\#(\d)\}", tex) == [str(i) for i in range(1, 8)]
    # two pruned edges, dashed and crossed out by two strokes each
    assert tex.count("dash pattern=on 3.75pt off 3pt] (") == 2 + 1  # and the legend's
    assert len(re.findall(r"^\\draw\[gtsPruned, line width=1pt\]", tex, re.M)) == 2 * 2 + 2
    # the PV's two edges, and the stem below B that it goes down
    assert len(re.findall(r"^\\draw\[gtsPV, line width=2.6pt\] \(", tex, re.M)) == 2 + 1 + 1
    # values, bounds, names and node types
    assert "{$\\leq$$\\mathsf{2}$}" in tex
    assert "{$\\mathsf{14}$}" in tex
    assert "{B};" in tex and "{b1};" in tex
    assert len(re.findall(r"\{(PV|CUT|ALL)\*?\};", tex)) == 9  # Knuth & Moore's, by position
    # where alpha-beta did otherwise, as show --node-types says: * at the node, the note under
    # the legend in the types' colour, and in the node's comment
    assert "{CUT*};" in tex and "% D [CUT: no cutoff: all 3 children searched]" in tex
    assert "text=gtsType, font=\\fontsize{8}{9.6}\\selectfont\\sffamily] at (12.0," in tex
    assert "{* no cutoff: all 3 children searched: D};" in tex
    assert "{* not in the minimal tree, searched: d2, d3};" in tex
    assert "alphabeta: value 3, PV B $\\to$ b1, 7 of 9 leaves evaluated" in tex


def test_the_body_is_the_bare_picture() -> None:
    view = build_view(load_tree(AIMA), "sss")
    body = to_tikz(view, body=True)
    assert "\\documentclass" not in body and "\\begin{document}" not in body
    assert body.count("\\begin{tikzpicture}") == 1 and body.rstrip().endswith("\\end{tikzpicture}%")
    assert "% needs \\usepackage{tikz}" in body
    assert "legend" not in body and "two-ply" not in body.split("\\begin{tikzpicture}")[1]


def test_latex_escaping() -> None:
    assert tex_text("a_b $5 & 50% #1 {x} ~y^ \\z") == (
        "a\\_b \\$5 \\& 50\\% \\#1 \\{x\\} \\textasciitilde{}y\\textasciicircum{} "
        "\\textbackslash{}z"
    )
    assert tex_text("B → b1, ≥ 3, ≤ 2, +∞") == "B $\\to$ b1, $\\geq$ 3, $\\leq$ 2, +$\\infty$"
    assert tex_range(2, 5) == "$\\mathsf{[2, 5]}$"
    assert tex_range(float("-inf"), float("inf")) == ""
    tex = to_tikz(build_view(loads_tree(SPECIAL, "json"), "alphabeta"))
    assert "{a\\_b \\$5 \\& 50\\% \\#1 \\{x\\} \\textasciitilde{}y" in tex
    assert "a_b" not in tex


def test_show_writes_both(tmp_path: Path) -> None:
    doc, body = tmp_path / "t.tex", tmp_path / "b.tex"
    code, out, err = run("show", AIMA, "-q", "--tikz", str(doc), "--tikz-body", str(body))
    assert (code, out, err) == (0, "", "")
    assert doc.read_text().startswith("% gtsearch: ")
    assert "\\begin{tikzpicture}" in body.read_text()
    code, out, _ = run("show", AIMA, "--tikz", "-")
    assert code == 0 and out.startswith("% gtsearch: ") and "A  MAX" not in out
    code, _, err = run("show", AIMA, "--tikz", "-", "--tikz-body", "-")
    assert code == 2 and "only one of --tikz, --tikz-body can go to standard output" in err


# -- pdflatex -------------------------------------------------------------------------------
@needs_pdflatex
@pytest.mark.parametrize(
    ("path", "algo", "extra"),
    [(AIMA, "alphabeta", ["--node-types"]), (WIKI, "sss", []), (WIKI, "dual", ["--focus", "1"])],
)
def test_pdflatex_compiles_the_document(
    path: str, algo: str, extra: list[str], tmp_path: Path
) -> None:
    code, tex, err = run("show", path, "-a", algo, "--tikz", "-", *extra)
    assert code == 0, err
    assert pdf_pages(compile_tex(tex, tmp_path)) == 1


@needs_pdflatex
def test_pdflatex_compiles_escaped_names_and_an_input_body(tmp_path: Path) -> None:
    view = build_view(loads_tree(SPECIAL, "json"), "alphabeta", node_types=True)
    assert pdf_pages(compile_tex(to_tikz(view), tmp_path, "special")) == 1
    (tmp_path / "tree.tex").write_text(to_tikz(view, body=True), encoding="utf-8")
    slides = (
        "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
        "Before the picture.\n\n\\input{tree.tex}\n\nAfter it.\n\\newpage\nA second page.\n"
        "\\end{document}\n"
    )
    assert pdf_pages(compile_tex(slides, tmp_path, "slides")) == 2


def test_chance_nodes_in_tikz() -> None:
    """A chance node is a circle, each outcome's edge carries its probability; the windows'
    infinities are written as such."""
    view = build_view(load_tree(str(REPO / "sample_trees" / "chance-worked.yaml")), "star2")
    tex = to_tikz(view)
    assert tex.count("circle[radius=") == 2 + 1  # C1 and C2, and the legend's, open as they are
    assert "\\draw[draw=black, fill=white, line width=1pt] (" in tex.split("% nodes")[1]
    probabilities = re.findall(  # 8 pt in the chance nodes' colour (their names are 9 pt)
        r"^\\node\[anchor=[a-z ]+, text=gtsChance, font=\\fontsize\{8\}[^\]]*\] at \([^)]*\) "
        r"\{([^}]*)\};",
        tex,
        re.M,
    )
    assert probabilities == ["1/3", "2/3", "1/4", "3/4", "chance (probability on the edge)"]
    # the PV in orange through C1 and its most probable outcome m2 to MIN's best leaf
    assert view.pv == [0, 1, 5, 7]
    # its three edges (each down to its node's head), the stem below m2's apex, the legend's sample
    assert len(re.findall(r"^\\draw\[gtsPV, line width=2.6pt\] \(", tex, re.M)) == 3 + 1 + 1
    assert (tex_number(float("inf")), tex_number(float("-inf"))) == (r"$+\infty$", r"$-\infty$")
