#!/usr/bin/env python3
"""Write the complete tic-tac-toe game tree as a gtsearch tree file.

The tree starts from the empty board with X (MAX) to move.  A game ends at a
win or at a full board; leaves are worth +1 (X wins), -1 (O wins) or 0 (draw).
Children come in square order 1..9 (row-major, only the empty squares), and
every node is named by the squares played so far ("5", "51", "519"); the root
is named "start".  The tree has 549,946 nodes, 255,168 leaves and value 0.

The output format follows the extension (.json, .yaml/.yml, .sexp), with an
optional .gz.  The file is written while the game is enumerated, so memory
stays small, and the script needs nothing but the standard library (it does
not import gtsearch).

    python scripts/gen_tictactoe.py tictactoe.json.gz
    python scripts/gen_tictactoe.py --check                 # self-test only
    python scripts/gen_tictactoe.py --check tictactoe.sexp  # write, then check

``--check`` recounts the game with a separate, tiny minimax over bitboards
(no code shared with the writer), compares it with the writer's own counts and
with the known numbers, and, for JSON output, reads the written file back.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import sys
from collections.abc import Iterator
from typing import IO

NODES = 549_946
LEAVES = 255_168
VALUE = 0

TITLE = "Tic-tac-toe: the complete game tree"
DESCRIPTION = (
    "Every game of tic-tac-toe from the empty board, X (MAX) first; +1 X wins, "
    "-1 O wins, 0 full board without a winner; children in square order 1..9 "
    "(row-major), nodes named by the squares played. 549,946 nodes, 255,168 "
    "leaves, value 0. Written by scripts/gen_tictactoe.py."
)

# The eight lines, and for each square the lines through it (squares 0..8 here).
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = tuple(tuple(line for line in LINES if sq in line) for sq in range(9))

Event = tuple[str, str] | tuple[str, str, int] | tuple[str]


def events() -> Iterator[Event]:
    """The tree in preorder: ("open", name), ("leaf", name, value), ("close",)."""
    board = [0] * 9  # 0 empty, 1 X, -1 O
    moves: list[str] = []

    def node(player: int) -> Iterator[Event]:
        for sq in range(9):
            if board[sq]:
                continue
            board[sq] = player
            moves.append(str(sq + 1))
            name = "".join(moves)
            if any(board[a] == board[b] == board[c] == player for a, b, c in LINES_THROUGH[sq]):
                yield ("leaf", name, player)
            elif len(moves) == 9:
                yield ("leaf", name, 0)
            else:
                yield ("open", name)
                yield from node(-player)
                yield ("close",)
            moves.pop()
            board[sq] = 0

    yield ("open", "start")
    yield from node(1)
    yield ("close",)


class Stats:
    """What the writer saw: nodes, leaves, and the minimax value it backed up."""

    def __init__(self) -> None:
        self.nodes = 0
        self.leaves = 0
        self.value: int | None = None


def _walk(stats: Stats) -> Iterator[tuple[Event, int]]:
    """events() with their depth, counting nodes and backing up minimax values."""
    stack: list[list[int]] = []  # per open node: the values of its children so far
    depth = 0
    for ev in events():
        kind = ev[0]
        if kind == "open":
            stats.nodes += 1
            yield ev, depth
            stack.append([])
            depth += 1
        elif kind == "leaf":
            stats.nodes += 1
            stats.leaves += 1
            stack[-1].append(ev[2])  # type: ignore[misc]
            yield ev, depth
        else:
            depth -= 1
            values = stack.pop()
            v = max(values) if depth % 2 == 0 else min(values)
            if stack:
                stack[-1].append(v)
            else:
                stats.value = v
            yield ev, depth


def write_json(out: IO[str], stats: Stats) -> None:
    head = {"title": TITLE, "description": DESCRIPTION, "root": "max", "expect": VALUE}
    out.write("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()))
    out.write(',\n"tree":')
    first = True  # no comma before the first child of a node
    for ev, depth in _walk(stats):
        kind = ev[0]
        if kind == "close":
            out.write("]}")
            first = False
            continue
        if not first:
            out.write(",")
        out.write("\n" + " " * depth)
        if kind == "open":
            out.write(f'{{"name": "{ev[1]}", "children": [')
            first = True
        else:
            out.write(f'{{"name": "{ev[1]}", "value": {ev[2]}}}')  # type: ignore[misc]
            first = False
    out.write("\n}\n")


def write_yaml(out: IO[str], stats: Stats) -> None:
    out.write("# " + TITLE + ", written by scripts/gen_tictactoe.py\n")
    out.write(f"title: {json.dumps(TITLE)}\ndescription: {json.dumps(DESCRIPTION)}\n")
    out.write(f"root: max\nexpect: {VALUE}\ntree:\n")
    for ev, depth in _walk(stats):
        kind = ev[0]
        if kind == "close":
            continue
        # The root is the mapping under "tree:"; each child is a "- " item of "children:".
        if depth == 0:
            out.write(f"  name: '{ev[1]}'\n  children:\n")
            continue
        pad = "  " * depth
        out.write(f"{pad}- name: '{ev[1]}'\n")
        if kind == "open":
            out.write(f"{pad}  children:\n")
        else:
            out.write(f"{pad}  value: {ev[2]}\n")  # type: ignore[misc]


def write_sexp(out: IO[str], stats: Stats) -> None:
    out.write("; " + TITLE + ", written by scripts/gen_tictactoe.py\n")
    out.write(f"(tree :title {json.dumps(TITLE)}\n      :description {json.dumps(DESCRIPTION)}\n")
    out.write(f"      :root max :expect {VALUE}")
    for ev, depth in _walk(stats):
        kind = ev[0]
        if kind == "close":
            out.write(")")
        elif kind == "open":
            out.write(f'\n{" " * (depth + 1)}("{ev[1]}"')
        else:
            out.write(f'\n{" " * (depth + 1)}("{ev[1]}" . {ev[2]})')  # type: ignore[misc]
    out.write(")\n")


WRITERS = {"json": write_json, "yaml": write_yaml, "sexp": write_sexp}
EXTENSIONS = {
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sexp": "sexp",
    ".lisp": "sexp",
    ".scm": "sexp",
    ".sx": "sexp",
}


def format_of(path: str) -> str:
    """The format named by the file's extension (a trailing .gz aside)."""
    name = path[:-3] if path.endswith(".gz") else path
    for ext, fmt in EXTENSIONS.items():
        if name.endswith(ext):
            return fmt
    raise ValueError(f"{path}: cannot tell the format from the extension; use --format")


