"""Connect Four solved as a dedicated solver does: null-window negamax over bitboards.

docs/algorithms.md ("Solving Connect Four") defines it; this module is the readable
reference, and the compiled core runs the same steps (gtsearch/_native/solve_c4.c), node for
node: :func:`solve_connect4` takes the C one when it runs.  The sources are John Tromp's
Fhourstones (the bitboard of rows + 1 bits a column, the position's key from its discs and
its mask, the table), Pascal Pons, "Solving Connect 4: how to build a perfect AI" (2019,
blog.gamesolver.org: the score of the fastest win, null windows that bisect the score's
bounds, the moves that do not lose at once, ordering by the threats a move makes) and
Allis (1988), A knowledge-based approach of Connect-Four.

A position is the player to move's discs (``current``) and all the discs (``mask``) on a
board of ``rows`` x ``columns`` with ``k`` in a line, column by column, ``rows + 1`` bits a
column, as ConnectFour's states are (gtsearch.sources.library.connect4).  Its score, for the
player to move with ``n`` discs on the N squares: a win whose last disc is the board's m-th
scores ``(N + 2 - m) // 2``, a loss ``-((N + 2 - m) // 2)``, a draw 0; the faster the win (the
slower the loss) the higher.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from ..errors import NodeLimit, UsageError

#: the multiplier of the table's hash (the golden ratio's 64 bits, as SplitMix64's)
GOLDEN = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1
#: bytes a table entry is counted as: the key (8), the bound and the move
ENTRY_BYTES = 16
#: an entry's kinds of bound
LOWER, UPPER = 1, 2
#: no move in an entry
NO_MOVE = 255


class Probe(NamedTuple):
    """One null-window search at the root: is the score above ``test``?"""

    test: int
    score: int  # what it returned: > test proves score >= it, else score <= it
    nodes: int
    expanded: int
    leaves: int
    seconds: float


class C4Solution(NamedTuple):
    """What the solver finds for the player to move (docs/algorithms.md)."""

    result: str  # "win", "draw" or "loss"
    distance: int  # plies to the end with best play: the fastest win, the slowest loss
    score: int  # the score above
    pv: list[int]  # columns from 0, the line of best play to the end
    nodes: int  # positions entered by the probes' searches
    expanded: int  # of them, those whose moves were searched
    leaves: int  # of them, those decided without a move searched
    line_nodes: int  # positions entered by the searches that found the PV
    probes: list[Probe]
    tt: dict[str, int]
    seconds: float


class _Passed(Exception):
    """The searches entered more positions than allowed (``--max-nodes``)."""


def fits(rows: int, columns: int) -> bool:
    """Whether the board's bitboard, rows + 1 bits a column, fits 64 bits."""
    return rows >= 1 and columns >= 1 and (rows + 1) * columns <= 64


def table_entries(mib: int) -> int:
    """The table's entries for ``--tt MIB``: the largest power of two that fits."""
    n = max(1, mib * 2**20 // ENTRY_BYTES)
    return 1 << (n.bit_length() - 1)


def centre_first(columns: int) -> list[int]:
    """The columns nearest the centre first (the left one of two as near)."""
    return sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c))


def half(x: int) -> int:
    """x / 2 rounded toward 0 (as C's division)."""
    return x // 2 if x >= 0 else -(-x // 2)


