"""``gtsearch solve``: the game-theoretic result of a game of wins, draws and losses."""

from __future__ import annotations

from typing import Any, NamedTuple

import click

from ..algorithms.solve import DECIDED, Solution, W
from ..errors import UsageError
from ..tree import Tree
from .common import display_name, load, rooted
from .options import (
    file_argument,
    format_option,
    input_options,
    ordering_options,
    position_options,
    root_option,
    tt_option,
)


@click.command("solve")
@file_argument
@click.option(
    "-a",
    "--algo",
    type=click.Choice(["alphabeta", "pns"], case_sensitive=False),
    default="alphabeta",
    show_default=True,
    help="The solver: alpha-beta by iterative deepening with the table, or df-pn "
    "(depth-first proof-number search) with it.",
)
@tt_option(16)
@ordering_options
@root_option
@position_options
@format_option(["text", "json"], "Lines of text, or one JSON object.", "text")
@input_options
def solve_command(
    file: str,
    algo: str,
    tt: int,
    history: bool,
    killers: bool,
    root: str | None,
    output_format: str,
    input_format: str | None,
    max_nodes: int,
    moves: str | None,
    estimate: str | None,
) -> None:
    """Solve a game (or a tree) whose leaves are wins, draws and losses.

    A leaf's sign says who wins: > 0 MAX, < 0 MIN, 0 a draw. The result is
    the player to move's: win, draw or loss, with the distance (the shortest
    win, the longest loss), the principal variation, the positions searched
    and each iteration of the deepening (docs/algorithms.md, "Solving").
    The built-in Connect Four (a board of at most 64 bits) has a solver of
    its own: null windows over bitboards, the same result, distance and PV,
    its own counts ("Solving Connect Four"); -a pns, --root, --history and
    --killers keep the generic one. A game is searched on demand, nothing
    counted first, whatever its size: --max-nodes bounds the nodes the search
    numbers.

    \b
    Examples:
      gtsearch solve game:tictactoe
      gtsearch solve game:nim:12 --format json
      gtsearch solve game:tictactoe -a pns
      gtsearch solve game:connect4:rows=4,columns=4 --moves "3 2 3"
      gtsearch solve game:connect4 --moves "4 4 3 3 2 5 6 2 2 1 5 6 1 7"
    """
    from ..algorithms.solve import solve
    from ..render.tables import json_records

    plain = algo.lower() == "alphabeta" and not (history or killers) and root is None
    board = connect4_board(file, moves, estimate) if plain else None
    if board is not None:
        record = connect4_record(display_name(file), board, tt, max_nodes)
        if output_format == "json":
            click.echo(json_records([record], ascii_only=False), nl=False)
        else:
            _print_connect4(record, board, tt)
        return
    # a game is searched on demand, nothing counted first (docs/algorithms.md, "Solving"):
    # every solver here walks it through its children and positions, the same numbers as
    # counted; --max-nodes bounds the nodes the search numbers
    on_demand = file.startswith("game:")
    tree, _seconds = load(
        file, input_format, max_nodes, on_demand=on_demand, moves=moves, estimate=estimate
    )
    tree = rooted(tree, root)
    name = display_name(file)
    if algo.lower() == "pns":
        from ..algorithms.pns import solve_pns

        if history or killers:
            raise UsageError(
                "--history and --killers order alpha-beta's moves: drop them with -a pns"
            )

        found = solve_pns(tree, tt)
        record = {"file": name, "algorithm": "pns", "result": found["result"]}
        record.update(distance=None, **_line(tree, found["pv"]))
        record.update({k: v for k, v in found.items() if k not in record})
        record["seconds"] = round(found["seconds"], 6)
        expanded = ""
    else:
        from ..algorithms.ordering import MoveOrder

        order = MoveOrder(tree, history, killers) if history or killers else None
        done = solve(tree, tt, order)
        record = solution_record(name, "alphabeta", tree, done)
        expanded = f" ({done.expanded:,} expanded)"
    if output_format == "json":
        click.echo(json_records([record], ascii_only=False), nl=False)
        return
    mover = "MAX" if tree.root_max else "MIN"
    distance = record["distance"]
    plies = "" if distance is None else f" in {distance} plies"
    click.echo(
        f"{name}: {record['result']} for {mover} (to move){plies} "
        f"({record['algorithm']}, table {tt} MiB)"
    )
    what = "PV" if distance is not None else "the proof's line"
    click.echo(f"{what}: " + _moves(record))
    click.echo(
        f"positions {record['positions']:,}, nodes {record['nodes']:,}{expanded}, "
        f"leaves {record['leaves']:,}, {record['seconds']:.3g} s"
    )
    for it in record.get("iterations", ()):
        click.echo(
            f"  depth {it['depth']:>3}  {it['result']:<7} nodes {it['nodes']:>9,}  "
            f"leaves {it['leaves']:>9,}  {it['seconds']:.3g} s  PV {_moves(it)}"
        )


class Board(NamedTuple):
    """A position of the built-in Connect Four whose board fits 64 bits."""

    game: Any  # the ConnectFour object
    state: tuple[int, int, int]  # (x, o, won)
    max_to_move: bool


