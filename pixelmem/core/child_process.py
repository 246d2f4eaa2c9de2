"""Long CPU work in a process of its own, so that it never holds the window's GIL.

Why: one GIL serves the window's thread and every worker thread. Under CPU load (two cores,
other programs) the operating system takes the CPU from a worker while it holds the GIL, and
the window waits as long (bench_ui --why: the window waiting 20-45 ms, and up to 321 ms, while
a worker tokenising notes or laying out the map waited for a CPU). A child process shares no
GIL with the window: its seconds of work can only take a CPU, and at a lower priority not even
that from the window's thread.

Rules:

* A :class:`ChildProcess` is one child, started at its first :meth:`~ChildProcess.run`
  (``spawn``: a fresh interpreter, never a fork of a threaded GUI process), kept for the next
  calls, at a lower priority (:data:`NICE`), with one BLAS thread, stopped after ``idle_stop_s``
  without a call and at exit.
* A child ends when its parent does, however the parent ended (killed, crashed): a pool's
  worker process holds both ends of its task pipe and would otherwise wait for work for ever,
  with the model it loaded (hundreds of MB) in memory. It watches the parent's sentinel.
* :meth:`~ChildProcess.run` ``(function, *args)`` returns ``function(*args)`` computed in the
  child; an exception of the function itself is raised as it would be. When no child can be
  used it raises :class:`ChildUnavailable` and the caller does the work itself: a child that
  cannot start or dies (a sandbox without processes, a frozen build without multiprocessing
  support, killed for memory) is given up for the rest of the process, the reason logged once.
* ``function`` and its arguments must pickle (``function``: a module-level function).
* As with every ``spawn``ed process, the child imports the parent's main script (not a
  package's ``__main__``, as ``python -m pixelmem``): a script that uses pixelmem must keep
  its work under ``if __name__ == "__main__":`` (the ``pixelmem`` command, the frozen app's
  entry and the benchmarks do). One that does not gets the work done in its own process after
  the child fails, and its top-level code run once more in that child.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pickle import PicklingError
from typing import Any, TypeVar

from pixelmem.core.blas_threads import use_one_blas_thread

log = logging.getLogger(__name__)

NICE = 5  # the child's priority below the app's: the window's thread gets a CPU first
IDLE_STOP_S = 120.0  # a child (tens of MB, a model's hundreds) stops after this long idle

T = TypeVar("T")
_children: weakref.WeakSet[ChildProcess] = weakref.WeakSet()


class ChildUnavailable(Exception):
    """No child process can do this work: the caller does it in its own thread."""


class ChildProcess:
    """One spawned child for one kind of work (``purpose`` names it in the log)."""

    def __init__(self, purpose: str, *, idle_stop_s: float = IDLE_STOP_S) -> None:
        self.purpose = purpose
        self.idle_stop_s = idle_stop_s
        self.broken: str | None = None  # why no child is used any more, once one failed
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._calls = 0  # calls using the child now
        self._idle_timer: threading.Timer | None = None
        _children.add(self)

    @property
    def usable(self) -> bool:
        """False once a child failed: callers may skip preparing work for it."""
        return self.broken is None

    @property
    def running(self) -> bool:
        return self._pool is not None

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the child; :class:`ChildUnavailable` if no child can run it."""
        if self.broken is not None:
            raise ChildUnavailable(self.broken)
        try:
            with self._child() as child:
                done, value = child.submit(_outcome, function, args).result()
        except (BrokenProcessPool, OSError, PicklingError) as exc:
            self._give_up(exc)
            raise ChildUnavailable(self.broken or str(exc)) from exc
        if not done:
            raise value  # the work's own error (even an OSError): the child is fine
        return value

    def pids(self) -> list[int]:
        """The child's process id (none when it is not running): for tests and diagnostics."""
        pool = self._pool
        return [] if pool is None else list(pool._processes or {})

    def shutdown(self) -> None:
        """Stop the child (a later call starts a new one)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    @contextlib.contextmanager
    def _child(self) -> Iterator[ProcessPoolExecutor]:
        """The child (started if need be) for one call; stopped once idle for idle_stop_s."""
        with self._lock:
            if self._pool is None:
                use_one_blas_thread()  # the child reads it at its numpy import: one BLAS thread
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_child_started,
                )
            self._calls += 1
            pool = self._pool
        try:
            yield pool
        finally:
            with self._lock:
                self._calls -= 1
                if self._calls == 0:
                    self._stop_when_idle()

    def _stop_when_idle(self) -> None:
        """(Under _lock.) Stop the child unless another call comes within idle_stop_s."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        timer = threading.Timer(self.idle_stop_s, lambda: self._stop_if_idle(timer))
        timer.daemon = True
        self._idle_timer = timer
        timer.start()

    def _stop_if_idle(self, timer: threading.Timer) -> None:
        with self._lock:
            if self._calls or timer is not self._idle_timer:
                return  # in use again, or a later call armed its own timer
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)

    def _give_up(self, exc: BaseException) -> None:
        with self._lock:
            if self.broken is None:
                self.broken = f"{type(exc).__name__}: {exc}"
                log.warning(
                    "%s in this process from now on (no child process: %s)",
                    self.purpose,
                    self.broken,
                )
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


@atexit.register
def _shutdown_all() -> None:
    for child in list(_children):
        child.shutdown()


def _outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
    """In the child: (True, the result) or (False, the exception the work raised) — told
    apart from a failure of the child or the hand-over, which the parent sees as raised."""
    try:
        return True, function(*args)
    except Exception as exc:
        return False, exc


def _child_started() -> None:
    """In the child, before any work: a lower priority, and an end when the parent ends."""
    with contextlib.suppress(OSError):  # not allowed: the same priority, still its own GIL
        os.nice(NICE)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """Wait for ``parent`` to end (its sentinel is ready then: on POSIX a pipe that closes, on
    Windows the process handle), then end this child at once: no clean-up is owed to anyone."""
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)
