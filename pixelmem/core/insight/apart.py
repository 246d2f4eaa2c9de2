"""The map's long numpy work (the layout of every point, its clusters) in a process of its own.

Why: one GIL serves the window's thread and every worker thread. Under CPU load (two cores,
other programs) the operating system takes the CPU from a worker while it holds the GIL, and
the window waits as long (bench_ui --why, typing a search over 100k chunks with the map open:
the layout's numpy steps each ≤ 1.6 ms, yet the window waited 25-321 ms for the GIL while
their thread waited for a CPU). A child process shares no GIL with the window: its seconds of
layout can only take a CPU, never the window's turn at Python.

Rules:

* :func:`run_apart` ``(function, array, **options)`` returns ``function(array, **options)``.
  Arrays of at least :data:`APART_MIN` rows go to the child; smaller ones are computed in the
  calling thread (a few milliseconds, less than a hand-over costs).
* One child per process, started at the first large call (``spawn``: a fresh interpreter, never
  a fork of a threaded GUI process), kept for the next ones, at a lower priority
  (:data:`NICE`: the window's thread wins a CPU from it), stopped after :data:`IDLE_STOP_S`
  without a call (it holds ~60 MB) and at exit.
* The same numbers as in the calling thread when both use one BLAS thread (the app, the
  service and the commands do, ``core/blas_threads``; the child always does): a matrix
  product summed by two threads differs in its last bits, and the layout follows them.
* The array goes over shared memory, copied in blocks of rows (no single numpy call holds the
  GIL long); the result (a few values per row) comes back pickled. Where ``/dev/shm`` has not
  twice the array's size free (a container's 64 MB), the work is done in the calling thread.
* A child that cannot start or dies (a sandbox without processes, a frozen build without
  multiprocessing support): the call runs in the calling thread, as before, and later ones
  too; the reason is logged once. An exception of the function itself is raised as it would be.
* ``function`` must be importable by name (a module-level function of pixelmem).
* As with every ``spawn``ed process, the child imports the parent's main script (not a
  package's ``__main__``, as ``python -m pixelmem``): a script that uses pixelmem must keep
  its work under ``if __name__ == "__main__":`` (the ``pixelmem`` command, the frozen app's
  entry and the benchmarks do). One that does not gets the map computed in its own process
  after the child fails, and its top-level code run once more in that child.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import shared_memory
from pickle import PicklingError
from typing import Any, TypeVar

import numpy as np

from pixelmem.core.blas_threads import use_one_blas_thread

log = logging.getLogger(__name__)

APART_MIN = 2000  # rows: smaller arrays are computed in the calling thread
NICE = 5  # the child's priority below the app's: the window's thread gets a CPU first
IDLE_STOP_S = 120.0  # the child (~60 MB) stops after this long without a call
_SHM_FOLDER = "/dev/shm"
_COPY_BYTES = 1 << 21  # bytes per copying step into shared memory (~0.2 ms each)

T = TypeVar("T")
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken: str | None = None  # why the child is not used, once it failed
_calls = 0  # calls using the child now
_idle_timer: threading.Timer | None = None


def run_apart(function: Callable[..., T], array: np.ndarray, **options: Any) -> T:
    """``function(array, **options)``, in the child process when ``array`` is large."""
    array = np.ascontiguousarray(array)
    if len(array) < APART_MIN or _broken is not None or not _room_for(array.nbytes):
        return function(array, **options)
    try:
        with _Shared(array) as shared, _child() as child:
            return child.submit(_call_with, function, shared.handle, options).result()
    except (BrokenProcessPool, OSError, PicklingError) as exc:
        _give_up(exc)
        return function(array, **options)


def _room_for(size: int) -> bool:
    """Whether shared memory can hold ``size`` more bytes. On Linux it is the ``/dev/shm``
    file system, 64 MB in a default container: writing past its end kills the process
    (SIGBUS) instead of raising, so a block that may not fit is never made."""
    if not os.path.isdir(_SHM_FOLDER):
        return True  # macOS, Windows: no such file system to fill
    try:
        return shutil.disk_usage(_SHM_FOLDER).free >= size * 2
    except OSError:
        return False


@contextlib.contextmanager
def _child() -> Iterator[ProcessPoolExecutor]:
    """The child (started if need be) for one call; stopped once idle for IDLE_STOP_S."""
    global _pool, _calls
    with _lock:
        if _pool is None:
            use_one_blas_thread()  # the child reads it at its numpy import: one BLAS thread
            _pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        _calls += 1
        pool = _pool
    try:
        yield pool
    finally:
        with _lock:
            _calls -= 1
            if _calls == 0:
                _stop_when_idle()


def _stop_when_idle() -> None:
    """(Under _lock.) Stop the child unless another call comes within IDLE_STOP_S."""
    global _idle_timer
    if _idle_timer is not None:
        _idle_timer.cancel()
    timer = threading.Timer(IDLE_STOP_S, lambda: _stop_if_idle(timer))
    timer.daemon = True
    _idle_timer = timer
    timer.start()


def _stop_if_idle(timer: threading.Timer) -> None:
    global _pool
    with _lock:
        if _calls or timer is not _idle_timer:
            return  # in use again, or a later call armed its own timer
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False)


def _give_up(exc: BaseException) -> None:
    global _broken, _pool
    with _lock:
        if _broken is None:
            _broken = f"{type(exc).__name__}: {exc}"
            log.warning("map work in this process from now on (no child process: %s)", _broken)
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """Stop the child (at exit; a later large call starts a new one)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # not allowed: the same priority, still its own GIL
        os.nice(NICE)


class _Shared:
    """``array`` copied into a shared-memory block (unlinked on exit); ``handle`` names it."""

    def __init__(self, array: np.ndarray) -> None:
        self._array = array
        self._memory: shared_memory.SharedMemory | None = None

    def __enter__(self) -> _Shared:
        array = self._array
        self._memory = shared_memory.SharedMemory(create=True, size=max(array.nbytes, 1))
        target = np.ndarray(array.shape, array.dtype, buffer=self._memory.buf)
        rows = max(1, _COPY_BYTES // max(array[:1].nbytes, 1))
        for start in range(0, len(array), rows):
            target[start : start + rows] = array[start : start + rows]
        del target  # no view may outlive the block: close() refuses while one exists
        self.handle = (self._memory.name, array.shape, array.dtype.str)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory.unlink()


def _call_with(
    function: Callable[..., T], handle: tuple[str, tuple[int, ...], str], options: dict[str, Any]
) -> T:
    """In the child: the array out of shared memory (a private copy), then the function."""
    name, shape, dtype = handle
    memory = shared_memory.SharedMemory(name=name)
    try:
        view = np.ndarray(shape, np.dtype(dtype), buffer=memory.buf)
        array = view.copy()
        del view
    finally:
        memory.close()
    return function(array, **options)
