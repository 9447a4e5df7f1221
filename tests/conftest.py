"""Shared fixtures (the sample_trees directory, the complete tic-tac-toe game tree), the tests
that need an optional extra (the ``extra`` mark), and how pytest-xdist shares the tests out
(pytest_xdist_make_scheduler)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

# pytest-xdist's workers inherit COLUMNS=80, which would fold every table written off a
# terminal; tests that want a width set it themselves
os.environ.pop("COLUMNS", None)
# in GitHub Actions every error line would have an annotation after it; tests that want one say so
os.environ.pop("GITHUB_ACTIONS", None)

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_TREES = ROOT / "sample_trees"


def load_script(name: str) -> ModuleType:
    """Import scripts/<name>.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        f"_scripts_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- tests that need more than the test extra -------------------------------------------------
#: what each optional extra of pyproject.toml (and each Debian package a test drives) brings:
#: the modules it makes importable and the programs it puts on the machine
EXTRAS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "plot": (("matplotlib",), (), "pip install -e '.[plot]'"),
    "browser": (("playwright",), ("/usr/bin/chromium",), "pip install -e '.[browser]'; "
                "apt-get install chromium"),
    "svg": (("cairosvg", "PIL"), (), "pip install -e '.[svg]'"),
    "notebook": (("nbclient", "nbformat", "ipykernel"), (), "pip install -e '.[notebook]'"),
    "gambit": (("pygambit",), (), "pip install -e '.[gambit]'"),
    "dask": (("dask.distributed",), (), "pip install -e '.[dask]'"),
    "openspiel": (("pyspiel",), (), "pip install -e '.[openspiel]'"),
    "peers": (("easyAI",), (), "pip install -e '.[peers]'"),
    "latex": ((), ("pdflatex",), "apt-get install texlive-latex-base "
              "texlive-latex-recommended texlive-pictures"),
    "rsvg": ((), ("rsvg-convert",), "apt-get install librsvg2-bin"),
    # MuPDF's mutool reads back the PDF Chromium prints (tests/test_worksheet.py)
    "pdf": ((), ("mutool",), "apt-get install mupdf-tools"),
    # the GIFT parser gift-pegjs (npm), in the folder GTSEARCH_GIFT_PEGJS names
    "gift": ((), ("node",), "npm install --prefix FOLDER gift-pegjs; "
             "export GTSEARCH_GIFT_PEGJS=FOLDER"),
}  # fmt: skip
#: extras that are more than modules and programs: where they must be found
EXTRA_FOLDERS = {"gift": ("GTSEARCH_GIFT_PEGJS", "node_modules/gift-pegjs")}
#: set by .ci/run once it has installed every extra: a test that would be skipped for want of
#: one fails instead, so that an install step that went missing turns CI red
REQUIRE_EXTRAS = os.environ.get("GTSEARCH_REQUIRE_EXTRAS") == "1"


def missing_extra(extra: str) -> str | None:
    """Why the tests of ``extra`` cannot run here (a module or a program is missing), or None."""
    modules, programs, install = EXTRAS[extra]
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as e:
            return f"the extra {extra!r} is not installed ({e}; {install})"
    for program in programs:
        if shutil.which(program) is None:
            return f"{program} is missing, needed by the tests of {extra!r} ({install})"
    if extra in EXTRA_FOLDERS:
        variable, inside = EXTRA_FOLDERS[extra]
        folder = os.environ.get(variable)
        if not folder or not (Path(folder) / inside).is_dir():
            return f"{variable} names no folder holding {inside} ({install})"
    return None


def need_extra(extra: str) -> None:
    """Skip the calling test (or module) when ``extra`` is missing; under
    GTSEARCH_REQUIRE_EXTRAS=1, fail instead."""
    reason = missing_extra(extra)
    if reason is None:
        return
    if REQUIRE_EXTRAS:
        pytest.fail(f"{reason}, and GTSEARCH_REQUIRE_EXTRAS=1 requires it", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


@pytest.hookimpl(tryfirst=True)  # before the test's fixtures are set up
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``@pytest.mark.extra("plot", ...)`` runs only where those extras are."""
    for mark in item.iter_markers("extra"):
        for extra in mark.args:
            need_extra(extra)


def _uses_tictactoe(nodeid: str) -> bool:
    return "::test_tictactoe" in nodeid


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: a hook of pytest-xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's ``--dist load`` (the default with ``-n``), with two changes.

    - Tests go to the workers one at a time as they free up (``--maxschedchunk 1`` unless
      given): the slow tests lie together in the collection (the deep chains of
      test_hostile.py), and in xdist's usual chunks of up to a quarter of the suite they
      went to one worker while the other ran out of work.
    - The tests of the tic-tac-toe tree (``test_tictactoe`` in their names) go to one worker
      together, so that the tree (about 9 seconds) is built once, not once per worker.
      (``--dist loadgroup`` would do it with marks, but pytest-xdist 3.8 loses the groups
      under pytest 9: pytest-dev/pytest-xdist#1386.)

    Any other ``--dist`` is left alone.
    """
    if config.getoption("dist") != "load":
        return None
    try:
        from xdist.scheduler import LoadScheduling
    except ImportError:  # a pytest-xdist without it: its own scheduler
        return None

    class OneByOneTicTacToeTogether(LoadScheduling):  # type: ignore[misc]
        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            if self.maxschedchunk is None:
                self.maxschedchunk = 1

        def _send_tests(self, node: Any, num: int) -> None:
            chunk, rest = self.pending[:num], self.pending[num:]
            if any(_uses_tictactoe(self.collection[i]) for i in chunk):
                chunk += [i for i in rest if _uses_tictactoe(self.collection[i])]
                rest = [i for i in rest if not _uses_tictactoe(self.collection[i])]
            self.pending[:] = rest
            if chunk:
                self.node2pending[node].extend(chunk)
                node.send_runtest_some(chunk)

    return OneByOneTicTacToeTogether(config, log)


@pytest.fixture(scope="session")
def sample_trees() -> Path:
    """The sample_trees/ directory."""
    return SAMPLE_TREES


@pytest.fixture(scope="session")
def gen_tictactoe() -> ModuleType:
    """scripts/gen_tictactoe.py, imported."""
    return load_script("gen_tictactoe")


@pytest.fixture(scope="session")
def tictactoe_path(gen_tictactoe: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The complete tic-tac-toe tree, written once per session (named s-expression, gzipped).

    It is generated rather than committed: 1.7 MB of gzip for a file that the
    script writes in a few seconds.  The s-expression is the quickest of the
    three formats to load at this size (549,946 named nodes).
    """
    path = tmp_path_factory.mktemp("tictactoe") / "tictactoe.sexp.gz"
    gen_tictactoe.write(str(path))
    return path


@pytest.fixture(scope="session")
def tictactoe(tictactoe_path: Path) -> Any:
    """The tic-tac-toe tree as gtsearch loads it (549,946 nodes, 255,168 leaves, value 0)."""
    from gtsearch.formats import load_tree

    return load_tree(str(tictactoe_path))


@pytest.fixture(scope="session")
def tictactoe_nested(gen_tictactoe: ModuleType) -> list[Any]:
    """The same tree as nested lists of leaf values, built from the game, not from a file."""
    stack: list[list[Any]] = [[]]
    for ev in gen_tictactoe.events():
        if ev[0] == "open":
            stack.append([])
        elif ev[0] == "leaf":
            stack[-1].append(ev[2])
        else:
            node = stack.pop()
            stack[-1].append(node)
    (root,) = stack[0]
    return root
