"""The C core's special builds, compiled a file at a time, in parallel, and kept.

scripts/native_tests.py (the sanitized test build, the gcov build) and scripts/fuzz_native.py
(the libFuzzer harness) compile every source of gtsearch/_native with flags of their own.  One
compiler command over every file runs on one core; here each source is compiled to an object
of its own, as many at once as the machine has cores, and the objects are linked.

An object is named by a digest of what makes it: the compiler, its version and its flags,
the source and every header beside it (gtsearch/_native's).  In a folder that is kept
(``--workdir``), a second build compiles only what changed, and links only when an object did:
a second reader fuzzed, or the same build run again, starts at once.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NATIVE = REPO / "gtsearch" / "_native"


def sources(native: Path = NATIVE) -> list[Path]:
    """The C core's sources, in order."""
    return sorted(native.glob("*.c"))


def _digest(compiler: str, version: str, flags: list[str], source: Path) -> str:
    h = hashlib.sha256()
    h.update("\0".join([compiler, version, *flags]).encode())
    for path in [source, *sorted(source.parent.glob("*.h"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def build(
    compiler: str,
    flags: list[str],
    files: list[Path],
    objects: Path,
    output: Path,
    link: list[str],
    jobs: int | None = None,
    cwd: Path | None = None,
) -> Path:
    """``output`` linked from ``files`` compiled with ``flags`` into ``objects`` (kept there,
    named by their digest, and reused); ``link`` are the flags of the link alone.  At most
    ``jobs`` compilers run at once (default: the machine's cores)."""
    objects.mkdir(parents=True, exist_ok=True)
    version = subprocess.run(
        [compiler, "--version"], check=True, capture_output=True, text=True
    ).stdout
    wanted = [(f, objects / f"{f.stem}-{_digest(compiler, version, flags, f)}.o") for f in files]

    def compile_one(pair: tuple[Path, Path]) -> None:
        source, obj = pair
        try:
            subprocess.run(
                [compiler, "-c", *flags, str(source), "-o", str(obj)], check=True, cwd=cwd
            )
        except BaseException:  # a failed or interrupted compile leaves no object to reuse
            obj.unlink(missing_ok=True)
            raise

    missing = [pair for pair in wanted if not pair[1].exists()]
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        list(pool.map(compile_one, missing))  # list(): an error of any compile is raised here
    stamp = output.with_name(output.name + ".objects")
    made_of = "\n".join([*(str(obj) for _, obj in wanted), *link])
    if missing or not output.exists() or not stamp.exists() or stamp.read_text() != made_of:
        command = [compiler, *flags, *(str(obj) for _, obj in wanted), *link, "-o", str(output)]
        subprocess.run(command, check=True, cwd=cwd)
        stamp.write_text(made_of)
    return output
