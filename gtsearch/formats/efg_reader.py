"""The reader of Gambit's .efg files (gtsearch.formats.efg): tokens, nodes, outcomes, names.

:class:`Reader` reads a file's header and nodes into a FormatBuilder without
recursion: nodes written the usual way (one line each, strings without
escapes) in one regular-expression match each, anything else token by token,
which is also what says what is wrong with a node.  The mapping (players,
payoffs, forced moves, names, refusals) is described in
:mod:`gtsearch.formats.efg` and docs/formats.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction

from ..numbers import MAX_EXACT_INT, too_large
from ..tree import Meta, Tree, fits, sibling_names
from .builders import FormatBuilder
from .tokens import Locator, OffsetError, end_pos, shown

#: one token after blanks: a string (escapes \" and \\), a brace, a comma, a word, a lone quote
_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[{},]|[^\s{},"]+|")', re.S)
#: Gambit's numbers: integers, decimals (with an exponent), rationals such as -1/3
_NUMBER = re.compile(
    r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+/[0-9]+)\Z"
)
#: the largest exponent of a decimal read exactly (10 ** 10,000 is quick to compute, the
#: 10 ** 5,000,000,000 of ``1e-5000000000`` is not)
MAX_EXPONENT = 10_000
_INDEX = re.compile(r"[0-9]{1,18}\Z")  # players, information sets, outcomes: numbered from 1
_ESCAPE = re.compile(r'\\(["\\])')
# Whole nodes written the usual way (strings without escapes), each read in one match;
# anything else, and any node with a problem, is read again token by token.
_S = r'"([^"\\]*)"'
_PAYOFF = r'\s*([^\s{},"]+)'
#: an outcome's number, and perhaps its label and two payoffs (never half of them: a lookahead)
_OUTCOME = (
    r'\s+([0-9]{1,18})(?![0-9])(?:\s+"([^"\\]*)"\s*\{'
    + _PAYOFF
    + r"\s*,?"
    + _PAYOFF
    + r'\s*\})?(?!\s*["{},])'
)
_T_NODE = re.compile(r"\s*(t)\s+" + _S + _OUTCOME)
_P_NODE = re.compile(
    r"\s*(p)\s+"
    + _S
    + r"\s+([12])\s+([0-9]{1,18})(?![0-9])\s+"
    + _S
    + r'\s*\{((?:\s*"[^"\\]*")+)\s*\}'
    + _OUTCOME
)
_ACTION = re.compile(_S)

Exact = int | Fraction
#: a payoff read from the file: its exact value, and whether it counts as a float
Payoff = tuple[Exact, bool]


def chance_weights(probabilities: Sequence[str]) -> list[int] | list[float]:
    """Gambit's probabilities as gtsearch weights of the same proportions, exactly when it can.

    Rationals and decimals (``1/3``, ``0.25``) are scaled to the smallest
    integers of the same proportions (1/3 and 2/3 become 1 and 2); if those
    integers pass ±2**53, the probabilities are kept as floats.  The reader
    then checks them as every weight is checked (none negative, a positive
    total).
    """
    exact = [Fraction(_payoff(p)[0]) for p in probabilities]
    scale = math.lcm(*(q.denominator for q in exact))
    ints = [int(q * scale) for q in exact]
    divisor = math.gcd(*ints) or 1
    ints = [x // divisor for x in ints]
    if all(-MAX_EXACT_INT <= x <= MAX_EXACT_INT for x in ints):
        return ints
    return [float(q) for q in exact]


#: the name of the one move of a forced-move node the reader puts in, when the node it leads
#: to has no label of its own: the other player passes (docs/formats.md, "Gambit .efg files")
FORCED_MOVE = "pass"


class _Frame:
    """A node whose children are being read: a decision node (or a forced move put in by the
    reader) of player 1 or 2, or a chance node (player 0)."""

    __slots__ = ("left", "player", "mover", "names", "taken", "next", "acc", "acc_float")

    def __init__(
        self,
        left: int,
        player: int,
        mover: int,
        names: list[str | None],
        acc: Exact,
        acc_float: bool,
    ) -> None:
        self.left = left  # children still to read
        self.player = player
        #: who moves at the next decision node below (0: not known yet, under a chance root)
        self.mover = mover
        self.names = names  # the names the actions give the children (sibling_names())
        #: the names the children have taken, once a child falls back on its node label
        self.taken: set[str | None] | None = None
        self.next = 0
        self.acc = acc  # payoff to player 1 of the outcomes above and here
        self.acc_float = acc_float

    def take(self, label: str | None) -> str | None:
        """The next child's name: its action's, else its node ``label`` unless a sibling has it."""
        name = self.names[self.next]
        self.next += 1
        if name is not None or not label or not fits(label):
            return name
        if self.taken is None:
            self.taken = set(self.names)
        if label in self.taken:
            return None
        self.taken.add(label)
        return label


def _payoff(tok: str) -> Payoff:
    """A number of the file, exactly (decimals as fractions); floats: decimals, non-integral ratios.

    Raises ValueError saying why ``tok`` is not one of Gambit's numbers or
    cannot be a value.
    """
    if _NUMBER.match(tok) is None:
        raise ValueError(f"expected a number, got {shown(tok)}")
    if len(tok) > 1000:  # Python converts no more than 4,300 digits to an int anyway
        raise ValueError(f"number {shown(tok)} is too long: {len(tok):,} characters")
    if "/" in tok:
        num, den = tok.split("/")
        if int(den) == 0:
            raise ValueError(f"number {shown(tok)} divides by zero")
        q = Fraction(int(num), int(den))
        return (q.numerator, False) if q.denominator == 1 else (q, True)
    if "." in tok or "e" in tok or "E" in tok:
        if not math.isfinite(float(tok)):
            raise ValueError(f"number {shown(tok)} is beyond the float range")
        mantissa, _, power = tok.lower().partition("e")
        if power and abs(int(power)) > MAX_EXPONENT:  # Fraction() would compute 10 ** power
            if mantissa.strip("+-.0"):
                raise ValueError(
                    f"number {shown(tok)} is too small: its exponent is below -{MAX_EXPONENT:,}"
                )
            return Fraction(0), True  # 0e500000000: a zero (a large one is not finite above)
        return Fraction(tok), True
    value = int(tok)
    if not -MAX_EXACT_INT <= value <= MAX_EXACT_INT:
        raise ValueError(too_large(tok, "payoff"))
    return value, False


class Reader:
    """Reads one file into a FormatBuilder, node by node, without recursion."""

    def __init__(self, text: str, source: str, max_nodes: int) -> None:
        self.text = text
        self.pos = 0
        #: where the node being read starts (where the builder's errors point)
        self.at = 0
        self.b = FormatBuilder(source, max_nodes)
        #: (player, information set) -> where the node that has it starts
        self.infosets: dict[tuple[int, int], int] = {}
        #: chance information sets: number -> (actions, probabilities as written)
        self.chance_sets: dict[int, tuple[list[str], list[str]]] = {}
        #: outcome number -> (label, payoffs as written, player 1's payoff)
        self.outcomes: dict[int, tuple[str, list[str], Payoff]] = {}
        #: the probabilities of the chance node read last, as written
        self.probabilities: list[str] = []

    # -- tokens -------------------------------------------------------------------------------
    def next(self, what: str) -> tuple[str, int]:
        """The next token and where it starts; the end of the text is an error."""
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            raise OffsetError(f"unexpected end of input, expected {what}", end_pos(self.text))
        self.pos = m.end()
        return m.group(1), m.start(1)

    def peek(self) -> str:
        """The next token ("" at the end), left to be read."""
        m = _TOKEN.match(self.text, self.pos)
        return "" if m is None else m.group(1)

    def string(self, what: str) -> str:
        tok, at = self.next(what)
        if tok[0] != '"':
            raise OffsetError(f"expected {what} (a string in double quotes), got {shown(tok)}", at)
        if len(tok) < 2:  # a lone quote: the string never ends
            raise OffsetError("unterminated string", at)
        body = tok[1:-1]
        return _ESCAPE.sub(r"\1", body) if "\\" in body else body

    def index(self, what: str) -> tuple[int, int]:
        tok, at = self.next(what)
        if _INDEX.match(tok) is None:
            if tok.isascii() and tok.isdigit():
                raise OffsetError(f"{what} {shown(tok)} is too large", at)
            raise OffsetError(f"expected {what}, got {shown(tok)}", at)
        return int(tok), at

    def brace(self, what: str) -> int:
        tok, at = self.next(f"'{{' before {what}")
        if tok != "{":
            raise OffsetError(f"expected '{{' before {what}, got {shown(tok)}", at)
        return at

    def strings(self, what: str) -> list[str]:
        """Strings up to a closing brace."""
        out: list[str] = []
        while True:
            if self.peek() == "}":
                self.next("'}'")
                return out
            out.append(self.string(f"{what} or '}}'"))

    # -- the file -------------------------------------------------------------------------------
    def header(self) -> Meta:
        first, at = self.next("'EFG'")
        if first != "EFG":
            raise OffsetError(
                f"not a Gambit .efg file: expected 'EFG' at the start, got {shown(first)}", at
            )
        version, at = self.next("the version 2")
        if version != "2":
            raise OffsetError(
                f"only version 2 of the .efg format is read, got {shown(version)}", at
            )
        kind, at = self.next("'R'")
        if kind not in ("R", "D"):
            raise OffsetError(f"expected 'R' after the version, got {shown(kind)}", at)
        title = self.string("the title")
        at = self.brace("the players")
        players = len(self.strings("a player's name"))
        if players != 2:
            raise OffsetError(
                f"the game has {players} player{'s' * (players != 1)}; "
                "gtsearch reads two-player games",
                at,
            )
        comment = self.string("the comment") if self.peek()[:1] == '"' else ""
        return Meta(title=title or None, description=comment or None)

    def read(self) -> Tree:
        meta = self.header()
        b = self.b
        stack: list[_Frame] = []
        root_max = True
        text = self.text
        t_node, p_node = _T_NODE.match, _P_NODE.match
        name: str | None  # the node's
        while True:
            kind = None
            m = t_node(text, self.pos)
            if m is not None:
                ok, payoff = self.fast_outcome(m, 3)
                if ok:
                    kind, label = "t", m.group(2)
            else:
                m = p_node(text, self.pos)
                if m is not None:
                    player = int(m.group(3))
                    key = (player, int(m.group(4)))
                    if key not in self.infosets:
                        ok, payoff = self.fast_outcome(m, 7)
                        if ok:
                            kind, label = "p", m.group(2)
                            self.infosets[key] = m.start(1)
                            actions = _ACTION.findall(m.group(6))
            if kind is None:  # the general reader, which says what is wrong with the node
                kind, label, player, actions, payoff = self.node()
            else:
                assert m is not None
                self.at = m.start(1)
                self.pos = m.end()
            parent = stack[-1] if stack else None
            if parent is None:
                acc: Exact = 0
                acc_float = False
                mover = 0
            else:
                acc, acc_float = parent.acc, parent.acc_float
                mover = parent.mover
            if payoff is not None:
                acc = acc + payoff[0]
                acc_float = acc_float or payoff[1]
            if kind == "p":
                if mover == 0:  # the first decision node: the root's, or the first below chance
                    root_max = player == 1
                    mover = player
                    for frame in stack:  # the chance nodes above it: the root player moves next
                        frame.mover = player
                if mover != player:
                    # the same player moves twice: a forced move of the other player between,
                    # named by the action; the node it leads to by its label, else FORCED_MOVE
                    assert parent is not None
                    b.open(parent.take(None))
                    forced = _Frame(1, mover, player, [None], parent.acc, parent.acc_float)
                    stack.append(forced)
                    name = forced.take(label) or FORCED_MOVE
                else:
                    name = _root_name(label) if parent is None else parent.take(label)
                b.open(name)
                names = sibling_names(actions)
                stack.append(_Frame(len(actions), player, 3 - player, names, acc, acc_float))
                continue
            name = _root_name(label) if parent is None else parent.take(label)
            if kind == "c":
                b.open_chance(name, weights=chance_weights(self.probabilities))
                names = sibling_names(actions)
                stack.append(_Frame(len(actions), 0, mover, names, acc, acc_float))
                continue
            b.leaf(self.value(acc, acc_float), name)
            # a leaf is done: close the nodes whose children are all read
            while stack:
                top = stack[-1]
                top.left -= 1
                if top.left:
                    break
                stack.pop()
                b.close()
            if not stack:
                break
        rest, at = self.peek(), _TOKEN.match(text, self.pos)
        if rest:
            assert at is not None
            raise OffsetError(
                f"unexpected {shown(rest)} after the last node of the tree", at.start(1)
            )
        return b.finish(root_max=root_max, meta=meta)

    def value(self, acc: Exact, acc_float: bool) -> int | float:
        """A terminal's value: the exact sum of its payoffs, rounded once when floats are in it."""
        if not acc_float:
            return int(acc)
        try:
            return float(acc)
        except OverflowError:
            raise OffsetError(
                "the terminal's value, the sum of the payoffs above it, is beyond the float range",
                self.at,
            ) from None

    # -- nodes written the usual way --------------------------------------------------------------
    def fast_outcome(self, m: re.Match[str], g: int) -> tuple[bool, Payoff | None]:
        """The outcome of a node read in one match (groups g..g+3), as :meth:`outcome` gives it.

        (False, None) when the outcome needs a closer look (the general reader
        then reads the node again and says what is wrong).
        """
        number = int(m.group(g))
        label = m.group(g + 1)
        if label is None:
            if number == 0:
                return True, None
            known = self.outcomes.get(number)
            return (False, None) if known is None else (True, known[2])
        if number == 0:
            return False, None
        texts = [m.group(g + 2), m.group(g + 3)]
        known = self.outcomes.get(number)
        if known is not None:
            return ((known[0], known[1]) == (label, texts), known[2])
        try:
            p1, p2 = _payoff(texts[0]), _payoff(texts[1])
        except ValueError:
            return False, None
        if p1[0] + p2[0] != 0:
            return False, None
        self.outcomes[number] = (label, texts, p1)
        return True, p1

    # -- any node, token by token -------------------------------------------------------------
    def node(self) -> tuple[str, str, int, list[str], Payoff | None]:
        """One node: (kind 'p', 'c' or 't', label, player, actions, player 1's payoff or None).

        A chance node's probabilities, as written, are left in :attr:`probabilities`.
        """
        kind, at = self.next("a node ('p', 'c' or 't')")
        self.at = at
        if kind not in ("p", "c", "t"):
            raise OffsetError(f"expected a node ('p', 'c' or 't'), got {shown(kind)}", at)
        label = self.string("the node's label")
        player = 0
        actions: list[str] = []
        if kind == "p":
            player, where = self.index("the player's number")
            if player not in (1, 2):
                raise OffsetError(
                    f"player {player} is not in the game: it has players 1 and 2", where
                )
            actions = self.decision(player, at)
        elif kind == "c":
            actions, self.probabilities = self.chance()
        return kind, label, player, actions, self.outcome()

    def decision(self, player: int, start: int) -> list[str]:
        """The information set of a decision node and its actions (perfect information only)."""
        number, at = self.index("the information set's number")
        key = (player, number)
        if key in self.infosets:
            line, _column = Locator(self.text)(self.infosets[key])
            raise OffsetError(
                f"information set {number} of player {player} holds this node and the node at "
                f"line {line}: gtsearch reads games of perfect information only",
                at,
            )
        if self.peek()[:1] != '"':
            raise OffsetError(
                f"information set {number} of player {player} is used before its actions are given",
                at,
            )
        self.infosets[key] = start
        self.string("the information set's label")
        brace = self.brace("the actions")
        actions = self.strings("an action's label")
        if not actions:
            raise OffsetError("a decision node needs at least one action", brace)
        return actions

    def outcome(self) -> Payoff | None:
        """A node's outcome: player 1's payoff, or None for outcome 0 (no payoff)."""
        number, at = self.index("the outcome's number")
        if self.peek()[:1] != '"':
            if number == 0:
                return None
            known = self.outcomes.get(number)
            if known is None:
                raise OffsetError(f"outcome {number} is used before its payoffs are given", at)
            return known[2]
        if number == 0:
            raise OffsetError("outcome 0 means no outcome: it cannot have a label or payoffs", at)
        label = self.string("the outcome's label")
        brace = self.brace("the payoffs")
        texts: list[str] = []
        payoffs: list[Payoff] = []
        comma = True  # a comma may follow a payoff, not start the list or follow a comma
        while True:
            tok, where = self.next("a payoff or '}'")
            if tok == "}":
                break
            if tok == ",":
                if comma:
                    raise OffsetError("expected a payoff, got ','", where)
                comma = True
                continue
            try:
                payoffs.append(_payoff(tok))
            except ValueError as e:
                raise OffsetError(str(e), where) from None
            texts.append(tok)
            comma = False
        if len(payoffs) != 2:
            raise OffsetError(
                f"outcome {number} has {len(payoffs)} payoff{'s' * (len(payoffs) != 1)}; "
                "the game has 2 players",
                brace,
            )
        known = self.outcomes.get(number)
        if known is not None:
            if (known[0], known[1]) != (label, texts):
                raise OffsetError(
                    f"outcome {number} is given again with another label or other payoffs", at
                )
            return known[2]
        if payoffs[0][0] + payoffs[1][0] != 0:
            named = f" ({shown(label)})" if label else ""
            raise OffsetError(
                f"outcome {number}{named} is not zero-sum: {{ {texts[0]}, {texts[1]} }}; "
                "gtsearch reads zero-sum games, where player 2's payoff is minus player 1's",
                brace,
            )
        self.outcomes[number] = (label, texts, payoffs[0])
        return payoffs[0]

    # -- chance nodes ----------------------------------------------------------------------------
    def chance(self) -> tuple[list[str], list[str]]:
        """A chance node's information set: its actions and their probabilities as written."""
        number, at = self.index("the information set's number")
        if self.peek()[:1] == '"':
            self.string("the information set's label")
            brace = self.brace("the actions and their probabilities")
            actions: list[str] = []
            probabilities: list[str] = []
            while self.peek() != "}":
                actions.append(self.string("an action's label or '}'"))
                tok, where = self.next("the action's probability")
                try:
                    _payoff(tok)
                except ValueError as e:
                    raise OffsetError(str(e), where) from None
                if tok.startswith("-"):
                    raise OffsetError(f"probability {shown(tok)} is negative", where)
                probabilities.append(tok)
            self.next("'}'")
            if not actions:
                raise OffsetError("a chance node needs at least one action", brace)
            _check_total(probabilities, brace)
            known = self.chance_sets.setdefault(number, (actions, probabilities))
            if known != (actions, probabilities):
                raise OffsetError(
                    f"chance information set {number} is given again with other actions "
                    "or probabilities",
                    at,
                )
            return actions, probabilities
        given = self.chance_sets.get(number)
        if given is None:
            raise OffsetError(
                f"chance information set {number} is used before its actions are given", at
            )
        return given


def _check_total(probabilities: Sequence[str], at: int) -> None:
    """Refuse a chance node's probabilities that do not add up to 1 exactly (as rationals:
    decimals count as written, 0.1 is 1/10), as a game's chance outcomes are refused: read
    as weights, 1/2 and 1/3 would be 3:2, not the odds written."""
    total = sum((Fraction(_payoff(p)[0]) for p in probabilities), Fraction(0))
    if total == 1:
        return
    said = str(total) if len(str(total)) <= 40 else str(total)[:37] + "..."
    listed = ", ".join(p if len(p) <= 40 else p[:37] + "..." for p in probabilities[:10])
    more = f", ... ({len(probabilities):,} in all)" if len(probabilities) > 10 else ""
    raise OffsetError(
        f"the probabilities add up to {said}, not 1: {listed}{more}; a chance node's "
        "probabilities must add up to 1 exactly",
        at,
    )


def _root_name(label: str) -> str | None:
    return label if fits(label) else None
