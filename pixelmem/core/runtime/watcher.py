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
POLL_MS = 300  # when polling: how often the tree is walked
FALSE_WORDS = ("", "0", "false", "disable", "disabled", "no")
Apply = Callable[[list[Path], bool], object]  # (changed memory files, rescan the vault?)


class VaultFileWatcher:
    """Watches one vault on a thread and calls ``apply(paths, rescan)`` per batch."""

    def __init__(self, vault: Path, apply: Apply) -> None:
        self.vault = Path(vault)
        self._root = os.path.realpath(self.vault)
        self._apply = apply
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._mode = "starting"
        self._thread = threading.Thread(target=self._run, name="pixelmem-watch", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def mode(self) -> str:
        """``native`` (inotify, FSEvents, …), ``polling``, ``starting`` or ``stopped``."""
        return self._mode

    def _run(self) -> None:
        # Native events first. Where they fail (the inotify watch limit on a huge tree, some
        # network and container mounts) the vault is polled instead. WATCHFILES_FORCE_POLLING=1
        # asks for polling from the start (file systems that accept watches but never send
        # events, like many SMB/NFS mounts).
        forced = os.environ.get("WATCHFILES_FORCE_POLLING", "").lower() not in FALSE_WORDS
        for polling in (True,) if forced else (False, True):
            self._mode = "polling" if polling else "native"
            try:
                self._watch(polling)
                break  # stopped on purpose
            except Exception:
                if self._stop.is_set():
                    break
                log.exception("watching the vault (%s) failed", self._mode)
        if not self._stop.is_set():
            log.error("the vault is no longer watched; restart the service to watch again")
        self._mode = "stopped"
        self._ready.set()

    def _watch(self, polling: bool) -> None:
        changes = watchfiles.watch(
            self._root,
            watch_filter=self._wanted,
            debounce=MAX_GROUP_MS,
            step=QUIET_MS,
            stop_event=self._stop,
            rust_timeout=500,
            yield_on_timeout=True,  # the first (empty) yield says the watch is set up
            raise_interrupt=False,
            force_polling=polling,
            poll_delay_ms=POLL_MS,
        )
        for batch in changes:
            self._ready.set()
            if batch:
                self._handle(batch)

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
