"""Check the Python coverage that CI measured against the thresholds in pyproject.toml.

CI's step 2 (.ci/run) runs the whole suite under coverage.py for both cores with every
extra, then ``coverage combine``; this script reads the combined data (``coverage json``),
prints the lines and branches covered per package, and fails when the whole package falls
under the thresholds of ``[tool.gtsearch.coverage]`` in pyproject.toml: ``lines`` for the
statements run, ``branches`` for the branches taken (coverage's own ``fail_under`` there
checks the two together).  The thresholds only go up: when the figures pass them by more
than a point, the script says so, and the thresholds should be raised in the same change.

With ``--c``, it checks the C core instead: gcovr's summary of the whole suite run against the
C core's gcov build (``scripts/native_tests.py --coverage``, CI's step 5), per file and in
all, against ``c_lines`` and ``c_branches``.

    python scripts/coverage_check.py            # after coverage combine
    python scripts/coverage_check.py --json coverage.json
    python scripts/coverage_check.py --c WORKDIR/c-coverage.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 has no tomllib
    tomllib = None

REPO = Path(__file__).resolve().parent.parent


def thresholds(prefix: str = "") -> dict[str, float]:
    """``[tool.gtsearch.coverage]`` of pyproject.toml: lines and branches, in percent (of the C
    core with prefix ``c_``)."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    if tomllib is not None:
        table = tomllib.loads(text)["tool"]["gtsearch"]["coverage"]
    else:
        section = text.split("[tool.gtsearch.coverage]", 1)[1].split("\n[", 1)[0]
        pairs = (line.split("=", 1) for line in section.splitlines() if "=" in line)
        table = {k.strip(): v.split("#")[0] for k, v in pairs}
    return {k: float(table[prefix + k]) for k in ("lines", "branches")}


def report(path: Path | None) -> dict[str, Any]:
    """coverage.py's JSON report: of ``path``, or made now from the combined data."""
    if path is not None:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp) / "coverage.json"
        subprocess.run([sys.executable, "-m", "coverage", "json", "-q", "-o", str(out)], check=True)
        return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def percent(done: int, total: int) -> float:
    return 100.0 if total == 0 else 100.0 * done / total


def check(lines: float, branches: float, want: dict[str, float], table_key: str) -> bool:
    """Print how the figures stand to the thresholds; True when one falls under."""
    failed = False
    for what, got in (("lines", lines), ("branches", branches)):
        if got < want[what]:
            print(f"coverage_check: {what} {got:.2f}% is under the threshold {want[what]}%")
            failed = True
        elif got >= want[what] + 1:
            print(
                f"coverage_check: {what} {got:.2f}% passes the threshold {want[what]}% by a "
                f"point or more: raise it in pyproject.toml ({table_key})"
            )
    return failed


def check_c(path: Path) -> bool:
    """gcovr's JSON summary of the C core, per file and in all, against c_lines, c_branches."""
    data = json.loads(path.read_text(encoding="utf-8"))
    print(f"{'C file':<22} {'lines':>8} {'branches':>9}")
    for f in sorted(data["files"], key=lambda f: f["filename"]):
        name = Path(f["filename"]).name
        lines = percent(f["line_covered"], f["line_total"])
        branches = percent(f["branch_covered"], f["branch_total"])
        print(f"{name:<22} {lines:>7.2f}% {branches:>8.2f}%")
    lines = percent(data["line_covered"], data["line_total"])
    branches = percent(data["branch_covered"], data["branch_total"])
    print(f"{'gtsearch/_native':<22} {lines:>7.2f}% {branches:>8.2f}%")
    return check(lines, branches, thresholds("c_"), "c_lines, c_branches")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="a report of `coverage json` (default: make one)")
    parser.add_argument(
        "--c", type=Path, help="gcovr's JSON summary of the C core, checked instead"
    )
    args = parser.parse_args()
    if args.c is not None:
        sys.exit(1 if check_c(args.c) else 0)
    data = report(args.json)
    packages: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for name, f in data["files"].items():
        parts = Path(name).parts
        package = parts[1] if len(parts) > 2 else "(ground)"
        s = f["summary"]
        row = packages[package]
        row[0] += s["covered_lines"]
        row[1] += s["num_statements"]
        row[2] += s["covered_branches"]
        row[3] += s["num_branches"]
    print(f"{'package':<12} {'lines':>8} {'branches':>9}")
    for package, (cl, nl, cb, nb) in sorted(packages.items()):
        print(f"{package:<12} {percent(cl, nl):>7.2f}% {percent(cb, nb):>8.2f}%")
    t = data["totals"]
    lines = percent(t["covered_lines"], t["num_statements"])
    branches = percent(t["covered_branches"], t["num_branches"])
    print(f"{'gtsearch':<12} {lines:>7.2f}% {branches:>8.2f}%")
    failed = check(lines, branches, thresholds(), "[tool.gtsearch.coverage]")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
