"""A progress display on standard error for loads and searches that take a while.

Nothing shows unless standard error is a terminal and the work has run for
``delay`` seconds (about one), so quick runs, pipes and CI logs stay clean.
A watcher thread polls a counter the work already keeps (the list of
evaluated leaves, say); the search loops themselves carry no progress code
and run at full speed.  rich is imported only once the display appears.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

DELAY = 1.0


def wanted(stream: Any = None) -> bool:
    """Whether a progress display may be drawn on ``stream`` (standard error)."""
    stream = stream if stream is not None else sys.stderr
    if os.environ.get("GTSEARCH_NO_PROGRESS") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def progress(
    description: str,
    count: Callable[[], int] | None = None,
    total: int | None = None,
    *,
    delay: float = DELAY,
    enabled: bool | None = None,
) -> Iterator[None]:
    """Show ``description`` with a bar (``count()`` of ``total``) or a spinner after ``delay`` s."""
    if not (wanted() if enabled is None else enabled):
        yield
        return
    done = threading.Event()
    watcher = threading.Thread(
        target=_watch,
        args=(description, count, total, delay, done),
        name="gtsearch-progress",
        daemon=True,
    )
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def _watch(
    description: str,
    count: Callable[[], int] | None,
    total: int | None,
    delay: float,
    done: threading.Event,
) -> None:
    if done.wait(delay):
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if count is not None:
        columns += [
            BarColumn() if total else TextColumn(""),
            TextColumn("{task.completed:,} leaves" + (f" of {total:,}" if total else "")),
        ]
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        while not done.wait(0.1):
            if count is not None:
                bar.update(task, completed=count())
