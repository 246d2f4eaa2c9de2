"""The one vault watcher: what changed in a vault (and in the settings file) since the last look.

Two ways of noticing, one set of rules:

- :meth:`VaultWatcher.start` follows file events on a thread (``watchfiles``: inotify, FSEvents,
  ReadDirectoryChangesW). Where events fail (the inotify watch limit on a huge tree, some
  network and container mounts) the vault is polled instead; ``WATCHFILES_FORCE_POLLING=1``
  asks for polling from the start. Changes are grouped until the vault has been quiet for
  :data:`QUIET_MS` (at most :data:`MAX_GROUP_MS`) and handed over in one batch.
- :meth:`VaultWatcher.check` compares every memory file's signature with the previous check (a
  walk, no reading): for a caller that must see every change made before it asked (an MCP call
  over stdio), whatever the events' delay.

Both end in ``on_vault(paths, rescan)``. Markdown memory files are re-read one by one. Anything
else that is not hidden and came, went or is a folder (a folder created, moved in, renamed or
removed, whose files never raise events of their own) makes the whole vault be re-read; that
rescan reuses the scan cache, so it costs a walk, not a parse. An editor's rename-save (write
``.note.md.swp`` or ``note.md~``, rename over ``note.md``) ends as a change of ``note.md``; the
temporary names are hidden or not Markdown and are ignored. A change of the settings file (its
folder is watched too) calls ``on_settings()``.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

import watchfiles

from pixelmem.core.vault.signatures import (
    Signature,
    changed_paths,
    file_signature,
    vault_signatures,
)
from pixelmem.core.vault.vault_files import is_hidden, is_memory_relpath, memory_folders

log = logging.getLogger(__name__)

QUIET_MS = 100
MAX_GROUP_MS = 500
POLL_MS = 300  # when polling: how often the tree is walked
# A watch per folder while the vault holds at least this many entries per folder; a watch of
# the tree otherwise. Set up in one call that keeps the GIL either way: the tree's walks every
# entry (~2 µs each), one per folder costs ~10-40 µs a folder, more variable the more there
# are (benchmarks/bench_watch.py, the longest wait of another thread: 10k notes in 7 folders
# 3.0 against 15.6 ms, in 500 folders 16.1 against 19.9 ms; per folder in 2,000 folders 85
# against the tree's 32 ms).
ENTRIES_PER_FOLDER_WATCH = 20
FALSE_WORDS = ("", "0", "false", "disable", "disabled", "no")
OnVault = Callable[[list[Path], bool], object]  # (changed memory files, rescan the vault?)


class VaultWatcher:
    """Watches one vault (and a settings file) and reports changes to the runtime."""

    def __init__(
        self,
        vault: Path,
        on_vault: OnVault,
        *,
        settings_file: Path | None = None,
        on_settings: Callable[[], object] | None = None,
    ) -> None:
        self.vault = Path(vault)
        self._root = os.path.realpath(self.vault)
        self._on_vault = on_vault
        self._on_settings = on_settings
        self._settings_file = Path(settings_file) if settings_file is not None else None
        self._settings_real = os.path.realpath(settings_file) if settings_file else None
        self._settings_seen = file_signature(settings_file) if settings_file else None
        self._signatures: dict[str, Signature] | None = None
        self._check_lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._mode = "off"
        self._thread: threading.Thread | None = None

    # -- events ----------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Follow file events on a thread; wait up to ``timeout`` s until the watch is set up."""
        if self._thread is not None:
            return
        self._mode = "starting"
        self._thread = threading.Thread(target=self._run, name="pixelmem-watch", daemon=True)
        self._thread.start()
        self.wait_ready(timeout)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Whether the watch is set up (or has given up) within ``timeout`` seconds."""
        return self._ready.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def mode(self) -> str:
        """``native`` (inotify, FSEvents, …), ``polling``, ``starting``, ``stopped`` or ``off``."""
        return self._mode

    def _run(self) -> None:
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
            log.error("the vault is no longer watched; reopen it to watch again")
        self._mode = "stopped"
        self._ready.set()

    def _watch(self, polling: bool) -> None:
        """Follow the vault's folders, each one itself, where they are few against the files:
        a watch of the tree is set up by a walk over every file, in one call that keeps the GIL
        (15-20 ms for 10k notes, 60-70 ms for 40k, with every thread of the app waiting); one
        per folder costs what the folders do. A folder that comes or goes then sets the watch
        up again."""
        again = False
        while not self._stop.is_set():
            folders, entries = memory_folders(Path(self._root))
            if len(folders) * ENTRIES_PER_FOLDER_WATCH > entries:
                folders = []  # many folders, few files in each: the tree's walk costs less
            if not self._follow(folders, polling, again):
                return  # stopped
            again = True

    def _follow(self, folders: list[str], polling: bool, again: bool) -> bool:
        """Watch ``folders`` (none: the vault's tree) until stopped (False) or until a folder
        came or went (True). ``again``: the vault is re-read once the watch is set up (files
        may have come into a new folder before it was watched)."""
        roots = list(folders) or [self._root]
        if self._settings_real is not None:
            folder = os.path.dirname(self._settings_real)
            os.makedirs(folder, exist_ok=True)
            roots.append(folder)
        watched = set(folders)
        changes = watchfiles.watch(
            *roots,
            watch_filter=self._wanted,
            debounce=MAX_GROUP_MS,
            step=QUIET_MS,
            stop_event=self._stop,
            rust_timeout=500,
            yield_on_timeout=True,  # the first (empty) yield says the watch is set up
            raise_interrupt=False,
            force_polling=polling,
            poll_delay_ms=POLL_MS,
            recursive=not folders,
        )
        try:
            for batch in changes:
                self._ready.set()
                if again:
                    again = False
                    self._deliver([], True)
                if batch and self._handle(batch, watched) and folders:
                    return True  # (a watch of the tree follows new folders by itself)
        finally:
            changes.close()  # the watch ends here, not when the generator is collected
        return False

    def _wanted(self, change: watchfiles.Change, path: str) -> bool:
        if path == self._settings_real:
            return True
        rel = self._relative(path)
        return rel is not None and rel.parts[:1] != ("..",) and not any(map(is_hidden, rel.parts))

    def _relative(self, path: str) -> PurePath | None:
        try:
            return PurePath(os.path.relpath(path, self._root))
        except ValueError:  # another drive on Windows
            return None

    def _handle(self, batch: Iterable[tuple[watchfiles.Change, str]], watched: set[str]) -> bool:
        """Report a batch; True when a folder came, went or moved (the watch is set up again)."""
        files: set[Path] = set()
        rescan = settings = folders = False
        for change, path in batch:
            if path == self._settings_real:
                settings = True
                continue
            rel = self._relative(path)
            if rel is None or rel.parts[:1] == ("..",):
                continue
            if is_memory_relpath(rel):
                files.add(self.vault / rel)  # the store knows paths under the vault as given
            elif change == watchfiles.Change.deleted or os.path.isdir(path):
                rescan = True
                folders = folders or path in watched or os.path.isdir(path)
        if settings:
            self._settings_changed()
        if files or rescan:
            log.debug("vault changed: %d file(s)%s", len(files), ", rescan" if rescan else "")
            self._deliver(sorted(files), rescan)
        return folders

    # -- looking now -----------------------------------------------------------------------

    def check(self) -> None:
        """Compare the files' signatures with the previous check and report what differs
        (the first check only takes the baseline). Also checks the settings file (one stat)."""
        self.check_settings()
        with self._check_lock:
            current = vault_signatures(self.vault)
            previous, self._signatures = self._signatures, current
        if previous is not None:
            changed = changed_paths(previous, current)
            if changed:
                self._deliver(changed, False)

    def check_settings(self) -> None:
        """Report a settings file that changed since it was last seen (one stat)."""
        if self._settings_file is not None and self._settings_moved():
            self._on_settings_now()

    def _settings_moved(self) -> bool:
        assert self._settings_file is not None
        seen = file_signature(self._settings_file)
        with self._check_lock:
            moved, self._settings_seen = seen != self._settings_seen, seen
        return moved

    def _settings_changed(self) -> None:
        if self._settings_moved():
            self._on_settings_now()

    def _on_settings_now(self) -> None:
        if self._on_settings is None:
            return
        try:
            self._on_settings()
        except Exception:
            log.exception("could not reload the settings file")

    def _deliver(self, paths: list[Path], rescan: bool) -> None:
        try:
            self._on_vault(paths, rescan)
        except Exception:
            log.exception("could not apply changes from the vault")
