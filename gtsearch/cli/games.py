"""``gtsearch games`` and ``gtsearch play``: the built-in games, and a game played in the terminal."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..algorithms import find_algorithm
from ..algorithms.params import SearchParams, check_one
from ..errors import UsageError, shown
from ..numbers import Number
from ..render.games import engine_line, game_dict, games_text, render_games
from .common import echo_registry
from .options import (
    algo_option,
    bound_option,
    depth_option,
    iterations_option,
    leaf_bounds_option,
    listing_format_option,
    max_nodes_option,
    mcts_search_options,
    output_option,
    path_option,
    position_options,
    seed_option,
    window_options,
)
from .values import FloatParam


@click.command("games")
@listing_format_option
def games_command(output_format: str) -> None:
    """List the built-in games: name, parameters with their defaults, what they are.

    Any of them is a source, game:NAME or game:NAME:KEY=VALUE,... (the
    parameters and their ranges: --format json), wherever a command takes a
    FILE, and 'gtsearch play' plays it. OpenSpiel's games are
    game:openspiel:NAME(PARAMS) with the extra openspiel (docs/sources.md).

    \b
    Examples:
      gtsearch games
      gtsearch games --format json
      gtsearch eval game:connect4:rows=4,columns=5 --depth 6
    """
    from ..sources.builtin_games import GAMES

    echo_registry(output_format, GAMES, render_games, game_dict, games_text)


#: play's engine deepens for this long by default on a game with an estimate (--time)
THINK_SECONDS = 2.0

SIDES = {"max": ("max",), "min": ("min",), "both": ("max", "min"), "none": ()}


@click.command("play")
@click.argument("game", metavar="[GAME]", required=False)
@algo_option("alphabeta, or star1 on a game with chance", several=False)
@depth_option
@click.option(
    "--time",
    "seconds",
    type=FloatParam(0.0, None),
    default=None,
    metavar="SECONDS",
    help="Deepen the engine's search one level at a time (--depth 1, 2, ...) while SECONDS "
    "last; a depth the time cuts short is dropped, and the last one finished chooses the "
    "move. Default: 2 on a game with an estimate, when --depth is not given (a game without "
    "one is searched whole). mcts: search for SECONDS.",
)
@iterations_option
@mcts_search_options
@click.option(
    "--human",
    type=click.Choice(list(SIDES)),
    default="max",
    show_default=True,
    help="The side you play: max (the first player), min, both (two people) or none (the "
    "engine against itself).",
)
@bound_option()
@window_options
@leaf_bounds_option
@seed_option("rolls of the dice (chance's moves) and mcts's moves")
@path_option("--load", metavar="FILE", help="Go on with a game saved by 'gtsearch play -o FILE'.")
@position_options
@output_option(
    "the game played (JSON: the game and its moves by name)",
    more=" Written at the end and by the command 's'. Default: no file.",
    instead=None,
)
@max_nodes_option
def play_command(
    game: str | None,
    algo: str | None,
    depth: int | None,
    seconds: float | None,
    iterations: int | None,
    exploration: float | None,
    playout_depth: int | None,
    human: str,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    variant: str | None,
    leaf_bounds: tuple[Number, Number] | None,
    seed: int,
    load: str | None,
    moves: str | None,
    estimate: str | None,
    output: str | None,
    max_nodes: int,
) -> None:
    """Play GAME against an engine: any algorithm, to a depth, for a time or (mcts) for a
    number of iterations.

    GAME is a game source without 'game:' (tictactoe, connect4:rows=4,
    openspiel:tic_tac_toe, mymodule:MyGame) or with it. The board is drawn
    when the game draws it; after each of the engine's moves come its value,
    principal variation and counts. Type a move by its name, as the list
    shows it; 'u' takes back your last move, 's [FILE]' saves the game,
    'q' quits. A saved game (--load) is data: its game must be GAME, and
    without GAME it must be a built-in or an OpenSpiel game. Chance's moves
    (dice) are drawn from --seed; mcts's search for the n-th move of the
    game (n = 0, 1, ...) is seeded with --seed + n.

    \b
    Examples:
      gtsearch play tictactoe
      gtsearch play connect4:rows=5,columns=6 --depth 6 -o game.json
      gtsearch play othello --human min -a sss --time 2
      gtsearch play pig -a expectiminimax --human none --seed 7
      gtsearch play tictactoe -a mcts --iterations 5000
      gtsearch play connect4:rows=5,columns=6 --load game.json -o game.json
      gtsearch play connect4:rows=4,columns=5 --moves "3 3 2" --depth 4
    """
    from ..render.progress import progress
    from ..research.play import Match, load_match
    from ..sources.protocol import CHANCE

    default = "alphabeta" if leaf_bounds is None else "star1"
    # mcts's --time is its own limit, not a deepening, and --seed seeds its moves too
    mcts = algo is not None and find_algorithm(algo).name == "mcts"
    numbers = SearchParams(
        bound=bound,
        alpha=alpha,
        beta=beta,
        variant=variant,
        leaf_bounds=leaf_bounds,
        iterations=iterations,
        exploration=exploration,
        playout_depth=playout_depth,
        seconds=seconds if mcts else None,
        seed=seed if mcts else None,
    )
    if mcts:
        seconds = None
    algorithm, params = check_one([algo or default], **numbers)
    if depth is not None and seconds is not None:
        raise UsageError("give --depth or --time, not both")
    if load is not None:
        match = load_match(load, game, max_nodes=max_nodes, seed=seed, estimate=estimate)
    elif game is None:
        raise UsageError("play needs GAME (gtsearch play tictactoe), or --load FILE")
    else:
        match = Match(game, max_nodes=max_nodes, seed=seed, estimate=estimate)
    if moves is not None:  # from the position after them (after the saved game's)
        match.play_named(moves)
    if not mcts and depth is None and seconds is None and match.game.has_estimate:
        seconds = THINK_SECONDS  # a game too large to search whole still gets an answer
    match.check_cut(depth, seconds)
    people = frozenset(SIDES[human])
    out = click.echo
    out(match.game.title or match.name)
    # alpha-beta by default, and Star1 where the tree from the position has chance nodes
    on_chance = check_one(["star1"], **numbers) if algo is None and leaf_bounds is None else None
    shown_board = match.game.render(match.state)
    if shown_board is not None:
        out(shown_board)
    while True:
        who = match.to_move()
        if who is None:
            break
        if who == CHANCE:
            move, name = match.roll()
            match.play(move, name)
            out(f"chance: {name}")
        elif who in people:
            typed = _ask(match, who)
            if typed is None:
                out("quit")
                break
            if not _command(match, typed, people, output):
                continue
        else:
            # a spinner on standard error (a terminal only) while the engine thinks over 1 s
            with progress(f"{who.upper()} ({algorithm.name}) is thinking"):
                thought = match.think(algorithm, params, depth, seconds, on_chance)
            match.play(thought.move, thought.name)
            out(
                engine_line(
                    who.upper(),
                    thought.result,
                    thought.name,
                    thought.line,
                    thought.settings,
                    thought.seconds,
                )
            )
        board = match.game.render(match.state)
        if board is not None:
            out(board)
    if match.to_move() is None:
        out(f"game over: {_verdict(match.utility())}")
    if output is not None:
        match.save(output)
        out(f"saved to {output}")


def _verdict(value: Number) -> str:
    """The end of the game in words, from MAX's payoff."""
    if value > 0:
        return f"MAX wins ({value})"
    if value < 0:
        return f"MIN wins ({value})"
    return f"a draw ({value})"


