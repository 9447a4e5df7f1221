"""The sample trees that travel with the package: ``sample:NAME`` names one (docs/sources.md).

A wheel carries them in ``gtsearch/sample_trees/`` (setup.py's build_py copies
the repository's ``sample_trees/`` there); a clone, or an editable install, reads
the repository's own ``sample_trees/`` beside the package.  So
``gtsearch eval sample:aima-fig5-2`` runs the same in a clone and after
``pip install gtsearch`` in an empty folder.
"""

from __future__ import annotations

from pathlib import Path

from .errors import UsageError

PREFIX = "sample:"
#: the extensions of the tree files among the samples (a sample is named without one)
EXTENSIONS = (".yaml", ".yml", ".json", ".sexp", ".efg")
_HERE = Path(__file__).resolve().parent


def folder() -> Path:
    """Where the samples are: the package's copy (a wheel), else the repository's."""
    shipped = _HERE / "sample_trees"
    return shipped if shipped.is_dir() else _HERE.parent / "sample_trees"


def samples() -> dict[str, list[Path]]:
    """Every sample name and the files it names: a file's name less its format's extension
    (``aima-fig5-2``: aima-fig5-2.yaml; ``aima-fig5-2.bare``: three files)."""
    where = folder()
    found: dict[str, list[Path]] = {}
    for path in sorted(where.iterdir()) if where.is_dir() else []:
        if path.suffix in EXTENSIONS:
            found.setdefault(path.stem, []).append(path)
    return found


def sample_path(spec: str) -> str:
    """The file that ``sample:NAME`` names; a usage error listing the samples otherwise.

    NAME is a sample's file name, without its extension where one file has that
    name (``aima-fig5-2``), with it where several have (``aima-fig5-2.bare.json``).
    """
    name = spec[len(PREFIX) :]
    every = samples()
    for paths in every.values():
        for path in paths:
            if path.name == name:
                return str(path)
    paths = every.get(name, [])
    if len(paths) > 1:
        names = ", ".join(p.name for p in paths)
        raise UsageError(f"{spec}: several samples have that name, give one: {names}")
    if not paths:
        raise UsageError(
            f"{spec}: no such sample; the samples: {', '.join(sorted(every)) or 'none'}"
        )
    return str(paths[0])


__all__ = ["EXTENSIONS", "PREFIX", "folder", "sample_path", "samples"]
