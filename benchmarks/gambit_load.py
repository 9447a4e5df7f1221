#!/usr/bin/env python3
"""How long Gambit (pygambit) takes to read the .efg files gtsearch writes, at growing sizes.

gtsearch's writer shares one outcome among all terminals of one value.  Gambit
16.7 checks every new outcome's label against all outcomes before it, so a
file with one outcome per terminal loads in quadratic time; this script shows
both: the files gtsearch writes (linear) and the same trees with one outcome
per terminal (quadratic), each read by ``pygambit.read_efg``, best of three.

    python -m pip install -e '.[gambit]'
    python benchmarks/gambit_load.py            # uniform trees, branching 4, depths 6 to 9
"""

from __future__ import annotations

import argparse
import io
import re
import time
from collections.abc import Callable


def best_of(runs: int, f: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def one_outcome_per_terminal(text: str) -> str:
    """The same game, every terminal with an outcome of its own (``t "" k "o<k>" {...}``)."""
    count = 0

    def renumber(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f't "" {count} "o{count}" {{'

    return re.sub(r't "" \d+ "[^"]*" \{', renumber, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-b", "--branching", type=int, default=4)
    parser.add_argument("--depths", default="6,7,8,9", help="comma list (default 6,7,8,9)")
    parser.add_argument("--quadratic-depths", default="6,7", help="for one outcome per terminal")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    import pygambit as gbt

    from gtsearch.formats import dump_tree, loads_tree
    from gtsearch.sources.uniform import uniform_tree

    print(
        f"pygambit {gbt.__version__}; uniform trees, branching {args.branching}, leaves -100..100"
    )
    print(f"{'nodes':>9} {'outcomes':>9} {'pygambit':>9} {'per node':>9} {'gtsearch':>9}  file")
    quadratic = {int(d) for d in args.quadratic_depths.split(",") if d}
    for d in (int(d) for d in args.depths.split(",")):
        tree = uniform_tree(args.branching, d, seed=1)
        text = dump_tree(tree, "efg")
        variants = [("gtsearch's", text)]
        if d in quadratic:
            variants.append(("one outcome per terminal", one_outcome_per_terminal(text)))
        for name, body in variants:
            outcomes = len(set(re.findall(r'^t "" (\d+)', body, re.M)))
            gambit = best_of(args.runs, lambda b=body: gbt.read_efg(io.StringIO(b)))
            ours = best_of(args.runs, lambda b=body: loads_tree(b, "efg"))
            print(
                f"{len(tree):>9,} {outcomes:>9,} {gambit:>8.2f}s {gambit / len(tree) * 1e6:>7.1f}µs"
                f" {ours:>8.2f}s  {name}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
