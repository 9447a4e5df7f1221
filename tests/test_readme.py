"""README.md stays true: the set-up commands, every algorithm, every command, the exit codes."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from gtsearch.algorithms import ALGORITHMS
from gtsearch.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
CI = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")


def fenced_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)


def test_starts_with_the_two_setup_commands() -> None:
    first, second = fenced_blocks(README)[:2]
    assert first.strip() == (
        "python -m pip install -e . && gtsearch eval sample_trees/aima-fig5-2.yaml --algo alphabeta"
    )
    assert second.strip() == (
        "python -m pip install -e '.[test]' && ruff check . && ruff format --check . && mypy "
        "&& python -m pytest -n auto"
    )
    assert second.strip() in CI.splitlines(), ".ci/run runs the README's test command"


def test_every_algorithm_is_in_the_table() -> None:
    section = README.split("## Algorithms", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1) for m in re.finditer(r"^\| `([a-z0-9-]+)` \|", section, flags=re.M)}
    assert rows == {a.name for a in ALGORITHMS}
    for algo in ALGORITHMS:
        row = next(line for line in section.splitlines() if line.startswith(f"| `{algo.name}` |"))
        for alias in algo.aliases:
            assert f"`{alias}`" in row, (algo.name, alias)


def test_every_command_is_in_the_table() -> None:
    ctx = cli.make_context("gtsearch", [], resilient_parsing=True)
    commands = cli.list_commands(ctx)
    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    for name in commands:
        assert f"`gtsearch {name}" in section, name


def test_exit_codes_are_documented() -> None:
    section = README.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    for code in ("0", "1", "2", "130", "141"):
        assert f"| {code} |" in section


def test_the_sample_session_is_real() -> None:
    result = CliRunner().invoke(
        cli, ["eval", "sample_trees/aima-fig5-2.yaml", "-a", "sss", "--leaves", "--format", "json"]
    )
    line = result.output.strip()
    shown = next(b for b in fenced_blocks(README) if '"algorithm": "sss"' in b)
    expected = next(x for x in shown.splitlines() if x.startswith("{"))
    drop = re.compile(r'"(seconds|load_seconds)": [0-9.e-]+')
    assert drop.sub("", line) == drop.sub("", expected)
