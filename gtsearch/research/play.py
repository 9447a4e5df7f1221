"""A game played move by move: people and engines in turn, chance drawn from a seed (``gtsearch
play``, docs/commands.md).

A :class:`Match` keeps the position and the moves played; an engine's move is
the first move of the principal variation an algorithm finds on the game's
tree from the position (gtsearch.sources.games.GameTree, cut at ``depth``, or
deepened one level at a time while ``seconds`` last); a chance move is drawn
with the SplitMix64 numbers of the sources, so that one seed gives the same
rolls.  A game played is saved as JSON, ``{"game": SPEC, "moves": [NAMES]}``,
every move by its name (chance's too), and a saved game is played again move
by move, each checked against the moves of its position.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any, NamedTuple

from ..algorithms import Algorithm, run
from ..algorithms.base import Stats
from ..algorithms.params import Params
from ..errors import GtsearchError, OutOfTime, UsageError, os_reason, shown
from ..files import write_text_file
from ..result import SearchResult
from ..sources.games import GameTree, TooMany
from ..sources.gamespec import game_of, spec_identity
from ..sources.ondemand import OnDemandTree, open_game_tree, searched_on_demand
from ..sources.position import mover, named_line, named_moves
from ..sources.protocol import CHANCE
from ..sources.splitmix import draw, root_key, unit
from ..tree import DEFAULT_MAX_NODES


class Turn(NamedTuple):
    """One move played: the position before it, who moved, the move and its name."""

    state: Any
    max_to_move: bool
    mover: str  # MAX, MIN or CHANCE
    move: Any
    name: str


class Thought(NamedTuple):
    """An engine's search from the position: the move it chose and what the search found."""

    move: Any
    name: str
    result: SearchResult
    #: the moves of the principal variation, by name
    line: list[str | None]
    #: the settings that applied, for people (", depth 4")
    settings: str
    #: the whole think in seconds: the game's tree counted and every search of the deepening
    seconds: float = 0.0


