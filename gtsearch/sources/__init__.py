"""gtsearch.sources: trees that come from parameters rather than files.

Owns the source specs and the seeded tree models: :func:`open_source` turns
a source spec (``random:b=3,d=4,seed=1``) into a tree that is expanded as a
search reaches it (:mod:`.randomtree`, on top of the SplitMix64 numbers of
:mod:`.splitmix`); :mod:`.uniform` streams the same trees to files for
``gtsearch gen`` and builds them in memory.  Imports only the ground modules
(tree, numbers, errors, core).  ``game:`` sources number a game's tree in
preorder from the sizes of its states' subtrees (:mod:`.games`): the protocol
a game follows (:mod:`.protocol`), a game too big to count searched on demand
(:mod:`.ondemand`), the specs and their parameters
(:mod:`.gamespec`), the built-in games (:mod:`.builtin_games`,
:mod:`.library`) and OpenSpiel's (:mod:`.openspiel`).  Both compute their
arrays on demand through the virtual sequences of :mod:`.virtual`.
docs/sources.md defines every model exactly.
"""

from __future__ import annotations

from ..tree import DEFAULT_MAX_NODES, Tree, sibling_names

#: the prefixes that make a FILE argument a source (``./random:x`` is a file)
PREFIXES = ("random:", "game:")


def is_source(text: str) -> bool:
    """Whether a FILE argument names a source rather than a file."""
    return text.startswith(PREFIXES)


def open_source(
    text: str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    depth: int | None = None,
    on_demand: bool = False,
    moves: str | None = None,
    estimate: str | None = None,
) -> Tree:
    """The tree a source spec names, expanded lazily; ``max_nodes`` bounds the nodes visited.

    Under the compiled core a ``random:`` source that it can build (see
    :func:`.randomtree.native_whole`) and that fits in ``max_nodes`` is built
    whole in C instead, so that the C searches take it: the same tree.  ``depth``
    cuts a game at that depth before its states are counted (a game too large to
    count whole may be searched to a depth); it does not apply to ``random:``.  ``on_demand``:
    a game with more distinct states than are counted is searched on demand instead
    (:mod:`.ondemand`: the searches that can, mcts and those with a table, are to run).
    ``moves`` (--moves) starts a game from the position after those moves, ``estimate``
    (--estimate MODULE:ATTRIBUTE) values its positions at the --depth cut (:mod:`.position`).
    """
    from ..errors import UsageError

    if text.startswith("game:"):
        from .gamespec import open_game

        game = text[len("game:") :]
        return open_game(
            game,
            max_nodes=max_nodes,
            depth=depth,
            on_demand=on_demand,
            moves=moves,
            estimate=estimate,
        )
    refuse_position(text, moves, estimate)
    from .randomtree import LazyTree, native_whole, parse_random

    try:
        spec = parse_random(text[len("random:") :])
        tree = LazyTree(spec, max_nodes=max_nodes, source=text)
    except UsageError as e:  # named as a file is: the argument as typed, first
        raise UsageError(f"{text}: {str(e).removeprefix('random source: ')}") from None
    if len(tree.end) <= max_nodes:  # built whole in C when it can: the C searches take it
        return native_whole(spec, source=text) or tree
    return tree


def refuse_position(name: str, moves: str | None, estimate: str | None) -> None:
    """A UsageError when --moves or --estimate is given for what is not a game."""
    from ..errors import UsageError

    given = [o for o, v in (("--moves", moves), ("--estimate", estimate)) if v is not None]
    if given:
        verb = "apply" if len(given) > 1 else "applies"
        raise UsageError(f"{name}: {' and '.join(given)} {verb} to game: sources only")


def whole(tree: Tree, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """A source built in full (show, trace, convert, validate); a file's tree as it is."""
    from .games import GameTree
    from .randomtree import materialize

    if isinstance(tree, GameTree):
        return tree.whole(max_nodes)
    return materialize(tree, max_nodes)


def unique_names(tree: Tree) -> Tree:
    """The tree with names that differ among siblings, as files need them: when a game gives
    two moves of one position the same label, each use of it among those siblings gets
    ``_1``, ``_2``, ... in order (:func:`gtsearch.tree.sibling_names`, as the .efg reader
    names Gambit's repeated labels)."""
    names = tree.names
    parent = tree.parent
    if len({(parent[n], name) for n, name in names.items()}) == len(names):
        return tree
    named: dict[int, list[int]] = {}
    for n in sorted(names):  # preorder: siblings in their order
        named.setdefault(parent[n], []).append(n)
    full = dict(names)
    for kids in named.values():
        labels = [names[n] for n in kids]
        if len(set(labels)) < len(labels):
            for n, name in zip(kids, sibling_names(labels), strict=True):
                if name is None:  # a label of 1000 characters has no room for its _k
                    del full[n]
                else:
                    full[n] = name
    return Tree(
        tree.end,
        tree.values,
        names=full,
        floats=tree.floats,
        root_max=tree.root_max,
        meta=tree.meta,
        source=tree.source,
        n_leaves=tree.n_leaves,
        chance=tree.chance,
        weights=tree.weights,
    )
