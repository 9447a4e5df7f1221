#!/usr/bin/env python3
"""Write sample_trees/nim-5.efg with Gambit itself (pygambit), a real .efg from Gambit for gtsearch.

Nim with one heap of N stones (default 5): the players take turns to take 1
or 2 stones, and whoever takes the last stone wins (payoffs 1 and -1).  The
game is built with pygambit's tree API and written by Gambit's own writer
(``Game.to_efg()``), so the file is exactly what Gambit produces:

    python -m pip install -e '.[gambit]'
    python scripts/gambit_nim.py sample_trees/nim-5.efg

With N stones, the player to move wins when N is not a multiple of 3 (take
N mod 3 stones and leave a multiple of 3), so Nim(5) is worth 1 to player 1.
"""

from __future__ import annotations

import argparse
import sys

TAKE = (1, 2)


def nim(stones: int):  # type: ignore[no-untyped-def]  # pygambit has no type hints
    """The game tree of Nim with one heap, built with pygambit."""
    import pygambit as gbt

    game = gbt.Game.new_tree(
        players=["First", "Second"], title=f"Nim, one heap of {stones} stones, take 1 or 2"
    )
    game.description = (
        "The player who takes the last stone wins. Built with pygambit and written by "
        "Gambit (scripts/gambit_nim.py in gtsearch)."
    )
    wins = [
        game.add_outcome("First wins", [1, -1]),
        game.add_outcome("Second wins", [-1, 1]),
    ]
    game.root.label = f"{stones} stones"  # Gambit 16.7 wants node labels unique: the root's only
    players = list(game.players)
    todo = [(game.root, stones, 0)]  # (node, stones left, player to move); no recursion
    while todo:
        node, left, mover = todo.pop()
        moves = [k for k in TAKE if k <= left]
        game.append_move(node, players[mover], [f"take {k}" for k in moves])
        for k, child in zip(moves, node.children, strict=True):
            if k == left:  # the mover took the last stone
                game.set_outcome(child, wins[mover])
            else:
                todo.append((child, left - k, 1 - mover))
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("output", nargs="?", default="-", help="the .efg file ('-': stdout)")
    parser.add_argument("--stones", type=int, default=5, help="stones in the heap (default 5)")
    args = parser.parse_args(argv)
    text = nim(args.stones).to_efg()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
