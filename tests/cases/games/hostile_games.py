"""Games whose code throws everything Python can throw and answers what no game should.

Each class is one hostile case of tests/test_no_traceback.py and tests/test_game_specs.py:
CASES maps its name to a part of the one line gtsearch must print (exit status 2).  The
game under them all is a heap of 2 counters from which a move takes 1 or 2.
"""

import math
import sys
from fractions import Fraction


class Heap:
    def initial(self):
        return 2

    def moves(self, s):
        return [1, 2][:s]

    def play(self, s, m):
        return s - m

    def utility(self, s):
        return 1


class HugeUtility(Heap):
    def utility(self, s):
        return 10**400


class ExitInMoves(Heap):
    def moves(self, s):
        sys.exit(7)


class GeneratorExitInMoves(Heap):
    def moves(self, s):
        raise GeneratorExit("closed")


class StopIterationInPlay(Heap):
    def play(self, s, m):
        raise StopIteration


class RecursionInUtility(Heap):
    def utility(self, s):
        return self.utility(s)


class MemoryErrorInMoves(Heap):
    def moves(self, s):
        raise MemoryError


class EndlessMoves(Heap):
    def moves(self, s):
        return range(10**18) if s else []


class UnreadableMoves(Heap):
    def moves(self, s):
        return range(2**70) if s else []


class Unprintable:
    def __repr__(self):
        raise ValueError("no repr")

    def __str__(self):
        raise ValueError("no str")


class UnprintableUtility(Heap):
    def utility(self, s):
        return Unprintable()


class UnprintableException(Exception):
    def __str__(self):
        raise RuntimeError("no str")


class UnprintableRaise(Heap):
    def moves(self, s):
        raise UnprintableException()


class NanBounds(Heap):
    bounds = (math.nan, 1)


class TextBounds(Heap):
    bounds = "-1..1"


class ReversedBounds(Heap):
    bounds = (1, -1)


class ExitInBounds(Heap):
    @property
    def bounds(self):
        sys.exit(3)


class RaisingAttributes(Heap):
    def __getattr__(self, name):
        raise RuntimeError(f"no {name}")


class NewlineLabel(Heap):
    def label(self, s, m):
        return f"take\n{m}"


class NulLabel(Heap):
    def label(self, s, m):
        return f"take\0{m}"


class TinyProbability(Heap):
    def player(self, s):
        return "chance" if s == 2 else ("max" if s else None)

    def outcomes(self, s):
        return [(1, 1e-300), (2, 1 - 1e-300)]


class ExactTinyProbability(TinyProbability):
    def outcomes(self, s):
        tiny = Fraction(1, 10**300)
        return [(1, tiny), (2, 1 - tiny)]


#: class -> what its one line says (the game's name and the place come around it)
CASES = {
    "HugeUtility": "utility() returned an integer of 1,329 bits, beyond 2**53",
    "ExitInMoves": "moves() raised SystemExit: 7 (",
    "GeneratorExitInMoves": "moves() raised GeneratorExit: closed (",
    "StopIterationInPlay": "play() raised StopIteration (",
    "RecursionInUtility": "utility() raised RecursionError: maximum recursion depth exceeded",
    "MemoryErrorInMoves": "moves() ran out of memory (",
    "EndlessMoves": "moves() gave a sequence of more items than memory holds, range(0, 1000",
    "UnreadableMoves": "moves() gave a sequence of items that cannot be read: OverflowError",
    "UnprintableUtility": "utility() must return a finite number, got <a Unprintable whose",
    "UnprintableRaise": "moves() raised UnprintableException (",
    "NanBounds": "bounds must be (least, greatest) utility, two finite numbers",
    "TextBounds": "bounds must be (least, greatest) utility, two finite numbers",
    "ReversedBounds": "bounds must be (least, greatest) utility, the least first, got (1, -1)",
    "ExitInBounds": "reading the game's bounds raised SystemExit: 3 (",
    "RaisingAttributes": "reading the game's label raised RuntimeError: no label (",
    "NewlineLabel": "label() gave the move 1 the name 'take\\n1', which holds a control",
    "NulLabel": "label() gave the move 1 the name 'take\\x001', which holds a control",
    "TinyProbability": "outcomes() gave probabilities that add up to ≈1, not 1: ≈1e-300, 1 (",
}
