"""gtsearch.algorithms: the search algorithms, their registry, and search(), the one entry point.

Owns what a search is: the registry (:mod:`.registry`), the one check of
algorithm names and parameters (:mod:`.params`), search() (:mod:`.search`),
the fast implementations by family (:mod:`.depthfirst`, :mod:`.sss`,
:mod:`.scout`, :mod:`.mt`, :mod:`.vector`; :mod:`.chance` for trees with
chance nodes; :mod:`.mcts`, Monte Carlo Tree Search) with what they share
(:mod:`.base`, :mod:`.pv`), what a search explored and its node types
(:mod:`.explored`), and the step-by-step teaching versions (:mod:`.steps`,
:mod:`.chance_steps`) that emit the events of :mod:`.events` for the renderers
to draw.  Imports the ground modules (tree,
numbers, errors, result, core: the compiled searches of :mod:`.compiled`) and
numpy; never click, rich or anything of formats, render, research or cli.
"""

from __future__ import annotations

from .base import Outcome, Stats
from .params import check, plan
from .registry import ALGORITHMS, EVERY, SAMPLING, Algorithm, find_algorithm
from .search import run, search

__all__ = [
    "ALGORITHMS",
    "EVERY",
    "SAMPLING",
    "Algorithm",
    "Outcome",
    "Stats",
    "check",
    "find_algorithm",
    "plan",
    "run",
    "search",
]
