"""Files written whole or not at all (docs/commands.md, "Files written whole or not at all").

Every file gtsearch writes (``-o`` of every command, ``play``'s saved game, ``experiment``'s
records and shards, plots) goes through :func:`replacing`: the text is written to a temporary
file beside the target (``.NAME.XXXXXXXX.tmp`` in the same folder, so that the rename stays on
one file system), flushed to the disk, and renamed over the target only when whole.  Ctrl-C, a
full disk or any error leave the old file as it was and remove the temporary one.

What is not a regular file is written in place: a terminal, ``/dev/null``, a pipe
(``-o /dev/stdout``) cannot be renamed over, and renaming over them would replace a device
with a file; so is a descriptor named as a file (``/dev/stdout`` redirected to a file, which
the shell opened, for ``>>`` too).  A symbolic link is followed: the file it points to is
replaced, the link kept.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import IO, TextIO

__all__ = ["replacing", "replacing_text", "write_text_file"]


def _target(path: str) -> tuple[str, os.stat_result | None, str | None]:
    """The file to replace (a link's target), its status (None when it does not exist), and
    the mode to write it in place with, None to replace it: what is not a regular file (a
    device, a pipe, a terminal) is written in place, and so is a descriptor of the process
    named as a file (``/dev/stdout``, ``/dev/fd/3``), appended to as ``>>`` may have opened
    it."""
    real = os.path.realpath(path)
    try:
        status = os.stat(path)  # through the links, /proc's magic ones included
    except FileNotFoundError:
        return real, None, None
    if _descriptor(path):
        return path, status, "ab"
    if not stat.S_ISREG(status.st_mode):
        return path, status, "wb"
    return real, status, None


def _descriptor(path: str) -> bool:
    """Whether ``path`` names one of the process's descriptors: a link into /proc
    (``/dev/stdout`` is ``/proc/self/fd/1``; ``/dev/fd`` is ``/proc/self/fd``), followed link
    by link, since realpath goes on through the descriptor to the file it stands for."""
    p = os.path.abspath(path)
    for _ in range(40):  # as many links as the system follows
        folder = os.path.dirname(p)
        if os.path.realpath(folder).startswith("/proc/"):
            return True
        if not os.path.islink(p):
            return False
        p = os.path.normpath(os.path.join(folder, os.readlink(p)))
    return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replacing(path: str) -> Iterator[IO[bytes]]:
    """A binary file whose content replaces the file ``path`` when the block ends without an
    exception (KeyboardInterrupt included); OSError as the operating system gives it.

    The new file keeps the mode of the file it replaces (a new one: 0666 less the umask, as
    ``open`` gives)."""
    real, status, mode = _target(path)
    if mode is not None:  # a device, a pipe, a terminal, a descriptor: no renaming over
        with open(real, mode) as f:
            yield f
        return
    folder, name = os.path.split(real)
    fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), stat.S_IMODE(status.st_mode) if status else 0o666 & ~_umask())
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def replacing_text(path: str) -> Iterator[TextIO]:
    """:func:`replacing` for text: UTF-8, ``\\n`` line ends."""
    with replacing(path) as raw:
        f = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        try:
            yield f
            f.flush()
        finally:
            f.detach()  # the binary file is closed by replacing(), after its flush to the disk


def write_text_file(path: str, text: str) -> None:
    """Replace the file ``path`` by ``text`` (UTF-8), whole or not at all; OSError."""
    with replacing_text(path) as f:
        f.write(text)