def _ask(match: Any, who: str) -> str | None:
    """One line typed by the person to move (None at the end of the input)."""
    names = ", ".join(name for _, name in match.moves())
    click.echo(f"{who.upper()} to move [{names}] (u undo, s save, q quit): ", nl=False)
    line = _read_line()
    if line is None:
        click.echo()
        return None
    text = line.strip()
    return None if text in ("q", "quit") else text


#: the longest line a person types that is read as a move or a command
MAX_TYPED = 4096


def _read_line() -> str | None:
    """One line of standard input, None at its end; a line longer than MAX_TYPED characters is
    read to its end and handed back cut (it is then no move); a closed standard input is one
    GtsearchError, as for every command (docs/commands.md, "Pipes, signals and closed
    streams")."""
    closed = UsageError("<stdin>: cannot read standard input: it is closed")
    stream = sys.stdin
    if stream is None:
        raise closed
    try:
        line = stream.readline(MAX_TYPED + 1)
        if len(line) > MAX_TYPED and not line.endswith("\n"):
            while True:  # the rest of an over-long line, read and dropped a block at a time
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith("\n"):
                    break
    except (OSError, ValueError):  # a closed descriptor (EBADF), or a closed file object
        raise closed from None
    return line or None


def _command(match: Any, typed: str, people: frozenset[str], output: str | None) -> bool:
    """Do what a person typed; True when a move was played."""
    word, _, rest = typed.partition(" ")
    if word in ("u", "undo"):
        click.echo("taken back" if match.undo(people) else "nothing to take back")
        return True
    if word in ("s", "save"):
        path = rest.strip() or output
        if not path:
            click.echo("save where? s FILE (or give -o FILE)")
        else:
            match.save(path)
            click.echo(f"saved to {path}")
        return False
    found = match.find(typed)
    if found is None:
        names = ", ".join(name for _, name in match.moves())
        click.echo(f"not a move here: {shown(typed)} (the moves: {names})")
        return False
    match.play(*found)
    return True
