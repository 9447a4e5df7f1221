"""``game:`` specs: which game, with which parameters (docs/sources.md, "Games").

``game:NAME[:KEY=VALUE,...]`` names a built-in game (:mod:`.builtin_games`)
with its parameters, each declared once (:class:`Param`: its type, default,
range and help, which ``gtsearch games`` lists); ``game:MODULE:ATTRIBUTE[:KEY=
VALUE,...]`` a game of the user's, its class instantiated with the parameters
as keyword arguments (read by the type of each one's default or annotation);
``game:openspiel:NAME(PARAMS)`` one of OpenSpiel's games (:mod:`.openspiel`).
Every error about a spec is one line that starts with the spec as typed, as
for ``random:`` sources.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import UsageError
from ..tree import DEFAULT_MAX_NODES
from .protocol import Game, caught, said

if TYPE_CHECKING:
    from .games import GameTree

_BOOLS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


class Param(NamedTuple):
    """A parameter of a built-in game: ``kind`` int or bool, an int's range lo..hi."""

    name: str
    kind: type
    default: Any
    help: str
    lo: int | None = None
    hi: int | None = None

    def describe(self) -> str:
        """What the parameter takes, for messages and ``gtsearch games``."""
        if self.kind is bool:
            return "true or false"
        if self.lo is not None and self.hi is not None:
            return f"an integer from {self.lo} to {self.hi}"
        return "an integer" if self.lo is None else f"an integer of at least {self.lo}"

    def read(self, text: str) -> Any:
        """The value ``text`` gives the parameter; ValueError saying why it cannot."""
        if self.kind is bool:
            if text.lower() not in _BOOLS:
                raise ValueError(
                    f"bad value {self.name}={text!r} ({self.name} is {self.describe()})"
                )
            return _BOOLS[text.lower()]
        try:
            value = int(text)
        except ValueError:
            raise ValueError(
                f"bad number {self.name}={text!r} ({self.name} is {self.describe()})"
            ) from None
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(f"{self.name} must be {self.describe()}, got {value}")
        return value


def key_values(text: str, keys: tuple[str, ...]) -> dict[str, str]:
    """``KEY=VALUE,...`` as a mapping, each KEY one of ``keys`` and given once; ValueError."""
    given: dict[str, str] = {}
    if not text:
        return given
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not keys:
            raise ValueError(f"the game takes no parameters, got {text!r}")
        if not sep or key not in keys:
            raise ValueError(f"{item!r} is not KEY=VALUE with KEY one of {', '.join(keys)}")
        if key in given:
            raise ValueError(f"{key} is given twice")
        given[key] = value.strip()
    return given


def builtin_arguments(
    params: tuple[Param, ...], text: str, positional: str | None
) -> dict[str, Any]:
    """The keyword arguments a built-in game's spec text gives (defaults filled in)."""
    if positional is not None and text and "=" not in text:
        text = f"{positional}={text}"  # game:nim:6 is game:nim:heap=6
    by_name = {p.name: p for p in params}
    given = key_values(text, tuple(by_name))
    return {p.name: p.read(given[p.name]) if p.name in given else p.default for p in params}


def _user_value(name: str, text: str, like: Any) -> Any:
    """A user's game's parameter read as the type of its default or annotation says."""
    kind = like if isinstance(like, type) else type(like)
    if kind is bool:
        if text.lower() not in _BOOLS:
            raise ValueError(f"bad value {name}={text!r} ({name} is true or false)")
        return _BOOLS[text.lower()]
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise ValueError(f"bad number {name}={text!r} ({name} is {what})") from None
    if kind is str:
        return text
    for read in (int, float):  # no default and no annotation to say: what the text looks like
        try:
            return read(text)
        except ValueError:
            pass
    return _BOOLS.get(text.lower(), text)


def user_arguments(cls: type, text: str) -> dict[str, Any]:
    """The keyword arguments of a user's game class that ``KEY=VALUE,...`` gives."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # a class whose signature Python cannot tell
        signature = inspect.Signature()
    named = {
        name: p
        for name, p in signature.parameters.items()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    given = key_values(text, tuple(named))
    out = {}
    for name, value in given.items():
        p = named[name]
        if p.default is not p.empty:
            like = p.default  # a str default is a str, even "51"
        elif isinstance(p.annotation, str):  # under `from __future__ import annotations`
            like = {"int": int, "float": float, "bool": bool, "str": str}.get(p.annotation, p.empty)
        else:
            like = p.annotation
        out[name] = _user_value(name, value, like)
    return out


def import_attribute(module_name: str, attr: str, where: str) -> Any:
    """``MODULE.ATTRIBUTE`` of the user's (None when the module has no such attribute),
    imported from the current folder because the command line names it; what the module
    raises as it is imported, or its ``__getattr__``, is one error starting with ``where``."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"{where}: cannot import module {module_name!r}{said(e)}") from None
    except BaseException as e:  # the user's module, as it is imported (sys.exit() included)
        raise caught(e, f"{where}: importing {module_name} raised") from None
    try:  # a module's __getattr__ is the user's code
        return getattr(module, attr, None)
    except BaseException as e:
        raise caught(e, f"{where}: {module_name}.{attr} raised") from None


