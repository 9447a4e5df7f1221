"""Gambit's .efg: the reader's mapping (docs/formats.md, "Gambit .efg files"), the writer, round trips.

The tests against Gambit itself (pygambit, the extra ``gambit``) are in
tests/test_gambit.py; these need nothing but gtsearch.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gtsearch import search
from gtsearch.cli import cli
from gtsearch.errors import TreeFormatError
from gtsearch.formats import dump_tree, efg, efg_reader, load_tree, loads_tree, sniff_format
from gtsearch.tree import Meta, Tree

from .strategies import minimax, named_trees

ROOT = Path(__file__).resolve().parent.parent
HEADER = 'EFG 2 R "t" { "Player 1" "Player 2" }\n""\n\n'


def read(body: str, header: str = HEADER) -> Tree:
    return loads_tree(header + body, "efg", "g.efg")


def value(tree: Tree) -> Any:
    return search(tree, "minimax").value


# -- the mapping --------------------------------------------------------------------------------
def test_a_game_as_a_tree() -> None:
    t = read(
        'p "root" 1 1 "" { "L" "R" } 0\n'
        'p "" 2 1 "" { "a" "b" } 0\n'
        't "" 1 "win" { 3, -3 }\n'
        't "" 2 "lose" { -2, 2 }\n'
        't "" 1\n'
    )
    assert t.to_nested() == [[3, -2], 3]
    assert t.root_max
    assert [t.names.get(n) for n in range(len(t))] == ["root", "L", "a", "b", "R"]
    assert t.meta == Meta(title="t")
    assert value(t) == 3


def test_player_2_at_the_root_is_min() -> None:
    t = read('p "" 2 1 "" { "a" "b" } 0\nt "" 1 "x" { 3, -3 }\nt "" 2 "y" { 5, -5 }\n')
    assert not t.root_max and value(t) == 3


def test_payoffs_on_decision_nodes_add_to_every_terminal_below() -> None:
    t = read(
        'p "" 1 1 "" { "L" "R" } 1 "entry" { 10, -10 }\n'
        'p "" 2 1 "" { "a" "b" } 2 "toll" { -1, 1 }\n'
        't "" 3 "x" { 3, -3 }\n'
        't "" 0\n'  # no outcome: worth the sums above it
        't "" 3\n'
    )
    assert t.to_nested() == [[12, 9], 13]


def test_numbers_are_exact_until_the_terminal() -> None:
    t = read(
        'p "" 1 1 "" { "a" "b" "c" "d" "e" } 1 "third" { 1/3, -1/3 }\n'
        't "" 2 "two thirds" { 2/3, -2/3 }\n'  # 1/3 + 2/3 = 1, written with fractions: a float
        't "" 3 "six halves" { 6/2, -6/2 }\n'  # a whole ratio is an integer ...
        't "" 4 "decimal" { 0.5, -.5 }\n'
        't "" 5 "sci" { 1e2, -1E2 }\n'
        't "" 6 "plus" { +4, -4 }\n'
    )
    values = [t.number(n) for n in range(1, 6)]
    third = Fraction(1, 3)
    exact = [1, 3 + third, third + Fraction(1, 2), 100 + third, 4 + third]
    assert values == [float(v) for v in exact]  # the exact sum, rounded once
    assert values[2] != 1 / 3 + 0.5  # which float arithmetic would not give
    assert [type(v) for v in values] == [float] * 5
    whole = read('p "" 1 1 "" { "a" } 0\nt "" 1 "x" { 6/2, -3 }\n')
    assert whole.number(1) == 3 and type(whole.number(1)) is int


def test_the_same_player_twice_gets_a_forced_move_between() -> None:
    t = read(
        'p "" 1 1 "" { "L" "R" } 0\n'
        'p "" 1 2 "" { "a" "b" } 0\n'  # player 1 again, below player 1
        't "" 1 "x" { 3, -3 }\n'
        't "" 2 "y" { 5, -5 }\n'
        't "" 3 "z" { 4, -4 }\n'
    )
    assert t.to_nested() == [[[3, 5]], 4]  # L is a MIN node with one child
    # the forced move is named: by the node's own label, else "pass" (the other player passes)
    assert [t.names.get(n) for n in range(len(t))] == [None, "L", "pass", "a", "b", "R"]
    assert value(t) == 5
    assert search(t, "alphabeta").pv_labels == ("L", "pass", "b")
    labelled = read('p "" 1 1 "" { "L" } 0\np "again" 1 2 "" { "a" } 0\nt "" 1 "x" { 3, -3 }\n')
    assert search(labelled, "alphabeta").pv_labels == ("L", "again", "a")


def test_the_forced_move_is_named_in_every_output(tmp_path: Path) -> None:
    """The PV through an inserted forced move: "pass" in the table, the CSV and the JSON."""
    path = tmp_path / "twice.efg"
    path.write_text(
        HEADER + 'p "" 1 1 "" { "L" "R" } 0\np "" 1 2 "" { "a" "b" } 0\n'
        't "" 1 "x" { 3, -3 }\nt "" 2 "y" { 5, -5 }\nt "" 3 "z" { 4, -4 }\n',
        encoding="utf-8",
    )
    runner = CliRunner()

    def out(fmt: str) -> str:
        result = runner.invoke(cli, ["eval", str(path), "-a", "alphabeta", "--format", fmt])
        assert result.exit_code == 0, result.stderr
        return result.stdout

    assert "L → pass → b" in out("table")
    assert ",0.0.1,L pass b," in out("csv")
    assert '"pv": [0, 0, 1], "pv_labels": ["L", "pass", "b"]' in out("json")


def test_labels_are_kept_as_written_and_differ_among_siblings_only() -> None:
    # Gambit's labels repeat from node to node (L, R / l, r, every node of Nim's take 1, take 2):
    # names differ among siblings only, so they are kept as written
    t = read(
        'p "" 1 1 "" { "L" "R" } 0\n'
        'p "" 2 1 "" { "l" "r" } 0\nt "" 1 "a" { 3, -3 }\nt "" 2 "b" { 5, -5 }\n'
        'p "" 2 2 "" { "l" "r" } 0\nt "" 3 "c" { 1, -1 }\nt "" 4 "d" { 7, -7 }\n'
    )
    assert [t.names.get(n) for n in range(len(t))] == [None, "L", "l", "r", "R", "l", "r"]
    assert search(t, "alphabeta").pv_labels == ("L", "l")


def test_labels_repeated_among_siblings_are_made_unique_as_gambit_does() -> None:
    names = efg_reader.sibling_names
    assert names(["x", "x", "x_1", "", "y"]) == ["x_2", "x_3", "x_1", None, "y"]
    assert names(["a", "a", "b"]) == ["a_1", "a_2", "b"]
    assert names(["\t", "x" * 1001, "x" * 999, "x" * 999]) == [None] * 4
    assert names(["take 1", "take 2"]) == ["take 1", "take 2"]
    t = read('p "start" 1 1 "" { "take 1" "take 1" } 0\nt "" 1 "x" { 1, -1 }\nt "" 1\n')
    assert list(t.names.values()) == ["start", "take 1_1", "take 1_2"]


def test_node_labels_name_nodes_whose_action_has_no_label() -> None:
    t = read('p "top" 1 1 "" { "" "R" } 0\nt "left leaf" 1 "x" { 1, -1 }\nt "" 1\n')
    assert list(t.names.values()) == ["top", "left leaf", "R"]
    # unless a sibling has that name: then the node has none
    t = read('p "" 1 1 "" { "" "R" "" } 0\nt "R" 1 "x" { 1, -1 }\nt "" 1\nt "z" 1\n')
    assert [t.names.get(n) for n in range(len(t))] == [None, None, "R", "z"]


def test_strings_escapes_commas_and_layout() -> None:
    text = (
        'EFG 2 D "say \\"hi\\"" { "A" "B" } "a comment\nover two lines"\n'
        'p "" 1 1 "" { "back\\\\slash" "q\\"uote" } 0 t "" 1 "x" { 1 -1 } t "" 2 "y" {2,-2}'
    )
    t = loads_tree(text, "efg")
    assert t.meta.title == 'say "hi"' and t.meta.description == "a comment\nover two lines"
    assert list(t.names.values()) == ["back\\slash", 'q"uote']
    assert t.to_nested() == [1, 2]


def test_a_terminal_alone() -> None:
    assert read('t "end" 1 "x" { 7, -7 }\n').to_nested() == 7


def test_sniffed_and_named_by_extension(tmp_path: Path) -> None:
    text = HEADER + 'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { 1, -1 }\nt "" 2 "y" { 2, -2 }\n'
    assert sniff_format(text).name == "efg"
    assert sniff_format("  \n" + text).name == "efg"
    path = tmp_path / "game.efg"
    path.write_text(text, encoding="utf-8")
    assert load_tree(str(path)).to_nested() == [1, 2]
    result = CliRunner().invoke(cli, ["eval", "-", "--format", "csv"], input=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].split(",")[1:3] == ["alphabeta", "2"]


def test_chance_nodes_become_chance_nodes() -> None:
    """Probabilities become weights of the same proportions (rationals scaled to integers);
    a player who moves again after a chance node gets a forced move of the other in between."""
    body = (
        'p "" 1 1 "" { "safe" "risky" } 0\n'
        'c "roll" 1 "" { "low" 1/4 "high" 3/4 } 0\n'
        't "" 1 "1" { 1, -1 }\n'
        't "" 2 "6" { 6, -6 }\n'
        'c "" 2 "" { "a" 0.5 "b" 0.5 } 0\n'
        'p "" 1 2 "" { "u" "v" } 0\n'
        't "" 3 "8" { 8, -8 }\n'
        't "" 4 "0" { 0, 0 }\n'
        't "" 5 "-3" { -3, 3 }\n'
    )
    t = read(body)
    assert t.has_chance and [n for n in range(len(t)) if t.is_chance(n)] == [1, 4]
    assert t.weights == {1: (1, 3), 4: (1, 1)}
    a = t.node_at([1, 0])  # under "a": MIN's forced move, then player 1 (MAX) again
    assert len(list(t.children(a))) == 1 and not t.is_max(a) and t.is_max(a + 1)
    assert t.to_nested() == [{"chance": [1, 6], "weights": [1, 3]},
                             {"chance": [[[8, 0]], -3], "weights": [1, 1]}]  # fmt: skip
    r = search(t, "expectiminimax")
    # safe: 1/4 * 1 + 3/4 * 6 = 19/4; risky: 1/2 * max(8, 0) + 1/2 * -3 = 5/2
    assert (r.value, r.pv_labels) == (4.75, ("safe", "high"))  # weights 1, 3: "high"
    assert search(t, "star2").exact_value() == Fraction(19, 4)
    # a chance root: the player of the first decision node below it is the root player
    under = read('c "" 1 "" { "x" 1/3 "y" 2/3 } 0\np "" 2 1 "" { "m" "n" } 0\n'
                 't "" 1 "1" { 1, -1 }\nt "" 2 "2" { 2, -2 }\nt "" 3 "5" { 5, -5 }\n')  # fmt: skip
    assert not under.root_max and not under.is_max(1)
    assert search(under, "expectiminimax").exact_value() == Fraction(1, 3) + Fraction(2, 3) * 5
    # a broken chance node says what is broken
    with pytest.raises(TreeFormatError, match="expected a number, got 'x'"):
        read('c "" 1 "" { "hi" x "lo" 2/3 } 0\n')
    with pytest.raises(TreeFormatError, match="probability '-1/3' is negative"):
        read('c "" 1 "" { "hi" -1/3 "lo" 2/3 } 0\n')


@pytest.mark.parametrize(
    "probabilities, said",
    [
        ('"h" 1/2 "l" 1/3', "add up to 5/6, not 1: 1/2, 1/3"),
        ('"x" 1 "y" 2', "add up to 3, not 1: 1, 2"),  # weights are not probabilities
        ('"a" 0.3333333333333333 "b" 0.6666666666666666',
         "add up to 9999999999999999/10000000000000000, not 1"),
        ('"a" 0 "b" 0/3', "add up to 0, not 1: 0, 0/3"),
        ('"a" 1/2 "b" 1/2 "c" 1e-30', "add up to 1000000000000000000000000000001/10000..., not 1"),
        (" ".join(f'"a{i}" 1/20' for i in range(12)), "add up to 3/5, not 1: 1/20, 1/20, 1/20, 1/20, "
         "1/20, 1/20, 1/20, 1/20, 1/20, 1/20, ... (12 in all)"),
    ],
)  # fmt: skip
def test_chance_probabilities_must_add_up_to_one(probabilities: str, said: str) -> None:
    """5/6 is not read as 3:2: a chance node's probabilities add up to 1 exactly, as a game's
    outcomes must; the place is the brace of the probabilities."""
    body = f'c "roll" 1 "" {{ {probabilities} }} 0\n' + "".join(
        f't "" {i + 1} "{i}" {{ {i}, -{i} }}\n' for i in range(12)
    )
    with pytest.raises(TreeFormatError) as e:
        read(body)
    assert str(e.value).startswith(f"g.efg:4:15: the probabilities {said}")
    assert str(e.value).endswith("; a chance node's probabilities must add up to 1 exactly")
    assert len(str(e.value)) < 400


@pytest.mark.parametrize(
    "probabilities",
    [
        '"a" 1/3 "b" 1/3 "c" 1/3',
        '"a" 0.1 "b" 0.2 "c" 0.7',
        '"a" 1 "b" 0 "c" 0',
        '"a" .25 "b" 3/4 "c" 0e5',
    ],
)
def test_probabilities_that_add_up_to_one_exactly_are_read(probabilities: str) -> None:
    body = f'c "roll" 1 "" {{ {probabilities} }} 0\n' + "".join(
        f't "" {i + 1} "{i}" {{ {i}, -{i} }}\n' for i in range(3)
    )
    t = read(body)
    assert sum(t.probabilities(0)) == 1 and len(t.probabilities(0)) == 3


def test_gtsearch_writes_chance_nodes_with_exact_probabilities() -> None:
    t = Tree.from_nested([{"chance": [1, [2, 3]], "weights": [0.1, 0.3]}, 4])
    text = dump_tree(t, "efg")
    assert 'c "" 1 "" { "" 1/4 "" 3/4 } 0' in text
    again = loads_tree(text, "efg")
    assert again.to_nested() == [{"chance": [1, [2, 3]], "weights": [1, 3]}, 4]
    # the chance node: 1/4 * 1 + 3/4 * min(2, 3) (MIN moves below it) = 7/4, less than 4
    assert search(again, "expectiminimax").exact_value() == 4
    # MIN at the root: MAX moves below the chance node, 1/4 * 1 + 3/4 * 3 = 5/2, less than 4
    assert search(again.with_root(False), "expectiminimax").exact_value() == Fraction(5, 2)


def test_huge_exponents_are_read_at_once() -> None:
    """Found by libFuzzer: the exact value of 0e500000000 or 1e-500000000 was 10 ** 500000000
    away (minutes, under either core, since the C reader leaves the second to this one): a
    zero with any exponent is 0, a nonzero decimal below 10 ** -10,000 one line."""
    body = 'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { 2, -2 }\nt "" 2 "y" { %s, 0 }\n'
    assert read(body % "0e500000000000000000000000000").to_nested() == [2, 0.0]
    assert read(body % "-0.0E-5000000000").to_nested() == [2, 0.0]
    with pytest.raises(TreeFormatError) as e:
        read(body % "1e-5000000000")
    assert str(e.value) == (
        "g.efg:6:14: number '1e-5000000000' is too small: its exponent is below -10,000"
    )
    small = body.replace(", 0 }", ", -1e-400 }") % "1e-400"  # read exactly, rounded at the end
    assert read(small).to_nested() == [2, 0.0]


def test_the_node_limit_points_at_the_node() -> None:
    body = 'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { 1, -1 }\nt "" 2 "y" { 2, -2 }\n'
    with pytest.raises(TreeFormatError) as e:
        loads_tree(HEADER + body, "efg", "g.efg", max_nodes=2)
    assert str(e.value) == "g.efg:6:1: the tree has more than 2 nodes; raise --max-nodes to load it"


# -- random games, read against their own backward induction ------------------------------------
@st.composite
def games(draw: st.DrawFn) -> tuple[str, Fraction, int]:
    """A random game as .efg text: any player at any node (twice in a row too), payoffs on
    decision nodes and terminals, shared outcomes, no outcome; with its value and terminal count.
    """
    payoff = st.sampled_from(["3", "-2", "0", "1/4", "-5/2", "0.5", "1.25e1", "+7"])
    outcomes: dict[str, int] = {}
    lines: list[str] = []
    infosets = [0, 0]
    terminals = 0

    def outcome() -> tuple[str, Fraction]:
        if draw(st.booleans()):
            return "0", Fraction(0)
        p = draw(payoff)
        number = outcomes.setdefault(p, len(outcomes) + 1)
        minus = p[1:] if p[0] == "-" else "-" + p.lstrip("+")
        return f'{number} "o{number}" {{ {p}, {minus} }}', Fraction(p.lstrip("+"))

    # explicit stack: (depth, done?) -> children values; recursion on a small tree is fine here
    def node(depth: int) -> Fraction:
        nonlocal terminals
        if depth >= 4 or draw(st.integers(0, 2)) == 0:
            text, v = outcome()
            lines.append(f't "" {text}')
            terminals += 1
            return v
        player = draw(st.sampled_from([1, 2]))
        infosets[player - 1] += 1
        k = draw(st.integers(1, 3))
        actions = " ".join(f'"m{i}"' for i in range(k))
        text, v = outcome()
        lines.append(f'p "" {player} {infosets[player - 1]} "" {{ {actions} }} {text}')
        values = [node(depth + 1) for _ in range(k)]
        return v + (max(values) if player == 1 else min(values))

    v = node(0)
    return HEADER + "\n".join(lines) + "\n", v, terminals


@settings(max_examples=150, deadline=None)
@given(games())
def test_random_games_keep_their_value(game: tuple[str, Fraction, int]) -> None:
    text, expected, terminals = game
    t = loads_tree(text, "efg")
    assert t.n_leaves == terminals
    for algo in ("minimax", "alphabeta", "sss", "mtdf"):
        got = search(t, algo).value
        assert got == float(expected) or got == expected, (algo, got, expected, text)


MUTATIONS = 'ptc"{},0123456789-+./eE \n\\'


@settings(max_examples=200, deadline=None)
@given(games(), st.data())
def test_broken_files_give_a_tree_or_one_clean_line(
    game: tuple[str, Fraction, int], data: st.DataObject
) -> None:
    text = game[0]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 6)))
        piece = data.draw(st.text(MUTATIONS, max_size=3))
        text = text[:i] + piece + text[j:]
    try:
        t = loads_tree(text, "efg", "f.efg", max_nodes=10_000)
    except TreeFormatError as e:
        assert re.match(r"f\.efg:\d+:\d+: ['a-z]", str(e)) and "\n" not in str(e), str(e)
    else:
        assert t.n_leaves >= 1


# -- the writer ----------------------------------------------------------------------------------
def _game_lines(text: str) -> list[str]:
    return text.split("\n\n", 1)[1].splitlines()


def test_written_files_are_what_gambit_16_7_accepts() -> None:
    t = load_tree(str(ROOT / "sample_trees" / "hand-c-min-root.sexp"))
    text = dump_tree(t, "efg")
    lines = _game_lines(text)
    assert text.startswith('EFG 2 R "Hand-made MIN-root tree with static values (s-expression)"')
    assert lines[0] == 'p "S" 2 1 "" { "L" "M" "R" } 0'
    infosets = [tuple(line.split()[2:4]) for line in lines if line.startswith("p")]
    assert len(infosets) == len(set(infosets))  # one information set per decision node
    outcomes = {m.group(1): m.group(2) for m in re.finditer(r'^t "" (\d+) "([^"]*)"', text, re.M)}
    assert len(set(outcomes.values())) == len(outcomes) == 10  # one outcome per value
    assert all(outcomes.values())  # non-empty labels
    leaves = [t.number(n) for n in range(len(t)) if t.is_leaf(n)]
    assert len(outcomes) == len(set(map(repr, leaves)))


def test_one_outcome_per_value_keeps_gambit_linear() -> None:
    t = Tree.from_nested([[1, 2, 1], [2, 2.0, 1], [3, 1, 2]])
    lines = [line for line in _game_lines(dump_tree(t, "efg")) if line.startswith("t")]
    assert lines == [
        't "" 1 "1" { 1, -1 }',
        't "" 2 "2" { 2, -2 }',
        't "" 1 "1" { 1, -1 }',
        't "" 2 "2" { 2, -2 }',
        't "" 3 "2.0" { 2.0, -2.0 }',
        't "" 1 "1" { 1, -1 }',
        't "" 4 "3" { 3, -3 }',
        't "" 1 "1" { 1, -1 }',
        't "" 2 "2" { 2, -2 }',
    ]


def test_labels_are_gambit_labels_or_empty() -> None:
    good = ["a", "take 1", 'say "x"', "x!~"]
    bad = ["é", " a", "a ", "a  b", "a\\b", "tab\there", "line\nbreak"]
    assert [efg.gambit_label(n) for n in good] == good
    assert [efg.gambit_label(n) for n in bad] == [""] * len(bad)
    assert efg.gambit_label(None) == ""


def _without_what_efg_cannot_hold(t: Tree) -> Tree:
    """The tree as .efg keeps it: no static values, no expect, names that are Gambit labels."""
    names = {n: name for n, name in t.names.items() if efg.gambit_label(name)}
    if 0 in t.names and efg.gambit_label(t.names[0]):
        names[0] = t.names[0]
    values = [v if t.is_leaf(n) else float("nan") for n, v in enumerate(t.values)]
    meta = Meta(title=t.meta.title or None, description=t.meta.description or None)
    root_max = t.root_max or len(t) == 1
    return Tree(t.end, values, names=names, floats=t.floats, root_max=root_max, meta=meta)


names_st = st.sampled_from(["a", "b", "take 1", "é", "x y", "  ", 'q"', "back\\", None, None])


#: metadata that .efg keeps: a title (quoted, escaped) and a description over two lines
efg_meta = st.builds(
    Meta,
    title=st.sampled_from([None, "a game", 'a "quoted" \\ title']),
    description=st.sampled_from([None, "two\nlines"]),
)


@settings(max_examples=120, deadline=None)
@given(named_trees(names_st, efg_meta))
def test_round_trip(t: Tree) -> None:
    text = dump_tree(t, "efg")
    back = loads_tree(text, "efg")
    assert back == _without_what_efg_cannot_hold(t), text
    assert value(back) == minimax(t.to_nested(), t.root_max)


def test_static_values_and_expect_are_left_out() -> None:
    t = load_tree(str(ROOT / "sample_trees" / "hand-a-min-root.yaml"))
    back = loads_tree(dump_tree(t, "efg"), "efg")
    assert back.to_nested() == t.to_nested() and back.names == t.names
    inner = [n for n in range(len(t)) if not t.is_leaf(n)]
    assert any(t.static(n) is not None for n in inner)
    assert all(back.static(n) is None for n in inner)
    assert back.meta.expect is None and t.meta.expect == 2.25


def test_deep_chains_both_ways() -> None:
    depth = 30_000  # thirty times Python's recursion limit
    t = Tree([depth] * depth, [0.0] * depth)  # a chain: every node's subtree ends at the last
    text = dump_tree(t, "efg")
    assert text.count("\np ") == depth - 1
    assert loads_tree(text, "efg").max_depth() == depth - 1


# -- the command line -----------------------------------------------------------------------------
def test_convert_to_efg_and_back(tmp_path: Path) -> None:
    runner = CliRunner()
    aima = str(ROOT / "sample_trees" / "aima-fig5-2.yaml")
    out = tmp_path / "aima.efg"
    result = runner.invoke(cli, ["convert", aima, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    result = runner.invoke(cli, ["convert", aima, "--to", "efg"])
    assert result.stdout == out.read_text(encoding="utf-8")
    result = runner.invoke(cli, ["eval", str(out), "-a", "sss", "--format", "json"])
    assert result.exit_code == 0
    assert '"value": 3' in result.stdout and '"pv_labels": ["B", "b1"]' in result.stdout
    result = runner.invoke(cli, ["convert", str(out), "--to", "yaml"])
    assert result.stdout.startswith('title: "AIMA Figure 5.2, a two-ply game tree"')
