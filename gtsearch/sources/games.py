"""``game:`` sources: games described by their rules, searched as the algorithms reach them.

A game is an object with ``initial()``, ``moves(state)`` (a sequence, in the
order to search; empty at the end of the game), ``play(state, move)``,
``utility(state)`` (MAX's payoff at the end) and optionally
``label(state, move)``, ``estimate(state)`` and ``root`` (docs/sources.md).
States must be hashable: a :class:`GameTree` counts the size of every
distinct state's subtree once (a memo over the states, so transpositions cost
nothing), which numbers the game tree in preorder without building it; the
same flat algorithms as for files then search it (``end``, ``values`` and
``names`` computed on demand along the last path, as for ``random:``).

An exception raised by the game's code is reported as one line naming the
method and the place in the user's file (exit status 2): this module is the
boundary with code that is not ours, the one place that catches every
exception of a call.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
import traceback
from array import array
from bisect import bisect_right
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from ..core import native
from ..errors import GtsearchError, UsageError, shown
from ..tree import DEFAULT_MAX_NODES, Meta, Tree, index_array
from .randomtree import NATIVE_WHOLE_MAX_NODES, NodeLimit
from .virtual import Virtual

NAN = float("nan")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class GameError(GtsearchError):
    """The game's code raised, or broke the protocol (docs/sources.md)."""


def _place(err: BaseException) -> str:
    """file:line of the innermost frame of the traceback outside gtsearch."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename]
    for frame in reversed(frames):
        if not os.path.abspath(frame.filename).startswith(_PACKAGE + os.sep):
            return f"{frame.filename}:{frame.lineno}"
    last = frames[-1] if frames else None
    return f"{last.filename}:{last.lineno}" if last else "?"


class Game:
    """A game object behind the protocol's calls, every call checked."""

    def __init__(self, obj: Any, name: str) -> None:
        self.obj = obj
        self.name = name
        for method in ("initial", "moves", "play", "utility"):
            if not callable(getattr(obj, method, None)):
                raise GameError(f"{name}: the game has no method {method}(); docs/sources.md")
        self.has_label = callable(getattr(obj, "label", None))
        self.has_estimate = callable(getattr(obj, "estimate", None))
        root = getattr(obj, "root", "max")
        if root not in ("max", "min"):
            raise GameError(f"{name}: root must be 'max' or 'min', got {shown(str(root))}")
        self.root_max = root == "max"
        #: built-in games' names are the moves so far (tic-tac-toe: "5", "51", ...)
        self.cumulative = bool(getattr(obj, "cumulative_labels", False))
        self.root_label: str | None = getattr(obj, "root_label", None)
        self.title: str | None = getattr(obj, "title", None)

        #: built-in games are trusted to give distinct labels (checked by the tests)
        self.trusted = bool(getattr(obj, "trusted", False))

    def call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.obj, method)(*args)
        except GtsearchError:
            raise
        except Exception as e:  # the user's code: any exception is theirs to see, on one line
            raise self.error(method, e) from None

    def error(self, method: str, e: Exception) -> GameError:
        """The one line that reports an exception of the game's ``method``."""
        return GameError(f"{self.name}: {method}() raised {type(e).__name__}: {e} ({_place(e)})")

    def number(self, method: str, state: Any) -> int | float:
        v = self.call(method, state)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise GameError(f"{self.name}: {method}() must return a finite number, got {v!r}")
        if isinstance(v, int) and abs(v) > 2**53:
            raise GameError(f"{self.name}: {method}() returned {v}, beyond 2**53")
        return v


class _Info:
    """One distinct state: its moves, child states, child offsets, subtree size and leaves."""

    __slots__ = ("moves", "kids", "starts", "size", "leaves", "height")

    def __init__(self, moves: tuple[Any, ...], kids: tuple[Any, ...]) -> None:
        self.moves = moves
        self.kids = kids
        self.starts: list[int] = []
        self.size = 0
        self.leaves = 0
        self.height = 0


#: the most distinct states of a game counted (each keeps its moves and children: memory)
MAX_STATES = 1_000_000


