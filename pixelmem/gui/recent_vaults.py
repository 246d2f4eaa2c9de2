"""The vaults opened lately, most recent first, for File → Recent Vaults (UI state)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from pixelmem.core.paths import config_dir

RECENT_LIMIT = 8
_KEY = "vaults/recent"


def _state() -> QSettings:
    return QSettings(str(config_dir() / "ui.ini"), QSettings.Format.IniFormat)


def recent_vaults() -> list[Path]:
    """Remembered vault folders that still exist, most recently opened first."""
    value = _state().value(_KEY, [])
    names = [value] if isinstance(value, str) else list(value or [])
    return [Path(name) for name in names if isinstance(name, str) and Path(name).is_dir()]


def remember_vault(vault: Path) -> None:
    """Put ``vault`` first in the list (once), keeping at most :data:`RECENT_LIMIT`."""
    state = _state()
    value = state.value(_KEY, [])
    names = [value] if isinstance(value, str) else [str(v) for v in value or []]
    names = [str(vault), *(n for n in names if n != str(vault))][:RECENT_LIMIT]
    state.setValue(_KEY, names)
    state.sync()
