"""An experiment's records in and out: JSON lines and CSV, each record read back checked field
by field, shards merged into the records of one run, and a part of a sweep told from the whole
(``gtsearch experiment -o``, ``--merge``, ``--partial``; docs/research.md, "Splitting a sweep").

A record carries its sweep's settings (``sweep``) and its shard (``shard``, ``I/N``), so that
a merge refuses the files of two different sweeps and says which shards a part lacks
(:func:`merge_records`, :func:`missing_part`); every field a merge reads is checked, and a bad
one is one line with the file and the line (:func:`read_records`, :func:`record_problem`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..algorithms import find_algorithm
from ..algorithms.params import Params
from ..errors import GtsearchError, UsageError, os_reason
from .experiment import (
    OLD_DEFAULTS,
    RECORD_KEYS,
    SETTINGS_KEYS,
    SWEEP_KEYS,
    Sweep,
    cells_of,
    check_agreement,
    tree_seed,
)


def record_keys(records: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The keys of the records, in order: RECORD_KEYS, and ``chance`` for *-minimax sweeps."""
    return (("chance",) if records and "chance" in records[0] else ()) + RECORD_KEYS


def records_jsonl(records: Iterable[dict[str, Any]]) -> str:
    """One JSON object per record and line."""
    return "".join(
        json.dumps({k: r[k] for k in ("chance",) if k in r} | {k: r.get(k) for k in RECORD_KEYS})
        + "\n"
        for r in records
    )


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a JSON lines file written by ``experiment -o FILE.jsonl``, every field
    checked (:func:`record_problem`): a bad one is one line with the path and line number."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise GtsearchError(f"{path}: cannot read: {os_reason(e)}") from None
    except UnicodeDecodeError:
        raise GtsearchError(
            f"{path}: not UTF-8 text; --merge reads the JSON lines of 'experiment -o FILE.jsonl'"
        ) from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError) as e:
            why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
            raise GtsearchError(
                f"{path}:{number}: not a JSON line ({why}); --merge reads the "
                "JSON lines of 'experiment -o FILE.jsonl'"
            ) from None
        if isinstance(rec, dict):
            rec = {k: rec[k] if k in rec else v for k, v in OLD_DEFAULTS.items()} | rec
        if not isinstance(rec, dict) or set(rec) - {"chance"} != set(RECORD_KEYS):
            raise GtsearchError(
                f"{path}:{number}: not an experiment record (expected the keys "
                f"{', '.join(RECORD_KEYS)})"
            )
        problem = record_problem(rec)
        if problem is not None:
            raise GtsearchError(f"{path}:{number}: {problem}")
        records.append(rec)
    return records


def _whole(v: Any, minimum: int | None = None) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and (minimum is None or v >= minimum)


def _real(v: Any) -> bool:
    # an int of any size is finite (math.isfinite would overflow on 10**400)
    return _whole(v) or (isinstance(v, float) and math.isfinite(v))


def _value(v: Any) -> bool:
    """A result's value as records write it: a number, or an exact fraction as text."""
    if isinstance(v, str):
        if not re.fullmatch(r"-?[0-9]{1,1000}(?:/[0-9]{1,1000})?", v):
            return False
        try:
            Fraction(v)
        except (ValueError, ZeroDivisionError):  # 1/0; digits past int's limit
            return False
        return True
    return _real(v)


def _count(v: Any) -> bool:
    return _whole(v, 0)


