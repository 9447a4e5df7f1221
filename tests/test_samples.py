"""``sample:NAME``: the sample trees that travel with the package (gtsearch/samples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch import dump_tree, load_tree, search
from gtsearch.cli import cli
from gtsearch.errors import UsageError
from gtsearch.samples import folder, sample_path, samples

ROOT = Path(__file__).resolve().parent.parent


def test_a_clone_reads_its_own_sample_trees() -> None:
    assert folder() == ROOT / "sample_trees"
    assert set(samples()) == {
        "aima-fig5-2",
        "aima-fig5-2.bare",
        "chance-worked",
        "hand-a-min-root",
        "hand-b-min-root",
        "hand-c-min-root",
        "meeden-alphabeta",
        "nim-5",
        "stockman-binary-d4",
        "wikipedia-alphabeta",
    }


@pytest.mark.parametrize("path", sorted((ROOT / "sample_trees").iterdir()), ids=lambda p: p.name)
def test_every_sample_by_its_file_name_is_the_file(path: Path) -> None:
    named = load_tree(f"sample:{path.name}")
    tree = load_tree(str(path))
    assert named.source == f"sample:{path.name}"
    assert dump_tree(named, "json") == dump_tree(tree, "json")


def test_a_name_without_its_extension() -> None:
    assert sample_path("sample:aima-fig5-2") == str(ROOT / "sample_trees" / "aima-fig5-2.yaml")
    assert search(load_tree("sample:aima-fig5-2"), "alphabeta").leaves == 7
    assert sample_path("sample:aima-fig5-2.bare.sexp").endswith("aima-fig5-2.bare.sexp")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "sample:aima-fig5-2.bare",
            "sample:aima-fig5-2.bare: several samples have that name, give one: "
            "aima-fig5-2.bare.json, aima-fig5-2.bare.sexp, aima-fig5-2.bare.yaml",
        ),
        ("sample:nosuch", "sample:nosuch: no such sample; the samples: aima-fig5-2, "),
        ("sample:", "sample:: no such sample; the samples: aima-fig5-2, "),
        ("sample:../README.md", "sample:../README.md: no such sample; "),
    ],
)
def test_a_bad_name_is_one_line_and_exit_status_2(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match="^" + message.replace("(", r"\(")):
        sample_path(spec)
    r = CliRunner().invoke(cli, ["eval", spec])
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1
