"""CI annotations: failed checks and bad input as GitHub Actions' ``::error`` workflow commands.

With ``GITHUB_ACTIONS=true`` (set by GitHub Actions in every step) or
``gtsearch --annotate github``, every error line on standard error is followed
by ``::error file=PATH,line=L,col=C::message``: the line of the ``expect``
key for a failed check of a file's ``expect``, the place of the bad token for
bad input (docs/ci.md).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from gtsearch.cli import COMMANDS, cli
from gtsearch.errors import CheckFailed, TreeFormatError, UsageError
from gtsearch.render.annotations import (
    escape_data,
    escape_property,
    github_annotation,
    github_error,
)

ROOT = Path(__file__).resolve().parent.parent
GITHUB = {"GITHUB_ACTIONS": "true"}


def run(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, input=input)


@pytest.fixture
def trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(ROOT / "sample_trees", tmp_path / "sample_trees")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the workflow command ------------------------------------------------------------------------
def test_escaping_follows_the_runner() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"
    assert github_error("bad", "t.json", 3, 7) == "::error file=t.json,line=3,col=7::bad"
    assert github_error("bad", "t.json", 3) == "::error file=t.json,line=3::bad"
    assert github_error("bad", "t.json") == "::error file=t.json::bad"
    assert github_error("bad", "<stdin>", 1, 1) == "::error::bad"
    assert github_error("a: b, c") == "::error::a: b, c"  # ':' and ',' are fine in the message


def test_an_error_knows_its_place() -> None:
    err = TreeFormatError("value 'x' is a string", "t.json", 2, 5)
    assert github_annotation(err) == "::error file=t.json,line=2,col=5::value 'x' is a string"
    assert github_annotation(TreeFormatError("cannot read", "t.json")) == (
        "::error file=t.json::cannot read"
    )
    where = TreeFormatError("bad value", "t.json", where="$[1][0]")
    assert github_annotation(where) == "::error file=t.json::$[1][0]: bad value"
    check = CheckFailed("alphabeta: value 3, expected 4", "t.yaml", 22, 1)
    assert str(check) == "t.yaml: alphabeta: value 3, expected 4"
    assert github_annotation(check) == (
        "::error file=t.yaml,line=22,col=1::alphabeta: value 3, expected 4"
    )
    assert github_annotation(UsageError("unknown algorithm 'x'")) == (
        "::error::unknown algorithm 'x'"
    )


# -- failed checks: the line of the expect key --------------------------------------------------
@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("aima-fig5-2.yaml", "line=22,col=1"),
        ("hand-b-min-root.json", "line=5,col=3"),
        ("hand-c-min-root.sexp", "line=16,col=7"),
    ],
)
def test_a_contradicted_expect_is_marked_on_its_line(trees: Path, name: str, place: str) -> None:
    path = trees / "sample_trees" / name
    text = path.read_text(encoding="utf-8")
    right = {"aima-fig5-2.yaml": "3", "hand-b-min-root.json": "0.5", "hand-c-min-root.sexp": "3.5"}
    path.write_text(text.replace(f"expect: {right[name]}", "expect: 99").replace(
        f'"expect": {right[name]}', '"expect": 99').replace(f":expect {right[name]}", ":expect 99"),
        encoding="utf-8")  # fmt: skip
    file = f"sample_trees/{name}"
    result = run("eval", file, "-a", "minimax", "--format", "csv", env=GITHUB)
    assert result.exit_code == 1
    line, annotation = result.stderr.splitlines()
    assert line.startswith(f"{file}: minimax: value ") and line.endswith(", expected 99")
    assert annotation == f"::error file={file},{place}::{line.split(': ', 1)[1]}"
    # compare marks the same line
    result = run("compare", file, "-a", "minimax,sss", "--format", "csv", env=GITHUB)
    assert result.exit_code == 1
    assert [x for x in result.stderr.splitlines() if x.startswith("::")] == [
        f"::error file={file},{place}::minimax: value {line.split('value ')[1].split(',')[0]}, "
        "expected 99",
        f"::error file={file},{place}::sss: value {line.split('value ')[1].split(',')[0]}, "
        "expected 99",
    ]


def test_expect_on_the_command_line_marks_the_file(trees: Path) -> None:
    result = run("eval", "sample_trees/aima-fig5-2.yaml", "--expect", "4", env=GITHUB)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "sample_trees/aima-fig5-2.yaml: alphabeta: value 3, expected 4",
        "::error file=sample_trees/aima-fig5-2.yaml::alphabeta: value 3, expected 4",
    ]


def test_disagreeing_algorithms_mark_the_file(trees: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gtsearch.research import compare as research

    real = research.compare

    def lying(tree, plan, run):  # type: ignore[no-untyped-def]
        results = real(tree, plan, run)
        return [results[0]._replace(value=results[0].value + 1), *results[1:]]

    monkeypatch.setattr("gtsearch.cli.research.compare", lying)
    result = run("compare", "sample_trees/aima-fig5-2.bare.json", "-a", "ab,sss",
                 "--format", "csv", env=GITHUB)  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "::error file=sample_trees/aima-fig5-2.bare.json::the exact results disagree: "
        "4 (alphabeta) vs 3 (sss)"
    )


# -- bad input: the place of the bad token -------------------------------------------------------
def test_bad_input_is_marked_where_it_goes_wrong(trees: Path) -> None:
    Path("broken.json").write_text("[[3, 12, 8],\n [2, 4 6]]\n", encoding="utf-8")
    for command in ("eval", "validate", "compare"):
        result = run(command, "broken.json", "sample_trees/aima-fig5-2.bare.yaml", env=GITHUB)
        assert result.exit_code == 2, command
        assert result.stderr.splitlines() == [
            "broken.json:2:8: expected ',' or ']' after an item, got '6'",
            "::error file=broken.json,line=2,col=8::expected ',' or ']' after an item, got '6'",
        ], command
    result = run("validate", "missing.yaml", env=GITHUB)
    assert result.stderr.splitlines()[1] == (
        "::error file=missing.yaml::cannot read the file: no such file or directory"
    )
    result = run("convert", "broken.json", "--to", "yaml", env=GITHUB)
    assert result.exit_code == 2 and result.stderr.splitlines()[1].startswith(
        "::error file=broken.json,line=2,col=8::"
    )


def test_standard_input_has_no_file(trees: Path) -> None:
    result = run("eval", "-", env=GITHUB, input="[1, [2, true]]")
    assert result.stderr.splitlines() == [
        "<stdin>:1:9: value 'true' is a boolean, expected a number",
        "::error::value 'true' is a boolean, expected a number",
    ]


def test_the_option_wins_over_the_environment(trees: Path) -> None:
    args = ("eval", "sample_trees/aima-fig5-2.yaml", "--expect", "4")
    quiet = run("--annotate", "none", *args, env=GITHUB)
    assert quiet.exit_code == 1 and len(quiet.stderr.splitlines()) == 1
    loud = run("--annotate", "github", *args)
    assert loud.stderr.splitlines()[1].startswith("::error file=")
    assert len(run(*args).stderr.splitlines()) == 1  # nothing outside GitHub Actions
    assert len(run(*args, env={"GITHUB_ACTIONS": "false"}).stderr.splitlines()) == 1
    usage = run("--annotate", "github", "eval", "sample_trees/aima-fig5-2.yaml", "-a", "nope")
    assert usage.exit_code == 2 and usage.stderr.splitlines()[1].startswith(
        "::error::unknown algorithm 'nope'"
    )


def test_standard_output_stays_clean(trees: Path) -> None:
    result = run("eval", "sample_trees/aima-fig5-2.yaml", "--expect", "4", "--format", "json",
                 env=GITHUB)  # fmt: skip
    assert "::" not in result.stdout and result.stdout.count("\n") == 1


# -- the pre-commit hook ------------------------------------------------------------------------
def test_the_pre_commit_hook_runs_validate() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = hooks
    assert hook["id"] == "gtsearch-validate"
    assert hook["language"] == "python"
    entry = hook["entry"].split()
    assert entry[0] == "gtsearch" and entry[1] in COMMANDS and entry[1] == "validate"
    files = re.compile(hook["files"])
    for name in ("t.yaml", "t.yml", "a/b.json", "x.sexp", "g.efg"):
        assert files.search(name), name
    for name in ("t.py", "README.md", "t.json.txt"):
        assert not files.search(name), name
    assert run(*entry[1:], str(ROOT / "sample_trees" / "nim-5.efg")).exit_code == 0


def test_the_documented_workflow_and_configs_parse() -> None:
    """docs/ci.md's workflow runs commands gtsearch has; its pre-commit configs name the hook."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    workflow, remote, local = blocks
    steps = workflow["jobs"]["check"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    used = {m.group(1) for r in runs for m in re.finditer(r"\bgtsearch (\w+)", r)}
    assert used == {"validate", "compare"} and used <= set(COMMANDS)
    assert workflow.get("on", workflow.get(True)) == [
        "push",
        "pull_request",
    ]  # YAML 1.1: on is true
    assert remote["repos"][0]["hooks"][0]["id"] == "gtsearch-validate"
    assert local["repos"][0]["hooks"][0]["entry"] == "gtsearch validate"
