"""Shared fixtures: every test gets its own vault and config dir, never the user's real ones."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Imported before pytest-qt imports PySide6 (this file is read first): the package sets
# PYSIDE6_OPTION_LAZY, so every Qt type is made at its module's import, none lazily.
import pixelmem  # noqa: F401


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("PIXELMEM_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config-xdg"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(home / "run"))  # local_channel's sockets
    monkeypatch.delenv("PIXELMEM_VAULT", raising=False)
    monkeypatch.delenv("PIXELMEM_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    path = tmp_path / "vault"
    path.mkdir()
    return path


OBSIDIAN_FIXTURE = Path(__file__).parent / "data" / "obsidian_vault"


@pytest.fixture
def obsidian(tmp_path: Path) -> Path:
    """A copy of the Obsidian-style test vault (wiki links, aliases, TOML/JSON frontmatter)."""
    target = tmp_path / "Obsidian"
    shutil.copytree(OBSIDIAN_FIXTURE, target)
    return target


SYNTAX_FIXTURE = Path(__file__).parent / "data" / "obsidian_syntax"


@pytest.fixture
def obsidian_syntax(tmp_path: Path) -> Path:
    """A copy of the vault of Obsidian's syntax (callouts, embeds, attachments, block ids,
    HTML, code blocks with ``# lines``, Chinese notes, ``.obsidian/``, canvas and base files)."""
    target = tmp_path / "Syntax vault"
    shutil.copytree(SYNTAX_FIXTURE, target)
    return target
