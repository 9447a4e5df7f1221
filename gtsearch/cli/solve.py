"""``gtsearch solve``: the game-theoretic result of a game of wins, draws and losses."""

from __future__ import annotations

from typing import Any

import click

from ..algorithms.solve import DECIDED, Solution, W
from ..errors import UsageError
from ..tree import Tree
from .common import display_name, load
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

    \b
    Examples:
      gtsearch solve game:tictactoe
      gtsearch solve game:nim:12 --format json
      gtsearch solve game:tictactoe -a pns
      gtsearch solve game:connect4:rows=4,columns=4 --moves "3 2 3"
    """
    from ..algorithms.solve import solve
    from ..render.tables import json_records

    tree, _seconds = load(file, input_format, max_nodes, moves=moves, estimate=estimate)
    if root is not None:
        tree = tree.with_root(root.lower() == "max")
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