def _import_user_game(spec: str, module_name: str, attr: str, text: str) -> Any:
    obj = import_attribute(module_name, attr, f"game:{spec}")
    try:  # isinstance reads __class__, which an object of the user's may compute
        is_class = isinstance(obj, type)
    except BaseException as e:
        raise caught(e, f"game:{spec}: {module_name}.{attr} raised") from None
    if obj is None:
        raise UsageError(f"game:{spec}: module {module_name} has no attribute {attr!r}")
    if not is_class:
        if text:
            raise UsageError(
                f"game:{spec}: {module_name}.{attr} is an object, not a class: it takes no "
                "parameters"
            )
        return obj
    try:
        kwargs = user_arguments(obj, text)
    except ValueError as e:
        raise UsageError(f"game:{spec}: {e}") from None
    except BaseException as e:  # the class's signature, as its metaclass tells it
        raise caught(e, f"game:{spec}: reading the parameters of {attr} raised") from None
    try:
        return obj(**kwargs)
    except BaseException as e:  # the user's constructor
        raise caught(e, f"game:{spec}: {attr}() raised") from None


def load_game(spec: str) -> tuple[Any, str]:
    """The game object a spec (the text after ``game:``) names, and its display name."""
    from .builtin_games import find_game

    name, _, rest = spec.partition(":")
    if name == "openspiel":
        from .openspiel import OpenSpielGame

        return OpenSpielGame.load(rest, f"game:{spec}"), f"game:{spec}"
    found = find_game(name)
    if found is not None:
        try:
            kwargs = builtin_arguments(found.params, rest, found.positional)
            return found.make(**kwargs), f"game:{spec}"
        except ValueError as e:
            raise UsageError(f"game:{spec}: {e}") from None
    if not rest:
        from .builtin_games import GAMES

        raise UsageError(
            f"game:{spec}: no such built-in game ({', '.join(g.name for g in GAMES)}); "
            "a game of yours is game:MODULE:ATTRIBUTE, one of OpenSpiel's "
            "game:openspiel:NAME(PARAMS)"
        )
    attr, _, text = rest.partition(":")
    return _import_user_game(spec, name, attr, text), f"game:{spec}"


class SpecIdentity(NamedTuple):
    """Which game a spec names, read without importing anything: ``kind`` is ``"builtin"``,
    ``"openspiel"`` or ``"user"``; ``name`` the built-in game, OpenSpiel's game text or the
    user's ``MODULE:ATTRIBUTE``; ``params`` the parameters (a built-in game's every one, its
    default filled in; a user's game's ``KEY=VALUE`` pairs as written)."""

    kind: str
    name: str
    params: tuple[tuple[str, Any], ...]


def spec_identity(spec: str) -> SpecIdentity:
    """The game ``spec`` names (``game:`` optional), so that two specs of the same game compare
    equal (``nim:6`` and ``game:nim:heap=6``); no module is imported and no game built.
    A built-in game's parameters out of range are a ValueError; a user's game is known only
    by its text."""
    from .builtin_games import find_game

    name, _, rest = spec.strip().removeprefix("game:").partition(":")
    if name == "openspiel":
        return SpecIdentity("openspiel", "".join(rest.split()), ())
    found = find_game(name)
    if found is not None:
        kwargs = builtin_arguments(found.params, rest, found.positional)
        return SpecIdentity("builtin", found.name, tuple(sorted(kwargs.items())))
    attr, _, params = rest.partition(":")
    pairs = sorted(
        (key.strip(), value.strip())
        for key, _, value in (item.partition("=") for item in params.split(",") if item.strip())
    )
    return SpecIdentity("user", f"{name}:{attr}", tuple(pairs))


def game_of(spec: str, estimate: str | None = None) -> Game:
    """The game a spec (the text after ``game:``) names, behind the protocol's checks;
    ``estimate`` (--estimate MODULE:ATTRIBUTE) values its positions in place of its own."""
    from .position import EstimatedGame, load_estimate

    obj, name = load_game(spec)
    if estimate is not None:
        obj = EstimatedGame(obj, load_estimate(estimate))
    return Game(obj, name)


def open_game(
    spec: str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    depth: int | None = None,
    on_demand: bool = False,
    moves: str | None = None,
    estimate: str | None = None,
) -> GameTree:
    """The GameTree of a spec; ``depth`` cuts it at that depth before it is counted;
    ``on_demand``: searched on demand when it has too many states to count
    (:func:`.ondemand.open_game_tree`); ``moves``: from the position after those moves,
    named as the game names them; ``estimate``: the callable MODULE:ATTRIBUTE values a
    position at the cut in the game's place (:mod:`.position`)."""
    from .ondemand import open_game_tree
    from .position import after_moves

    game = game_of(spec, estimate)
    name = game.name
    if depth is not None and not game.has_estimate:
        raise UsageError(
            f"{name}: --depth needs the game's estimate(state), or --estimate MODULE:ATTRIBUTE"
        )
    start = start_max = None
    if moves is not None:
        start, start_max, _ = after_moves(game, moves)
    return open_game_tree(
        game,
        source=name,
        max_nodes=max_nodes,
        limit=depth,
        on_demand=on_demand,
        start=start,
        start_max=start_max,
    )
