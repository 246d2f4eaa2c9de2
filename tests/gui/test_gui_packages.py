"""The gui packages' rules that import-linter's ``gui-packages`` contract (pyproject.toml: each
package imports only the layers below it) does not check: no import circle even through the
panel registry's ``"module:function"`` strings, every module in a package (or one of the few at
the top), and each package's ``__init__`` saying what it holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pixelmem.gui

GUI = Path(pixelmem.gui.__file__).parent
# The start and the foundation every package uses, at the top of pixelmem/gui.
START = {"app", "app_icon", "system_check"}
FOUNDATION = {"bus", "workers", "session", "welcome", "pyside_imports"}
PACKAGES = {
    "window",
    "panels",
    "memory_list",
    "editor",
    "chat",
    "map",
    "dialogs",
    "widgets",
    "i18n",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(GUI.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def gui_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(GUI.rglob("*.py")) if "__pycache__" not in p.parts}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The gui modules ``path`` imports, in any way (a name from a package counts as the
    package unless it is a module of it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.split(":")[0]  # "module:function" in the panel registry
            if name in known:
                found.add(name)
    return {name for name in found if name in known}


def graph() -> dict[str, set[str]]:
    modules = gui_modules()
    known = set(modules)
    return {name: imports_of(path, known) - {name} for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_gui() -> None:
    assert cycles(graph()) == []


def test_the_checker_sees_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_is_in_a_package_or_one_of_the_few_at_the_top() -> None:
    top = {p.stem for p in GUI.glob("*.py")} - {"__init__"}
    assert top == START | FOUNDATION
    packages = {p.parent.name for p in GUI.glob("*/__init__.py")}
    assert packages == PACKAGES


@pytest.mark.parametrize("init", sorted(GUI.glob("*/__init__.py")), ids=lambda p: p.parent.name)
def test_each_package_says_what_it_holds(init: Path) -> None:
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 12, f"{init.parent.name}/__init__.py: say what it holds"
