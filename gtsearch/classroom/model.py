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

#: what a multiple choice asks where it is drawn as boxes to tick, and as a choice per leaf
TICK = "Tick every one."
#: ... and where the printed worksheet asks it: on the tree, the room for boxes to tick
CROSS = "Cross each one out in the tree."
CHOOSE = "For every leaf, choose whether it is evaluated or never evaluated."
#: the kinds of question, named as Moodle names them
NUMERICAL = "numerical"
SHORT_ANSWER = "shortanswer"
MULTICHOICE = "multichoice"


class Question(NamedTuple):
    """One question about an exercise's search, and its answer in every form a format needs.

    ``text`` is plain text (the formats escape it); ``answer`` is the answer
    as a person writes it.  A numerical question has ``number``; a short
    answer ``accepted``, every text that is right (first the one shown), and
    when the answer is a list (the PV, leaves in order, ...) ``items``, its
    entries one by one, which a quiz may grade one blank each; a multiple
    choice ``choices``, every option with whether it is right (any number of
    them may be).  ``room`` is how many places a list's blanks offer: at
    least ``len(items)``, more where the length would give away another
    answer (the leaves in order tell the leaf count); a place left over is
    answered with a dash.  ``tolerance`` is how far a numerical answer may lie from
    ``number`` (mcts's UCB values and means, asked to three decimals; 0 elsewhere).
    """

    id: str
    title: str
    kind: str
    text: str
    answer: str
    number: Number | None = None
    accepted: tuple[str, ...] = ()
    choices: tuple[tuple[str, bool], ...] = ()
    items: tuple[str, ...] = ()
    room: int = 0
    tolerance: float = 0.0


class Exercise(NamedTuple):
    """One exercise: the tree, the algorithm to run on it by hand, the questions, the answers.

    ``number`` counts from 1 in its set; ``seed`` is the set's seed and
    ``attempt`` how many trees were drawn for this exercise before it
    (docs/classroom.md says how the trees are chosen); ``settings`` the shape,
    the values, the order, the gtsearch version and the command that makes the
    set again.  The seed and the settings are the teacher's: the writers put
    them in the answer keys and records only (:meth:`record`), never in what a
    student receives (:meth:`heading`).  ``document`` is the
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

    @property
    def algorithm_name(self) -> str:
        """The field's name for the algorithm (``alpha-beta``, ``SSS*``, ``Star2``): what
        student material says; :attr:`algorithm` is the command line's (``alphabeta``)."""
        from ..algorithms import find_algorithm

        return find_algorithm(self.algorithm).field_name

    def heading(self) -> str:
        """The line a student sees: ``Exercise 2: alpha-beta (alpha 10, beta 20)``.

        It names the exercise, the algorithm and what the question needs to be
        answered (a window, a bound, the variant), and nothing that rebuilds the
        tree with gtsearch: no seed, no shape, no range of values (those are in
        :meth:`record`, for the teacher).
        """
        # mcts's seed makes its search again: the teacher's, as the set's seed is
        params = ", ".join(f"{k} {v}" for k, v in self.params.items() if k != "seed")
        params = f" ({params})" if params else ""
        return f"Exercise {self.number}: {self.algorithm_name}{params}"

    def record(self) -> list[str]:
        """The teacher's record of the exercise: what makes it again, and how it was drawn."""
        s = self.settings
        order = "" if s["order"] == "random" else f", {s['order']}-first order"
        return [
            f"Exercise {self.number}: {self.algorithm} on a uniform tree (b={s['branching']}, "
            f"d={s['depth']}, values {s['lo']}..{s['hi']}{order}), seed {self.seed}, "
            f"tree drawn at attempt {self.attempt}",
            f"made by gtsearch {s['version']}: {s['command']}",
        ]


__all__ = [
    "CHOOSE",
    "CROSS",
    "MULTICHOICE",
    "NUMERICAL",
    "SHORT_ANSWER",
    "TICK",
    "Exercise",
    "Question",
]
