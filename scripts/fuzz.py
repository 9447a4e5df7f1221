"""Fuzz gtsearch's readers for a set time: every input must give a Tree or a TreeFormatError.

Targets, each fuzzed in a process of its own:

  json, yaml, sexp  the format's own (streaming) reader on the input as text
  efg               Gambit's .efg reader on the input as text
  fast              the vectorised bare-form reader against the format's reader: same tree,
                    same node-limit error, or None
  load              load_tree() on a temporary file (each extension, sniffing, standard
                    input, gzip of the input, or the raw bytes as gzip): the command line's path
  cli               ``gtsearch eval -a all`` / ``validate`` through click on that file: exit
                    status 0, 1 or 2, one stderr line per bad file, never a traceback
  cores             load_tree() on that file under the C core and under the pure core: the
                    same tree (then every algorithm's same result) or the same error line

Engines: ``atheris`` (coverage-guided libFuzzer, ``pip install atheris``) when it is
installed, else ``random`` (mutations of the seed files, no coverage).  Seeds come from
sample_trees/ and tests/cases/.  Any other exception, or an input running past 20 seconds, is
a crash: it stops that target and the input is saved under WORKDIR/crashes/ (with the
traceback).  Each target reports how many inputs it tried and its slowest single input
(saved under WORKDIR/slowest/); the exit status is 1 when a target crashed.

Examples:
  python scripts/fuzz.py --seconds 60                   # every target, one minute each
  python scripts/fuzz.py --seconds 600 --targets yaml   # ten minutes of YAML
  python scripts/fuzz.py --seconds 30 --engine random --jobs 2
  python scripts/fuzz.py --runs 50 --engine random      # 50 inputs per target, a smoke test
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TARGETS = ("json", "yaml", "sexp", "efg", "fast", "load", "cli", "cores")
#: an input that takes longer than this is a hang (libFuzzer's -timeout, and the random engine)
HANG_SECONDS = 20
MAX_NODES = 100_000
MAX_LEN = 16_384

#: tokens the mutators splice in (also the libFuzzer dictionary)
TOKENS = [
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    ": ",
    "- ",
    "\n",
    "\r\n",
    "\t",
    " ",
    "#",
    ";",
    ".",
    '"',
    "'",
    "\\",
    '"name"',
    '"value"',
    '"children"',
    '"tree"',
    '"root"',
    '"title"',
    '"expect"',
    "name: ",
    "value: ",
    "children: ",
    "tree: ",
    "root: min",
    "expect: ",
    "title: ",
    ":value",
    "(tree",
    ":root",
    ":expect",
    ":title",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "<<: ",
    "<<",
    "---",
    "...",
    "!!python/object/apply:os.system",
    "!!int",
    "!custom",
    "%TAG ! tag:x,2000:\n",
    "? ",
    "\ufeff",
    "\x00",
    "\x85",
    "\u2028",
    "é",
    "nan",
    "inf",
    "-inf",
    ".inf",
    ".nan",
    "Infinity",
    "NaN",
    "null",
    "~",
    "nil",
    "#t",
    "true",
    "yes",
    "no",
    "1e400",
    "1.0e+400",
    "-0",
    "0x1F",
    "1_000",
    "190:20:30",
    "2001-12-14",
    "9007199254740993",
    "1" + "0" * 400,
    "1" + ":0" * 180 + ".5",
    "[" * 200,
    "]" * 200,
    "(" * 200,
    ")" * 200,
    "- " * 100,
    "\x1f\x8b",
    "EFG 2 R ",
    '\np "" 1 1 "" { "a" "b" } 0',
    '\np "" 2 1 "" { "a" } 0',
    '\nt "" 1 "o" { 1, -1 }',
    '\nt "" 0',
    '\nc "" 1 "" { "a" 1/2 "b" 1/2 } 0',
    "1/3",
    "1/0",
]


# -- seeds and mutations ---------------------------------------------------------------------------
def seeds() -> list[bytes]:
    """Sample trees, the corpus (bad and good), and a few generated documents."""
    found: list[bytes] = []
    for folder in (
        REPO / "sample_trees",
        REPO / "tests" / "cases" / "bad",
        REPO / "tests" / "cases" / "good",
        REPO / "tests" / "cases" / "formats",
    ):
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.is_file() and not p.name.endswith(".expected") and p.stat().st_size <= MAX_LEN:
                    data = p.read_bytes()
                    found.append(
                        gzip.decompress(data) if p.suffix == ".gz" and _gunzips(data) else data
                    )
    sys.path.insert(0, str(REPO))
    from gtsearch.formats import dump_tree
    from gtsearch.sources.uniform import uniform_tree

    for fmt in ("json", "yaml", "sexp", "efg"):
        found.append(dump_tree(uniform_tree(3, 3, seed=1), fmt).encode())
    return found


def _gunzips(data: bytes) -> bool:
    try:
        gzip.decompress(data)
    except (OSError, EOFError):
        return False
    return True


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """A few random edits: delete, insert, replace, repeat, cut, flip, splice, insert a token."""
    for _ in range(rng.randint(1, 6)):
        n = len(data)
        i = rng.randint(0, n)
        j = min(n, i + rng.randint(0, 16))
        op = rng.randrange(8)
        if op == 0:
            data = data[:i] + data[j:]
        elif op == 1:
            data = data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) + data[i:]
        elif op == 2:
            data = data[:i] + rng.choice(TOKENS).encode() + data[j:]
        elif op == 3:
            data = data[:j] + data[i:j] * rng.randint(1, 100) + data[j:]
        elif op == 4:
            data = data[:i]
        elif op == 5 and i < n:
            data = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
        elif op == 6:
            other = rng.choice(pool)
            k = rng.randint(0, len(other))
            data = data[:i] + other[k : k + rng.randint(1, 200)] + data[j:]
        else:
            data = data[:i] + rng.choice(TOKENS).encode() + data[i:]
    return data[:MAX_LEN]


# -- the targets ------------------------------------------------------------------------------------
class Target:
    """One fuzz target: ``run(data)`` returns normally or raises a crash."""

    def __init__(self, name: str, workdir: Path) -> None:
        self.name = name
        self.workdir = workdir
        from gtsearch.cli import cli
        from gtsearch.errors import TreeFormatError
        from gtsearch.formats import efg, jsonfmt, load_tree, sexp, yamlfmt
        from gtsearch.formats.bare import parse_bare
        from gtsearch.tree import Tree

        self.cli = cli
        self.TreeFormatError = TreeFormatError
        self.Tree = Tree
        self.load_tree = load_tree
        self.parse_bare = parse_bare
        self.general: dict[str, Callable[..., Any]] = {
            "json": jsonfmt.parse,
            "yaml": yamlfmt.parse,
            "sexp": sexp.parse,
            "efg": efg.parse,
        }
        self.scratch = Path(tempfile.mkdtemp(prefix=f"fuzz-{name}-", dir=workdir))
        self.run: Callable[[bytes], None] = getattr(self, f"run_{name}")

    def _parse(self, fmt: str, text: str, limit: int = MAX_NODES) -> Any:
        try:
            tree = self.general[fmt](text, "fuzz", max_nodes=limit)
        except self.TreeFormatError as e:
            _check_error(e, "fuzz")
            return e
        assert isinstance(tree, self.Tree)
        return tree

    def run_json(self, data: bytes) -> None:
        self._parse("json", data.decode("utf-8", "replace"))

    def run_yaml(self, data: bytes) -> None:
        self._parse("yaml", data.decode("utf-8", "replace"))

    def run_sexp(self, data: bytes) -> None:
        self._parse("sexp", data.decode("utf-8", "replace"))

    def run_efg(self, data: bytes) -> None:
        self._parse("efg", data.decode("utf-8", "replace"))

    def run_fast(self, data: bytes) -> None:
        if not data:
            return
        fmt = ("json", "yaml", "sexp")[data[0] % 3]
        limit = (MAX_NODES, 1, 2, 3, 7, 20, 100, 1000)[data[0] // 3 % 8]
        text = data[1:].decode("utf-8", "replace")
        try:
            fast: Any = self.parse_bare(text, fmt, "fuzz", limit)
        except self.TreeFormatError as e:
            fast = e
        if fast is None:
            return
        general = self._parse(fmt, text, limit)
        if isinstance(fast, self.TreeFormatError):
            assert "raise --max-nodes" in fast.message, fast
            assert str(fast) == str(general), (str(fast), str(general))
        else:
            assert fast == general, (text[:200], general)
            assert fast.n_leaves == general.n_leaves
            assert list(fast.depth) == list(general.depth)

    _NAMES = (
        "t.json",
        "t.yaml",
        "t.yml",
        "t.sexp",
        "t.lisp",
        "t.efg",
        "t.txt",
        "t.json.gz",
        "t.yaml.gz",
        "t.sexp.gz",
        "-",
    )

    def _file(self, data: bytes) -> tuple[str, str | None, bytes]:
        """Where to put the input, the --input-format to give, and the bytes to write."""
        code = data[0] if data else 0
        name = self._NAMES[code % len(self._NAMES)]
        body = data[1:]
        if name.endswith(".gz") and code // len(self._NAMES) % 2 == 0:
            body = gzip.compress(body, mtime=0)  # fuzz the text inside gzip...
        # ...or the raw bytes, which then are gzip only when they start with its magic
        fmt = None
        if name in ("t.txt", "-") and code // 20 % 2:
            fmt = ("json", "yaml", "sexp", "efg")[code % 4]
        return name, fmt, body

    def run_load(self, data: bytes) -> None:
        name, fmt, body = self._file(data)
        source = "<stdin>" if name == "-" else str(self.scratch / name)
        with _stdin(body) if name == "-" else contextlib.nullcontext():
            if name != "-":
                Path(source).write_bytes(body)
            try:
                tree = self.load_tree(
                    source if name != "-" else "-", input_format=fmt, max_nodes=MAX_NODES
                )
            except self.TreeFormatError as e:
                _check_error(e, source)
            else:
                assert isinstance(tree, self.Tree)

    def _load_verdict(self, name: str, fmt: str | None, body: bytes) -> Any:
        """What load_tree() says of the input: the tree, or the error line."""
        source = "<stdin>" if name == "-" else str(self.scratch / name)
        with _stdin(body) if name == "-" else contextlib.nullcontext():
            try:
                return self.load_tree(
                    source if name != "-" else "-", input_format=fmt, max_nodes=MAX_NODES
                )
            except self.TreeFormatError as e:
                _check_error(e, source)
                return str(e)

    def run_cores(self, data: bytes) -> None:
        from gtsearch import core
        from gtsearch.algorithms import ALGORITHMS, search

        name, fmt, body = self._file(data)
        if name != "-":
            (self.scratch / name).write_bytes(body)
        compiled = self._load_verdict(name, fmt, body)
        with core.pure():
            reference = self._load_verdict(name, fmt, body)
        if isinstance(reference, str):
            assert compiled == reference, (compiled, reference)
            return
        assert isinstance(compiled, self.Tree), compiled
        assert compiled == reference and compiled.names == reference.names
        assert (compiled.n_leaves, list(compiled.depth)) == (
            reference.n_leaves,
            list(reference.depth),
        )
        assert repr(compiled.meta) == repr(reference.meta)
        assert compiled.meta.expect_at == reference.meta.expect_at
        if compiled.n_nodes > 2000:
            return
        for algo in ALGORITHMS:
            if compiled.has_chance and not algo.chance:
                continue  # refused alike: the tree has chance nodes
            params = {"bound": 0} if algo.needs_bound else {}
            ours = search(compiled, algo, leaf_order=True, **params)._replace(seconds=0.0)
            with core.pure():
                ref = search(reference, algo, leaf_order=True, **params)._replace(seconds=0.0)
            assert (ours, repr(ours.value)) == (ref, repr(ref.value)), (algo.name, ours, ref)

    def run_cli(self, data: bytes) -> None:
        from click.testing import CliRunner

        name, fmt, body = self._file(data)
        if name == "-":
            name = "t.txt"
        path = self.scratch / name
        path.write_bytes(body)
        options = ["--input-format", fmt] if fmt else []
        command = ["eval", "-a", "all", "--format", "json"] if data[:1] < b"\x80" else ["validate"]
        result = CliRunner().invoke(
            self.cli, [*command, str(path), "--max-nodes", "2000", *options], catch_exceptions=True
        )
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr)
        assert "Traceback" not in result.stderr
        if result.exit_code == 2:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith(str(path)), result.stderr
        elif result.exit_code == 0:
            assert result.stderr == "", result.stderr
            if command[0] == "eval":  # one JSON object per algorithm
                records = [json.loads(line) for line in result.stdout.splitlines()]
                assert len({r["value"] for r in records if r["exact"]}) <= 1, records


@contextlib.contextmanager
def _stdin(data: bytes) -> Any:
    class Stdin:
        buffer = io.BytesIO(data)

    saved = sys.stdin
    sys.stdin = Stdin()  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdin = saved


def _check_error(e: Any, source: str) -> None:
    """A TreeFormatError the CLI can print: one short line, the place first, lower case."""
    text = str(e)
    assert text.startswith(source), text
    assert "\n" not in text and "\r" not in text, text
    assert len(e.message) < 300, e.message
    assert e.message[:1].islower() or e.message[:1] in "'\"", text


# -- statistics, crashes, the slowest input -----------------------------------------------------------
class Stats:
    def __init__(self, target: str, workdir: Path, engine: str) -> None:
        self.target = target
        self.engine = engine
        self.workdir = workdir
        self.path = workdir / f"stats-{target}.json"
        self.count = 0
        self.crashes = 0
        self.slowest = 0.0
        self.slowest_size = 0
        self.started = time.monotonic()
        self.saved = 0.0
        #: the input being tried, for the crash report
        self.current = b""

    def record(self, seconds: float, data: bytes) -> None:
        self.count += 1
        if seconds > self.slowest:
            self.slowest, self.slowest_size = seconds, len(data)
            folder = self.workdir / "slowest"
            folder.mkdir(exist_ok=True)
            (folder / self.target).write_bytes(data)
            self.save()
        elif time.monotonic() - self.saved > 2:
            self.save()

    def crash(self, data: bytes, error: BaseException) -> None:
        """Keep the input that raised ``error`` and the traceback beside it."""
        self.crashes += 1
        folder = self.workdir / "crashes"
        folder.mkdir(exist_ok=True)
        stem = folder / f"{self.target}-{self.crashes}"
        stem.with_suffix(".bin").write_bytes(data)
        stem.with_suffix(".txt").write_text(
            "".join(traceback.format_exception(error)), encoding="utf-8"
        )
        self.save()

    def save(self) -> None:
        self.saved = time.monotonic()
        self.path.write_text(
            json.dumps(
                {
                    "target": self.target,
                    "engine": self.engine,
                    "inputs": self.count,
                    "seconds": round(self.saved - self.started, 1),
                    "crashes": self.crashes,
                    "slowest_seconds": round(self.slowest, 4),
                    "slowest_bytes": self.slowest_size,
                }
            )
            + "\n",
            encoding="utf-8",
        )


def child(
    target_name: str, seconds: float, workdir: Path, engine: str, seed: int, runs: int | None
) -> None:
    """Fuzz one target in this process until the time is up (or ``runs`` inputs are tried)."""
    sys.path.insert(0, str(REPO))
    if engine == "atheris":
        import atheris

        with atheris.instrument_imports(include=["gtsearch"]):
            import gtsearch.algorithms
            import gtsearch.cli
            import gtsearch.formats
            import gtsearch.formats.bare
            import gtsearch.formats.efg
            import gtsearch.formats.efg_reader
            import gtsearch.formats.jsonfmt
            import gtsearch.formats.sexp
            import gtsearch.formats.shape
            import gtsearch.formats.yamlfmt
            import gtsearch.tree  # noqa: F401  (imported here to be instrumented)
    target = Target(target_name, workdir)
    stats = Stats(target_name, workdir, engine)
    pool = seeds()
    if engine == "atheris":
        corpus = workdir / f"corpus-{target_name}"
        corpus.mkdir(exist_ok=True)
        for k, s in enumerate(pool):
            (corpus / f"seed-{k}").write_bytes(s)
        dictionary = workdir / "tokens.dict"
        dictionary.write_text(
            "".join(f'"{_dict_escape(t)}"\n' for t in TOKENS if len(t.encode()) < 64),
            encoding="utf-8",
        )

        def one(data: bytes) -> None:
            # a crash propagates: atheris prints it, keeps the input as an artifact and stops
            t0 = time.perf_counter()
            target.run(data)
            stats.record(time.perf_counter() - t0, data)

        atheris.Setup(
            [
                sys.argv[0],
                str(corpus),
                f"-max_total_time={int(seconds)}",
                *([f"-runs={runs}"] if runs is not None else []),
                f"-timeout={HANG_SECONDS}",
                f"-max_len={MAX_LEN}",
                f"-dict={dictionary}",
                "-rss_limit_mb=3072",
                f"-seed={seed}",
                "-print_final_stats=1",
                f"-artifact_prefix={workdir}/crashes/{target_name}-",
            ],
            one,
        )
        (workdir / "crashes").mkdir(exist_ok=True)
        atheris.Fuzz()
        return

    # A crash ends this process: the hook keeps the input and the traceback first.
    def crashed(kind: type[BaseException], error: BaseException, tb: Any) -> None:
        stats.crash(stats.current, error)
        sys.__excepthook__(kind, error, tb)

    def hang(signum: int, frame: Any) -> None:
        raise TimeoutError(f"one input ran for more than {HANG_SECONDS} s")

    sys.excepthook = crashed
    signal.signal(signal.SIGALRM, hang)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (runs is None or stats.count < runs):
        data = mutate(rng, rng.choice(pool), pool) if rng.random() < 0.97 else rng.choice(pool)
        stats.current = data
        signal.alarm(HANG_SECONDS)
        t0 = time.perf_counter()
        target.run(data)
        seconds_taken = time.perf_counter() - t0
        signal.alarm(0)
        stats.record(seconds_taken, data)
    stats.save()


def _dict_escape(token: str) -> str:
    """A token in libFuzzer's dictionary syntax (\\xNN for anything but plain ASCII)."""
    return "".join(
        chr(b) if 0x20 <= b < 0x7F and b not in b'"\\' else f"\\x{b:02x}" for b in token.encode()
    )


