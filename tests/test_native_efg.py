"""The compiled .efg reader (load_efg.c) against gtsearch.formats.efg_reader: the same tree, or None.

The C reader only ever accepts: a file it takes must give the very tree the Python reader
gives (names, values and their kind, forced moves, metadata); anything else, and every
file the Python reader refuses, it declines.  Skipped when the extension is not built and in
the ``GTSEARCH_PURE=1`` run of the suite, as tests/test_native.py is.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gtsearch import core
from gtsearch.errors import TreeFormatError
from gtsearch.formats import dump_tree, efg, loads_tree
from gtsearch.formats.compiled import parse_compiled
from gtsearch.sources.uniform import uniform_tree
from gtsearch.tree import Tree

from .test_formats import full_trees
from .test_native import both, same_tree

if core.pure_asked():
    pytest.skip("GTSEARCH_PURE is set: the pure core is forced", allow_module_level=True)
if core.native() is None:
    pytest.skip("the C core is not built (no C compiler at install time?)", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
HEADER = 'EFG 2 R "t" { "Player 1" "Player 2" }\n""\n\n'


def check(text: str, max_nodes: int = 10**6) -> Tree | None:
    """The compiled reader's tree, checked against the Python reader's (or None: declined)."""
    tree = parse_compiled(text, "efg", "src", max_nodes)
    if tree is not None:
        try:
            reference = efg.parse(text, "src", max_nodes=max_nodes)
        except TreeFormatError as e:
            raise AssertionError(f"the C reader took a file the Python reader refuses: {e}") from e
        assert same_tree(tree, reference), text[:400]
    return tree


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_trees())
def test_what_the_writer_writes_reads_alike(tree: Tree) -> None:
    """Every tree gtsearch writes as .efg: the Python reader's tree, and taken unless it has
    chance nodes, escapes (a title with a backslash or a quote) or other than printable ASCII."""
    text = dump_tree(tree, "efg")
    got = check(text)
    plain = text.isascii() and all(ch.isprintable() or ch in "\t\n\r" for ch in text)
    if not tree.has_chance and "\\" not in text and plain:
        assert got is not None, repr(text)
    for limit in (len(tree) - 1, len(tree)):  # the node limit, passed in
        if limit >= 1 and not tree.has_chance:
            taken = parse_compiled(text, "efg", "src", limit)
            assert taken is None or limit >= len(tree)


def random_game(rnd: random.Random) -> str:
    """A random .efg text of the kinds of files there are: players moving twice, outcomes on
    decision nodes and terminals shared or given once, terminals without one, decimals, node
    labels, labels repeated among actions or across the tree, empty labels, and now and then
    something the Python reader refuses (a shared information set, a payoff that is not
    zero-sum, an outcome given again otherwise) or that only it reads (a ratio, an escape)."""
    out = ['EFG 2 R "random" { "A" "B" }\n', '"a comment"\n' if rnd.random() < 0.5 else ""]
    outcomes: dict[int, str] = {}
    infosets = 0
    labels = ["L", "R", "l", "r", "take 1", "x(0,0)", "", "", "a b"]
    payoffs = ["3", "-2", "0", "1.5", "+4", "2.25e1", "0.0", "1/2", "9007199254740992"]
    todo = 1
    while todo:
        todo -= 1
        label = rnd.choice(["", "", "n", "pass", "L"])
        roll = rnd.random()
        if roll < 0.45 and len(out) < 60:
            k = rnd.randint(1, 3)
            acts = [rnd.choice(labels) for _ in range(k)]
            infosets += 1
            number = infosets if rnd.random() > 0.03 else 1
            out.append(
                f'p "{label}" {rnd.choice([1, 2])} {number} "" '
                f"{{ {' '.join(chr(34) + a + chr(34) for a in acts)} }} {outcome(rnd, outcomes)}\n"
            )
            todo += k
        else:
            out.append(f't "{label}" {outcome(rnd, outcomes, payoffs)}\n')
    if rnd.random() < 0.02:
        out.append('t "" 0\n')  # more after the tree
    if rnd.random() < 0.05:
        out[-1] = out[-1].replace('"', '"\\\\', 1)  # an escape ... or not a string at all
    return "".join(out)


def outcome(rnd: random.Random, known: dict[int, str], payoffs: list[str] | None = None) -> str:
    """An outcome: none, one given before, or a new one (zero-sum, mostly)."""
    if payoffs is None:
        payoffs = ["1", "-1", "2.5"]
    roll = rnd.random()
    if roll < 0.3:
        return "0"
    if roll < 0.5 and known:
        number = rnd.choice(sorted(known))
        return f"{number}" if rnd.random() < 0.5 else f"{number} {known[number]}"
    number = len(known) + 1
    p = rnd.choice(payoffs)
    minus = p[1:] if p.startswith("-") else "-" + p.lstrip("+")
    if rnd.random() < 0.05:
        minus = "7"  # not zero-sum
    written = f'"o{number}" {{ {p}{rnd.choice([",", ""])} {minus} }}'
    known[number] = written
    return f"{number} {written}"


def test_random_games_read_alike() -> None:
    rnd = random.Random(26)
    taken = 0
    for _ in range(3000):
        text = random_game(rnd)
        taken += check(text) is not None
    assert taken > 1000  # most files are taken; the others are the Python reader's


ALPHABET = 'EFG2R"{}, \n\tptc0123-./e+x\\'


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=80))
def test_any_text_gives_the_same_tree_or_goes_to_the_python_reader(body: str) -> None:
    check(HEADER + body)


@pytest.mark.parametrize(
    "body",
    [
        'p "" 1 1 "" { "L" "R" } 0\np "" 2 1 "" { "l" "r" } 0\nt "" 1 "a" { 3, -3 }\n'
        't "" 2 "b" { 5, -5 }\np "" 2 2 "" { "l" "r" } 0\nt "" 3 "c" { 1, -1 }\nt "" 1\n',
        # a forced move, named by the node's label, else "pass"
        'p "" 1 1 "" { "a" "b" } 0\np "again" 1 2 "" { "c" } 0\nt "" 1 "x" { 3, -3 }\nt "" 0\n',
        'p "" 1 1 "" { "a" } 0\np "" 1 2 "" { "c" } 0\nt "" 1 "x" { 3, -3 }\n',
        # outcomes on decision nodes, decimals alone on a path, OpenSpiel's unlabelled outcomes
        'p "" 1 1 "" { "a" "b" } 1 "in" { 2, -2 }\nt "" 2 "" { 1 -1 }\nt "" 0\n',
        'p "" 2 1 "" { "a" "b" } 0\nt "" 1 "" { 2.5 -2.5 }\nt "" 2 "" { -.5e1, +.5e1 }\n',
        # node labels name nodes whose action has none; labels repeat across the tree
        'p "top" 1 1 "" { "" "R" } 0\nt "left" 1 "x" { 1, -1 }\nt "R" 1\n',
        't "alone" 1 "x" { 7, -7, }\n',  # a comma may follow the last payoff
        'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { -0.0, -0.0 }\nt "" 2 "y" { 0e5, 0 }\n',  # zeros
    ],
)
def test_documents_taken(body: str) -> None:
    assert check(HEADER + body) is not None


@pytest.mark.parametrize(
    "body",
    [
        'c "" 1 "" { "h" 1/2 "t" 1/2 } 0\nt "" 1 "x" { 1, -1 }\nt "" 0\n',  # chance: Python's
        'p "" 1 1 "" { "a" "a" } 0\nt "" 1 "x" { 1, -1 }\nt "" 0\n',  # a label repeated
        'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { 1/3, -1/3 }\nt "" 0\n',  # a ratio
        'p "" 1 1 "" { "a" "b" } 1 "i" { 1, -1 }\nt "" 2 "x" { 0.1, -0.1 }\nt "" 0\n',  # a sum
        'p "" 1 1 "" { "a\\"" "b" } 0\nt "" 1 "x" { 1, -1 }\nt "" 0\n',  # an escape
        'p "" 1 1 "" { "a" "b" } 0\nt "" 1 "x" { -1e-400, 1e-400 }\nt "" 0\n',  # rounds to 0
        'p "" 1 1 "" { "" "" } 0\nt "b" 1 "x" { 1, -1 }\nt "b" 0\n',  # two node labels alike
        # what the Python reader refuses
        'p "" 1 1 "" { "a" "b" } 0\np "" 2 1 "" { "c" } 0\nt "" 0\np "" 2 1 "" { "c" } 0\nt "" 0\n',
        'p "" 1 1 "" { "a" } 0\nt "" 1 "x" { 1, 1 }\n',
        'p "" 3 1 "" { "a" } 0\nt "" 0\n',
        'p "" 1 1 "" { "a" } 0\nt "" 1\n',
        'p "" 1 1 "" { "a" } 0\nt "" 0\nt "" 0\n',
        'p "" 1 1 "" { "a" "b" } 0\nt "" 0\n',
        't "" 1 "x" { 9007199254740993, -9007199254740993 }\n',
        't "" 1 "x" { 1e400, -1e400 }\n',
        't "" 1 "x" { , 1, -1 }\n',
        # chance probabilities that do not add up to 1 (5/6; 3; 0.9999999999999999)
        'c "" 1 "" { "h" 1/2 "t" 1/3 } 0\nt "" 1 "x" { 1, -1 }\nt "" 0\n',
        'c "" 1 "" { "h" 1 "t" 2 } 0\nt "" 1 "x" { 1, -1 }\nt "" 0\n',
        'c "" 1 "" { "h" 0.3333333333333333 "t" 0.6666666666666666 } 0\nt "" 0\nt "" 0\n',
        "",
    ],
)
def test_documents_declined(body: str) -> None:
    text = HEADER + body
    assert parse_compiled(text, "efg", "src", 10**6) is None
    compiled, reference = both(_outcome, text)  # read alike under both cores, or refused alike
    assert compiled == reference


def _outcome(text: str) -> str:
    try:
        return loads_tree(text, "efg", "src").sexp()
    except TreeFormatError as e:
        return str(e)


def test_the_sample_and_the_bad_cases() -> None:
    assert check((ROOT / "sample_trees" / "nim-5.efg").read_text(encoding="utf-8")) is not None
    bad = sorted((ROOT / "tests" / "cases" / "bad").glob("*.efg"))
    assert len(bad) > 30
    for path in bad:  # every one refused by the Python reader: declined
        assert parse_compiled(path.read_text(encoding="utf-8"), "efg", "src", 10**6) is None, path


def test_a_large_tree_and_a_deep_one() -> None:
    t = uniform_tree(4, 7, seed=5)
    assert check(dump_tree(t, "efg")) is not None
    depth = 100_000
    chain = Tree([depth] * depth, [0.0] * depth)
    got = check(dump_tree(chain, "efg"), 10**6)
    assert got is not None and got.max_depth() == depth - 1
