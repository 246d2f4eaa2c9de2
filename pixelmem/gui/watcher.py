"""Notice files changed by other programs: a debounced ``QFileSystemWatcher`` over the vault.

Qt says only *that* a folder or file changed; what changed comes from comparing the vault's file
signatures (``core.vault_watch``) before and after, on the write lane. That one comparison
covers editors that save by writing a temp file and renaming it over the original, new
sub-folders and deletions. Our own saves show up too and are dropped by the store, which
finds the file identical to what it wrote. Dot-folders (``.pixelmem/``) are never watched.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from pixelmem.core.vault.signatures import VaultWatcher
from pixelmem.core.vault.vault_files import is_hidden, is_markdown, memory_folders
from pixelmem.gui.workers import SerialLane

DEBOUNCE_MS = 300
MAX_FILE_WATCHES = 4000  # inotify watches are a shared, limited resource; folders always fit
ADD_BATCH = 400  # paths added per event-loop turn, so a big vault never stalls the window


def vault_folders(root: Path) -> list[str]:
    """The vault folder and every sub-folder the store scans (no dot-folders, no symlinks)."""
    return memory_folders(root)


class VaultFileWatcher(QObject):
    """Emits ``paths_changed(list[Path])`` ~300 ms after the last change in a burst."""

    paths_changed = Signal(list)

    def __init__(self, root: Path, lane: SerialLane, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = Path(root)
        self._lane = lane
        self._signatures = VaultWatcher(self.root)  # touched only on the lane
        self._watcher = QFileSystemWatcher(self)
        self._pending: list[str] = []
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._adder = QTimer(self, singleShot=True, interval=0)
        self._debounce.timeout.connect(self._poll)
        self._adder.timeout.connect(self._add_some)
        self._watcher.directoryChanged.connect(self._debounce.start)
        self._watcher.fileChanged.connect(self._debounce.start)
        self.polls = 0

    def start(self) -> None:
        """Take the baseline and start watching (after the first scan)."""
        self._lane.submit(self._survey, self._watch, context=self)

    def stop(self) -> None:
        self._debounce.stop()
        self._adder.stop()
        self._pending.clear()
        watched = self._watcher.files() + self._watcher.directories()
        if watched:
            self._watcher.removePaths(watched)

    def _poll(self) -> None:
        self._lane.submit(self._survey, self._watch, context=self)

    def _survey(self) -> tuple[list[Path], list[str], list[str]]:
        """On the lane: what changed since the last look, and what should be watched now."""
        changed = self._signatures.poll()
        folders = vault_folders(self.root)
        files = sorted(p for p in _markdown_files(folders))[:MAX_FILE_WATCHES]
        return changed, folders, files

    def _watch(self, survey: tuple[list[Path], list[str], list[str]]) -> None:
        changed, folders, files = survey
        self.polls += 1
        watched = set(self._watcher.files()) | set(self._watcher.directories())
        # Files replaced by a rename lost their watch: add them (and new ones) again.
        self._pending = [p for p in folders + files if p not in watched]
        if self._pending:
            self._adder.start()
        if changed:
            self.paths_changed.emit(changed)

    def _add_some(self) -> None:
        batch, self._pending = self._pending[:ADD_BATCH], self._pending[ADD_BATCH:]
        if batch:
            # No os.path.exists() filter here: each stat releases the GIL, and re-taking it
            # while the indexer runs Python code costs up to a switch interval (5 ms) per
            # path, a 280 ms stall for 400 paths (bench_ui). Qt stats them without the GIL
            # and just returns (and skips) the paths that vanished since the survey.
            self._watcher.addPaths(batch)
        if self._pending:
            self._adder.start()


def _markdown_files(folders: list[str]) -> list[str]:
    found = []
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                found.extend(
                    e.path for e in entries if is_markdown(e.name) and not is_hidden(e.name)
                )
        except OSError:
            continue
    return found
