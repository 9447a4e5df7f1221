"""Deep, huge and hostile .efg files, under the core the suite runs (so both, in its two runs).

Under the C core gtsearch/_native/load_efg.c reads them (``compiled()`` checks that it took
the file, so the test is of that reader), under ``GTSEARCH_PURE=1`` the Python reader does;
the trees and the one-line errors are the same (the C reader declines what it does not read,
and the Python reader words every error; tests/test_native_efg.py compares the two readers
file for file).
"""

from __future__ import annotations

import re

import pytest

from gtsearch import core, search
from gtsearch.errors import TreeFormatError
from gtsearch.formats import dump_tree, loads_tree
from gtsearch.formats.compiled import parse_compiled
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

HEADER = 'EFG 2 R "t" { "Player 1" "Player 2" }\n""\n\n'
DEPTH = 100_000


def compiled(text: str, max_nodes: int = 10**7) -> bool:
    """Whether the C reader reads ``text`` itself (always False under the pure core)."""
    return parse_compiled(text, "efg", "g.efg", max_nodes) is not None


def taken_by_the_core_in_use(text: str) -> None:
    """Under the C core, the C reader reads the file (nothing is left to the Python reader)."""
    assert compiled(text) == (core.native() is not None)


def error(text: str, **kwargs: int) -> str:
    with pytest.raises(TreeFormatError) as e:
        loads_tree(text, "efg", "g.efg", **kwargs)
    message = str(e.value)
    assert "\n" not in message and re.match(r"g\.efg:\d+:\d+: ", message), message
    return message


def test_a_chain_100k_moves_deep() -> None:
    """Players alternating, one action each: 100,000 decision nodes on one line of play."""
    lines = [f'p "" {1 + i % 2} {i // 2 + 1} "" {{ "m{i}" }} 0' for i in range(DEPTH)]
    text = HEADER + "\n".join(lines) + '\nt "" 1 "end" { 7, -7 }\n'
    taken_by_the_core_in_use(text)
    t = loads_tree(text, "efg", "g.efg")
    assert (len(t), t.max_depth(), t.names[DEPTH]) == (DEPTH + 1, DEPTH, f"m{DEPTH - 1}")
    r = search(t, "alphabeta")
    assert (r.value, r.leaves, len(r.pv)) == (7, 1, DEPTH)


def test_one_player_moving_100k_times_in_a_row() -> None:
    """Player 1 at every node: a forced move of player 2 between each two, 200,000 levels."""
    lines = [f'p "" 1 {i + 1} "" {{ "m{i}" }} 0' for i in range(DEPTH)]
    text = HEADER + "\n".join(lines) + '\nt "" 1 "end" { 3, -3 }\n'
    taken_by_the_core_in_use(text)
    t = loads_tree(text, "efg", "g.efg")
    assert (len(t), t.max_depth()) == (2 * DEPTH, 2 * DEPTH - 1)
    assert [t.names.get(n) for n in range(5)] == [None, "m0", "pass", "m1", "pass"]
    assert search(t, "minimax").value == 3


def test_a_huge_game_and_a_wide_node() -> None:
    """87,381 nodes as gtsearch writes them; one node with 100,000 actions."""
    tree = uniform_tree(4, 8, seed=3)
    text = dump_tree(tree, "efg")
    taken_by_the_core_in_use(text)
    assert loads_tree(text, "efg", "g.efg") == tree
    actions = " ".join(f'"a{i}"' for i in range(DEPTH))
    outcomes = "".join(f't "" {k} "o{k}" {{ {k}, -{k} }}\n' for k in range(1, 6))
    leaves = "".join(f't "" {i % 5 + 1}\n' for i in range(5, DEPTH))  # the outcomes again
    wide = HEADER + f'p "" 2 1 "" {{ {actions} }} 0\n' + outcomes + leaves
    taken_by_the_core_in_use(wide)
    t = loads_tree(wide, "efg", "g.efg")
    assert (len(t), t.n_leaves, t.names[DEPTH]) == (DEPTH + 1, DEPTH, f"a{DEPTH - 1}")
    assert search(t, "minimax").value == 1


def test_long_labels_and_long_blanks() -> None:
    """A label of a million characters names nothing (names are at most 1,000 characters),
    a megabyte of blanks between two tokens is only blanks."""
    long = "x" * 1_000_000
    text = (
        HEADER + f'p "{long}" 1 1 "" {{ "{long}" "b" }} 0\n'
        't "" 1 "o" { 1, -1 }' + " \n\t\r" * 250_000 + 't "" 0\n'
    )
    taken_by_the_core_in_use(text)
    t = loads_tree(text, "efg", "g.efg")
    assert (t.to_nested(), dict(t.names)) == ([1, 0], {2: "b"})


def test_errors_are_one_line_in_either_core() -> None:
    """What the C reader declines the Python reader words: the node limit at the node that
    passes it, a file cut short at its end, a string that never ends, a payoff too large."""
    text = dump_tree(uniform_tree(4, 8, seed=3), "efg")
    lines = text.count("\n")
    assert error(text, max_nodes=1000) == (
        "g.efg:1004:1: the tree has more than 1,000 nodes; raise --max-nodes to load it"
    )
    assert not compiled(text, 1000)
    cut = text[: text.rindex("\nt ")] + "\n"
    end = f"{lines - 1}:{len(cut.splitlines()[-1]) + 1}"  # just after the last line
    assert error(cut) == f"g.efg:{end}: unexpected end of input, expected a node ('p', 'c' or 't')"
    assert not compiled(cut)
    unterminated = cut + 't "never ends'  # the last terminal's label
    assert error(unterminated) == f"g.efg:{lines}:3: unterminated string"
    assert not compiled(unterminated)
    huge = HEADER + 't "" 1 "x" { ' + "9" * 5000 + ", -" + "9" * 5000 + " }\n"
    assert error(huge).startswith("g.efg:4:14: number '999") and "5,000 characters" in error(huge)
    assert not compiled(huge)


def test_the_chain_that_from_nested_builds() -> None:
    """The chain written by the writer and read back: the same tree, under either core."""
    nested: object = 5
    for _ in range(DEPTH):
        nested = [nested]
    chain = Tree.from_nested(nested)
    text = dump_tree(chain, "efg")
    taken_by_the_core_in_use(text)
    assert loads_tree(text, "efg", "g.efg") == chain