#: each key of a record, what its value must be, and those words for the message
_FIELDS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("chance", lambda v: _whole(v, 1), "a whole number 1 or more"),
    ("b", lambda v: _whole(v, 1), "a whole number 1 or more"),
    ("d", _count, "a whole number 0 or more"),
    ("trial", _count, "a whole number 0 or more"),
    ("seed", _whole, "a whole number"),
    ("tree_seed", lambda v: _whole(v, 0) and v < 2**64, "a whole number of 64 bits"),
    ("order", lambda v: isinstance(v, str), "text"),
    ("lo", _whole, "a whole number"),
    ("hi", _whole, "a whole number"),
    ("model", lambda v: isinstance(v, str), "text"),
    ("p", lambda v: v is None or _real(v), "a number or null"),
    ("source", lambda v: v is None or isinstance(v, str), "text or null"),
    ("algorithm", lambda v: isinstance(v, str), "text"),
    (
        "params",
        lambda v: (
            v is None
            or (isinstance(v, dict) and all(isinstance(k, str) and _real(x) for k, x in v.items()))
        ),
        "null or an object of numbers",
    ),
    ("value", _value, 'a number or an exact fraction such as "-7/3"'),
    ("exact", lambda v: isinstance(v, bool), "true or false"),
    ("leaves", _count, "a whole number 0 or more"),
    ("distinct_leaves", _count, "a whole number 0 or more"),
    ("nodes", _count, "a whole number 0 or more"),
    ("leaves_total", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("open_max", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("passes", lambda v: v is None or _count(v), "a whole number 0 or more, or null"),
    ("sweep", lambda v: v is None or isinstance(v, dict), "an object, or null"),
    ("shard", lambda v: v is None or _parse_shard(v) is not None, 'a shard "I/N", or null'),
)
#: the keys of a record's ``sweep``, what each must be, and those words
_SETTINGS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("b", lambda v: _ascending(v, 1), "a list of ascending whole numbers 1 or more"),
    ("d", lambda v: _ascending(v, 0), "a list of ascending whole numbers 0 or more"),
    ("trials", lambda v: _whole(v, 1), "a whole number 1 or more"),
    (
        "algorithms",
        lambda v: (
            isinstance(v, list)
            and bool(v)
            and all(isinstance(a, str) for a in v)
            and len(set(v)) == len(v)
        ),
        "a list of distinct algorithm names",
    ),
    ("guess", lambda v: v is None or _real(v), "a number or null"),
    ("tt", _count, "a whole number 0 or more"),
    ("k", lambda v: v is None or _whole(v, 1), "a whole number 1 or more, or null"),
)


def _ascending(v: Any, minimum: int) -> bool:
    return (
        isinstance(v, list)
        and bool(v)
        and all(_whole(x, minimum) for x in v)
        and all(x < y for x, y in zip(v, v[1:], strict=False))
    )


def _parse_shard(text: Any) -> tuple[int, int] | None:
    m = (
        re.fullmatch(r"([1-9][0-9]{0,17})/([1-9][0-9]{0,17})", text)
        if isinstance(text, str)
        else None
    )
    if m is None or int(m.group(1)) > int(m.group(2)):
        return None
    return int(m.group(1)), int(m.group(2))


def _shown(v: Any) -> str:
    if isinstance(v, str):
        return repr(v) if len(v) <= 40 else repr(v[:40]) + "..."
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:40] + "..."


@dataclass(frozen=True)
class _Checked:
    """What one sweep's settings allow (:func:`_checked_sweep`): its grid and each algorithm's
    parameters."""

    sweep: Sweep
    branchings: dict[int, int]
    depths: dict[int, int]
    params: dict[str, Params | None]


def record_problem(rec: dict[str, Any]) -> str | None:
    """What is wrong with one record read from a file (its keys are those of RECORD_KEYS), or
    None: every field's type and range, the sweep it names (checked as the command line
    checks one), its place in that sweep's grid and shard, its algorithm's parameters."""
    for key, ok, what in _FIELDS:
        if key in rec and not ok(rec[key]):
            return f"{key!r} must be {what}, got {_shown(rec[key])}"
    settings = rec["sweep"]
    if (settings is None) != (rec["shard"] is None):
        return "'sweep' and 'shard' are both given or both null"
    if settings is not None:
        if set(settings) != set(SETTINGS_KEYS):
            return f"'sweep' must have the keys {', '.join(SETTINGS_KEYS)}"
        for key, ok, what in _SETTINGS:
            if not ok(settings[key]):
                return f"'sweep' {key!r} must be {what}, got {_shown(settings[key])}"
    try:
        checked = _checked_sweep(_sweep_key(rec))
    except GtsearchError as e:
        return f"the record's sweep cannot run: {e.message}"
    name = rec["algorithm"]
    if name not in checked.params:
        return f"algorithm {name!r} is not among the sweep's algorithms"
    if rec["params"] != checked.params[name]:
        return f"the parameters of {name} are not those of the sweep: {_shown(rec['params'])}"
    if settings is None:
        return None
    b, d, trial = rec["b"], rec["d"], rec["trial"]
    if b not in checked.branchings or d not in checked.depths or trial >= settings["trials"]:
        return f"b={b} d={d} trial {trial} is not a cell of the sweep ({sweep_options(settings)})"
    index, count = _parse_shard(rec["shard"]) or (1, 1)
    if cell_index(settings, b, d, trial) % count != index - 1:
        return f"b={b} d={d} trial {trial} is not a cell of shard {index}/{count}"
    return None


