"""Errors as CI annotations: GitHub Actions' ``::error file=PATH,line=L,col=C::message`` command.

A workflow step that prints such a line (on standard output or standard
error) gets an annotation on that line of the file in the pull request.  The
escaping follows GitHub's runner: in the message ``%``, ``\\r`` and ``\\n``
become ``%25``, ``%0D`` and ``%0A``; in a property value ``:`` and ``,``
become ``%3A`` and ``%2C`` too.
"""

from __future__ import annotations

from ..errors import GtsearchError

#: the names gtsearch gives files that are not files
NOT_FILES = ("<stdin>", "<input>", "<tree>")


def escape_data(text: str) -> str:
    """A workflow command's message, escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (a path), escaped."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_error(
    message: str, path: str | None = None, line: int | None = None, column: int | None = None
) -> str:
    """``::error file=PATH,line=L,col=C::message``, with the properties that are known."""
    props = []
    if path is not None and path not in NOT_FILES:
        props.append(f"file={escape_property(path)}")
        if line is not None:
            props.append(f"line={line}")
            if column is not None:
                props.append(f"col={column}")
    head = "::error " + ",".join(props) if props else "::error"
    return f"{head}::{escape_data(message)}"


def github_annotation(err: GtsearchError) -> str:
    """The annotation of an error: its message at its file, line and column where it has them.

    An error without a place of its own (a usage error) is annotated with its
    whole text, on no file.
    """
    message = err.message or str(err)
    where = getattr(err, "where", None)
    if err.line is None and where is not None:  # a place given as a path in the document
        message = f"{where}: {message}"
    return github_error(message, err.path, err.line, err.column)
