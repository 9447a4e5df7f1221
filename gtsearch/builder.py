"""TreeBuilder: a Tree built node by node in preorder, checked as it grows; derived trees.

Owns the rules every reader shares about the shape of a tree (an internal node
has children; names are printable, 1 to 1000 characters, and differ from their
siblings' names; values obey
:func:`gtsearch.numbers.check_number`; a chance node's weights are finite,
non-negative, one per child, with a positive total; at most ``max_nodes``
nodes, counted as they arrive, before memory is spent on a hostile file), and
the trees built from other trees or from Python lists.  Imports only the
ground modules.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

from .errors import GtsearchError, TreeFormatError, shown
from .numbers import Number, check_number, exact
from .tree import DEFAULT_MAX_NODES, NAN, Meta, Tree, index_array

_DONE = object()


class TreeBuilder:
    """Builds a Tree node by node in preorder, as a streaming parser meets them.

    Parsers call :meth:`open` for an internal node, :meth:`leaf` for a leaf and
    :meth:`close` at the end of an internal node, passing the place in the file
    (line, column) so that errors point at it.  The node limit is checked as
    nodes arrive, before memory is spent on a hostile file.
    """

    def __init__(self, source: str = "<input>", max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.source = source
        self.max_nodes = max_nodes
        self.end = index_array(max_nodes)
        self.values = array("d")
        self.floats = bytearray()
        self.names: dict[int, str] = {}
        #: the names of the children of each open node that has named ones (-1: the root's
        #: level); dropped when the node closes, so memory follows the open nodes only
        self._kid_names: dict[int, set[str]] = {}
        self.stack: list[int] = []
        self.n_leaves = 0
        #: the chance nodes, and the weights of those that have them (as written)
        self.chance: set[int] = set()
        self.weights: dict[int, tuple[Number, ...]] = {}

    # errors ---------------------------------------------------------------
    def error(
        self, message: str, line: int | None = None, column: int | None = None
    ) -> TreeFormatError:
        return TreeFormatError(message, self.source, line, column)

    def _new(self, line: int | None, column: int | None) -> int:
        n = len(self.values)
        if n >= self.max_nodes:
            raise self.error(
                f"the tree has more than {self.max_nodes:,} nodes; raise --max-nodes to load it",
                line,
                column,
            )
        return n

    def _parent(self, n: int) -> int:
        """The parent of node n, which is open or a child of the innermost open node (-1: none)."""
        stack = self.stack
        if stack and stack[-1] == n:
            return stack[-2] if len(stack) > 1 else -1
        return stack[-1] if stack else -1

    def _name(
        self,
        n: int,
        name: Any,
        line: int | None,
        column: int | None,
        why: str = "sibling nodes must have different names",
    ) -> None:
        """Name node n (the last node added, or the one being labelled): a name differs
        from its siblings' names; the same name may stand anywhere else in the tree."""
        if name is None:
            return
        if not isinstance(name, str):
            raise self.error(f"name {shown(name)} is not a string", line, column)
        if not name or len(name) > 1000 or not name.isprintable():
            raise self.error(
                f"malformed name {shown(name)}: names are 1 to 1000 printable characters",
                line,
                column,
            )
        taken = self._kid_names.setdefault(self._parent(n), set())
        if name in taken:
            raise self.error(f"duplicate name {shown(name)}: {why}", line, column)
        taken.add(name)
        self.names[n] = name

    @property
    def size(self) -> int:
        return len(self.values)

    @property
    def level(self) -> int:
        """How many internal nodes are open (the depth of the next node)."""
        return len(self.stack)

    # nodes ------------------------------------------------------------------
    def open(
        self,
        name: str | None = None,
        static: Any = None,
        line: int | None = None,
        column: int | None = None,
    ) -> int:
        """Start an internal node; its children follow until :meth:`close`."""
        n = self._new(line, column)
        if static is None:
            v, fl = NAN, False
        else:
            v, fl = self._number(static, "static value", line, column)
        return self._add(n, v, fl, name, line, column, leaf=False)

    def open_chance(
        self,
        name: str | None = None,
        static: Any = None,
        weights: Any = None,
        line: int | None = None,
        column: int | None = None,
    ) -> int:
        """Start a chance node; its children (the outcomes) follow until :meth:`close`.

        ``weights`` (optional, a list of numbers) may also come later, with
        :meth:`set_weights`; their number is checked when both are known.
        """
        n = self.open(name, static, line, column)
        self.chance.add(n)
        if weights is not None:
            self.set_weights(n, weights, line, column)
        return n

    def set_weights(
        self, n: int, weights: Any, line: int | None = None, column: int | None = None
    ) -> None:
        """Give chance node n the weights of its children (before or after they are read)."""
        problem = weight_problem(weights)
        if problem is not None:
            raise self.error(problem, line, column)
        self.weights[n] = tuple(weights)
        if self.end[n]:  # already closed: the children are known
            self._check_count(n, line, column)

    def _check_count(self, n: int, line: int | None, column: int | None) -> None:
        w = self.weights.get(n)
        if w is None:
            return
        end = self.end
        kids = 0
        c = n + 1
        stop = end[n]
        while c < stop:
            kids += 1
            c = end[c]
        if kids != len(w):
            raise self.error(
                f"one weight per child is needed: {_count(len(w), 'weight')} for "
                f"{_count(kids, 'child', 'children')}",
                line,
                column,
            )

    def leaf(
        self,
        value: Any,
        name: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> int:
        """Add a leaf worth ``value`` (MAX's payoff)."""
        n = self._new(line, column)
        v, fl = self._number(value, "value", line, column)
        return self._add(n, v, fl, name, line, column, leaf=True)

    def open_float(self, v: float, fl: bool, name: str | None = None) -> int:
        """:meth:`open` for a value already checked (copies of trees)."""
        return self._add(self._new(None, None), v, fl, name, None, None, leaf=False)

    def leaf_float(self, v: float, fl: bool, name: str | None = None) -> int:
        """:meth:`leaf` for a value already checked (copies of trees)."""
        return self._add(self._new(None, None), v, fl, name, None, None, leaf=True)

    def _number(
        self, value: Any, what: str, line: int | None, column: int | None
    ) -> tuple[float, bool]:
        """A node's value as stored (float64, was it written as a float?), checked."""
        try:
            return check_number(value, what)
        except ValueError as e:
            raise self.error(str(e), line, column) from None

    def _add(
        self,
        n: int,
        v: float,
        fl: bool,
        name: str | None,
        line: int | None,
        column: int | None,
        leaf: bool,
    ) -> int:
        """Append node n, named, with its value: a leaf, or an internal node left open."""
        self._name(n, name, line, column)
        self.end.append(n + 1 if leaf else 0)
        self.values.append(v)
        self.floats.append(fl)
        if leaf:
            self.n_leaves += 1
        else:
            self.stack.append(n)
        return n

    def close(self, line: int | None = None, column: int | None = None) -> None:
        """End the innermost open internal node."""
        n = self.stack.pop()
        self._kid_names.pop(n, None)
        size = len(self.values)
        if size == n + 1:
            if n in self.chance:
                raise self.error(
                    "empty chance list: a chance node needs at least one outcome", line, column
                )
            raise self.error("empty list: an internal node needs at least one child", line, column)
        self.end[n] = size
        if n in self.weights:
            self._check_count(n, line, column)

    def copy(self, start: int, line: int | None = None, column: int | None = None) -> None:
        """Repeat the finished subtree at ``start`` as the next node (YAML aliases)."""
        stop = self.end[start]
        count = stop - start
        base = len(self.values)
        if base + count > self.max_nodes:
            raise self.error(
                f"the tree has more than {self.max_nodes:,} nodes once aliases are expanded; "
                "raise --max-nodes to load it",
                line,
                column,
            )
        shift = base - start
        self.end.extend(array(self.end.typecode, (e + shift for e in self.end[start:stop])))
        self.values.extend(self.values[start:stop])
        self.floats.extend(self.floats[start:stop])
        self.n_leaves += sum(1 for n in range(start, stop) if self.end[n] == n + 1)
        if self.chance:
            for n in range(start, stop):
                if n in self.chance:
                    self.chance.add(n + shift)
                    if n in self.weights:
                        self.weights[n + shift] = self.weights[n]
        names = self.names
        # the copy's root is a new sibling; the names below it stay among the same siblings
        self._name(
            base,
            names.get(start),
            line,
            column,
            "the alias repeats a named node beside it, and sibling nodes must have different names",
        )
        if count > 1 and names:
            for n in range(start + 1, stop):
                name = names.get(n)
                if name is not None:
                    names[n + shift] = name

    def finish(self, *, root_max: bool = True, meta: Meta | None = None) -> Tree:
        if self.stack:
            raise self.error("unexpected end of input: a list is not closed")
        if not self.values:
            raise self.error("the file holds no tree")
        chance = None
        if self.chance:
            chance = bytearray(len(self.values))
            for n in self.chance:
                chance[n] = 1
        return Tree(
            self.end,
            self.values,
            names=self.names,
            floats=self.floats,
            root_max=root_max,
            meta=meta,
            source=self.source,
            n_leaves=self.n_leaves,
            chance=chance,
            weights=self.weights,
        )


def _count(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else many or one + 's'}"


def weight_problem(weights: Any) -> str | None:
    """Why a list of weights cannot be a chance node's, or None when it can.

    Each weight is a finite number (integers within ±2**53), none negative,
    and the total is positive; whether there is one per child is checked when
    the children are known.
    """
    if not isinstance(weights, (list, tuple)):
        return f"weights must be a list of numbers, got {shown(weights)}"
    for w in weights:
        try:
            check_number(w, "weight")
        except ValueError as e:
            return str(e)
        if w < 0:
            return f"weight {w!r} is negative: weights are non-negative numbers"
    if not weights:
        return "the weights list is empty: a chance node needs one weight per child"
    if sum(exact(w) for w in weights) == 0:
        return "the weights add up to 0: a chance node needs a positive total weight"
    return None


def truncated(tree: Tree, limit: int) -> Tree:
    """The tree cut at depth ``limit``: nodes there become leaves worth their static value.

    A node at the limit that has children but no static value is an error.
    """
    if limit < 0:
        raise GtsearchError(f"--depth must be 0 or more, got {limit}")
    end, values = tree.end, tree.values
    depth = tree.depth
    b = TreeBuilder(tree.source, max_nodes=len(end) + 1)
    stack: list[int] = []  # old nodes still open in the new tree
    n = 0
    size = len(end)
    while n < size:
        while stack and end[stack[-1]] <= n:
            stack.pop()
            b.close()
        name = tree.names.get(n)
        fl = bool(tree.floats is not None and tree.floats[n])
        if end[n] == n + 1:
            b.leaf_float(values[n], fl, name)
            n += 1
        elif depth[n] >= limit:
            v = values[n]
            if v != v:
                raise GtsearchError(
                    f"{tree.source}: node {tree.describe(n)} at the depth limit {limit} "
                    "has children but no static value to stand for them"
                )
            b.leaf_float(v, fl, name)
            n = end[n]
        else:
            m = b.open_float(values[n], fl, name)
            if tree.is_chance(n):
                b.chance.add(m)
                if n in tree.weights:
                    b.weights[m] = tree.weights[n]
            stack.append(n)
            n += 1
    while stack:
        stack.pop()
        b.close()
    return b.finish(root_max=tree.root_max, meta=tree.meta)


def from_nested(obj: Any, *, root_max: bool = True, source: str = "<tree>") -> Tree:
    """Build a tree from nested lists of numbers (the bare form), without recursion.

    A chance node is a mapping ``{"chance": [...]}``, with ``"weights": [...]``
    when its outcomes are not equally likely (what :meth:`Tree.to_nested` gives).
    """
    b = TreeBuilder(source)
    stack: list[Iterator[Any]] = []
    item: Any = obj
    while True:
        if isinstance(item, (list, tuple)):
            b.open()
            stack.append(iter(item))
        elif isinstance(item, dict):
            b.open_chance(weights=item.get("weights"))
            stack.append(iter(item["chance"]))
        else:
            b.leaf(item)
        while stack:
            nxt = next(stack[-1], _DONE)
            if nxt is _DONE:
                stack.pop()
                b.close()
                continue
            item = nxt
            break
        else:
            break
    return b.finish(root_max=root_max)
