"""The one error family gtsearch raises for bad input and bad requests."""

from __future__ import annotations


def shown(token: object, limit: int = 40) -> str:
    """A token quoted for a message (``!r``), shortened when long.

    Hostile files hold tokens of any length; an error stays one short line.
    """
    if isinstance(token, str):
        if len(token) > limit:
            return repr(token[: limit - 3]) + "..."
        return repr(token)
    text = repr(token)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def clipped(text: str, limit: int = 40) -> str:
    """Text for a message as written (not quoted), shortened when long."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def os_reason(e: OSError) -> str:
    """Why an operating-system call failed, for a message: ``no such file or directory``."""
    reason = e.strerror or str(e) or type(e).__name__
    return reason[:1].lower() + reason[1:]


class GtsearchError(Exception):
    """A problem the user can fix: bad input file, bad option, bad request.

    The command line turns it into one line on standard error and exit status 2.
    ``path``, ``line`` and ``column`` (1-based) say where the problem is, when it
    is in a file (the command line also prints them as a CI annotation);
    ``where`` replaces line and column when the place is a path inside the
    document (``$[1][0]``); ``message`` is the text without that place.
    """

    exit_code = 2

    def __init__(
        self,
        message: str = "",
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        where: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.where = where
        super().__init__(str(self))

    def __str__(self) -> str:
        return self.message if self.path is None else f"{self.path}: {self.message}"


class TreeFormatError(GtsearchError):
    """A tree file that cannot be read, with the place where it goes wrong (``path:line:column``
    or ``path:where``)."""

    path: str  # always a file (or <stdin>)

    def __str__(self) -> str:
        if self.line is not None:
            place = f"{self.path}:{self.line}:{self.column or 1}"
        elif self.where is not None:
            place = f"{self.path}:{self.where}"
        else:
            place = self.path
        return f"{place}: {self.message}"


class UsageError(GtsearchError):
    """Options that make no sense together (a window with alpha >= beta, ...)."""


class NodeLimit(GtsearchError):
    """A search of a lazy source, or of a game on demand, visited more nodes than
    --max-nodes allows."""

    @classmethod
    def visited(cls, source: str, most: int) -> NodeLimit:
        """The error of a search of ``source`` that visited more than ``most`` nodes."""
        return cls(
            f"{source}: the search visited more than --max-nodes {most:,} nodes; raise --max-nodes"
        )


class OutOfTime(Exception):  # noqa: N818  (not an error: a search's time is up)
    """A search's own time (``--time``) ran out before it finished: what it was doing is
    dropped (eval --iterative's tabled searches; play's deepening on a game on demand)."""


class CheckFailed(GtsearchError):
    """A regression check failed (``--expect``, a file's ``expect:``, ``compare``).

    ``path`` is the file checked; ``line`` and ``column`` the place where the
    file states the value that was contradicted (its ``expect``), when it does.
    """

    exit_code = 1
