"""Games for people: the built-in games listed (``gtsearch games``), positions drawn along a
line of play (``show`` and ``trace`` of a game, ``gtsearch play``), an engine's move reported.

Pure functions of the registry (gtsearch.sources.builtin_games), of a game's
tree (gtsearch.sources.games.GameTree) and of search results; the game draws
its own positions (``render(state)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .labels import ARROW, format_seconds, total_text
from .tables import registry_table, registry_text

if TYPE_CHECKING:
    from rich.console import Console

    from ..result import SearchResult

#: a built-in game of the registry (gtsearch.sources.builtin_games.BuiltinGame), and a game's
#: tree (gtsearch.sources.games.GameTree): render reads them and imports nothing of sources
BuiltinGame = Any
GameTree = Any


def parameters_text(game: BuiltinGame) -> str:
    """The parameters with their defaults, as a spec writes them (``rows=6,columns=7,k=4``)."""
    return ",".join(f"{p.name}={str(p.default).lower()}" for p in game.params) or "-"


def game_dict(game: BuiltinGame) -> dict[str, Any]:
    """A built-in game as a JSON object (docs/commands.md, "gtsearch games")."""
    return {
        "name": game.name,
        "spec": f"game:{game.name}",
        "summary": game.summary,
        "parameters": [
            {
                "name": p.name,
                "type": "bool" if p.kind is bool else "int",
                "default": p.default,
                "min": p.lo,
                "max": p.hi,
                "meaning": p.help,
            }
            for p in game.params
        ],
        "estimate": game.estimate,
    }


def games_text(games: Iterable[BuiltinGame]) -> str:
    """One aligned line per game: name, parameters and their defaults, summary."""
    return registry_text([(g.name, parameters_text(g), g.summary) for g in games])


def render_games(games: Iterable[BuiltinGame], console: Console) -> None:
    """The built-in games as a rich table."""
    rows = [(g.name, parameters_text(g), g.summary, g.estimate) for g in games]
    registry_table(("name", "parameters", "summary", "estimate (--depth)"), rows, console)


def positions(tree: GameTree, path: Sequence[int]) -> list[str]:
    """The positions along a line of play given as child indices from the root, each drawn by
    the game under the move that led to it (a forced pass adds no position); [] when the
    game does not draw."""
    game = tree.game
    if not game.has_render:
        return []
    node = 0
    state = tree.state_at(0)
    out = [f"start:\n{game.render(state)}"]
    for i in path:
        node = tree.child(node, i)
        before, state = state, tree.state_at(node)
        if state == before:  # the other player's forced pass: the same position
            continue
        name = tree.names.get(node) or f"move {i + 1}"
        out.append(f"after {name}:\n{game.render(state)}")
    return out


def engine_line(
    who: str,
    result: SearchResult,
    move: str,
    line: Sequence[str | None],
    settings: str,
    seconds: float | None = None,
) -> str:
    """What an engine's search found: its move, value, PV (the moves' names, as eval gives
    them: ``1 → 5 → 2``) and counts, and the time it took: ``seconds``, the whole think (the
    tree counted, every depth of the deepening), else the search's."""
    pv = ARROW.join(name if name is not None else "-" for name in line) or "-"
    took = format_seconds(result.seconds if seconds is None else seconds)
    total = result.leaves_total  # None on demand: the leaves were not counted
    of = "" if total is None else f" of {total_text(total, ',')}"
    return (
        f"{who} ({result.algorithm}{settings}) plays {move}: value {result.value_text()}, "
        f"PV {pv}, {result.leaves:,}{of} leaves, {result.nodes:,} nodes, {took}"
    )
