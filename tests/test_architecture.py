"""Import contracts (STYLE §1), checked by parsing imports: which package may import which.

- ``core`` imports no Qt and none of the entry points (GUI, CLI, commands, MCP, service).
- The CLI's commands, the MCP server and the HTTP service use the core only: no Qt, no GUI.
- Only ``gui`` imports Qt; ``cli.py`` may start the app (it imports ``pixelmem.gui`` lazily).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pixelmem

PACKAGE = Path(pixelmem.__file__).parent
QT = ("PySide6", "shiboken6", "pytestqt", "PyQt5", "PyQt6")
GUI = ("pixelmem.gui",)
ENTRY_POINTS = ("pixelmem.cli", "pixelmem.commands", "pixelmem.mcp_", "pixelmem.service")


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def _files(pattern: str) -> list[Path]:
    return sorted(p for p in PACKAGE.glob(pattern) if "__pycache__" not in p.parts)


# Known exceptions, each with its reason. ``pixelmem map --png`` paints the map with Qt's
# painter in a headless QGuiApplication (imported inside the function, only for --png).
ALLOWED = {
    ("commands/insight.py", "PySide6.QtGui"),
    ("commands/insight.py", "pixelmem.gui.map_paint"),
}


def _offenders(files: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path} imports {name}"
        for path in files
        for name in _imported_modules(path)
        if (name.split(".")[0] in forbidden or name.startswith(forbidden))
        and (_relative(path), name) not in ALLOWED
    ]


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix() if path.is_relative_to(PACKAGE) else str(path)


CONTRACTS = {
    "core: no Qt, no GUI, no entry points": (["core/**/*.py"], QT + GUI + ENTRY_POINTS),
    "commands: no Qt, no GUI": (["commands/**/*.py"], QT + GUI),
    "MCP server: no Qt, no GUI": (["mcp_*.py"], QT + GUI),
    "HTTP service: no Qt, no GUI": (["service*.py", "service/**/*.py"], QT + GUI),
    "outside gui nothing imports Qt": (["*.py", "models/**/*.py"], QT),
}


@pytest.mark.parametrize("contract", list(CONTRACTS))
def test_import_contract(contract: str) -> None:
    patterns, forbidden = CONTRACTS[contract]
    files = [path for pattern in patterns for path in _files(pattern)]
    assert not _offenders(files, forbidden), "\n".join(_offenders(files, forbidden))


def test_the_contracts_cover_the_entry_points() -> None:
    assert _files("commands/**/*.py") and _files("mcp_*.py") and _files("core/**/*.py")
    assert _files("service/**/*.py")


def test_the_checker_sees_an_offender(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from PySide6.QtCore import QObject\nimport pixelmem.mcp_server\n", encoding="utf-8"
    )
    assert _offenders([bad], QT) and _offenders([bad], ENTRY_POINTS)
    assert not _offenders([bad], GUI)