def _sweep_key(rec: dict[str, Any]) -> str:
    """The settings one record gives its sweep, as a key for :func:`_checked_sweep`."""
    base = {k: rec[k] for k in SWEEP_KEYS} | {"chance": rec.get("chance", 0)}
    settings = rec["sweep"]
    if settings is None:  # an older record: its own cell and algorithm stand for the sweep
        settings = {"b": [rec["b"]], "d": [rec["d"]], "algorithms": [rec["algorithm"]]}
        settings |= {"trials": 1, "guess": None, "tt": 0, "k": None}
        base["old"] = True
    return json.dumps(base | {"settings": settings}, sort_keys=True)


@functools.lru_cache(maxsize=64)
def _checked_sweep(key: str) -> _Checked:
    """The sweep a record names, checked as ``experiment`` checks its options (once for all
    the records of a sweep)."""
    spec = json.loads(key)
    s = spec["settings"]
    for name in s["algorithms"]:
        canonical = find_algorithm(name).name
        if canonical != name:
            raise UsageError(f"the algorithm {name!r} is written {canonical!r} in records")
    if (spec["model"] == "trap") != (s["k"] is not None) and "old" not in spec:
        raise UsageError("'k' (the traps' depth) is given for model trap and only for it")
    if (spec["p"] is not None) != (spec["model"] in ("binary", "trap")):
        raise UsageError("'p' is given for models binary and trap and only for them")
    sweep = Sweep(
        tuple(s["b"]),
        tuple(s["d"]),
        s["trials"],
        seed=spec["seed"],
        lo=spec["lo"],
        hi=spec["hi"],
        model=spec["model"],
        p=0.5 if spec["p"] is None else spec["p"],
        k=s["k"] or 1,
        order=spec["order"],
        algorithms=tuple(s["algorithms"]),
        guess=s["guess"],
        tt=s["tt"],
        chance=spec["chance"],
    )
    sweep.check()
    params: dict[str, Params | None] = {a.name: p or None for a, p in sweep.planned()}
    branchings = {b: i for i, b in enumerate(s["b"])}
    depths = {d: i for i, d in enumerate(s["d"])}
    return _Checked(sweep, branchings, depths, params)


def cell_index(settings: dict[str, Any], b: int, d: int, trial: int) -> int:
    """The place of the cell (b, d, trial) in :meth:`Grid.cells` of a record's ``sweep``."""
    bs: list[int] = settings["b"]
    ds: list[int] = settings["d"]
    trials: int = settings["trials"]
    return (bs.index(b) * len(ds) + ds.index(d)) * trials + trial


def sweep_options(settings: dict[str, Any]) -> str:
    """A record's ``sweep`` as the options that ran it: ``-b 2..4 -d 2,5 -n 10 -a alphabeta``
    (and ``--guess``, ``--tt``, ``--trap-depth`` when they were given)."""
    return " ".join(
        f"{flag} {text}" for flag, text in _settings_options(settings).items() if text is not None
    )


def _settings_options(settings: dict[str, Any]) -> dict[str, str | None]:
    return {
        "-b": _ranges(settings["b"]),
        "-d": _ranges(settings["d"]),
        "-n": str(settings["trials"]),
        "-a": ",".join(settings["algorithms"]),
        "--guess": None if settings["guess"] is None else str(settings["guess"]),
        "--tt": str(settings["tt"]) if settings["tt"] else None,
        "--trap-depth": None if settings["k"] is None else str(settings["k"]),
    }


