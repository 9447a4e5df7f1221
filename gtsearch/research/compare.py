"""Several algorithms on one tree, side by side, and the checks that they agree.

What ``gtsearch compare`` and ``gtsearch eval --expect`` decide: every exact
result must equal the others, a bound must allow them, and a file's
``expect:`` (or ``--expect``) must be allowed by every result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..algorithms import Algorithm
from ..algorithms.params import Params
from ..errors import CheckFailed
from ..numbers import Number, agrees, exact, format_exact
from ..result import SearchResult
from ..tree import Tree

if TYPE_CHECKING:
    from fractions import Fraction

#: runs one planned search: (algorithm, its parameters) -> result
Runner = Callable[[Algorithm, Params], SearchResult]


def compare(
    tree: Tree, plan: Sequence[tuple[Algorithm, Params]], run: Runner
) -> list[SearchResult]:
    """Every planned search on one tree, each result's extra figures carrying share and best.

    ``share`` is the result's leaves over the tree's (None where they were not counted: a
    game searched on demand); ``best`` marks the fewest leaves among exact results.
    """
    results = [run(algo, params) for algo, params in plan]
    exact_leaves = [r.leaves for r in results if r.exact]
    best = min(exact_leaves) if exact_leaves else None
    total = tree.n_leaves
    return [
        r._replace(
            extra={
                **r.extra,
                "share": None if total is None else r.leaves / total,
                "best": r.exact and r.leaves == best,
            }
        )
        for r in results
    ]


#: where a file states its ``expect`` (line, column), for the failures that contradict it
Place = tuple[int, int] | None


def mismatch(
    file: str, expected: Number, result: SearchResult, at: Place = None
) -> CheckFailed | None:
    """The check failure when ``result`` contradicts the expected value, else None.

    ``at`` is where the file states the expected value, when it comes from the file.
    """
    if agrees(result.value, result.bound, expected):
        return None
    return CheckFailed(
        f"{result.algorithm}: value {result.value_text()}, "
        f"expected {format_exact(exact(expected))}",
        file,
        *(at or (None, None)),
    )


def disagreements(
    name: str, results: Sequence[SearchResult], expected: Number | None, at: Place = None
) -> list[CheckFailed]:
    """What contradicts what among one file's results, each as one CheckFailed."""
    problems = []
    # exact values compared exactly (a chance node's 13/3 is no float)
    by_value: dict[Fraction, list[str]] = {}
    for r in results:
        if r.exact:
            by_value.setdefault(r.exact_value(), []).append(r.algorithm)
    if len(by_value) > 1:
        said = " vs ".join(
            f"{format_exact(v)} ({', '.join(names)})" for v, names in by_value.items()
        )
        problems.append(CheckFailed(f"the exact results disagree: {said}", name))
    for r in results:
        if not r.exact:
            for v, names in by_value.items():
                if not agrees(r.value, r.bound, v):
                    problems.append(
                        CheckFailed(
                            f"{r.algorithm} proved {r.value_text()}, but "
                            f"{names[0]} found the exact value {format_exact(v)}",
                            name,
                        )
                    )
    if expected is not None:
        problems += filter(None, (mismatch(name, expected, r, at) for r in results))
    return problems
