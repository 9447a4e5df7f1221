"""A game's entries counted in C: the graph of a built-in game whose rules are a kernel of the
compiled core, and the tree the C searches read from it (docs/core.md, "Games in C").

:class:`~.games.GameTree` counts a game's distinct *entries* once each (the
nodes of the tree gtsearch searches; :mod:`.games`).  For a built-in game
whose rules are also written in C (its class's ``kernel``: tic-tac-toe), the
core's ``count_game`` counts them instead, in the same order, and hands back
their graph in arrays; :class:`Counted` keeps it and builds an :class:`Entry`
only when one is asked for (the PV's, a picture's).  The C searches then read
the tree from the graph on demand (:meth:`CountedInC.native_view`,
game_graph.c): tic-tac-toe's 549,946 nodes are never written out.  The Python
game stays the reference: tests/test_game_kernels.py counts both and compares
them entry for entry, and every search's result on both.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..core import native
from ..errors import NodeLimit
from ..numbers import Number
from .gameviews import DECIDE

if TYPE_CHECKING:
    from .protocol import Game

#: the most distinct entries of a game counted (each keeps its moves and children: memory)
MAX_STATES = 1_000_000


class TooMany(NodeLimit):
    """A game with more distinct states than are counted (``most``, --max-nodes)."""

    def __init__(self, game: str, most: int) -> None:
        self.game, self.most = game, most
        super().__init__(
            f"{game}: more than {most:,} distinct states; a game's states are counted before it "
            f"is searched, at most --max-nodes and {MAX_STATES:,} of them: raise --max-nodes, "
            "cut the game with --depth, take a smaller game or search it on demand (-a alphabeta, "
            "minimax, mcts, ...: docs/sources.md)"
        )


class Entry:
    """One entry: its state, moves, child entries, its moves' names (once asked for), child
    offsets, subtree size, leaves, height."""

    __slots__ = (
        "state",
        "moves",
        "kids",
        "kind",
        "weights",
        "names",
        "starts",
        "size",
        "leaves",
        "height",
    )

    def __init__(
        self, state: Any, moves: tuple[Any, ...], kids: tuple[Any, ...], kind: int = DECIDE
    ) -> None:
        self.state = state
        self.moves = moves
        self.kids = kids
        self.kind = kind
        self.weights: tuple[int, ...] | tuple[float, ...] | None = None
        #: its moves' names once one is asked for (GameTree.move_label), checked then
        self.names: tuple[str, ...] | None = None
        self.starts: list[int] = []
        self.size = 0
        self.leaves = 0
        self.height = 0


#: no more visits counted: a tree the C searches read as if it were written out
UNLIMITED = 2**62


class Counted(Mapping[Any, Entry]):
    """The entries of a game counted in C (the core's ``count_game``, for a built-in game whose
    rules are one of its kernels): the graph in arrays, in the order GameTree._count meets the
    entries, and each :class:`Entry` built from them (its moves asked of the game) only when
    it is asked for: the PV's, a picture's.  A kernel's game alternates and has no ``key``, so
    an entry is its state, and its position number is its own (:meth:`ids`)."""

    def __init__(self, game: Game, arrays: tuple[Any, ...]) -> None:
        self.game = game
        self.states, self.first, self.kids, self.sizes, self.leaves, self.heights = arrays[:6]
        #: each entry's value: the utility where the game ends, NaN elsewhere
        self.entry_values: array[float] = arrays[6]
        self._ids: dict[Any, int] | None = None
        #: the numbers known without :meth:`ids`: the root's, and the children's of every
        #: entry built (a cursor reaches an entry from its parent)
        self._known: dict[Any, int] = {self.states[0]: 0}
        self._entries: dict[Any, Entry] = {}

    def ids(self) -> dict[Any, int]:
        """Each entry's number, in the order they were counted."""
        if self._ids is None:
            self._ids = dict(zip(self.states.tolist(), range(len(self.states)), strict=True))
        return self._ids

    def __len__(self) -> int:
        return len(self.states)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.states.tolist())

    def __contains__(self, key: object) -> bool:
        return key in self._known or key in self.ids()

    def __getitem__(self, key: Any) -> Entry:
        node = self._entries.get(key)
        if node is None:
            i = self._known.get(key)
            node = self._entries[key] = self._entry(self.ids()[key] if i is None else i)
        return node

    def _entry(self, i: int) -> Entry:
        """Entry i as GameTree._expand and _count make it: moves, children, offsets, sizes."""
        game, states, sizes = self.game, self.states, self.sizes
        state = states[i]
        moves = game.moves(state)
        kids = self.kids[self.first[i] : self.first[i + 1]]
        node = Entry(state, moves, tuple([states[k] for k in kids]))
        known, at = self._known, 1
        for k in kids:
            known[states[k]] = k
            node.starts.append(at)
            at += sizes[k]
        node.size, node.leaves, node.height = sizes[i], self.leaves[i], self.heights[i]
        return node


