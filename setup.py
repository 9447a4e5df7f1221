"""Build gtsearch's optional C core (gtsearch._native._core) beside the pure-Python reference.

The metadata lives in pyproject.toml; this file only declares the extension.  When the
extension cannot be built (no C compiler, no Python headers), the install goes on with a
one-line warning, shown on pip's terminal even without -v, and the pure-Python core runs
(``gtsearch --version`` says which).  build_py ships sample_trees/ in the package.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

SOURCES = sorted(str(p.as_posix()) for p in Path("gtsearch/_native").glob("*.c"))
HEADERS = sorted(str(p.as_posix()) for p in Path("gtsearch/_native").glob("*.h"))
FAILURES = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compilation into one warning line instead of an error."""

    def run(self) -> None:
        try:
            super().run()
        except FAILURES as e:
            self._warn(e)

    def build_extension(self, ext: Extension) -> None:
        # CFLAGS in the environment (-Wall -Wextra -Werror, as .ci/run sets) take the place
        # of Python's own flags, -O3 and -fwrapv among them: without a level of its own the
        # core would build unoptimised, two to three times slower, and without -fwrapv (or at
        # -O2) SSS* and DUAL* run 10 to 15 % slower than in a plain install.  Both are put back.
        compiler = getattr(self.compiler, "compiler_so", None) or []
        if self.compiler.compiler_type == "unix":
            extra: list[str] = []
            if not any(flag.startswith("-O") for flag in compiler[1:]):
                extra.append("-O3")
            if "-fwrapv" not in compiler[1:] and "-fno-wrapv" not in compiler[1:]:
                extra.append("-fwrapv")
            ext.extra_compile_args = [*ext.extra_compile_args, *extra]
        try:
            super().build_extension(ext)
        except FAILURES as e:
            self._warn(e)

    @staticmethod
    def _warn(e: BaseException) -> None:
        reason = " ".join(str(e).split()) or type(e).__name__
        if len(reason) > 160:
            reason = reason[:157] + "..."
        line = (
            f"WARNING: gtsearch's C core was not built ({reason}); the pure-Python core is "
            "installed ('gtsearch --version' says which core runs)"
        )
        print(line, file=sys.stderr)
        tell_the_terminal(line)


def tell_the_terminal(line: str) -> None:
    """Show ``line`` on the terminal that pip runs in: pip keeps a build's output to itself
    unless -v is given (or the build fails), and a core that was not built is no failure."""
    if sys.stderr.isatty():  # the build writes to the terminal itself (setup.py, pip -v ...)
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(line + "\n")
    except OSError:  # no terminal (CI, a pipe, Windows): stderr alone has the line
        pass


class BuildPyWithSamples(build_py):
    """build_py that ships the repository's sample_trees/ inside the package
    (gtsearch/sample_trees/), so that ``sample:NAME`` works after ``pip install``
    (gtsearch/samples.py); a clone reads sample_trees/ itself, the one copy kept."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the repository's own
            return
        target = Path(self.build_lib) / "gtsearch" / "sample_trees"
        self.mkpath(str(target))
        for sample in sorted(Path("sample_trees").iterdir()):
            if sample.is_file():
                self.copy_file(str(sample), str(target / sample.name))


setup(
    ext_modules=[
        Extension(
            "gtsearch._native._core",
            sources=SOURCES,
            depends=HEADERS,
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithSamples},
)
