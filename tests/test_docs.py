"""Every documented session is true: each ``$ gtsearch`` block of README.md and docs/*.md runs here.

A session is a fenced block with lines starting ``$ ``, one of them running
gtsearch (a block of other commands, ``pip install ...``, is an
instruction, not a session); the lines after a
command, up to the next command, are its output (standard output and
standard error, as a terminal shows them; blank lines at its end only
separate it from the next command).  The blocks of one page run in
order in one fresh directory that has ``sample_trees/`` in it, so a page can
write a file in one block and read it in the next.  Plain ``gtsearch ...``
commands run in this process through click (quick); anything with shell
syntax runs in ``bash`` with this environment's ``gtsearch`` first on PATH.

Compared after normalising what changes from run to run: durations
(``30.3 µs``, ``"seconds": 7.6e-05``) become ``<time>``, and since their
width moves the columns of a table, runs of spaces and of table rules are
folded.  In the expected output ``...`` stands for any text on a line, and
a line that is only ``...`` for any number of lines.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
#: the environment documented sessions assume: no colours, no progress display, no width set
ENV = {"NO_COLOR": "1", "GTSEARCH_NO_PROGRESS": "1", "TERM": "dumb"}
GTSEARCH = re.compile(r"\bgtsearch\b")
SHELL_SYNTAX = re.compile(r"[|<>;&$`*?(){}]|^\S+=")
TIME = re.compile(
    r'"(?:load_)?seconds": [0-9.e-]+|\b[0-9]+(?:\.[0-9]+)? ?(?:µs|ms|s)\b(?!\S)|'
    r"\b(?:seconds|load_seconds)=[0-9.e-]+"
)
RULES = re.compile(r"[─━]+")
SPACES = re.compile(r"[ ]+")


def sessions(page: Path) -> list[tuple[int, list[tuple[str, list[str]]]]]:
    """The sessions of a page: (line of the block, [(command, expected output lines)])."""
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        lines = m.group(1).splitlines()
        if not any(line.startswith("$ ") and GTSEARCH.search(line) for line in lines):
            continue  # instructions (pip install, scripts), not a session of gtsearch
        steps: list[tuple[str, list[str]]] = []
        pending = ""
        for line in lines:
            if pending:
                pending += "\n" + line
                if not line.endswith("\\"):
                    steps.append((pending, []))
                    pending = ""
            elif line.startswith("$ "):
                command = line[2:]
                if command.endswith("\\"):
                    pending = command
                else:
                    steps.append((command, []))
            elif steps:
                steps[-1][1].append(line)
            else:
                raise AssertionError(f"{page.name}: output before the first command: {line!r}")
        for _, expected in steps:  # a blank line may separate one command's output from the next
            while expected and not expected[-1].strip():
                expected.pop()
        out.append((text.count("\n", 0, m.start()) + 1, steps))
    return out


def normalise(text: str) -> str:
    text = TIME.sub("<time>", text)
    text = RULES.sub("─", text)
    return "\n".join(SPACES.sub(" ", line).rstrip() for line in text.splitlines()).strip("\n")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output matches, ``...`` standing for any text (a line of it: any lines)."""
    pattern = []
    for line in expected:
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            parts = [re.escape(p) for p in line.split("...")]
            pattern.append(".*?".join(parts) + r"\n")
    return re.fullmatch("".join(pattern), "".join(x + "\n" for x in actual)) is not None


class Shell:
    """Runs one page's commands: click in this process when it can, bash otherwise."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.status = 0
        self.env = {**{k: v for k, v in os.environ.items() if k != "COLUMNS"}, **ENV}
        self.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + self.env["PATH"]

    def run(self, command: str) -> str:
        if command.strip() == "echo $?":
            return f"{self.status}\n"
        words = shlex.split(command) if not SHELL_SYNTAX.search(command) else []
        if words and words[0] == "gtsearch":
            result = CliRunner().invoke(cli, words[1:], env=ENV, prog_name="gtsearch")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            self.status = result.exit_code
            return result.stdout + result.stderr
        script = f"(exit {self.status})\n{command}"
        proc = subprocess.run(
            ["bash", "-c", script],
            cwd=self.cwd,
            env=self.env,
            timeout=120,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.status = proc.returncode
        return proc.stdout


def shows_plots(page: Path) -> bool:
    return any("--plot" in c for _, steps in sessions(page) for c, _ in steps)


@pytest.mark.parametrize(
    "page",
    [pytest.param(p, marks=[pytest.mark.extra("plot")] if shows_plots(p) else []) for p in PAGES],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_documented_sessions(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = sessions(page)
    shutil.copytree(ROOT / "sample_trees", tmp_path / "sample_trees")
    monkeypatch.chdir(tmp_path)
    shell = Shell(tmp_path)
    failures = []
    for line, steps in found:
        for command, expected in steps:
            actual = normalise(shell.run(command)).splitlines()
            if not matches([normalise(x) for x in expected] if expected else [], actual):
                failures.append(
                    f"{page.name}, block at line {line}: $ {command}\n"
                    "--- documented\n" + "\n".join(expected) + "\n--- actual\n" + "\n".join(actual)
                )
    assert not failures, "\n\n".join(failures)


def test_every_page_is_found() -> None:
    assert ROOT / "README.md" in PAGES and len(PAGES) >= 7
    assert all(sessions(p) for p in PAGES if p.name != "development.md"), [
        p.name for p in PAGES if not sessions(p)
    ]
