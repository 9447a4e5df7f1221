"""Games searched on demand, nothing counted first: nodes numbered as the search first lists them.

A :class:`~.games.GameTree` numbers its nodes in preorder, which needs every
subtree's size: the game's distinct states are counted first.  An
:class:`OnDemandTree` counts nothing.  Its root is node 0, and the first time
the children of a node are listed they take the next free numbers, left to
right: a node's number says in which order the search reached it, and the
same node has the same number for the rest of the search (docs/sources.md,
"Games searched on demand").  A node is its entry of the game (the same
entries as a GameTree's: transpositions share their moves and children), its
parent, its index among its parent's children and its depth.

The searches that walk a tree only through ``children``, ``child``, :meth:`OnDemandTree.open`
and the leaf test (``end[n] == n + 1``) run on it (:data:`ON_DEMAND_ALGORITHMS`: every
algorithm of ``gtsearch algorithms``, with or without a transposition table).  Its ``end`` answers
the leaf test only: at an inner node it gives :class:`.gameviews.Inner`, which refuses
arithmetic and comparisons, so that a search that needs preorder numbers
stops with one line instead of reading a wrong tree.  mcts's playouts list
nothing (:meth:`OnDemandTree.playout`): each plays the moves it draws, one
child a node, and the leaf it reaches is known by its path (a *loose* leaf,
numbered -1, -2, ... as first read).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..errors import OutOfTime, UsageError
from ..tree import Meta, Tree
from .gamecount import Entry, uncollected
from .gamekeys import CPositions
from .games import EXPECTED_MOVER, GameTree
from .gameviews import CHANCE_NODE, Grown, Inner, Lookup
from .ondemand_c import SearchedInC
from .playouts import Reached, playout
from .protocol import Game, GameError

__all__ = [
    "ON_DEMAND_ALGORITHMS",
    "ON_DEMAND_WITH_TABLE",
    "OnDemandTree",
    "open_game_tree",
    "searched_on_demand",
]

#: the algorithms that search a game on demand, whatever its size, without counting it first
#: (docs/sources.md, "Games searched on demand"): written against children lists, not preorder
#: (the depth-first and chance searches, mcts, the null-window searches, SSS* and DUAL*, bounded
#: too, and the MT family)
ON_DEMAND_ALGORITHMS: frozenset[str] = frozenset(
    {
        "minimax",
        "f1",
        "alphabeta",
        "expectiminimax",
        "star1",
        "star2",
        "mcts",
        "negascout",
        "scout",
        "sss",
        "sss-bounded",
        "dual",
        "dual-bounded",
        "mt-sss",
        "mt-dual",
        "mtdf",
    }
)
#: ... and those that do with a transposition table (--tt MIB, and eval --iterative's)
ON_DEMAND_WITH_TABLE: frozenset[str] = frozenset({"alphabeta", "negascout"})


def searched_on_demand(name: str, tt: int | None) -> bool:
    """Whether the algorithm ``name`` (with a table of ``tt`` MiB) runs on an OnDemandTree:
    one of :data:`ON_DEMAND_ALGORITHMS`, or of :data:`ON_DEMAND_WITH_TABLE` with a table."""
    return name in ON_DEMAND_ALGORITHMS or (bool(tt) and name in ON_DEMAND_WITH_TABLE)


def open_game_tree(game: Game, *, on_demand: bool = False, **where: Any) -> GameTree:
    """The game counted (a GameTree, at most MAX_STATES distinct states and --max-nodes), or,
    ``on_demand``, an OnDemandTree: nothing counted, whatever the game's size (tic-tac-toe too:
    its count in C, the core's kernel, serves the trees counted whole).  ``where``: the
    GameTree's own keyword arguments (source, max_nodes, limit, start, start_max)."""
    if on_demand:
        return OnDemandTree(game, **where)
    return GameTree(game, **where)