class Match:
    """A game from its start (or a saved game) with the moves played so far."""

    def __init__(
        self,
        spec: str,
        *,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: int = 0,
        estimate: str | None = None,
    ) -> None:
        self.game = game_of(spec.removeprefix("game:"), estimate)
        self.name = self.game.name
        self.max_nodes = max_nodes
        self.seed = seed
        self.state = self.game.key(self.game.call("initial"), "initial")
        #: whose turn it is in a game whose players alternate (a game with player() says)
        self.max_to_move = self.game.root_max
        self.turns: list[Turn] = []

    # -- the position ----------------------------------------------------------------------
    def to_move(self) -> str | None:
        """MAX, MIN or CHANCE, or None when the game is over."""
        return mover(self.game, self.state, self.max_to_move)

    def moves(self) -> list[tuple[Any, str]]:
        """The moves of the position with their names (a chance state's outcomes)."""
        return named_moves(self.game, self.state, self.to_move())

    def play_named(self, text: str, where: str = "--moves") -> None:
        """Play the moves ``text`` names, as --moves names them (:func:`named_line`: names
        separated by spaces, each the longest of the position's that fits)."""

        def moves_here() -> list[tuple[Any, str]] | None:
            who = self.to_move()
            return None if who is None else named_moves(self.game, self.state, who)

        for move, name in named_line(self.name, text, moves_here, where):
            self.play(move, name)

    def find(self, text: str) -> tuple[Any, str] | None:
        """The move a person typed, by its name (never by its place in the list: a number
        typed is a name, the square 5 of tic-tac-toe, not the fifth move left)."""
        text = text.strip()
        return next(((move, name) for move, name in self.moves() if name == text), None)

    def play(self, move: Any, name: str) -> None:
        mover = self.to_move()
        assert mover is not None, "bug: a move after the end of the game"
        self.turns.append(Turn(self.state, self.max_to_move, mover, move, name))
        self.state = self.game.key(self.game.call("play", self.state, move), "play")
        if not self.game.has_player:
            self.max_to_move = not self.max_to_move

    def undo(self, people: frozenset[str]) -> bool:
        """Take back the moves since the last move of one of ``people`` (MAX, MIN), that one
        included; False when there is none."""
        last = max((i for i, t in enumerate(self.turns) if t.mover in people), default=None)
        if last is None:
            return False
        turn = self.turns[last]
        self.state, self.max_to_move = turn.state, turn.max_to_move
        del self.turns[last:]
        return True

    def utility(self) -> int | float:
        return self.game.number("utility", self.state)

    # -- chance and engines ----------------------------------------------------------------
    def roll(self) -> tuple[Any, str]:
        """Chance's move, drawn from the seed: the k-th roll of a match is the real of draw k
        of the seed's key, against the outcomes' exact cumulative probabilities."""
        weights = self.game.outcomes(self.state)[1]
        moves = self.moves()
        rolls = sum(1 for t in self.turns if t.mover == CHANCE)
        x = Fraction(unit(draw(root_key(self.seed), rolls)))
        total = sum(Fraction(w) for w in weights)
        below = Fraction(0)
        for pair, w in zip(moves, weights, strict=True):
            below += Fraction(w) / total
            if x < below:
                return pair
        return moves[-1]

    def tree(self, depth: int | None, on_demand: bool = False) -> GameTree:
        """The game's tree from the position, cut at ``depth``; ``on_demand``: searched on
        demand when it has too many states to count (docs/sources.md)."""
        return open_game_tree(
            self.game,
            source=self.name,
            max_nodes=self.max_nodes,
            limit=depth,
            start=self.state,
            start_max=self.max_to_move,
            on_demand=on_demand,
        )

    def check_cut(self, depth: int | None, seconds: float | None) -> None:
        """A UsageError when the engine is to cut a game that has no estimate."""
        if (depth is not None or seconds is not None) and not self.game.has_estimate:
            raise UsageError(f"{self.name}: --depth and --time need the game's estimate(state)")

    def think(
        self,
        algorithm: Algorithm,
        params: Params,
        depth: int | None,
        seconds: float | None,
        on_chance: tuple[Algorithm, Params] | None = None,
    ) -> Thought:
        """The engine's move: the first move of the PV of ``algorithm`` on the tree from the
        position, cut at ``depth``; with ``seconds``, cut at 1, 2, ... while the time lasts
        (the last search finished decides, and the deepening stops where the cut no longer
        cuts).  ``on_chance`` searches instead a tree that has chance nodes."""
        self.check_cut(depth, seconds)
        seed = params.get("seed")
        if seed is not None:  # mcts: the n-th move of the game searches with seed + n
            params = {**params, "seed": seed + len(self.turns)}
        start = time.perf_counter()
        limit = depth if seconds is None else 1
        on_demand = searched_on_demand(algorithm.name, params.get("tt"))
        done: tuple[GameTree, SearchResult] | None = None
        while True:
            try:
                tree = self.tree(limit, on_demand)
            except TooMany as e:
                raise UsageError(
                    f"{e.game}: more than {e.most:,} distinct states, and {algorithm.name} "
                    "searches a game's states counted: give the engine --time SECONDS "
                    "(deepening) or --depth, or play with -a mcts"
                ) from None
            if done is not None and seconds is not None and isinstance(tree, OnDemandTree):
                tree.deadline = start + seconds  # a depth after the first may be dropped
            engine = on_chance if on_chance is not None and tree.has_chance else None
            try:
                result = run(tree, *(engine or (algorithm, params)), stats=Stats())
            except OutOfTime:  # the time ran out in this depth: the one before decides
                if done is None:  # not set on the first depth: it always finishes
                    raise
                tree, result = done
                limit = (limit or 2) - 1
                break
            done = tree, result
            if seconds is None or tree.max_depth() < (limit or 0):
                break
            if time.perf_counter() - start >= seconds:
                break
            limit = (limit or 0) + 1
        move, name = self.moves()[result.pv[0] if result.pv else 0]
        settings = f", depth {limit}" if limit is not None else ""
        thought = time.perf_counter() - start
        return Thought(move, name, result, tree.move_names(result.pv), settings, thought)

    # -- saved games -----------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game played, as saved: the spec and every move's name."""
        return {"game": self.name, "moves": [t.name for t in self.turns]}

    def save(self, path: str) -> None:
        text = json.dumps(self.record(), ensure_ascii=False) + "\n"
        try:
            write_text_file(path, text)  # whole or not at all
        except OSError as e:
            raise GtsearchError(f"{path}: cannot write: {os_reason(e)}") from None

    def replay(self, names: list[Any], where: str) -> None:
        """Play saved moves, each by its name, each checked against the position's moves."""
        for k, name in enumerate(names, 1):
            if self.to_move() is None:
                raise UsageError(f"{where}: move {k}, {shown(name)}: the game is already over")
            found = next(((m, n) for m, n in self.moves() if n == name), None)
            if found is None:
                names_here = ", ".join(n for _, n in self.moves())
                raise UsageError(
                    f"{where}: move {k}, {shown(name)}, is not among the moves: {names_here}"
                )
            self.play(*found)


