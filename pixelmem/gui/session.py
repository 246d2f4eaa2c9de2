"""One open vault in the app: the Qt adapter over the vault's runtime (``core.runtime``).

The runtime keeps the vault current (its watcher follows the files and the settings file, its
index lane folds requests into as few runs as it can); this adapter runs every call off the
GUI thread and delivers the runtime's events on it, through the bus. Writes (save, create,
delete, import, accepting drafts) go through the runtime's one write path on the shared write
lane; every change set, ours or found on disk, is announced once as
``memory_updated(changes, initiator)`` as soon as the files are on disk. The index follows on
the runtime's lane, so a save never waits for a long first indexing. The launch stays as it
was: the list paints the scan cache's picture, the scan confirms it, then indexing starts.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from pixelmem.core.errors import NoteNotWritable, PixelmemError
from pixelmem.core.index.engine import Engine, EngineStatus
from pixelmem.core.runtime.freshness import APP
from pixelmem.core.runtime.index_lane import FinishedRun
from pixelmem.core.runtime.vault_runtime import RuntimeObserver, VaultRuntime
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault.gc_pause import collector_paused
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.writes import (
    ChangeSet,
    ImportResult,
    LinkUpdateResult,
    TrashRecord,
    Written,
)
from pixelmem.gui import welcome
from pixelmem.gui.bus import MemoryBus
from pixelmem.gui.workers import run_in_pool, write_lane

if TYPE_CHECKING:
    from pixelmem.core.archive.inbox import Draft, Inbox
    from pixelmem.core.vault.links import LinkUpdate

log = logging.getLogger(__name__)

Callback = Callable[[Any], None] | None
PROGRESS_INTERVAL = 0.05  # seconds between progress signals: enough for a smooth bar
FIRST_PAINT_MS = 80  # the list paints before indexing starts (see _scanned)
# The first index waits at most this long for the window to build its panels (hold_index).
WINDOW_BUILD_MS = 3000


class VaultSession(QObject, RuntimeObserver):
    """Runs the vault's runtime for the main window; views talk to it and listen to the bus."""

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
    settings_reloaded = Signal(object)  # Settings another process saved in the settings file
    # The runtime's events, emitted on its threads and delivered queued on the GUI thread.
    _progress = Signal(int, int)
    _changes = Signal(object, object, object)  # (ChangeSet, initiator, TrashRecord or None)
    _index_began = Signal()
    _index_loaded = Signal()
    _index_ended = Signal(object, object)  # (FinishedRun, EngineStatus or None)
    _settings_loaded = Signal(object)

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
        engine.explains = True  # the search panel explains every hit (its score's tooltip)
        self.bus = bus
        self.first_run = first_run
        self.writes = write_lane()  # the scan, writes and settings switches, off the GUI thread
        # The window's process keeps only the window's work on its GIL: a built-in model
        # embeds the vault in a child process (core/providers/embeddings/apart).
        engine.embed_apart = True
        self.runtime = VaultRuntime(engine, APP, settings_file=settings_path())
        self.status: EngineStatus | None = None
        self.loaded = False
        self.listed = False  # memories_listed was emitted
        self.listing_confirmed = False  # and the scan found exactly what it showed
        self._closed = False
        self.index_ready = False
        self._index_running = False
        self._held = False  # the window is building its panels: the first index waits
        self._index_due = False  # ... and was due meanwhile
        self._settings = engine.settings  # the newest settings the window gave or heard of
        self._last_progress = 0.0
        self._progress.connect(bus.index_progress)
        self._changes.connect(self._announce_changes)
        self._index_began.connect(self._indexing_began)
        self._index_loaded.connect(self.bus.index_changed)  # the saved one: searchable now
        self._index_loaded.connect(self._prepare_first_search)
        # A saved index: the first run brings it up to date by difference, no long embedding.
        self._index_loaded.connect(self.release_index)
        self._index_ended.connect(self._indexing_ended)
        self._settings_loaded.connect(self._settings_file_changed)
        self.runtime.subscribe(self)
        # The lane; watching starts after the first scan, the saved index loads with it.
        self.runtime.start(watch=False, load_saved=False)
        # Puts the scan cache's picture in the list's order on the worker that reads it (the
        # window sets it: sorting 10k on the GUI thread delayed the first paint ~30 ms).
        self.arrange_listing: Callable[[list[Memory]], list[Memory]] | None = None

    @property
    def store(self) -> MemoryStore:
        return self.engine.store

    @property
    def busy_indexing(self) -> bool:
        return self.runtime.lane.busy

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
            # Meanwhile the index saved by the last session (searches answer from it at once;
            # the first run, after the scan, brings it up to date by difference).
            self.runtime.load_saved_index()

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
        arrange = self.arrange_listing
        if arrange is not None and memories and not (self.listed and unchanged):
            # In the list's order here, not on the GUI thread: sorting 10k there, taking turns
            # at the GIL with the indexer, froze the window ~0.2 s (bench_ui --why, 10k).
            with collector_paused():
                memories = arrange(memories)
        return memories, unchanged

    def _scanned(self, scanned: tuple[list[Memory], bool]) -> None:
        memories, unchanged = scanned
        self.loaded = True
        self.listing_confirmed = self.listed and unchanged
        self.memories_loaded.emit(memories)
        # Let the list paint first: its Python delegate and the indexer's chunking would
        # otherwise take turns at the GIL and stall the first paint by ~50 ms.
        QTimer.singleShot(FIRST_PAINT_MS, self, self._first_index)

    def hold_index(self) -> None:
        """The window builds its panels now: the first index starts when it calls
        :meth:`release_index`, when a saved index has loaded (the run is then one by
        difference, on the lane after the load anyway), or :data:`WINDOW_BUILD_MS` from now,
        whichever comes first. A vault's first index is minutes of both cores embedding;
        building the docked panels beside it, a step of the window's own took 15-24 ms
        (bench_ui --why, 2k)."""
        self._held = True
        QTimer.singleShot(WINDOW_BUILD_MS, self, self.release_index)

    def release_index(self) -> None:
        """The window's panels are built: the first index may start (now, if it was due)."""
        self._held = False
        if self._index_due:
            self._index_due = False
            self._first_index()

    def _first_index(self) -> None:
        if self._closed:
            return
        if self._held:
            self._index_due = True
            return
        self.request_reindex()
        # Follow the files from now on; the watch is set up on its own thread.
        self.writes.submit(lambda: self.runtime.watch(0), None, self._report, context=self)

    def request_reindex(self, *_: object) -> None:
        """Bring the index up to date soon; folds into a running build's follow-up."""
        if self.loaded and not self._closed:
            self.runtime.request_index()

    def reconfigure(self, settings: Settings) -> None:
        """Use new settings (a new model re-embeds everything, on the runtime's lane)."""
        self._settings = settings
        self.writes.submit(
            lambda: self.runtime.switch_settings(settings), None, self._report, context=self
        )

    def cancel_indexing(self) -> None:
        self.runtime.cancel_indexing()

    # -- the runtime's events (called on its threads) ---------------------------------------

    def changed(self, changes: ChangeSet, initiator: object) -> None:
        """Our own writes: announced with their result (see _write), in one GUI-thread turn."""

    def changed_on_disk(self, changes: ChangeSet) -> None:
        # A memory another program (the CLI, an AI tool) moved to the vault's trash can be
        # undone here like one deleted in the app.
        trash = self.engine.writes.trash
        found = [r for r in (trash.find(i) for i in changes.deleted) if r is not None]
        self._changes.emit(changes, None, found[-1] if found else None)

    def settings_loaded(self, settings: Settings) -> None:
        self._settings_loaded.emit(settings)

    def index_loaded(self) -> None:
        self._index_loaded.emit()

    def index_started(self) -> None:
        self._last_progress = 0.0
        self._index_began.emit()

    def index_progress(self, done: int, total: int) -> None:
        if done == 0:
            # Embedding starts: the memories, chunks and keyword snapshot built so far live
            # for the whole run. Freeze them now, not only after the build: otherwise a full
            # collection during a long first run scans them all while this thread holds the
            # GIL, and the GUI thread stalls ~45 ms (bench_ui).
            gc.freeze()
        now = time.monotonic()
        if done in (0, total) or now - self._last_progress >= PROGRESS_INTERVAL:
            self._last_progress = now
            self._progress.emit(done, total)

    def index_finished(self, run: FinishedRun) -> None:
        # The snapshot and the store's memories live long; keeping them out of the cyclic
        # garbage collector's scans avoids full collections of 100k+ objects, which would
        # pause whichever thread triggers them, the GUI thread included, for ~100 ms.
        gc.freeze()
        status = self.engine.status() if run.report is not None else None
        self._index_ended.emit(run, status)

    # -- … delivered on the GUI thread -----------------------------------------------------

    def _announce_changes(
        self, changes: ChangeSet, initiator: object, trashed: TrashRecord | None
    ) -> None:
        if self._closed:
            return
        self.announce(changes, initiator)
        if trashed is not None:
            self.trashed.emit(trashed)

    def _settings_file_changed(self, settings: Settings) -> None:
        if settings != self._settings and not self._closed:
            self._settings = settings
            self.settings_reloaded.emit(settings)

    def _indexing_began(self) -> None:
        self._index_running = True
        self.indexing_started.emit()

    def _indexing_ended(self, run: FinishedRun, status: EngineStatus | None) -> None:
        self._index_running = self.runtime.lane.busy
        if self._closed:
            return
        if run.cancelled:
            self.indexing_cancelled.emit()
        elif status is None:
            self._report(run.failure or PixelmemError(run.error))
            self.indexing_finished.emit(self.status)
        else:
            first = not self.index_ready
            self.status, self.index_ready = status, True
            self.indexing_finished.emit(status)
            self.bus.index_changed.emit()
            self._prepare_first_search()
            if first:
                self._load_word_cut_ahead()

    def _prepare_first_search(self) -> None:
        """What the new snapshot's first search would do once, done on a worker before the
        first keystroke (Engine.prepare_first_search: the anchors embedded in the embedding
        child, the hub chunks damped, numpy.ma imported)."""
        if not self._closed:
            run_in_pool(self.engine.prepare_first_search, context=self)

    def _load_word_cut_ahead(self) -> None:
        """Chinese word cutting loaded on a worker once the index is first ready, when the
        vault holds Chinese notes: left to the first Chinese search, its load froze the
        window while someone typed it. Built a slice of the dictionary at a time
        (core/index/word_cut: rjieba's own load holds the GIL 0.1-0.35 s in one call)."""
        index = self.engine.index

        def load() -> None:
            from pixelmem.core.index.scripts import CJK_SCRIPT
            from pixelmem.core.index.word_cut import load_in_steps

            if index.vault_counts()[CJK_SCRIPT] > 0:
                load_in_steps()  # a slice of the dictionary at a time: no long GIL hold

        run_in_pool(load, context=self)

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

        runtime = self.runtime
        self.writes.submit(
            lambda: runtime.write(lambda _gateway: work(), initiator),
            done,
            on_error or self._report,
            context=self,
        )

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
        """Files changed outside pixelmem (what the runtime's watcher reports): re-read them;
        our own writes compare equal and vanish."""
        runtime, paths = self.runtime, list(paths)
        self.writes.submit(lambda: runtime.apply_changes(paths), None, self._report, context=self)

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
        """Import files and folders (any kind importers read); failures are reported, not fatal."""
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
        """Stop watching and indexing and let queued writes finish (nothing half-written)."""
        self._closed = True
        self.runtime.watcher.stop()
        self.runtime.cancel_indexing()
        self.writes.wait(msecs)
        self.runtime.stop(msecs / 1000)


def describe_error(exc: BaseException) -> str:
    """The sentence to show: pixelmem errors explain themselves; others get their type."""
    if isinstance(exc, PixelmemError):
        text = str(exc)
        return text[:1].upper() + text[1:]
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")
    return f"{type(exc).__name__}: {exc}"
