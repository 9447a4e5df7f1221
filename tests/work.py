"""Deterministic measures of work for tests: function calls made and memory allocated.

Tests must not assert on wall-clock or CPU time (a loaded machine makes such
asserts flaky, and a fast one makes them vacuous).  What a timing bound stood
for (the input is refused before it expands, the reader stops at the node
limit, the time is linear) is checked instead by counting:

- **calls**: every Python-level and builtin (C) function call made in this
  thread, through :func:`sys.setprofile`.  It is the same on every run of the
  same code, whatever the machine's load.  With ``max_calls``, the measure
  stops the work as soon as the count passes it (:class:`OverBudget`), so that
  a runaway fails the test at once instead of hanging it.
- **peak**: the most memory that was allocated at once above the level at the
  start, in bytes, through :mod:`tracemalloc` (Python objects, ``array`` and
  numpy buffers alike).

Time itself is measured by ``benchmarks/hostile.py``, not by the tests.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


class OverBudget(BaseException):
    """The measured work made more calls than allowed (a BaseException: no reader catches it)."""


class Work:
    """What a :func:`measured` block did: ``calls`` made, ``peak`` bytes allocated at once."""

    __slots__ = ("calls", "peak")

    def __init__(self) -> None:
        self.calls = 0
        self.peak = 0

    def __repr__(self) -> str:
        return f"Work(calls={self.calls:,}, peak={self.peak:,} bytes)"


@contextmanager
def measured(max_calls: int | None = None, memory: bool = True) -> Iterator[Work]:
    """Count the calls (and, with ``memory``, the peak allocation) of the block's work.

    Past ``max_calls`` calls the block is stopped by :class:`OverBudget`.  The count
    includes the few calls of entering and leaving the block itself.
    """
    work = Work()
    limit = sys.maxsize if max_calls is None else max_calls

    def count(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" or event == "c_call":
            work.calls += 1
            if work.calls > limit:
                raise OverBudget(f"more than {limit:,} calls")

    started = memory and not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    if memory:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
    previous = sys.getprofile()
    sys.setprofile(count)
    try:
        yield work
    finally:
        sys.setprofile(previous)
        if memory:
            work.peak = tracemalloc.get_traced_memory()[1] - base
        if started:
            tracemalloc.stop()
