"""Exercise and Question: a tree to search by hand, its questions and their answers (``gtsearch exercise``).

Plain data, like :class:`gtsearch.result.SearchResult`: :mod:`.exercises`
makes them (it chooses the trees, and :mod:`.keys` computes the answers with
the search engine of ``eval``); :mod:`.worksheet` and :mod:`.quiz` write them
out as text, JSON, HTML, Moodle XML and GIFT (docs/classroom.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..algorithms.params import Params
from ..numbers import Number
from ..result import SearchResult
from ..tree import Tree

#: the kinds of question, named as Moodle names them
NUMERICAL = "numerical"
SHORT_ANSWER = "shortanswer"
MULTICHOICE = "multichoice"


class Question(NamedTuple):
    """One question about an exercise's search, and its answer in every form a format needs.

    ``text`` is plain text (the formats escape it); ``answer`` is the answer
    as a person writes it.  A numerical question has ``number``; a short
    answer ``accepted``, every text that is right (first the one shown); a
    multiple choice ``choices``, every option with whether it is right (any
    number of them may be).
    """

    id: str
    title: str
    kind: str
    text: str
    answer: str
    number: Number | None = None
    accepted: tuple[str, ...] = ()
    choices: tuple[tuple[str, bool], ...] = ()


class Exercise(NamedTuple):
    """One exercise: the tree, the algorithm to run on it by hand, the questions, the answers.

    ``number`` counts from 1 in its set; ``seed`` is the set's seed and
    ``attempt`` how many trees were drawn for this exercise before it
    (docs/classroom.md says how the trees are chosen).  ``document`` is the
    tree as the JSON object of a tree file that ``gtsearch eval`` reads;
    ``answers`` the answers as the JSON output gives them; ``result`` the
    search that gave them (with its leaf order).
    """

    number: int
    seed: int
    attempt: int
    settings: Mapping[str, Any]
    tree: Tree
    document: Mapping[str, Any]
    algorithm: str
    params: Params
    result: SearchResult
    questions: tuple[Question, ...]
    answers: Mapping[str, Any]

    def heading(self) -> str:
        """One line naming the exercise: ``Exercise 2: alphabeta, b=3, d=3, values 0..40, seed 7``."""
        s = self.settings
        params = ", ".join(f"{k} {v}" for k, v in self.params.items())
        params = f" ({params})" if params else ""
        order = "" if s["order"] == "random" else f", {s['order']}-first order"
        return (
            f"Exercise {self.number}: {self.algorithm}{params} on a uniform tree "
            f"(b={s['branching']}, d={s['depth']}, values {s['lo']}..{s['hi']}{order}, "
            f"seed {self.seed})"
        )


__all__ = ["MULTICHOICE", "NUMERICAL", "SHORT_ANSWER", "Exercise", "Question"]
