"""Mutation testing of gtsearch's algorithms and formats with mutmut, on demand (not in CI).

mutmut (the extra ``mutation``: ``pip install -e '.[mutation]'``) copies the package into
mutants/, plants in every function of the modules named here every small change it knows
(an operator, a constant, a comparison, a call's argument...), and runs, for each mutant,
the tests that reach that function; a mutant that no test fails "survives".  The
configuration is pyproject.toml's ``[tool.mutmut]``: the whole suite, and mutants only in
gtsearch/algorithms/ and gtsearch/formats/.

The suite runs under the pure-Python core (GTSEARCH_PURE=1): under the C core the compiled
searches and readers stand in for most of the Python code, which would then look untested.

This prints, per module, the mutants, how many the tests killed (a timeout counts: the
mutant made a search hang, and the tests noticed), how many survived or sit in a function
that no test reaches, and the score (killed / all of those), then the survivors, each shown by
``mutmut show NAME``.  docs/development.md ("Mutation testing") keeps the figures and the
survivors judged equivalent.  It is slow (hours for a large module on two cores): run it at
low priority, ``nice -n 19``.

    python scripts/mutation.py gtsearch/algorithms/depthfirst.py gtsearch/formats/sexp.py
    python scripts/mutation.py --report gtsearch/formats/sexp.py     # the figures of a past run
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KILLED = {1, 3, 36, -24, 24, 152, 255, 37, -11, -9}  # mutmut's exit codes: failed, timeout...
SURVIVED = {0}
NOT_REACHED = {5, 33}  # no test reaches the mutated function


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def figures(path: str) -> tuple[dict[str, int], list[str], list[str]]:
    """A module's counts (mutants, killed, survived, no test, not run), its survivors and the
    mutants no test reaches."""
    meta = REPO / "mutants" / (path + ".meta")
    codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    counts = {"mutants": len(codes), "killed": 0, "survived": 0, "no test": 0, "not run": 0}
    survivors, not_reached = [], []
    for name, code in sorted(codes.items()):
        if code in KILLED:
            counts["killed"] += 1
        elif code in SURVIVED:
            counts["survived"] += 1
            survivors.append(name)
        elif code in NOT_REACHED:
            counts["no test"] += 1
            not_reached.append(name)
        else:
            counts["not run"] += 1
    return counts, survivors, not_reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="files under gtsearch/algorithms or /formats")
    parser.add_argument("--report", action="store_true", help="only the figures of the last run")
    parser.add_argument("--max-children", type=int, default=2, help="mutants at once (default 2)")
    parser.add_argument(
        "--memory", type=int, default=4, help="GiB of address space for each process (default 4)"
    )
    args = parser.parse_args()
    os.chdir(REPO)
    # the tests that run gtsearch in a real process import the mutated copy too: they read
    # mutmut's configuration through mutation_site/sitecustomize.py, wherever they run
    site = str(REPO / "scripts" / "mutation_site")
    path = os.pathsep.join(filter(None, [site, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, GTSEARCH_PURE="1", PYTHONPATH=path, GTSEARCH_MUTATION_ROOT=str(REPO))
    if not args.report:
        names = [module_name(m) + ".*" for m in args.modules]
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.max_children)]
        limit = args.memory << 30

        def bounded() -> None:  # a mutant that loops while it appends would fill the machine
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        subprocess.run([*command, *names], env=env, check=True, preexec_fn=bounded)
    failed = False
    for path in args.modules:
        counts, survivors, not_reached = figures(path)
        judged = counts["killed"] + counts["survived"] + counts["no test"]
        score = 100.0 * counts["killed"] / judged if judged else 0.0
        print(f"{path}: {score:.1f}% ({', '.join(f'{v} {k}' for k, v in counts.items())})")
        for name in survivors:
            print(f"  survived: {name}")
        for name in not_reached:
            print(f"  no test: {name}")
        failed |= counts["not run"] > 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
