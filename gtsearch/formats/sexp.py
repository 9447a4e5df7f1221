"""S-expression tree files: a regex tokenizer with an explicit stack, and the writer."""

from __future__ import annotations

from ..builder import weight_problem
from ..errors import clipped
from ..numbers import format_stored
from ..tree import DEFAULT_MAX_NODES, Meta, Tree
from .builders import FormatBuilder
from .sexp_atoms import (
    DOT,
    FLOAT,
    INT,
    KEYWORD,
    NOT_FINITE,
    PAIR,
    RUN,
    STRING,
    SYMBOL,
    TOKEN,
    atom_number,
    classify,
    describe,
    sexp_name,
    sexp_str,
)
from .shape import DOC_KEYS, ROOT_WORDS
from .tokens import Locator, OffsetError, document_text, end_pos, placed_errors, read_run, shown
from .writer import Style, Syntax, Wrapper, write_document

NAME = "sexp"
EXTENSIONS = (".sexp", ".lisp", ".scm", ".sx")

#: the document wrapper's keywords: the wrapper keys of every format but the tree itself
_WRAPPER_KEYWORDS = tuple(f":{key}" for key in DOC_KEYS if key != "tree")


# frame phases
_START, _NAMED, _VALUE_KW, _HAS_VALUE, _DOT_NEXT, _DOTTED, _KIDS, _WRAP, _WRAP_KW = range(9)
# a chance node's head (after :chance), after :weights, and the list of weights itself
_CHANCE, _WEIGHTS_KW, _WEIGHTS = range(9, 12)


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
        "chance",
        "weights",
        "weights_pos",
        "has_value",
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
        self.chance = False
        self.weights: list[int | float] | None = None
        self.weights_pos = pos
        self.has_value = False


_CHILD = "expected a number or a list"
_RUN_PHASES = (_KIDS, _START, _NAMED, _HAS_VALUE, _CHANCE)
_HEAD_PHASES = (_START, _NAMED, _HAS_VALUE, _CHANCE)


def _open(b: FormatBuilder, f: _Frame, where: list[int]) -> None:
    """Open the node whose head ``f`` has read (a chance node after ``:chance``)."""
    where[0] = f.name_pos
    if f.chance:
        b.open_chance(f.name, f.static)
        if f.weights is not None:
            where[0] = f.weights_pos
            b.set_weights(b.size - 1, f.weights)
    else:
        b.open(f.name, f.static)
    f.phase = _KIDS


def _keyword(f: _Frame, tok: str, start: int) -> None:
    """A keyword in a node's head: ``:value``, and for a chance node ``:chance`` and ``:weights``."""
    phase = f.phase
    if tok == ":chance":
        if f.chance:
            raise OffsetError("duplicate ':chance'", start)
        if phase == _HAS_VALUE:
            raise OffsetError(
                "':chance' must come right after the node's name, before ':value'", start
            )
        f.chance = True
        f.phase = _CHANCE
    elif tok == ":weights":
        if not f.chance:
            raise OffsetError(
                "':weights' without ':chance': only a chance node has weights, "
                "written (name :chance :weights (1 3) ...)",
                start,
            )
        if f.weights is not None:
            raise OffsetError("duplicate ':weights'", start)
        f.phase = _WEIGHTS_KW
    elif tok == ":value":
        if f.has_value:
            raise OffsetError("duplicate ':value'", start)
        f.phase = _VALUE_KW
    else:
        takes = ":value and :weights" if f.chance else ":value and :chance"
        raise OffsetError(f"unknown keyword {shown(tok)}: a node takes only {takes}", start)


