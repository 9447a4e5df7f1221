"""Small games against easyAI (Zulko's game library, the extra ``peers``): the same values.

easyAI's Negamax with its TranspositionTable, at a depth D, gives the player to move a win
(a score above 0), a loss (below 0) or nothing proved (0); gtsearch's ``solve`` finds the same
at each depth of its iterative deepening (a win or a loss within D plies, else 0), and its
alpha-beta with a table the game's value: tic-tac-toe, nim (easyAI's nim is misère, its
``max_removals_per_turn`` one more than the most a move takes) and Hexapawn on 3 x 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from gtsearch.algorithms import search
from gtsearch.algorithms.solve import solve
from gtsearch.sources import open_source

from .conftest import need_extra

pytestmark = pytest.mark.extra("peers")
need_extra("peers")  # the whole module: its games subclass easyAI's

from easyAI import AI_Player, Negamax, TranspositionTable  # noqa: E402
from easyAI.games import Nim, TicTacToe  # noqa: E402
from easyAI.games.Hexapawn import Hexapawn  # noqa: E402


class Board(TicTacToe):  # type: ignore[misc]
    """easyAI's tic-tac-toe with the key its TranspositionTable needs."""

    def ttentry(self) -> Any:
        return tuple(self.board), self.current_player


class Pawns(Hexapawn):  # type: ignore[misc]
    """easyAI's Hexapawn with the key its TranspositionTable needs."""

    def ttentry(self) -> Any:
        first, second = (tuple(sorted(p.pawns)) for p in self.players)
        return first, second, self.current_player

    def scoring(self) -> int:
        return -100 if self.lose() else 0


def players() -> list[Any]:
    return [AI_Player(None), AI_Player(None)]


def easyai(make: Any, depth: int) -> int:
    """The sign of easyAI's Negamax at ``depth`` with a table, for the player to move."""
    ai = Negamax(depth, tt=TranspositionTable())
    ai(make())
    return (ai.alpha > 0) - (ai.alpha < 0)


def ours(spec: str) -> tuple[int, list[int]]:
    """The sign of the game's value for the player to move (alpha-beta with a table), and the
    sign of each iteration's score in ``solve``."""
    tree = open_source(spec)
    r = search(tree, "alphabeta", tt=16)
    value = r.value if tree.root_max else -r.value
    done = solve(tree)
    return (value > 0) - (value < 0), [(i.score > 0) - (i.score < 0) for i in done.iterations]


def agree(spec: str, make: Any) -> None:
    value, by_depth = ours(spec)
    for depth, sign in enumerate(by_depth, 1):
        assert easyai(make, depth) == sign, f"{spec} at depth {depth}"
    assert easyai(make, len(by_depth) + 2) == value


def test_tictactoe() -> None:
    agree("game:tictactoe", lambda: Board(players()))
    assert easyai(lambda: Board(players()), 9) == 0  # a draw


@pytest.mark.parametrize("heap", range(1, 11))
def test_nim(heap: int) -> None:
    agree(
        f"game:nim:heap={heap},take=3,misere=true",
        lambda: Nim(players(), max_removals_per_turn=4, piles=(heap,)),
    )


def test_hexapawn() -> None:
    agree("game:hexapawn", lambda: Pawns(players(), size=(3, 3)))
