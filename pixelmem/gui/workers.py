"""Background work in one line, results back on the GUI thread (never block the UI thread).

    run_in_pool(lambda: engine.search(q), on_result=self._show, on_error=self._fail)

``fn`` runs on a ``QThreadPool`` worker; ``on_result(value)`` / ``on_error(exc)`` run later on
the GUI thread. Writes go through a :class:`SerialLane` (one thread, first in first out) so two
saves never race; :func:`write_lane` is the lane the whole app shares. :class:`LatestOnly`
numbers each request and drops answers to superseded ones (search as you type).
:class:`UiPulse` lets background work (core/step_aside) know when the window's thread is late.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot

from pixelmem.core import step_aside
from pixelmem.core.vault.gc_pause import collector_paused

log = logging.getLogger(__name__)

ResultFn = Callable[[Any], None]
ErrorFn = Callable[[BaseException], None]

_error_handler: ErrorFn | None = None
_live: set[TaskHandle] = set()  # handles waiting for delivery (GUI thread only)
_pools: list[QThreadPool] = []  # every private pool, so tests and shutdown can wait on them
# A pool's idle thread ends after 30 s (Qt's default expiry), and the next start() makes a new
# one on the caller's thread, the GUI thread: under load that took 13-45 ms of the window
# (bench_ui --why: session._prepare_first_search > run_in_pool as a vault's indexing ended, the
# pool idle since it began). An idle thread costs a sleeping stack, and a pool has at most its
# maximum (the cores): they are kept for the pool's life. Set before a pool's first start (Qt
# applies it to threads made after).
KEEP_IDLE_THREADS = -1
RETIRE_MS = 20  # how soon a handle delivered before its worker let go of it is looked at again


def set_error_handler(handler: ErrorFn | None) -> None:
    """Where errors go when a caller passes no ``on_error`` (the main window's status bar)."""
    global _error_handler
    _error_handler = handler


def report(exc: BaseException) -> None:
    """``exc`` to the app's error handler (:func:`set_error_handler`), or to the log: what a
    task's failure does when its submitter gave no ``on_error``."""
    if _error_handler is not None:
        _error_handler(exc)
    else:
        log.error("background task failed: %s", exc, exc_info=exc)


class TaskHandle(QObject):
    """One submitted task. Lives on the GUI thread; the worker only emits ``_done`` on it.

    The handle and its callbacks die on the GUI thread, never on the worker: a QObject whose
    last reference a worker drops is destroyed on the worker, while the GUI thread may still be
    dispatching an event to it (Qt forbids deleting an object from another thread; ~3 % of
    handles died on a worker before). The worker sets ``_released`` once it has let go of the
    handle; a delivered handle waits in ``_retiring`` until then. The task's function and its
    answer are plain data the worker may let go of: with them kept for the GUI thread to free
    as well, bench_ui at 10k memories measured 64 stalls over a frame instead of 7.
    """

    _done = Signal(bool, object)  # (succeeded, value or exception)
    finished = Signal()

    def __init__(self, on_result: ResultFn | None, on_error: ErrorFn | None, context: Any) -> None:
        super().__init__()
        self._on_result = on_result
        self._on_error = on_error
        self._context = context
        self._discarded = False
        self._released = threading.Event()
        self.done = False
        # Sender and receiver are this GUI-thread object, so an emit from a worker is queued.
        self._done.connect(self._deliver)

    def discard(self) -> None:
        """Forget the callbacks: the task still runs to its end, its outcome is dropped."""
        self._discarded = True

    @Slot(bool, object)
    def _deliver(self, ok: bool, value: object) -> None:
        self.done = True
        _live.discard(self)
        try:
            if self._discarded or not self._context_alive():
                return
            if ok:
                if self._on_result is not None:
                    self._on_result(value)
            elif self._on_error is not None:
                self._on_error(value)  # type: ignore[arg-type]
            else:
                report(value)  # type: ignore[arg-type]
        finally:
            self.finished.emit()
            _retire(self)

    def _context_alive(self) -> bool:
        return self._context is None or shiboken6.isValid(self._context)


_retiring: list[TaskHandle] = []  # delivered, the worker not yet done with them (GUI thread)
_retire_timer: QTimer | None = None


def _retire(handle: TaskHandle) -> None:
    """Keep ``handle`` (and so its callbacks) until its worker has let go of it."""
    if not handle._released.is_set():
        _retiring.append(handle)
        _schedule_retiring()


def _schedule_retiring() -> None:
    global _retire_timer
    if _retire_timer is None:
        _retire_timer = QTimer()
        _retire_timer.setSingleShot(True)
        _retire_timer.setInterval(RETIRE_MS)
        _retire_timer.timeout.connect(_let_go_of_released)
    if not _retire_timer.isActive():
        _retire_timer.start()


def _let_go_of_released() -> None:
    """Drop the delivered handles whose workers let go of them: they die here, on this thread."""
    _retiring[:] = [handle for handle in _retiring if not handle._released.is_set()]
    if _retiring:
        _schedule_retiring()


def owner(callback: Callable[..., Any] | None) -> QObject | None:
    """The QObject whose method ``callback`` is, if it is one (else ``None``)."""
    target = getattr(callback, "__self__", None)
    return target if isinstance(target, QObject) else None


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], handle: TaskHandle) -> None:
        super().__init__()
        self._fn: Callable[[], Any] | None = fn
        self._handle: TaskHandle | None = handle

    def run(self) -> None:
        # The GUI thread keeps the handle until the worker has let go of it (TaskHandle).
        fn, handle = self._fn, self._handle
        self._fn = self._handle = None
        assert fn is not None and handle is not None
        released = handle._released
        ok = True
        try:
            value = fn()
        except BaseException as exc:  # every failure, even SystemExit, goes back to the GUI
            ok, value = False, exc
        del fn
        _emit_done(handle, ok, value)
        del handle, value
        released.set()


