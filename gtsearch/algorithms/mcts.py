"""Monte Carlo Tree Search: UCT (Kocsis & Szepesvári 2006), seeded, as docs/algorithms.md defines it.

The readable reference: one iteration is selection by UCB1 (ties leftmost),
the expansion of one node (a decision node's children left to right, a
chance node's outcome as drawn), a playout of uniform moves and weighted
outcomes to a leaf (or to ``playout_depth`` moves, then a static value), and
the backup of the reward in MAX's terms, scaled to [0, 1] by the leaf
bounds.  Every random number is ``draw(root_key(seed), j)`` of
:mod:`gtsearch.splitmix`, j = 0, 1, ...; the compiled core
(:func:`.compiled.mcts`) makes the same choices from the same numbers.
Browne et al., "A Survey of Monte Carlo Tree Search Methods" (2012), name
the phases.
"""

from __future__ import annotations

import math
import time
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

from ..errors import UsageError
from ..numbers import Number
from ..splitmix import DRAW, GOLDEN, MASK, MIX1, MIX2, root_key, unit
from ..tree import Tree
from . import compiled
from .base import Outcome, Stats, count_rereadings
from .events import Arm, Backup, Event, Expand, Playout, Select
from .params import DEFAULT_ITERATIONS

#: UCB1's constant without --exploration
DEFAULT_EXPLORATION = math.sqrt(2)