def _run(text: str, b: FormatBuilder, meta: Meta, where: list[int]) -> bool:
    """Read the document into ``b``; return whether the root is MAX.

    ``where[0]`` is kept at the token being read, for builder errors.
    """
    match = TOKEN.match
    run = RUN.match
    pair = PAIR.match
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
            raise OffsetError("unterminated string", start)
        if done:
            if g == 2:
                raise OffsetError("unbalanced ')'", start)
            raise OffsetError(
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
            elif phase in _HEAD_PHASES:
                _open(b, f, where)
            elif phase == _WEIGHTS_KW:
                weights = _Frame(start, False)
                weights.phase = _WEIGHTS
                weights.weights = []
                frames.append(weights)
                continue
            elif phase == _WEIGHTS:
                raise OffsetError("a weight must be a number, got '('", start)
            elif phase == _WRAP:
                if f.has_tree:
                    raise OffsetError("the document wrapper holds more than one tree", start)
                f.has_tree = True
            else:
                raise OffsetError(_expectation(f) + ", got '('", start)
            if phase != _WRAP:
                r = pair(text, start)
                if r is not None:
                    name = r.group(1)
                    if name is None:
                        name = r.group(2)
                        if name == "nil" or NOT_FINITE.match(name):
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
                raise OffsetError("unbalanced ')'", start)
            phase = f.phase
            if phase == _KIDS:
                where[0] = f.weights_pos if f.weights else f.pos
                b.close()
            elif phase == _WEIGHTS:
                frames.pop()
                owner = frames[-1]
                problem = weight_problem(f.weights)
                if problem is not None:
                    raise OffsetError(problem, f.pos)
                owner.weights, owner.weights_pos = f.weights, f.pos
                owner.phase = _CHANCE
                continue
            elif phase == _CHANCE:
                raise OffsetError(
                    "empty chance list: a chance node needs at least one outcome", f.pos
                )
            elif phase == _HAS_VALUE:
                where[0] = f.name_pos
                b.leaf(f.static, f.name)
            elif phase == _DOTTED:
                pass
            elif phase in (_START, _NAMED):
                what = "a node" if f.name is None else f"node {shown(f.name)}"
                raise OffsetError(f"empty list: {what} needs at least one child or a :value", f.pos)
            elif phase == _WRAP:
                if not f.has_tree:
                    raise OffsetError("the document wrapper holds no tree", f.pos)
                root_max = meta.root != "min"
            else:
                raise OffsetError(_expectation(f) + ", got ')'", start)
            frames.pop()
            if not frames:
                done = True
            continue
        if g == 3 and f is not None and f.phase in _RUN_PHASES:
            r = run(text, start)
            if r is not None:
                if f.phase != _KIDS:
                    _open(b, f, where)
                where[0] = start
                went = read_run(r, b.int_leaves, None)
                if went is not None:  # the whole run, or up to the node limit
                    pos = went[0]
                    continue
        tok = m.group(g)
        kind, value = classify(g, tok, start)
        if f is None:
            v = atom_number(kind, value, tok, "value", start, _CHILD)
            b.leaf(v)
            done = True
            continue
        phase = f.phase
        if phase == _KIDS:
            if kind in (INT, FLOAT):
                b.leaf(atom_number(kind, value, tok, "value", start, _CHILD))
                continue
            if kind == KEYWORD and tok in (":value", ":chance", ":weights"):
                raise OffsetError(
                    f"{tok!r} must come right after the node's name, before its children", start
                )
            if kind == DOT:
                raise OffsetError("unexpected '.': a named leaf is written (name . value)", start)
            raise OffsetError(f"{_CHILD}, got {describe(kind, tok, value)}", start)
        if phase == _START:
            if kind in (SYMBOL, STRING):
                if f.top and kind == SYMBOL and tok == "tree":
                    f.phase = _WRAP
                    continue
                f.name = value
                f.name_pos = start
                f.phase = _NAMED
                continue
            if kind == DOT:
                raise OffsetError(
                    "'.' must follow a name: a named leaf is written (name . value)", start
                )
        if phase == _WEIGHTS:
            w = atom_number(kind, value, tok, "weight", start, "a weight must be a number")
            if w < 0:
                raise OffsetError(
                    f"weight {clipped(tok)} is negative: weights are non-negative numbers", start
                )
            assert f.weights is not None
            f.weights.append(w)
            continue
        if phase == _WEIGHTS_KW:
            raise OffsetError(
                "':weights' must be followed by a list of numbers, got "
                + describe(kind, tok, value),
                start,
            )
        if phase in _HEAD_PHASES:
            if kind == KEYWORD:
                _keyword(f, tok, start)
                continue
            if kind == DOT:
                if phase == _NAMED:
                    f.phase = _DOT_NEXT
                    continue
                raise OffsetError("unexpected '.': a named leaf is written (name . value)", start)
            v = atom_number(kind, value, tok, "value", start, _CHILD)
            _open(b, f, where)
            where[0] = start
            b.leaf(v)
            continue
        if phase == _VALUE_KW:
            f.static = atom_number(
                kind, value, tok, "static value", start, "':value' must be followed by a number"
            )
            f.has_value = True
            f.phase = _CHANCE if f.chance else _HAS_VALUE
            continue
        if phase == _DOT_NEXT:
            v = atom_number(kind, value, tok, "value", start, "expected a number after '.'")
            where[0] = f.name_pos
            b.leaf(v, f.name)
            f.phase = _DOTTED
            continue
        if phase == _DOTTED:
            raise OffsetError(f"expected ')' to end the dotted pair, got {shown(tok)}", start)
        if phase == _WRAP:
            if kind == KEYWORD:
                if tok not in _WRAPPER_KEYWORDS:
                    raise OffsetError(
                        f"unknown keyword {shown(tok)} in the document wrapper; "
                        "expected :root, :title, :description or :expect",
                        start,
                    )
                if tok in f.seen:
                    raise OffsetError(f"duplicate {tok!r}", start)
                f.seen.add(tok)
                f.kw = tok
                f.kw_pos = start
                f.phase = _WRAP_KW
                continue
            v = atom_number(
                kind,
                value,
                tok,
                "value",
                start,
                "expected a keyword (:root, :title, :description, :expect) or the tree",
            )
            if f.has_tree:
                raise OffsetError("the document wrapper holds more than one tree", start)
            f.has_tree = True
            b.leaf(v)
            continue
        # _WRAP_KW: the keyword's value
        kw = f.kw
        if kw == ":expect":
            meta.expect = atom_number(
                kind, value, tok, "expect", start, "':expect' must be followed by a number"
            )
            meta.expect_at = Locator(text)(f.kw_pos)
        elif kw == ":root":
            word = value if kind in (SYMBOL, STRING) else None
            if word not in ROOT_WORDS:
                raise OffsetError(
                    f"':root' must be followed by max or min, got {describe(kind, tok, value)}",
                    start,
                )
            meta.root = word
        else:
            if kind not in (SYMBOL, STRING):
                raise OffsetError(
                    f"{kw!r} must be followed by a string, got {describe(kind, tok, value)}", start
                )
            if kw == ":title":
                meta.title = value
            else:
                meta.description = value
        f.phase = _WRAP
    if frames:
        raise OffsetError(
            "unbalanced '(': the list is not closed before the end of the file", frames[-1].pos
        )
    if not done:
        raise OffsetError("the file holds no tree", end_pos(text))
    return root_max


def _expectation(f: _Frame) -> str:
    phase = f.phase
    if phase == _VALUE_KW:
        return "':value' must be followed by a number"
    if phase == _WEIGHTS_KW:
        return "':weights' must be followed by a list of numbers"
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
    text = document_text(text, source)
    locate = Locator(text)
    b = FormatBuilder(source, max_nodes)
    meta = Meta()
    where = [0]
    with placed_errors(locate, source, lambda: where[0]):
        root_max = _run(text, b, meta, where)
        where[0] = end_pos(text)
        return b.finish(root_max=root_max, meta=meta)


# -- writer ---------------------------------------------------------------------------------
def _node(name: str | None, static: str | None) -> tuple[str, str]:
    head = "(" if name is None else f"({name} "
    if static is not None:
        head += f":value {static} "
    return head, ")"


def _chance(name: str | None, static: str | None, weights: list[str] | None) -> tuple[str, str]:
    head = "(:chance " if name is None else f"({name} :chance "
    if weights is not None:
        head += f":weights ({' '.join(weights)}) "
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
    chance=_chance,
)


#: ``(tree :title ... TREE)``
WRAPPER = Wrapper("(tree", "\n  :{key} {text}", "\n  ", 2, ")")


def dump(tree: Tree) -> str:
    """The tree as an s-expression document: bare when it can be, else the full form (a root
    named ``tree`` is always wrapped, or it would read as the wrapper)."""
    return write_document(tree, SYNTAX, WRAPPER, wrap=tree.names.get(0) == "tree")