def _emit_done(handle: TaskHandle, ok: bool, value: object) -> None:
    if not shiboken6.isValid(handle):  # Qt destroyed it (shutdown): nobody waits
        if not ok:
            log.warning("background task failed after shutdown began: %s", value)
        return
    try:
        handle._done.emit(ok, value)
    except RuntimeError:  # destroyed between the check and the emit
        if shiboken6.isValid(handle):
            raise


def run_in_pool(
    fn: Callable[[], Any],
    on_result: ResultFn | None = None,
    on_error: ErrorFn | None = None,
    *,
    pool: QThreadPool | None = None,
    context: QObject | None = None,
) -> TaskHandle:
    """Run ``fn()`` on ``pool`` (the global pool by default); deliver on the GUI thread.

    Call from the GUI thread. With ``context``, nothing is delivered once that QObject is gone
    (a closed dialog); without it, a callback that is a method of a QObject makes that object
    the context, so a widget closed while its worker ran is never called. Errors without
    ``on_error`` go to :func:`set_error_handler`'s handler.
    """
    handle = TaskHandle(on_result, on_error, context if context is not None else owner(on_result))
    _live.add(handle)
    (pool or _global_pool()).start(_Task(fn, handle))
    return handle


def _global_pool() -> QThreadPool:
    pool = QThreadPool.globalInstance()
    if pool.expiryTimeout() != KEEP_IDLE_THREADS:  # once, before its first thread
        pool.setExpiryTimeout(KEEP_IDLE_THREADS)
    return pool


def import_then(modules: Sequence[str], then: Callable[[], Any], *, context: QObject) -> TaskHandle:
    """Import ``modules`` on a worker, then call ``then()`` on the GUI thread (also after an
    import failed: ``then`` imports them again and raises where the error can be reported).

    For views whose modules are slow to import (numpy, the search stack, httpx: 0.1-0.2 s)
    but quick to build: the import would freeze a window that is already on screen.

    The collector is paused meanwhile and what was imported frozen after (modules live as
    long as the process): an import's burst of objects set off full collections on the
    worker that held the GIL from the window (importing the chat pane: 12.9 ms, generation 2;
    each panel module imported under bench_gil_holds' HoldFinder)."""

    def load() -> None:
        with collector_paused(keep=True):
            for name in modules:
                step_aside.step_aside()  # a building or late window first
                importlib.import_module(name)

    return run_in_pool(load, lambda _: then(), lambda _exc: then(), context=context)


class SerialLane:
    """A one-thread lane: tasks run one at a time, in submission order (writes, reindex)."""

    def __init__(self) -> None:
        self._pool = QThreadPool()
        self._pool.setMaxThreadCount(1)
        self._pool.setExpiryTimeout(KEEP_IDLE_THREADS)
        _pools.append(self._pool)

    def submit(
        self,
        fn: Callable[[], Any],
        on_result: ResultFn | None = None,
        on_error: ErrorFn | None = None,
        *,
        context: QObject | None = None,
    ) -> TaskHandle:
        return run_in_pool(fn, on_result, on_error, pool=self._pool, context=context)

    def wait(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)

    @property
    def busy(self) -> bool:
        return self._pool.activeThreadCount() > 0


