"""Gambit .efg files: two-player zero-sum games of perfect information, read and written.

The extensive-form format of Gambit (``EFG 2 R "title" { "Player 1" "Player 2" }``,
then the nodes in preorder: ``p`` decision nodes, ``c`` chance nodes, ``t``
terminal nodes; the format is described in Gambit's documentation, "The
extensive game (.efg) file format").  What maps to what is in docs/formats.md
("Gambit .efg files"):

* player 1 is MAX and player 2 MIN; a terminal's value is player 1's payoff,
  and the payoffs of outcomes on decision nodes add to every terminal below
  them, as in Gambit; a terminal without an outcome (outcome 0) is worth those
  sums, 0 if there are none.  Sums are exact (integers, fractions) and rounded
  to a float once, at the terminal;
* when the same player moves twice in a row, a node with one child (a forced
  move of the other player) is put between the two, which keeps the value; the
  forced move is named by the label of the node it leads to, else ``pass``;
* the label of the action leading to a node becomes its name, as written (names
  differ among siblings only; the root takes its node label); the actions of one
  node with the same label are told apart as Gambit makes the labels of one
  scope unique: every use of a repeated label gets ``_1``, ``_2``, ... in order;
* a chance node (``c``) becomes a chance node whose weights are its
  probabilities, scaled to the smallest integers of the same proportions
  where they are rationals or decimals (1/3 and 2/3 become 1 and 2); the
  players alternate over decision nodes only, as in every gtsearch tree, so
  a player who moves again after a chance node gets a forced move of the
  other player in between too;
* refused, with one line: more or fewer than two players, an information set
  holding several nodes, and outcomes that are not zero-sum.

The reader (:mod:`gtsearch.formats.efg_reader`) never recurses (tokens from
regular expressions, an explicit stack).  The writer gives every decision
node its own information set and shares one outcome among all terminals of
one value (labelled with the value), which keeps Gambit's reader linear:
Gambit 16.7 checks each new outcome's label against every outcome before it.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..numbers import format_stored
from ..tree import DEFAULT_MAX_NODES, Tree
from .efg_reader import Reader
from .tokens import Locator, document_text, placed_errors

NAME = "efg"
EXTENSIONS = (".efg",)

#: characters Gambit 16.7 allows in a label (printable ASCII); the writer also avoids '\'
_LABEL = re.compile(r"[!-\[\]-~](?:[!-\[\]-~]| (?! ))*(?<! )\Z")


def parse(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read a Gambit .efg file of a two-player zero-sum game of perfect information.

    ::

        EFG 2 R "AIMA Figure 5.2" { "MAX" "MIN" }
        ""

        p "A" 1 1 "" { "B" "C" } 0
        p "" 2 1 "" { "b1" "b2" } 0
        t "" 1 "3" { 3, -3 }
        t "" 2 "12" { 12, -12 }
        p "" 2 2 "" { "c1" "c2" } 0
        t "" 3 "2" { 2, -2 }
        t "" 4 "4" { 4, -4 }

    Player 1 is MAX; a terminal is worth player 1's payoff (with the payoffs
    of the outcomes above it added); the action labels name the nodes.
    """
    text = document_text(text, source)
    reader = Reader(text, source, max_nodes)
    with placed_errors(Locator(text), source, lambda: reader.at):
        return reader.read()


# -- writer ---------------------------------------------------------------------------------------
def _quote(text: str) -> str:
    """A string as Gambit writes one (C++'s std::quoted: \\" and \\\\ escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gambit_label(name: str | None) -> str:
    """A name as a Gambit 16.7 label, or "" when it cannot be one.

    Gambit 16.7 allows printable ASCII and single spaces inside; a backslash
    is left out too, since Gambit's reader doubles it.
    """
    if name is None or _LABEL.match(name) is None:
        return ""
    return name


def _probability(p: Fraction) -> str:
    """A probability as Gambit writes one: ``1``, ``0`` or a rational ``1/4``."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def dump(tree: Tree) -> str:
    """The tree as a Gambit .efg file (static values and ``expect`` have no place there).

    Player 1 is MAX, player 2 MIN; every decision node has its own
    information set, and so has every chance node (its probabilities exact, as
    rationals); the action leading to a named node is labelled with its
    name (where that is a Gambit label); all terminals of one value share one
    outcome, labelled with the value, paying ``{ v, -v }``.
    """
    end, values = tree.end, tree.values
    floats = tree.floats or bytes(len(end))
    names = tree.names
    meta = tree.meta
    out = [
        f'EFG 2 R {_quote(meta.title or "")} {{ "MAX" "MIN" }}\n',
        f"{_quote(meta.description or '')}\n\n",
    ]
    infosets = [0, 0]
    chance_sets = 0
    outcomes: dict[str, int] = {}
    append = out.append
    root_label = _quote(gambit_label(names.get(0)))
    for n in range(len(end)):
        node_label = root_label if n == 0 else '""'
        stop = end[n]
        if stop == n + 1:
            value = format_stored(values[n], floats[n])
            number = outcomes.setdefault(value, len(outcomes) + 1)
            minus = format_stored(-values[n], floats[n]) if values[n] else value
            append(f't {node_label} {number} "{value}" {{ {value}, {minus} }}\n')
            continue
        actions = []
        c = n + 1
        while c < stop:
            actions.append(_quote(gambit_label(names.get(c))))
            c = end[c]
        if tree.is_chance(n):
            chance_sets += 1
            pairs = " ".join(
                f"{a} {_probability(p)}"
                for a, p in zip(actions, tree.probabilities(n), strict=True)
            )
            append(f'c {node_label} {chance_sets} "" {{ {pairs} }} 0\n')
            continue
        player = 1 if tree.is_max(n) else 2
        infosets[player - 1] += 1
        append(f'p {node_label} {player} {infosets[player - 1]} "" {{ {" ".join(actions)} }} 0\n')
    return "".join(out)
