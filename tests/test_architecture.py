"""The layers of docs/development.md hold: imports point one way, no private cross-imports, short modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gtsearch"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: the layer of each top-level name under gtsearch/, lowest first (docs/development.md)
LAYERS = {
    "errors": 0, "numbers": 0, "result": 0, "tree": 0, "builder": 0, "flat": 0, "summary": 0,
    "core": 0, "_native": 0, "splitmix": 0, "files": 0, "samples": 0,
    "algorithms": 1, "formats": 1, "sources": 1,
    "render": 2, "research": 2,
    "classroom": 3,
    "cli": 4,
    "__init__": 5, "__main__": 5,
}  # fmt: skip
#: the only modules that may import these third-party packages
ONLY_IN = {"click": {"cli"}}
#: imported only inside functions (start-up: a small `gtsearch eval` never loads them)
LAZY = ("rich", "matplotlib")
#: the compiled core is private to its facade: only gtsearch/core.py imports gtsearch._native
NATIVE_FACADE = "gtsearch.core"
MAX_LINES = 600
#: the one exception to the layers: Jupyter's display hooks (``Tree._repr_svg_``,
#: ``SearchResult._repr_html_``) must be methods of the ground classes, and they draw with
#: render; they may import this module, inside a method named ``_repr_*``, and nothing else
DISPLAY_HOOKS = "gtsearch.render.notebook"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top(name: str) -> str:
    """The top-level unit of gtsearch a dotted name belongs to (``gtsearch.render.svg`` -> render)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def display_hook_imports(tree: ast.Module) -> set[int]:
    """The ids of the import nodes inside functions named ``_repr_*`` (Jupyter's display hooks)."""
    return {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("_repr_")
        for node in ast.walk(fn)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    }


def imports(path: Path) -> list[tuple[str, list[str], int]]:
    """Every import of a module: (absolute module, names imported from it, line).

    An import of :data:`DISPLAY_HOOKS` inside a ``_repr_*`` method is left out.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    hooks = display_hook_imports(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) in hooks:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            target = ".".join(base + [node.module or ""]) if node.level else node.module
            if target == DISPLAY_HOOKS:
                continue
        if isinstance(node, ast.Import):
            out.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((target, [alias.name for alias in node.names], node.lineno))
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_and_take_no_private_names(path: Path) -> None:
    here = module_name(path)
    layer = LAYERS[top(here)]
    for target, names, line in imports(path):
        where = f"{path.relative_to(PACKAGE.parent)}:{line}"
        if target.split(".")[0] != "gtsearch":
            owner = ONLY_IN.get(target.split(".")[0])
            assert owner is None or top(here) in owner, f"{where}: {target} is for {owner} only"
            continue
        if target == "gtsearch":  # the package itself: only its public names
            assert all(not n.startswith("_") or n == "__version__" for n in names), where
            continue
        other = top(target)
        if other != top(here):
            assert LAYERS[other] < layer or (LAYERS[other] == layer == 0), (
                f"{where}: {top(here)} (layer {layer}) imports {other} (layer {LAYERS[other]})"
            )
        if here == NATIVE_FACADE and target == "gtsearch._native":
            assert names == ["_core"], where  # the extension module, and nothing else
            continue
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{where}: imports private names {private} of {target}"
        assert not any(p.startswith("_") for p in target.split(".")[1:]), (
            f"{where}: imports the private module {target}"
        )


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_short_and_say_what_they_are(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= MAX_LINES, f"{path.name}: more than {MAX_LINES} lines"
    doc = ast.get_docstring(ast.parse(text))
    assert doc, f"{path.name} has no docstring"
    if path.name == "__init__.py" and path.parent != PACKAGE:
        # a package says what it owns and what it may import
        assert "Owns" in doc and "mport" in doc, f"{path.parent.name}/__init__.py: {doc[:60]!r}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_heavy_packages_are_imported_inside_functions(path: Path) -> None:
    """rich and matplotlib at module level only under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        heavy = [n for n in names if n.split(".")[0] in LAZY]
        assert not heavy, f"{path.name}:{node.lineno}: {heavy} imported at module level"


def test_only_the_display_hooks_are_excepted() -> None:
    """The exception above covers Tree._repr_svg_ and SearchResult._repr_html_, nothing else."""
    excepted = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hooks = display_hook_imports(tree)
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name.startswith("_repr_"):
                if any(id(node) in hooks for node in ast.walk(fn)):
                    excepted.append((module_name(path), fn.name))
    assert sorted(excepted) == [
        ("gtsearch.result", "_repr_html_"),
        ("gtsearch.tree", "_repr_svg_"),
    ]


def test_every_module_has_a_layer() -> None:
    assert {top(module_name(p)) for p in MODULES} <= set(LAYERS)
