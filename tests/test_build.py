"""setup.py's build: the flags it adds when CFLAGS replace Python's own; the sdist and the wheel.

The C core's build is not run here (CI builds the core with -Werror before the tests, and
a compile takes longer than the rest of this file): setup.py's build_ext is driven with a
stand-in compiler, and the flags it hands on are read off the extension.  The packages are
built for real without a compiler (CC=false): what the sdist and the wheel carry, the one
line that says the pure core was installed, the README's first command from the wheel.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest
import setuptools
from setuptools import Extension
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the README's first command: set up, then evaluate a sample
README_FIRST = README.split("```\n", 2)[1].split("&& ", 1)[1].strip()


class _Compiler:
    def __init__(self, flags: list[str], kind: str = "unix") -> None:
        self.compiler_so = ["gcc", *flags]
        self.compiler_type = kind


def flags_added(monkeypatch: pytest.MonkeyPatch, flags: list[str], kind: str = "unix") -> list[str]:
    """The compile arguments that setup.py's build_ext gives the core with these CFLAGS."""
    declared: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: declared.update(kw))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
    built: list[list[str]] = []
    monkeypatch.setattr(
        build_ext, "build_extension", lambda self, ext: built.append(ext.extra_compile_args)
    )
    command = declared["cmdclass"]["build_ext"].__new__(declared["cmdclass"]["build_ext"])
    command.compiler = _Compiler(flags, kind)
    (ext,) = declared["ext_modules"]
    assert isinstance(ext, Extension) and ext.optional
    ext.extra_compile_args = []
    command.build_extension(ext)
    return built[0]


def test_cflags_without_a_level_get_pythons_own_o3_and_fwrapv(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CFLAGS="-Wall -Wextra -Werror" (as .ci/run sets) replace Python's -O3 -fwrapv: both are
    put back, so that CI's core runs as fast as a plain install's (without -fwrapv, or at -O2,
    SSS* and DUAL* took 10 to 15 % longer: benchmarks/README.md)."""
    assert flags_added(monkeypatch, ["-Wall", "-Wextra", "-Werror", "-fPIC"]) == ["-O3", "-fwrapv"]


def test_cflags_that_choose_are_obeyed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level or a wrapping rule that CFLAGS name is theirs (the sanitizer build's -O1)."""
    assert flags_added(monkeypatch, ["-O1", "-fPIC"]) == ["-fwrapv"]
    assert flags_added(monkeypatch, ["-O2", "-fno-wrapv"]) == []
    assert flags_added(monkeypatch, ["-Wsign-compare", "-DNDEBUG", "-fwrapv", "-O3"]) == []


def test_other_compilers_get_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """MSVC's flags are its own: nothing is added."""
    assert flags_added(monkeypatch, ["/W3"], kind="msvc") == []


# -- the sdist and the wheel, built for real -------------------------------------------------
def in_a_terminal(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run ``command`` with a pseudo-terminal as its controlling terminal (as pip runs in a
    shell); its exit status and what the terminal showed."""
    import fcntl
    import os
    import pty
    import subprocess
    import termios

    leader, follower = pty.openpty()

    def own_the_terminal() -> None:
        fcntl.ioctl(1, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
        preexec_fn=own_the_terminal,
    )
    os.close(follower)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: every writer of the terminal is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return proc.wait(timeout=300), shown.decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.mark.slow  # an sdist, a wheel and an install: about ten seconds, no compiler run
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal (pty)")
def test_the_packages_carry_the_samples_and_a_pure_install_says_so(tmp_path: Path) -> None:
    """The sdist carries sample_trees/ and docs/ (the README's links and pictures); the wheel
    built from it without a compiler (CC=false) says so on pip's terminal in one line without
    -v, ships the samples in the package, and the README's first command runs from it in an
    empty folder under the pure core."""
    import os
    import subprocess
    import tarfile
    import zipfile

    dist = tmp_path / "dist"
    build = [sys.executable, "-c", "from setuptools import build_meta as b; b.build_sdist(%r)"]
    subprocess.run([*build[:2], build[2] % str(dist)], cwd=ROOT, check=True, capture_output=True)
    (sdist,) = dist.glob("gtsearch-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        tar.extractall(tmp_path / "src", filter="data")
    samples = {p.name for p in (ROOT / "sample_trees").iterdir() if p.is_file()}
    assert {f"sample_trees/{s}" for s in samples} <= names
    linked = {m for m in re.findall(r"\]\((docs/[^)#]+)", README)}
    assert linked and linked <= names, linked - names
    assert {"docs/commands.md", "docs/sources.md"} <= names

    env = {**os.environ, "CC": "false", "PIP_NO_INDEX": "1"}
    env.pop("PIP_VERBOSE", None)
    (src,) = (tmp_path / "src").iterdir()
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    status, shown = in_a_terminal([*pip, "-w", str(wheels), str(src)], tmp_path, env)
    assert status == 0, shown
    said = [line for line in shown.splitlines() if "C core was not built" in line]
    assert len(said) == 1 and "the pure-Python core is installed" in said[0], shown
    (wheel,) = wheels.glob("gtsearch-*.whl")
    with zipfile.ZipFile(wheel) as whl:
        inside = set(whl.namelist())
    assert {f"gtsearch/sample_trees/{s}" for s in samples} <= inside
    assert not [n for n in inside if "_native/_core" in n and not n.endswith(".pyi")]

    target, empty = tmp_path / "installed", tmp_path / "empty"
    empty.mkdir()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), wheel],
        check=True,
        capture_output=True,
        env=env,
    )
    env["PYTHONPATH"] = str(target)
    env.pop("GTSEARCH_PURE", None)
    command = [sys.executable, "-m", "gtsearch"]
    version = subprocess.run([*command, "--version"], cwd=empty, env=env, capture_output=True)
    assert version.stdout.decode().endswith("(core: pure Python)\n"), version
    first = README_FIRST.split("gtsearch ", 1)[1].split()
    r = subprocess.run([*command, *first], cwd=empty, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    record = json.loads(r.stdout)
    assert (record["value"], record["pv_labels"], record["leaves"]) == (3, ["B", "b1"], 7)
    where = subprocess.run(
        [sys.executable, "-c", "import gtsearch; print(gtsearch.__file__)"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(target)), where.stdout