def write(path: str, fmt: str | None = None) -> Stats:
    """Write the tree to ``path`` ("-": standard output); return the writer's counts."""
    fmt = fmt or format_of(path)
    stats = Stats()
    if path == "-":
        WRITERS[fmt](sys.stdout, stats)
        sys.stdout.flush()
        return stats
    with contextlib.ExitStack() as stack:
        raw: IO[bytes] = stack.enter_context(open(path, "wb"))
        if path.endswith(".gz"):
            # mtime=0 and no file name in the header: the same tree gives the same bytes.
            raw = stack.enter_context(gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0))
        out = stack.enter_context(io.TextIOWrapper(raw, encoding="utf-8", newline="\n"))
        WRITERS[fmt](out, stats)
    return stats


# -- the independent check -----------------------------------------------------

WIN_MASKS = tuple(sum(1 << s for s in line) for line in LINES)


def count_game() -> tuple[int, int, int]:
    """(nodes, leaves, value) of the game, by a tiny minimax over bitboards."""
    nodes = leaves = 0

    def search(mine: int, theirs: int, sign: int) -> int:
        # mine: the squares of the player to move; returns the value for X.
        nonlocal nodes, leaves
        best = None
        for sq in range(9):
            bit = 1 << sq
            if (mine | theirs) & bit:
                continue
            nodes += 1
            now = mine | bit
            if any(now & m == m for m in WIN_MASKS):
                leaves += 1
                v = sign
            elif now | theirs == 0x1FF:
                leaves += 1
                v = 0
            else:
                v = search(theirs, now, -sign)
            if best is None or v * sign > best * sign:
                best = v
        assert best is not None
        return best

    value = search(0, 0, 1)
    return nodes + 1, leaves, value


def check_json(path: str) -> tuple[int, int, int]:
    """Read a written JSON file back: (nodes, leaves, value), checking names and order."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["expect"] == VALUE and doc["root"] == "max", "bad wrapper"
    names: set[str] = set()
    counts = [0, 0]

    def minimax(node: dict, is_max: bool, played: str) -> int:
        counts[0] += 1
        name = node["name"]
        assert name not in names, f"duplicate name {name!r}"
        names.add(name)
        if "children" not in node:
            counts[1] += 1
            return int(node["value"])
        squares = [int(c["name"][-1]) for c in node["children"]]
        assert squares == sorted(squares), f"children of {name!r} out of order"
        assert all(
            c["name"] == played + str(s) for c, s in zip(node["children"], squares, strict=True)
        )
        values = [minimax(c, not is_max, c["name"]) for c in node["children"]]
        return max(values) if is_max else min(values)

    value = minimax(doc["tree"], True, "")
    return counts[0], counts[1], value


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: python scripts/gen_tictactoe.py tictactoe.json.gz",
    )
    p.add_argument(
        "output", nargs="?", help="file to write (.json/.yaml/.sexp, optional .gz; - for stdout)"
    )
    p.add_argument(
        "--format", choices=sorted(WRITERS), help="output format (default: from the extension)"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="verify the counts with an independent minimax (and read JSON output back)",
    )
    args = p.parse_args(argv)
    if not args.output and not args.check:
        p.error("give an output file, or --check")

    if args.output and not args.format:
        try:
            args.format = "json" if args.output == "-" else format_of(args.output)
        except ValueError as e:
            p.error(str(e))

    written = None
    if args.output:
        try:
            written = write(args.output, args.format)
        except BrokenPipeError:  # `... - | head`: the reader has seen enough
            sys.stderr.close()
            return 0
        if args.output != "-":
            print(
                f"{args.output}: {written.nodes:,} nodes, {written.leaves:,} leaves, "
                f"value {written.value}",
                file=sys.stderr,
            )
    if not args.check:
        return 0

    expected = (NODES, LEAVES, VALUE)
    results = {"independent minimax": count_game()}
    if written is not None:
        results["writer"] = (written.nodes, written.leaves, written.value)  # type: ignore[assignment]
        if args.output != "-" and args.format == "json":
            results["JSON read back"] = check_json(args.output)
    ok = True
    for what, got in results.items():
        good = got == expected
        ok &= good
        print(
            f"{what}: {got[0]:,} nodes, {got[1]:,} leaves, value {got[2]}"
            f" {'ok' if good else f'MISMATCH, expected {expected}'}",
            file=sys.stderr,
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