#: the largest saved game read (a game of thousands of moves is a few tens of kilobytes)
MAX_SAVED_BYTES = 1 << 20
#: the keys of a saved game, and nothing else
SAVED_KEYS = ("game", "moves")
SAVED_SHAPE = '{"game": SPEC, "moves": [NAMES]}'


def read_saved(path: str) -> tuple[str, list[str]]:
    """The game spec and the moves' names of a saved game (docs/commands.md, "A saved game"):
    a JSON object of exactly the keys ``game`` (a string) and ``moves`` (a list of strings),
    at most 1 MiB; anything else is one UsageError naming the file."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SAVED_BYTES + 1)
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {os_reason(e)}") from None
    if len(raw) > MAX_SAVED_BYTES:
        raise UsageError(f"{path}: a saved game is at most {MAX_SAVED_BYTES:,} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise UsageError(f"{path}: not UTF-8 (byte {e.start + 1})") from None
    except RecursionError:
        raise UsageError(f"{path}: not a saved game: JSON nested too deeply") from None
    except ValueError as e:
        raise UsageError(f"{path}: not JSON: {e}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: a saved game is {SAVED_SHAPE}")
    extra = [key for key in data if key not in SAVED_KEYS]
    if extra:
        names = ", ".join(shown(key) for key in extra[:3]) + (", ..." if len(extra) > 3 else "")
        raise UsageError(f"{path}: a saved game is {SAVED_SHAPE}, and nothing else: {names}")
    game, moves = data.get("game"), data.get("moves")
    if (
        not isinstance(game, str)
        or not isinstance(moves, list)
        or not all(isinstance(m, str) for m in moves)
    ):
        raise UsageError(f"{path}: a saved game is {SAVED_SHAPE}")
    return game, moves


def saved_spec(path: str, saved: str, given: str | None) -> str:
    """The spec to play a saved game of ``saved`` with: ``given`` (the command line's GAME)
    when it names the same game, else a UsageError; without GAME, the saved one only when it
    is a built-in or an OpenSpiel game, which load no code of anyone's: a saved game is data,
    and a module of the user's is imported only when the command line names it."""
    try:
        identity = spec_identity(saved)
    except ValueError as e:
        raise UsageError(f"{path}: the saved game {shown(saved, 80)}: {e}") from None
    if given is None:
        if identity.kind == "user":
            raise UsageError(
                f"{path}: the saved game {shown(saved, 80)} is a game of a module, imported only "
                f"when the command line names it: gtsearch play GAME --load {path}"
            )
        return saved
    try:
        same = spec_identity(given) == identity
    except ValueError:
        same = False
    if not same:
        raise UsageError(f"{path}: a saved game of {shown(saved, 80)}, not of {shown(given, 80)}")
    return given


def load_match(
    path: str,
    game: str | None = None,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    seed: int = 0,
    estimate: str | None = None,
) -> Match:
    """A saved game (JSON: ``{"game": SPEC, "moves": [NAMES]}``), played to where it stopped.

    ``game``, the GAME of the command line, must name the saved game; without it the saved
    game must be a built-in or an OpenSpiel game (:func:`saved_spec`): nothing in the file
    decides which code runs."""
    saved, moves = read_saved(path)
    spec = saved_spec(path, saved, game)
    match = Match(spec, max_nodes=max_nodes, seed=seed, estimate=estimate)
    match.replay(moves, path)
    return match
