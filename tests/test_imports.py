"""The import graph between the project's files has no cycle, counting every import: inside functions and under
``TYPE_CHECKING`` too (an import inside a function only hides a circle, and drops the types it carries).

The graph is read from the source with :mod:`ast` (nothing is imported), over ``solver/``, ``models/`` and
``assistant_cli/``. An edge goes from a file to every project module it names, and to the packages above that
module (importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` first). The layering rules of
``docs/architecture.md`` are checked on the same graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "models", "assistant_cli")


def module_files() -> dict[str, Path]:
    """Every project module by dotted name (a package is its ``__init__.py``)."""
    files: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def imported(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The project modules the file ``path`` (module ``name``) imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):  # the packages above it run first
            prefix = ".".join(parts[:i])
            if prefix in modules and prefix != name:
                found.add(prefix)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            add(base)
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:  # 'from package import module'
                    add(f"{base}.{alias.name}")
    return found


def graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported(path, name, modules) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_checker_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from solver import view\n    import solver.errors\n")
    assert imported(source, "m", {"solver": source, "solver.view": source, "solver.errors": source}) == {
        "solver", "solver.view", "solver.errors"}


def test_no_import_cycle_between_files() -> None:
    assert cycles(graph()) == []


@pytest.mark.parametrize(("layer", "forbidden"), [("solver", ("models", "assistant_cli")),
                                                   ("models", ("assistant_cli",))])
def test_the_layers_import_only_downwards(layer: str, forbidden: tuple[str, ...]) -> None:
    """The solver imports no game and no interface; a game imports no interface."""
    bad = sorted((name, target) for name, targets in graph().items() if name.split(".")[0] == layer
                 for target in targets if target.split(".")[0] in forbidden)
    assert bad == []


def test_no_game_imports_another_and_the_interface_imports_only_the_registry() -> None:
    """A game's modules import no other game's; ``assistant_cli`` reaches games only through ``models.GAMES``
    (the package ``models`` and the data-only packages ``models.<game>`` that it registers)."""
    edges = graph()
    across = sorted((name, target) for name, targets in edges.items() if name.startswith("models.")
                    for target in targets if target.startswith("models.")
                    and target.split(".")[1] != name.split(".")[1])
    assert across == []
    reaching = sorted((name, target) for name, targets in edges.items() if name.startswith("assistant_cli")
                      for target in targets if target.startswith("models."))
    assert reaching == []


def test_no_file_under_assistant_cli_names_a_game() -> None:
    """``assistant_cli/`` only reads input and draws: no file there (code, template, script, manifest) names a
    registered game by its command name, module name or title; every game reaches it through the registry."""
    from models import GAMES

    names = {word.lower() for entry in GAMES for word in (entry.name, entry.name.replace("-", "_"), entry.title)}
    found = []
    for path in sorted((ROOT / "assistant_cli").rglob("*")):
        if not path.is_file() or path.suffix in (".png", ".pyc") or "__pycache__" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        found += [f"{path.relative_to(ROOT)}: {name}" for name in sorted(names) if name in text]
    assert found == []
