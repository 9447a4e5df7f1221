"""The answer key of an exercise: its questions, and their answers from the search engine of ``eval``.

The answers come from :func:`gtsearch.search` (value, PV, leaves in order)
and, for SSS* and DUAL*, from their teaching trace (the merit of each SOLVED
state case 2 inserts).  Every list may be typed with spaces or commas
(:func:`spellings`); docs/classroom.md lists the questions.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..algorithms import Algorithm
from ..algorithms.events import Probe, Take
from ..algorithms.explored import searched_nodes
from ..algorithms.params import Params
from ..algorithms.steps import trace
from ..numbers import format_bounded, format_number, fraction_text
from ..result import SearchResult
from ..tree import Tree
from .mcts_keys import mcts_key
from .model import MULTICHOICE, NUMERICAL, SHORT_ANSWER, Question

#: algorithms whose answers include the merits of the SOLVED states of case 2
OPEN_LIST = ("sss", "sss-bounded", "dual", "dual-bounded")
#: algorithms that read some leaves twice
REREADING = ("negascout", "scout", "star2")
#: the variants of alpha-beta a window's question names (docs/algorithms.md, "Alpha-beta")
VARIANT_TEXT = {
    "fail-soft": "in its fail-soft form (m starts at -inf, so a value outside the window is "
    "the best bound found)",
    "fail-hard": "as Knuth & Moore's F2 is printed (m := alpha: a value at or below the window "
    "is alpha itself)",
}


def answer_key(
    tree: Tree, algo: Algorithm, params: Params, result: SearchResult
) -> tuple[tuple[Question, ...], dict[str, Any]]:
    """The questions of one exercise (``result`` is its search) and its answers."""
    if algo.sampled:  # mcts: the next iteration, by hand
        return mcts_key(tree, algo, params)
    merits = open_merits(tree, algo, params) if algo.name in OPEN_LIST else None
    questions, answers = questions_and_answers(tree, algo, params, result, merits)
    if algo.name == "star2":
        probed = probed_outcomes(tree, algo, params)
        names = [tree.names[n] for n in probed]
        extra = [
            Question(
                "probes",
                "probes",
                NUMERICAL,
                "How many probing searches does Star2 make (outcomes whose first child it "
                "searches before the chance node's search phase)?",
                str(len(probed)),
                number=len(probed),
            )
        ]
        if probed:
            extra.append(
                Question(
                    "probed",
                    "probed outcomes",
                    SHORT_ANSWER,
                    "Name the outcomes Star2 probes, in the order it probes them, separated by "
                    "spaces.",
                    " ".join(names),
                    accepted=spellings(names),
                    items=tuple(names),
                    room=sum(1 for n in range(tree.n_nodes) if is_outcome(tree, n)),
                )
            )
        questions = questions + tuple(extra)
        answers["probes"] = [tree.path_of(n) for n in probed]
        answers["probe_labels"] = names
    return questions, answers


def probed_outcomes(tree: Tree, algo: Algorithm, params: Params) -> list[int]:
    """Star2: the outcomes whose first child it probes, in order (its teaching trace's Probes)."""
    return [ev.node for ev in trace(tree, algo, **params) if isinstance(ev, Probe)]


def open_merits(tree: Tree, algo: Algorithm, params: Params) -> list[Any]:
    """SSS*/DUAL*: the merit of the SOLVED state inserted by each case 2, in order."""
    return [
        ev.inserted[0].h
        for ev in trace(tree, algo, **params)
        if isinstance(ev, Take) and ev.case == 2
    ]


def pruned_heads(tree: Tree, evaluated: Sequence[int]) -> list[int]:
    """The roots of the pruned subtrees (the highest unsearched nodes), left to right."""
    searched = searched_nodes(tree, evaluated)
    parent = tree.parent
    return [n for n in range(1, tree.n_nodes) if not searched[n] and searched[parent[n]]]


def value_question(tree: Tree, algo: Algorithm, params: Params, result: SearchResult) -> Question:
    """What the algorithm returns at the root: a number, or with chance nodes an exact fraction."""
    root = tree.names[0]
    text = f"What value does {algo.field_name} return for the root {root}?"
    if "alpha" in params or "beta" in params:
        text = (
            f"What value does {algo.field_name}, "
            f"{VARIANT_TEXT[str(params.get('variant') or 'fail-soft')]}, return for the root "
            f"{root}? (If it proves only a bound, give the number.)"
        )
    elif algo.needs_bound or algo.name == "f1" and result.params:
        text += " (If it proves only a bound, give the number.)"
    if not tree.has_chance:
        shown = format_bounded(result.value, result.bound)
        return Question("value", "value", NUMERICAL, text, shown, number=result.value)
    q = result.exact_value()
    forms = [fraction_text(q)]
    if q.denominator != 1 and Fraction(format_number(float(q))) == q:
        forms.append(format_number(float(q)))  # 9/4 may be written 2.25
    text += " Give it exactly: an integer, or a fraction p/q in lowest terms (such as 13/3)."
    return Question("value", "value", SHORT_ANSWER, text, forms[0], accepted=tuple(forms))


def questions_and_answers(
    tree: Tree,
    algo: Algorithm,
    params: Params,
    result: SearchResult,
    merits: list[Any] | None,
) -> tuple[tuple[Question, ...], dict[str, Any]]:
    """The questions of one exercise and its answers (the JSON output's ``answers``)."""
    name = algo.field_name
    names = tree.names
    order = [tree.node_at(p) for p in result.leaf_order or ()]
    heads = pruned_heads(tree, order)
    evaluated = set(order)
    pruned_leaves = [n for n in range(tree.n_nodes) if tree.is_leaf(n) and n not in evaluated]
    pv_nodes = [tree.node_at(result.pv[:k]) for k in range(1, len(result.pv) + 1)]
    root = names[0]
    questions: list[Question] = []

    questions.append(value_question(tree, algo, params, result))
    if result.exact:
        line = [names[n] for n in pv_nodes]
        questions.append(
            Question(
                "pv",
                "principal variation",
                SHORT_ANSWER,
                f"Give the principal variation: the nodes from {root}'s best move down to "
                + (
                    "a leaf, through each chance node its most probable outcome (the leftmost "
                    "of equally probable ones)"
                    if tree.has_chance
                    else "a leaf"
                )
                + ", names separated by spaces.",
                " ".join(line),
                accepted=spellings(line),
                items=tuple(line),
            )
        )
    text = f"How many leaf evaluations does {name} make?"
    if algo.name in REREADING:
        text += " (A leaf read twice counts twice.)"
    questions.append(
        Question("count", "leaf count", NUMERICAL, text, str(result.leaves), number=result.leaves)
    )
    leaves = [names[n] for n in order]
    questions.append(
        Question(
            "leaves",
            "leaves in order",
            SHORT_ANSWER,
            f"List the leaves {name} evaluates, in the order it evaluates them, names "
            "separated by spaces."
            + (" (List a leaf read twice twice.)" if algo.name in REREADING else ""),
            " ".join(leaves),
            accepted=spellings(leaves),
            items=tuple(leaves),
            room=max(tree.n_leaves, len(leaves)),
        )
    )
    if pruned_leaves:
        questions.append(
            Question(
                "pruned",
                "leaves never evaluated",
                MULTICHOICE,
                f"Which leaves does {name} never evaluate?",
                " ".join(names[n] for n in pruned_leaves),
                choices=tuple(
                    (names[n], n not in evaluated) for n in range(tree.n_nodes) if tree.is_leaf(n)
                ),
            )
        )
        cut = [names[n] for n in heads]
        questions.append(
            Question(
                "subtrees",
                "pruned subtrees",
                SHORT_ANSWER,
                f"Name the root of every subtree {name} prunes (the highest pruned node of "
                "each), from left to right, separated by spaces.",
                " ".join(cut),
                accepted=spellings(cut),
                items=tuple(cut),
                room=max(len(cut), subtree_room(tree)),
            )
        )
    if merits is not None:
        rule = "max(h, f)" if algo.name.startswith("dual") else "min(h, f)"
        shown = [format_number(m) for m in merits]
        questions.append(
            Question(
                "merits",
                "merits of the SOLVED states",
                SHORT_ANSWER,
                f"{name} evaluates a leaf when it takes the leaf's LIVE state (h) from OPEN "
                f"(case 2) and inserts its SOLVED state with the merit {rule}. Give these "
                "merits, in the order the leaves are evaluated, separated by spaces.",
                " ".join(shown),
                accepted=spellings(shown),
                items=tuple(shown),
                room=max(tree.n_leaves, len(shown)),
            )
        )
    answers: dict[str, Any] = {
        "value": result.value,
        **({"value_exact": fraction_text(result.exact_value())} if tree.has_chance else {}),
        "exact": result.exact,
        "bound": result.bound,
        "pv": list(result.pv),
        "pv_labels": [names[n] for n in pv_nodes],
        "leaves": [list(p) for p in result.leaf_order or ()],
        "leaf_labels": leaves,
        "leaf_count": result.leaves,
        "leaves_total": tree.n_leaves,
        "pruned": [tree.path_of(n) for n in heads],
        "pruned_labels": [names[n] for n in heads],
        "pruned_leaves": [tree.path_of(n) for n in pruned_leaves],
        "pruned_leaf_labels": [names[n] for n in pruned_leaves],
    }
    if merits is not None:
        answers["merits"] = merits
    return tuple(questions), answers


def subtree_room(tree: Tree) -> int:
    """The places a quiz offers for the pruned subtrees: half the leaves, whatever the answer
    (so that the count of blanks gives away nothing)."""
    return max(1, tree.n_leaves // 2)


def is_outcome(tree: Tree, n: int) -> bool:
    """Whether n is an outcome of a chance node that is no leaf (what Star2 may probe)."""
    p = tree.parent[n]
    return p >= 0 and tree.is_chance(p) and not tree.is_leaf(n)


def spellings(words: Sequence[str]) -> tuple[str, ...]:
    """The ways a list may be typed: ``a b c``, ``a, b, c``, ``a,b,c`` (the first is shown)."""
    forms = [" ".join(words), ", ".join(words), ",".join(words)]
    return tuple(dict.fromkeys(forms))


__all__ = [
    "OPEN_LIST",
    "REREADING",
    "VARIANT_TEXT",
    "answer_key",
    "open_merits",
    "probed_outcomes",
    "pruned_heads",
    "questions_and_answers",
    "spellings",
    "value_question",
]
