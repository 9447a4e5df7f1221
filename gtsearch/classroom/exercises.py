"""Seeded exercises: good trees to search by hand, chosen from a seed (``gtsearch exercise``).

How the trees are chosen (docs/classroom.md, "Good exercises"):

- A uniform tree of branching b and depth d (defaults 3 and 3), MAX at the
  root, whose leaf values are *all different* integers from LO..HI (default
  0..40, or 0..99 when the tree has more than 41 leaves): then no tie makes
  two answers right (one PV, and no question of ``>`` against ``≥`` in a cutoff).
- ``--order best`` / ``worst`` sort every node's children best-first /
  worst-first for the player to move.
- With the default random order the tree must give the algorithm some work to
  prune and some to do: it must leave at least one leaf in six unevaluated
  (at least one) and evaluate at least one in three.  A tree that fails is
  drawn again from the next sub-seed.  ``minimax`` and ``expectiminimax``
  prune nothing and are exempt; so are the ordered trees, whose order is the lesson; ``any_tree``
  (``--any``) takes the first tree drawn.
- Exercise k of a set with seed S is drawn from the sub-seeds
  ``gtsearch-exercise/S/k/0``, ``.../1``, ... (Python's string seeds, hashed
  with SHA-512: the same on every machine and version), skipping a tree the
  set already has, so the same arguments always give the same exercises.

The questions and answers of each tree are :mod:`.keys`'.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, NamedTuple

from ..algorithms import Algorithm, search
from ..algorithms.params import Params
from ..errors import UsageError
from ..formats import dump_tree
from ..numbers import format_number
from ..result import SearchResult
from ..sources.uniform import ORDERS
from ..tree import Meta, Tree
from .keys import answer_key
from .mcts_keys import mcts_verdict
from .model import Exercise

DEFAULT_BRANCHING = 3
DEFAULT_DEPTH = 3
#: trees drawn for one exercise before giving up
MAX_ATTEMPTS = 1000
#: the most exercises one command makes
MAX_COUNT = 1000
#: the full searches: every leaf, so a tree cannot be too easy or too hard to prune for them
FULL_SEARCHES = ("minimax", "expectiminimax")


class Spec(NamedTuple):
    """What a set of exercises asks for (``gtsearch exercise``'s options)."""

    algorithm: Algorithm
    params: Params
    branching: int = DEFAULT_BRANCHING
    depth: int = DEFAULT_DEPTH
    values: tuple[int, int] | None = None
    order: str = "random"
    any_tree: bool = False


def value_range(spec: Spec) -> tuple[int, int]:
    """LO..HI: the one given, else 0..40 (0..99 for more than 41 leaves); wide enough to be distinct."""
    leaves = spec.branching**spec.depth
    if spec.values is not None:
        lo, hi = spec.values
        if lo > hi:
            raise UsageError(f"--values LO:HI needs LO <= HI, got {lo}:{hi}")
        if hi - lo + 1 < leaves:
            raise UsageError(
                f"--values {lo}:{hi} holds {hi - lo + 1} integers, fewer than the tree's "
                f"{leaves} leaves, which must all differ; widen it (e.g. --values 0:{leaves * 2})"
            )
        return lo, hi
    if leaves <= 41:
        return 0, 40
    if leaves <= 100:
        return 0, 99
    raise UsageError(
        f"a tree of {leaves} leaves needs a range of at least {leaves} distinct values; "
        f"give one with --values (e.g. --values 0:{leaves * 2})"
    )


def check_spec(spec: Spec) -> None:
    if spec.branching < 1:
        raise UsageError(f"--branching must be 1 or more, got {spec.branching}")
    if spec.depth < 1:
        raise UsageError(f"--depth must be 1 or more, got {spec.depth}")
    if spec.order not in ORDERS:
        raise UsageError(f"--order must be one of {', '.join(ORDERS)}, got {spec.order!r}")


# -- names -------------------------------------------------------------------------------------
def letters(i: int, upper: bool) -> str:
    """The i-th name (from 0) in the sequence a, b, ..., z, aa, ab, ... (A, B, ... when upper)."""
    base = ord("A" if upper else "a")
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(base + r) + out
    return out


def reserved_names(algorithm: Algorithm) -> frozenset[str]:
    """The inner names an exercise of ``algorithm`` skips, so that no node is named as the
    algorithm is, whatever the case: the field's name itself when it is letters only (MCTS,
    SCOUT), the parent of the leaf it would name when it is letters and digits (F for F1, STAR
    for Star1 and Star2)."""
    key = algorithm.field_name.casefold()
    if re.fullmatch("[a-z]+", key):
        return frozenset({key.upper()})
    leaf = re.fullmatch("([a-z]+)[0-9]+", key)
    return frozenset({leaf.group(1).upper()}) if leaf else frozenset()


def name_nodes(tree: Tree, reserved: frozenset[str] = frozenset()) -> None:
    """Inner nodes A, B, C, ... in preorder; a leaf its parent's name in lower case and its place
    among the parent's children, from 1 (B's leaves b1, b2, b3), as textbooks name them.

    No two names of a tree differ only by case or spacing (docs/classroom.md, "Names"): an
    inner name is letters only, a leaf's ends in digits, and both are unique in their kind.
    The ``reserved`` inner names are skipped (:func:`reserved_names`: an F1 exercise has no F,
    so no leaf f1).
    """
    names: dict[int, str] = {}
    inner = 0
    for n in range(tree.n_nodes):
        if not tree.is_leaf(n):
            while letters(inner, upper=True) in reserved:
                inner += 1
            names[n] = letters(inner, upper=True)
            inner += 1
    for n in range(tree.n_nodes):
        if tree.is_leaf(n):
            p = tree.parent[n]
            if p < 0:
                names[n] = "a1"
                continue
            place = list(tree.children(p)).index(n) + 1
            names[n] = f"{names[p].lower()}{place}"
    tree.names = names


def confusable_pairs(names: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs of names that differ only by case or spacing (what a lenient grader confuses)."""
    seen: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for name in names:
        key = "".join(name.split()).casefold()
        if key in seen and seen[key] != name:
            pairs.append((seen[key], name))
        seen.setdefault(key, name)
    return pairs


# -- trees -------------------------------------------------------------------------------------
def draw_values(rng: random.Random, count: int, lo: int, hi: int) -> list[int]:
    """``count`` different integers from lo..hi, in random order (a partial Fisher-Yates shuffle).

    The pool lo..hi is never built: only the places the shuffle has touched are kept, so a
    range of 2**53 integers costs what a range of ``count`` does.
    """
    size = hi - lo + 1
    moved: dict[int, int] = {}  # place -> the value the shuffle put there (else lo + place)
    out = []
    for i in range(count):
        j = rng.randint(i, size - 1)
        vi, vj = moved.get(i, lo + i), moved.get(j, lo + j)
        moved[j] = vi
        out.append(vj)
    return out


def draw_weights(rng: random.Random, count: int) -> list[int]:
    """The weights of a chance node's outcomes: 1 to 3 each, so probabilities like 1/3, 2/5."""
    return [rng.randint(1, 3) for _ in range(count)]


def nested(values: list[int], spec: Spec, rng: random.Random | None = None) -> Any:
    """The uniform tree of these leaf values, left to right, as nested lists.

    With ``rng`` (the chance algorithms), the nodes at odd depths are chance nodes with
    weights drawn from it: MAX, chance, MIN, chance, ... (players alternate over decisions).
    """
    branching, depth = spec.branching, spec.depth
    level: list[Any] = list(values)
    for k in range(depth - 1, -1, -1):  # the level of the parents, from the bottom up
        groups: list[Any] = [level[i : i + branching] for i in range(0, len(level), branching)]
        if rng is not None and k % 2 == 1:
            groups = [{"chance": g, "weights": draw_weights(rng, len(g))} for g in groups]
        level = groups
    return level[0]


def ordered(node: Any, is_max: bool, best: bool) -> tuple[Any, Fraction]:
    """The subtree with every decision node's children sorted best-first (or worst-first) for
    the player to move, and its value; a chance node keeps its outcomes' order."""
    if isinstance(node, dict):
        kids = [ordered(c, is_max, best) for c in node["chance"]]
        weights = node["weights"]
        value = sum((w * v for w, (_, v) in zip(weights, kids, strict=True)), Fraction(0))
        return {**node, "chance": [k for k, _ in kids]}, value / sum(weights)
    if not isinstance(node, list):
        return node, Fraction(node)
    kids = [ordered(c, not is_max, best) for c in node]
    # best-first for the mover: MAX's highest value first, MIN's lowest first
    kids.sort(key=lambda kv: kv[1], reverse=is_max == best)
    values = [v for _, v in kids]
    return [k for k, _ in kids], (max(values) if is_max else min(values))


def draw_tree(spec: Spec, lo: int, hi: int, rng: random.Random) -> Tree:
    """One uniform tree with distinct leaf values, ordered as asked, its nodes named."""
    values = draw_values(rng, spec.branching**spec.depth, lo, hi)
    shape = nested(values, spec, rng if spec.algorithm.chance else None)
    if spec.order != "random":
        shape, _ = ordered(shape, True, spec.order == "best")
    tree = Tree.from_nested(shape)
    name_nodes(tree, reserved_names(spec.algorithm))
    return tree


def verdict(spec: Spec, tree: Tree, result: SearchResult) -> str | None:
    """Why the tree makes a poor exercise for the algorithm, or None when it is a good one."""
    if spec.algorithm.sampled:  # mcts: a clear choice for UCB1 (classroom.mcts_keys)
        return None if spec.any_tree else mcts_verdict(tree, spec.params)
    if spec.any_tree or spec.order != "random" or spec.algorithm.name in FULL_SEARCHES:
        return None
    total = tree.n_leaves
    evaluated = len(set(result.leaf_order or ()))
    if total - evaluated < max(1, math.ceil(total / 6)):
        return "prunes too little"
    if evaluated < math.ceil(total / 3):
        return "prunes too much"
    return None


def distinct_trees(spec: Spec, lo: int, hi: int) -> int:
    """How many different trees the draw can give at most: the orders of distinct leaf values
    (weights and the order option only make some of them the same)."""
    leaves = spec.branching**spec.depth
    return math.perm(hi - lo + 1, leaves) if hi - lo + 1 <= 10**6 else MAX_COUNT + 1


def check_count(spec: Spec, count: int, lo: int, hi: int) -> None:
    """Refuse a count no set of exercises needs, or more than the trees that can be drawn."""
    if count < 1:
        raise UsageError(f"--count must be 1 or more, got {count}")
    if count > MAX_COUNT:
        raise UsageError(f"--count {count:,} is more than a course needs: at most {MAX_COUNT:,}")
    most = distinct_trees(spec, lo, hi)
    if count > most:
        raise UsageError(
            f"--count {count:,} asks for more exercises than the {most:,} different trees of "
            f"b={spec.branching}, d={spec.depth} with values {lo}..{hi}; widen --values or "
            "ask for fewer"
        )


# -- exercises -----------------------------------------------------------------------------------
def make_exercises(spec: Spec, seed: int, count: int) -> list[Exercise]:
    """``count`` different exercises from one seed (docs/classroom.md)."""
    check_spec(spec)
    lo, hi = value_range(spec)
    check_count(spec, count, lo, hi)
    out: list[Exercise] = []
    seen: set[tuple[Any, ...]] = set()
    for number in range(1, count + 1):
        for attempt in range(MAX_ATTEMPTS):
            rng = random.Random(f"gtsearch-exercise/{seed}/{number}/{attempt}")
            tree = draw_tree(spec, lo, hi, rng)
            key = (tuple(tree.values), tuple(sorted(tree.weights.items())))
            if key in seen:
                continue
            result = search(tree, spec.algorithm, leaf_order=True, **spec.params)
            if verdict(spec, tree, result) is None:
                seen.add(key)
                out.append(exercise(spec, seed, count, number, attempt, (lo, hi), tree, result))
                break
        else:
            raise UsageError(
                f"none of {MAX_ATTEMPTS:,} trees drawn makes a good exercise for "
                f"{spec.algorithm.name} (b={spec.branching}, d={spec.depth}): it prunes too "
                "little or too much on every one; try other -b/-d, or --any to take them as drawn"
            )
    return out


def command_line(spec: Spec, seed: int, count: int, values: tuple[int, int]) -> str:
    """The command that makes this set again, every setting spelt out (for the teacher's record)."""
    params = "".join(
        f" --{key} {format_number(v) if isinstance(v, (int, float)) else v}"
        for key, v in spec.params.items()
        if key in ("bound", "alpha", "beta", "variant", "iterations", "exploration")
    )
    if "leaf_bounds" in spec.params:
        lb = spec.params["leaf_bounds"]
        assert lb is not None
        params += f" --leaf-bounds {format_number(lb[0])}:{format_number(lb[1])}"
    return (
        f"gtsearch exercise -a {spec.algorithm.name}{params} -b {spec.branching} "
        f"-d {spec.depth} --seed {seed} --values {values[0]}:{values[1]} --order {spec.order} "
        f"--count {count}" + (" --any" if spec.any_tree else "")
    )


def gtsearch_version() -> str:
    """This gtsearch's version, for the record."""
    from .. import __version__

    return __version__


def exercise(
    spec: Spec,
    seed: int,
    count: int,
    number: int,
    attempt: int,
    values: tuple[int, int],
    tree: Tree,
    result: SearchResult,
) -> Exercise:
    """One exercise: the tree's document, the questions and the answers.

    The tree's title and description, which its pictures print, name the exercise and the
    algorithm only: the seed and the settings are the teacher's (:attr:`Exercise.settings`).
    """
    settings = {
        "branching": spec.branching,
        "depth": spec.depth,
        "lo": values[0],
        "hi": values[1],
        "order": spec.order,
        "version": gtsearch_version(),
        "command": command_line(spec, seed, count, values),
    }
    tree.meta = Meta(
        title=f"Exercise {number}",
        description=f"Search it by hand with {spec.algorithm.field_name}.",
    )
    document = json.loads(dump_tree(tree, "json"))
    questions, answers = answer_key(tree, spec.algorithm, spec.params, result)
    return Exercise(
        number,
        seed,
        attempt,
        settings,
        tree,
        document,
        spec.algorithm.name,
        spec.params.copy(),
        result,
        questions,
        answers,
    )


__all__ = [
    "DEFAULT_BRANCHING",
    "DEFAULT_DEPTH",
    "MAX_ATTEMPTS",
    "MAX_COUNT",
    "Spec",
    "command_line",
    "confusable_pairs",
    "draw_tree",
    "letters",
    "make_exercises",
    "name_nodes",
    "reserved_names",
    "value_range",
    "verdict",
]
