"""The modules of :mod:`models.beyond_baker_street` import each other without a circle, counting every import
(those inside functions too): the shared pieces live in a leaf module, and what builds on them sits above it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import models.beyond_baker_street as package

PACKAGE = package.__name__
ROOT = Path(package.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {f"{PACKAGE}.{p.stem}" if p.stem != "__init__" else PACKAGE: p for p in sorted(ROOT.glob("*.py"))}


def imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``module`` imports anywhere in its source (module level, functions, blocks)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package the module is in
                parent = module.rsplit(".", node.level if path.stem != "__init__" else node.level - 1)[0]
                base = f"{parent}.{base}" if base else parent
            # ``from package import name``: name may be a module of the package
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        out |= {name for name in names if name in known and name != module}
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_import_cycle() -> None:
    edges = graph()
    assert f"{PACKAGE}.advice" in edges and f"{PACKAGE}.plain" in edges[f"{PACKAGE}.advisor"]
    found = cycle(edges)
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_shared_pieces_are_a_leaf() -> None:
    """The shared types import none of the advisor's modules that use them."""
    users = {f"{PACKAGE}.{m}" for m in ("advisor", "plain", "characters", "hat")}
    assert not graph()[f"{PACKAGE}.advice"] & users


@pytest.mark.parametrize("source, expected", [
    ("import models.beyond_baker_street.hat\n", {"hat"}),
    ("def f():\n    from models.beyond_baker_street.advisor import Advice\n", {"advisor"}),
    ("from models.beyond_baker_street import hat, data\n", {"", "hat", "data"}),  # "": the package itself
    ("from . import plain\nfrom .advice import Advice\n", {"", "plain", "advice"}),
    ("import numpy\nfrom solver.errors import AssistantError\n", set()),
])
def test_imports_are_found_wherever_they_are(tmp_path: Path, source: str, expected: set[str]) -> None:
    path = tmp_path / "characters.py"
    path.write_text(source)
    known = set(modules())
    found = imported(f"{PACKAGE}.characters", path, known)
    assert found == {f"{PACKAGE}.{m}" if m else PACKAGE for m in expected}


def test_a_cycle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
