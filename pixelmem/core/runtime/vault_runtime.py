"""One vault kept current: the engine, its watcher and its index lane, behind one object.

The app, ``pixelmem serve`` and ``pixelmem mcp`` are adapters over :class:`VaultRuntime`; what
keeps a vault current is written once, here:

- every write goes through :meth:`VaultRuntime.write` (the engine's one gateway), and every
  change set, written here or found on disk by the watcher, is told to the observers once and
  asks the lane for a run; a burst of changes is folded into one or two runs;
- new settings (saved by the app, ``pixelmem config set``, an MCP client) are taken under the
  runtime's lock: what needs no new index applies at once; another model, chunking or backend
  cancels the run in progress and applies at the next run, while searches go on with the old
  snapshot and its own model (:class:`~pixelmem.core.index.engine.Engine`);
- a search reads the engine's immutable snapshot without the lock, waiting only as long as the
  adapter's :class:`~pixelmem.core.runtime.freshness.Freshness` says.

Observers (:class:`RuntimeObserver`) are called on the runtime's threads: the watcher's, the
lane's, or the caller's. The app's adapter turns them into Qt signals on the GUI thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.runtime.freshness import APP, Freshness
from pixelmem.core.runtime.index_lane import FinishedRun, IndexLane, LaneListener
from pixelmem.core.runtime.local_channel import ChannelServer
from pixelmem.core.runtime.watcher import VaultWatcher
from pixelmem.core.settings import Settings
from pixelmem.core.writes import ChangeSet, MemoryWrites, Written

if TYPE_CHECKING:
    from pixelmem.core.index.indexer import IndexReport, Progress
    from pixelmem.core.index.search import SearchHit

log = logging.getLogger(__name__)

T = TypeVar("T")
CHANNEL_WAITS = 10.0  # seconds a search asked over the local channel waits for the index


class RuntimeObserver:
    """What a runtime tells the adapter over it; each method must return quickly."""

    def changed(self, changes: ChangeSet, initiator: object) -> None:
        """Memories changed by a write through the runtime (``initiator`` asked for it)."""

    def changed_on_disk(self, changes: ChangeSet) -> None:
        """Memories changed by other programs (found by the watcher or a rescan)."""
        self.changed(changes, None)

    def settings_loaded(self, settings: Settings) -> None:
        """The settings file changed and the runtime now uses ``settings``."""

    def index_loaded(self) -> None:
        """A saved index was loaded: searches answer from it (partial until the first run)."""

    def index_started(self) -> None: ...

    def index_progress(self, done: int, total: int) -> None: ...

    def index_finished(self, run: FinishedRun) -> None: ...


class VaultRuntime(LaneListener):
    """One vault, kept current for one process; thread-safe."""

    def __init__(
        self,
        engine: Engine,
        freshness: Freshness = APP,
        *,
        settings_file: Path | None = None,
    ) -> None:
        self.engine = engine
        self.freshness = freshness
        self.settings_file = settings_file
        self._lock = threading.RLock()  # writes, applied changes and switches, one at a time
        self._observers: list[RuntimeObserver] = []
        self._files_ticket = 0  # the newest run that must hold every change known so far
        self.lane = IndexLane(self._index_run, listener=self)
        self.watcher = VaultWatcher(
            engine.vault,
            self.apply_changes,
            settings_file=settings_file,
            on_settings=self.reload_settings,
        )
        # `pixelmem search` asks this process over it while the vault is open here.
        self.channel = ChannelServer(engine.vault, self._channel_request)

    @classmethod
    def open(
        cls, vault: Path, freshness: Freshness, *, settings_file: Path | None = None
    ) -> VaultRuntime:
        """A runtime over ``vault`` with the settings in ``settings_file`` (scanned, not yet
        started)."""
        from pixelmem.core.settings import settings_path

        settings_file = settings_file or settings_path()
        engine = Engine(vault, Settings.load(settings_file))
        engine.store.scan()
        return cls(engine, freshness, settings_file=settings_file)

    @property
    def vault(self) -> Path:
        return self.engine.vault

    @property
    def settings(self) -> Settings:
        return self.engine.settings

    def subscribe(self, observer: RuntimeObserver) -> None:
        self._observers.append(observer)

    # -- starting and stopping -------------------------------------------------------------

    def start(self, *, watch: bool = True, load_saved: bool = True) -> None:
        """Start the lane and (``watch``) the watcher; with ``freshness.index_at_start`` a
        first run re-reads the vault (what changed before the watch was set up) and indexes.
        ``load_saved``: first load the index a process saved (:meth:`load_saved_index`)."""
        if load_saved:
            self.load_saved_index()
        if self.freshness.check_each_call:
            self.watcher.check()  # the baseline: every later change is seen at the next call
        self.lane.start()
        if watch:
            self.watcher.start()
        if self.freshness.index_at_start:
            self._files_ticket = self.lane.request(rescan=watch)
        if self.channel.start():
            log.debug("answering pixelmem search for %s on %s", self.vault, self.channel.path)

    def watch(self, timeout: float = 10.0) -> None:
        """Start following the vault's files (after the app's first scan)."""
        self.watcher.start(timeout)

    def stop(self, timeout: float = 60.0) -> None:
        """Stop watching, let a write in progress finish, cancel indexing (vectors so far are
        saved to the cache; waits up to ``timeout`` s for the run to end)."""
        self.channel.stop()
        self.watcher.stop()
        with self._lock:
            pass
        self.lane.stop(timeout)

    # -- changes ---------------------------------------------------------------------------

    def write(
        self,
        work: Callable[[MemoryWrites], Written[T]],
        initiator: object = None,
        *,
        wait: float | None = None,
    ) -> Written[T]:
        """Run ``work`` on the write gateway; announce its change set and index it. Waits up
        to ``wait`` s (default: the freshness policy's) until the change is searchable."""
        with self._lock:
            written = work(self.engine.writes)
        self._announce(written.changes, initiator)
        timeout = self.freshness.write_waits if wait is None else wait
        if written.changes and timeout > 0:
            self.lane.wait_searchable(self._files_ticket, timeout)
        return written

    def apply_changes(self, paths: Iterable[Path], rescan: bool = False) -> ChangeSet:
        """Files changed on disk (by anyone): re-read them (``rescan``: the whole vault)."""
        paths = list(paths)
        with self._lock:
            writes = self.engine.writes
            if rescan or len(paths) > self.freshness.rescan_threshold:
                changes = writes.rescan().changes
            else:
                changes = writes.reload_paths(paths).changes
        if changes:
            log.debug("picked up %d change(s) from disk", len(changes))
        if changes:
            self._files_ticket = self.lane.request()
            self._tell(lambda o: o.changed_on_disk(changes))
        return changes

    def _announce(self, changes: ChangeSet, initiator: object) -> None:
        if changes:
            self._files_ticket = self.lane.request()
            self._tell(lambda o: o.changed(changes, initiator))

    # -- settings --------------------------------------------------------------------------

    def reload_settings(self) -> None:
        """The settings file changed: use what it says now (nothing if that is in use)."""
        if self.settings_file is None:
            return
        loaded = Settings.load(self.settings_file)
        if self.switch_settings(loaded):
            log.info("the settings file changed on disk; reloaded it")
            self._tell(lambda o: o.settings_loaded(loaded))

    def switch_settings(self, settings: Settings, *, request: bool = True) -> bool:
        """Use ``settings``; whether they differ from those in use. Another model, chunking
        or backend cancels the run in progress and is applied by the next one (asked for here
        unless ``request`` is False: the caller asks, and waits for that run's report)."""
        with self._lock:
            if settings == self.engine.settings:
                return False
            self.engine.reconfigure(settings)
            reindex = self.engine.reconfigure_pending
        if reindex:
            self.lane.cancel(requeue=True)
            if request:
                self.lane.request()
        return True

    # -- calls -----------------------------------------------------------------------------

    def before_call(self) -> None:
        """What the freshness policy asks before a call: the settings file (one stat) and,
        with ``check_each_call``, the vault's file signatures."""
        if self.freshness.check_each_call:
            self.watcher.check()
        else:
            self.watcher.check_settings()

    def search(self, query: str, **options: Any) -> list[SearchHit]:
        """``Engine.search`` once the index holds what the policy asks for (no lock)."""
        self.wait_searchable(self.freshness.search_waits)
        return self.engine.search(query, **options)

    def wait_searchable(self, timeout: float) -> bool:
        """Whether every change known now is searchable within ``timeout`` seconds."""
        ticket = self._files_ticket
        return ticket == 0 or timeout <= 0 or self.lane.wait_searchable(ticket, timeout)

    def _channel_request(self, request: dict[str, Any]) -> dict[str, Any]:
        """A ``pixelmem search`` asked over the local channel: answered as that process would
        answer it (what changed an instant ago included: the files are compared first)."""
        from pixelmem.core.runtime.search_records import search_records

        if request.get("command") != "search" or not isinstance(request.get("args"), dict):
            raise PixelmemError("this process answers searches only")
        # (The first check only takes the baseline: the watch tells what came before it.)
        self.watcher.check()
        self.wait_searchable(CHANNEL_WAITS)
        deadline = time.monotonic() + CHANNEL_WAITS
        while not self.engine.index_ready and time.monotonic() < deadline:
            time.sleep(0.02)  # the first index after the start (a saved one: ~1 s)
        return search_records(self.engine, **request["args"])

    # -- indexing --------------------------------------------------------------------------

    def load_saved_index(self) -> None:
        """Load the saved index on the lane, before any run: searches answer from it at once
        (marked partial: ``engine.index_ready`` is False until the first run has compared it
        with the vault and brought it up to date by difference)."""

        def load() -> None:
            if self.engine.load_saved_index():
                self._tell(lambda o: o.index_loaded())

        self.lane.run_first(load)

    def request_index(self, *, rescan: bool = False) -> int:
        """Ask for a run (``rescan``: re-read the vault first); the ticket."""
        ticket = self.lane.request(rescan=rescan)
        self._files_ticket = max(self._files_ticket, ticket)
        return ticket

    def reindex_now(self, *, rescan: bool = False) -> IndexReport:
        """Ask for a run and wait for its report (raises what made it fail)."""
        return self.lane.run_and_wait(rescan=rescan)

    def cancel_indexing(self) -> None:
        self.lane.cancel()

    def _index_run(
        self,
        rescan: bool,
        progress: Progress,
        cancel: threading.Event,
        published: Callable[[], None],
    ) -> IndexReport:
        if rescan:
            with self._lock:
                changes = self.engine.writes.rescan().changes
            if changes:
                self._tell(lambda o: o.changed_on_disk(changes))
        return self.engine.reindex(progress=progress, cancel=cancel, published=published)

    # -- the lane's events, passed on ------------------------------------------------------

    def index_started(self) -> None:
        self._tell(lambda o: o.index_started())

    def index_progress(self, done: int, total: int) -> None:
        self._tell(lambda o: o.index_progress(done, total))

    def index_finished(self, run: FinishedRun) -> None:
        self._tell(lambda o: o.index_finished(run))

    def _tell(self, call: Callable[[RuntimeObserver], object]) -> None:
        for observer in list(self._observers):
            try:
                call(observer)
            except Exception:
                log.exception("a runtime observer failed")
