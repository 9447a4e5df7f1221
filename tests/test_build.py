"""setup.py's build of the C core: the flags it adds when CFLAGS replace Python's own.

The build itself is not run here (CI builds the core with -Werror before the tests, and a
compile takes longer than the rest of this file): setup.py's build_ext is driven with a
stand-in compiler, and the flags it hands on are read off the extension.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
import setuptools
from setuptools import Extension
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent.parent


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
