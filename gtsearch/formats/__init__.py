"""gtsearch.formats: tree files in YAML, JSON, s-expressions and Gambit's .efg; FORMATS, load_tree().

Owns reading and writing tree files: reading the bytes (gzip, BOM, UTF-8,
standard input) and choosing a format here; what the tokenizers share
(:mod:`.tokens`), the shape rules and the builders they feed (:mod:`.shape`,
:mod:`.builders`), the one writer (:mod:`.writer`), the vectorised reader of
the bare form (:mod:`.bare`), and one thin module per format on top
(:mod:`.jsonfmt`, :mod:`.yamlfmt` with :mod:`.yaml_flow`, :mod:`.yaml_block`
and :mod:`.yaml_scalars`, :mod:`.sexp`, :mod:`.efg`), and the JSON Schema of
the JSON and YAML files (:mod:`.schema`).  The three formats of gtsearch read
the bare form and the full form (names, static values, a document wrapper
with metadata) and parse(dump(tree)) == tree for each; Gambit's .efg keeps
the game (structure, values, root player, names where they are Gambit
labels).  No reader or writer recurses on the nesting.  Imports the ground
modules (tree, builder, numbers, errors, core: the compiled tokenizers of
:mod:`.compiled`), PyYAML and numpy; never algorithms, render, research or cli.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from ..core import native
from ..errors import TreeFormatError, UsageError, os_reason
from ..tree import DEFAULT_MAX_NODES, Tree
from .tokens import BOM

__all__ = [
    "FORMATS",
    "Format",
    "dump_tree",
    "find_format",
    "format_for_path",
    "load_tree",
    "loads_tree",
    "read_text",
    "sniff_format",
]


class Format(NamedTuple):
    """One tree file format: its name, file extensions, reader and writer.

    ``parse(text, source="<input>", *, max_nodes=DEFAULT_MAX_NODES) -> Tree``;
    ``dump(tree) -> str``, the whole document, ending with a newline.
    ``lossless``: parse(dump(tree)) == tree for every tree (Gambit's .efg has
    no static values and no ``expect``, and its labels are ASCII).
    """

    name: str
    extensions: tuple[str, ...]
    parse: Callable[..., Tree]
    dump: Callable[[Tree], str]
    lossless: bool = True


#: texts at least this long try the vectorised bare-form reader first (it needs numpy)
FAST_MIN_CHARS = 100_000


def _fast_first(name: str, parse: Callable[..., Tree], bare: bool = True) -> Callable[..., Tree]:
    """``parse``, preceded by the compiled reader (C core) or, on large texts, the vectorised one
    (``bare``: the format has a bare form of nested numbers).

    Both accept only what they read exactly as ``parse`` does and return None
    on anything else, so the format's own reader still sees (and reports)
    every other document.  The compiled reader takes every document the
    vectorised one takes, so when it declines the vectorised one is not tried.
    """

    def parse_fast_first(
        text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES
    ) -> Tree:
        from .compiled import parse_compiled

        tree = parse_compiled(text, name, source, max_nodes)
        if tree is not None:
            return tree
        if bare and len(text) >= FAST_MIN_CHARS and native() is None:
            from .bare import parse_bare

            tree = parse_bare(text, name, source, max_nodes)
            if tree is not None:
                return tree
        return parse(text, source, max_nodes=max_nodes)

    parse_fast_first.__doc__ = parse.__doc__
    return parse_fast_first


def _lazy(module: str, attr: str) -> Callable[..., Any]:
    """A function of a format module that imports the module on its first call.

    ``gtsearch eval`` on one JSON file then never imports the s-expression
    reader, nor PyYAML.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(f".{module}", __name__), attr)(*args, **kwargs)

    call.__name__ = call.__qualname__ = f"{module}.{attr}"
    call.__doc__ = f"See gtsearch.formats.{module}.{attr} (imported on first use)."
    return call


FORMATS: tuple[Format, ...] = (
    *(
        Format(name, extensions, _fast_first(name, _lazy(module, "parse")), _lazy(module, "dump"))
        for name, extensions, module in (
            ("yaml", (".yaml", ".yml"), "yamlfmt"),
            ("json", (".json",), "jsonfmt"),
            ("sexp", (".sexp", ".lisp", ".scm", ".sx"), "sexp"),
        )
    ),
    Format(
        "efg",
        (".efg",),
        _fast_first("efg", _lazy("efg", "parse"), bare=False),
        _lazy("efg", "dump"),
        lossless=False,
    ),
)

_ALIASES = {"yml": "yaml", "sexpr": "sexp", "lisp": "sexp"}
_GZIP_MAGIC = b"\x1f\x8b"


def find_format(name: str) -> Format:
    """The format called ``name`` (``yml``, ``sexpr`` and ``lisp`` are accepted too)."""
    key = name.strip().lower().lstrip(".")
    key = _ALIASES.get(key, key)
    for fmt in FORMATS:
        if fmt.name == key:
            return fmt
    choices = ", ".join(f.name for f in FORMATS)
    raise UsageError(f"unknown format {name!r}; choose one of {choices}")


def format_for_path(path: str) -> Format | None:
    """The format that the file name's extension says (a trailing ``.gz`` is looked through)."""
    lower = path.lower()
    if lower.endswith(".gz"):
        lower = lower[:-3]
    for fmt in FORMATS:
        if lower.endswith(fmt.extensions):
            return fmt
    return None