def _libfuzzer_units(log: Path) -> int:
    """How many inputs libFuzzer ran, from its final statistics (0 without them)."""
    if not log.exists():
        return 0
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("stat::number_of_executed_units:"):
            return int(line.split(":")[-1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--seconds", type=float, default=60, help="time per target (default 60)")
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="also stop each target after this many inputs (default: only the time stops it)",
    )
    parser.add_argument(
        "--targets",
        default=",".join(TARGETS),
        help=f"comma list of targets (default: all of {', '.join(TARGETS)})",
    )
    parser.add_argument(
        "--engine",
        choices=("atheris", "random"),
        default=None,
        help="default: atheris when installed, else random",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="targets fuzzed at once (default: the number of CPUs)",
    )
    parser.add_argument(
        "--workdir",
        default=None,
        help="where corpora, crashes and the slowest "
        "inputs go (default: a new temporary directory)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    engine = args.engine
    if engine is None:
        import importlib.util

        engine = "atheris" if importlib.util.find_spec("atheris") else "random"
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="gtsearch-fuzz-"))
    workdir.mkdir(parents=True, exist_ok=True)
    if args.child:
        child(args.child, args.seconds, workdir, engine, args.seed, args.runs)
        return 0
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    unknown = sorted(set(targets) - set(TARGETS))
    if unknown:
        parser.error(f"unknown targets {unknown}; choose from {', '.join(TARGETS)}")
    print(
        f"fuzzing {', '.join(targets)} for {args.seconds:g} s each with {engine}, "
        f"{args.jobs} at a time; work directory {workdir}",
        flush=True,
    )
    waiting = list(targets)
    running: dict[str, subprocess.Popen[bytes]] = {}
    status: dict[str, int] = {}
    while waiting or running:
        while waiting and len(running) < args.jobs:
            name = waiting.pop(0)
            with open(workdir / f"log-{name}.txt", "wb") as log:  # the child keeps its own copy
                running[name] = subprocess.Popen(
                    [
                        sys.executable,
                        __file__,
                        "--child",
                        name,
                        "--seconds",
                        str(args.seconds),
                        "--engine",
                        engine,
                        "--workdir",
                        str(workdir),
                        "--seed",
                        str(args.seed),
                        *(["--runs", str(args.runs)] if args.runs is not None else []),
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
        time.sleep(0.5)
        for name, proc in list(running.items()):
            if proc.poll() is not None:
                status[name] = proc.returncode
                del running[name]
    print(f"{'target':8} {'inputs':>10} {'per s':>7} {'crashes':>7} {'slowest':>9}  status")
    total = 0
    bad = False
    summary = {}
    for name in targets:
        path = workdir / f"stats-{name}.json"
        s = json.loads(path.read_text()) if path.exists() else {}
        inputs = max(s.get("inputs", 0), _libfuzzer_units(workdir / f"log-{name}.txt"))
        secs = max(s.get("seconds", 0.0), 1e-9) if s.get("inputs") == inputs else args.seconds
        artifacts = [
            a
            for kind in ("crash", "timeout", "oom", "leak")
            for a in (workdir / "crashes").glob(f"{name}-{kind}-*")
        ]
        crashes = s.get("crashes", 0) + len(artifacts)
        total += inputs
        bad = bad or bool(crashes) or status.get(name, 0) != 0
        summary[name] = {
            "inputs": inputs,
            "crashes": crashes,
            "exit": status.get(name),
            "slowest_seconds": s.get("slowest_seconds", 0),
        }
        print(
            f"{name:8} {inputs:>10,} {inputs / secs:>7.0f} {crashes:>7} "
            f"{s.get('slowest_seconds', 0):>8.3f}s  exit {status.get(name)}"
        )
    (workdir / "summary.json").write_text(
        json.dumps({"engine": engine, "seconds": args.seconds, "targets": summary}, indent=1) + "\n"
    )
    print(f"{'total':8} {total:>10,}")
    crashes = sorted((workdir / "crashes").glob("*")) if (workdir / "crashes").exists() else []
    if crashes:
        print("crashes:", *map(str, crashes), sep="\n  ")
    print(f"slowest inputs: {workdir / 'slowest'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
