"""Shell completion: ``gtsearch completion bash|zsh|fish`` and what completes (click's protocol).

A shell's script calls ``gtsearch`` again with ``_GTSEARCH_COMPLETE=bash_complete``
(or zsh_complete, fish_complete) and the words typed so far; the tests make
those calls through click's CliRunner, and one through a real bash.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gtsearch.algorithms import EVERY
from gtsearch.cli import COMMANDS, cli
from gtsearch.formats import FORMATS


def complete(line: str, shell: str = "bash") -> list[tuple[str, str]]:
    """What completes at the end of ``line`` (a trailing space starts a new word): (type, value)."""
    words = line.split()
    if line.endswith(" "):
        words.append("")
    env = {"_GTSEARCH_COMPLETE": f"{shell}_complete", "COMP_WORDS": line, "COMP_CWORD": ""}
    if shell == "fish":
        env["COMP_WORDS"], env["COMP_CWORD"] = line, words[-1]
    else:
        env["COMP_CWORD"] = str(len(words) - 1)
    result = CliRunner().invoke(cli, [], env=env, prog_name="gtsearch")
    assert result.exit_code == 0, result.output
    if shell == "bash":
        return [tuple(x.split(",", 1)) for x in result.stdout.splitlines()]  # type: ignore[misc]
    if shell == "zsh":  # type, value, help: three lines each
        lines = result.stdout.splitlines()
        return [(lines[i], lines[i + 1]) for i in range(0, len(lines), 3)]
    return [tuple(x.split("\t")[0].split(",", 1)) for x in result.stdout.splitlines()]  # type: ignore[misc]


def values(line: str, shell: str = "bash") -> list[str]:
    return [v for _, v in complete(line, shell)]


# -- the scripts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_script_is_clicks(shell: str) -> None:
    result = CliRunner().invoke(cli, ["completion", shell])
    assert result.exit_code == 0
    assert "_GTSEARCH_COMPLETE" in result.stdout and f"{shell}_complete" in result.stdout
    assert "gtsearch" in result.stdout


def test_an_unknown_shell_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["completion", "tcsh"])
    assert result.exit_code == 2 and "'tcsh' is not one of 'bash', 'zsh', 'fish'" in result.stderr


# -- what completes -------------------------------------------------------------------------------
def test_commands() -> None:
    assert values("gtsearch ") == sorted(COMMANDS)
    assert values("gtsearch ev") == ["eval"]
    assert values("gtsearch co") == ["compare", "completion", "convert"]


def test_options() -> None:
    assert "--max-nodes" in values("gtsearch eval x --")
    assert values("gtsearch eval x --leav") == ["--leaves"]
    assert values("gtsearch eval x --le") == ["--leaf-bounds", "--leaves"]
    assert values("gtsearch --ann") == ["--annotate"]


def test_algorithm_names() -> None:
    assert values("gtsearch eval x -a alph") == ["alphabeta"]
    assert values("gtsearch eval x --algo mt") == ["mt-sss", "mt-dual", "mtdf"]
    assert values("gtsearch eval x -a ") == [a.name for a in EVERY] + ["all"]
    assert values("gtsearch eval x -a mc") == ["mcts"]
    assert values("gtsearch eval x -a alphabeta,ss") == ["alphabeta,sss", "alphabeta,sss-bounded"]
    # aliases when no name fits, and only those a shell takes unquoted
    assert values("gtsearch eval x -a pv") == ["pvs"]
    assert values("gtsearch eval x -a bs") == ["bs"]  # not 'bs*'
    for command in ("compare x", "experiment", "show x", "trace x"):
        assert values(f"gtsearch {command} -a alph") == ["alphabeta"], command
    assert "all" not in values("gtsearch show x -a a")  # show follows one algorithm


def test_formats_and_choices() -> None:
    names = [f.name for f in FORMATS]
    assert values("gtsearch convert x --to ") == names
    assert values("gtsearch eval x --input-format ") == names
    assert values("gtsearch eval x --format ") == ["table", "json", "csv"]
    assert values("gtsearch eval x --root m") == ["max", "min"]
    assert values("gtsearch completion ") == ["bash", "zsh", "fish"]
    assert values("gtsearch --annotate ") == ["github", "none"]


def test_file_names_are_left_to_the_shell() -> None:
    for line in (
        "gtsearch eval sam",
        "gtsearch validate a.yaml sam",
        "gtsearch convert sam",
        "gtsearch convert x.yaml -o sam",
        "gtsearch show x --svg sam",
        "gtsearch compare sam",
        "gtsearch schema -o sam",
    ):
        assert complete(line) == [("file", "sam")], line


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish(shell: str) -> None:
    assert values("gtsearch eval x -a alph", shell) == ["alphabeta"]
    assert complete("gtsearch eval sam", shell) == [("file", "sam")]


def test_in_a_real_bash() -> None:
    if shutil.which("bash") is None:  # looked up as the test runs, not at import
        pytest.skip("no bash")
    gtsearch = Path(sys.executable).parent / "gtsearch"
    if not gtsearch.exists():
        pytest.skip("the gtsearch script is not installed next to this Python")
    script = (
        f'source <("{gtsearch}" completion bash) || exit 3\n'
        "COMP_WORDS=(gtsearch eval tree.yaml -a alph); COMP_CWORD=4\n"
        f'_gtsearch_completion "{gtsearch}"\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    if "Shell completion is not supported for Bash versions older than" in proc.stderr:
        pytest.skip("bash older than 4.4")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "alphabeta\n"
