"""Hostile and broken input: one clear line and exit status 2, never a crash, a hang or a traceback.

The bad-file corpus (tests/cases/bad/, one NAME.expected line each) runs through
the library, click's CliRunner and a real process; good/ holds files that must
load however odd they look (a byte order mark, CRLF, gzip, aliases).  Deep
chains, alias bombs, node limits, the vectorised reader, the command line under
Unix conditions (pipes, ^C, closed and unreadable inputs, colour) and nonsense
bounds are checked here too.  Nothing here is timed: where a hostile input must
be refused early or read in linear time, the work is counted (function calls,
memory allocated: tests/work.py), which gives the same answer on a loaded
machine.  The times themselves are measured by benchmarks/hostile.py.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import ALGORITHMS
from gtsearch.algorithms import find_algorithm, search
from gtsearch.cli import cli
from gtsearch.errors import TreeFormatError
from gtsearch.formats import (
    GZIP_FREE_BYTES,
    GZIP_MAX_RATIO,
    find_format,
    format_for_path,
    jsonfmt,
    load_tree,
    loads_tree,
    sexp,
    yamlfmt,
)
from gtsearch.formats.bare import parse_bare
from gtsearch.formats.yaml_scalars import UNLIMITED_NESTING, deep_nesting
from gtsearch.tree import Tree

from .strategies import trees
from .work import measured

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases"
BAD = CASES / "bad"
GOOD = CASES / "good"
SAMPLE_TREES = REPO / "sample_trees"
BAD_CASES = sorted(p.name for p in BAD.iterdir() if not p.name.endswith(".expected"))
GOOD_CASES = sorted(p.name for p in GOOD.iterdir() if not p.name.endswith(".expected"))
UNBOUNDED = [a.name for a in ALGORITHMS if not a.needs_bound and not a.chance]
#: what "all" means on a tree with chance nodes
CHANCE_ALGOS = [a.name for a in ALGORITHMS if a.chance]
GENERAL: dict[str, Callable[..., Tree]] = {
    "json": jsonfmt.parse,
    "yaml": yamlfmt.parse,
    "sexp": sexp.parse,
}
#: file-level errors have no place in the file: ``path: message``
FILE_LEVEL = ("cannot read", "not a valid gzip file", "gzip data expanding")
ON_POSIX = sys.platform != "win32"


# -- helpers --------------------------------------------------------------------------------------
def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("FORCE_COLOR", None)
    env["GTSEARCH_NO_PROGRESS"] = "1"
    env.update(extra)
    return env


GTSEARCH = [sys.executable, "-m", "gtsearch"]


def expected_line(name: str, folder: Path = BAD) -> str:
    return (folder / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")


def assert_one_error_line(stderr: str, path: str) -> str:
    """Exactly one line, ``path:line:column: message`` (or a JSON path, or none for the file)."""
    assert "Traceback" not in stderr and "Error" not in stderr.split(":", 1)[0], stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and stderr.endswith("\n"), stderr
    line = lines[0]
    m = re.match(re.escape(path) + r"(:\d+:\d+|:\$(?:\[\d+\])+)?: (.*)\Z", line)
    assert m, line
    place, message = m.groups()
    assert place is not None or message.startswith(FILE_LEVEL), line
    assert message[0].islower() or message[0] in "'\"", line
    assert len(line) < 300 + len(path), line  # tokens are shortened in messages
    return line


# -- the corpus covers every kind of bad input the issue names -------------------------------------
CATEGORIES = {
    "syntax errors at line:column": [
        "json-missing-comma.json",
        "json-single-quotes.json",
        "yaml-syntax.yaml",
        "yaml-tab-indent.yaml",
        "sexp-dotted-extra.sexp",
        "sexp-invalid-number.sexp",
    ],
    "truncated": [
        "json-truncated.json",
        "json-truncated-string.json",
        "json-truncated-object.json",
        "json-truncated.json.gz",
        "yaml-truncated-flow.yaml",
        "yaml-truncated-block.yaml",
        "yaml-truncated-quoted.yaml",
        "sexp-truncated.sexp",
        "sexp-truncated-string.sexp",
    ],
    "empty": [
        "json-empty.json",
        "json-blank.json",
        "yaml-empty.yaml",
        "yaml-blank.yaml",
        "yaml-only-comments.yaml",
        "yaml-doc-marker-only.yaml",
        "sexp-empty.sexp",
        "sexp-blank.sexp",
        "sexp-only-comments.sexp",
    ],
    "binary garbage": [
        "json-binary-png.json",
        "json-nul.json",
        "json-gzip-not-json.json.gz",
        "yaml-binary.yaml",
        "yaml-binary-zip.yaml",
        "sexp-binary-elf.sexp",
    ],
    "invalid UTF-8": [
        "json-invalid-utf8.json",
        "json-utf16.json",
        "yaml-invalid-utf8.yaml",
        "yaml-truncated-utf8.yaml",
        "sexp-utf16.sexp",
        "sexp-invalid-utf8.sexp",
    ],
    "a stray byte order mark": ["json-bom-inside.json"],
    "empty lists": [
        "json-empty-list.json",
        "json-children-empty.json",
        "yaml-empty-list.yaml",
        "sexp-empty-list.sexp",
        "sexp-name-only.sexp",
    ],
    "strings as values": [
        "json-string-value.json",
        "json-string-static.json",
        "yaml-string.yaml",
        "yaml-string-quoted.yaml",
        "yaml-string-top.yaml",
        "yaml-1e3.yaml",
        "sexp-string-child.sexp",
        "sexp-string-top.sexp",
    ],
    "booleans": [
        "json-boolean.json",
        "yaml-boolean.yaml",
        "sexp-bool.sexp",
        "sexp-bool-false.sexp",
    ],
    "null": ["json-null.json", "yaml-null.yaml", "yaml-empty-value.yaml", "sexp-nil.sexp"],
    "NaN": ["json-nan.json", "yaml-nan.yaml", "sexp-nan.sexp"],
    "infinity": [
        "json-1e400.json",
        "json-infinity.json",
        "json-neg-infinity.json",
        "yaml-inf.yaml",
        "yaml-neg-inf.yaml",
        "yaml-float-1e400.yaml",
        "yaml-sexagesimal-overflow.yaml",
        "sexp-1e400.sexp",
        "sexp-inf.sexp",
        "sexp-infinity.sexp",
        "sexp-neg-inf.sexp",
    ],
    "huge integers (10**400)": [
        "json-big-int.json",
        "json-int-2-53.json",
        "yaml-big-int.yaml",
        "yaml-huge-int.yaml",
        "sexp-big-int.sexp",
        "sexp-huge-int.sexp",
    ],
    "siblings' names that collide": [
        "json-duplicate-name.json",
        "json-duplicate-name-after-children.json",
        "yaml-duplicate-name.yaml",
        "yaml-alias-named.yaml",
        "sexp-duplicate-name.sexp",
        "sexp-string-name-collision.sexp",
    ],
    "malformed names": [
        "json-malformed-name.json",
        "json-name-not-string.json",
        "json-long-name.json",
        "yaml-name-list.yaml",
        "sexp-malformed-name.sexp",
        "sexp-long-symbol.sexp",
    ],
    "unknown keys": [
        "json-unknown-key.json",
        "json-unknown-first-key.json",
        "json-unknown-wrapper-key.json",
        "yaml-unknown-key.yaml",
        "yaml-unknown-wrapper-key.yaml",
        "sexp-unknown-keyword.sexp",
        "sexp-wrapper-unknown-keyword.sexp",
    ],
    "duplicate keys": [
        "json-duplicate-key.json",
        "yaml-duplicate-key.yaml",
        "sexp-duplicate-root.sexp",
    ],
    "YAML tags": [
        "yaml-tag-python.yaml",
        "yaml-tag-python-new.yaml",
        "yaml-tag-python-name.yaml",
        "yaml-tag-custom.yaml",
        "yaml-tag-mapping.yaml",
        "yaml-tag-verbatim.yaml",
        "yaml-tag-directive.yaml",
        "yaml-tag-binary.yaml",
    ],
    "several YAML documents": [
        "yaml-several-docs.yaml",
        "yaml-several-docs-block.yaml",
        "yaml-several-docs-end-marker.yaml",
    ],
    "YAML merge keys": [
        "yaml-merge-key.yaml",
        "yaml-merge-key-alias.yaml",
        "yaml-merge-key-wrapper.yaml",
    ],
    "YAML alias bombs and loops": [
        "yaml-billion-laughs.yaml",
        "yaml-billion-laughs-flow.yaml",
        "yaml-recursive-alias.yaml",
        "yaml-alias-unknown.yaml",
    ],
    "unbalanced parentheses": [
        "sexp-unbalanced-open.sexp",
        "sexp-unbalanced-close.sexp",
        "sexp-unbalanced-deep-close.sexp",
        "sexp-truncated.sexp",
    ],
    "stray dots": [
        "sexp-stray-dot.sexp",
        "sexp-dot-alone.sexp",
        "sexp-dot-first.sexp",
        "sexp-dot-end.sexp",
        "sexp-double-dot.sexp",
    ],
    "s-expression strings": [
        "sexp-string-child.sexp",
        "sexp-string-top.sexp",
        "sexp-unterminated-string.sexp",
        "sexp-bad-escape.sexp",
        "sexp-quote.sexp",
    ],
    "tokens of 5,000 characters": [
        "json-long-string.json",
        "json-long-name.json",
        "yaml-long-scalar.yaml",
        "yaml-long-alias.yaml",
        "sexp-long-symbol.sexp",
    ],
    "broken gzip": [
        "json-bad-gzip.json.gz",
        "json-truncated.json.gz",
        "json-gzip-garbage.json.gz",
        "json-gzip-not-json.json.gz",
    ],
    "chance nodes: bad weights, chance with children, empty outcomes": [
        "json-chance-and-children.json",
        "json-chance-empty.json",
        "json-chance-negative-weight.json",
        "json-chance-string-weight.json",
        "json-chance-weight-1e400.json",
        "json-chance-weights-length.json",
        "json-chance-weights-without-chance.json",
        "json-chance-zero-total.json",
        "sexp-chance-after-value.sexp",
        "sexp-chance-empty.sexp",
        "sexp-chance-negative-weight.sexp",
        "sexp-chance-string-weight.sexp",
        "sexp-chance-weight-nan.sexp",
        "sexp-chance-weights-length.sexp",
        "sexp-chance-weights-without-chance.sexp",
        "sexp-chance-zero-total.sexp",
        "yaml-chance-and-children.yaml",
        "yaml-chance-empty.yaml",
        "yaml-chance-negative-weight.yaml",
        "yaml-chance-string-weight.yaml",
        "yaml-chance-weight-inf.yaml",
        "yaml-chance-weights-length.yaml",
        "yaml-chance-weights-without-chance.yaml",
        "yaml-chance-zero-total.yaml",
    ],
    "long runs of blanks (regular-expression backtracking)": [
        "yaml-blanks-then-scalar.yaml",
        "yaml-tree-then-blanks.yaml",
        "yaml-blanks-before-quoted.yaml",
    ],
    "Gambit games gtsearch cannot represent (docs/formats.md)": [
        "efg-three-players.efg",
        "efg-one-player.efg",
        "efg-shared-infoset.efg",
        "efg-not-zero-sum.efg",
        "efg-chance-negative.efg",
        "efg-chance-zero.efg",
    ],
    "broken .efg files": [
        "efg-empty.efg",
        "efg-normal-form.efg",
        "efg-version.efg",
        "efg-truncated.efg",
        "efg-missing-child.efg",
        "efg-extra-node.efg",
        "efg-bad-node-kind.efg",
        "efg-unterminated-string.efg",
        "efg-no-actions.efg",
        "efg-player-3.efg",
        "efg-undefined-infoset.efg",
        "efg-undefined-outcome.efg",
        "efg-outcome-changed.efg",
        "efg-outcome-zero-payoffs.efg",
        "efg-three-payoffs.efg",
        "efg-comma-first.efg",
        "efg-bad-payoff.efg",
        "efg-zero-denominator.efg",
        "efg-big-int.efg",
        "efg-huge-number.efg",
        "efg-1e400.efg",
        "efg-sum-overflow.efg",
    ],
}


def test_corpus_covers_every_category() -> None:
    assert len(BAD_CASES) >= 60
    for ext in (".json", ".yaml", ".sexp"):
        assert sum(ext in name for name in BAD_CASES) >= 20, ext
    for category, names in CATEGORIES.items():
        missing = [n for n in names if n not in BAD_CASES]
        assert not missing, (category, missing)
    assert {n for names in CATEGORIES.values() for n in names} <= set(BAD_CASES)
    # the BOM decision: a leading UTF-8 byte order mark is dropped, in every format
    assert {"bom.json", "bom.yaml", "bom.sexp", "bom.json.gz"} <= set(GOOD_CASES)
    assert "yaml-blank-lines-first.yaml" in GOOD_CASES  # 40 blank lines: once a hang


# -- the corpus through the library ----------------------------------------------------------------
CORPUS = [("bad", n) for n in BAD_CASES] + [("good", n) for n in GOOD_CASES]


#: the work one corpus file may take: every file is a few kilobytes at most, and the worst
#: (a billion laughs) takes about a thousand calls and 80 KB once the readers are imported
CORPUS_CALLS = 100_000
CORPUS_MEMORY = 16 << 20


@pytest.fixture(scope="module")
def readers_imported() -> None:
    """Every reader imported and run once, so that the imports are not counted as work."""
    for fmt, text in (("json", "[1, 2.5]"), ("yaml", "[1, 2.5]"), ("sexp", "(1 2.5)")):
        loads_tree(text, fmt)
        with pytest.raises(TreeFormatError):
            loads_tree(text.replace("1", "1e400"), fmt)
    import gtsearch.formats.bare  # noqa: F401


@pytest.mark.parametrize(("kind", "name"), CORPUS, ids=[f"{k}/{n}" for k, n in CORPUS])
def test_corpus_through_the_library(
    kind: str, name: str, monkeypatch: pytest.MonkeyPatch, readers_imported: None
) -> None:
    """A bad file raises its exact line; a good one (BOM, CRLF, gzip, aliases) loads.

    Each within a budget of work (calls and memory) far above what any of them needs
    and far below what a hang or an expansion would take: over the budget, the load is
    stopped at once.
    """
    folder = BAD if kind == "bad" else GOOD
    monkeypatch.chdir(folder)
    expected = expected_line(name, folder)
    with measured(max_calls=CORPUS_CALLS) as work:
        if kind == "bad":
            with pytest.raises(TreeFormatError) as e:
                load_tree(name)
            got = str(e.value)
        else:
            got = load_tree(name).sexp()
    assert got == expected
    assert work.peak < CORPUS_MEMORY, work


# -- the corpus through the command line ----------------------------------------------------------
@pytest.mark.parametrize("name", BAD_CASES)
def test_corpus_through_the_cli(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exit status 2, stdout empty, stderr exactly the expected line, no traceback."""
    monkeypatch.chdir(BAD)
    for command in ("eval", "validate"):
        result = run(command, name)
        assert result.exit_code == 2, (command, result.stdout, result.stderr)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.exception
        )
        assert result.stdout == ""
        assert result.stderr == expected_line(name) + "\n"
        assert_one_error_line(result.stderr, name)


