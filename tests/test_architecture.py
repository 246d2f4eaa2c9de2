"""pixelmem/core must never import Qt: the CLI, the MCP server and the app all share it."""

from __future__ import annotations

import ast
from pathlib import Path

import pixelmem

CORE = Path(pixelmem.__file__).parent / "core"
FORBIDDEN = ("PySide6", "shiboken6", "pytestqt", "PyQt5", "PyQt6", "pixelmem.gui")


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_core_does_not_import_qt() -> None:
    offenders = [
        f"{path.relative_to(CORE.parent)} imports {name}"
        for path in sorted(CORE.rglob("*.py"))
        for name in _imported_modules(path)
        if name.split(".")[0] in FORBIDDEN or name.startswith("pixelmem.gui")
    ]
    assert not offenders, "\n".join(offenders)


def test_the_checker_sees_an_offender(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtCore import QObject\n", encoding="utf-8")
    assert "PySide6.QtCore" in _imported_modules(bad)
