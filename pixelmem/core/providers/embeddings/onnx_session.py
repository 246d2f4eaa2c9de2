"""One way to run an ONNX model for the built-in embedders: CPU, a few threads, no spinning,
and every thread that embeds documents at background priority.

Indexing a vault keeps both cores of a small machine busy for minutes. The window's thread
must still get a CPU the moment it wakes (a timer, a key press): so documents are embedded on
threads the embedder owns (:class:`BackgroundThreads`) that lower their own priority first,
and the session is created on one of them, so onnxruntime's intra-op threads (started by the
thread that creates the session, on Linux a thread's nice value is inherited) run low too.
A query is embedded on the caller's thread at its own priority: a person waits for it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BACKGROUND_NICE = 10  # CPU weight 110 against the window's 1024 (nice 0)


def lower_this_thread(nice: int = BACKGROUND_NICE) -> None:
    """Run the calling thread (and the threads it starts from now on) at ``nice``.

    Linux only: there ``setpriority`` with a thread id changes that thread alone; on macOS it
    would change the whole process, the window included, so nothing is done elsewhere.
    """
    if sys.platform != "linux":
        return
    tid = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:  # not permitted (a sandbox): only the window's smoothness suffers
        pass


class BackgroundThreads:
    """``count`` low-priority threads, started on first use, that run an embedder's batches."""

    def __init__(self, count: int, name: str) -> None:
        self.count = count
        self._name = name
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._mine = threading.local()

    def call(self, fn: Callable[[], R]) -> R:
        """``fn()`` on one of the threads (at once when called from one); its result or its
        exception."""
        if getattr(self._mine, "yes", False):
            return fn()
        return self._executor().submit(fn).result()

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn`` over ``items`` on the threads, results in the order of ``items``."""
        return self._executor().map(fn, items)

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    self.count, thread_name_prefix=self._name, initializer=self._start_thread
                )
            return self._pool

    def _start_thread(self) -> None:
        lower_this_thread()
        self._mine.yes = True


def open_cpu_session(path: Path, threads: int, background: BackgroundThreads | None = None) -> Any:
    """An onnxruntime session on ``path``; onnxruntime's own (untyped) errors pass through.

    With ``background``, the session is created on one of its threads, so that onnxruntime's
    own threads run at their priority."""
    import onnxruntime as ort  # imported on first use: it is slow to import

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle worker threads must not spin: they would take CPU from the UI thread.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")

    def create() -> Any:
        return ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )

    return create() if background is None else background.call(create)
