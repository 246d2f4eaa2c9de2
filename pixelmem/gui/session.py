"""One open vault: every engine call runs off the GUI thread and every write is announced.

Writes (save, create, delete, import, accepting drafts, external changes) go through the
engine's one write gateway (``core.writes.MemoryWrites``) on the shared write lane and emit
``memory_updated(changes, initiator)`` once per batch, as soon as the files are on disk. The
search index follows on its own lane: each announcement asks for a reindex, and requests
arriving while one runs are folded into one more run. So a save never waits for a long
first indexing, and the index is never rebuilt twice in parallel.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from pixelmem.core.errors import IndexCancelled, NoteNotWritable, PixelmemError
from pixelmem.core.index.engine import Engine, EngineStatus
from pixelmem.core.settings import Settings
from pixelmem.core.vault.gc_pause import collector_paused
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.writes import (
    ChangeSet,
    ImportResult,
    LinkUpdateResult,
    TrashRecord,
    Written,
)
from pixelmem.gui import welcome
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.workers import SerialLane, write_lane

if TYPE_CHECKING:
    from pixelmem.core.archive.inbox import Draft, Inbox
    from pixelmem.core.vault.links import LinkUpdate

log = logging.getLogger(__name__)

Callback = Callable[[Any], None] | None
PROGRESS_INTERVAL = 0.05  # seconds between progress signals: enough for a smooth bar
FIRST_PAINT_MS = 80  # the list paints before indexing starts (see _scanned)


class VaultSession(QObject):
    """Runs the engine for the main window; views talk to it and listen to the bus."""

    # Lists of memories go as objects: Signal(list) would copy 10k of them into a QVariantList
    # and back (~6 ms) and drop a list subclass's attributes (the list's order, see arrange).
    memories_listed = Signal(object)  # the scan cache's picture of the vault, before the scan
    nothing_listed = Signal()  # no picture (a first scan, no or an unusable scan cache)
    memories_loaded = Signal(object)  # every Memory (a list), once the vault is scanned
    indexing_started = Signal()
    indexing_finished = Signal(object)  # EngineStatus
    indexing_cancelled = Signal()
    trashed = Signal(object)  # TrashRecord, for an Undo button
    # (memory id, sentence): a read-only note was not trashed; the window asks, then force
    trash_refused = Signal(str, str)
    imported = Signal(object)  # ImportResult, after an import's change set is announced
    _progress = Signal(int, int)  # emitted from the indexing thread, delivered queued

    def __init__(
        self,
        engine: Engine,
        bus: MemoryBus,
        *,
        first_run: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.engine = engine
        self.bus = bus
        self.first_run = first_run
        self.writes = write_lane()
        self.indexing = SerialLane()
        self.status: EngineStatus | None = None
        self.loaded = False
        self.listed = False  # memories_listed was emitted
        self.listing_confirmed = False  # and the scan found exactly what it showed
        self._closed = False
        self.index_ready = False
        self._index_running = False
        self._index_again = False
        self._pending_settings: Settings | None = None
        self._cancel = threading.Event()
        self._progress.connect(bus.index_progress)
        bus.memory_updated.connect(self.request_reindex)
        # Puts the scan cache's picture in the list's order on the worker that reads it (the
        # window sets it: sorting 10k on the GUI thread delayed the first paint ~30 ms).
        self.arrange_listing: Callable[[list[Memory]], list[Memory]] | None = None

    @property
    def store(self) -> MemoryStore:
        return self.engine.store

    @property
    def busy_indexing(self) -> bool:
        return self._index_running

    # -- opening and indexing -------------------------------------------------------------

    def open(self) -> None:
        """Show the vault as the scan cache remembers it, scan it (and seed a first run), then
        index it; all off the GUI thread. The picture from the cache fills the list in a
        fraction of the scan's time (no file is looked at); the scan, started once the list
        has painted, then confirms or corrects it."""
        self.writes.submit(self._cached_listing, self._listed, self._listing_failed, context=self)

    def _cached_listing(self) -> list[Memory]:
        with collector_paused():  # its sort keys too: 10k tuples that live on (see gc_pause)
            memories = self.store.cached_listing()
            arrange = self.arrange_listing
            return arrange(memories) if arrange is not None and memories else memories

    def _listed(self, memories: list[Memory]) -> None:
        if not memories or self._closed:
            self.nothing_listed.emit()
            self._start_scan()
            return
        self.listed = True
        self.memories_listed.emit(memories)
        # As for indexing (see _scanned): the scan would take turns at the GIL with the list's
        # first paint.
        QTimer.singleShot(FIRST_PAINT_MS, self, self._start_scan)

    def _listing_failed(self, exc: BaseException) -> None:  # the scan will say what is wrong
        log.debug("no picture of the vault from the scan cache: %s", exc)
        self.nothing_listed.emit()
        self._start_scan()

    def _start_scan(self) -> None:
        if not self._closed:
            self.writes.submit(self._scan, self._scanned, self._report, context=self)

    def _scan(self) -> tuple[list[Memory], bool]:
        store = self.engine.store
        result = store.scan()  # its memories are copies already: no second list() on 10k
        memories, unchanged = result.memories, result.unchanged
        if self.first_run and not memories:
            self.engine.writes.create(
                welcome.WELCOME_TITLE,
                welcome.WELCOME_BODY,
                topics=welcome.WELCOME_TOPICS,
                importance="high",
            )
            memories, unchanged = store.list(), False
        return memories, unchanged

    def _scanned(self, scanned: tuple[list[Memory], bool]) -> None:
        memories, unchanged = scanned
        self.loaded = True
        self.listing_confirmed = self.listed and unchanged
        self.memories_loaded.emit(memories)
        # Let the list paint first: its Python delegate and the indexer's chunking would
        # otherwise take turns at the GIL and stall the first paint by ~50 ms.
        QTimer.singleShot(FIRST_PAINT_MS, self, self.request_reindex)

    def request_reindex(self, *_: object) -> None:
        """Bring the index up to date soon; folds into a running build's follow-up."""
        if not self.loaded or self._closed:
            return
        if self._index_running:
            self._index_again = True
            return
        self._start_reindex()

    def reconfigure(self, settings: Settings) -> None:
        """Apply new settings and re-index (a new model re-embeds everything)."""
        self._pending_settings = settings
        if self.loaded:
            self.request_reindex()

    def cancel_indexing(self) -> None:
        self._cancel.set()

    def _start_reindex(self) -> None:
        self._index_running, self._index_again = True, False
        self._cancel = cancel = threading.Event()
        settings, self._pending_settings = self._pending_settings, None
        engine, report = self.engine, self._throttled_progress()

        def work() -> EngineStatus:
            if settings is not None:
                engine.reconfigure(settings)
            engine.reindex(progress=report, cancel=cancel)
            return engine.status()

        self.indexing_started.emit()
        self.indexing.submit(work, self._reindexed, self._reindex_failed, context=self)

    def _throttled_progress(self) -> Callable[[int, int], None]:
        last = [0.0]

        def report(done: int, total: int) -> None:  # runs on the indexing thread
            if done == 0:
                # Embedding starts: the memories, chunks and keyword snapshot built so far live
                # for the whole run. Freeze them now, not only after the build (_reindexed):
                # otherwise a full collection during a long first run scans them all while
                # this thread holds the GIL, and the GUI thread stalls ~45 ms (bench_ui).
                gc.freeze()
            now = time.monotonic()
            if done in (0, total) or now - last[0] >= PROGRESS_INTERVAL:
                last[0] = now
                self._progress.emit(done, total)

        return report

    def _reindexed(self, status: EngineStatus) -> None:
        # The snapshot and the store's memories live long; keeping them out of the cyclic
        # garbage collector's scans avoids full collections of 100k+ objects, which would
        # pause whichever thread triggers them, the GUI thread included, for ~100 ms.
        gc.freeze()
        self.status, self.index_ready = status, True
        self._index_running = False
        self.indexing_finished.emit(status)
        self.bus.index_changed.emit()
        if self._index_again or self._pending_settings is not None:
            self._start_reindex()

    def _reindex_failed(self, exc: BaseException) -> None:
        self._index_running = False
        if isinstance(exc, IndexCancelled):
            self.indexing_cancelled.emit()
        else:
            self._report(exc)
            self.indexing_finished.emit(self.status)
        if self._index_again:
            self._start_reindex()

    # -- writes (all through the engine's one gateway, ``engine.writes``) -------------------

    def create(
        self,
        draft: Memory,
        on_done: Callback = None,
        on_error: Callback = None,
        *,
        initiator: object = None,
    ) -> None:
        writes = self.engine.writes
        self._write(lambda: writes.create_from(draft), on_done, on_error, initiator)

    def save(
        self,
        memory: Memory,
        *,
        force: bool = False,
        on_done: Callback = None,
        on_error: Callback = None,
        initiator: object = None,
    ) -> None:
        """Save an edited memory; ``ConflictError`` reaches ``on_error`` unless forced."""
        writes = self.engine.writes
        self._write(lambda: writes.update(memory, force=force), on_done, on_error, initiator)

    def save_copy(
        self, memory: Memory, on_done: Callback = None, *, initiator: object = None
    ) -> None:
        """Keep both: the edit becomes a new conflict-copy memory beside the original."""
        writes = self.engine.writes
        self._write(lambda: writes.save_conflict_copy(memory), on_done, None, initiator)

    def accept_draft(
        self,
        inbox: Inbox,
        draft: Draft,
        *,
        update: bool = False,
        on_done: Callback = None,
        on_error: Callback = None,
        initiator: object = None,
    ) -> None:
        """Accept a review-inbox draft (saving ``draft``'s edits first when ``update``)."""
        writes = self.engine.writes

        def work() -> Written[Memory]:
            if update:
                inbox.update(draft)
            return writes.accept_draft(inbox, draft.id)

        self._write(work, on_done, on_error, initiator)

    def _write(
        self,
        work: Callable[[], Written[Any]],
        on_done: Callback,
        on_error: Callback,
        initiator: object,
    ) -> None:
        def done(written: Written[Any]) -> None:
            self.announce(written.changes, initiator)  # views first: the row exists
            if on_done is not None:
                on_done(written.value)

        self.writes.submit(work, done, on_error or self._report, context=self)

    def announce(self, changes: ChangeSet, initiator: object = None) -> None:
        """Tell every view what changed (once per change set; nothing when nothing did)."""
        if changes:
            self.bus.memory_updated.emit(changes, initiator)

    def delete(
        self,
        memory_id: str,
        on_done: Callback = None,
        *,
        initiator: object = None,
        force: bool = False,
    ) -> None:
        """Trash a memory; a read-only note is refused (``trash_refused``) unless ``force``."""
        writes = self.engine.writes

        def done(record: TrashRecord) -> None:
            self.trashed.emit(record)
            if on_done is not None:
                on_done(record)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, NoteNotWritable):
                self.trash_refused.emit(memory_id, str(exc))
            else:
                self._report(exc)

        work = lambda: writes.delete(memory_id, force=force)  # noqa: E731
        self._write(work, done, failed, initiator)

    def undo_delete(self, record: TrashRecord, on_done: Callback = None) -> None:
        writes = self.engine.writes

        def done(memory: Memory) -> None:
            self.bus.message_reported.emit(self.tr("Restored “{title}”").format(title=record.title))
            if on_done is not None:
                on_done(memory.id)

        self._write(lambda: writes.restore(record), done, None, None)

    def reload(self, memory: Memory, on_done: Callback = None, *, initiator: object = None) -> None:
        """Re-read a memory's file from disk (the "Reload" answer to a conflict)."""
        store, writes = self.engine.store, self.engine.writes

        def work() -> Written[Memory]:
            paths = [memory.path] if memory.path else []
            written = writes.reload_paths(paths)
            fresh_id = (written.changes.created or written.changes.updated or (memory.id,))[0]
            return Written(store.get(fresh_id), written.changes)

        self._write(work, on_done, None, initiator)

    def apply_paths(self, paths: Iterable[Path]) -> None:
        """Files changed outside pixelmem: re-read them; our own writes compare equal and vanish.

        A memory another program (the CLI, an AI tool) moved to the vault's trash can be
        undone here like one deleted in the app.
        """
        writes, paths = self.engine.writes, list(paths)

        def work() -> Written[list[TrashRecord]]:
            written = writes.reload_paths(paths)
            found = (writes.trash.find(i) for i in written.changes.deleted)
            return Written([r for r in found if r is not None], written.changes)

        def done(records: list[TrashRecord]) -> None:
            if records:
                self.trashed.emit(records[-1])

        self._write(work, done, None, None)

    def merge(
        self,
        keep_id: str,
        other_ids: list[str],
        on_done: Callback = None,
        on_error: Callback = None,
    ) -> None:
        """Merge near-duplicates into ``keep_id``, links included, as one change set
        (:func:`~pixelmem.core.insight.merge.merge_memories`); ``on_done(MergeResult)``."""
        writes = self.engine.writes
        from pixelmem.core.insight.merge import merge_memories

        self._write(lambda: merge_memories(writes, keep_id, other_ids), on_done, on_error, None)

    def apply_link_updates(self, updates: list[LinkUpdate]) -> None:
        """Rewrite links in other memories (after a rename), one change set for all of them."""
        writes = self.engine.writes

        def done(result: LinkUpdateResult) -> None:
            count = len(result.updated)
            message = self.tr("Updated the links in %n memories", "", count)
            if result.failed:
                detail = "; ".join(result.failed[:3])
                self.bus.error_reported.emit(
                    self.tr("{message}; left alone: {detail}").format(
                        message=message, detail=detail
                    )
                )
            else:
                self.bus.message_reported.emit(message)

        self._write(lambda: writes.apply_link_updates(updates), done, None, None)

    def import_files(self, paths: Iterable[Path]) -> None:
        """Import files and folders (.md .txt .pdf .docx); failures are reported, not fatal."""
        writes, paths = self.engine.writes, list(paths)
        self._write(lambda: writes.import_files(paths), self._imported, None, None)

    def _imported(self, result: ImportResult) -> None:
        self.imported.emit(result)
        created, failed = result.created, result.failed
        message = self.tr("Imported %Ln file(s)", "", len(created))
        if result.skipped:
            message = self.tr("{message}; {skipped} skipped").format(
                message=message, skipped=len(result.skipped)
            )
        if failed:
            detail = "; ".join(failed[:3])
            self.bus.error_reported.emit(
                self.tr("{message}; {failed} could not be imported: {detail}").format(
                    message=message, failed=len(failed), detail=detail
                )
            )
        else:
            self.bus.message_reported.emit(message)

    def _report(self, exc: BaseException) -> None:
        self.bus.error_reported.emit(describe_error(exc))

    def shutdown(self, msecs: int = 5000) -> None:
        """Stop indexing and let queued writes finish (nothing half-written on quit)."""
        self._closed = True
        self._cancel.set()
        self.writes.wait(msecs)
        self.indexing.wait(msecs)


def describe_error(exc: BaseException) -> str:
    """The sentence to show: pixelmem errors explain themselves; others get their type."""
    if isinstance(exc, PixelmemError):
        text = str(exc)
        return text[:1].upper() + text[1:]
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")
    return f"{type(exc).__name__}: {exc}"
