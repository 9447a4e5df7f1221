"""What a compiled search of a game on demand asks of its tree, and hands back to it.

:class:`SearchedInC` is the part of :class:`.ondemand.OnDemandTree` that the C core's
searches on demand talk to (docs/core.md, "Games in C searched on demand", "mcts on a game's
rules in C", "OpenSpiel's games searched in C"): which rules or states the core searches the
tree with (:meth:`~SearchedInC.native_game`, :meth:`~SearchedInC.objects_spec`), and the
nodes numbered so far; the tree takes what a C search numbered itself
(``OnDemandTree.numbered_in_c`` and ``adopt``).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import native
from .gamerules import Words, entry_words, rules_of
from .openspiel import c_states

if TYPE_CHECKING:
    from .protocol import Game


class SearchedInC:
    """The C core's side of a game's tree searched on demand."""

    __slots__ = ()

    if TYPE_CHECKING:  # the OnDemandTree's own attributes
        game: Game
        chance: Any
        numbers: tuple[dict[Any, int], dict[Any, int]]
        c_positions: array[int] | None
        root_key: Any
        general: bool
        limit: int | None
        deadline: float | None
        refusing: Exception | None
        keys: list[Any]
        first: array[int]
        up: array[int]
        depths: array[int]
        turn_counts: array[int]
        loose: dict[tuple[int, ...], int]

    def native_game(self, chance: bool = False) -> tuple[str, tuple[int, ...], Words] | None:
        """The game's rules in the compiled core (game.h) as it searches this tree on demand:
        their name, the game's parameters and the root's state as their words
        (:func:`.gamerules.rules_of`); None when the core has no rules of this game (a game
        of the user's, a subclass, one with --estimate, a board too big for them), the tree
        has chance nodes (unless ``chance``: the chance searches in C take them), or a table
        has numbered positions on this tree, and the Python search runs."""
        numbered = self.numbers[0] or self.c_positions is not None
        if native() is None or (self.chance is not None and not chance) or numbered:
            # a table numbered positions here (in Python, or in C and not yet taken): the Python
            # searches keep the entries they meet (the next table's positions are numbered in
            # their order), which a C search skips
            return None
        rules = rules_of(self.game)
        if rules is None:
            return None
        return rules.name, rules.params, entry_words(self.game.obj, self.root_key, self.general)

    def seconds_left(self) -> float:
        """What is left of the search's own time (:attr:`deadline`, which must be set)."""
        return self.deadline - time.perf_counter()  # type: ignore[operator]

    def objects_spec(self) -> tuple[Any, int, int, int, Callable[[Any], Any]] | None:
        """What the compiled core needs to search this tree on demand calling the game's states
        itself (search_objects.c: OpenSpiel's, through the adapter's own classes): the root's
        state and its entry's tag, OpenSpiel's chance player, how states are keyed
        (:func:`.openspiel.c_states`), and the game's ``chance_weights``; None where the Python
        search runs (the pure core, a game of the user's, a --depth cut, play's deadline, a
        search that stops at a chance node: :meth:`.ondemand.OnDemandTree.searched`)."""
        if native() is None or self.limit is not None or self.deadline is not None:
            return None
        if self.refusing is not None:  # a chance node met stops the search: Python's
            return None
        if not self.general:
            return None
        tag, position, _ = self.root_key
        states = c_states(self.game.obj, position)
        if states is None:
            return None
        return position.state, tag, *states, self.game.chance_weights

    def numbered(self) -> tuple[array[int], array[int], array[int], array[int]] | None:
        """The nodes numbered so far, for a C search that goes on numbering them: every node's
        first child, parent, depth and decision nodes above it; None before any listing."""
        if len(self.keys) == 1:
            return None
        return self.first, self.up, self.depths, self.turn_counts

    def c_rules(self) -> tuple[str, tuple[int, ...], Words] | None:
        """:meth:`native_game` for a search that numbers the whole tree afresh (mcts in C,
        whose nodes :meth:`adopt` takes, chance nodes too: Pig's): None once anything but the
        root is numbered."""
        if len(self.keys) > 1 or self.loose:
            return None
        return self.native_game(chance=True)