class CountedInC:
    """GameTree's side of the count in C: the count, and the view the C searches read."""

    __slots__ = ()

    if TYPE_CHECKING:  # the tree's own attributes (gtsearch.sources.games.GameTree)
        game: Game
        info: Any
        limit: int | None
        root_key: Any
        root_max: bool
        max_nodes: int
        visited: int
        most_visits: int
        source: str
        counted: Counted | None
        on_demand: bool

        def _value(self, node: Entry) -> Number: ...

    @staticmethod
    def counts_in_c(game: Game, limit: int | None = None, start: Any = None) -> bool:
        """Whether the game opened from its start (or ``start``, an int state), uncut, is
        counted in C (:meth:`_count_in_c`): the compiled core runs and its rules are one of the
        core's kernels (tic-tac-toe), whose count takes microseconds."""
        if native() is None or vars(type(game.obj)).get("kernel") is None:
            return False
        if game.has_player or limit is not None or not (start is None or type(start) is int):
            return False
        # the kernel's entries are the states and its inner nodes have no value: a game
        # with key() or estimate() would be another count
        return not (callable(game.attribute("key")) or game.has_estimate)

    def _count_in_c(self, most: int) -> bool:
        """Count the entries in C (:class:`Counted`) when the compiled core runs and the game
        is a built-in one whose rules are one of its kernels (``kernel``, on the game's own
        class: a subclass may change the rules), not cut by --depth; False otherwise (and for
        a start state the kernel does not hold)."""
        core, game, state = native(), self.game, self.root_key
        if core is None or type(state) is not int or not self.counts_in_c(game, self.limit, state):
            return False
        kernel = vars(type(game.obj)).get("kernel")
        limit = min(self.max_nodes, most)
        try:
            arrays = core.count_game(kernel, state, limit)
        except (ValueError, OverflowError):  # a state that is not one of the kernel's
            return False
        if arrays is None:
            raise TooMany(self.game.name, limit)
        self.info = self.counted = Counted(self.game, arrays)  # type: ignore[misc]  # GameTree's
        return True

    def native_view(self) -> tuple[Any, ...] | None:
        """The tree as the compiled core reads it from the graph of the entries counted in C
        (game_graph.c), or None (the tree is written out, or searched in Python).

        ``("graph", first, kids, sizes, values, positions, root, parity, counter)``: the
        positions None (an entry's number is its position), parity the root's player (a key
        is twice the position, plus 1 where MAX moves), ``counter`` as for a ``random:``
        source: ``array('q', [visited, most])``, which the search updates (:meth:`native_done`).
        """
        c = self.counted
        if c is None or native() is None:
            return None
        counter = array("q", [self.visited, self.most_visits])
        return (
            "graph",
            c.first,
            c.kids,
            c.sizes,
            c.entry_values,
            None,
            0,
            int(self.root_max),
            counter,
        )

    def leaf_extremes(self) -> tuple[Number, Number] | None:
        """The least and the greatest leaf value (chance.tree_leaf_bounds), read from the
        entries, each distinct one once, as the game gives them: the first of equal ones in
        preorder, since the entries are numbered in the order the preorder first meets them.
        (The tree's leaves, one by one through the cursor, are a million on tic-tac-toe.)
        None on demand, where not every entry is known."""
        if self.on_demand:
            return None
        c = self.counted
        if c is None:  # counted in Python: every entry is in info
            # the end of the game, or a position at the --depth cut; min() and max() keep
            # the first of equal ones
            found = [self._value(node) for node in self.info.values() if not node.kids]
            return min(found), max(found)
        first, values = c.first, c.entry_values
        leaves = [i for i in range(len(values)) if first[i] == first[i + 1]]
        lo, hi = min(leaves, key=values.__getitem__), max(leaves, key=values.__getitem__)
        utility = self.game.number
        return utility("utility", c.states[lo]), utility("utility", c.states[hi])

    def native_done(self, view: tuple[Any, ...]) -> None:
        """Count the nodes a C search of :meth:`native_view` visited as the cursor's own."""
        self.visited = view[-1][0]  # type: ignore[misc]  # GameTree's slot

    def limit_error(self) -> NodeLimit:
        """The error of a search that visited more than --max-nodes nodes."""
        return NodeLimit.visited(self.source, self.max_nodes)


@contextmanager
def uncollected() -> Iterator[None]:
    """Python's cycle collector paused while a game's entries are counted: each of its
    collections walks every object made so far, and the count makes millions that hold no
    cycle (it cost more than half the time of counting nim's first 1,000,000 states)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
