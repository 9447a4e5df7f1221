"""scripts/research_figures.py: the data of docs/research.md's figures, and the figures drawn."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest

from gtsearch.research.theory import minimal_tree, pearl_r

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "research_figures", ROOT / "scripts" / "research_figures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_minimal_data_is_the_minimal_tree() -> None:
    rf = script()
    rows = rf.minimal_data(quick=True)
    assert {(r["b"], r["algorithm"]) for r in rows} == {
        (b, a) for b in (2, 3) for a in ("alphabeta", "sss")
    }
    assert all(r["mean"] == r["formula"] == minimal_tree(r["b"], r["d"]) for r in rows)
    assert rf.check_minimal(rows) == []
    off = [dict(rows[0], mean=rows[0]["mean"] + 1)]
    assert rf.check_minimal(off) and "minimal tree" in rf.check_minimal(off)[0]


def test_pearl_data() -> None:
    rows = script().pearl_data(quick=True)
    assert {r["b"] for r in rows} == {2, 4}
    for r in rows:
        assert math.isfinite(r["growth"]) and 1 < r["growth"] <= r["b"]
        assert r["pearl_r"] == pearl_r(r["b"]) and r["sqrt_b"] == math.sqrt(r["b"])


def test_models_data() -> None:
    rows = script().models_data(quick=True)
    assert [r["model"] for r in rows[:: len(rows) // 4]] == [
        "iid",
        "permutation",
        "incremental",
        "binary",
    ]
    for r in rows:
        assert 0 < r["share"] <= 1 and r["share"] == r["sss"] / r["alphabeta"]  # SSS* never more


@pytest.mark.extra("plot")
@pytest.mark.parametrize("name", ["minimal", "pearl", "models", "b40"])
def test_figures_are_drawn(name: str, tmp_path: Path) -> None:
    rf = script()
    path = rf.make(name, tmp_path, quick=True)
    assert path == tmp_path / f"research-{name}.png"
    data = path.read_bytes()
    assert data.startswith(PNG) and len(data) > 10_000
    # the same data draw the same bytes (no date in the file)
    again = tmp_path / "again"
    again.mkdir()
    assert rf.make(name, again, quick=True).read_bytes() == data


@pytest.mark.extra("plot")
def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert script().main(["models", "--quick", "--out", str(tmp_path)]) == 0
    assert "research-models.png" in capsys.readouterr().out
    assert (tmp_path / "research-models.png").read_bytes().startswith(PNG)


def test_a_point_off_the_minimal_tree_stops_the_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rf = script()
    rows = rf.minimal_data(quick=True)
    rows[-1] = dict(rows[-1], mean=rows[-1]["mean"] - 1)
    monkeypatch.setitem(rf.FIGURES, "minimal", (lambda quick: rows, rf.draw_minimal))
    with pytest.raises(SystemExit, match="off the minimal tree") as stop:
        rf.make("minimal", tmp_path, quick=True)
    assert stop.value.code != 0  # a message, so exit status 1
    assert not (tmp_path / "research-minimal.png").exists()