def _ranges(xs: Sequence[int]) -> str:
    """Ascending numbers as a range list: 2..4,8 (2,3 for a run of two)."""
    parts: list[str] = []
    start = prev = xs[0]
    for x in [*xs[1:], None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        # a run of three or more as A..B (2..4), shorter ones as they are (2,3)
        parts.append(
            f"{start}..{prev}" if prev - start >= 2 else ",".join(map(str, range(start, prev + 1)))
        )
        if x is not None:
            start = prev = x
    return ",".join(parts)


def _options(rec: dict[str, Any]) -> dict[str, str | None]:
    """The options of the sweep a record comes from, flag by flag (None: not given)."""
    out: dict[str, str | None] = {
        "-s": str(rec["seed"]),
        "--order": rec["order"],
        "--values": f"{rec['lo']}:{rec['hi']}",
        "--model": rec["model"],
        "--p": None if rec["p"] is None else f"{rec['p']:g}",
        "--chance": str(rec["chance"]) if rec.get("chance") else None,
    }
    if rec.get("sweep") is not None:
        out |= _settings_options(rec["sweep"])
    return out


#: where a record is: its file (or group) and its number there, from 1
Place = tuple[str, int]


def _places(a: Place, b: Place) -> tuple[str, str]:
    """Two records' places in words: their files, or, in one file, their record numbers too."""
    if a[0] != b[0]:
        return a[0], b[0]
    return f"{a[0]} (record {a[1]})", f"{b[0]} (record {b[1]})"


def _difference(a: dict[str, Any], a_at: Place, b: dict[str, Any], b_at: Place) -> str:
    """How the sweeps of two records differ, flag by flag, each side named by its place."""
    oa, ob = _options(a), _options(b)
    flags = [f for f in oa if f in ob and oa[f] != ob[f]]

    def side(options: dict[str, str | None]) -> str:
        return " ".join(f"{f} {options[f]}" if options[f] is not None else f"no {f}" for f in flags)

    a_name, b_name = _places(a_at, b_at)
    return f"{side(oa)} in {a_name}, {side(ob)} in {b_name}"


def merge_records(
    groups: Iterable[Sequence[dict[str, Any]]],
    *,
    partial: bool = False,
    names: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """The records of several shards of one sweep as one run would list them.

    Refuses shards of different sweeps (any setting: seed, order, values, model, grid,
    trials, algorithms, guess, table) or of different splits (I/N with other N's), a cell
    that two shards both hold, a record whose tree seed does not follow from its cell, and,
    unless ``partial``, a set of records that is not the whole sweep (:func:`missing_part`
    says what is missing).  ``names`` names the groups in the messages (the files).
    Merged records of the whole sweep are those of one run, shard ``1/1``; those of a part
    keep their shards.
    """
    merged: list[dict[str, Any]] = []
    seen: set[tuple[int, int, int, str]] = set()
    first: tuple[dict[str, Any], Place] | None = None  # the first record, and where it is
    first_full: tuple[dict[str, Any], Place] | None = None  # the first that says its sweep
    for number, group in enumerate(groups):
        name = names[number] if names is not None else f"file {number + 1}"
        for count, rec in enumerate(group, 1):
            where = (name, count)
            if first is None:
                first = (rec, where)
            base = first[0]
            if any(rec[k] != base[k] for k in SWEEP_KEYS) or rec.get("chance", 0) != base.get(
                "chance", 0
            ):
                raise UsageError(
                    "the files come from different sweeps: "
                    + _difference(base, first[1], rec, where)
                )
            if rec["sweep"] is not None:
                if first_full is None:
                    first_full = (rec, where)
                full = first_full[0]
                if rec["sweep"] != full["sweep"]:
                    raise UsageError(
                        "the files come from different sweeps: "
                        + _difference(full, first_full[1], rec, where)
                    )
                if _shard_count(rec) != _shard_count(full):
                    a_name, b_name = _places(first_full[1], where)
                    raise UsageError(
                        "the files split the sweep in different ways: shard "
                        f"{full['shard']} in {a_name}, shard {rec['shard']} in {b_name}"
                    )
            key = (rec["b"], rec["d"], rec["trial"], rec["algorithm"])
            if key in seen:
                raise UsageError(
                    f"b={key[0]} d={key[1]} trial {key[2]} {key[3]} is in the "
                    "files twice: shards must not overlap"
                )
            seen.add(key)
            chance = rec.get("chance", 0)
            if rec["tree_seed"] != tree_seed(rec["seed"], rec["b"], rec["d"], rec["trial"], chance):
                raise UsageError(
                    f"b={key[0]} d={key[1]} trial {key[2]}: tree seed "
                    f"{rec['tree_seed']} does not follow from seed {rec['seed']}"
                )
            merged.append(rec)
    rank: dict[str, int] = {}
    if first_full is not None:
        rank = {name: i for i, name in enumerate(first_full[0]["sweep"]["algorithms"])}
    # within a cell the records come in the order of the sweep's algorithms (older records:
    # in the order of the files)
    merged.sort(key=lambda r: (r["b"], r["d"], r["trial"], rank.get(r["algorithm"], 0)))
    for cell in cells_of(merged):
        check_agreement(cell)
    missing = missing_part(merged)
    if missing is None:
        return [rec | {"shard": "1/1"} for rec in merged]
    if partial:
        return merged
    if any(rec["sweep"] is None for rec in merged):
        raise UsageError(
            f"{missing}, so --merge cannot tell the whole sweep from a part: add --partial "
            "to summarise them as a part"
        )
    raise UsageError(
        f"the files hold part of the sweep: {missing}; merge every shard, "
        "or add --partial to summarise a part"
    )


def _shard_count(rec: dict[str, Any]) -> int:
    return (_parse_shard(rec["shard"]) or (1, 1))[1]


def missing_part(records: Sequence[dict[str, Any]]) -> str | None:
    """What the records of one sweep lack to be the whole sweep, in words (``shard 2/3 is
    missing``), or None when they are whole.  The records are those :func:`merge_records`
    checked (of one sweep, one split, no cell twice)."""
    if not records:
        return None
    if any(rec["sweep"] is None for rec in records):
        return (
            "records written by an older gtsearch do not say which sweep and shards they come from"
        )
    settings = records[0]["sweep"]
    count = _shard_count(records[0])
    algorithms = len(settings["algorithms"])
    cells = len(settings["b"]) * len(settings["d"]) * settings["trials"]
    if len(records) == cells * algorithms:
        return None
    have: dict[int, int] = {}
    for rec in records:
        shard = cell_index(settings, rec["b"], rec["d"], rec["trial"]) % count + 1
        have[shard] = have.get(shard, 0) + 1
    if count == 1:
        return f"{cells * algorithms - len(records):,} of its {cells * algorithms:,} records are missing"
    # the shards that have cells at all: 1 .. min(count, cells)
    top = min(count, cells)
    absent = top - sum(1 for i in have if i <= top)
    parts = []
    if absent:
        listed = list(itertools.islice((i for i in range(1, top + 1) if i not in have), 6))
        if absent == 1:
            parts.append(f"shard {listed[0]}/{count} is missing")
        elif absent > len(listed):
            shown = ", ".join(map(str, listed))
            parts.append(f"shards {shown} and {absent - len(listed):,} more of {count} are missing")
        else:
            shown = ", ".join(map(str, listed[:-1])) + f" and {listed[-1]}"
            parts.append(f"shards {shown} of {count} are missing")
    short = []
    for i, n in sorted(have.items()):
        whole = len(range(i - 1, cells, count)) * algorithms
        if n < whole:
            short.append(f"shard {i}/{count} lacks {whole - n:,} of its {whole:,} records")
    parts.extend(short[:3])
    if len(short) > 3:
        parts.append(f"{len(short) - 3:,} more shards lack records")
    return "; ".join(parts)


def csv_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as CSV writes them: ``sweep`` as its options (:func:`sweep_options`)."""
    return [
        rec | {"sweep": None if rec["sweep"] is None else sweep_options(rec["sweep"])}
        for rec in records
    ]


__all__ = [
    "csv_records",
    "merge_records",
    "missing_part",
    "read_records",
    "record_keys",
    "record_problem",
    "records_jsonl",
    "sweep_options",
]
