"""``game:`` sources: games described by their rules, searched as the algorithms reach them.

A game (:mod:`.protocol`) is numbered in preorder without building its tree:
:class:`GameTree` counts the size of every distinct *entry*'s subtree once (a
memo, so transpositions cost nothing) and the same flat algorithms as for
files then search it (``end``, ``values``, ``names``, ``chance`` and
``weights`` computed on demand along the last path, as for ``random:``).

An entry is a node of the tree gtsearch searches.  A game whose players
alternate (no ``player()``) and that is not cut by ``--depth`` has one entry
per state, the state itself.  Otherwise an entry is ``(tag, state, depth)``
(depth None without a cut): a decision (or the end), a chance node, or a
*forced move*: gtsearch's trees alternate over decision nodes, so where the
player who just moved (or who moved before a chance node) moves again, a node
of the other player with one child, named ``pass``, stands between, exactly
as Gambit's .efg files are read (docs/formats.md).  A chance node's children
expect the player that was expected at the chance node.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..core import native
from ..errors import UsageError
from ..tree import DEFAULT_MAX_NODES, Meta, Tree, index_array
from .gamecount import (
    MAX_STATES,
    UNLIMITED,
    Counted,
    CountedInC,
    Entry,
    TooMany,
    uncollected,
)
from .gamekeys import PositionKeys
from .gameviews import (
    CHANCE_NODE,
    CUT,
    DECIDE,
    FORCED,
    Chance,
    CumulativeTree,
    Depth,
    End,
    Floats,
    Lookup,
    Turns,
    Values,
    as_floats,
)
from .protocol import CHANCE, MAX, MIN, PASS, Game, GameError
from .randomtree import NATIVE_WHOLE_MAX_NODES

__all__ = ["MAX_STATES", "Game", "GameError", "GameTree", "TooMany"]

NAN = float("nan")
#: the tags of the entries' keys ``(tag, state, depth)``: DECIDE, FORCED, or a chance node's
#: tag, which says who is expected below it
CHANCE_TAGS = {MAX: 4, MIN: 5}
EXPECTED_MOVER = {4: MAX, 5: MIN}
OTHER_PLAYER = {MAX: MIN, MIN: MAX}


class _State:
    """A state's answers, asked once: who moves, the moves (or outcomes and weights), children."""

    __slots__ = ("player", "moves", "weights", "kids")

    def __init__(self, player: str | None, moves: tuple[Any, ...], weights: Any = None) -> None:
        self.player = player
        self.moves = moves
        self.weights = weights
        self.kids: tuple[Any, ...] | None = None