class Solver:
    """The solver of one board: its masks, its table and its counts."""

    def __init__(self, rows: int, columns: int, k: int, tt_mib: int, max_nodes: int) -> None:
        if not fits(rows, columns) or k < 1:
            raise ValueError("the board does not fit 64 bits")
        self.rows, self.columns, self.k = rows, columns, k
        self.height = rows + 1
        self.squares = rows * columns
        self.bottom = sum(1 << (c * self.height) for c in range(columns))
        self.board = self.bottom * ((1 << rows) - 1)
        self.steps = (1, self.height, self.height + 1, self.height - 1)
        self.order = centre_first(columns)
        size = table_entries(tt_mib)
        self.shift = 64 - (size.bit_length() - 1)
        #: the entries by slot, (key, kind | (score + 128) << 2 | move << 10): a dict, so that
        #: a large table costs what it holds; the slots, and so every count, are the array's
        self.entries: dict[int, tuple[int, int]] = {}
        self.most = max_nodes
        self.nodes = self.expanded = self.leaves = self.line_nodes = 0
        self.in_line = False
        self.tt = {"probes": 0, "hits": 0, "cuts": 0, "stores": 0, "overwrites": 0}

    # -- the rules on bitboards ----------------------------------------------------------------
    def column_mask(self, c: int) -> int:
        return ((1 << self.rows) - 1) << (c * self.height)

    def wins(self, discs: int, mask: int) -> int:
        """The empty squares where one more of ``discs`` makes k in a line."""
        out = 0
        for step in self.steps:
            for j in range(self.k):
                t = M64
                for i in range(self.k):
                    if i != j:
                        d = (i - j) * step
                        t &= (discs >> d) if d > 0 else (discs << -d) & M64
                out |= t
        return out & self.board & ~mask

    def has_line(self, discs: int) -> bool:
        """Whether ``discs`` hold k in a line."""
        for step in self.steps:
            run = discs
            for i in range(1, self.k):
                run &= discs >> (i * step)
            if run:
                return True
        return False

    def playable(self, mask: int) -> int:
        """The lowest empty square of each column not full."""
        return (mask + self.bottom) & self.board

    def safe_moves(self, current: int, mask: int) -> int:
        """The playable squares after which the opponent cannot win at once: the one square
        that blocks the opponent's win (none when there are two), and never a square just
        below one where the opponent would win."""
        free = self.playable(mask)
        threats = self.wins(current ^ mask, mask)
        forced = free & threats
        if forced:
            if forced & (forced - 1):
                return 0
            free = forced
        return free & ~(threats >> 1)

    def key(self, current: int, mask: int) -> int:
        """The position's key: a column's discs of the player to move plus one bit above its
        top disc (current + mask + bottom), which no other position has."""
        return current + mask + self.bottom

    # -- the table -----------------------------------------------------------------------------
    def slot(self, key: int) -> int:
        return ((key * GOLDEN) & M64) >> self.shift

    def store(self, key: int, kind: int, score: int, move: int) -> None:
        """Replace the slot's entry; an upper bound (no move of its own) keeps the move the
        position's entry held."""
        i = self.slot(key)
        self.tt["stores"] += 1
        held = self.entries.get(i)
        if held is not None and held[0] != key:
            self.tt["overwrites"] += 1
        elif held is not None and move == NO_MOVE:
            move = held[1] >> 10
        self.entries[i] = (key, kind | (score + 128) << 2 | move << 10)

    # -- the search ----------------------------------------------------------------------------
    def count(self) -> None:
        if self.in_line:
            self.line_nodes += 1
        else:
            self.nodes += 1
        if self.nodes + self.line_nodes > self.most:
            raise _Passed

    def negamax(self, current: int, mask: int, n: int, alpha: int) -> int:
        """Whether the score is above ``alpha`` (the null window alpha, alpha + 1), the player
        to move unable to win at once: a bound above alpha (the score is at least it), or a
        bound at most alpha (the score is at most it)."""
        self.count()
        safe = self.safe_moves(current, mask)
        if not safe:  # every move lets the opponent win at once
            self.leaves += 1
            return -((self.squares - n) // 2)
        if n >= self.squares - 2:  # neither can win before the board is full
            self.leaves += 1
            return 0
        low = -((self.squares - 2 - n) // 2)  # the opponent does not win at once
        if low > alpha:
            self.leaves += 1
            return low
        high = (self.squares - 1 - n) // 2  # the player to move does not win at once
        if high <= alpha:
            self.leaves += 1
            return high
        key = self.key(current, mask)
        i = self.slot(key)
        self.tt["probes"] += 1
        best_move = NO_MOVE
        held = self.entries.get(i)
        if held is not None and held[0] == key:
            self.tt["hits"] += 1
            data = held[1]
            kind, score, best_move = data & 3, (data >> 2 & 255) - 128, data >> 10
            if (score > alpha) if kind == LOWER else (score <= alpha):
                self.tt["cuts"] += 1
                self.leaves += 1
                return score
        self.expanded += 1
        for c in self.ordered(current, mask, safe, best_move):
            move = (mask + (1 << (c * self.height))) & self.column_mask(c) & ~mask
            score = -self.negamax(current ^ mask, mask | move, n + 1, -alpha - 1)
            if score > alpha:
                self.store(key, LOWER, score, c)
                return score
        self.store(key, UPPER, alpha, NO_MOVE)
        return alpha

    def ordered(self, current: int, mask: int, safe: int, first: int) -> list[int]:
        """The moves among ``safe``: the table's move first, then by the squares where the
        player would win after it (most first), the centre first among equals."""
        scored: list[tuple[bool, int, int, int]] = []
        for c in self.order:
            move = safe & self.column_mask(c)
            if move:
                threats = bin(self.wins(current | move, mask | move)).count("1")
                scored.append((c != first, -threats, len(scored), c))
        return [c for *_, c in sorted(scored)]

    def winning_column(self, current: int, mask: int) -> int | None:
        """The first column, centre first, where the player to move wins at once."""
        wins = self.wins(current, mask) & self.playable(mask)
        if not wins:
            return None
        return next(c for c in self.order if wins & self.column_mask(c))

    def probe_root(self, current: int, mask: int, n: int) -> tuple[int, list[Probe]]:
        """The exact score by null windows: each asks whether the score is above a test
        between its bounds (the middle, moved halfway to 0 when 0 lies between), narrowing
        them until they meet."""
        low, high = -((self.squares - n) // 2), (self.squares - 1 - n) // 2
        probes = []
        while low < high:
            test = low + (high - low) // 2
            if test <= 0 and half(low) < test:
                test = half(low)
            elif test >= 0 and half(high) > test:
                test = half(high)
            before = (self.nodes, self.expanded, self.leaves)
            t0 = time.perf_counter()
            r = self.negamax(current, mask, n, test)
            seconds = time.perf_counter() - t0
            nodes, expanded, leaves = (self.nodes, self.expanded, self.leaves)
            probes.append(
                Probe(test, r, nodes - before[0], expanded - before[1], leaves - before[2], seconds)
            )
            if r <= test:
                high = r
            else:
                low = r
        return low, probes

    def table_move(self, current: int, mask: int) -> int | None:
        """The move the position's table entry holds, if any."""
        key = self.key(current, mask)
        held = self.entries.get(self.slot(key))
        if held is None or held[0] != key or held[1] >> 10 == NO_MOVE:
            return None
        return held[1] >> 10

    def line(self, current: int, mask: int, n: int, score: int) -> list[int]:
        """The PV: from each position, the first move whose position scores the opposite of
        this one's score, to the end of the game: the table entry's move first, then the
        columns centre first."""
        self.in_line = True
        out: list[int] = []
        while n < self.squares:
            win = self.winning_column(current, mask)
            if win is not None:
                out.append(win)
                break
            first = self.table_move(current, mask)
            tried = self.order if first is None else [first, *(c for c in self.order if c != first)]
            for c in tried:
                move = self.playable(mask) & self.column_mask(c)
                if not move:
                    continue
                child, child_mask = current ^ mask, mask | move
                if self.child_at_most(child, child_mask, n + 1, -score):
                    break
            out.append(c)
            current, mask, n, score = child, child_mask, n + 1, -score
        self.in_line = False
        return out

    def child_at_most(self, current: int, mask: int, n: int, bound: int) -> bool:
        """Whether the position's score is at most ``bound``."""
        if self.winning_column(current, mask) is not None:
            return (self.squares + 1 - n) // 2 <= bound
        if n >= self.squares:
            return 0 <= bound
        return self.negamax(current, mask, n, bound) <= bound


def outcome(score: int, n: int, squares: int) -> tuple[str, int]:
    """The result and the distance in plies that a score gives at a position of n discs."""
    if score == 0:
        return "draw", squares - n
    # the last disc m: the winner's, of the parity of the winner's discs
    winner_parity = (n + 1) % 2 if score > 0 else n % 2
    m = squares + 2 - 2 * abs(score)  # or one less: (squares + 2 - m) // 2 == abs(score)
    if m % 2 != winner_parity:
        m -= 1
    return ("win" if score > 0 else "loss"), m - n


def solve_connect4(
    rows: int,
    columns: int,
    k: int,
    x: int,
    o: int,
    *,
    tt: int = 16,
    max_nodes: int = 50_000_000,
    pure: bool = False,
    source: str = "game:connect4",
) -> C4Solution:
    """Solve the position of X's discs ``x`` and O's ``o`` (ConnectFour's bitboards; X moves
    when they hold as many discs) for the player to move; ``tt``: the table in MiB;
    ``max_nodes``: the most positions entered (NodeLimit, naming ``source``, beyond); ``pure``: the
    Python reference even where the compiled core runs.  A position that is over (a line of
    k, or the board full) is a loss (the player who just moved won) or a draw in 0 plies."""
    from ..core import native

    if not fits(rows, columns) or k < 1:
        raise UsageError(f"a board of {rows} x {columns} does not fit 64 bits")
    t0 = time.perf_counter()
    s = Solver(rows, columns, k, 1, max_nodes)  # the masks only (the table is sized below)
    n = bin(x).count("1") + bin(o).count("1")
    x_moves = bin(x).count("1") == bin(o).count("1")
    current, mask = (x if x_moves else o), x | o
    if s.has_line(current ^ mask):  # the player who just moved made a line: lost at once
        return _over(-((s.squares + 2 - n) // 2), n, s.squares, t0)
    if n >= s.squares:
        return _over(0, n, s.squares, t0)
    core = None if pure else native()
    if core is not None:
        found = core.solve_c4(rows, columns, k, current, mask, table_entries(tt), max_nodes)
        if found is None:
            raise NodeLimit.visited(source, max_nodes)
        score, pv, nodes, expanded, leaves, line_nodes, probes, tt_counts = found
        tt_found = dict(
            zip(("probes", "hits", "cuts", "stores", "overwrites"), tt_counts, strict=True)
        )
        probes = [Probe(*p) for p in probes]
        pv = list(pv)
    else:
        s = Solver(rows, columns, k, tt, max_nodes)
        probes = []
        try:
            if s.winning_column(current, mask) is not None:
                score = (s.squares + 1 - n) // 2
            else:
                score, probes = s.probe_root(current, mask, n)
            # the counts of the probes: the line's searches count only as line_nodes
            tt_found, nodes, expanded, leaves = dict(s.tt), s.nodes, s.expanded, s.leaves
            pv = s.line(current, mask, n, score)
        except _Passed:
            raise NodeLimit.visited(source, max_nodes) from None
        line_nodes = s.line_nodes
    result, distance = outcome(score, n, s.squares)
    seconds = time.perf_counter() - t0
    return C4Solution(
        result, distance, score, pv, nodes, expanded, leaves, line_nodes, probes, tt_found, seconds
    )


def _over(score: int, n: int, squares: int, t0: float) -> C4Solution:
    """The solution of a position where the game is over."""
    result, distance = outcome(score, n, squares)
    tt = {"probes": 0, "hits": 0, "cuts": 0, "stores": 0, "overwrites": 0}
    seconds = time.perf_counter() - t0
    return C4Solution(result, distance, score, [], 0, 0, 0, 0, [], tt, seconds)