_write_lane: SerialLane | None = None
_write_lane_lock = threading.Lock()


def write_lane() -> SerialLane:
    """The app-wide lane for everything that writes files or rebuilds the index."""
    global _write_lane
    with _write_lane_lock:
        if _write_lane is None:
            _write_lane = SerialLane()
        return _write_lane


class Superseded(Exception):
    """A :class:`LatestOnly` request that a newer one replaced before it started."""


class LatestOnly:
    """Numbers requests; only the answer to the newest one is delivered (search as you type).
    A request replaced before a worker started it is not run. ``interactive``: someone waits
    for these answers, so background work steps aside while one runs (core/step_aside)."""

    def __init__(self, pool: QThreadPool | None = None, *, interactive: bool = False) -> None:
        self._pool = pool
        self._sequence = 0
        self._interactive = interactive

    @property
    def sequence(self) -> int:
        return self._sequence

    def submit(
        self,
        fn: Callable[[], Any],
        on_result: ResultFn,
        on_error: ErrorFn | None = None,
        *,
        context: QObject | None = None,
    ) -> int:
        """Start ``fn``; return its sequence number. Older pending answers become stale."""
        self._sequence += 1
        number = self._sequence

        def unless_superseded() -> Any:
            # Queued behind busy workers while newer requests came (typing fast on a busy
            # machine): its answer would be dropped, so it does not run at all. Running it
            # only took a CPU and the GIL from the window and from the newest request.
            if number != self._sequence:
                raise Superseded(number)
            if not self._interactive:
                return fn()
            with step_aside.interactive():
                return fn()

        run_in_pool(
            unless_superseded,
            lambda value: self._if_current(number, on_result, value),
            lambda exc: self._if_current(number, on_error or report, exc),
            pool=self._pool,
            context=context if context is not None else owner(on_result),
        )
        return number

    def invalidate(self) -> None:
        """Drop whatever is in flight (the query was cleared)."""
        self._sequence += 1

    def is_current(self, number: int) -> bool:
        return number == self._sequence

    def _if_current(self, number: int, callback: Callable[[Any], None], value: Any) -> None:
        if number == self._sequence:
            callback(value)


def wait_for_all(msecs: int = 10_000) -> bool:
    """Wait for the global pool and every lane to finish (shutdown, tests)."""
    ok = QThreadPool.globalInstance().waitForDone(msecs)
    for pool in _pools:
        ok = pool.waitForDone(msecs) and ok
    _let_go_of_released()
    return ok


def active_thread_count() -> int:
    """Workers still running a task, across the global pool and every lane."""
    pools = [QThreadPool.globalInstance(), *_pools]
    return sum(p.activeThreadCount() for p in pools)


# -- the window's pulse ------------------------------------------------------------------
# While background work takes steps, a timer on the GUI thread says it is on time, so a step
# taken while it is late lets it run first (core/step_aside). Only while background work runs:
# the first step asks for the pulse (a queued signal, from any thread); it stops once no step
# came for IDLE_S, so an idle window never wakes for it.

PULSE_MS = 4  # twice within step_aside.UI_LATE_S: a late beat means a late window
IDLE_S = 0.5


class UiPulse(QObject):
    _wanted = Signal()  # emitted on any thread, delivered on the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self, interval=PULSE_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._beat)
        self._wanted.connect(self._start, Qt.ConnectionType.QueuedConnection)
        step_aside.watch_ui(self._wanted.emit)
        self.destroyed.connect(lambda *_: step_aside.watch_ui(None))

    @property
    def beating(self) -> bool:
        return self._timer.isActive()

    def _start(self) -> None:
        if not self._timer.isActive():
            step_aside.ui_beat()
            self._timer.start()

    def _beat(self) -> None:
        if step_aside.seconds_since_last_step() > IDLE_S:
            self._timer.stop()
            step_aside.ui_rest()
            return
        step_aside.ui_beat()


def install_pulse(app: QObject) -> UiPulse:
    """The application's pulse (one; kept by the application object)."""
    pulse = app.findChild(UiPulse)
    return pulse if isinstance(pulse, UiPulse) else UiPulse(app)
