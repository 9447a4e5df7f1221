"""Coverage-guided fuzzing of the C readers with libFuzzer, under AddressSanitizer and UBSan.

Builds fuzz/harness.c with every source of gtsearch/_native by clang -fsanitize=fuzzer,
address,undefined (Python embedded: the harness compares each tree the C reader takes with
the format's Python reader, fuzz/oracle.py), then fuzzes each reader in turn: ``json``
(load_mapping.c), ``yaml`` (load_mapping.c and load_block.c, flow and block YAML), ``sexp``
(load_sexp.c) and ``efg`` (load_efg.c, Gambit's .efg).  The seeds are sample_trees/,
tests/cases/ and fuzz/corpus/<reader>/; the dictionary is scripts/fuzz.py's tokens and a few
of block YAML's.

A crash (a sanitizer report, an exception out of the C reader), a disagreement with the
Python reader or an input running past 20 seconds stops that reader: libFuzzer keeps the
input under WORKDIR/crashes/ and the exit status is 1.  At the end a table gives, per reader,
the executions, libFuzzer's coverage (edges and features of the instrumented C core), the
inputs the C reader took (each compared) and the crashes.  ``--coverage`` then replays each
reader's corpus through a build with clang's source coverage and reports the lines and
branches of the reader's file that the corpus reaches.

Needs clang with its libFuzzer and sanitizer runtimes (Debian: clang, libclang-rt-dev or
libclang-rt-14-dev) and, for --coverage, llvm-profdata and llvm-cov (Debian: llvm).

Examples:
  python scripts/fuzz_native.py --seconds 30                 # CI: half a minute per reader
  nice -n 19 python scripts/fuzz_native.py --runs 10000000 --workdir fuzz-work --coverage
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import os
import re
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

#: the C files of each reader
READERS = {
    "json": ("load_mapping.c",),
    "yaml": ("load_mapping.c", "load_block.c"),
    "sexp": ("load_sexp.c",),
    "efg": ("load_efg.c",),
}
SUFFIXES = {
    "json": (".json",),
    "yaml": (".yaml", ".yml", ".json"),  # JSON is flow YAML
    "sexp": (".sexp", ".lisp", ".scm", ".sx"),
    "efg": (".efg",),
}
#: block YAML's own tokens, beside scripts/fuzz.py's: indentation, entries, block scalars
BLOCK_TOKENS = ["\n  ", "\n- ", "\n  - ", "-\n", ":\n", "children:\n", "tree:\n", "---\n"]
BLOCK_TOKENS += [" >-\n  ", " |\n  ", " >\n   ", "\n\n", "- - ", "  # ", "'", "1.0e+3"]
MAX_LEN = 4096
HANG_SECONDS = 20


def tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    sys.exit(f"fuzz_native: {names[0]} not found (Debian: apt-get install clang llvm)")


def build(work: Path, coverage: bool) -> Path:
    """The harness and the C core in one binary: fuzzing, or source coverage for replays.

    Each source is compiled on its own, as many at once as there are cores, into
    WORKDIR/objects, where a kept workdir keeps them: a second run compiles only the files that
    changed (scripts/native_build.py)."""
    include = sysconfig.get_paths()["include"]
    libdir = sysconfig.get_config_var("LIBDIR")
    library = "python" + sysconfig.get_config_var("LDVERSION")
    sanitize = "-fsanitize=fuzzer" if coverage else "-fsanitize=fuzzer,address,undefined"
    flags = ["-fprofile-instr-generate", "-fcoverage-mapping"] if coverage else []
    out = work / ("harness-coverage" if coverage else "harness")
    started = time.monotonic()
    native_build.build(
        tool("clang", "clang-16", "clang-15", "clang-14"),
        ["-g", "-O1", "-fno-omit-frame-pointer", sanitize, "-fno-sanitize-recover=all", *flags]
        + [f"-I{include}"],
        [REPO / "fuzz" / "harness.c", *native_build.sources()],
        work / "objects",
        out,
        [f"-L{libdir}", f"-l{library}", f"-Wl,-rpath,{libdir}", "-lm"],
    )
    print(f"fuzz_native: {out.name} built in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return out


def seeds(reader: str, folder: Path) -> int:
    """Copy the reader's seeds into ``folder`` (named by their hash): sample_trees/, the
    tests' good, bad and format cases (gzip files unpacked) and fuzz/corpus/<reader>/."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    sources = [
        REPO / "sample_trees",
        *(REPO / "tests" / "cases" / k for k in ("good", "bad", "formats")),
    ]
    for source in sources:
        for p in sorted(source.iterdir()):
            name = p.name.removesuffix(".gz")
            if not name.endswith(SUFFIXES[reader]):
                continue
            data = p.read_bytes()
            if p.name.endswith(".gz"):
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError):
                    continue
            count += _keep(folder, data)
    own = REPO / "fuzz" / "corpus" / reader
    for p in sorted(own.iterdir()) if own.is_dir() else ():
        count += _keep(folder, p.read_bytes())
    return count


def _keep(folder: Path, data: bytes) -> int:
    if len(data) > MAX_LEN:
        return 0
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return 1


