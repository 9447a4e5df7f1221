"""The front door and the manual stay true: the set-up commands, every algorithm, command and exit code.

README.md starts with the two set-up commands and holds the table of
commands; docs/algorithms.md holds the table of algorithms and
docs/commands.md the exit statuses.  (Every documented session runs in
tests/test_docs.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

from gtsearch.algorithms import EVERY
from gtsearch.cli import cli

from .conftest import EXTRAS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ALGORITHMS_MD = (ROOT / "docs" / "algorithms.md").read_text(encoding="utf-8")
COMMANDS_MD = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def fenced_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)


def section(text: str, heading: str) -> str:
    """The text under ``## heading``, up to the next heading of that level."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_starts_with_the_two_setup_commands() -> None:
    first, second = fenced_blocks(README)[:2]
    assert first.strip() == (
        "python -m pip install -e . && gtsearch eval sample:aima-fig5-2 --algo alphabeta"
    )
    assert second.strip() == (
        "python -m pip install -e '.[test]' && ruff check . && ruff format --check . && mypy "
        "&& python -m pytest -n auto && GTSEARCH_PURE=1 python -m pytest -n auto"
    )
    lines = [line.strip() for line in CI.splitlines() if not line.lstrip().startswith("#")]
    assert second.strip() in lines, ".ci/run runs the README's test command"


def test_ci_runs_the_test_command_first_on_a_bare_machine() -> None:
    """.ci/run runs the README's test command in a fresh clone and venv before it installs
    anything else (an extra, a Debian package) or sets CFLAGS, and then requires the extras."""
    second = fenced_blocks(README)[1].strip()
    lines = [line.strip() for line in CI.splitlines() if not line.lstrip().startswith("#")]
    at = lines.index(second)
    before = lines[:at]
    assert any(line.startswith("git clone") for line in before)
    assert any(line.endswith("-m venv .venv") for line in before)
    assert not any("pip install" in line or "apt-get install" in line for line in before)
    assert not any(line.startswith(("export CFLAGS", "CFLAGS=")) for line in before)
    after = "\n".join(lines[at + 1 :])
    # then every extra of pyproject.toml, and the tests that need them must run
    table = PYPROJECT.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = re.findall(r"^([a-z]+) = \[", table, flags=re.M)
    installed = re.search(r"pip install --quiet -e '\.\[([a-z,]+)\]'", after)
    assert installed is not None and sorted(installed.group(1).split(",")) == sorted(extras)
    # the whole suite, measured, where a test that would be skipped for want of an extra fails
    assert "GTSEARCH_REQUIRE_EXTRAS=1 coverage run -m pytest -n auto tests" in after
    assert "GTSEARCH_REQUIRE_EXTRAS=1 GTSEARCH_PURE=1 coverage run -m pytest -n auto tests" in after
    # the mark "extra" of the tests names only those extras (and LaTeX, librsvg and MuPDF,
    # Debian packages, and gift-pegjs, an npm package)
    assert set(EXTRAS) <= {*extras, "latex", "rsvg", "pdf", "gift"}


def test_every_algorithm_is_in_the_table() -> None:
    table = section(ALGORITHMS_MD, "The algorithms")
    rows = {m.group(1) for m in re.finditer(r"^\| `([a-z0-9-]+)` \|", table, flags=re.M)}
    assert rows == {a.name for a in EVERY}
    for algo in EVERY:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{algo.name}` |"))
        for alias in algo.aliases:
            assert f"`{alias}`" in row, (algo.name, alias)


def test_every_command_is_in_the_table() -> None:
    ctx = cli.make_context("gtsearch", [], resilient_parsing=True)
    commands = cli.list_commands(ctx)
    table = section(README, "Commands")
    for name in commands:
        assert f"`gtsearch {name}" in table, name


def test_exit_codes_are_documented() -> None:
    table = section(COMMANDS_MD, "Exit status")
    for code in ("0", "1", "2", "130", "141"):
        assert f"| {code} |" in table
