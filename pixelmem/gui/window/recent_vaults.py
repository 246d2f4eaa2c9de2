"""UI-only state in ui.ini (window layout, File → Recent Vaults): not settings, not synced."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from pixelmem.core.paths import config_dir

RECENT_LIMIT = 8
_KEY = "vaults/recent"


def ui_state() -> QSettings:
    """UI-only state (window layout, recent vaults), in ``ui.ini`` next to the settings file."""
    return QSettings(str(config_dir() / "ui.ini"), QSettings.Format.IniFormat)


def recent_vaults() -> list[Path]:
    """Remembered vault folders that still exist, most recently opened first."""
    names = _names(ui_state().value(_KEY, []))
    return [Path(name) for name in names if Path(name).is_dir()]


def remember_vault(vault: Path) -> None:
    """Put ``vault`` first in the list (once), keeping at most :data:`RECENT_LIMIT`."""
    state = ui_state()
    names = _names(state.value(_KEY, []))
    names = [str(vault), *(n for n in names if n != str(vault))][:RECENT_LIMIT]
    state.setValue(_KEY, names)
    state.sync()


def _names(value: object) -> list[str]:
    """The saved list as QSettings reads it back: one name is a str, several a list."""
    if isinstance(value, str):
        return [value]
    return [name for name in value if isinstance(name, str)] if isinstance(value, list) else []
