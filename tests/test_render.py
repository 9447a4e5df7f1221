"""render.py: table, JSON lines and CSV from SearchResults, without click."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from gtsearch.algorithms import ALGORITHMS
from gtsearch.render.labels import format_path, format_pv, format_seconds, format_value
from gtsearch.render.tables import (
    CSV_COLUMNS,
    algorithm_dict,
    algorithms_text,
    csv_text,
    json_lines,
    render_algorithms,
    render_table,
    summary_line,
    takes_text,
)
from gtsearch.result import SearchResult

EXACT = SearchResult(
    algorithm="alphabeta",
    value=3,
    exact=True,
    bound=None,
    pv=(0, 0),
    pv_labels=("b", "b1"),
    leaves=7,
    leaves_total=9,
    seconds=0.000123,
)
LOWER = SearchResult(
    algorithm="f1",
    value=2.5,
    exact=False,
    bound="lower",
    pv=(1, 0),
    pv_labels=(None, None),
    leaves=4,
    leaves_total=9,
    seconds=0.5,
    params={"bound": 2.5},
)
UPPER = LOWER._replace(algorithm="dual-bounded", value=4, bound="upper", params={"bound": 4})
MIXED = EXACT._replace(pv=(2, 1, 0), pv_labels=("d", None, "x"))
WITH_LEAVES = EXACT._replace(leaf_order=((0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)))
ROOT_ONLY = EXACT._replace(pv=(), pv_labels=(), leaves=1, leaves_total=1, leaf_order=((),))


def render(rows: list, **console: object) -> str:
    out = io.StringIO()
    render_table(rows, Console(file=out, width=120, **console))  # type: ignore[arg-type]
    return out.getvalue()


# -- pieces ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("result", "text"),
    [(EXACT, "3"), (LOWER, "≥ 2.5"), (UPPER, "≤ 4"), (EXACT._replace(value=3.0), "3.0")],
)
def test_format_value(result: SearchResult, text: str) -> None:
    assert format_value(result) == text


@pytest.mark.parametrize(
    ("result", "text"),
    [(EXACT, "b → b1"), (LOWER, "1 → 0"), (MIXED, "d → 1 → x"), (ROOT_ONLY, "(root)")],
)
def test_format_pv(result: SearchResult, text: str) -> None:
    assert format_pv(result) == text


def test_format_path_and_seconds() -> None:
    assert format_path((2, 0, 11)) == "2.0.11"
    assert format_path(()) == "(root)"
    assert format_seconds(0.000123) == "123 µs"
    assert format_seconds(0.0123) == "12.3 ms"
    # the unit chosen after the rounding: never "1e+03 µs" (a play line read it so)
    assert [format_seconds(s) for s in (0.0009997, 0.9996, 0.00099949)] == ["1 ms", "1 s", "999 µs"]
    assert format_seconds(2.5) == "2.5 s"


# -- table -------------------------------------------------------------------------------
def test_table() -> None:
    out = render([("t.yaml", 0.001, EXACT), ("t.yaml", 0.001, LOWER), ("u.json", None, UPPER)])
    lines = out.splitlines()
    for header in ("file", "algorithm", "value", "PV", "leaves", "time"):
        assert header in lines[1]
    assert len([line for line in lines if "t.yaml" in line]) == 2
    row = next(line for line in lines if "alphabeta" in line)
    for cell in ("t.yaml", "3", "b → b1", "7 / 9", "123 µs"):
        assert cell in row
    assert "≥ 2.5" in out and "f1 (bound=2.5)" in out and "1 → 0" in out and "4 / 9" in out
    assert "≤ 4" in out and "u.json" in out
    assert "\x1b" not in out  # a file is not a terminal


def test_table_leaves() -> None:
    out = render([("t.yaml", 0.0, WITH_LEAVES), ("r.sexp", 0.0, ROOT_ONLY)])
    assert "t.yaml: alphabeta evaluated 7 leaves: 0.0 0.1 0.2 1.0 2.0 2.1 2.2" in out
    assert "r.sexp: alphabeta evaluated 1 leaves: (root)" in out
    assert "evaluated" not in render([("t.yaml", 0.0, EXACT)])


def test_table_markup_in_names_is_text() -> None:
    out = render([("[bold]x[/bold].json", 0.0, EXACT._replace(pv_labels=("[red]", None)))])
    assert "[bold]x[/bold].json" in out and "[red] → 0" in out


def test_table_colours_only_on_a_terminal_without_no_color() -> None:
    assert "\x1b[" in render([("t", 0.0, EXACT)], force_terminal=True, color_system="standard")
    plain = render([("t", 0.0, EXACT)], force_terminal=True, color_system="standard", no_color=True)
    assert "\x1b[36m" not in plain  # cyan


# -- JSON lines --------------------------------------------------------------------------------
def test_json_lines_are_to_dict() -> None:
    rows = [("t.yaml", 0.001, EXACT), ("t.yaml", 0.001, LOWER), ("-", None, WITH_LEAVES)]
    text = json_lines(rows)
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == 3
    for (file, load, result), line in zip(rows, lines, strict=True):
        assert json.loads(line) == result.to_dict(file, load)
    assert lines[0].startswith(
        '{"file": "t.yaml", "algorithm": "alphabeta", "value": 3, '
        '"exact": true, "bound": null, "pv": [0, 0], '
        '"pv_labels": ["b", "b1"], "leaves": 7, "leaves_total": 9, '
    )
    assert '"value": 2.5, "exact": false, "bound": "lower"' in lines[1]
    assert json.loads(lines[2])["leaf_order"][3] == [1, 0]
    assert json_lines([]) == ""


def test_json_lines_refuse_infinity() -> None:
    with pytest.raises(ValueError):
        json_lines([("t", 0.0, EXACT._replace(value=float("inf")))])


# -- CSV ---------------------------------------------------------------------------------
def test_csv() -> None:
    text = csv_text([("t.yaml", 0.001, EXACT), ("a, b.json", None, LOWER)])
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 3
    first, second = (dict(zip(rows[0], row, strict=True)) for row in rows[1:])
    assert first == {
        "file": "t.yaml",
        "algorithm": "alphabeta",
        "value": "3",
        "exact": "true",
        "bound": "",
        "pv": "0.0",
        "pv_labels": "b b1",
        "leaves": "7",
        "leaves_total": "9",
        "seconds": "0.000123",
        "load_seconds": "0.001",
        "nodes": "0",
        "params": "",
    }
    assert (second["file"], second["value"], second["exact"], second["bound"]) == (
        "a, b.json",
        "2.5",
        "false",
        "lower",
    )
    assert (second["pv_labels"], second["load_seconds"], second["params"]) == ("", "", "bound=2.5")


def test_csv_mixed_labels_leaves_and_extra_columns() -> None:
    text = csv_text(
        [
            ("t", 0.0, MIXED._replace(extra={"max_open": 5})),
            ("t", 0.0, WITH_LEAVES),
            ("t", 0.0, ROOT_ONLY),
        ]
    )
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[-2:] == ["max_open", "leaf_order"]
    assert (rows[0]["pv"], rows[0]["pv_labels"], rows[0]["max_open"]) == ("2.1.0", "d - x", "5")
    assert rows[0]["leaf_order"] == "" and rows[1]["max_open"] == ""
    assert rows[1]["leaf_order"] == "0.0 0.1 0.2 1.0 2.0 2.1 2.2"
    assert (rows[2]["pv"], rows[2]["leaf_order"]) == ("", "(root)")


def test_csv_empty() -> None:
    assert list(csv.reader(io.StringIO(csv_text([])))) == [list(CSV_COLUMNS)]


# -- algorithms and validate ------------------------------------------------------------------
def test_algorithms_text_and_table() -> None:
    lines = algorithms_text(ALGORITHMS).splitlines()
    assert len(lines) == len(ALGORITHMS)
    for algo, line in zip(ALGORITHMS, lines, strict=True):
        assert line.startswith(algo.name + " ")
        assert line.endswith(algo.summary)
        assert takes_text(algo) in line
    assert (
        len({line.index(a.summary) for a, line in zip(ALGORITHMS, lines, strict=True)}) == 1
    )  # aligned
    out = io.StringIO()
    render_algorithms(ALGORITHMS, Console(file=out, width=200))
    for algo in ALGORITHMS:
        assert algo.name in out.getvalue()
    assert algorithms_text([]) == ""


def test_takes_text_and_dict() -> None:
    by_name = {a.name: a for a in ALGORITHMS}
    assert takes_text(by_name["minimax"]) == "-"
    assert takes_text(by_name["alphabeta"]) == "--alpha/--beta"
    assert takes_text(by_name["f1"]) == "--bound"
    assert takes_text(by_name["sss-bounded"]) == "--bound (required)"
    d = algorithm_dict(by_name["alphabeta"])
    assert d["name"] == "alphabeta" and d["takes"] == "window" and "ab" in d["aliases"]
    json.dumps(d)


def test_summary_line() -> None:
    summary = {
        "nodes": 13,
        "leaves": 9,
        "internal": 4,
        "depth": 2,
        "branching_min": 2,
        "branching_mean": 3.0,
        "branching_max": 4,
        "root": "min",
        "names": 13,
        "static_values": 4,
        "title": "AIMA",
        "expect": 2.5,
    }
    assert summary_line("t.yaml", summary) == (
        "t.yaml: ok: 13 nodes, 9 leaves, depth 2, branching 2-4 (mean 3), root min, 13 names, "
        "4 static values, expect 2.5, title 'AIMA'"
    )
    leaf = dict(
        summary,
        nodes=1,
        leaves=1,
        internal=0,
        depth=0,
        branching_min=None,
        branching_mean=None,
        branching_max=None,
        title=None,
        expect=None,
    )
    assert summary_line("x", leaf) == (
        "x: ok: 1 nodes, 1 leaves, depth 0, branching - "
        "(a single leaf), root min, 13 names, 4 static values"
    )


def test_small_renderers_at_their_edges() -> None:
    """A missing value prints as '-', a mapping in a CSV cell as key=value pairs, and the HTML
    replay needs the events of the search it replays."""
    from gtsearch import load_tree
    from gtsearch.render.labels import format_extended
    from gtsearch.render.replay import replay_data
    from gtsearch.render.tables import csv_cell
    from gtsearch.render.view import build_view

    assert format_extended(None) == "-"
    assert csv_cell({"bound": 3, "exact": True}) == "bound=3 exact=true"
    aima = Path(__file__).resolve().parent.parent / "sample_trees" / "aima-fig5-2.yaml"
    view = build_view(load_tree(str(aima)), "alphabeta")
    with pytest.raises(ValueError, match="without its events"):
        replay_data(view)


def test_params_text_puts_a_comma_beside_a_parameter_with_spaces() -> None:
    """Parameters are separated by spaces (a CSV cell needs no quotes), and by a comma beside
    Star2's leaf bounds or its default table, whose texts have spaces of their own."""
    from gtsearch.render.labels import params_text

    assert params_text({"alpha": 4, "beta": 10, "variant": "fail-hard"}) == (
        "alpha=4 beta=10 variant=fail-hard"
    )
    star2 = {"leaf_bounds": (-1, 1), "leaf_bounds_from": "tree", "tt": 1, "tt_from": "game"}
    assert params_text(star2) == "L=-1, U=1 from the leaves, tt=1 by default"
    assert params_text({"tt": 1, "tt_from": "game", "seed": 3}) == "tt=1 by default, seed=3"
    assert params_text({}) == ""