class OnDemandTree(CPositions, SearchedInC, GameTree):
    """A game as a Tree whose nodes are numbered as the search first lists them."""

    __slots__ = (
        "where",
        "keys",
        "entries",
        "up",
        "depths",
        "turn_counts",
        "first",
        "deepest",
        "inner",
        "line",
        "line_keys",
        "on_line",
        "loose",
        "loose_paths",
        "deadline",
        "c_positions",
        "refusing",
    )

    on_demand = True

    def __init__(self, game: Game, **where: Any) -> None:
        #: how the game was opened (source, max_nodes, limit, start, start_max): what counting
        #: it whole (:meth:`whole`) or opening it again takes
        self.where = where
        super().__init__(game, **where)

    def _number(self, root_max: bool, source: str, most: int) -> None:
        """Number nothing yet: the root is node 0, its children are numbered when listed."""
        game = self.game
        #: node n's entry, parent (-1 at the root), index among its siblings, depth, and
        #: decision nodes above it; its first child's number once listed (-1 before)
        self.keys: list[Any] = [self.root_key]
        #: node n's entry once expanded (None before)
        self.entries: list[Entry | None] = [None]
        self.up, self.first = array("q", [-1]), array("q", [-1])
        self.depths, self.turn_counts = array("q", [0]), array("q", [0])
        self.deepest = 0
        #: the line of play last checked (:meth:`_check_line`): its nodes from the root down,
        #: and their entries, each with its depth
        self.line: list[int] = [0]
        self.line_keys: list[Any] = [self.root_key]
        self.on_line: dict[Any, int] = {self.root_key: 0}
        #: the leaves only playouts reached (:meth:`playout`), not numbered: leaf ~i is the
        #: i-th, known by its path
        self.loose: dict[tuple[int, ...], int] = {}
        self.loose_paths: list[tuple[int, ...]] = []
        #: time.perf_counter() past which listing children raises OutOfTime (play --time's
        #: deepening drops the depth it was searching), or None
        self.deadline: float | None = None
        #: the positions a search with a table in C numbered, until read (CPositions)
        self.c_positions: array[int] | None = None
        #: what a search that takes no chance node raises at the first it meets (searched)
        self.refusing: Exception | None = None
        self.inner = Inner(self)
        Tree.__init__(
            self,
            Grown(self, self._end),
            Grown(self, self.value_at),
            root_max=root_max,
            source=source,
            n_leaves=-1,
            depth=Grown(self, self.depths.__getitem__),  # type: ignore[arg-type]
            meta=Meta(title=game.title),
        )
        self.names = Lookup(self.name_at)  # type: ignore[assignment]
        self.floats = Grown(self, self._float)  # type: ignore[assignment]
        self.expand(0)
        # chance moves only where player() says so
        if self.has_chance_nodes or (game.has_player and callable(game.attribute("outcomes"))):
            self.chance = Grown(self, self._chance)
            self.weights = Lookup(self._weights_at)  # type: ignore[assignment]
            self._turns = self.turn_counts

    # -- what a C search numbered -------------------------------------------------------
    def numbered_in_c(
        self,
        first: array[int],
        up: array[int],
        depths: array[int],
        turns: array[int] | None = None,
        deepest: int | None = None,
    ) -> None:
        """Take the nodes a C search numbered on this tree: every node's first child (``first``,
        the tree's grown) and the new nodes' parents, depths and, with chance nodes, decision
        nodes above them (``turns``: is_max's), and the greatest depth (``deepest``; else found
        here).
        Their entries are not kept, as those of the nodes a Python search released: path_of,
        name_at and position rebuild one from the root when asked (:meth:`_key`)."""
        new = len(up)
        if not new:
            return
        self.first = first
        self.up.extend(up)
        self.depths.extend(depths)
        if turns is not None and self.chance is not None:  # is_max reads them there
            self.turn_counts.extend(turns)
        gone: list[Any] = [None] * new
        self.keys.extend(gone)
        self.entries.extend(gone)
        self.deepest = max(self.deepest, max(depths) if deepest is None else deepest)
        self.visited = len(self.keys)

    def adopt(
        self,
        up: array[int],
        first: array[int],
        depths: array[int],
        loose_paths: list[tuple[int, ...]],
        deepest: int,
        turns: array[int] | None = None,
    ) -> None:
        """Take the nodes mcts in C numbered on this fresh tree (each one's parent, first child
        or -1, depth and, with chance nodes, decision nodes above it: the root's too) as
        :meth:`numbered_in_c` does, and the loose leaves its playouts reached (their paths,
        ~0, ~1, ... in order; ``deepest`` counts them)."""
        self.numbered_in_c(first, up[1:], depths[1:], None if turns is None else turns[1:])
        self.deepest = deepest
        self.loose_paths = loose_paths
        self.loose = {path: ~i for i, path in enumerate(loose_paths)}

    @contextmanager
    def searched(self, refusal: Exception | None = None) -> Iterator[None]:
        """Python's cycle collector paused while a search runs, as while a game is counted
        (:func:`.gamecount.uncollected`): the entries the search makes hold no cycle, and each
        collection walked all of them (a third of expectiminimax's time on OpenSpiel's pig).
        ``refusal``: raised at the first chance node the search expands (a search that takes
        none, on a game that may have some: :meth:`chance_unknown`)."""
        self.refusing = refusal
        try:
            with uncollected():
                yield
        finally:
            self.refusing = None

    def chance_unknown(self) -> bool:
        """Whether the game may have chance nodes (it has ``outcomes()``) but none is known:
        none expanded so far, none among the root's children.  A search that takes none then
        runs, and stops at the first it meets (:meth:`searched`): a game of the user's may
        define ``outcomes()`` and never reach a chance state."""
        if self.chance is None or self.has_chance_nodes:
            return False
        return not any(
            type(k) is tuple and k[0] in EXPECTED_MOVER for k in self.info[self.root_key].kids
        )

    @property
    def n_leaves(self) -> int | None:  # type: ignore[override]
        """None: the leaves of a game searched on demand are not counted."""
        return None

    @property
    def lazy(self) -> bool:  # type: ignore[override]
        return True

    # -- the nodes -----------------------------------------------------------------------
    def expand(self, n: int) -> Entry:
        """Node n's entry with its moves and child entries (each entry expanded once, and
        kept beside the node: the next call for n does not hash its key again, until
        :meth:`release`)."""
        node = self.entries[n]
        if node is None:
            key = self.keys[n]
            if key is None:  # released: its parent's entry gives it again
                key = self._key(n)
            node = self.info.get(key)
            if node is None:
                node = self.info[key] = self._expand(key)
                if node.kind == CHANCE_NODE and self.refusing is not None:
                    raise self.refusing
            self.entries[n] = node
        return node

    def _key(self, n: int) -> Any:
        """The key of a released node n: its parent's entry's child, the parent's key found
        the same way, up to the nearest node kept (the root always is)."""
        keys, up = self.keys, self.up
        chain = []
        while keys[n] is None:
            chain.append(n)
            n = up[n]
        for m in reversed(chain):
            keys[m] = self.expand(up[m]).kids[self.index(m)]
        return keys[m]

    def release(self, n: int) -> None:
        """Forget the entries of node n's children, a depth-first search having left n for
        good (minimax, f1, alphabeta and expectiminimax without a table): their keys, their
        entries and the game's answers about their states.  Their numbers stay, with their
        parent, index and depth, so that the PV and the leaves are still paths; a node
        released and asked for again (the PV's names) is expanded again from its parent's
        entry, the game asked again, to the same entry."""
        first = self.first[n]
        if first < 0:
            return
        end = first + len(self.expand(n).kids)
        keys, entries, info, states = self.keys, self.entries, self.info, self.states
        general = self.general
        if not self.numbers[0] and self.c_positions is None:  # no table numbered the entries
            for c in range(first, end):  # met (position_numbers reads info, which then grows)
                key = keys[c]
                if key is not None:
                    info.pop(key, None)
                    states.pop(key[1] if general else key, None)
        gone = [None] * (end - first)
        keys[first:end] = gone
        entries[first:end] = gone

    def children(self, n: int) -> Iterator[int]:
        """Node n's children, numbered the first time they are listed."""
        return iter(self.open(n))

    def open(self, n: int) -> range:
        """Node n's children as a range of their numbers, numbered the first time they are
        listed; an empty range at a leaf (the depth-first and chance walks' one call a node)."""
        first = self.first[n]
        if first >= 0:
            node = self.entries[n]
            if node is None:  # released
                node = self.expand(n)
            return range(first, first + len(node.kids))
        node = self.expand(n)
        if not node.kids:
            return range(0)
        first = self._list(n, node)
        return range(first, first + len(node.kids))

    def kids(self, n: int) -> list[int]:
        """Node n's children as a list (mcts's)."""
        return list(self.children(n))

    def child(self, n: int, i: int) -> int:
        count = len(self.expand(n).kids)
        if not 0 <= i < count:
            raise IndexError(f"node {n} has no child {i}")
        return next(self.children(n)) + i

    def _list(self, n: int, node: Entry) -> int:
        """Number node n's children (its entry ``node``'s): the next free numbers, left to
        right."""
        first = len(self.keys)
        kids = node.kids
        k = len(kids)
        if first + k > self.max_nodes:
            raise self.limit_error()
        if self.deadline is not None and self.seconds_left() <= 0:
            raise OutOfTime
        self._check_line(n, node)
        depth = self.depths[n] + 1
        self.keys.extend(kids)
        self.entries.extend([None] * k)
        self.up.extend(array("q", [n]) * k)
        self.first.extend(array("q", [-1]) * k)
        self.depths.extend(array("q", [depth]) * k)
        if self.chance is not None:  # is_max counts the decision nodes above a node
            turns = self.turn_counts[n] + (node.kind != CHANCE_NODE)
            self.turn_counts.extend(array("q", [turns]) * k)
        if depth > self.deepest:
            self.deepest = depth
        self.first[n] = first
        self.visited = len(self.keys)
        return first

    def index(self, n: int) -> int:
        """Node n's index among its parent's children (they are numbered left to right)."""
        return n - self.first[self.up[n]] if n else 0

    def _check_line(self, n: int, node: Entry) -> None:
        """A GameError when a child's entry is node n's or an ancestor's: the game would not
        end (a counted game finds it while it counts).

        The line from the root to n is kept from one call to the next (:meth:`_walk_to`)
        with each entry's depth on it, so that the check costs the children and the steps
        from the last line to this one (which the search walked too), not n's depth."""
        on_line = self._walk_to(n)
        deepest = -1
        for kid in node.kids:
            try:
                at = on_line.get(kid, -1)
            except TypeError:
                self.game.key(kid, "play")
                raise
            deepest = max(deepest, at)
        if deepest >= 0:  # the entry nearest to n that comes back
            key = self.line_keys[deepest]
            state = key[1] if self.general else key
            raise GameError(
                f"{self.game.name}: the game does not end: state {state!r} comes back "
                "along a line of play"
            )

    def _walk_to(self, n: int) -> dict[Any, int]:
        """Make the kept line the line from the root to node n, and return its entries, each
        with its depth: up from n to the first node on the line (the root is on every line),
        the line cut below it, and the nodes from there down to n added."""
        line, line_keys, on_line = self.line, self.line_keys, self.on_line
        depths, up, keys = self.depths, self.up, self.keys
        down = []
        m = n
        while True:
            d = depths[m]
            if d < len(line) and line[d] == m:
                break
            down.append(m)
            m = up[m]
        for gone in line_keys[d + 1 :]:
            del on_line[gone]
        del line[d + 1 :], line_keys[d + 1 :]
        for m in reversed(down):
            key = keys[m]
            if key is None:  # released, then listed again
                key = self._key(m)
            on_line[key] = len(line)
            line.append(m)
            line_keys.append(key)
        return on_line

    # -- playouts ----------------------------------------------------------------------------
    def playout(
        self,
        n: int,
        uniform: Callable[[int], int],
        weighted: Callable[[Sequence[float]], int],
        most: int | None,
    ) -> Reached:
        """mcts's playout from node n, only the drawn moves played (:func:`.playouts.playout`)."""
        return playout(self, n, uniform, weighted, most)

    def reached_leaf(self, n: int, suffix: list[int], value: int | float, moves: int) -> Reached:
        """The leaf a playout from node n reached down ``suffix``, by its number (n, a leaf
        already) or as a loose leaf."""
        leaf = self.loose_leaf((*self.path_of(n), *suffix)) if suffix else self.known_leaf(n)
        return Reached(leaf, float(value), moves, True)

    def loose_leaf(self, path: tuple[int, ...]) -> int:
        """The number of the leaf at ``path`` that no listing numbered: ~i for the i-th such
        leaf (negative; :meth:`path_of` gives its path back), the same each time it is met."""
        leaf = self.loose.get(path)
        if leaf is None:
            leaf = self.loose[path] = ~len(self.loose_paths)
            self.loose_paths.append(path)
        return leaf

    def known_leaf(self, n: int) -> int:
        """A numbered leaf as the leaves read are counted: its loose number when a playout
        reached it before a listing numbered it, else n (one leaf, one number)."""
        if not self.loose:
            return n
        return self.loose.get(tuple(self.path_of(n)), n)

    def _end(self, n: int) -> Any:
        return n + 1 if not self.expand(n).kids else self.inner

    def entry(self, n: int) -> Entry:
        return self.expand(n)

    def value_at(self, n: int) -> float:
        return float(self._value(self.expand(n)))

    def raw_value(self, n: int) -> int | float:
        return self._value(self.expand(n))

    def _float(self, n: int) -> int:
        v = self.raw_value(n)
        return 1 if type(v) is float and v == v else 0

    def _chance(self, n: int) -> int:
        return 1 if self.expand(n).kind == CHANCE_NODE else 0

    def is_chance(self, n: int) -> bool:
        return self.expand(n).kind == CHANCE_NODE

    def leaf_bounds(self) -> tuple[int | float, int | float]:
        """The least and the greatest utility as the game gives them (``bounds``): mcts's
        rewards are scaled by them, and they are Star1's and Star2's L and U, since the leaves
        of a game searched on demand are unknown."""
        bounds = self.game.bounds  # checked as the game was opened (protocol.Game.check_bounds)
        if bounds is None:
            raise UsageError(
                f"{self.source}: searched on demand, the game's leaves are not known: mcts, "
                "star1 and star2 need --leaf-bounds L:U (the least and the greatest utility), "
                "or the game's bounds"
            )
        return bounds

    def position(self, n: int) -> Any:
        self.expand(n)
        return self.entry_position(self.keys[n], self.depths[n])

    def path_of(self, n: int) -> list[int]:
        if n < 0:  # a leaf only a playout reached
            return list(self.loose_paths[~n])
        path: list[int] = []
        while n > 0:
            path.append(self.index(n))
            n = self.up[n]
        return path[::-1]

    def paths_of(self, nodes: Any) -> dict[int, tuple[int, ...]]:
        return {int(n): tuple(self.path_of(int(n))) for n in nodes}

    def _names_along(self, n: int) -> list[str | None]:
        """The names of the moves from the root down to node n."""
        names: list[str | None] = []
        while n > 0:
            p = self.up[n]
            names.append(self.move_label(self.expand(p), self.index(n)))
            n = p
        return names[::-1]

    def move_names(self, path: Any) -> list[str | None]:
        node = 0
        for i in path:
            node = self.child(node, i)
        return self._names_along(node) if self.game.has_label else [None] * len(path)

    def name_at(self, n: int) -> str | None:
        if n == 0:
            return self.game.root_label
        if not self.game.has_label:
            return None
        if not self.game.cumulative:
            return self.move_label(self.expand(self.up[n]), self.index(n))
        return "".join(name or "" for name in self._names_along(n))

    def max_depth(self) -> int:
        """The deepest node numbered so far (the game's height is not known)."""
        return self.deepest

    def chance_nodes(self) -> int:
        return sum(1 for key in self.info if self.info[key].kind == CHANCE_NODE)

    # -- what needs the whole tree ----------------------------------------------------------
    def with_root(self, root_max: bool) -> Tree:
        """The same game with the other player to move at the root (--root), on demand too:
        its entries are shared, its nodes numbered afresh."""
        if root_max == self.root_max:
            return self
        t = OnDemandTree.__new__(OnDemandTree)
        shared = "where game info states limit general root_key has_chance_nodes max_nodes"
        for slot in (*shared.split(), "numbers", "key_array", "graph", "counted", "most_visits"):
            setattr(t, slot, getattr(self, slot))
        t.visited = 1
        t._number(root_max, self.source, 0)
        return t

    def whole(self, max_nodes: int) -> Tree:
        """The game counted, then built in full (show, trace, convert, validate): bounded as
        every counted game is (MAX_STATES distinct states, ``max_nodes``)."""
        counted = GameTree(self.game, **{**self.where, "max_nodes": max_nodes})
        if counted.root_max != self.root_max:
            counted = counted.with_root(self.root_max)  # type: ignore[assignment]
        return counted.whole(max_nodes)

    def reopened(self, **where: Any) -> GameTree:
        """The same game opened again as ``where`` says (a cut, another start), on demand."""
        return OnDemandTree(self.game, **where)

    def __repr__(self) -> str:
        """What the tree is so far: its nodes are numbered as a search lists them, so no
        s-expression of it exists before a search has walked it all."""
        root = "" if self.root_max else ", root=min"
        n = len(self.keys)
        return f"OnDemandTree({self.source!r}, {n:,} node{'s' * (n != 1)} numbered{root})"
