"""The arrays of a game's tree computed on demand: views of a :class:`~.games.GameTree`'s cursor.

Each is a virtual sequence (:mod:`.virtual`) or a mapping whose item ``n`` is
read at node ``n`` through the tree's cursor (``locate``, ``entry``): ``end``,
``values``, ``floats``, ``depth``, ``chance``, the decision nodes above a node
(``turns``), and the names and weights (:class:`Lookup`); :class:`CumulativeTree`, a
game built whole whose names are its positions'; and an OnDemandTree's arrays (:class:`Grown`)
and what its ``end`` is at an inner node (:class:`Inner`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import UsageError
from ..tree import Tree
from .virtual import Virtual

#: an OnDemandTree (gtsearch.sources.ondemand), the owner of Inner and Grown
OnDemandTree = Any

#: the owner of the views: the GameTree (gtsearch.sources.games imports this module, and a
#: view's items are the GameTree's answers: ints and floats)
GameTree = Any

#: the kinds of a game's entries (gtsearch.sources.games): a decision (a leaf when it has no
#: move), a chance node, a forced move, a leaf at the --depth cut (worth its estimate)
DECIDE, CHANCE_NODE, FORCED, CUT = 0, 1, 2, 3


class End(Virtual["GameTree"]):
    def __getitem__(self, n: Any) -> Any:
        if type(n) is int and 0 <= n < self.size:  # the searches' case, first
            t = self.owner
            return n + t.path_sizes[t.locate(n)]
        return super().__getitem__(n)

    def _at(self, n: int) -> Any:
        t = self.owner
        return n + t.path_sizes[t.locate(n)]


class Values(Virtual["GameTree"]):
    def __getitem__(self, n: Any) -> Any:
        if type(n) is int and 0 <= n < self.size:
            return self.owner.value_at(n)
        return super().__getitem__(n)

    def _at(self, n: int) -> Any:
        return self.owner.value_at(n)


class Floats(Virtual["GameTree"]):
    """1 where the game gave a float (so output prints 2.0 as 2.0, as a file would)."""

    def _at(self, n: int) -> int:
        v = self.owner.raw_value(n)
        return 1 if type(v) is float and v == v else 0


class Depth(Virtual["GameTree"]):
    def _at(self, n: int) -> Any:
        return self.owner.locate(n)


class Chance(Virtual["GameTree"]):
    def _at(self, n: int) -> int:
        return 1 if self.owner.entry(n).kind == CHANCE_NODE else 0


class Turns(Virtual["GameTree"]):
    """Decision nodes strictly above a node: the entries of its path that are not chance."""

    def _at(self, n: int) -> int:
        t = self.owner
        k = t.locate(n)
        info = t.info
        return sum(1 for key in t.path_keys[:k] if info[key].kind != CHANCE_NODE)


def as_floats(weights: Any) -> tuple[float, ...] | None:
    """A chance node's weights as doubles (None: not a chance node)."""
    return None if weights is None else tuple(float(w) for w in weights)


class Lookup(Mapping[int, Any]):
    """Something of every node computed on demand by ``at(n)`` (None: the node has none), as
    a mapping that answers get(n): the names, and the weights of the chance nodes."""

    def __init__(self, at: Callable[[int], Any]) -> None:
        self.at = at

    def __getitem__(self, n: int) -> Any:
        found = self.at(n)
        if found is None:
            raise KeyError(n)
        return found

    def get(self, n: int, default: Any = None) -> Any:
        found = self.at(n)
        return default if found is None else found

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[int]:
        return iter(())


class CumulativeTree(Tree):
    """A game built whole whose nodes are named by every move so far (tic-tac-toe's ``15``):
    a move's own name is its node's name after its parent's, and a PV is told in those."""

    __slots__ = ()

    def line_labels(self, line: Sequence[int]) -> tuple[str | None, ...]:
        labels: list[str | None] = []
        before = ""  # the root's name is not part of its children's
        for n in line[1:]:
            name = self.names.get(n) or ""
            labels.append(name[len(before) :] if name.startswith(before) else name or None)
            before = name
        return tuple(labels)


class Inner:
    """What ``end[n]`` is at an inner node of an OnDemandTree: not ``n + 1`` (so not a leaf),
    and nothing else: a search that computes with it needs preorder numbers."""

    __slots__ = ("tree",)

    def __init__(self, tree: OnDemandTree) -> None:
        self.tree = tree

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]

    def refuse(self, *_: Any) -> Any:
        from .ondemand import ON_DEMAND_ALGORITHMS  # which the tests may narrow

        names = ", ".join(sorted(ON_DEMAND_ALGORITHMS))
        raise UsageError(
            f"{self.tree.source}: searched on demand (its states are not counted), a game "
            f"takes {names}, and alphabeta or negascout with --tt or --iterative; this "
            "search needs its nodes in preorder: open the game counted, or cut it with --depth"
        )

    __lt__ = __le__ = __gt__ = __ge__ = __add__ = __radd__ = __sub__ = __rsub__ = refuse
    __index__ = __int__ = __float__ = refuse


class Grown(Sequence[Any]):
    """One of an OnDemandTree's arrays: item ``n`` is ``at(n)`` for the nodes numbered so far."""

    __slots__ = ("tree", "at")

    def __init__(self, tree: OnDemandTree, at: Callable[[int], Any]) -> None:
        self.tree = tree
        self.at = at

    def __len__(self) -> int:
        return len(self.tree.keys)

    def __iter__(self) -> Iterator[Any]:
        return (self.at(n) for n in range(len(self)))

    def __getitem__(self, n: Any) -> Any:
        if type(n) is not int or not 0 <= n < len(self.tree.keys):
            raise IndexError(n)
        return self.at(n)