def dictionary(work: Path) -> Path:
    """scripts/fuzz.py's tokens as a libFuzzer dictionary."""
    spec = importlib.util.spec_from_file_location("gtsearch_fuzz", REPO / "scripts" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    path = work / "tokens.dict"
    tokens = [*fuzz.TOKENS, *BLOCK_TOKENS]
    text = "".join(f'"{fuzz._dict_escape(t)}"\n' for t in tokens if len(t.encode()) < 64)
    path.write_text(text, encoding="utf-8")
    return path


def environment(reader: str, profile: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(REPO / "fuzz"), str(REPO), *sysconfig.get_paths()["purelib"].split(os.pathsep)]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["GTSEARCH_FUZZ_FORMAT"] = reader
    env.pop("GTSEARCH_PURE", None)
    # the interpreter keeps its own objects for the life of the process: no leak reports
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0:symbolize=1"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    if profile is not None:
        env["LLVM_PROFILE_FILE"] = str(profile)
    return env


def fuzz(binary: Path, reader: str, work: Path, args: argparse.Namespace) -> dict[str, object]:
    """One reader's session: libFuzzer's figures and the harness's verdicts."""
    corpus = work / "corpus" / reader
    base = work / "seeds" / reader
    shutil.rmtree(base, ignore_errors=True)
    n_seeds = seeds(reader, base)
    corpus.mkdir(parents=True, exist_ok=True)
    crashes = work / "crashes"
    crashes.mkdir(exist_ok=True)
    limit = [f"-runs={args.runs}"] if args.runs else [f"-max_total_time={args.seconds}"]
    command = [
        str(binary),
        str(corpus),
        str(base),
        *limit,
        f"-max_len={MAX_LEN}",
        f"-timeout={HANG_SECONDS}",
        "-rss_limit_mb=4096",
        f"-dict={dictionary(work)}",
        f"-artifact_prefix={crashes}/{reader}-",
        "-print_final_stats=1",
        "-print_pcs=0",
    ]
    log = work / f"{reader}.log"
    started = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        rc = subprocess.run(
            command, env=environment(reader), stdout=out, stderr=subprocess.STDOUT
        ).returncode
    text = log.read_text(encoding="utf-8", errors="replace")
    figures: dict[str, object] = {"reader": reader, "seeds": n_seeds, "rc": rc}
    figures["seconds"] = round(time.monotonic() - started)
    m = re.search(r"stat::number_of_executed_units: (\d+)", text)
    figures["executions"] = int(m.group(1)) if m else 0
    status = re.findall(r"^#\d+\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)", text, flags=re.M)
    if status:
        figures["cov"], figures["ft"], figures["corpus"] = map(int, status[-1])
    m = re.search(r"gtsearch-fuzz: \w+: (\d+) inputs taken .*?, (\d+) declined", text)
    if m:
        figures["taken"], figures["declined"] = map(int, m.groups())
    figures["crashes"] = 0 if rc == 0 else 1
    if rc != 0:
        print(
            f"fuzz_native: {reader} crashed (exit {rc}); see {log} and {crashes}", file=sys.stderr
        )
        print("\n".join(text.splitlines()[-40:]), file=sys.stderr)
    return figures


def source_coverage(work: Path, readers: list[str]) -> list[str]:
    """Replay the readers' corpora through the coverage build: the lines and branches of the
    reader files (and of load_common.c, which they share) that the corpora reach together."""
    binary = build(work, coverage=True)
    profdata = tool("llvm-profdata", "llvm-profdata-16", "llvm-profdata-15", "llvm-profdata-14")
    cov = tool("llvm-cov", "llvm-cov-16", "llvm-cov-15", "llvm-cov-14")
    raws = []
    for reader in readers:
        raw = work / f"coverage-{reader}.profraw"
        folders = [str(work / "corpus" / reader), str(work / "seeds" / reader)]
        env = environment(reader, raw)
        subprocess.run([str(binary), "-runs=0", *folders], env=env, check=True, capture_output=True)
        raws.append(str(raw))
    data = work / "coverage.profdata"
    subprocess.run([profdata, "merge", "-sparse", *raws, "-o", str(data)], check=True)
    files = sorted({"load_common.c", *(f for r in readers for f in READERS[r])})
    native = REPO / "gtsearch" / "_native"
    report = subprocess.run(
        [cov, "report", str(binary), f"-instr-profile={data}", *(str(native / f) for f in files)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    out = []
    for line in report.splitlines():
        cells = line.split()
        # Filename Regions Missed Cover Functions Missed Executed Lines Missed Cover Branches ...
        if cells and (cells[0].endswith(".c") or cells[0] == "TOTAL"):
            out.append(f"{Path(cells[0]).name}: lines {cells[9]}, branches {cells[12]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=60, help="per reader (default 60)")
    parser.add_argument("--runs", type=int, help="executions per reader instead of a time")
    parser.add_argument("--readers", default="json,yaml,sexp,efg", help="comma-separated")
    parser.add_argument(
        "--workdir", type=Path, help="kept (the corpus grows there); default: a temporary one"
    )
    parser.add_argument(
        "--coverage", action="store_true", help="report the source coverage of each reader's corpus"
    )
    args = parser.parse_args()
    readers = args.readers.split(",")
    for r in readers:
        if r not in READERS:
            parser.error(f"unknown reader {r!r}: choose among {', '.join(READERS)}")
    with tempfile.TemporaryDirectory() as temp:
        work = (args.workdir or Path(temp)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        binary = build(work, coverage=False)
        results = [fuzz(binary, r, work, args) for r in readers]
        covered = source_coverage(work, readers) if args.coverage else []
    print(f"{'reader':<6} {'executions':>12} {'seconds':>8} {'cov':>6} {'ft':>7} {'corpus':>7} "
          f"{'taken':>10} {'declined':>10} {'crashes':>8}")  # fmt: skip
    for f in results:
        print(
            f"{f['reader']:<6} {f['executions']:>12,} {f['seconds']:>8} {f.get('cov', 0):>6} "
            f"{f.get('ft', 0):>7} {f.get('corpus', 0):>7} {f.get('taken', 0):>10,} "
            f"{f.get('declined', 0):>10,} {f['crashes']:>8}"
        )
    for line in covered:
        print(line)
    sys.exit(1 if any(f["crashes"] for f in results) else 0)


if __name__ == "__main__":
    main()
