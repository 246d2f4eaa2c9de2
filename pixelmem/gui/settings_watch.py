"""Notice another process (``pixelmem config set``, an MCP client) changing the settings file.

Saves replace the file by rename, and ``QFileSystemWatcher`` stops watching a path once its
file is replaced, so the folder is watched too and the file is re-added after each change.
Changes are debounced and reported only when the settings actually differ from the ones the
app holds, so the app's own saves are not echoed back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from pixelmem.core.settings import Settings

log = logging.getLogger(__name__)

DEBOUNCE_MS = 150


class SettingsWatcher(QObject):
    """Emits ``changed(Settings)`` with the settings now on disk when they differ from
    ``current()`` (the settings the app holds)."""

    changed = Signal(object)

    def __init__(
        self, path: Path, current: Callable[[], Settings], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self._current = current
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._reload)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._timer.start)
        self._watcher.directoryChanged.connect(self._timer.start)
        self._watch()

    def _watch(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        wanted = [str(self.path.parent)] + ([str(self.path)] if self.path.exists() else [])
        missing = [
            p for p in wanted if p not in self._watcher.files() + self._watcher.directories()
        ]
        if missing:
            self._watcher.addPaths(missing)

    def _reload(self) -> None:
        self._watch()  # the file was replaced: watch the new one
        loaded = Settings.load(self.path)
        if loaded != self._current():
            log.info("the settings file changed on disk; reloading it")
            self.changed.emit(loaded)
