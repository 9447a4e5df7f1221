"""Every example that a command's ``-h`` prints runs as printed, from the repository's root.

The ``Examples:`` block of each command's help (and of ``gtsearch -h``) is read
from the help itself, and each line runs in order in a folder that holds the
repository's ``sample_trees/`` (so that what an example writes, ``game.json``,
``results.csv``, stays out of the clone and a later example may read it).  A
line is a small pipeline: ``gtsearch`` runs in this process through click's
CliRunner; ``echo`` and ``cat`` give its standard input; ``> FILE`` takes its
output; ``python -m json.tool`` and ``dot`` run as the programs they are (``dot``
only where Graphviz is installed: elsewhere its input is checked to be a DOT
graph).  Globs expand as a shell expands them.  An interactive ``play`` gets a
closed standard input, as ``gtsearch play ... < /dev/null`` would, and must end
cleanly.  Examples that need an optional extra (``--plot``: matplotlib) run
where it is installed and are skipped with the reason elsewhere.
"""

from __future__ import annotations

import glob
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from gtsearch.cli import COMMANDS, cli

from .conftest import missing_extra, need_extra

ROOT = Path(__file__).resolve().parent.parent


def help_of(command: list[str]) -> str:
    r = CliRunner().invoke(cli, [*command, "-h"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    return r.output


def examples(command: list[str]) -> list[str]:
    """The lines of the ``Examples:`` block of a command's help."""
    text = help_of(command)
    assert "Examples:\n" in text, command
    block = text.split("Examples:\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    return lines


CASES = [
    [],
    *(
        # experiment's examples sweep hundreds of trees: seconds
        pytest.param([name], marks=[pytest.mark.slow] if name == "experiment" else [])
        for name in sorted(COMMANDS)
    ),
]


def expand(words: list[str]) -> list[str]:
    """Globs expanded as a shell expands them (a pattern without a match stays as it is)."""
    out: list[str] = []
    for word in words:
        found = sorted(glob.glob(word)) if any(c in word for c in "*?[") else []
        out.extend(found or [word])
    return out


def run_line(line: str) -> None:
    """Run one example line; fail with what it printed when a part of it fails."""
    stages = [shlex.split(part) for part in split_pipes(line)]
    data: str | None = None
    for i, words in enumerate(stages):
        target = None
        if ">" in words:
            k = words.index(">")
            target, words = words[k + 1], words[:k]
        words = expand(words)
        name, *args = words
        if name == "gtsearch":
            r = CliRunner().invoke(cli, args, input=data if data is not None else "")
            assert r.exit_code == 0, f"{line}: exit status {r.exit_code}\n{r.output}"
            out = r.stdout
        elif name == "echo":
            out = " ".join(args) + "\n"
        elif name == "cat":
            out = "".join(Path(a).read_text(encoding="utf-8") for a in args)
        elif name == "python":
            proc = subprocess.run(
                [sys.executable, *args], input=data, capture_output=True, text=True, timeout=60
            )
            assert proc.returncode == 0, f"{line}: {proc.stderr}"
            out = proc.stdout
        elif name == "dot":
            assert data is not None and data.startswith("digraph"), data
            if shutil.which("dot") is not None:
                subprocess.run(["dot", *args], input=data, text=True, check=True, timeout=60)
            out = ""
        else:
            raise AssertionError(f"{line}: the test does not know how to run {name!r}")
        if target is not None:
            Path(target).write_text(out, encoding="utf-8")
            out = ""
        data = out
        assert i < len(stages)


def split_pipes(line: str) -> list[str]:
    """The parts of a pipeline, at the ``|`` outside quotes."""
    parts, quote, current = [], "", ""
    for c in line:
        if c in "'\"" and (not quote or quote == c):
            quote = "" if quote else c
        if c == "|" and not quote:
            parts.append(current)
            current = ""
        else:
            current += c
    return [*parts, current]


@pytest.mark.parametrize("command", CASES, ids=lambda c: " ".join(c) or "gtsearch")
def test_every_example_runs_as_printed(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sample_trees").symlink_to(ROOT / "sample_trees")
    monkeypatch.chdir(tmp_path)
    lines = examples(command)
    assert lines
    wanting = []  # the lines that need the extra 'plot' where it is missing: skipped, said so
    for line in lines:
        assert line.startswith(("gtsearch ", "echo ", "cat ")), line
        if "--plot" in line and missing_extra("plot") is not None:
            wanting.append(line)
            continue
        run_line(line)
    if wanting:
        need_extra("plot")  # skips (with the reason; fails under GTSEARCH_REQUIRE_EXTRAS=1)


def test_output_help_says_where_the_output_goes() -> None:
    """-o's help says "instead of standard output" only where the command writes there
    without -o: play writes its game only to the file."""
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if "--output" in getattr(param, "opts", ()):
                text = getattr(param, "help", "") or ""
                if name == "play":  # the game goes to the file only
                    assert "standard output" not in text and "to FILE." in text
                else:
                    assert "instead of standard output" in text or text.startswith("Also "), name
