"""The progress display: silent off a terminal, and never in the way of the work it watches."""

from __future__ import annotations

import io
import threading

import pytest

from gtsearch.render.progress import progress, wanted


def test_not_wanted_off_a_terminal() -> None:
    assert not wanted(io.StringIO())


def test_not_wanted_when_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wanted(Tty())
    monkeypatch.setenv("GTSEARCH_NO_PROGRESS", "1")
    assert not wanted(Tty())


def test_quick_work_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with progress("quick", count=lambda: 1, total=2, enabled=True):
        pass
    assert capsys.readouterr().err == ""
    assert not [t for t in threading.enumerate() if t.name == "gtsearch-progress"]


def test_slow_work_is_watched_and_the_watcher_ends() -> None:
    """With no delay the display appears at once; the work lasts until the watcher has polled
    its counter (an event, not a sleep), and the watcher ends with the work."""
    seen = []
    polled = threading.Event()

    def count() -> int:
        seen.append(1)
        polled.set()
        return len(seen)

    with progress("slow", count=count, total=1000, delay=0, enabled=True):
        assert polled.wait(timeout=60), "the watcher never polled the counter"  # a hang guard
    assert seen
    assert not [t for t in threading.enumerate() if t.name == "gtsearch-progress"]


def test_errors_pass_through() -> None:
    with pytest.raises(ZeroDivisionError):
        with progress("boom", enabled=True, delay=10):
            raise ZeroDivisionError
