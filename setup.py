"""Build gtsearch's optional C core (gtsearch._native._core) beside the pure-Python reference.

The metadata lives in pyproject.toml; this file only declares the extension.  When the
extension cannot be built (no C compiler, no Python headers), the install goes on with a
one-line warning and the pure-Python core runs (``gtsearch --version`` says which).
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
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
        print(
            f"WARNING: gtsearch's C core was not built ({reason}); the pure-Python core will run",
            file=sys.stderr,
        )


setup(
    ext_modules=[
        Extension(
            "gtsearch._native._core",
            sources=SOURCES,
            depends=HEADERS,
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
