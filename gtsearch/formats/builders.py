"""The builders readers feed: FormatBuilder (a TreeBuilder for the full form) and CountingBuilder.

FormatBuilder labels a node after its children (the full form lets ``name``
and ``value`` follow ``children``), takes runs of integer leaves at once and
copies ranges of sibling subtrees (YAML aliases).  CountingBuilder counts the
nodes of a document without storing them, so that an alias bomb is refused
before any memory is spent on it.
"""

from __future__ import annotations

from array import array
from typing import Any

from ..builder import TreeBuilder
from ..errors import TreeFormatError
from ..numbers import check_number
from ..tree import DEFAULT_MAX_NODES, Meta, Tree


class FormatBuilder(TreeBuilder):
    """A TreeBuilder that can also label a node after its children and copy ranges.

    The full form lets ``name`` and ``value`` follow ``children`` in a mapping,
    so a node's label may arrive after the node was opened; YAML aliases of a
    ``children`` list repeat a run of sibling subtrees.
    """

    def label(self, n: int, name: Any = None, static: Any = None) -> None:
        """Give node ``n`` (already open or closed) a name and/or a static value."""
        if static is not None:
            try:
                v, fl = check_number(static, "static value")
            except ValueError as e:
                raise self.error(str(e)) from None
            self.values[n] = v
            self.floats[n] = fl
        if name is not None:
            self._name(n, name, None, None)

    def int_leaves(self, ints: list[int]) -> int:
        """Add unnamed leaves worth ``ints``, each already known to lie within ±2**53.

        Only as many as the node limit leaves room for are added; the number is
        returned, and the caller reads the rest of its run one token at a time,
        so that the limit's error points at the very leaf that crosses it.
        """
        n = len(self.values)
        k = min(len(ints), self.max_nodes - n)
        if k <= 0:
            return 0
        if k < len(ints):
            ints = ints[:k]
        self.end.extend(range(n + 1, n + k + 1))
        self.values.extend(ints)
        self.floats.extend(bytes(k))
        self.n_leaves += k
        return k

    def copy_range(self, start: int, stop: int) -> None:
        """Repeat the sibling subtrees that fill nodes ``start .. stop-1``."""
        if self.size + (stop - start) > self.max_nodes:
            raise self.error(
                f"the tree has more than {self.max_nodes:,} nodes once aliases are expanded; "
                "raise --max-nodes to load it"
            )
        end = self.end
        c = start
        while c < stop:
            nxt = end[c]
            self.copy(c)
            c = nxt


class CountingBuilder:
    """Stands in for FormatBuilder to count the nodes of a document without storing them.

    The YAML reader runs a first pass with it when a document has aliases, so
    that a file whose expansion exceeds the node limit (a "billion laughs")
    is refused before any memory is spent on it.
    """

    def __init__(self, source: str = "<input>", max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.source = source
        self.max_nodes = max_nodes
        self.size = 0
        self.stack: list[int] = []

    def error(self, message: str) -> TreeFormatError:
        return TreeFormatError(message, self.source)

    def _new(self) -> int:
        n = self.size
        if n >= self.max_nodes:
            raise self.error(
                f"the tree has more than {self.max_nodes:,} nodes; raise --max-nodes to load it"
            )
        self.size = n + 1
        return n

    def open(self, name: Any = None, static: Any = None) -> int:
        n = self._new()
        self.stack.append(n)
        return n

    def open_chance(self, name: Any = None, static: Any = None, weights: Any = None) -> int:
        return self.open()

    def set_weights(self, n: int, weights: Any) -> None:
        pass

    def leaf(self, value: Any, name: Any = None) -> int:
        return self._new()

    def close(self) -> None:
        n = self.stack.pop()
        if self.size == n + 1:
            raise self.error("empty list: an internal node needs at least one child")

    def label(self, n: int, name: Any = None, static: Any = None) -> None:
        pass

    def copy_range(self, start: int, stop: int) -> None:
        if self.size + (stop - start) > self.max_nodes:
            raise self.error(
                f"the tree has more than {self.max_nodes:,} nodes once aliases are expanded; "
                "raise --max-nodes to load it"
            )
        self.size += stop - start

    def finish(self, *, root_max: bool = True, meta: Meta | None = None) -> Tree:
        # Only the count matters; an empty tree stands for "it fits".
        return Tree(array("i"), array("d"))
