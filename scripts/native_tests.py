"""Tests against a special build of the C core: sanitized with faults, or measured by gcov.

The C core is built by gcc from gtsearch/_native into a copy of the tree (so that nothing else
imports it), and the tests named run there:

``--faults`` (CI's step 3): the test build, -DGTSEARCH_FAULTS (allocations that fail and
ticks that are interrupted on demand, gtsearch/_native/faults.c) under AddressSanitizer,
LeakSanitizer and UndefinedBehaviorSanitizer.  The interpreter is not instrumented: libasan
is preloaded, and LeakSanitizer reports what the C core leaks (the blocks it allocates
itself) while the interpreter's own allocations, which it keeps until the process ends, are
left out (``leak:`` suppressions of CPython's allocators).  tests/test_faults.py must run
there (GTSEARCH_FAULTS_REQUIRED=1).

``--coverage`` (CI's step 5): the test build with gcc's --coverage at -O0, the tests run,
then gcovr measures the lines and branches of gtsearch/_native (faults.c, the test build's
own machinery, left out), writes the figures to WORKDIR/c-coverage.json and prints them;
scripts/coverage_check.py --c checks them against pyproject.toml's thresholds.

Examples:
  python scripts/native_tests.py --faults tests/test_native.py tests/test_faults.py
  python scripts/native_tests.py --coverage --workdir /tmp/ccov tests/test_native.py ...
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


# scripts/native_build.py, beside this script (scripts/ is not a package, and the tests load
# this script by its path)
sys.path.insert(0, str(REPO / "scripts"))
import native_build  # noqa: E402

#: what the tests read besides the package (the whole suite: the docs, the scripts, the build)
COPIED = (
    "gtsearch",
    "tests",
    "scripts",
    "sample_trees",
    "fuzz",
    "docs",
    "benchmarks",
    ".ci",
    ".pre-commit-hooks.yaml",
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "CHANGELOG.md",
)
SANITIZE = [
    "-O1",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
]
#: the interpreter's allocators: what it holds at exit is its own (see the docstring); and
#: setproctitle's copy of the command line
SUPPRESSED = (
    "_PyObject_Malloc",
    "_PyObject_Calloc",
    "_PyObject_Realloc",
    "_PyMem_RawMalloc",
    "_PyMem_RawCalloc",
    "_PyMem_RawRealloc",
    "PyThread_allocate_lock",
    "_PyBytes_Resize",
    # CPython's in-place string resize (resize_compact, under PyUnicode_Resize and the
    # in-place concatenation): a 588-byte string left at the exit of a process interrupted
    # in a C search with a daemon thread alive (tests/test_native.py); never the core's
    "resize_compact",
    "save_ps_display_args",  # setproctitle (pytest-xdist names its workers)
)


def build(copy: Path, coverage: bool) -> None:
    """The test build of the C core, into copy/gtsearch/_native: each source compiled on its
    own, as many at once as there are cores (scripts/native_build.py), then linked."""
    native = copy / "gtsearch" / "_native"
    for old in native.glob("*.so"):
        old.unlink()
    include = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    flags = ["--coverage", "-O0"] if coverage else SANITIZE
    warnings = os.environ.get("CFLAGS", "-Wall -Wextra").split()
    native_build.build(
        "gcc",
        ["-fPIC", "-g", "-DGTSEARCH_FAULTS", *flags, *warnings, f"-I{include}"],
        native_build.sources(native),
        copy / "objects",
        native / f"_core{suffix}",
        ["-shared"],
        cwd=native,
    )


def run_tests(copy: Path, tests: list[str], coverage: bool, jobs: str) -> int:
    env = dict(os.environ, GTSEARCH_FAULTS_REQUIRED="1")
    env.pop("GTSEARCH_PURE", None)
    env.pop("COVERAGE_PROCESS_START", None)
    if not coverage:
        libasan = subprocess.run(
            ["gcc", "-print-file-name=libasan.so"], check=True, capture_output=True, text=True
        ).stdout.strip()
        suppressions = copy / "lsan.supp"
        suppressions.write_text("".join(f"leak:{name}\n" for name in SUPPRESSED))
        env["LD_PRELOAD"] = libasan
        env["ASAN_OPTIONS"] = "detect_leaks=1"
        env["LSAN_OPTIONS"] = f"suppressions={suppressions}:print_suppressions=0"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", jobs, *tests]
    return subprocess.run(command, cwd=copy, env=env).returncode


def measure(copy: Path, workdir: Path) -> int:
    """gcovr's figures of gtsearch/_native, printed and kept in workdir/c-coverage.json."""
    out = workdir / "c-coverage.json"
    common = [
        "gcovr",
        "--root",
        str(copy),
        "--filter",
        "gtsearch/_native/",
        "--exclude",
        ".*faults\\.c",
        "--exclude-unreachable-branches",
        # the fault walks run the rules' perft again for every allocation they fail: a line of
        # Othello's moves is hit some 10**10 times, real counts past gcovr's default of 2**32
        "--gcov-suspicious-hits-threshold",
        str(2**44),
    ]
    subprocess.run(
        [
            *common,
            "--print-summary",
            "--txt",
            str(workdir / "c-coverage.txt"),
            "--json-summary",
            str(out),
        ],
        check=True,
        cwd=copy,
    )
    print((workdir / "c-coverage.txt").read_text())
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--faults", action="store_true", help="sanitized test build (CI step 3)")
    mode.add_argument("--coverage", action="store_true", help="gcov build, then gcovr")
    parser.add_argument("--workdir", type=Path, help="keep the copy and the figures here")
    parser.add_argument("-n", "--jobs", default="auto", help="pytest-xdist workers")
    parser.add_argument("tests", nargs="+", help="test files, and pytest's options after --")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="gtsearch-native-"))
    copy = workdir / "tree"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir(parents=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, copy / name)
    started = time.monotonic()
    build(copy, args.coverage)
    print(f"native_tests: the test build in {time.monotonic() - started:.1f} s", file=sys.stderr)
    status = run_tests(copy, args.tests, args.coverage, args.jobs)
    if status == 0 and args.coverage:
        status = measure(copy, workdir)
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
