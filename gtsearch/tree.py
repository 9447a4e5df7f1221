"""The game tree: flat preorder arrays, one int per node, no object per node.

Node ``n`` is its preorder number (the root is 0).  ``end[n]`` is one past the
last node of its subtree, so ``n`` is a leaf when ``end[n] == n + 1``, its
first child is ``n + 1`` and the sibling after child ``c`` is ``end[c]`` (if it
is below ``end[n]``).  The descendants of ``n`` are exactly ``n+1 .. end[n]-1``,
which makes "is d below n" a comparison and lets SSS* purge by interval.

``values[n]`` is the leaf value of a leaf (MAX's payoff) and the static value
of an internal node, or NaN where an internal node has none.  Values are kept
as float64; ``floats`` remembers which were written as floats so that output
prints them as the file wrote them (3 stays 3, 2.5 stays 2.5).

Chance nodes (dice, cards): ``chance[n]`` is 1 at a chance node (``chance`` is
None when the tree has none, and then nothing below changes), and
``weights[n]`` holds the weights of its children as written (absent: equally
likely); :meth:`Tree.probabilities` normalises them exactly.  The players
alternate over decision nodes only: the children of a chance node are moved
by the player opposite to the decision node above it, and below a chance
root the root player moves (docs/algorithms.md, "Chance nodes").
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .errors import shown
from .numbers import Number, exact, format_number

if TYPE_CHECKING:
    from fractions import Fraction

DEFAULT_MAX_NODES = 50_000_000
#: trees this large compute derived arrays (depths) with numpy
NUMPY_MIN_NODES = 100_000
NAN = float("nan")

#: keys of the document wrapper, in the order writers emit them
META_KEYS = ("root", "title", "description", "expect")


class Meta:
    """Document metadata: what the wrapper of a tree file says besides the tree.

    ``root`` is the root player the file states (``"max"``/``"min"``), or None.
    ``expect_at`` is where the file states ``expect`` (the 1-based line and
    column of its key), for messages that point at it; it is not part of
    the metadata's value (two equal documents may place it differently).
    (A plain class, not a dataclass: building a dataclass costs start-up time.)
    """

    __slots__ = ("title", "description", "expect", "root", "extra", "expect_at")
    _FIELDS = ("title", "description", "expect", "root", "extra")

    def __init__(
        self,
        title: str | None = None,
        description: str | None = None,
        expect: Number | None = None,
        root: str | None = None,
        extra: dict[str, Any] | None = None,
        expect_at: tuple[int, int] | None = None,
    ) -> None:
        self.title = title
        self.description = description
        self.expect = expect
        self.root = root
        self.extra: dict[str, Any] = {} if extra is None else extra
        self.expect_at = expect_at

    def _fields(self) -> tuple[Any, ...]:
        return (self.title, self.description, self.expect, self.root, self.extra)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meta):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in zip(self._FIELDS, self._fields(), strict=True))
        return f"Meta({inner})"


def index_array(n: int) -> array[int]:
    """An empty int array wide enough for node numbers up to n."""
    return array("i") if n < 2**31 - 1 else array("q")


def _zeros(n: int) -> array[int]:
    a = index_array(n)
    a.frombytes(bytes(a.itemsize * n))
    return a


class Tree:
    """A game tree in flat preorder arrays (see the module docstring)."""

    __slots__ = (
        "end",
        "values",
        "floats",
        "names",
        "root_max",
        "meta",
        "source",
        "chance",
        "weights",
        "_parent",
        "_depth",
        "_turns",
        "_n_leaves",
    )

    #: whether end and values are computed on demand (gtsearch.sources): no numpy, no C core
    lazy = False
    #: whether two nodes can be one position (a game's tree; see :meth:`position`)
    transpositions = False
    #: whether the nodes are numbered as a search first lists them, not in preorder (a game
    #: too big to count, gtsearch.sources.ondemand): walked through children() only
    on_demand = False

    def searched(self, refusal: Exception | None = None) -> AbstractContextManager[None]:
        """What a search of the tree runs in: nothing here.  A game searched on demand pauses
        Python's cycle collector, and raises ``refusal`` at the first chance node the search
        meets (:meth:`gtsearch.sources.ondemand.OnDemandTree.searched`)."""
        return nullcontext()

    def chance_unknown(self) -> bool:
        """Whether the tree may have chance nodes without any known yet (a game searched on
        demand: :meth:`gtsearch.sources.ondemand.OnDemandTree.chance_unknown`); a tree
        that is not knows its own."""
        return False

    def __init__(
        self,
        end: Sequence[int],
        values: Sequence[float],
        *,
        names: dict[int, str] | None = None,
        floats: bytearray | None = None,
        root_max: bool = True,
        meta: Meta | None = None,
        source: str = "<tree>",
        n_leaves: int | None = None,
        depth: array[int] | None = None,
        chance: bytearray | None = None,
        weights: dict[int, tuple[Number, ...]] | None = None,
    ) -> None:
        self.end = end
        self.values = values
        #: floats[n] == 1 where the file wrote node n's value as a float; None: all ints
        self.floats = floats if floats is not None and any(floats) else None
        self.names = names or {}
        self.root_max = root_max
        self.meta = meta or Meta()
        self.source = source
        #: chance[n] == 1 at a chance node; None when the tree has no chance node
        self.chance = chance if chance is not None and any(chance) else None
        #: the weights of a chance node's children, as written; absent: equally likely
        self.weights: dict[int, tuple[Number, ...]] = weights or {}
        self._parent: array[int] | None = None
        self._depth: array[int] | None = depth
        #: decision nodes strictly above each node (chance trees only)
        self._turns: array[int] | None = None
        self._n_leaves: int | None = n_leaves

    # -- shape -------------------------------------------------------------
    @property
    def n_nodes(self) -> int:
        return len(self.end)

    def __len__(self) -> int:
        return len(self.end)

    @property
    def n_leaves(self) -> int:
        if self._n_leaves is None:
            end = self.end
            self._n_leaves = sum(1 for n, e in enumerate(end, 1) if e == n)
        return self._n_leaves

    def is_leaf(self, n: int) -> bool:
        return self.end[n] == n + 1

    def children(self, n: int) -> Iterator[int]:
        end = self.end
        stop = end[n]
        c = n + 1
        while c < stop:
            yield c
            c = end[c]

    def position(self, n: int) -> Hashable:
        """Node n's position, a transposition table's key: the node itself (a game's tree
        gives the game's key of the state and who moves; docs/algorithms.md)."""
        return n

    def moves(self, n: int, count: int) -> Sequence[Hashable]:
        """The moves from node n to its ``count`` children, in order: their indices (a game's
        tree gives the game's moves; move ordering, docs/algorithms.md)."""
        return range(count)

    def position_keys(self) -> array[int] | None:
        """Every node's position in an array('q'), for the compiled core's table searches; None
        where a node's position is the node itself."""
        return None

    def child(self, n: int, i: int) -> int:
        for k, c in enumerate(self.children(n)):
            if k == i:
                return c
        raise IndexError(f"node {n} has no child {i}")

    @property
    def parent(self) -> array[int]:
        """parent[n] for every node (-1 for the root), built on first use."""
        if self._parent is None:
            self._walk()
        assert self._parent is not None
        return self._parent

    @property
    def depth(self) -> array[int]:
        """depth[n] for every node (0 at the root), built on first use (numpy for large trees)."""
        if self._depth is None and len(self.end) >= NUMPY_MIN_NODES:
            from .flat import depths, to_array

            self._depth = to_array(depths(self.end))
        if self._depth is None:
            self._walk()
        assert self._depth is not None
        return self._depth

    def _walk(self) -> None:
        """One preorder pass with a stack of open nodes: every node's parent and depth."""
        end = self.end
        size = len(end)
        parent = _zeros(size)
        depth = _zeros(size)
        stack: list[int] = []
        for n in range(size):
            while stack and end[stack[-1]] <= n:
                stack.pop()
            parent[n] = stack[-1] if stack else -1
            depth[n] = len(stack)
            if end[n] != n + 1:
                stack.append(n)
        self._parent = parent
        if self._depth is None:
            self._depth = depth

    def max_depth(self) -> int:
        if not len(self.end):
            return 0
        if len(self.end) >= NUMPY_MIN_NODES:
            from .flat import as_numpy

            return int(as_numpy(self.depth).max())
        return int(max(self.depth))

    def is_max(self, n: int) -> bool:
        """Whether MAX is to move at node n (at a chance node: at the nodes right below it).

        Without chance nodes the players alternate level by level.  With them,
        only decision nodes count: the mover at n is the root player flipped
        once for every decision node above n.
        """
        if self.chance is None:
            return bool(self.root_max == (self.depth[n] % 2 == 0))
        return bool(self.root_max == (self.turns[n] % 2 == 0))

    # -- chance nodes ----------------------------------------------------------
    @property
    def has_chance(self) -> bool:
        return self.chance is not None

    def is_chance(self, n: int) -> bool:
        return self.chance is not None and bool(self.chance[n])

    def chance_nodes(self) -> int:
        """How many chance nodes the tree has."""
        return 0 if self.chance is None else sum(self.chance)

    def probabilities(self, n: int) -> tuple[Fraction, ...]:
        """The exact probabilities of chance node n's children: its weights normalised.

        A weight counts as the decimal it is written as (0.1 is 1/10); without
        weights the children are equally likely.
        """
        from fractions import Fraction

        w = self.weights.get(n)
        if w is None:
            k = sum(1 for _ in self.children(n))
            return (Fraction(1, k),) * k
        exact_w = [Fraction(exact(x)) for x in w]
        total = sum(exact_w, Fraction(0))
        return tuple(x / total for x in exact_w)

    @property
    def turns(self) -> array[int]:
        """turns[n]: the decision nodes strictly above n (built on first use, chance trees)."""
        if self._turns is None:
            chance = self.chance
            parent = self.parent
            turns = _zeros(len(self.end))
            for n in range(1, len(turns)):  # preorder: a parent's count is known first
                p = parent[n]
                turns[n] = turns[p] + (0 if chance is not None and chance[p] else 1)
            self._turns = turns
        return self._turns

    # -- values and names ----------------------------------------------------
    def number(self, n: int) -> Number:
        """The value of node n as the file wrote it (int or float)."""
        v = self.values[n]
        if self.floats is not None and self.floats[n]:
            return v
        return int(v) if v == v else v

    def static(self, n: int) -> Number | None:
        """The static value of an internal node, or None."""
        v = self.values[n]
        return None if v != v else self.number(n)

    def name(self, n: int) -> str | None:
        return self.names.get(n)

    def line_labels(self, line: Sequence[int]) -> tuple[str | None, ...]:
        """The names of the moves along a line of nodes from the root (``line[0]``), for a PV.

        A file's node is named by the move that leads to it, so these are the nodes' names;
        a game's node may be named as a position (tic-tac-toe's by every square so far) and
        a game answers with its moves' own labels (:class:`gtsearch.sources.games.GameTree`).
        """
        return tuple(map(self.names.get, line[1:]))

    def path_of(self, n: int) -> list[int]:
        """Child indices from the root down to node n (a descent: no parent array needed)."""
        end = self.end
        path: list[int] = []
        m = 0
        while m != n:
            c = m + 1
            i = 0
            while end[c] <= n:  # the child whose preorder interval holds n
                c = end[c]
                i += 1
            path.append(i)
            m = c
        return path

    def paths_of(self, nodes: Iterable[int]) -> dict[int, tuple[int, ...]]:
        """The paths of many nodes in one preorder walk that skips subtrees holding none of them."""
        end = self.end
        want = sorted(set(int(n) for n in nodes))
        out: dict[int, tuple[int, ...]] = {}
        if not want:
            return out
        k = 0
        count = len(want)
        # frames: (node, its path); a node is entered only if a wanted node lies in its interval
        stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        while stack and k < count:
            m, path = stack.pop()
            if want[k] == m:
                out[m] = path
                k += 1
            stop = end[m]
            kids = []
            c = m + 1
            i = 0
            j = k
            while c < stop and j < count:
                e = end[c]
                if want[j] < e:
                    kids.append((c, path + (i,)))
                    j = bisect_left(want, e, j)
                c = e
                i += 1
            stack.extend(reversed(kids))
        return out

    def node_at(self, path: Sequence[int]) -> int:
        n = 0
        for i in path:
            n = self.child(n, i)
        return n

    def describe(self, n: int) -> str:
        """A node for messages: its path, and its name where it has one."""
        path = "$" + "".join(f"[{i}]" for i in self.path_of(n))
        name = self.names.get(n)
        return f"{path} ({shown(name)})" if name is not None else path

    # -- derived trees -------------------------------------------------------
    def with_root(self, root_max: bool) -> Tree:
        """The same tree with the other (or the same) player to move at the root."""
        t = Tree(
            self.end,
            self.values,
            names=self.names,
            floats=self.floats,
            root_max=root_max,
            meta=self.meta,
            source=self.source,
            chance=self.chance,
            weights=self.weights,
        )
        t._parent, t._depth, t._n_leaves = self._parent, self._depth, self._n_leaves
        t._turns = self._turns
        return t

    def truncated(self, limit: int) -> Tree:
        """The tree cut at depth ``limit``: nodes there become leaves worth their static value.

        A node at the limit that has children but no static value is an error.
        (Built by :func:`gtsearch.builder.truncated`.)
        """
        from .builder import truncated

        return truncated(self, limit)

    # -- conversions -----------------------------------------------------------
    @classmethod
    def from_nested(cls, obj: Any, *, root_max: bool = True, source: str = "<tree>") -> Tree:
        """Build a tree from nested lists of numbers (the bare form), without recursion.

        (Built by :func:`gtsearch.builder.from_nested`.)
        """
        from .builder import from_nested

        return from_nested(obj, root_max=root_max, source=source)

    def to_nested(self, n: int = 0) -> Any:
        """The subtree at n as nested lists of numbers (static values and names dropped).

        A chance node is the mapping of the JSON form, ``{"chance": [...]}``
        with ``"weights": [...]`` when it has weights, which
        :meth:`from_nested` reads back.
        """
        end = self.end
        stack: list[tuple[int, list[Any]]] = []
        result: Any = None
        m = n
        stop = end[n]
        while m < stop:
            while stack and end[stack[-1][0]] <= m:
                stack.pop()
            kids: list[Any] = []
            if end[m] == m + 1:
                v: Any = self.number(m)
            elif self.is_chance(m):
                v = {"chance": kids}
                if m in self.weights:
                    v["weights"] = list(self.weights[m])
            else:
                v = kids
            if stack:
                stack[-1][1].append(v)
            else:
                result = v
            if end[m] != m + 1:
                stack.append((m, kids))
            m += 1
        return result

    def sexp(self, limit: int = 300) -> str:
        """A short s-expression of the tree, for reprs and messages."""
        end = self.end
        parts: list[str] = []
        stack: list[int] = []
        size = 0
        for m in range(len(end)):
            while stack and end[stack[-1]] <= m:
                stack.pop()
                parts.append(")")
            if parts and not parts[-1].endswith(("(", " ")):
                parts.append(" ")
            if end[m] == m + 1:
                parts.append(format_number(self.number(m)))
            else:
                if self.is_chance(m):
                    w = self.weights.get(m)
                    parts.append("(* " if w is None else f"(* :weights ({_numbers(w)}) ")
                else:
                    parts.append("(")
                stack.append(m)
            size += len(parts[-1])
            if size > limit:
                return "".join(parts) + " ..."
        parts.extend(")" * len(stack))
        return "".join(parts)

    def __repr__(self) -> str:
        root = "" if self.root_max else ", root=min"
        return f"Tree({self.sexp()}{root})"

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the tree drawn as SVG (its top levels when it is large).

        The drawing is gtsearch.render.notebook's, imported when a notebook asks
        (the one exception to the layers, see tests/test_architecture.py).
        """
        from .render.notebook import tree_svg

        return tree_svg(self)

    def __eq__(self, other: object) -> bool:
        """Same shape, values (as written), static values, names, root and metadata."""
        if not isinstance(other, Tree):
            return NotImplemented
        if len(self.end) != len(other.end) or list(self.end) != list(other.end):
            return False
        if self.root_max != other.root_max or self.names != other.names:
            return False
        if self.meta != other.meta:
            return False
        if (self.chance or b"") != (other.chance or b"") or not _same_numbers(
            self.weights, other.weights
        ):
            return False
        for n in range(len(self.end)):
            a, b = self.values[n], other.values[n]
            if (a == a or b == b) and (a != b or type(self.number(n)) is not type(other.number(n))):
                return False
        return True

    __hash__ = None  # type: ignore[assignment]


def _numbers(values: Iterable[Number]) -> str:
    return " ".join(format_number(v) for v in values)


def _same_numbers(a: dict[int, tuple[Number, ...]], b: dict[int, tuple[Number, ...]]) -> bool:
    """Equal weights, each of the same kind (1 and 1.0 differ: they are written differently)."""
    if a.keys() != b.keys():
        return False
    return all(
        len(a[n]) == len(b[n])
        and all(x == y and type(x) is type(y) for x, y in zip(a[n], b[n], strict=True))
        for n in a
    )


def fits(label: str) -> bool:
    """Whether a label can be a name: 1 to 1000 printable characters."""
    return 0 < len(label) <= 1000 and label.isprintable()


def sibling_names(labels: Sequence[str]) -> list[str | None]:
    """The names the action labels of one node give its children, as Gambit makes the labels
    of one scope unique (NormalizeLabels).

    Labels as written, when they differ; a label that cannot be a name (empty, or not 1 to
    1000 printable characters) gives none; every use of a label repeated among the siblings
    gets ``_1``, ``_2``, ... in order, skipping the names the other siblings have.
    """
    if len(set(labels)) == len(labels):
        return [label if fits(label) else None for label in labels]
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    used = set(counts)
    visited: dict[str, int] = {}
    out: list[str | None] = []
    for label in labels:
        if not fits(label):
            out.append(None)
            continue
        if counts[label] > 1:
            k = visited.get(label, 0)
            while True:
                k += 1
                candidate = f"{label}_{k}"
                if candidate not in used:
                    break
            visited[label] = k
            used.add(candidate)
            label = candidate
        out.append(label if fits(label) else None)
    return out
