"""Ctrl-C during a command, in a process of its own: the one line and status 130."""

from __future__ import annotations

import subprocess
import sys

#: the command run in the child: SIGINT to itself a second in, then the command line
CODE = """\
import os, signal, threading
from gtsearch.cli import cli
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
cli({argv!r})
"""


def assert_interrupted(argv: list[str]) -> None:
    """``gtsearch ARGV`` (a search that runs for more than a second) interrupted by Ctrl-C a
    second in: exit status 130, 'interrupted' on standard error, no traceback."""
    code = CODE.format(argv=argv)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr and "interrupted" in p.stderr