#: the patterns of this module are compiled on first use (into re's cache), not at start-up
_LEAD = r"(?:\s+|[;#][^\n]*)*"
_HASH_COMMENT = r"(?m)^[ \t]*#"
_EFG = r"EFG\s"


def sniff_format(text: str) -> Format:
    """Guess the format from the first character that is not blank or a comment.

    ``(`` is an s-expression, ``[`` or ``{`` JSON (YAML when ``#`` comments
    come first, since JSON has none), the word ``EFG`` Gambit's .efg,
    anything else YAML.
    """
    if text.startswith(BOM):
        text = text[1:]
    m = re.match(_LEAD, text)
    end = m.end() if m else 0
    first = text[end : end + 1]
    if first == "(":
        return find_format("sexp")
    if re.compile(_EFG).match(text, end):
        return find_format("efg")
    if first and first in "[{" and not re.compile(_HASH_COMMENT).search(text, 0, end):
        return find_format("json")
    return find_format("yaml")


#: gzip output allowed whatever the compression ratio, and the ratio allowed beyond it
GZIP_FREE_BYTES = 64 << 20
GZIP_MAX_RATIO = 100
_GZIP_STEP = 1 << 16
_NOT_ZERO = rb"[^\x00]"


def _gunzip(data: bytes, source: str) -> bytes:
    """Gzip data decompressed (every member), refusing a decompression bomb as it expands.

    Past :data:`GZIP_FREE_BYTES` of output, output more than :data:`GZIP_MAX_RATIO`
    times the input read so far is refused: tree files compress far less
    (deflate's best is about 1000:1), and two megabytes of bomb would otherwise
    fill gigabytes of memory before any parsing starts.
    """
    import zlib

    corrupt = TreeFormatError("not a valid gzip file: the data is corrupt or truncated", source)
    parts: list[bytes] = []
    size = 0
    pos = 0  # input fed to the decompressor so far
    pending = b""  # input after the end of a member: the next member, or zero padding
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    while True:
        if d.eof:
            pending = d.unused_data.lstrip(b"\x00")
            if not pending:  # zero padding may follow a member, as gzip.decompress allows
                m = re.compile(_NOT_ZERO).search(data, pos)
                pos = m.start() if m else len(data)
                if pos == len(data):
                    break
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        if pending:
            chunk, pending = pending, b""
        elif pos < len(data):
            chunk = data[pos : pos + _GZIP_STEP]
            pos += len(chunk)
        else:
            raise corrupt  # the member is cut short
        try:
            out = d.decompress(chunk)
        except zlib.error:
            raise corrupt from None
        size += len(out)
        if size > GZIP_FREE_BYTES and size > GZIP_MAX_RATIO * pos:
            raise TreeFormatError(
                f"gzip data expanding more than {GZIP_MAX_RATIO}-fold past "
                f"{GZIP_FREE_BYTES >> 20} MiB looks like a decompression bomb; "
                "decompress the file yourself if you trust it",
                source,
            )
        parts.append(out)
    return b"".join(parts)


def read_text(path: str) -> str:
    """The text of a tree file; ``-`` reads standard input.

    Gzip files (by their magic bytes, so ``.gz`` names and gzipped standard
    input alike) are decompressed.  A leading UTF-8 byte order mark is
    dropped.  Every problem is a TreeFormatError naming the file: missing,
    unreadable, not UTF-8 (with the line and column of the first bad byte),
    binary.
    """
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None:  # file descriptor 0 closed: Python has no sys.stdin
                raise TreeFormatError("cannot read standard input: it is closed", source)
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text-only stand-in for stdin (tests)
                data = sys.stdin.read().encode("utf-8", "surrogateescape")
            else:
                data = stream.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise TreeFormatError(f"cannot read the file: {os_reason(e)}", source) from None
    if data[:2] == _GZIP_MAGIC:
        data = _gunzip(data, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = e.start
        line = data.count(b"\n", 0, start) + 1
        line_start = data.rfind(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8", "replace")) + 1
        raise TreeFormatError(
            f"not UTF-8 text: byte 0x{data[start]:02x} cannot be decoded", source, line, column
        ) from None
    if text.startswith(BOM):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - text.rfind("\n", 0, nul)
        raise TreeFormatError("not a text file: it contains a NUL byte", source, line, column)
    return text


def loads_tree(
    text: str, input_format: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES
) -> Tree:
    """Parse the text of a tree file in the named format."""
    return find_format(input_format).parse(text, source, max_nodes=max_nodes)


def load_tree(
    path: str, *, input_format: str | None = None, max_nodes: int = DEFAULT_MAX_NODES
) -> Tree:
    """Read a tree file: the format comes from ``input_format``, else the extension, else sniffing.

    ``-`` reads standard input (the tree's source is then ``<stdin>``); ``sample:NAME``
    reads a sample tree shipped with the package (:mod:`gtsearch.samples`; its source is
    then ``sample:NAME``).
    """
    source = "<stdin>" if path == "-" else path
    if path.startswith("sample:"):
        from ..samples import sample_path

        path = sample_path(path)
    fmt = find_format(input_format) if input_format else format_for_path(path)
    text = read_text(path)
    if fmt is None:
        fmt = sniff_format(text)
    return fmt.parse(text, source, max_nodes=max_nodes)


def dump_tree(tree: Tree, output_format: str) -> str:
    """The text of a tree file in the named format (ends with a newline)."""
    return find_format(output_format).dump(tree)
