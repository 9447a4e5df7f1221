"""The shape rules of tree files, shared by the readers: Shape turns document events into a tree.

:class:`Shape` reads the full form of JSON and YAML from a stream of events
(a scalar, the start or end of a list or mapping, a YAML alias) and enforces
its rules; :func:`number_problem` is the one check of a value read from a
file, which the s-expression reader uses too; :class:`FormatBuilder` is the
TreeBuilder every reader feeds (gtsearch.formats.builders; names, the node
limit and empty lists are checked by gtsearch.builder).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..builder import weight_problem
from ..errors import TreeFormatError, clipped, shown
from ..numbers import MAX_EXACT_INT, too_large
from ..tree import Meta, Tree

Locate = Callable[[Any], "tuple[int | None, int | None]"]

NODE_KEYS = ("name", "value", "children", "chance", "weights")
#: the keys of a node, for messages
NODE_WORDS = "name, value, children, chance or weights"
DOC_KEYS = ("tree", "root", "title", "description", "expect")


#: the words that name the player at the root
ROOT_WORDS = ("max", "min")


def number_problem(value: Any, text: str, what: str = "value") -> str | None:
    """Why a scalar read from a file cannot be a value, or None when it can.

    ``value`` is the scalar as parsed (int, float, str, bool, None, ...),
    ``text`` as written: integers must lie within ±2**53, floats be finite,
    and anything else is not a number.
    """
    t = type(value)
    if t is int:
        return None if -MAX_EXACT_INT <= value <= MAX_EXACT_INT else too_large(text, what)
    if t is float:
        return None if math.isfinite(value) else f"{what} {shown(text)} is not a finite number"
    return not_a_number(value, text, what)


# Contexts on the shape's stack.  Plain classes with __slots__: one per open container.
class _Top:
    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = False


class _Seq:
    """A list of children; ``node`` is the internal node it fills."""

    __slots__ = ("node", "pos", "owner", "anchor")

    def __init__(self, node: int, pos: Any, owner: _Map | None, anchor: str | None) -> None:
        self.node = node
        self.pos = pos
        self.owner = owner
        self.anchor = anchor


class _Map:
    """A node written as a mapping (``top``: it may still turn out to be the wrapper)."""

    __slots__ = (
        "node",
        "pos",
        "top",
        "key",
        "key_pos",
        "seen",
        "name",
        "name_pos",
        "static",
        "has_children",
        "anchor",
        "weights",
        "weights_pos",
    )

    def __init__(self, pos: Any, top: bool, anchor: str | None) -> None:
        self.node: int | None = None
        self.pos = pos
        self.top = top
        self.key: str | None = None
        self.key_pos: Any = None
        self.seen: set[str] = set()
        self.name: str | None = None
        self.name_pos: Any = None
        self.static: int | float | None = None
        self.has_children = False
        self.anchor = anchor
        self.weights: list[Any] | None = None
        self.weights_pos: Any = None


class _Weights:
    """The list of a chance node's weights (``owner`` is the node's mapping)."""

    __slots__ = ("owner", "pos", "items", "anchor")

    def __init__(self, owner: _Map, pos: Any, anchor: str | None) -> None:
        self.owner = owner
        self.pos = pos
        self.items: list[Any] = []
        self.anchor = anchor


class _Wrap:
    """The document wrapper: metadata keys and ``tree``."""

    __slots__ = ("pos", "key", "key_pos", "seen")

    def __init__(self, pos: Any, seen: set[str]) -> None:
        self.pos = pos
        self.key: str | None = None
        self.key_pos: Any = None
        self.seen = seen


class Shape:
    """Reads the full form from a stream of events.

    A parser feeds :class:`Shape` one event at a time (a scalar, the start or end
    of a list or mapping, a YAML alias); the shape keeps an explicit stack of
    open containers, so nesting never recurses.  The rules it enforces:

    * a number is a leaf; a list is an unnamed internal node, its items the
      children in order;
    * a mapping is a node with the keys ``name``, ``value`` and ``children``:
      with ``children`` (a non-empty list) it is an internal node whose
      ``value`` is its static value (optional); without it, a leaf whose
      ``value`` is required;
    * a mapping with ``chance`` (a non-empty list) instead of ``children`` is
      a chance node whose items are its outcomes, with optional ``weights``
      (a list of numbers, one per outcome, before or after ``chance``),
      ``name`` and ``value``;
    * a top-level mapping whose first key is ``tree``, ``root``, ``title``,
      ``description`` or ``expect`` is the document wrapper; ``tree`` holds the
      root node.

    Positions are opaque to the shape: each parser passes its own (a character
    offset, a YAML mark) and a ``locate`` function that turns one into a 1-based
    (line, column) pair, called only when something goes wrong.

    ``text_names``: YAML reads ``name``, ``title`` and ``description`` as the
    text of the scalar whatever it looks like (``name: 1`` is "1"); JSON
    wants strings there.  ``words`` names a list and a mapping in messages.
    ``top_node``: the document is a node, never the wrapper (the value of a
    wrapper's ``tree`` read on its own).
    """

    def __init__(
        self,
        builder: Any,
        locate: Locate,
        *,
        text_names: bool,
        words: tuple[str, str] = ("a list", "a mapping"),
        top_node: bool = False,
    ) -> None:
        self.b = builder
        self.top_node = top_node
        self.locate = locate
        self.text_names = text_names
        self.list_word, self.map_word = words
        self.stack: list[Any] = [_Top()]
        self.meta = Meta()
        self.root_max = True
        #: where a builder error that carries no place of its own happened
        self.errpos: Any = None
        self.anchors: dict[str, tuple[Any, ...]] = {}

    # -- errors -------------------------------------------------------------------
    def fail(self, message: str, pos: Any) -> TreeFormatError:
        line, column = self.locate(pos)
        return TreeFormatError(message, self.b.source, line, column)

    def number(self, value: Any, text: str, what: str, pos: Any) -> int | float:
        """Check a scalar that must be a number; return it."""
        problem = number_problem(value, text, what)
        if problem is not None:
            raise self.fail(problem, pos)
        return value  # type: ignore[no-any-return]

    def in_list(self) -> bool:
        """Whether the next value is an item of a list of children."""
        return self.stack[-1].__class__ is _Seq

    def expects_tree(self) -> bool:
        """Whether the next value is the document wrapper's ``tree``."""
        ctx = self.stack[-1]
        return ctx.__class__ is _Wrap and ctx.key == "tree"

    @property
    def done(self) -> bool:
        top = self.stack[0]
        return len(self.stack) == 1 and top.done

    # -- where the next value goes --------------------------------------------------
    def _node_slot(self) -> bool:
        """Whether the next value is a node (else a key or a field's value)."""
        ctx = self.stack[-1]
        cls = ctx.__class__
        if cls is _Seq:
            return True
        if cls is _Top:
            if ctx.done:
                raise AssertionError("a value after the end of the document")
            return True
        if cls is _Wrap:
            return bool(ctx.key == "tree")
        return False

    def skip_node(self) -> None:
        """The node expected now was read by someone else (a flow tree inside a block wrapper)."""
        self._node_done()

    def _node_done(self) -> None:
        """A node finished in the current context."""
        ctx = self.stack[-1]
        cls = ctx.__class__
        if cls is _Top:
            ctx.done = True
        elif cls is _Wrap:
            ctx.key = None

    # -- events -------------------------------------------------------------------------
    def scalar(self, value: Any, text: str, pos: Any, anchor: str | None = None) -> None:
        """A number, string, boolean or null; ``text`` is the scalar as written."""
        if anchor is not None:
            self.anchors[anchor] = ("scalar", value, text)
        ctx = self.stack[-1]
        cls = ctx.__class__
        if cls is _Seq:
            v = self.number(value, text, "value", pos)
            self.errpos = pos
            self.b.leaf(v)
            return
        if cls is _Weights:
            w = self.number(value, text, "weight", pos)
            if w < 0:
                raise self.fail(
                    f"weight {clipped(text)} is negative: weights are non-negative numbers", pos
                )
            ctx.items.append(w)
            return
        if cls is _Top or (cls is _Wrap and ctx.key == "tree"):
            v = self.number(value, text, "value", pos)
            self.errpos = pos
            self.b.leaf(v)
            self._node_done()
            return
        # a key, or the value of a key
        if ctx.key is None:
            self._key(ctx, self._key_text(value, text, pos), pos)
            return
        key = ctx.key
        ctx.key = None
        if cls is _Map:
            self._map_field(ctx, key, value, text, pos)
        else:
            self._doc_field(key, value, text, pos, ctx.key_pos)

    def _key_text(self, value: Any, text: str, pos: Any) -> str:
        if self.text_names:
            return text
        if isinstance(value, str):
            return value
        raise self.fail(f"expected a key, got {shown(text)}", pos)

    def _text(self, what: str, value: Any, text: str, pos: Any) -> str:
        """A field that holds text: name, title, description."""
        if self.text_names:
            return text
        if isinstance(value, str):
            return value
        raise self.fail(f"{what} {clipped(text)} is not a string", pos)

    def _key(self, ctx: Any, key: str, pos: Any) -> None:
        if ctx.__class__ is _Map and ctx.top and not ctx.seen:
            # The first key of a top-level mapping says whether it is the wrapper.
            if key in DOC_KEYS:
                ctx = _Wrap(ctx.pos, set())
                self.stack[-1] = ctx
            elif key not in NODE_KEYS:
                raise self.fail(
                    f"unknown key {shown(key)}; expected {NODE_WORDS} (a node) "
                    "or tree, root, title, description or expect (the document)",
                    pos,
                )
        if ctx.__class__ is _Map:
            if key not in NODE_KEYS:
                raise self.fail(f"unknown key {shown(key)} in a node; expected {NODE_WORDS}", pos)
            if key in ("children", "chance") and ({"children", "chance"} - {key}) & ctx.seen:
                raise self.fail(
                    "a node has children or chance (a chance node's outcomes), not both", pos
                )
        elif key not in DOC_KEYS:
            raise self.fail(
                f"unknown key {shown(key)} in the document; "
                "expected tree, root, title, description or expect",
                pos,
            )
        if key in ctx.seen:
            raise self.fail(f"duplicate key {key!r}", pos)
        ctx.seen.add(key)
        ctx.key = key
        ctx.key_pos = pos

    def _map_field(self, ctx: _Map, key: str, value: Any, text: str, pos: Any) -> None:
        if key == "name":
            name = self._text("name", value, text, pos)
            if ctx.node is not None:
                self.errpos = pos
                self.b.label(ctx.node, name=name)
            ctx.name, ctx.name_pos = name, pos
        elif key == "value":
            v = self.number(value, text, "value", pos)
            if ctx.node is not None:
                self.errpos = pos
                self.b.label(ctx.node, static=v)
            ctx.static = v
        else:  # children, chance, weights
            got = (
                shown(value)
                if isinstance(value, str)
                else shown(text)
                if text
                else "nothing (null)"
            )
            raise self.fail(f"{key} must be {_LIST_OF[key]}, got {got}", pos)

    def _doc_field(self, key: str, value: Any, text: str, pos: Any, key_pos: Any) -> None:
        if key == "root":
            word = text if self.text_names else value
            if word not in ROOT_WORDS:
                got = shown(value) if isinstance(value, str) else shown(text)
                raise self.fail(f"root must be 'max' or 'min', got {got}", pos)
            self.meta.root = word
            self.root_max = word == "max"
        elif key == "expect":
            self.meta.expect = self.number(value, text, "expect", pos)
            line, column = self.locate(key_pos)
            if line is not None and column is not None:
                self.meta.expect_at = (line, column)
        elif key == "title":
            self.meta.title = self._text("title", value, text, pos)
        else:
            self.meta.description = self._text("description", value, text, pos)

    def _field_not_scalar(self, ctx: Any, word: str, pos: Any) -> TreeFormatError:
        key = ctx.key
        text = "text" if self.text_names else "a string"
        if key == "name":
            return self.fail(f"name must be {text}, got {word}", pos)
        if key in ("value", "expect"):
            return self.fail(f"{key} must be a number, got {word}", pos)
        if key in _LIST_OF:
            return self.fail(f"{key} must be {_LIST_OF[key]}, got {word}", pos)
        if key == "root":
            return self.fail(f"root must be 'max' or 'min', got {word}", pos)
        if key is None:
            return self.fail(f"a key must be {text}, got {word}", pos)
        return self.fail(f"{key} must be {text}, got {word}", pos)

    def seq_start(self, pos: Any, anchor: str | None = None) -> None:
        ctx = self.stack[-1]
        cls = ctx.__class__
        if anchor is not None:
            self.anchors[anchor] = ("pending",)
        if self._node_slot():
            self.errpos = pos
            n = self.b.open()
            self.stack.append(_Seq(n, pos, None, anchor))
            return
        if cls is _Map and ctx.key in ("children", "chance"):  # the node opens with its list
            self.errpos = ctx.name_pos if ctx.name is not None else pos
            if ctx.key == "children":
                n = self.b.open(ctx.name, ctx.static)
            else:
                n = self.b.open_chance(ctx.name, ctx.static)
                if ctx.weights is not None:
                    self.errpos = ctx.weights_pos
                    self.b.set_weights(n, ctx.weights)
            ctx.node = n
            self.stack.append(_Seq(n, pos, ctx, anchor))
            return
        if cls is _Map and ctx.key == "weights":
            self.stack.append(_Weights(ctx, pos, anchor))
            return
        if cls is _Weights:
            raise self.fail(f"a weight must be a number, got {self.list_word}", pos)
        raise self._field_not_scalar(ctx, self.list_word, pos)

    def node_head(
        self, name: str, static: int | float | None, pos: Any, name_pos: Any, seq_pos: Any
    ) -> None:
        """``{name: ..., [value: ...,] children: [`` read at once in a list (a fast path).

        ``static`` is a number already checked.
        """
        ctx = _Map(pos, False, None)
        ctx.seen = {"name", "children"} if static is None else {"name", "value", "children"}
        ctx.name, ctx.name_pos, ctx.static, ctx.key = name, name_pos, static, "children"
        self.stack.append(ctx)
        self.errpos = name_pos
        ctx.node = n = self.b.open(name, static)
        self.stack.append(_Seq(n, seq_pos, ctx, None))

    def seq_end(self, pos: Any) -> None:
        ctx = self.stack.pop()
        if ctx.__class__ is _Weights:
            self._weights(ctx.owner, ctx.items, ctx.pos)
            if ctx.anchor is not None:
                self.anchors[ctx.anchor] = ("weights", tuple(ctx.items))
            return
        if ctx.__class__ is not _Seq:
            raise AssertionError("seq_end without seq_start")
        owner = ctx.owner
        self.errpos = owner.weights_pos if owner is not None and owner.weights else ctx.pos
        self.b.close()
        if owner is None:
            if ctx.anchor is not None:
                self.anchors[ctx.anchor] = ("seq", ctx.node, self.b.size)
            self._node_done()
        else:
            if ctx.anchor is not None:
                self.anchors[ctx.anchor] = ("children", ctx.node + 1, self.b.size)
            owner.key = None
            owner.has_children = True

    def _weights(self, owner: _Map, items: list[Any], pos: Any) -> None:
        """A node's weights, read: checked now, and given to the node if it is open already."""
        owner.key = None
        owner.weights = items
        owner.weights_pos = pos
        if owner.node is not None:
            self.errpos = pos
            self.b.set_weights(owner.node, items)
        else:
            problem = weight_problem(items)
            if problem is not None:
                raise self.fail(problem, pos)

    def map_start(self, pos: Any, anchor: str | None = None) -> None:
        ctx = self.stack[-1]
        if anchor is not None:
            self.anchors[anchor] = ("pending",)
        if self._node_slot():
            self.stack.append(_Map(pos, ctx.__class__ is _Top and not self.top_node, anchor))
            return
        if ctx.__class__ is _Weights:
            raise self.fail(f"a weight must be a number, got {self.map_word}", pos)
        raise self._field_not_scalar(ctx, self.map_word, pos)

    def map_end(self, pos: Any) -> None:
        ctx = self.stack.pop()
        if ctx.__class__ is _Wrap:
            if "tree" not in ctx.seen:
                raise self.fail("the document has no 'tree' key", ctx.pos)
            self._node_done()
            return
        if ctx.__class__ is not _Map:
            raise AssertionError("map_end without map_start")
        if "weights" in ctx.seen and "chance" not in ctx.seen:
            raise self.fail(
                "weights without chance: only a chance node (chance: [...]) has weights",
                ctx.weights_pos if ctx.weights_pos is not None else ctx.pos,
            )
        if ctx.has_children:
            n = ctx.node
        else:
            if "value" not in ctx.seen:
                what = f"node {shown(ctx.name)}" if ctx.name is not None else "a node"
                raise self.fail(f"{what} has neither children nor a value", ctx.pos)
            self.errpos = ctx.name_pos if ctx.name is not None else ctx.pos
            n = self.b.leaf(ctx.static, ctx.name)
        if ctx.anchor is not None:
            self.anchors[ctx.anchor] = ("node", n, self.b.size)
        self._node_done()

    def alias(self, anchor: str, pos: Any) -> None:
        """A YAML alias: repeat what the anchor marked."""
        target = self.anchors.get(anchor)
        anchor = clipped(anchor)  # for messages
        if target is None:
            raise self.fail(f"alias '*{anchor}' has no anchor '&{anchor}' before it", pos)
        kind = target[0]
        if kind == "scalar":
            self.scalar(target[1], target[2], pos)
            return
        if kind == "pending":
            raise self.fail(f"alias '*{anchor}' refers to a node that contains it", pos)
        ctx = self.stack[-1]
        if ctx.__class__ is _Map and ctx.key == "weights":
            if kind != "weights":
                raise self.fail(
                    f"weights must be a list of numbers, got the alias '*{anchor}' of a node", pos
                )
            self._weights(ctx, list(target[1]), pos)
            return
        if kind == "weights" or ctx.__class__ is _Weights:
            raise self.fail(f"alias '*{anchor}' of weights stands only for a node's weights", pos)
        self.errpos = pos
        if self._node_slot():
            if kind == "children":
                self.b.open()
                self.b.copy_range(target[1], target[2])
                self.b.close()
            else:
                self.b.copy_range(target[1], target[2])
            self._node_done()
            return
        if ctx.__class__ is _Map and ctx.key in ("children", "chance"):
            if kind == "children":
                start = target[1]
            elif kind == "seq":
                start = target[1] + 1
            else:
                raise self.fail(
                    f"{ctx.key} must be a non-empty list, got the alias '*{anchor}' "
                    f"of {self.map_word}",
                    pos,
                )
            self.errpos = ctx.name_pos if ctx.name is not None else pos
            if ctx.key == "chance":
                n = self.b.open_chance(ctx.name, ctx.static)
                if ctx.weights is not None:
                    self.errpos = ctx.weights_pos
                    self.b.set_weights(n, ctx.weights)
            else:
                n = self.b.open(ctx.name, ctx.static)
            ctx.node = n
            self.errpos = pos
            self.b.copy_range(start, target[2])
            self.b.close()
            ctx.key = None
            ctx.has_children = True
            return
        word = self.list_word if kind in ("seq", "children") else self.map_word
        raise self._field_not_scalar(ctx, f"the alias '*{anchor}' of {word}", pos)

    def finish(self, end_pos: Any) -> Tree:
        if not self.done:
            raise self.fail("unexpected end of input", end_pos)
        self.errpos = end_pos
        return self.b.finish(root_max=self.root_max, meta=self.meta)  # type: ignore[no-any-return]


#: what the list-valued keys of a node hold, for messages
_LIST_OF = {
    "children": "a non-empty list",
    "chance": "a non-empty list (the outcomes)",
    "weights": "a list of numbers",
}


def not_a_number(value: Any, text: str, what: str = "value") -> str:
    """The message for a scalar that is not a number (value as parsed, text as written)."""
    if value is True or value is False:
        return f"{what} {text!r} is a boolean, expected a number"
    if value is None:
        if text == "":
            return f"{what} is empty (null), expected a number"
        return f"{what} {text!r} is null, expected a number"
    if isinstance(value, str):
        return f"{what} {shown(value)} is a string, expected a number"
    if isinstance(value, (int, float)):
        return f"{what} {shown(text)} is not a finite number"
    kind = getattr(value, "kind", None) or type(value).__name__
    return f"{what} {shown(text)} is {kind}, expected a number"