class GameTree(PositionKeys, CountedInC, Tree):
    """A game as a Tree numbered in preorder, its nodes computed on demand."""

    __slots__ = (
        "game",
        "info",
        "states",
        "limit",
        "general",
        "root_key",
        "has_chance_nodes",
        "path_nodes",
        "path_keys",
        "path_sizes",
        "visited",
        "max_nodes",
        "numbers",
        "key_array",
        "graph",
        "counted",
        "most_visits",
    )

    def __init__(
        self,
        game: Game,
        *,
        source: str,
        max_nodes: int = DEFAULT_MAX_NODES,
        limit: int | None = None,
        start: Any = None,
        start_max: bool | None = None,
        most: int = MAX_STATES,
    ) -> None:
        """The game from its initial state, or from ``start`` (MAX to move there when
        ``start_max``, for a game whose players alternate); ``limit``: cut at that depth;
        ``most``: the most distinct states counted (with --max-nodes), else :class:`TooMany`."""
        self.game = game
        self.info: dict[Any, Entry] = {}
        self.states: dict[Any, _State] = {}
        self.limit = limit
        self.general = game.has_player or limit is not None
        self.has_chance_nodes = False
        self.visited = 1
        self.max_nodes = max_nodes
        self.numbers: tuple[dict[Any, int], dict[Any, int]] = ({}, {})
        self.key_array: array[int] | None = None
        #: the entries' graph (first, kids, sizes, the root's number) when written out in C
        self.graph: tuple[array[int], array[int], array[int], int] | None = None
        #: the entries when counted in C (a built-in game's kernel): the C searches read the
        #: tree from their graph (native_view)
        self.counted: Counted | None = None
        #: the most nodes the cursors may visit (--max-nodes; UNLIMITED where the tree is
        #: searched as if written out)
        self.most_visits = max_nodes
        state = game.key(game.call("initial") if start is None else start, "initial")
        root_max = game.root_max if start_max is None else start_max
        if self.general:
            self.root_key, root_max = self._root(state, root_max)
        else:
            self.root_key = state
        self._number(root_max, source, min(most, MAX_STATES))

    def _number(self, root_max: bool, source: str, most: int) -> None:
        """Number the nodes: in preorder, from the sizes of the entries' subtrees, counted
        (at most ``most`` entries); the Tree's arrays."""
        game = self.game
        if not self._count_in_c(most):
            with uncollected():
                try:
                    self._count(self.root_key, most)
                except TooMany:  # freed before the collector runs again, which then has
                    self.info.clear()  # nothing of them to walk
                    self.states.clear()
                    raise
        root = self.info[self.root_key]
        size = root.size
        flat = None if self.counted is not None else self._flat()
        if self.counted is not None and size <= min(self.max_nodes, NATIVE_WHOLE_MAX_NODES):
            self.most_visits = UNLIMITED  # as the tree written out (_flat) is searched
        end, values, chance, weights = flat or (End(self, size), Values(self, size), None, None)
        super().__init__(
            end,
            values,
            root_max=root_max,
            source=source,
            n_leaves=root.leaves,
            depth=Depth(self, size),  # type: ignore[arg-type]
            meta=Meta(title=game.title),
            chance=chance,
            weights=weights,
        )
        self._views()

    def _views(self) -> None:
        """The cursor at the root, and the arrays that are always computed on demand."""
        size = self.info[self.root_key].size
        self.path_nodes, self.path_keys, self.path_sizes = [0], [self.root_key], [size]
        self.names = Lookup(self.name_at)  # type: ignore[assignment]
        self.floats = Floats(self, size)  # type: ignore[assignment]
        if self.has_chance_nodes and self.lazy:
            self.chance = Chance(self, size)  # type: ignore[assignment]
            self.weights = Lookup(self._weights_at)  # type: ignore[assignment]
            self._turns = Turns(self, size)  # type: ignore[assignment]

    @property
    def lazy(self) -> bool:  # type: ignore[override]
        """False when the tree was written out into flat arrays (:meth:`_flat`)."""
        return type(self.end) is not array

    # -- counting ---------------------------------------------------------------------------
    def _flat(self) -> tuple[Any, Any, bytearray | None, dict[int, Any]] | None:
        """The game tree written out whole in C from the counted entries, or None.

        Taken when the compiled core runs and the tree has at most --max-nodes
        and NATIVE_WHOLE_MAX_NODES nodes: the C searches then read it as they
        read a file, and the Python searches of chance nodes read flat arrays.
        The entries' values are asked of the game first (the utility at the
        end, the estimate or NaN elsewhere); if the game raises or returns a
        bad value, None: the tree stays computed on demand, and the error shows
        when, and only if, a search reaches that node.  A tree with chance
        nodes is written out twice, the second time with every entry's number
        as its value: that says which nodes are chance nodes, and their weights.
        """
        core = native()
        info = self.info
        size = info[self.root_key].size
        if core is None or size > min(self.max_nodes, NATIVE_WHOLE_MAX_NODES):
            return None
        first, kids, sizes, ids = self._graph()
        values = array("d")
        try:
            for node in info.values():
                values.append(self._value(node))
        except GameError:
            return None
        wide = index_array(size).typecode == "q"
        root = ids[self.root_key]
        end, vals = core.expand_states(first, kids, sizes, values, root, wide)
        self.graph = first, kids, sizes, root
        chance, weights = None, {}
        if self.has_chance_nodes:
            numbers = array("d", [float(i) for i in range(len(info))])
            _, at = core.expand_states(first, kids, sizes, numbers, root, wide)
            entries = list(info.values())
            chance = bytearray(size)
            for n, i in enumerate(at):
                node = entries[int(i)]
                if node.kind == CHANCE_NODE:
                    chance[n] = 1
                    weights[n] = node.weights
        return end, vals, chance, weights

    def _graph(self) -> tuple[array[int], array[int], array[int], dict[Any, int]]:
        """The graph of the entries for the C core's expand_states: each entry's children's
        numbers (kids[first[i]:first[i + 1]]) and subtree size, and the entries' numbers."""
        ids = {key: i for i, key in enumerate(self.info)}
        first, kids, sizes = array("q", [0]), array("q"), array("q")
        for node in self.info.values():
            kids.extend([ids[kid] for kid in node.kids])
            first.append(len(kids))
            sizes.append(node.size)
        return first, kids, sizes, ids

    def _root(self, state: Any, root_max: bool) -> tuple[Any, bool]:
        """The root's entry, and whether MAX is expected there: the player to move, or below a
        chance root the first player to move in preorder (as a .efg file is read); MAX when
        no one moves."""
        if not self.game.has_player:
            return (DECIDE, state, self._below(None)), root_max
        expected, todo, seen = None, [state], set()
        while todo and expected is None:
            here = todo.pop()
            st = self._state(here)
            if st.player == CHANCE and here not in seen:
                seen.add(here)
                todo.extend(reversed(self._kids(here, st)))
            elif st.player != CHANCE and st.moves:
                expected = st.player
        expected = expected or MAX
        tag = CHANCE_TAGS[expected] if self._state(state).player == CHANCE else DECIDE
        return (tag, state, self._below(None)), expected == MAX

    def _below(self, depth: int | None) -> int | None:
        """The depth of an entry's children in its key (None when the game is not cut)."""
        if self.limit is None:
            return None
        return 0 if depth is None else depth + 1

    def _state(self, state: Any) -> _State:
        """The game's answers about ``state``, asked once."""
        try:
            st = self.states.get(state)
        except TypeError:  # a child state that cannot be a key
            self.game.key(state, "play")
            raise
        if st is None:
            game = self.game
            who = game.player(state) if game.has_player else MAX
            if who == CHANCE:
                moves, weights = game.outcomes(state)
                st = _State(who, moves, weights)
            else:
                st = _State(who, () if who is None else game.moves(state))
            self.states[state] = st
        return st

    def _kids(self, state: Any, st: _State) -> tuple[Any, ...]:
        if st.kids is None:
            game = self.game
            play = game.obj.play
            try:
                kids = tuple([play(state, m) for m in st.moves])
            except BaseException as e:  # the user's code
                raise game.error("play", e) from None
            st.kids = kids
        return st.kids

    def _entry(self, state: Any, expected: str, depth: int | None) -> Any:
        """The key of the entry of a child ``state`` where ``expected`` is expected to move."""
        if not self.game.has_player:
            return (DECIDE, state, depth)
        st = self._state(state)
        if st.player == CHANCE:
            return (CHANCE_TAGS[expected], state, depth)
        if st.player == expected or not st.moves:
            return (DECIDE, state, depth)
        return (FORCED, state, depth)

    def _expand(self, key: Any) -> Entry:
        """The entry ``key`` with the keys of its children (the game's answers asked once)."""
        if not self.general:
            game = self.game
            moves = game.moves(key)
            play = game.obj.play
            try:
                kids = tuple([play(key, m) for m in moves])
            except BaseException as e:  # the user's code
                raise game.error("play", e) from None
            return Entry(key, moves, kids)
        tag, state, depth = key
        st = self._state(state)
        if tag == DECIDE and not st.moves:
            return Entry(state, (), ())
        if self.limit is not None and depth >= self.limit:
            return Entry(state, (), (), CUT)
        below = self._below(depth)
        if tag == FORCED:
            return Entry(state, (PASS,), ((DECIDE, state, below),), FORCED)
        kids = self._kids(state, st)
        if tag == DECIDE:
            expected = OTHER_PLAYER.get(st.player, MAX)  # type: ignore[arg-type]
            return Entry(state, st.moves, tuple([self._entry(k, expected, below) for k in kids]))
        self.has_chance_nodes = True
        expected = EXPECTED_MOVER[tag]
        node = Entry(state, st.moves, tuple([self._entry(k, expected, below) for k in kids]))
        node.kind, node.weights = CHANCE_NODE, st.weights
        return node

    def _count(self, root: Any, most: int) -> None:
        """Every distinct entry's subtree size and leaves, depth-first without recursion.

        An entry is expanded once; an entry met again that is expanded but not
        finished lies on the current line of play: the game would not end.
        """
        info = self.info
        expand = self._expand
        limit = min(self.max_nodes, most)
        node = info[root] = expand(root)
        nodes = [node]
        at = [0]
        while nodes:
            node = nodes[-1]
            kids = node.kids
            i = at[-1]
            count = len(kids)
            while i < count:
                kid = kids[i]
                try:
                    sub = info.get(kid)
                except TypeError:
                    self.game.key(kid, "play")
                    raise
                if sub is None:
                    break
                if not sub.size:
                    state = kid[1] if self.general else kid
                    raise GameError(
                        f"{self.game.name}: the game does not end: state {state!r} comes back "
                        "along a line of play"
                    )
                i += 1
            if i < count:
                at[-1] = i + 1
                if len(info) >= limit:
                    raise TooMany(self.game.name, limit)
                sub = info[kid] = expand(kid)
                nodes.append(sub)
                at.append(0)
                continue
            size, leaves, starts, height = 1, 0, [], -1
            for kid in kids:
                starts.append(size)
                sub = info[kid]
                size += sub.size
                leaves += sub.leaves
                if sub.height > height:
                    height = sub.height
            node.starts, node.size, node.height = starts, size, height + 1
            node.leaves = leaves if kids else 1
            nodes.pop()
            at.pop()

    # -- the cursor ------------------------------------------------------------------------
    def locate(self, n: int) -> int:
        """Move the path to node n (depth-first steps cost O(1)); return n's depth."""
        nodes = self.path_nodes
        k = len(nodes) - 1
        if nodes[k] == n:
            return k
        sizes, keys = self.path_sizes, self.path_keys
        while k and not nodes[k] <= n < nodes[k] + sizes[k]:
            k -= 1
        if k + 1 < len(nodes):
            del nodes[k + 1 :], keys[k + 1 :], sizes[k + 1 :]
        info = self.info
        while nodes[k] != n:
            m = nodes[k]
            node = info[keys[k]]
            starts = node.starts
            off = n - m
            i = 0 if off == 1 else bisect_right(starts, off) - 1
            self.visited += 1
            if self.visited > self.most_visits:
                raise self.limit_error()
            kid = node.kids[i]
            nodes.append(m + starts[i])
            keys.append(kid)
            sizes.append(info[kid].size)
            k += 1
        return k

    def entry(self, n: int) -> Entry:
        """The entry of node n (its ``state``, ``moves``, ``kind``)."""
        return self.info[self.path_keys[self.locate(n)]]

    def moves(self, n: int, count: int) -> Sequence[Any]:
        """The game's moves from node n (a forced move: the pass)."""
        return self.entry(n).moves

    def state_at(self, n: int) -> Any:
        """The game's state at node n (a forced move's node: the state of the player who
        moves again)."""
        return self.entry(n).state

    def _value(self, node: Entry) -> int | float:
        """An entry's value as the game gives it: the utility at the end, the estimate at
        the --depth cut and elsewhere, NaN without one."""
        game = self.game
        if node.kind == CUT:
            return game.number("estimate", node.state)
        if not node.kids:
            return game.number("utility", node.state)
        return game.number("estimate", node.state) if game.has_estimate else NAN

    def value_at(self, n: int) -> float:
        return float(self.raw_value(n))

    def raw_value(self, n: int) -> int | float:
        """Node n's value as the game gives it (an int or a float), NaN without one."""
        return self._value(self.entry(n))

    def _move_name(self, k: int) -> str | None:
        """The name of the move that leads to the node at depth k of the path."""
        parent = self.info[self.path_keys[k - 1]]
        if parent.kind == FORCED:
            return self.move_label(parent, 0)
        return self.move_label(
            parent, parent.starts.index(self.path_nodes[k] - self.path_nodes[k - 1])
        )

    def move_label(self, parent: Entry, i: int) -> str | None:
        """The name of the move to child i of an entry (a forced move's: ``pass``): the names
        of the entry's moves are asked of the game and checked (one line each, distinct among
        siblings) the first time one of them is, not as the entry is expanded."""
        if parent.kind == FORCED:
            return PASS if self.game.has_label else None
        names = parent.names
        if names is None:  # the names of the entry's moves, asked and checked once
            names = parent.names = self.game.labels(parent.state, parent.moves)
        return names[i]

    def move_names(self, path: Any) -> list[str | None]:
        """The names of the moves along a path of child indices from the root, each the move's
        own label (tic-tac-toe's nodes are named by every square so far, its moves by one)."""
        names: list[str | None] = []
        node = 0
        for i in path:
            node = self.child(node, i)
            names.append(self._move_name(self.locate(node)) if self.game.has_label else None)
        return names

    def line_labels(self, line: Sequence[int]) -> tuple[str | None, ...]:
        """The moves' own labels along the line (tic-tac-toe: ``5``, not ``15``)."""
        return tuple(self.move_names(self.path_of(line[-1]))) if len(line) > 1 else ()

    def name_at(self, n: int) -> str | None:
        k = self.locate(n)
        if k == 0:
            return self.game.root_label
        if not self.game.has_label:
            return None
        if not self.game.cumulative:
            return self._move_name(k)
        return "".join(self._move_name(j) or "" for j in range(1, k + 1))

    def _weights_at(self, n: int) -> Any:
        node = self.entry(n)
        return node.weights if node.kind == CHANCE_NODE else None

    def float_weights(self) -> Lookup:
        """The chance nodes' weights as doubles, computed on demand (mcts's)."""
        return Lookup(lambda n: as_floats(self._weights_at(n)))

    def max_depth(self) -> int:
        return self.info[self.root_key].height

    def chance_nodes(self) -> int:
        if not self.has_chance_nodes:
            return 0
        return sum(1 for n in range(len(self.end)) if self.entry(n).kind == CHANCE_NODE)

    def with_root(self, root_max: bool) -> Tree:
        t = GameTree.__new__(GameTree)
        shared = "game info states limit general root_key visited counted most_visits"
        for slot in shared.split():  # the game, its entries and the cursor's count
            setattr(t, slot, getattr(self, slot))
        t.has_chance_nodes, t.max_nodes = self.has_chance_nodes, self.max_nodes
        size = len(self.end)
        flat = type(self.end) is array
        t.numbers, t.key_array, t.graph = self.numbers, None, self.graph if flat else None
        t.path_nodes, t.path_keys, t.path_sizes = [0], [self.root_key], [size]
        Tree.__init__(
            t,
            self.end if flat else End(t, size),
            self.values if flat else Values(t, size),
            root_max=root_max,
            source=self.source,
            n_leaves=self.n_leaves,
            depth=Depth(t, size),  # type: ignore[arg-type]
            meta=self.meta,
            chance=self.chance if flat else None,
            weights=self.weights if flat else None,
        )
        t._views()
        return t

    def whole(self, max_nodes: int) -> Tree:
        """The game tree built in full (show, trace, convert, validate), bounded by max_nodes."""
        size = len(self.end)
        if size > max_nodes:
            raise UsageError(
                f"{self.source}: {size:,} nodes, more than --max-nodes {max_nodes:,}; "
                "this command needs the whole tree: raise --max-nodes"
            )
        fresh = self.with_root(self.root_max)
        assert isinstance(fresh, GameTree)
        fresh.max_nodes = fresh.most_visits = UNLIMITED
        end = index_array(size)
        vals = array("d")
        floats = bytearray(size)
        chance = bytearray(size) if self.has_chance_nodes else None
        weights = {}
        names: dict[int, str] = {}
        for n in range(size):
            k = fresh.locate(n)
            end.append(n + fresh.path_sizes[k])
            node = fresh.info[fresh.path_keys[k]]
            v = fresh._value(node)
            vals.append(float(v))
            if type(v) is float and v == v:
                floats[n] = 1
            if node.kind == CHANCE_NODE and chance is not None:
                chance[n] = 1
                weights[n] = node.weights
            name = fresh.name_at(n)
            if name is not None:
                names[n] = name
        built = CumulativeTree if self.game.cumulative and self.game.has_label else Tree
        return built(
            end,
            vals,
            names=names,
            floats=floats,
            root_max=self.root_max,
            meta=self.meta,
            source=self.source,
            n_leaves=self.n_leaves,
            chance=chance,
            weights=weights,  # type: ignore[arg-type]
        )

    def truncated(self, limit: int) -> Tree:
        """The game cut at depth ``limit``: a position there is a leaf worth estimate(state)."""
        if not self.game.has_estimate:
            raise UsageError(f"{self.source}: --depth needs the game's estimate(state)")
        tree = self.reopened(
            source=self.source,
            max_nodes=self.max_nodes,
            limit=limit,
            start=self.info[self.root_key].state,
            start_max=self.root_max if not self.game.has_player else None,
        )
        return tree if tree.root_max == self.root_max else tree.with_root(self.root_max)

    def reopened(self, **where: Any) -> GameTree:
        """The same game opened again as ``where`` says (a cut, another start), counted."""
        return GameTree(self.game, **where)
