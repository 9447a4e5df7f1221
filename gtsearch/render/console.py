"""The one rich console for standard output, and whether standard output is a terminal.

Colours on a terminal; plain text (no ANSI at all) off one or with NO_COLOR
set; FORCE_COLOR asks for colours off a terminal too, as rich's own
convention has it.  Off a terminal the width is 200 columns (rich would
assume 80 and fold tables written to files and pipes) unless COLUMNS says.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported only when something is drawn
    from rich.console import Console


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (False when it is closed)."""
    stream = sys.stdout
    return stream is not None and stream.isatty()


def console() -> Console:
    """A Console on standard output, coloured or plain as the module docstring says."""
    from rich.console import Console

    terminal = stdout_is_terminal()
    plain = bool(os.environ.get("NO_COLOR")) or not (terminal or os.environ.get("FORCE_COLOR"))
    wide = not terminal and "COLUMNS" not in os.environ
    return Console(
        highlight=False,
        emoji=False,
        width=200 if wide else None,
        color_system=None if plain else "auto",
        force_terminal=not plain,
    )