class GameTree(Tree):
    """A game as a Tree numbered in preorder, its nodes computed on demand."""

    __slots__ = ("game", "info", "path_nodes", "path_states", "path_sizes", "visited", "max_nodes")

    def __init__(self, game: Game, *, source: str, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.game = game
        self.info: dict[Any, _Info] = {}
        self.visited = 1
        self.max_nodes = max_nodes
        root = game.call("initial")
        self._count(root)
        size = self.info[self._key(root)].size
        self.path_nodes = [0]
        self.path_states = [root]
        self.path_sizes = [size]
        flat = self._flat(root)
        end, values = flat if flat is not None else (_End(self, size), _Values(self, size))
        super().__init__(
            end,
            values,
            root_max=game.root_max,
            source=source,
            n_leaves=self.info[self._key(root)].leaves,
            depth=_Depth(self, size),  # type: ignore[arg-type]
            meta=Meta(title=game.title),
        )
        self.names = _Names(self)  # type: ignore[assignment]
        self.floats = _Floats(self, size)  # type: ignore[assignment]

    @property
    def lazy(self) -> bool:  # type: ignore[override]
        """False when the tree was written out into flat arrays (:meth:`_flat`)."""
        return type(self.end) is not array

    def _flat(self, root: Any) -> tuple[array[int], array[float]] | None:
        """The game tree written out whole in C from the counted states, or None.

        Taken when the compiled core runs and the tree has at most
        --max-nodes and NATIVE_WHOLE_MAX_NODES nodes: the C searches then read it
        as they read a file.  The states' values are asked of the game first
        (the utility at the end, the estimate or NaN elsewhere); if the game
        raises or returns a bad value, None: the tree stays computed on demand,
        and the error shows when, and only if, a search reaches that node.
        """
        core = native()
        info = self.info
        size = info[root].size
        if core is None or size > min(self.max_nodes, NATIVE_WHOLE_MAX_NODES):
            return None
        game = self.game
        ids = {state: i for i, state in enumerate(info)}
        first, kids, sizes, values = array("q", [0]), array("q"), array("q"), array("d")
        try:
            for state, node in info.items():
                if node.kids:
                    kids.extend([ids[kid] for kid in node.kids])
                    v: float = game.number("estimate", state) if game.has_estimate else NAN
                else:
                    v = game.number("utility", state)
                first.append(len(kids))
                sizes.append(node.size)
                values.append(v)
        except GameError:
            return None
        wide = index_array(size).typecode == "q"
        end, vals = core.expand_states(first, kids, sizes, values, ids[root], wide)
        return end, vals

    def _key(self, state: Any) -> Any:
        if not isinstance(state, Hashable):
            raise GameError(
                f"{self.game.name}: states must be hashable (tuples, not lists), got "
                f"{type(state).__name__}"
            )
        return state

    def _expand(self, state: Any) -> _Info:
        game = self.game
        try:
            moves = game.obj.moves(state)
        except Exception as e:  # the user's code
            raise game.error("moves", e) from None
        if type(moves) is not list and type(moves) is not tuple:
            if not isinstance(moves, Sequence) or isinstance(moves, (str, bytes)):
                raise GameError(
                    f"{game.name}: moves() must return a sequence (a list or a tuple), got "
                    f"{type(moves).__name__}"
                )
        moves = tuple(moves)
        play = game.obj.play
        try:
            kids = tuple([play(state, m) for m in moves])
        except Exception as e:  # the user's code
            raise game.error("play", e) from None
        if game.has_label and moves and not game.trusted:
            labels = [self._label(state, m) for m in moves]
            if len(set(labels)) != len(labels):
                raise GameError(f"{game.name}: label() gives two moves the same name: {labels}")
        return _Info(moves, kids)

    def _label(self, state: Any, move: Any) -> str:
        label = self.game.call("label", state, move)
        if not isinstance(label, str):
            raise GameError(f"{self.game.name}: label() must return a str, got {label!r}")
        return label

    def _count(self, root: Any) -> None:
        """Every distinct state's subtree size and leaves, depth-first without recursion.

        A state is expanded once; a state met again that is expanded but not
        finished lies on the current line of play: the game would not end.
        """
        info = self.info
        expand = self._expand
        limit = min(self.max_nodes, MAX_STATES)
        self._key(root)
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
                    self._key(kid)
                    raise
                if sub is None:
                    break
                if not sub.size:
                    raise GameError(
                        f"{self.game.name}: the game does not end: state {kid!r} comes back "
                        "along a line of play"
                    )
                i += 1
            if i < count:
                at[-1] = i + 1
                if len(info) >= limit:
                    raise NodeLimit(
                        f"{self.game.name}: more than {limit:,} distinct states; a game's states "
                        "are counted before it is searched, at most --max-nodes and "
                        f"{MAX_STATES:,} of them: raise --max-nodes or take a smaller game"
                    )
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

    transpositions = True

    def position(self, n: int) -> Any:
        """Node n's position: the game's key(state) (by default the state) and who moves."""
        k = self.locate(n)
        state = self.path_states[k]
        key = getattr(self.game.obj, "key", None)
        return (
            state if key is None else self.game.call("key", state),
            self.root_max == (k % 2 == 0),
        )

    # -- the cursor ------------------------------------------------------------------------
    def locate(self, n: int) -> int:
        """Move the path to node n (depth-first steps cost O(1)); return n's depth."""
        nodes = self.path_nodes
        k = len(nodes) - 1
        if nodes[k] == n:
            return k
        sizes, states = self.path_sizes, self.path_states
        while k and not nodes[k] <= n < nodes[k] + sizes[k]:
            k -= 1
        if k + 1 < len(nodes):
            del nodes[k + 1 :], states[k + 1 :], sizes[k + 1 :]
        info = self.info
        while nodes[k] != n:
            m = nodes[k]
            node = info[states[k]]
            starts = node.starts
            off = n - m
            i = 0 if off == 1 else bisect_right(starts, off) - 1
            self.visited += 1
            if self.visited > self.max_nodes:
                raise NodeLimit(
                    f"{self.source}: the search visited more than --max-nodes "
                    f"{self.max_nodes:,} nodes; raise --max-nodes"
                )
            kid = node.kids[i]
            nodes.append(m + starts[i])
            states.append(kid)
            sizes.append(info[kid].size)
            k += 1
        return k

    def value_at(self, n: int) -> float:
        return float(self.raw_value(n))

    def raw_value(self, n: int) -> int | float:
        """Node n's value as the game gives it (an int or a float), NaN without one."""
        k = self.locate(n)
        state = self.path_states[k]
        if self.path_sizes[k] == 1:
            return self.game.number("utility", state)
        if self.game.has_estimate:
            return self.game.number("estimate", state)
        return NAN

    def name_at(self, n: int) -> str | None:
        k = self.locate(n)
        if k == 0:
            return self.game.root_label
        if not self.game.has_label:
            return None
        nodes, states = self.path_nodes, self.path_states
        if not self.game.cumulative:
            parent = self.info[states[k - 1]]
            i = parent.starts.index(nodes[k] - nodes[k - 1])
            return self._label(states[k - 1], parent.moves[i])
        parts = []
        for j in range(1, k + 1):
            parent = self.info[states[j - 1]]
            i = parent.starts.index(nodes[j] - nodes[j - 1])
            parts.append(self._label(states[j - 1], parent.moves[i]))
        return "".join(parts)

    def max_depth(self) -> int:
        return self.info[self.path_states[0]].height

    def with_root(self, root_max: bool) -> Tree:
        t = GameTree.__new__(GameTree)
        for slot in ("game", "info", "visited", "max_nodes"):
            setattr(t, slot, getattr(self, slot))
        size = len(self.end)
        t.path_nodes, t.path_states, t.path_sizes = [0], [self.path_states[0]], [size]
        flat = type(self.end) is array
        Tree.__init__(
            t,
            self.end if flat else _End(t, size),
            self.values if flat else _Values(t, size),
            root_max=root_max,
            source=self.source,
            n_leaves=self.n_leaves,
            depth=_Depth(t, size),  # type: ignore[arg-type]
            meta=self.meta,
        )
        t.names = _Names(t)  # type: ignore[assignment]
        t.floats = _Floats(t, size)  # type: ignore[assignment]
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
        fresh.max_nodes = 2**62
        end = index_array(size)
        vals = array("d")
        floats = bytearray(size)
        names: dict[int, str] = {}
        for n in range(size):
            k = fresh.locate(n)
            end.append(n + fresh.path_sizes[k])
            v = fresh.raw_value(n)
            vals.append(float(v))
            if type(v) is float and v == v:
                floats[n] = 1
            name = fresh.name_at(n)
            if name is not None:
                names[n] = name
        return Tree(
            end,
            vals,
            names=names,
            floats=floats,
            root_max=self.root_max,
            meta=self.meta,
            source=self.source,
            n_leaves=self.n_leaves,
        )

    def truncated(self, limit: int) -> Tree:
        """The game cut at depth ``limit``: a position there is a leaf worth estimate(state)."""
        if not self.game.has_estimate:
            raise UsageError(f"{self.source}: --depth needs the game's estimate(state)")
        game = Game(_Limited(self.game, limit), self.game.name)
        tree = GameTree(game, source=self.source, max_nodes=self.max_nodes)
        return tree if tree.root_max == self.root_max else tree.with_root(self.root_max)


class _Limited:
    """A game whose positions at depth ``limit`` end it, worth their estimate."""

    def __init__(self, game: Game, limit: int) -> None:
        self.inner = game.obj
        self.limit = limit
        for attr in ("root", "title", "root_label", "cumulative_labels", "trusted"):
            if hasattr(self.inner, attr):
                setattr(self, attr, getattr(self.inner, attr))
        if game.has_label:
            self.label = lambda state, move: self.inner.label(state[0], move)

    def initial(self) -> Any:
        return (self.inner.initial(), 0)

    def moves(self, state: Any) -> Any:
        return () if state[1] >= self.limit else self.inner.moves(state[0])

    def play(self, state: Any, move: Any) -> Any:
        return (self.inner.play(state[0], move), state[1] + 1)

    def utility(self, state: Any) -> Any:
        inner = state[0]
        return self.inner.estimate(inner) if self.inner.moves(inner) else self.inner.utility(inner)

    def estimate(self, state: Any) -> Any:
        return self.inner.estimate(state[0])


class _End(Virtual["GameTree"]):
    def __getitem__(self, n: Any) -> Any:
        if type(n) is int and 0 <= n < self.size:  # the searches' case, first
            t = self.owner
            return n + t.path_sizes[t.locate(n)]
        return super().__getitem__(n)

    def _at(self, n: int) -> int:
        t = self.owner
        return n + t.path_sizes[t.locate(n)]


class _Values(Virtual["GameTree"]):
    def __getitem__(self, n: Any) -> Any:
        if type(n) is int and 0 <= n < self.size:
            return self.owner.value_at(n)
        return super().__getitem__(n)

    def _at(self, n: int) -> float:
        return self.owner.value_at(n)


class _Floats(Virtual["GameTree"]):
    """1 where the game gave a float (so output prints 2.0 as 2.0, as a file would)."""

    def _at(self, n: int) -> int:
        v = self.owner.raw_value(n)
        return 1 if type(v) is float and v == v else 0


class _Depth(Virtual["GameTree"]):
    def _at(self, n: int) -> int:
        return self.owner.locate(n)


class _Names(Mapping[int, str]):
    """Node names computed on demand (a mapping that answers get(n))."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree

    def __getitem__(self, n: int) -> str:
        name = self.tree.name_at(n)
        if name is None:
            raise KeyError(n)
        return name

    def get(self, n: int, default: Any = None) -> Any:
        name = self.tree.name_at(n)
        return default if name is None else name

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[int]:
        return iter(())


# -- finding the game ----------------------------------------------------------------------
def load_game(spec: str) -> tuple[Any, str]:
    """The game object a spec (the text after ``game:``) names, and its display name."""
    from .builtin_games import BUILTIN

    name, _, arg = spec.partition(":")
    if name in BUILTIN:
        return BUILTIN[name](arg), f"game:{spec}"
    if not arg:
        raise UsageError(
            f"game:{spec}: no such built-in game ({', '.join(sorted(BUILTIN))}); "
            "a game of yours is game:MODULE:ATTRIBUTE"
        )
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        raise UsageError(f"game:{spec}: cannot import module {name!r}: {e}") from None
    except Exception as e:  # the user's module raised while it was imported
        raise GameError(
            f"game:{spec}: importing {name} raised {type(e).__name__}: {e} ({_place(e)})"
        ) from None
    obj = getattr(module, arg, None)
    if obj is None:
        raise UsageError(f"game:{spec}: module {name} has no attribute {arg!r}")
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as e:  # the user's constructor
            raise GameError(
                f"game:{spec}: {arg}() raised {type(e).__name__}: {e} ({_place(e)})"
            ) from None
    return obj, f"game:{spec}"


def open_game(spec: str, *, max_nodes: int = DEFAULT_MAX_NODES) -> GameTree:
    obj, name = load_game(spec)
    return GameTree(Game(obj, name), source=name, max_nodes=max_nodes)
