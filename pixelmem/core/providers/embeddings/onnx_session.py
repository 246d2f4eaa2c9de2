"""One way to run an ONNX model for the built-in embedders: CPU, a few threads, no spinning;
documents embedded on threads the embedder owns, several at once (``streams``: two texts on
one onnxruntime thread each keep 2 cores busier than one text on two threads).

Tried and left out: running those threads at a lower priority (nice 10, inherited by
onnxruntime's threads). On a machine busy with other programs it made the window's stalls
worse, not better: a low-priority thread that holds the GIL for a moment (converting a run's
output, pooling) waits behind every other program for a CPU, and the window's thread waits
for the GIL behind it (bench_ui --why: 62 ms with the holder in ``local._run``'s pooling).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class BackgroundThreads:
    """``count`` threads, started on first use, that run an embedder's batches."""

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
        self._mine.yes = True


def open_cpu_session(path: Path, threads: int) -> Any:
    """An onnxruntime session on ``path``; onnxruntime's own (untyped) errors pass through."""
    import onnxruntime as ort  # imported on first use: it is slow to import

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle worker threads must not spin: they would take CPU from the UI thread.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
