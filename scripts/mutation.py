"""Mutation testing of gtsearch's algorithms and formats with mutmut, on demand (not in CI).

mutmut (the extra ``mutation``: ``pip install -e '.[mutation]'``) copies the package into
mutants/, plants in every function of the modules named here every small change it knows
(an operator, a constant, a comparison, a call's argument...), and runs, for each mutant,
the tests that reach that function; a mutant that no test fails "survives".  The
configuration is pyproject.toml's ``[tool.mutmut]``: mutants only in gtsearch/algorithms/ and
gtsearch/formats/, and the whole suite as the tests.

Each module of ``TESTS`` below is run against its own focused selection instead: the test
files that check it against references (mutmut's first pass, the baseline, runs the
selection once with coverage; over the whole suite under the pure core it takes hours).  A
module not in ``TESTS`` gets the whole suite.  The modules are run one after the other, each
with its own selection; a change of selection makes mutmut forget every verdict, so each
module's verdicts are kept in ``mutants/<module>.verdicts.json`` as its run ends, and
``--report`` reads them there.

The suite runs under the pure-Python core (GTSEARCH_PURE=1): under the C core the compiled
searches and readers stand in for most of the Python code, which would then look untested.
The modules of ``UNDER_C`` are the exception: their tests compare the two cores.

This prints, per module, the mutants, how many the tests killed (a timeout counts: the
mutant made a search hang, and the tests noticed), how many survived or sit in a function
that no test reaches, and the score (killed / all of those), then the survivors, each shown by
``mutmut show NAME``.  docs/development.md ("Mutation testing") keeps the figures and the
survivors judged equivalent.  Run it at low priority, ``nice -n 19``.

    nice -n 19 python scripts/mutation.py gtsearch/algorithms/depthfirst.py
    python scripts/mutation.py --report gtsearch/algorithms/depthfirst.py   # a past run's figures
    python scripts/mutation.py --whole-suite gtsearch/formats/sexp.py        # every test instead
    nice -n 19 python scripts/mutation.py --survivors gtsearch/algorithms/table.py  # tests added
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

#: each module's focused selection: the tests that check it against references, a few
#: minutes under the pure core (pytest paths and node ids, relative to the repository)
TESTS = {
    "gtsearch/algorithms/depthfirst.py": [
        "tests/test_depthfirst.py",
        "tests/test_counts.py::test_depth_first_counts",
        "tests/test_algorithms.py",
        "tests/test_variant.py",
    ],
    "gtsearch/algorithms/scout.py": [
        "tests/test_scout.py",
        "tests/test_counts.py::test_negascout_and_scout_counts",
    ],
    "gtsearch/algorithms/table.py": ["tests/test_tt.py"],
    "gtsearch/algorithms/mcts.py": [
        "tests/test_mcts.py",
        "tests/test_mcts_steps.py",
        "tests/test_mcts_experiment.py",
    ],
    "gtsearch/formats/sexp.py": [
        "tests/test_formats.py",
        "tests/test_golden.py",
        "tests/test_fuzzing.py",
    ],
}

#: the modules whose selection runs under the compiled core, not the pure one: their tests
#: compare the two cores in one process (``core.pure()``), so that the Python reference and the
#: code that takes the compiled core's answer (mcts's table of the C search tree) are both
#: checked; under the pure core the latter would look untested
UNDER_C = {"gtsearch/algorithms/mcts.py"}

#: mutmut's command line with the test selection given (mutmut reads it from pyproject.toml
#: only): the configuration is loaded once, in this process, before mutmut forks its workers
RUN_MUTMUT = """
import dataclasses, json, sys
from mutmut import configuration
from mutmut.__main__ import cli

selection = json.loads(sys.argv[1])
if selection:
    configuration._config = dataclasses.replace(
        configuration.config(), pytest_add_cli_args_test_selection=selection
    )
cli(sys.argv[2:], prog_name="mutmut")
"""


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def verdicts_file(path: str) -> Path:
    return REPO / "mutants" / (path + ".verdicts.json")


def keep_verdicts(path: str, only: list[str] | None = None) -> None:
    """Copy the module's exit codes out of mutmut's meta file, which the next module's run
    (another selection) resets; ``only`` those of these mutants (a run of them by name: the
    others keep the verdicts kept before, which mutmut may have reset meanwhile)."""
    meta = REPO / "mutants" / (path + ".meta")
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    if only is not None:
        kept = json.loads(verdicts_file(path).read_text(encoding="utf-8"))
        codes = {**kept, **{name: codes[name] for name in only}}
    verdicts_file(path).write_text(json.dumps(codes, indent=1, sort_keys=True), encoding="utf-8")


def figures(path: str) -> tuple[dict[str, int], list[str], list[str]]:
    """A module's counts (mutants, killed, survived, no test, not run), its survivors and the
    mutants no test reaches."""
    kept = verdicts_file(path)
    if kept.exists():
        codes: dict[str, int | None] = json.loads(kept.read_text(encoding="utf-8"))
    else:
        meta = REPO / "mutants" / (path + ".meta")
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
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
    parser.add_argument(
        "--whole-suite", action="store_true", help="every test, not the module's selection"
    )
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="run only the last run's survivors and untested mutants again (after adding tests)",
    )
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
        limit = args.memory << 30

        def bounded() -> None:  # a mutant that loops while it appends would fill the machine
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        for module in args.modules:
            tests = [] if args.whole_suite else TESTS.get(module, [])
            c_core = module in UNDER_C
            core = "the C core" if c_core else "the pure core"
            print(f"{module}: {' '.join(tests) or 'the whole suite'}, {core}", flush=True)
            command = [sys.executable, "-c", RUN_MUTMUT, json.dumps(tests), "run"]
            command += ["--max-children", str(args.max_children)]
            names: list[str] | None = None
            if args.survivors:  # named, mutmut runs them again; the others keep their verdicts
                _, survivors, not_reached = figures(module)
                names = [*survivors, *not_reached]
                if not names:
                    continue
                command += names
            else:
                command.append(module_name(module) + ".*")
            run_env = dict(env, GTSEARCH_PURE="0") if c_core else env
            subprocess.run(command, env=run_env, check=True, preexec_fn=bounded)
            keep_verdicts(module, names)
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