class Numbers:
    """The search's stream of random numbers: draw(root_key(seed), j), j = 0, 1, ..."""

    __slots__ = ("key", "at")

    def __init__(self, seed: int) -> None:
        self.key = root_key(seed)
        #: the state of draw j's splitmix64 for the next j: (key xor DRAW) + j * golden
        self.at = self.key ^ DRAW

    def next(self) -> int:
        """The next draw: :func:`.splitmix.draw` of the key and j, written out (a playout
        draws one for each move)."""
        z = self.at = (self.at + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return z ^ (z >> 31)

    def uniform(self, k: int) -> int:
        """A uniform move among k children, counted from 0: integer(next(), 0, k - 1),
        written out."""
        z = self.at = (self.at + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return ((z ^ (z >> 31)) * k) >> 64

    def weighted(self, weights: Sequence[float]) -> int:
        """An outcome by its weights: the first of positive weight whose partial sum exceeds
        u * total (the last of positive weight if rounding leaves none)."""
        u = unit(self.next())
        total = 0.0
        for w in weights:
            total += w
        t = u * total
        acc = 0.0
        last = -1
        for i, w in enumerate(weights):
            acc += w
            if w > 0:
                if t < acc:
                    return i
                last = i
        return last


class Table(Mapping[int, Sequence[float]]):
    """The search tree as the compiled core hands it back: arrays in the order the nodes were
    reached, a node found by a search of the nodes' bytes (the PV asks for a few dozen; a dict
    of 100,000 nodes would cost a third of the search, and ``array.index``, which makes an int
    of every entry it passes, a quarter).  The squares are kept for the root and its children
    only (what the standard error needs), NaN below."""

    def __init__(
        self, nodes: array[int], *columns: Sequence[float], rows: dict[int, int] | None = None
    ) -> None:
        self.nodes = nodes
        self.columns = columns
        self.raw = b""
        #: the rows of some nodes, known (the PV's, from the compiled core)
        self.rows = rows or {}

    def __getitem__(self, n: int) -> Sequence[float]:
        i = self.rows.get(n)
        if i is not None:
            return [column[i] for column in self.columns]
        if not self.raw:
            self.raw = self.nodes.tobytes()
        size = self.nodes.itemsize
        try:
            needle = array(self.nodes.typecode, [n]).tobytes()
        except OverflowError:  # not a node of this tree
            raise KeyError(n) from None
        at = self.raw.find(needle)
        while at > 0 and at % size:  # a match across two entries: go on
            at = self.raw.find(needle, at + 1)
        if at < 0:
            raise KeyError(n)
        i = at // size
        return [column[i] for column in self.columns]

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[int]:
        return iter(self.nodes)


class Searched(NamedTuple):
    """What the iterations leave: each search-tree node's [visits, reward sum, square sum]."""

    stats: Mapping[int, Sequence[float]]
    iterations: int
    playouts: int
    visits: int  # the `nodes` count: nodes on selection paths and playout moves


def children(tree: Tree, n: int) -> list[int]:
    """The children of node n, left to right."""
    if tree.on_demand:  # numbered as they are listed, not in preorder
        return list(tree.children(n))
    end = tree.end
    out = []
    c = n + 1
    stop = end[n]
    while c < stop:
        out.append(c)
        c = end[c]
    return out


def chance_weights(tree: Tree) -> dict[int, tuple[float, ...]]:
    """Every chance node's weights as doubles (those without weights are absent: uniform)."""
    lookup = getattr(tree, "float_weights", None)
    if tree.lazy and lookup is not None:  # a game's, computed as the search reaches them
        return lookup()  # type: ignore[no-any-return]
    return {n: tuple(float(w) for w in ws) for n, ws in tree.weights.items()}


def reward_scale(bounds: tuple[Number, Number]) -> tuple[float, float]:
    """(L, U - L) as doubles: r(v) = (v - L) / (U - L), 1/2 when U = L."""
    lo, hi = float(bounds[0]), float(bounds[1])
    return lo, hi - lo


def reward(v: float, lo: float, span: float) -> float:
    if span == 0.0:
        return 0.5
    r = (v - lo) / span
    return 0.0 if r < 0.0 else 1.0 if r > 1.0 else r


def no_static(tree: Tree, n: int) -> UsageError:
    """The error of a playout cut at a node that has no static value."""
    return UsageError(
        f"{tree.source}: mcts --playout-depth: the playout stopped at {tree.describe(n)}, "
        "which has no static value (a game's estimate); drop --playout-depth or give the "
        "inner nodes values"
    )


def iterate(
    tree: Tree,
    stats: Stats,
    bounds: tuple[Number, Number],
    iterations: int | None,
    seconds: float | None,
    seed: int,
    exploration: float,
    playout_depth: int | None,
    emit: Callable[[Event], None] | None = None,
) -> Searched:
    """Run the iterations of docs/algorithms.md; the leaves read go to ``stats.leaves``.

    ``emit`` receives each phase as an event (:mod:`.events`: Select, Expand, Playout,
    Backup), for the trace (:mod:`.mcts_steps`); it changes nothing of the search.  On a
    game searched on demand the tree plays the playouts (``OnDemandTree.playout``: the
    drawn moves only, nothing listed, the same numbers drawn), but in a trace, whose
    events name the nodes passed."""
    end, values, chance = tree.end, tree.values, tree.chance
    weights = chance_weights(tree)
    lo, span = reward_scale(bounds)
    rng = Numbers(seed)
    visit = stats.leaves.append
    node_stats: dict[int, list[float]] = {0: [0, 0.0, 0.0]}
    kids: dict[int, list[int]] = {}  # the children of the search tree's nodes, once listed
    #: a game searched on demand plays its playouts itself, listing nothing (not in a trace)
    walk = getattr(tree, "playout", None) if tree.on_demand and emit is None else None
    limit = iterations if iterations is not None else -1
    t0 = time.perf_counter()
    done = playouts = visits = 0
    while done != limit:
        if done and seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        # 1. selection, ended by 2. the expansion of one node (or at a leaf in the tree)
        path = [0]
        p = 0
        is_max = tree.root_max  # the mover at p (at a chance node: below it)
        while end[p] != p + 1:
            cs = kids.get(p)
            if cs is None:
                cs = kids[p] = children(tree, p)
            if chance is not None and chance[p]:  # an outcome, drawn; the mover stays
                ws = weights.get(p)
                c = cs[rng.weighted(ws) if ws is not None else rng.uniform(len(cs))]
                path.append(c)
                if emit is not None:
                    emit(Select(p, done + 1, int(node_stats[p][0]), (), c))
                if c not in node_stats:
                    node_stats[c] = [0, 0.0, 0.0]
                    if emit is not None:
                        emit(Expand(c, done + 1))
                    break
                p = c
                continue
            fresh = next((c for c in cs if c not in node_stats), None)
            if fresh is not None:
                node_stats[fresh] = [0, 0.0, 0.0]
                path.append(fresh)
                if emit is not None:
                    emit(Expand(fresh, done + 1))
                break
            c = best_ucb(p, cs, is_max, node_stats, exploration)
            if emit is not None:
                arms = ucb_arms(p, cs, is_max, node_stats, exploration)
                emit(Select(p, done + 1, int(node_stats[p][0]), arms, c))
            p = c
            path.append(p)
            is_max = not is_max
        # 3. the playout
        m = path[-1]
        moves = 0
        if walk is not None:  # on demand: only the drawn moves played (OnDemandTree.playout)
            m, v, moves, leaf = walk(m, rng.uniform, rng.weighted, playout_depth)
            if moves or not leaf:
                playouts += 1
            if leaf:
                visit(m)
            elif v != v:
                raise no_static(tree, m)
            r = reward(v, lo, span)
            for n in path:  # 4. the backup, as below
                s = node_stats[n]
                s[0] += 1
                s[1] += r
                s[2] += r * r
            visits += len(path) + moves
            done += 1
            continue
        passed: list[int] | None = [] if emit is not None else None
        if end[m] != m + 1:
            playouts += 1
            while end[m] != m + 1:
                if playout_depth is not None and moves == playout_depth:
                    break
                cs = children(tree, m)
                ws = weights.get(m) if chance is not None and chance[m] else None
                m = cs[rng.weighted(ws) if ws is not None else rng.uniform(len(cs))]
                moves += 1
                if passed is not None:
                    passed.append(m)
        v = values[m]
        if end[m] == m + 1:
            visit(m)
        elif v != v:  # NaN: no static value
            raise no_static(tree, m)
        r = reward(v, lo, span)
        if emit is not None and passed is not None:
            rank = len(stats.leaves) if end[m] == m + 1 else None
            emit(Playout(path[-1], done + 1, tuple(passed), m, tree.number(m), r, rank))
        # 4. the backup
        for n in path:
            s = node_stats[n]
            s[0] += 1
            s[1] += r
            s[2] += r * r
        if emit is not None:
            tallies = tuple(Arm(n, int(node_stats[n][0]), node_stats[n][1]) for n in path)
            emit(Backup(path[-1], done + 1, r, tallies))
        visits += len(path) + moves
        done += 1
    return Searched(node_stats, done, playouts, visits)


def best_ucb(
    p: int, cs: list[int], is_max: bool, node_stats: dict[int, list[float]], exploration: float
) -> int:
    """The child of greatest UCB1 at decision node p (MAX to move: ``is_max``), every child
    visited; ties leftmost."""
    log_n = math.log(node_stats[p][0])
    best, best_u = -1, -math.inf
    for c in cs:
        n, w, _ = node_stats[c]
        q = w / n
        if not is_max:
            q = 1.0 - q
        u = q + exploration * math.sqrt(log_n / n)
        if u > best_u:
            best, best_u = c, u
    return best


def ucb_arms(
    p: int,
    cs: list[int],
    is_max: bool,
    node_stats: Mapping[int, Sequence[float]],
    exploration: float,
) -> tuple[Arm, ...]:
    """Every child of decision node p with its visits, reward sum and UCB1 value, computed as
    :func:`best_ucb` computes it (the same doubles, in the same order)."""
    log_n = math.log(node_stats[p][0])
    arms = []
    for c in cs:
        n, w = node_stats[c][0], node_stats[c][1]
        q = w / n if is_max else 1.0 - w / n
        arms.append(Arm(c, int(n), w, q + exploration * math.sqrt(log_n / n)))
    return tuple(arms)


def most_visited(searched: Searched, tree: Tree, p: int) -> int | None:
    """The child of p in the search tree with the most visits (ties leftmost), or None."""
    best, most = None, 0.0
    for c in children(tree, p):
        s = searched.stats.get(c)
        if s is not None and s[0] > most:
            best, most = c, s[0]
    return best


def principal_line(tree: Tree, searched: Searched) -> list[int]:
    """The PV by visits: from the root through decision nodes, the most visited child."""
    line = [0]
    n = 0
    while not tree.is_leaf(n) and not tree.is_chance(n):
        c = most_visited(searched, tree, n)
        if c is None:
            break
        line.append(c)
        n = c
    return line


def estimate(
    searched: Searched, line: list[int], bounds: tuple[Number, Number]
) -> tuple[float, float | None]:
    """The value in MAX's terms (the final move's mean reward) and its standard error."""
    b = line[1] if len(line) > 1 else 0
    n, w, s = searched.stats[b]
    lo, span = reward_scale(bounds)
    value = lo + span * (w / n)
    if n < 2:
        return value, None
    var = (s - w * w / n) / (n - 1)
    return value, span * math.sqrt((var if var > 0.0 else 0.0) / n)


def mcts(
    tree: Tree,
    stats: Stats,
    leaf_bounds: tuple[Number, Number],
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    exploration: float | None = None,
    playout_depth: int | None = None,
) -> Outcome:
    """UCT on ``tree``: the final move's estimated value (MAX's terms, ``bound="estimate"``)."""
    if exploration is None:
        exploration = DEFAULT_EXPLORATION
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    args = (tree, stats, leaf_bounds, iterations, seconds, seed, exploration, playout_depth)
    done = compiled.mcts(tree, stats, *args[2:], weights=chance_weights(tree))
    if done is None:
        searched = iterate(*args)
    else:
        nodes, n, w, sq, count, playouts, visits, cut, distinct, pv, rows = done
        if cut >= 0:
            raise no_static(tree, cut)
        table = Table(nodes, n, w, sq, rows=dict(zip(pv, rows, strict=True)))
        searched = Searched(table, count, playouts, visits)
    line = principal_line(tree, searched) if done is None else pv
    value, se = estimate(searched, line, leaf_bounds)
    stats.nodes = searched.visits
    count_rereadings(stats, None if done is None else distinct)
    stats.extra.update(
        iterations=searched.iterations,
        playouts=searched.playouts,
        tree_nodes=len(searched.stats),
        value_se=se,
    )
    return Outcome(value, "estimate", pv=line)