def connect4_board(file: str, moves: str | None, estimate: str | None) -> Board | None:
    """The position when ``file`` names the built-in connect4 on a board of at most 64 bits
    (docs/algorithms.md, "Solving Connect Four"), else None: the generic solve then runs.
    A bad spec or --moves is the one line the generic path gives."""
    from ..algorithms.connect4 import fits
    from ..sources.gamespec import game_of, spec_identity
    from ..sources.library.connect4 import ConnectFour
    from ..sources.position import after_moves

    if not file.startswith("game:"):
        return None
    try:
        identity = spec_identity(file)
    except ValueError:
        return None  # the generic path words the error
    if identity.kind != "builtin" or identity.name != "connect4":
        return None
    game = game_of(file[len("game:") :], estimate)
    obj = game.obj.wrapped if estimate is not None else game.obj
    if type(obj) is not ConnectFour:
        return None
    if not fits(obj.rows, obj.columns):
        click.echo(
            f"note: {file}: {obj.rows} x {obj.columns} is more than the Connect Four solver's "
            "64 bits ((rows + 1) x columns): the generic solve runs",
            err=True,
        )
        return None
    state, max_to_move = obj.initial(), True
    if moves is not None:
        state, max_to_move, _ = after_moves(game, moves)
    return Board(obj, state, max_to_move)


def connect4_record(name: str, board: Board, tt: int, max_nodes: int) -> dict[str, Any]:
    """The JSON object of the Connect Four solver's solution (docs/algorithms.md)."""
    from ..algorithms.connect4 import solve_connect4

    game, (x, o, _won) = board.game, board.state
    found = solve_connect4(
        game.rows, game.columns, game.k, x, o, tt=tt, max_nodes=max_nodes, source=name
    )
    indices, state = [], board.state
    for c in found.pv:  # a move's child index: its column among the columns not full
        indices.append(game.moves(state).index(c))
        state = game.play(state, c)
    return {
        "file": name,
        "algorithm": "connect4",
        "result": found.result,
        "distance": found.distance,
        "score": found.score,
        "pv": indices,
        "pv_labels": [str(c + 1) for c in found.pv],
        "nodes": found.nodes,
        "expanded": found.expanded,
        "leaves": found.leaves,
        "line_nodes": found.line_nodes,
        "probes": [
            {
                "test": p.test,
                "above": p.score > p.test,
                "nodes": p.nodes,
                "expanded": p.expanded,
                "leaves": p.leaves,
                "seconds": round(p.seconds, 6),
            }
            for p in found.probes
        ],
        "tt": found.tt,
        "seconds": round(found.seconds, 6),
    }


def _print_connect4(record: dict[str, Any], board: Board, tt: int) -> None:
    mover = "MAX" if board.max_to_move else "MIN"
    click.echo(
        f"{record['file']}: {record['result']} for {mover} (to move) in "
        f"{record['distance']} plies (connect4 solver, score {record['score']}, table {tt} MiB)"
    )
    click.echo("PV: " + _moves(record))
    click.echo(
        f"nodes {record['nodes']:,} ({record['expanded']:,} expanded), "
        f"leaves {record['leaves']:,}, line {record['line_nodes']:,}, {record['seconds']:.3g} s"
    )
    for p in record["probes"]:
        answer = "yes" if p["above"] else "no"
        click.echo(
            f"  score > {p['test']:>3}?  {answer:<3}  nodes {p['nodes']:>11,}  "
            f"leaves {p['leaves']:>11,}  {p['seconds']:.3g} s"
        )


def _moves(record: dict[str, Any]) -> str:
    """A record's PV as its moves: names, else child indices; "(root)" when empty."""
    pairs = zip(record["pv"], record["pv_labels"], strict=True)
    moves = [str(i) if label is None else label for i, label in pairs]
    return " → ".join(moves) if moves else "(root)"


def _line(tree: Tree, pv: list[int]) -> dict[str, Any]:
    """A PV given as nodes, as the JSON output gives it: child indices and names."""
    return {
        "pv": tree.path_of(pv[-1]) if len(pv) > 1 else [],
        "pv_labels": list(tree.line_labels(pv)),
    }


def solution_record(name: str, algo: str, tree: Tree, done: Solution) -> dict[str, Any]:
    """The JSON object of a solution (docs/algorithms.md, "Solving")."""
    return {
        "file": name,
        "algorithm": algo,
        "result": done.result,
        "distance": done.distance,
        **_line(tree, done.pv),
        "positions": done.positions,
        "nodes": done.nodes,
        "expanded": done.expanded,
        "leaves": done.leaves,
        "iterations": [
            {
                "depth": it.depth,
                "result": _result(it.score, it is done.iterations[-1], done.result),
                "nodes": it.nodes,
                "expanded": it.expanded,
                "leaves": it.leaves,
                **_line(tree, list(it.pv)),
                "seconds": round(it.seconds, 6),
            }
            for it in done.iterations
        ],
        "tt": done.tt,
        **done.ordering,
        "seconds": round(done.seconds, 6),
    }


def _result(score: int, last: bool, final: str) -> str:
    """What an iteration proved: a win or a loss (with its distance), else open (the last: the
    result)."""
    if score > DECIDED:
        return f"win {W - score}"
    if score < -DECIDED:
        return f"loss {W + score}"
    return final if last else "open"
