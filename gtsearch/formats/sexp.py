"""S-expression tree files: a regex tokenizer with an explicit stack, and the writer."""

from __future__ import annotations

import re
from typing import Any

from ..errors import TreeFormatError
from ..numbers import format_stored, too_large
from ..tree import DEFAULT_MAX_NODES, Meta, Tree
from .builders import FormatBuilder
from .shape import DOC_KEYS, ROOT_WORDS, number_problem
from .tokens import Locator, check_not_empty, end_pos, relocated, run_offset, shown, strip_bom
from .writer import Style, Syntax, layout, meta_fields, node_texts

NAME = "sexp"
EXTENSIONS = (".sexp", ".lisp", ".scm", ".sx")

_END = r'(?![^\s()";])'
_TOKEN = re.compile(
    r"(?:\s+|;[^\n]*(?![^\n]))*(?:"
    r"(\()"  # 1
    r"|(\))"  # 2
    r"|([+-]?(?:0|[1-9][0-9]*))"
    + _END  # 3 integer
    + r"|([+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
    + _END  # 4 float
    + r'|("(?:[^"\\]|\\.)*")'  # 5 string
    r'|([^\s()";]+)'  # 6 other atom
    r'|(")'  # 7 unterminated
    r"|(\Z)"  # 8 the end
    r")",
    re.S,
)
# A run of small integers, read in one match (most of a bare tree's leaves).
_INT15 = r"[+-]?(?:0|[1-9][0-9]{0,14})" + _END
_RUN = re.compile(
    "(" + _INT15 + r"(?:\s+" + _INT15 + "){0,4095})"
)  # 4,096 at most: see tokens.INT15
# A named leaf, (name . 3), read in one match.
_PAIR = re.compile(
    r'\(\s*(?:"([^"\\]*)"|([^\s()";0-9+\-.:#][^\s()";]*))\s+\.\s+(' + _INT15 + r")\s*\)"
)
_NUMBERISH = re.compile(r"[+-]?\.?[0-9]")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)\Z", re.I)
_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|["\\ntr]|.?)', re.S)
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
_BOOLEANS = ("#t", "#f", "#true", "#false")
#: the document wrapper's keywords: the wrapper keys of every format but the tree itself
_WRAPPER_KEYWORDS = tuple(f":{key}" for key in DOC_KEYS if key != "tree")

# atom kinds
_INT, _FLOAT, _STRING, _SYMBOL, _KEYWORD, _DOT, _BAD = range(7)

# frame phases
_START, _NAMED, _VALUE_KW, _HAS_VALUE, _DOT_NEXT, _DOTTED, _KIDS, _WRAP, _WRAP_KW = range(9)


class _Error(Exception):
    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


class _Frame:
    __slots__ = (
        "phase",
        "pos",
        "name",
        "name_pos",
        "static",
        "top",
        "kw",
        "kw_pos",
        "seen",
        "has_tree",
    )

    def __init__(self, pos: int, top: bool) -> None:
        self.phase = _START
        self.pos = pos
        self.name: str | None = None
        self.name_pos = pos
        self.static: int | float | None = None
        self.top = top
        self.kw = ""
        self.kw_pos = pos
        self.seen: set[str] = set()
        self.has_tree = False


def _unescape(tok: str, pos: int) -> str:
    body = tok[1:-1]
    if "\\" not in body:
        return body

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if len(e) > 1:
            code = int(e[1:], 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise _Error(
                    f"invalid escape {m.group()!r} in a string: not a character",
                    pos + 1 + m.start(),
                )
            return chr(code)
        if e in _ESCAPES:
            return _ESCAPES[e]
        raise _Error(f"invalid escape {m.group()!r} in a string", pos + 1 + m.start())

    return _ESCAPE.sub(one, body)


def _describe(kind: int, tok: str, value: Any) -> str:
    """What an atom is, for "expected ..., got ..." messages."""
    if kind == _STRING:
        return f"the string {shown(value)}"
    if kind == _KEYWORD:
        return f"the keyword {shown(tok)}"
    if kind == _DOT:
        return "'.'"
    if tok in _BOOLEANS:
        return f"the boolean {tok!r}"
    if tok == "nil":
        return "'nil' (null)"
    if kind == _SYMBOL:
        return f"the symbol {shown(tok)}"
    return shown(tok)


def _classify(g: int, tok: str, pos: int) -> tuple[int, Any]:
    if g == 3:
        if len(tok) >= 4000:
            raise _Error(too_large(tok), pos)
        return _INT, int(tok)
    if g == 4:
        return _FLOAT, float(tok)
    if g == 5:
        return _STRING, _unescape(tok, pos)
    if tok == ".":
        return _DOT, None
    if tok.startswith(":"):
        return _KEYWORD, None
    if _NOT_FINITE.match(tok):
        return _FLOAT, float(tok)
    if _NUMBERISH.match(tok):
        raise _Error(f"invalid number {shown(tok)}", pos)
    if tok[0] == "#" or tok == "nil":
        return _BAD, None
    return _SYMBOL, tok


def _number(kind: int, value: Any, tok: str, what: str, pos: int, expected: str) -> int | float:
    """A number token checked as every reader checks values; another atom is a syntax error."""
    if kind == _INT or kind == _FLOAT:
        problem = number_problem(value, tok, what)
        if problem is not None:
            raise _Error(problem, pos)
        return value  # type: ignore[no-any-return]
    raise _Error(f"{expected}, got {_describe(kind, tok, value)}", pos)


_CHILD = "expected a number or a list"
_RUN_PHASES = (_KIDS, _START, _NAMED, _HAS_VALUE)


def _run(text: str, b: FormatBuilder, meta: Meta, where: list[int]) -> bool:
    """Read the document into ``b``; return whether the root is MAX.

    ``where[0]`` is kept at the token being read, for builder errors.
    """
    match = _TOKEN.match
    run = _RUN.match
    pair = _PAIR.match
    frames: list[_Frame] = []
    done = False
    root_max = True
    pos = 0
    while True:
        m = match(text, pos)
        if m is None or m.lastindex == 8:
            break
        g = m.lastindex or 0
        start = m.start(g)
        pos = m.end()
        where[0] = start
        if g == 7:
            raise _Error("unterminated string", start)
        if done:
            if g == 2:
                raise _Error("unbalanced ')'", start)
            raise _Error(
                f"unexpected {shown(m.group(g))} after the tree: a file holds one tree", start
            )
        f = frames[-1] if frames else None
        if g == 1:  # "("
            if f is None:
                frames.append(_Frame(start, True))
                continue
            phase = f.phase
            if phase == _KIDS:
                pass
            elif phase in (_START, _NAMED, _HAS_VALUE):
                where[0] = f.name_pos
                b.open(f.name, f.static)
                f.phase = _KIDS
            elif phase == _WRAP:
                if f.has_tree:
                    raise _Error("the document wrapper holds more than one tree", start)
                f.has_tree = True
            else:
                raise _Error(_expectation(f) + ", got '('", start)
            if phase != _WRAP:
                r = pair(text, start)
                if r is not None:
                    name = r.group(1)
                    if name is None:
                        name = r.group(2)
                        if name == "nil" or _NOT_FINITE.match(name):
                            r = None
                if r is not None:
                    where[0] = r.start(1) if r.group(1) is not None else r.start(2)
                    b.leaf(int(r.group(3)), name)
                    pos = r.end()
                    continue
            frames.append(_Frame(start, False))
            continue
        if g == 2:  # ")"
            if f is None:
                raise _Error("unbalanced ')'", start)
            phase = f.phase
            if phase == _KIDS:
                where[0] = f.pos
                b.close()
            elif phase == _HAS_VALUE:
                where[0] = f.name_pos
                b.leaf(f.static, f.name)
            elif phase == _DOTTED:
                pass
            elif phase in (_START, _NAMED):
                what = "a node" if f.name is None else f"node {shown(f.name)}"
                raise _Error(f"empty list: {what} needs at least one child or a :value", f.pos)
            elif phase == _WRAP:
                if not f.has_tree:
                    raise _Error("the document wrapper holds no tree", f.pos)
                root_max = meta.root != "min"
            else:
                raise _Error(_expectation(f) + ", got ')'", start)
            frames.pop()
            if not frames:
                done = True
            continue
        if g == 3 and f is not None and f.phase in _RUN_PHASES:
            r = run(text, start)
            if r is not None:
                if f.phase != _KIDS:
                    where[0] = f.name_pos
                    b.open(f.name, f.static)
                    f.phase = _KIDS
                where[0] = start
                ints = list(map(int, r.group(1).split()))
                took = b.int_leaves(ints)
                if took == len(ints):
                    pos = r.end()
                    continue
                if took:  # the node limit falls inside the run: go on from there
                    pos = r.start(1) + run_offset(r.group(1), took)
                    continue
        tok = m.group(g)
        kind, value = _classify(g, tok, start)
        if f is None:
            v = _number(kind, value, tok, "value", start, _CHILD)
            b.leaf(v)
            done = True
            continue
        phase = f.phase
        if phase == _KIDS:
            if kind in (_INT, _FLOAT):
                b.leaf(_number(kind, value, tok, "value", start, _CHILD))
                continue
            if kind == _KEYWORD and tok == ":value":
                raise _Error(
                    "':value' must come right after the node's name, before its children", start
                )
            if kind == _DOT:
                raise _Error("unexpected '.': a named leaf is written (name . value)", start)
            raise _Error(f"{_CHILD}, got {_describe(kind, tok, value)}", start)
        if phase == _START:
            if kind in (_SYMBOL, _STRING):
                if f.top and kind == _SYMBOL and tok == "tree":
                    f.phase = _WRAP
                    continue
                f.name = value
                f.name_pos = start
                f.phase = _NAMED
                continue
            if kind == _DOT:
                raise _Error(
                    "'.' must follow a name: a named leaf is written (name . value)", start
                )
        if phase in (_START, _NAMED, _HAS_VALUE):
            if kind == _KEYWORD:
                if tok != ":value":
                    raise _Error(f"unknown keyword {shown(tok)}: a node takes only :value", start)
                if phase == _HAS_VALUE:
                    raise _Error("duplicate ':value'", start)
                f.phase = _VALUE_KW
                continue
            if kind == _DOT:
                if phase == _NAMED:
                    f.phase = _DOT_NEXT
                    continue
                raise _Error("unexpected '.': a named leaf is written (name . value)", start)
            v = _number(kind, value, tok, "value", start, _CHILD)
            where[0] = f.name_pos
            b.open(f.name, f.static)
            where[0] = start
            b.leaf(v)
            f.phase = _KIDS
            continue
        if phase == _VALUE_KW:
            f.static = _number(
                kind, value, tok, "static value", start, "':value' must be followed by a number"
            )
            f.phase = _HAS_VALUE
            continue
        if phase == _DOT_NEXT:
            v = _number(kind, value, tok, "value", start, "expected a number after '.'")
            where[0] = f.name_pos
            b.leaf(v, f.name)
            f.phase = _DOTTED
            continue
        if phase == _DOTTED:
            raise _Error(f"expected ')' to end the dotted pair, got {shown(tok)}", start)
        if phase == _WRAP:
            if kind == _KEYWORD:
                if tok not in _WRAPPER_KEYWORDS:
                    raise _Error(
                        f"unknown keyword {shown(tok)} in the document wrapper; "
                        "expected :root, :title, :description or :expect",
                        start,
                    )
                if tok in f.seen:
                    raise _Error(f"duplicate {tok!r}", start)
                f.seen.add(tok)
                f.kw = tok
                f.kw_pos = start
                f.phase = _WRAP_KW
                continue
            v = _number(
                kind,
                value,
                tok,
                "value",
                start,
                "expected a keyword (:root, :title, :description, :expect) or the tree",
            )
            if f.has_tree:
                raise _Error("the document wrapper holds more than one tree", start)
            f.has_tree = True
            b.leaf(v)
            continue
        # _WRAP_KW: the keyword's value
        kw = f.kw
        if kw == ":expect":
            meta.expect = _number(
                kind, value, tok, "expect", start, "':expect' must be followed by a number"
            )
            meta.expect_at = Locator(text)(f.kw_pos)
        elif kw == ":root":
            word = value if kind in (_SYMBOL, _STRING) else None
            if word not in ROOT_WORDS:
                raise _Error(
                    f"':root' must be followed by max or min, got {_describe(kind, tok, value)}",
                    start,
                )
            meta.root = word
        else:
            if kind not in (_SYMBOL, _STRING):
                raise _Error(
                    f"{kw!r} must be followed by a string, got {_describe(kind, tok, value)}", start
                )
            if kw == ":title":
                meta.title = value
            else:
                meta.description = value
        f.phase = _WRAP
    if frames:
        raise _Error(
            "unbalanced '(': the list is not closed before the end of the file", frames[-1].pos
        )
    if not done:
        raise _Error("the file holds no tree", end_pos(text))
    return root_max


def _expectation(f: _Frame) -> str:
    phase = f.phase
    if phase == _VALUE_KW:
        return "':value' must be followed by a number"
    if phase == _DOT_NEXT:
        return "expected a number after '.'"
    if phase == _DOTTED:
        return "expected ')' to end the dotted pair"
    if phase == _WRAP_KW:
        return f"{f.kw!r} must be followed by its value"
    return _CHILD


def parse(text: str, source: str = "<input>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """Read an s-expression tree file.

    Bare form: a number is a leaf, a list an internal node::

        ((3 12 8) (2 4 6) (14 5 2))

    Full form:

    * a symbol or a double-quoted string as the first item of a list is the
      node's name: ``(B 3 12 8)``, ``("node 1" 3 12 8)``;
    * ``:value N`` right after the (optional) name is the static value:
      ``(B :value 5 3 12 8)``, ``(:value 5 3 12 8)``;
    * a named leaf is a dotted pair ``(b1 . 3)``; ``(b1 :value 3)`` (a value and
      no children) is a leaf too;
    * the document wrapper is a top-level list whose first item is the symbol
      ``tree``, then keyword pairs (``:root max|min``, ``:title "..."``,
      ``:description "..."``, ``:expect N``) and exactly one node (so a root
      named ``tree`` must be wrapped);
    * ``;`` starts a comment that runs to the end of the line.

    For example::

        ; AIMA Figure 5.2
        (tree :root max :title "AIMA Figure 5.2" :expect 3
          (A (B (b1 . 3) (b2 . 12) (b3 . 8))
             (C :value 2 2 4 6)
             (14 5 2)))

    Atoms: numbers have JSON's syntax plus a leading ``+`` (an atom that starts
    like a number must be one); ``nan``, ``inf`` and ``infinity`` are not finite
    and refused; strings take the escapes ``\\\\ \\" \\n \\t \\r \\uXXXX
    \\UXXXXXXXX``; ``#t``, ``#f`` and ``nil`` are refused as values; a symbol is
    any other run of characters without blanks, parentheses, ``"`` or ``;``.
    """
    text = strip_bom(text)
    check_not_empty(text, source)
    locate = Locator(text)
    b = FormatBuilder(source, max_nodes)
    meta = Meta()
    where = [0]
    try:
        root_max = _run(text, b, meta, where)
        where[0] = end_pos(text)
        return b.finish(root_max=root_max, meta=meta)
    except _Error as e:
        line, column = locate(e.pos)
        raise TreeFormatError(e.message, source, line, column) from None
    except TreeFormatError as e:
        raise relocated(e, locate, where[0]) from None


# -- writer ---------------------------------------------------------------------------------
_SYMBOL_OK = re.compile(r"[^\s()\";0-9+\-.:#'`,\\|\[\]{}][^\s()\";\\]*\Z")
_QUOTE = re.compile('["\\\\]|[^\\x20-\\x7e\\xa0-\\ud7ff\\ue000-\\ufffd\\U00010000-\\U0010ffff]')
_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    named = _NAMED_ESCAPES.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def sexp_str(s: str) -> str:
    """A double-quoted string with escapes."""
    return '"' + _QUOTE.sub(_escape, s) + '"'


def sexp_name(s: str) -> str:
    """A name as a symbol when it reads back as one, else as a string."""
    if _SYMBOL_OK.match(s) and s != "nil" and not _NOT_FINITE.match(s) and s.isprintable():
        return s
    return sexp_str(s)


def _node(name: str | None, static: str | None) -> tuple[str, str]:
    head = "(" if name is None else f"({name} "
    if static is not None:
        head += f":value {static} "
    return head, ")"


SYNTAX = Syntax(
    style=Style(sep=" ", line_end="", lisp=True),
    number=format_stored,
    text=sexp_str,
    name=sexp_name,
    word=lambda w: w,
    leaf=lambda value, name: value if name is None else f"({name} . {value})",
    node=_node,
)


def dump(tree: Tree) -> str:
    """The tree as an s-expression document: bare when it can be, else the full form."""
    heads, tails = node_texts(tree, SYNTAX)
    fields = meta_fields(tree, SYNTAX)
    out: list[str] = []
    if not fields and tree.names.get(0) != "tree":
        layout(out, tree.end, heads, tails, SYNTAX.style)
    else:
        out.append("(tree")
        for key, text in fields:
            out.append(f"\n  :{key} {text}")
        out.append("\n  ")
        layout(out, tree.end, heads, tails, SYNTAX.style, column=2, indent=2)
        out.append(")")
    out.append("\n")
    return "".join(out)
