"""File → Recent Vaults: filled each time it opens (another window may have added one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMenu, QWidget

from pixelmem.gui.window.recent_vaults import recent_vaults


class RecentVaultsMenu(QMenu):
    """The vaults opened before, except ``current``; choosing one calls ``open_vault``."""

    def __init__(
        self, current: Path, open_vault: Callable[[Path], None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recentVaults")
        self._current = current
        self._open_vault = open_vault
        self.aboutToShow.connect(self.fill)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Recent &Vaults"))

    def fill(self) -> None:
        self.clear()
        others = [v for v in recent_vaults() if v != self._current]
        for vault in others:
            action = self.addAction(f"{vault.name}  —  {vault}")
            action.triggered.connect(lambda _=False, v=vault: self._open_vault(v))
        if not others:
            self.addAction(self.tr("No other vaults yet")).setEnabled(False)
