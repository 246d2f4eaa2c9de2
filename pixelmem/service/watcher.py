"""The vault's file watcher (``watchfiles``: inotify, FSEvents, ReadDirectoryChangesW).

Changes are grouped until the vault has been quiet for :data:`QUIET_MS` (at most
:data:`MAX_GROUP_MS`), then handed over in one batch. Markdown files are re-read one by one.
Anything else that is not hidden and came, went or is a folder (a folder created, moved in,
renamed or removed, whose files never raise events of their own) makes the whole vault be
re-read; that scan reuses the scan cache, so it costs a walk, not a parse. An editor's
rename-save (write ``.note.md.swp`` or ``note.md~``, rename over ``note.md``) ends as a change
of ``note.md``; the temporary names are hidden or not Markdown and are ignored.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

import watchfiles

from pixelmem.core.vault.vault_files import is_hidden, is_memory_relpath

log = logging.getLogger(__name__)

QUIET_MS = 100
MAX_GROUP_MS = 500
Apply = Callable[[list[Path], bool], object]  # (changed memory files, rescan the vault?)


class VaultFileWatcher:
    """Watches one vault on a thread and calls ``apply(paths, rescan)`` per batch."""

    def __init__(self, vault: Path, apply: Apply) -> None:
        self.vault = Path(vault)
        self._root = os.path.realpath(self.vault)
        self._apply = apply
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pixelmem-watch", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            changes = watchfiles.watch(
                self._root,
                watch_filter=self._wanted,
                debounce=MAX_GROUP_MS,
                step=QUIET_MS,
                stop_event=self._stop,
                rust_timeout=500,
                yield_on_timeout=True,  # the first (empty) yield says the watch is set up
                raise_interrupt=False,
            )
            for batch in changes:
                self._ready.set()
                if batch:
                    self._handle(batch)
        except Exception:
            log.exception("the vault watcher stopped; restart the service to watch again")
        finally:
            self._ready.set()

    def _wanted(self, change: watchfiles.Change, path: str) -> bool:
        rel = self._relative(path)
        return rel is not None and not any(map(is_hidden, rel.parts))

    def _relative(self, path: str) -> PurePath | None:
        try:
            return PurePath(os.path.relpath(path, self._root))
        except ValueError:  # another drive on Windows
            return None

    def _handle(self, batch: Iterable[tuple[watchfiles.Change, str]]) -> None:
        files: set[Path] = set()
        rescan = False
        for change, path in batch:
            rel = self._relative(path)
            if rel is None or rel.parts[:1] == ("..",):
                continue
            if is_memory_relpath(rel):
                files.add(self.vault / rel)  # the store knows paths under the vault as given
            elif change == watchfiles.Change.deleted or os.path.isdir(path):
                rescan = True
        if files or rescan:
            log.debug("vault changed: %d file(s)%s", len(files), ", rescan" if rescan else "")
            try:
                self._apply(sorted(files), rescan)
            except Exception:
                log.exception("could not apply changes from the vault")
