"""The one error family gtsearch raises for bad input and bad requests."""

from __future__ import annotations


class GtsearchError(Exception):
    """A problem the user can fix: bad input file, bad option, bad request.

    The command line turns it into one line on standard error and exit status 2.
    """

    exit_code = 2


class TreeFormatError(GtsearchError):
    """A tree file that cannot be read, with the place where it goes wrong.

    ``line`` and ``column`` are 1-based; ``where`` replaces them when the
    position is a path inside the document (``$[1][0]``).
    """

    def __init__(
        self,
        message: str,
        path: str = "<input>",
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
        if self.line is not None:
            place = f"{self.path}:{self.line}:{self.column or 1}"
        elif self.where is not None:
            place = f"{self.path}:{self.where}"
        else:
            place = self.path
        return f"{place}: {self.message}"


class UsageError(GtsearchError):
    """Options that make no sense together (a window with alpha >= beta, ...)."""


class CheckFailed(GtsearchError):
    """A regression check failed (``--expect``, a file's ``expect:``, ``compare``)."""

    exit_code = 1
