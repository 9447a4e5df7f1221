"""Check the Python coverage that CI measured against the thresholds in pyproject.toml.

CI's step 2 (.ci/run) runs the whole suite under coverage.py for both cores with every
extra, then ``coverage combine``; this script reads the combined data (``coverage json``),
prints the lines and branches covered per package, and fails when the whole package falls
under the thresholds of ``[tool.gtsearch.coverage]`` in pyproject.toml: ``lines`` for the
statements run, ``branches`` for the branches taken (coverage's own ``fail_under`` there
checks the two together).  The thresholds only go up: when the figures pass them by more
than a point, the script says so, and the thresholds should be raised in the same change.

    python scripts/coverage_check.py            # after coverage combine
    python scripts/coverage_check.py --json coverage.json
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


def thresholds() -> dict[str, float]:
    """``[tool.gtsearch.coverage]`` of pyproject.toml: lines and branches, in percent."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    if tomllib is not None:
        table = tomllib.loads(text)["tool"]["gtsearch"]["coverage"]
        return {k: float(table[k]) for k in ("lines", "branches")}
    section = text.split("[tool.gtsearch.coverage]", 1)[1].split("\n[", 1)[0]
    pairs = (line.split("=", 1) for line in section.splitlines() if "=" in line)
    return {k.strip(): float(v.split("#")[0]) for k, v in pairs}


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="a report of `coverage json` (default: make one)")
    args = parser.parse_args()
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
    want = thresholds()
    failed = False
    for what, got in (("lines", lines), ("branches", branches)):
        if got < want[what]:
            print(f"coverage_check: {what} {got:.2f}% is under the threshold {want[what]}%")
            failed = True
        elif got >= want[what] + 1:
            print(
                f"coverage_check: {what} {got:.2f}% passes the threshold {want[what]}% by a "
                "point or more: raise it in pyproject.toml ([tool.gtsearch.coverage])"
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
