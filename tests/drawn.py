"""A game drawn as nested lists behind OpenSpiel's adapter (gtsearch.sources.openspiel), its
states OpenSpiel's in form only: any tree, any fault and any number, with or without pyspiel
installed (tests/test_search_objects.py, and the searches of tests/test_faults.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from gtsearch.sources.ondemand import OnDemandTree
from gtsearch.sources.openspiel import OpenSpielChanceGame, OpenSpielGame
from gtsearch.sources.protocol import Game

#: what the adapter reads of pyspiel
SPIEL = SimpleNamespace(
    PlayerId=SimpleNamespace(CHANCE=-1),
    GameType=SimpleNamespace(ChanceMode=SimpleNamespace(DETERMINISTIC="deterministic")),
)
TERMINAL = -4


class Spec:
    """A game drawn as nested lists: a leaf is its value for player 0, an inner node
    ``[who, child, ...]`` (who 0 or 1, or ``"c"`` with ``[probability, child]`` pairs)."""

    def __init__(self, root: Any, chance: bool, **faults: Any) -> None:
        self.root = root
        self.chance = chance
        #: method -> the path where it misbehaves (and how: ``how``), ``same`` (str of every
        #: state the same), ``tuple_moves`` (legal_actions as a tuple), ``list_pairs``
        #: (chance_outcomes' pairs as lists), ``triples`` (as three items), ``returns_as``
        #: (returns()'s list made another thing), ``truth`` (the path where is_terminal's answer
        #: cannot say whether it is true), ``players`` (current_player()'s answers for 0 and 1)
        self.faults = faults

    # what the adapter asks of a pyspiel game
    def get_type(self) -> Any:
        return SimpleNamespace(chance_mode="explicit" if self.chance else "deterministic")

    def min_utility(self) -> float:
        return -10.0

    def max_utility(self) -> float:
        return 10.0

    def new_initial_state(self) -> State:
        return State(self, ())

    def __str__(self) -> str:
        return "drawn()"


class Undecided:
    """An answer that cannot say whether it is true."""

    def __bool__(self) -> bool:
        raise ValueError("neither true nor false")


class State:
    """A state of a :class:`Spec` game: its path of actions from the root."""

    def __init__(self, spec: Spec, path: tuple[int, ...]) -> None:
        self.spec, self.path = spec, path
        node = spec.root
        for a in path:
            node = node[1 + a][1] if node[0] == "c" else node[1 + a]
        self.node = node

    def fault(self, method: str) -> None:
        where = self.spec.faults.get(method)
        if where is not None and self.path == where:
            how = self.spec.faults.get("how", ValueError)
            raise how(f"{method} broke at {self.path}")

    def inner(self) -> bool:
        return isinstance(self.node, list)

    def is_terminal(self) -> Any:
        self.fault("is_terminal")
        if self.spec.faults.get("truth") == self.path:
            return Undecided()
        return not self.inner()

    def current_player(self) -> int:
        self.fault("current_player")
        if not self.inner():
            return TERMINAL
        if self.node[0] == "c":
            return -1
        return self.spec.faults.get("players", (0, 1))[int(self.node[0])]  # type: ignore[no-any-return]

    def legal_actions(self) -> Any:
        self.fault("legal_actions")
        moves = list(range(len(self.node) - 1))
        return tuple(moves) if "tuple_moves" in self.spec.faults else moves

    def chance_outcomes(self) -> Any:
        self.fault("chance_outcomes")
        pairs = [(i, kid[0]) for i, kid in enumerate(self.node[1:])]
        if "list_pairs" in self.spec.faults:
            return [list(p) for p in pairs]
        if "triples" in self.spec.faults:
            return [(*p, 0) for p in pairs]
        return pairs

    def child(self, action: int) -> State:
        self.fault("child")
        return State(self.spec, (*self.path, action))

    def returns(self) -> Any:
        self.fault("returns")
        v = self.node
        pair = [v, -v] if isinstance(v, float) else [float(v), -float(v)]
        shape = self.spec.faults.get("returns_as")
        return pair if shape is None else shape(pair)

    def action_to_string(self, player: int, action: int) -> str:
        return f"{player}:{action}"

    def clone(self) -> State:
        return State(self.spec, self.path)

    def __str__(self) -> str:
        self.fault("str")
        return "same" if "same" in self.spec.faults else repr(self.path)


def opened(root: Any, chance: bool = False, max_nodes: int = 10**6, **faults: Any) -> OnDemandTree:
    spec = Spec(root, chance, **faults)
    adapter = (OpenSpielChanceGame if chance else OpenSpielGame)(spec, SPIEL)
    return OnDemandTree(Game(adapter, "game:drawn"), source="game:drawn", max_nodes=max_nodes)


def drawn_comb(depth: int, chance: bool) -> Any:
    """A game drawn as nested lists (tests/drawn.py), ``depth`` levels of a
    subtree beside a leaf or two, a player moving twice now and then, chance nodes of one
    outcome or two: the C search over its states (search_objects.c) outgrows its first room."""
    node: Any = 1
    for level in range(depth):
        who = (level // 3) % 2 if level % 5 else level % 2
        node = [who, level % 3 - 1, node] if level % 2 else [who, node, 2 - level % 4]
        if chance and level % 4 == 1:
            node = ["c", [0.5, node], [0.5, level % 2]] if level % 8 == 1 else ["c", [1.0, node]]
    return node