@pytest.mark.parametrize("name", GOOD_CASES)
def test_good_cases_through_the_cli(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOOD)
    result = run("eval", name, "-a", "minimax", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    tree = Tree.from_nested(
        json.loads(expected_line(name, GOOD).replace("(", "[").replace(")", "]").replace(" ", ","))
    )
    assert record["leaves_total"] == tree.n_leaves


def test_whole_corpus_in_a_real_process() -> None:
    """``gtsearch validate`` on every bad file at once: one line each on stderr, in order."""
    proc = subprocess.run(
        [*GTSEARCH, "validate", *BAD_CASES],
        cwd=BAD,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [expected_line(n) for n in BAD_CASES]


@pytest.mark.parametrize(
    "name",
    [
        "json-truncated.json",
        "yaml-tag-python.yaml",
        "yaml-billion-laughs.yaml",
        "sexp-unbalanced-open.sexp",
        "json-binary-png.json",
        "json-bad-gzip.json.gz",
        "yaml-sexagesimal-overflow.yaml",
        "sexp-long-symbol.sexp",
    ],
)
def test_bad_files_in_real_processes(name: str) -> None:
    proc = subprocess.run(
        [*GTSEARCH, "eval", name, "-a", "all"],
        cwd=BAD,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == expected_line(name) + "\n"
    assert_one_error_line(proc.stderr, name)


# -- YAML tags are refused, never constructed ---------------------------------------------------
EVIL_TAGS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:subprocess.call [['touch', '{marker}']]",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ['{marker}']]",
    "!!python/name:os.system",
    "!!python/module:os",
    "!custom {{path: '{marker}'}}",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']",
]


@pytest.mark.parametrize("tag", EVIL_TAGS)
@pytest.mark.parametrize(
    "where",
    ["tree: {tag}\n", "- 1\n- {tag}\n", "[1, {tag}]\n", "tree:\n  name: a\n  children: {tag}\n"],
)
def test_yaml_tags_construct_nothing(
    tag: str, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tag that would run code or create a file is refused, and no constructor ever runs."""
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(where.format(tag=tag.format(marker=marker)), encoding="utf-8")
    calls: list[str] = []

    def spy(name: str) -> Callable[..., Any]:
        def constructing(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            raise AssertionError(f"{name} was called")

        return constructing

    for cls in (
        yaml.constructor.BaseConstructor,
        yaml.constructor.SafeConstructor,
        yaml.constructor.FullConstructor,
        yaml.constructor.UnsafeConstructor,
    ):
        for attr in (
            "construct_document",
            "construct_object",
            "construct_python_object_apply",
            "construct_python_object_new",
            "construct_python_name",
            "construct_python_module",
            "make_python_instance",
            "find_python_name",
        ):
            if attr in vars(cls):
                monkeypatch.setattr(cls, attr, spy(f"{cls.__name__}.{attr}"))
    # refused as a tag, or as bad YAML where the tag cannot stand (in a flow list, say)
    with pytest.raises(TreeFormatError, match=r"tag '.+' is not allowed|while scanning a tag"):
        load_tree(str(path))
    assert calls == [] and not marker.exists()


def test_yaml_tag_runs_nothing_in_a_real_process(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (tmp_path / "evil.yaml").write_text(
        f"tree: !!python/object/apply:os.system ['touch {marker}']\n", encoding="utf-8"
    )
    proc = subprocess.run(
        [*GTSEARCH, "eval", "evil.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert proc.returncode == 2 and not marker.exists()
    assert proc.stderr == (
        "evil.yaml:1:7: tag '!!python/object/apply:os.system' is not allowed: "
        "tree files hold only numbers, lists and mappings\n"
    )


# -- depth: 100,000 levels everywhere, 1,000,000 in subprocesses -----------------------------------
def chain(kind: str, depth: int, leaf: str = "1") -> str:
    """A chain of ``depth`` lists around one leaf, in a format's bare (or named) form."""
    if kind == "json":
        return "[" * depth + leaf + "]" * depth
    if kind == "sexp":
        return "(" * depth + leaf + ")" * depth
    if kind == "yaml-flow":
        return "[" * depth + leaf + "]" * depth
    if kind == "yaml-block":
        return "- " * depth + leaf + "\n"
    if kind == "json-named":
        return (
            "".join(f'{{"name": "n{i}", "children": [' for i in range(depth)) + leaf + "]}" * depth
        )
    if kind == "sexp-named":
        return "".join(f"(n{i} " for i in range(depth)) + leaf + ")" * depth
    if kind == "yaml-named":
        return "".join(f"{{name: n{i}, children: [" for i in range(depth)) + leaf + "]}" * depth
    raise ValueError(kind)


EXT = {"json": ".json", "sexp": ".sexp", "yaml": ".yaml"}
DEPTH = 100_000
CHAIN_KINDS = ["json", "sexp", "yaml-flow", "yaml-block"]
NAMED_KINDS = ["json-named", "sexp-named", "yaml-named"]
#: the bounded algorithms' bounds, on both sides of the chain's value (1): exact either way
CHAIN_BOUNDS = {"sss-bounded": 2, "dual-bounded": 0}


def chain_file(kind: str) -> str:
    return f"chain-{kind}{EXT[kind.split('-')[0]]}"


@pytest.fixture(scope="module")
def chain_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the 100,000-deep chains, bare and named, in every format."""
    folder = tmp_path_factory.mktemp("chains")
    for kind in CHAIN_KINDS + NAMED_KINDS:
        (folder / chain_file(kind)).write_text(chain(kind, DEPTH), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def chain_trees(chain_files: Path) -> dict[str, Tree]:
    """Each bare chain loaded once, as the command line loads it, and the same chain built by
    Tree.from_nested.  These trees are never searched themselves: see fresh()."""
    trees = {kind: load_tree(str(chain_files / chain_file(kind))) for kind in CHAIN_KINDS}
    nested: Any = 1
    for _ in range(DEPTH):
        nested = [nested]
    trees["from_nested"] = Tree.from_nested(nested)
    return trees


def fresh(tree: Tree) -> Tree:
    """A new Tree on the same arrays, holding only what its reader gave it.

    A search may keep derived arrays (node depths) in the tree it searched; each search
    here starts from the tree as it was loaded.
    """
    return tree.with_root(tree.root_max)


def layout(tree: Tree) -> tuple[Any, ...]:
    """Everything a search may read from a tree, as its reader left it (derived arrays
    included): two trees with the same layout are searched in exactly the same way."""

    def raw(a: Any) -> Any:
        return None if a is None else (type(a).__name__, memoryview(a).format, bytes(memoryview(a)))

    return (
        raw(tree.end),
        raw(tree.values),
        tree.floats,
        raw(getattr(tree, "_depth", None)),  # derived arrays that a reader may keep
        raw(getattr(tree, "_parent", None)),
        tree.names,
        tree.root_max,
        tree.meta,
    )


def distinct_layouts(trees: dict[str, Tree]) -> dict[str, Tree]:
    """One tree of each layout: the vectorised reader's (with node depths) and the streaming
    readers' (without), today; whatever the readers give tomorrow."""
    seen: list[tuple[Any, ...]] = []
    out = {}
    for kind, tree in trees.items():
        key = layout(tree)
        if key not in seen:
            seen.append(key)
            out[kind] = tree
    return out


def test_100k_deep_chains_load_in_every_format(chain_trees: dict[str, Tree]) -> None:
    """JSON, s-expressions, flow and block YAML: the very chain that from_nested builds."""
    chain = chain_trees["from_nested"]
    for kind, tree in chain_trees.items():
        t = fresh(tree)
        assert (len(t), t.n_leaves, t.max_depth(), t.number(DEPTH)) == (DEPTH + 1, 1, DEPTH, 1)
        assert t == chain, kind
    assert 2 <= len(distinct_layouts(chain_trees)) <= len(chain_trees)


def test_block_yaml_lifts_libyaml_nesting_limit_only_while_reading(tmp_path: Path) -> None:
    """libyaml 0.2.6 (PyYAML 6.0.4) refuses nesting past 1,000 levels; the readers lift that
    limit while they read, also when the read fails, and leave it as it was for the rest of the
    process (with an older libyaml there is no limit to lift)."""
    get = getattr(getattr(yaml, "_yaml", None), "_get_max_nest_level", None)
    before = get() if get else None
    deep = tmp_path / "deep.yaml"
    deep.write_text("- " * 5000 + "1\n", encoding="utf-8")
    assert yamlfmt.parse(deep.read_text(encoding="utf-8")).max_depth() == 5000  # libyaml's
    assert load_tree(str(deep)).max_depth() == 5000
    bad = tmp_path / "bad.yaml"
    bad.write_text("- " * 5000 + "[\n", encoding="utf-8")
    with pytest.raises(TreeFormatError, match=r"bad\.yaml:2:1: did not find expected node"):
        load_tree(str(bad))
    if get:
        assert get() == before


def test_libyaml_nesting_limit_is_put_back_by_the_last_reader_to_end() -> None:
    """Two reads at once (two threads) lift the process's limit once: the first to end
    leaves it lifted for the other, and the last puts back what was there before."""
    get = getattr(getattr(yaml, "_yaml", None), "_get_max_nest_level", None)
    if get is None:
        pytest.skip("this libyaml has no nesting limit (older than 0.2.6)")
    before = get()
    first, second = deep_nesting(), deep_nesting()
    first.__enter__()
    second.__enter__()
    assert get() == UNLIMITED_NESTING
    first.__exit__(None, None, None)
    assert get() == UNLIMITED_NESTING
    second.__exit__(None, None, None)
    assert get() == before


@pytest.mark.parametrize("algo", [a.name for a in ALGORITHMS])
def test_100k_deep_chains_with_every_algorithm(algo: str, chain_trees: dict[str, Tree]) -> None:
    """Every algorithm on every format's chain, without a stack overflow.

    Formats whose readers give the same layout give the very same arrays, searched the very
    same way: the algorithm runs once on each distinct layout.
    """
    params = {"bound": CHAIN_BOUNDS[algo]} if find_algorithm(algo).needs_bound else {}
    for kind, tree in distinct_layouts(chain_trees).items():
        r = search(fresh(tree), algo, **params)
        assert (r.value, r.exact, r.leaves, r.leaves_total) == (1, True, 1, 1), (kind, r)
        assert r.pv == (0,) * DEPTH, kind


def test_100k_deep_chains_through_the_cli(
    chain_files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line on every bare chain: one record each, with the whole PV."""
    monkeypatch.chdir(chain_files)
    bare = [chain_file(kind) for kind in CHAIN_KINDS]
    result = run("eval", *bare, "-a", "alphabeta", "--format", "json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["file"] for r in records] == bare
    for r in records:
        assert (r["value"], r["exact"], r["leaves"], r["leaves_total"]) == (1, True, 1, 1), r
        assert r["pv"] == [0] * DEPTH
    for algo, bound in CHAIN_BOUNDS.items():
        result = run("eval", bare[0], "-a", algo, "--bound", str(bound), "--format", "json")
        assert result.exit_code == 0, result.stderr
        r = json.loads(result.stdout)
        assert (r["value"], r["exact"]) == (1, True), r


@pytest.mark.parametrize("kind", NAMED_KINDS)
def test_100k_deep_named_chains(
    kind: str, chain_files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full form, a name on every level, read by each format's own streaming reader."""
    monkeypatch.chdir(chain_files)
    result = run("eval", chain_file(kind), "-a", "alphabeta", "-a", "sss", "--format", "json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["algorithm"] for r in records] == ["alphabeta", "sss"]
    for r in records:
        assert (r["value"], r["leaves"], len(r["pv"])) == (1, 1, DEPTH)
        assert r["pv_labels"][:2] == ["n1", "n2"] and r["pv_labels"][-2:] == [f"n{DEPTH - 1}", None]


MILLION = r"""
import json, sys
from gtsearch.algorithms import search
from gtsearch.formats import jsonfmt, load_tree, sexp, yamlfmt

kind, path = sys.argv[1:]
loaded = load_tree(path)  # the way the command line loads it (the vectorised reader first)
out = {"nodes": len(loaded), "max_depth": loaded.max_depth(), "leaf": loaded.number(len(loaded) - 1)}
searched, algorithms = loaded, ["alphabeta"]
if kind != "yaml-block":  # block YAML has no vectorised reader: load_tree streamed it already
    # the format's own streaming reader, without the vectorised shortcut
    general = {"json": jsonfmt, "sexp": sexp, "yaml": yamlfmt}[kind.split("-")[0]].parse
    streamed = general(open(path, encoding="utf-8").read(), path)
    out["same"] = streamed == loaded
    if kind == "json":  # the streaming reader's tree (no node depths), three ways
        searched, algorithms = streamed, ["alphabeta", "sss", "minimax"]
for name in algorithms:
    r = search(searched, name)
    out[name] = [r.value, r.exact, r.leaves, len(r.pv)]
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", CHAIN_KINDS)
def test_million_deep_chain_in_a_subprocess(kind: str, tmp_path: Path) -> None:
    """A 1,000,000-level chain loads and is searched, with the format's own streaming reader
    too, in a process of its own: a stack overflow would show as a negative status instead
    of taking pytest down.  (How the time grows with the depth: benchmarks/hostile.py.)"""
    path = tmp_path / chain_file(kind)
    path.write_text(chain(kind, 1_000_000), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", MILLION, kind, str(path)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    assert proc.returncode == 0, (kind, proc.returncode, proc.stderr[-2000:])
    figures = json.loads(proc.stdout)
    assert (figures.pop("nodes"), figures.pop("max_depth"), figures.pop("leaf")) == (
        1_000_001,
        1_000_000,
        1,
    )
    assert figures.pop("same", True)
    assert sorted(figures) == (["alphabeta", "minimax", "sss"] if kind == "json" else ["alphabeta"])
    for name, found in figures.items():
        assert found == [1, True, 1, 1_000_000], (name, found)


# -- YAML aliases ------------------------------------------------------------------------------
ALIAS_YAML = """\
# anchors at several levels, repeated by aliases
title: aliases
tree:
- &a [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
- [*a, &b [1, [7, 0], *a]]
- name: shared
  children: &kids [*b, [5, 5], 9]
- [*kids, *a]
- *b
"""


def _expanded() -> Any:
    a = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    b = [1, [7, 0], a]
    kids = [b, [5, 5], 9]
    return [a, [a, b], kids, [kids, a], b]


def test_aliases_evaluate_like_the_expanded_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("aliases.yaml").write_text(ALIAS_YAML, encoding="utf-8")
    Path("expanded.json").write_text(json.dumps(_expanded()), encoding="utf-8")
    tree = load_tree("aliases.yaml")
    assert tree.to_nested() == _expanded() and tree.names == {46: "shared"}
    keys = ("algorithm", "value", "exact", "pv", "leaves", "leaves_total")
    results = {}
    for name in ("aliases.yaml", "expanded.json"):
        result = run("eval", name, "-a", "all", "--format", "json")
        assert result.exit_code == 0, result.stderr
        results[name] = [
            tuple(r[k] for k in keys) for r in map(json.loads, result.stdout.splitlines())
        ]
    assert results["aliases.yaml"] == results["expanded.json"]
    assert len(results["aliases.yaml"]) == len(UNBOUNDED)
    assert results["aliases.yaml"][0][5] == Tree.from_nested(_expanded()).n_leaves == 81


def _laughs(levels: int = 10, width: int = 10, flow: bool = False) -> str:
    items = ["&a0 [" + ", ".join(["1"] * width) + "]"]
    for i in range(1, levels):
        items.append(f"&a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    if flow:
        return "[" + ", ".join(items) + "]\n"
    return "tree:\n" + "".join(f"- {item}\n" for item in items)


@pytest.mark.parametrize("flow", [False, True], ids=["block", "flow"])
def test_alias_bomb_is_refused_before_it_expands(
    flow: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten levels of ten aliases (10**10 leaves): exit 2 naming --max-nodes.

    Refused before anything expands: the load stays within 20,000 calls and 1 MiB (it takes
    about 900 calls and 10 KB), which expanding even 100,000 of its 10**10 nodes would not.
    """
    monkeypatch.chdir(tmp_path)
    Path("laughs.yaml").write_text(_laughs(flow=flow), encoding="utf-8")
    result = run("eval", "laughs.yaml")
    assert result.exit_code == 2 and result.stdout == ""
    line = assert_one_error_line(result.stderr, "laughs.yaml")
    assert "once aliases are expanded; raise --max-nodes to load it" in line
    with measured(max_calls=20_000) as work:
        with pytest.raises(TreeFormatError) as e:
            load_tree("laughs.yaml")
    assert line == f"{e.value}"
    assert work.peak < 1 << 20, work
    # the same file with a tiny limit, and a small bomb that just fits
    assert "more than 100 nodes" in run("eval", "laughs.yaml", "--max-nodes", "100").stderr
    Path("small.yaml").write_text(_laughs(levels=3, width=3, flow=flow), encoding="utf-8")
    result = run("eval", "small.yaml", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["leaves_total"] == 3 + 9 + 27


# -- node limits are checked while streaming --------------------------------------------------------
def _big_text(fmt: str, groups: int) -> str:
    """A bare tree of 4 * groups + 1 nodes, built without a list of parts."""
    if fmt == "sexp":
        return "(" + "(1 2 3) " * (groups - 1) + "(1 2 3))\n"
    sep = ", " if fmt == "yaml" else ","
    return "[" + f"[1{sep}2{sep}3]{sep}" * (groups - 1) + f"[1{sep}2{sep}3]]\n"


def _limit_error(path: Path | str, fmt: str) -> str:
    """The error of a _big_text file under --max-nodes 1000."""
    # node 1000 is the '3' of the 250th group (node 0 is the outer bracket, 4 nodes a group)
    column = {"json": 2 + 249 * 8 + 5, "sexp": 2 + 249 * 8 + 5, "yaml": 2 + 249 * 11 + 7}[fmt]
    return f"{path}:1:{column}: the tree has more than 1,000 nodes; raise --max-nodes to load it"


@pytest.mark.parametrize("fmt", ["json", "sexp", "yaml"])
def test_node_limit_fails_early_with_little_memory(
    fmt: str, tmp_path: Path, readers_imported: None
) -> None:
    """5,000,001 nodes against --max-nodes 1000: refused at the node that crosses the limit,
    with the rest of the file unread and no tree built (the vectorised reader gives way
    before it classifies a character).  How long that takes against a full load is measured
    by benchmarks/hostile.py."""
    path = tmp_path / f"big{EXT[fmt]}"
    text = _big_text(fmt, 1_250_000)
    path.write_text(text, encoding="utf-8")
    with measured(max_calls=100_000) as work:
        with pytest.raises(TreeFormatError) as e:
            load_tree(str(path), max_nodes=1000)
    assert str(e.value) == _limit_error(path, fmt)
    # the file's bytes, its text and at most one copy of it; a full load takes 20 times that
    assert work.peak < 3 * len(text) + (4 << 20), work
    # the same error when everything past the 100,000th character is cut off, broken: the
    # reader stopped at the limit (character 2,000 or so), before it could see the damage
    with pytest.raises(TreeFormatError) as e:
        loads_tree(text[:100_000] + "@", fmt, str(path), max_nodes=1000)
    assert str(e.value) == _limit_error(path, fmt)
    # the vectorised reader gives way at once: no array, no pass over the characters
    with measured(max_calls=100) as work:
        assert parse_bare(text, fmt, str(path), 1000) is None
    assert work.peak < 64 << 10, work
    # and the file is a good tree: without the limit, it loads
    assert len(load_tree(str(path))) == 5_000_001


def test_node_limit_through_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_text(_big_text("json", 1_250_000), encoding="utf-8")
    proc = subprocess.run(
        [*GTSEARCH, "eval", "big.json", "--max-nodes", "1000"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2,
        "",
        _limit_error("big.json", "json") + "\n",
    )
    assert_one_error_line(proc.stderr, "big.json")


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
def test_node_limit_error_is_the_same_in_every_reader(fmt: str) -> None:
    """The vectorised reader, the streaming reader and loads_tree name the same node."""
    text = _big_text(fmt, 30_000)  # over FAST_MIN_CHARS: loads_tree tries the vectorised reader

    def general(limit: int) -> Tree:
        return GENERAL[fmt](text, "t", max_nodes=limit)

    def registry(limit: int) -> Tree:
        return loads_tree(text, fmt, "t", max_nodes=limit)

    def vectorised(limit: int) -> Tree:
        return parse_bare(text, fmt, "t", limit) or general(limit)

    for limit in (1, 4, 999, 1000, 4 * 30_000, 4 * 30_000 + 1):
        results: list[int | str] = []
        for read in (general, registry, vectorised):
            try:
                results.append(len(read(limit)))
            except TreeFormatError as e:
                results.append(str(e))
        assert results[0] == results[1] == results[2], (limit, results)
        assert (results[0] == 4 * 30_000 + 1) == (limit > 4 * 30_000)


def test_gzip_bomb_is_refused_as_it_expands(tmp_path: Path) -> None:
    """64 MiB of blanks in 64 KiB of gzip: refused before it fills memory, in a real process."""
    import zlib

    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b" " * (1 << 20)
    with open(tmp_path / "bomb.json.gz", "wb") as f:
        f.writelines(squeeze.compress(block) for _ in range((GZIP_FREE_BYTES >> 20) + 8))
        f.write(squeeze.compress(b"[1]") + squeeze.flush())
    assert (tmp_path / "bomb.json.gz").stat().st_size < (1 << 20)
    proc = subprocess.run(
        [*GTSEARCH, "eval", "bomb.json.gz"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    line = assert_one_error_line(proc.stderr, "bomb.json.gz")
    assert f"more than {GZIP_MAX_RATIO}-fold" in line and "decompression bomb" in line
    # gzip at an ordinary ratio still loads, several members and zero padding included
    tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    body = json.dumps(tree).encode()
    (tmp_path / "ok.json.gz").write_bytes(
        gzip.compress(body[:9]) + gzip.compress(body[9:]) + b"\0" * 10
    )
    assert load_tree(str(tmp_path / "ok.json.gz")).to_nested() == tree


def test_vectorised_reader_leaves_tabs_to_yaml() -> None:
    """libyaml refuses a tab as indentation; a large text must not slip past it."""
    text = "\t[" + ", ".join(["1"] * 40_000) + "]\n"  # over FAST_MIN_CHARS
    assert parse_bare(text, "yaml", "t", 10**9) is None
    with pytest.raises(TreeFormatError) as e:
        loads_tree(text, "yaml", "t")
    assert str(e.value) == (
        "t:1:1: found character that cannot start any token while scanning for the next token"
    )
    assert loads_tree(text, "json", "t").n_leaves == 40_000  # JSON allows the tab


SCALING = r"""
import json, sys
from gtsearch.errors import TreeFormatError
from gtsearch.formats import jsonfmt, sexp, yamlfmt
from tests.work import measured

UNITS = [" ", "\n", "\t", "\r\n", "  # c\n", "; c\n", "[", "(", "- ", "1,", "1 ", "a ", "a:",
         "'a', ", '"a", ', ":0", "&a ", "*a ", "tree: ", "{a: ", "- [", "#"]
TAILS = ["x", "]", "", "#", ":", '"', "\x00"]
READERS = {"json": jsonfmt.parse, "yaml": yamlfmt.parse, "sexp": sexp.parse}
n = int(sys.argv[1])

def calls(read, text):
    with measured(memory=False) as work:
        try:
            read(text, "s", max_nodes=10**9)
        except TreeFormatError:
            pass
    return work.calls

rows = []
for fmt, read in READERS.items():
    for unit in UNITS:
        for tail in TAILS:
            small = calls(read, unit * n + tail)  # first: it also pays for any lazy import
            big = calls(read, unit * 4 * n + tail)
            rows.append((big / small, small, big, fmt, unit, tail))
rows.sort(reverse=True)
print(json.dumps(rows))
"""


def test_readers_do_linear_work_on_repeated_patterns() -> None:
    """Every reader on 1,100 and 4,400 repetitions of adversarial units (blanks, comments,
    brackets, anchors...), each with an odd ending: at most 4 times the calls, never more (a
    cost per unit that grows with the text, 16 times for a quadratic one, would show at
    once); in a process with a time limit, so that exponential backtracking fails the test
    instead of hanging it.  Both sizes lie on the same side of the 1,000 levels from which
    deep flow YAML has a reader of its own.  The times themselves: benchmarks/hostile.py."""
    proc = subprocess.run(
        [sys.executable, "-c", SCALING, "1100"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = json.loads(proc.stdout)
    assert len(rows) == 3 * 22 * 7
    over = [row for row in rows if row[2] > 4 * row[1]]
    assert not over, over[:5]


@pytest.mark.skipif(not ON_POSIX, reason="the fuzzer's hang alarm needs SIGALRM")
def test_fuzz_script_runs(tmp_path: Path) -> None:
    """scripts/fuzz.py (the long fuzzing sessions) still works: two targets, 50 inputs each."""
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "fuzz.py"),
            "--runs",
            "50",
            "--seconds",
            "100",  # only a guard: the 50 inputs take well under a second
            "--engine",
            "random",
            "--targets",
            "json,load",
            "--jobs",
            "2",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert set(summary["targets"]) == {"json", "load"}
    for target in summary["targets"].values():
        assert target["inputs"] == 50 and target["crashes"] == 0


# -- fuzzing: the vectorised reader, and the sample files ---------------------------------------
SYNTAX = {"json": ("[", "]", ","), "yaml": ("[", "]", ", "), "sexp": ("(", ")", " ")}
BARE_NOISE = {
    "json": "[],0123456789-+.eE \n",
    "yaml": "[],0123456789-+.eE \n#a",
    "sexp": "()0123456789-+.eE \n;a",
}


def bare_text(nested: Any, fmt: str) -> str:
    opening, closing, sep = SYNTAX[fmt]
    if isinstance(nested, list):
        return opening + sep.join(bare_text(c, fmt) for c in nested) + closing
    return repr(nested) if isinstance(nested, float) else str(nested)


@st.composite
def near_bare(draw: st.DrawFn, fmt: str) -> str:
    """A bare tree's text with a few characters deleted, inserted, replaced or repeated."""
    text = bare_text(draw(trees), fmt)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 4)))
        piece = draw(st.text(BARE_NOISE[fmt], min_size=1, max_size=3))
        op = draw(st.sampled_from(["delete", "insert", "replace", "repeat"]))
        text = {
            "delete": text[:i] + text[j:],
            "insert": text[:i] + piece + text[i:],
            "replace": text[:i] + piece + text[j:],
            "repeat": text[:j] + text[i:j] + text[j:],
        }[op]
    return text


@pytest.mark.parametrize("fmt", ["json", "yaml", "sexp"])
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_vectorised_reader(fmt: str, data: st.DataObject) -> None:
    """parse_bare gives a Tree equal to the general reader's, or None, or the general reader's
    own node-limit error; never anything else."""
    text = data.draw(near_bare(fmt) | st.text(BARE_NOISE[fmt], max_size=30) | st.text(max_size=10))
    limit = data.draw(st.sampled_from([10**9, 1, 2, 3, 5, 8, 13, 40]))
    try:
        fast: Any = parse_bare(text, fmt, "f", limit)
    except TreeFormatError as e:
        fast = e
    try:
        general: Any = GENERAL[fmt](text, "f", max_nodes=limit)
    except TreeFormatError as e:
        general = e
    if fast is None:
        return
    if isinstance(fast, TreeFormatError):
        assert "raise --max-nodes" in fast.message
        assert str(fast) == str(general)
    else:
        assert isinstance(fast, Tree) and fast == general, (text, general)
        assert fast.n_leaves == general.n_leaves
        assert list(fast.depth) == list(general.depth)


SAMPLES = sorted(p.name for p in SAMPLE_TREES.iterdir() if format_for_path(p.name))
NOISE = "[]{}(),:;.#&*!'\"\\-+ \n\t0123456789eE.abxyz_~|>%@`\ufeff\x00é"


@pytest.mark.parametrize("name", SAMPLES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_sample_file_mutations(name: str, data: st.DataObject) -> None:
    """Real files with a few bytes changed: a Tree or one clean TreeFormatError, nothing else."""
    raw = (SAMPLE_TREES / name).read_bytes()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw)))
        j = data.draw(st.integers(i, min(len(raw), i + 8)))
        piece = data.draw(st.text(NOISE, min_size=1, max_size=4)).encode()
        op = data.draw(st.sampled_from(["delete", "insert", "replace", "repeat", "cut", "flip"]))
        if op == "delete":
            raw = raw[:i] + raw[j:]
        elif op == "insert":
            raw = raw[:i] + piece + raw[i:]
        elif op == "replace":
            raw = raw[:i] + piece + raw[j:]
        elif op == "repeat":
            raw = raw[:j] + raw[i:j] * data.draw(st.integers(1, 50)) + raw[j:]
        elif op == "cut":
            raw = raw[:i]
        elif i < len(raw):
            raw = raw[:i] + bytes([raw[i] ^ (1 << data.draw(st.integers(0, 7)))]) + raw[i + 1 :]
    squeeze = data.draw(st.booleans())  # as gzip, and then perhaps with a byte of it broken
    fmt = find_format(format_for_path(name).name)  # type: ignore[union-attr]
    blob = gzip.compress(raw, mtime=0) if squeeze else raw
    if squeeze and data.draw(st.booleans()):
        k = data.draw(st.integers(0, len(blob) - 1))
        blob = blob[:k] + bytes([blob[k] ^ 0xFF]) + blob[k + 1 :]
    _load_bytes(blob, name + (".gz" if squeeze else ""), fmt.name)


def _load_bytes(blob: bytes, name: str, fmt: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(blob)
        try:
            tree = load_tree(str(path), input_format=fmt, max_nodes=100_000)
        except TreeFormatError as e:
            text = str(e)
            assert text.startswith(str(path)) and "\n" not in text and len(text) < 400 + len(folder)
            assert e.message[:1].islower() or e.message[:1] in "'\"", text
        else:
            assert isinstance(tree, Tree) and len(tree) >= 1


# -- the command line under Unix conditions -------------------------------------------------------
@pytest.fixture(scope="module")
def big_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A uniform tree of 87,381 nodes (b=4, d=8), as JSON."""
    path = tmp_path_factory.mktemp("big") / "big.json"
    result = run("gen", "-b", "4", "-d", "8", "--seed", "3", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


@pytest.mark.skipif(not ON_POSIX, reason="needs a POSIX shell and pipes")
@pytest.mark.parametrize(
    "command",
    [
        "eval {big} -a all --leaves --format json",
        "eval {big} -a all --format csv",
        "convert {big} --to yaml",
        "gen -b 4 -d 9 --format sexp",
        "show {big} --max-lines 3000",  # 235 KB: over a pipe's buffer and what head reads
        "trace {big} -a alphabeta",
    ],
)
def test_output_piped_into_head_ends_quietly(command: str, big_json: Path) -> None:
    """``| head -1``: the first line arrives, then no BrokenPipeError, no traceback, no noise."""
    exe = " ".join(GTSEARCH)
    script = f'{exe} {command.format(big=big_json)} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2'
    proc = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=_env(), timeout=300
    )
    assert len(proc.stdout.splitlines()) == 1
    *noise, status = proc.stderr.splitlines()
    assert noise == [], proc.stderr
    assert status in ("status 0", "status 141"), status


def _block_yaml(path: Path, b: int, d: int) -> None:
    """A uniform tree in block style (``- - - 1``), which libyaml reads event by event."""

    def lines() -> Iterator[str]:
        for i in range(b**d):
            t, j = (d - 1, 0) if i == 0 else (0, i)
            while j and j % b == 0:  # t: how many lists start at this leaf, beyond its own
                t, j = t + 1, j // b
            yield "  " * (d - t - 1) + "- " * (t + 1) + str(i % 97 - 48) + "\n"

    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines())


#: ``gtsearch`` (as ``python -m gtsearch`` runs it) whose search or YAML reader, once it has
#: started, says so on a pipe and then never ends: the one way out is an interrupt, which
#: lands in the middle of the real work, wherever the signal finds it
BUSY = r"""
import os, signal, sys
from gtsearch.cli import cli

# Python's own SIGINT handler (KeyboardInterrupt), as in a terminal, even when this process
# was started with SIGINT ignored (from a background job, say)
signal.signal(signal.SIGINT, signal.default_int_handler)

what, fd, *args = sys.argv[1:]

def busy(work):
    def forever(*a, **k):
        os.write(int(fd), b"busy\n")
        while True:
            work(*a, **k)
    return forever

if what == "search":  # the commands import run from gtsearch.algorithms when they search
    import gtsearch.algorithms as module
    module.run = busy(module.run)
else:
    import gtsearch.formats.compiled as compiled
    import gtsearch.formats.yamlfmt as module
    compiled.parse_compiled = lambda *a, **k: None  # libyaml's reading, not the C core's
    module.parse = busy(module.parse)
cli(args, prog_name="gtsearch")
"""


@pytest.mark.skipif(not ON_POSIX, reason="needs SIGINT and a pipe to the child")
@pytest.mark.parametrize("what", ["search", "yaml-load"])
def test_ctrl_c_exits_130_with_one_line(what: str, tmp_path: Path) -> None:
    """SIGINT to a busy ``gtsearch`` (searching, or reading block YAML): status 130, one line.

    The signal is sent as soon as the child says that the work has started (no polling,
    no sleeping); the work never ends by itself, so the interrupt always finds it busy.
    """
    if what == "search":
        result = run(
            "gen", "-b", "4", "-d", "6", "--order", "worst", "-o", str(tmp_path / "t.json")
        )
        assert result.exit_code == 0, result.stderr
        args = ["eval", "t.json", "-a", "sss"]
    else:
        _block_yaml(tmp_path / "block.yaml", 4, 6)
        args = ["validate", "block.yaml"]
    started, tell = os.pipe()
    with subprocess.Popen(
        [sys.executable, "-c", BUSY, what, str(tell), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        pass_fds=(tell,),
    ) as proc:
        os.close(tell)
        try:
            with open(started, "rb") as pipe:
                ready, _, _ = select.select([pipe], [], [], 120)  # a guard against a hang
                assert ready and pipe.readline() == b"busy\n", proc.poll()
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()  # nothing once it has ended
    assert (proc.returncode, out, err) == (130, "", "interrupted\n")


def test_unreadable_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Missing, a directory, a path through a file, an I/O error: one clear line each."""
    monkeypatch.chdir(tmp_path)
    Path("t.json").write_text("[1, 2]", encoding="utf-8")
    Path("d.json").mkdir()
    cases = {
        "missing.json": "missing.json: cannot read the file: no such file or directory",
        "d.json": "d.json: cannot read the file: is a directory",
        "t.json/x.json": "t.json/x.json: cannot read the file: not a directory",
    }
    if Path("/proc/self/mem").exists():  # unreadable even for root: reading address 0 fails
        cases["/proc/self/mem"] = "/proc/self/mem: cannot read the file: input/output error"
    for path, line in cases.items():
        for command in ("eval", "validate", "convert"):
            args = [command, path] + (["--to", "json"] if command == "convert" else [])
            result = run(*args, "--input-format", "json")
            assert (result.exit_code, result.stdout) == (2, ""), (path, command)
            assert result.stderr == line + "\n", (path, command, result.stderr)
    result = run("eval", "t.json", "missing.json", "--format", "json")
    assert result.exit_code == 2 and json.loads(result.stdout)["value"] == 2


@pytest.mark.skipif(
    not ON_POSIX or os.geteuid() == 0,
    reason="root reads files whatever their mode (see /proc/self/mem above)",
)
def test_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("secret.json").write_text("[1]", encoding="utf-8")
    os.chmod("secret.json", 0)
    result = run("eval", "secret.json")
    assert result.exit_code == 2
    assert result.stderr == "secret.json: cannot read the file: permission denied\n"


@pytest.mark.skipif(not ON_POSIX, reason="needs a POSIX shell")
def test_standard_input_empty_or_closed() -> None:
    exe = " ".join(GTSEARCH)
    for stdin, line in (
        ("</dev/null", "<stdin>:1:1: the file is empty"),
        ("<&-", "<stdin>: cannot read standard input: it is closed"),
    ):
        for command in ("eval -", "validate -", "convert - --to json"):
            proc = subprocess.run(
                ["sh", "-c", f"exec {exe} {command} {stdin}"],
                capture_output=True,
                text=True,
                env=_env(),
                timeout=60,
            )
            assert (proc.returncode, proc.stdout) == (2, ""), (command, stdin, proc.stderr)
            assert proc.stderr == line + "\n", (command, stdin, proc.stderr)


@pytest.mark.skipif(not ON_POSIX, reason="needs a POSIX shell")
def test_standard_output_closed(big_json: Path, tmp_path: Path) -> None:
    """``>&-``: output that cannot be written is an error (one line, exit 2), never lost silently.

    A command with nothing to write to standard output still succeeds.
    """
    exe = " ".join(GTSEARCH)
    for command in (
        f"eval {big_json} -a all",
        f"validate {big_json}",
        "--version",
        "--help",
        f"convert {big_json} --to yaml",
    ):
        proc = subprocess.run(
            ["sh", "-c", f"exec {exe} {command} >&-"],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=120,
        )
        assert (proc.returncode, proc.stderr) == (2, "<stdout>: cannot write: it is closed\n"), (
            command,
            proc.stderr,
        )
    out = tmp_path / "out.yaml"
    proc = subprocess.run(
        ["sh", "-c", f"exec {exe} convert {big_json} -o {out} >&-"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert (proc.returncode, proc.stderr) == (0, "") and out.stat().st_size > 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_standard_output_full(big_json: Path) -> None:
    """A full disk (``> /dev/full``): one line saying so, exit 2, no traceback."""
    for args in (["eval", str(big_json), "-a", "all"], ["--version"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run(
                [*GTSEARCH, *args],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                env=_env(),
                timeout=120,
            )
        assert (proc.returncode, proc.stderr) == (
            2,
            "<stdout>: cannot write: no space left on device\n",
        ), (args, proc.stderr)


ANSI = re.compile(r"\x1b\[")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|9[0-7]|4[0-9]|10[0-7])(?:;[0-9;]*)?m")


@pytest.mark.parametrize(
    "args",
    [
        ["eval", "{t}", "--format", "table"],
        ["eval", "{t}", "-a", "all"],
        ["algorithms"],
        ["validate", "{t}"],
        ["show", "{t}"],
        ["trace", "{t}"],
        ["eval", "missing.json"],
        ["eval", "{t}", "--bound", "nan"],
        ["--help"],
        ["eval", "-h"],
    ],
)
@pytest.mark.parametrize("no_color", [False, True], ids=["plain", "NO_COLOR"])
def test_no_escapes_off_a_terminal(args: list[str], no_color: bool, tmp_path: Path) -> None:
    """Standard output and error are pipes: plain text, whatever TERM says."""
    (tmp_path / "t.json").write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", encoding="utf-8")
    env = _env(TERM="xterm-256color", **({"NO_COLOR": "1"} if no_color else {}))
    if not no_color:
        env.pop("NO_COLOR", None)
    proc = subprocess.run(
        [*GTSEARCH, *(a.format(t="t.json") for a in args)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.stdout or proc.stderr
    assert not ANSI.search(proc.stdout + proc.stderr), (proc.stdout + proc.stderr)[:500]


@pytest.mark.skipif(not ON_POSIX, reason="needs a pseudo-terminal")
@pytest.mark.parametrize(
    "args",
    [
        ["eval", "t.json", "--format", "table"],
        ["algorithms"],
        ["show", "t.json"],
        ["eval", "missing.json"],
    ],
)
def test_no_colour_on_a_terminal_with_no_color(args: list[str], tmp_path: Path) -> None:
    import pty

    (tmp_path / "t.json").write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", encoding="utf-8")
    env = _env(TERM="xterm-256color", COLUMNS="100", NO_COLOR="1")
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [*GTSEARCH, *args], cwd=tmp_path, stdout=follower, stderr=follower, env=env, timeout=60
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    out = b"".join(chunks).decode("utf-8")
    assert out.strip()
    assert proc.returncode in (0, 2)
    assert not COLOUR.search(out), out  # bold may stay: NO_COLOR is about colour


# -- bounds and windows that make no sense ---------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["--alpha", "5", "--beta", "2"], "needs alpha < beta"),
        (["--alpha", "3", "--beta", "3.0"], "needs alpha < beta"),
        (["-a", "minimax", "--bound", "2"], "drop --bound or choose one of those with --algo"),
        (["-a", "alphabeta", "--bound", "2"], "drop --bound"),
        (["-a", "sss", "--alpha", "1"], "drop them or choose alphabeta"),
        (["-a", "dual", "--beta", "1"], "drop them or choose alphabeta"),
        (["-a", "sss-bounded"], "add --bound V"),
        (["-a", "dual-bounded"], "add --bound V"),
        *[
            ([option, value], f"{option} takes a finite number such as 3 or -2.5")
            for option in ("--bound", "--alpha", "--beta", "--expect")
            for value in ("abc", "nan", "inf", "-inf", "1e400", "-1e400", "", "0x10", "3,5")
        ],
        (["-a", ""], "names no algorithm"),
        (["-a", "nosuch"], "unknown algorithm"),
        (["--max-nodes", "0"], "--max-nodes must be 1 or more, got 0"),
        (["--depth", "-1"], "--depth must be 0 or more, got -1"),
        (["--root", "both"], "'max', 'min'"),
    ],
)
def test_nonsense_options_are_usage_errors(
    args: list[str], hint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.json").write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", encoding="utf-8")
    if args[0] in ("--bound",):
        args = ["-a", "f1", *args]
    result = run("eval", "t.json", *args)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert hint in " ".join(result.stderr.split()), result.stderr
