"""The map's long numpy work (the layout of every point, its clusters) in a process of its own.

Why: one GIL serves the window's thread and every worker thread. Under CPU load (two cores,
other programs) the operating system takes the CPU from a worker while it holds the GIL, and
the window waits as long (bench_ui --why, typing a search over 100k chunks with the map open:
the layout's numpy steps each ≤ 1.6 ms, yet the window waited 25-321 ms for the GIL while
their thread waited for a CPU). A child process shares no GIL with the window: its seconds of
layout can only take a CPU, never the window's turn at Python.

Rules:

* :func:`run_apart` ``(function, array, **options)`` returns ``function(array, **options)``.
  Arrays of at least :data:`APART_MIN` rows go to the child (core/child_process: one
  ``spawn``ed process kept between calls, nice 5, one BLAS thread, stopped after two idle
  minutes); smaller ones are computed in the calling thread (a few milliseconds, less than a
  hand-over costs).
* The same numbers as in the calling thread when both use one BLAS thread (the app, the
  service and the commands do, ``core/blas_threads``; the child always does): a matrix
  product summed by two threads differs in its last bits, and the layout follows them.
* The array goes over shared memory, copied in blocks of rows (no single numpy call holds the
  GIL long); the result (a few values per row) comes back pickled. Where ``/dev/shm`` has not
  twice the array's size free (a container's 64 MB), the work is done in the calling thread.
* No child (it cannot start or died): the call runs in the calling thread, as before, and
  later ones too (the reason logged once). An exception of the function itself is raised as
  it would be. ``function`` must be importable by name (a module-level function of pixelmem).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from multiprocessing import shared_memory
from typing import Any, TypeVar

import numpy as np

from pixelmem.core.child_process import ChildProcess, ChildUnavailable

APART_MIN = 2000  # rows: smaller arrays are computed in the calling thread
_SHM_FOLDER = "/dev/shm"
_COPY_BYTES = 1 << 21  # bytes per copying step into shared memory (~0.2 ms each)

T = TypeVar("T")
_child = ChildProcess("map work")


def run_apart(function: Callable[..., T], array: np.ndarray, **options: Any) -> T:
    """``function(array, **options)``, in the child process when ``array`` is large."""
    array = np.ascontiguousarray(array)
    if len(array) < APART_MIN or not _child.usable or not _room_for(array.nbytes):
        return function(array, **options)
    try:
        block = _Shared(array).open()
    except OSError:  # no shared memory here (a sandbox): the work is done in this thread
        return function(array, **options)
    try:
        return _child.run(_call_with, function, block.handle, options)
    except (ChildUnavailable, _NoSharedMemory):
        return function(array, **options)
    finally:
        block.close()


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


def shutdown() -> None:
    """Stop the child (at exit; a later large call starts a new one)."""
    _child.shutdown()


class _NoSharedMemory(Exception):
    """The child could not open the block the parent made: the work is done in the parent."""


class _Shared:
    """``array`` copied into a shared-memory block (unlinked by close); ``handle`` names it."""

    def __init__(self, array: np.ndarray) -> None:
        self._array = array
        self._memory: shared_memory.SharedMemory | None = None

    def open(self) -> _Shared:
        array = self._array
        self._memory = shared_memory.SharedMemory(create=True, size=max(array.nbytes, 1))
        target = np.ndarray(array.shape, array.dtype, buffer=self._memory.buf)
        rows = max(1, _COPY_BYTES // max(array[:1].nbytes, 1))
        for start in range(0, len(array), rows):
            target[start : start + rows] = array[start : start + rows]
        del target  # no view may outlive the block: close() refuses while one exists
        self.handle = (self._memory.name, array.shape, array.dtype.str)
        return self

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory.unlink()


def _call_with(
    function: Callable[..., T], handle: tuple[str, tuple[int, ...], str], options: dict[str, Any]
) -> T:
    """In the child: the array out of shared memory (a private copy), then the function."""
    name, shape, dtype = handle
    try:
        memory = shared_memory.SharedMemory(name=name)
    except OSError as exc:
        raise _NoSharedMemory(str(exc)) from None
    try:
        view = np.ndarray(shape, np.dtype(dtype), buffer=memory.buf)
        array = view.copy()
        del view
    finally:
        memory.close()
    return function(array, **options)
