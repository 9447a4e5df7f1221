"""A game's positions as the keys of a transposition table (docs/algorithms.md, "The key").

:class:`PositionKeys` gives :class:`.games.GameTree` (and the tree of a game searched on
demand, :class:`.ondemand.OnDemandTree`) each node's position: the game's ``key(state)``
numbered in the order the entries were met, so the same in every run and in both cores
(Python's hash() of a string is not), and all of them at once for the compiled core's
table searches.
"""

from __future__ import annotations

from array import array
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core import native
from .gamerules import state_of
from .gameviews import DECIDE, FORCED

if TYPE_CHECKING:
    from .gamecount import Counted
    from .protocol import Game


class PositionKeys:
    """The position keys of a game's tree; the tree holds what they are read from."""

    __slots__ = ()

    #: a game's tree has transpositions: positions met along several lines
    transpositions = True

    if TYPE_CHECKING:  # the tree's own attributes (gtsearch.sources.games.GameTree)
        game: Game
        info: dict[Any, Any]
        general: bool
        root_max: bool
        numbers: tuple[dict[Any, int], dict[Any, int]]
        key_array: array[int] | None
        graph: tuple[array[int], array[int], array[int], int] | None
        counted: Counted | None
        path_keys: list[Any]

        def locate(self, n: int) -> int: ...

    def position(self, n: int) -> int:
        """Node n's position for a transposition table (docs/algorithms.md, "The key"): the
        number of the game's key(state), twice it plus 1 where MAX moves (with player(): of
        the key with the entry's tag and its depth below a --depth cut, as entries are keyed)."""
        k = self.locate(n)
        return self.entry_position(self.path_keys[k], k)

    def entry_position(self, entry: Any, depth: int) -> int:
        """The position of an entry at a depth of the tree (:meth:`position`)."""
        number = self.position_numbers()[entry]
        return number if self.general else 2 * number + (self.root_max == (depth % 2 == 0))

    def position_numbers(self) -> dict[Any, int]:
        """Each entry's position number, in the order the entries were counted (the same in
        every run and both cores, as Python's hash() of a string is not)."""
        if self.counted is not None:  # counted in C: an entry is its own position
            return self.counted.ids()
        entries, positions = self.numbers
        info = self.info
        new = len(info) - len(entries)
        if new > 0:
            # the entries met since the last call are info's last ones (a dict keeps its order
            # and loses none): read from its end, the cost is theirs, not the ones before
            key = getattr(self.game.obj, "key", None)
            for entry in reversed(list(islice(reversed(info), new))):
                state = info[entry].state
                mine = state if key is None else self.game.call("key", state)
                at = (entry[0], mine, entry[2]) if self.general else mine
                entries[entry] = positions.setdefault(at, len(positions))
        return entries

    def position_keys(self) -> array[int] | None:
        """Every node's :meth:`position` in one array('q') (the compiled core's table searches
        read it), written out in C; None while the tree is computed on demand."""
        core = native()
        if self.key_array is None and self.graph is not None and core is not None:
            first, kids, sizes, root = self.graph
            numbers = array("q", self.position_numbers().values())  # in the entries' order
            parity = -1 if self.general else int(self.root_max)
            self.key_array = core.expand_states(  # type: ignore[misc]  # GameTree's slot
                first, kids, sizes, None, root, True, numbers, parity
            )
        return self.key_array


#: where the fifth word of a position numbered in C holds a chance node's tag (game_tree.h's
#: POS_TAG_SHIFT: CHANCE_TAGS's 4 or 5; 0 for the others, whose words say DECIDE or FORCED)
TAG_SHIFT = 56
DEPTH_MASK = (1 << TAG_SHIFT) - 1


class CPositions:
    """The positions a search with a table in C numbered on a game on demand
    (search_tabled_ondemand.c), taken by the tree (:class:`.ondemand.OnDemandTree`, whose slot
    ``c_positions`` holds them until a position is next asked for)."""

    __slots__ = ()

    if TYPE_CHECKING:  # the tree's own attributes
        c_positions: array[int] | None
        numbers: tuple[dict[Any, int], dict[Any, int]]
        game: Game
        general: bool
        limit: int | None
        root_key: Any

    def chance_tags(self) -> int:
        """How a C search with a table keys positions with chance nodes
        (search_chance_ondemand.c): 0 where a key is twice the position's number plus 1 where
        MAX moves (a game without player(), which has none), else the tag of the chance nodes
        below an even number of decision nodes: 4 (CHANCE_TAGS[MAX]) where the game expects
        MAX there, 5 where MIN, whichever player --root puts at the root."""
        if not self.general:
            return 0
        natural = self._root(self.root_key[1], True)[1]  # type: ignore[attr-defined]
        return 4 if natural else 5  # games.CHANCE_TAGS's

    def numbered_positions(self, positions: array[int]) -> None:
        """Take a C search's positions, in the order of their numbers: five words each (a
        state's four and its depth below a --depth cut, with a chance node's tag in its top
        byte: :data:`TAG_SHIFT`)."""
        self.c_positions = positions  # type: ignore[misc]  # the tree's slot

    def position_numbers(self) -> dict[Any, int]:
        """PositionKeys.position_numbers, a C search's positions first: each as the ``at`` it
        is keyed with there (the entry's tag FORCED where the words say the tree has a forced
        pass), so that the entries Python meets after are numbered as after its own search."""
        numbered = self.c_positions
        if numbered is not None:
            self.c_positions = None  # type: ignore[misc]
            positions, obj, general = self.numbers[1], self.game.obj, self.general
            for i in range(0, len(numbered), 5):
                state, forced = state_of(obj, numbered[i : i + 4])  # type: ignore[arg-type]
                word = numbered[i + 4]
                tag = word >> TAG_SHIFT or (FORCED if forced else DECIDE)
                depth = None if self.limit is None else word & DEPTH_MASK
                at = (tag, state, depth) if general else state
                positions.setdefault(at, len(positions))
        return super().position_numbers()  # type: ignore[misc, no-any-return]
