"""Threads that only compute, never holding the GIL (onnxruntime's pool), yield the CPU first.

While a vault is embedded, onnxruntime's pool thread and the thread that called it fill both
cores of a small machine. The window's thread then waits for a CPU at every event, and a
worker holding the GIL (tokenising, building the keyword index) loses its CPU to them while
the window waits for that GIL: bench_ui --why named "a worker waited N ms for a CPU" beside
onnxruntime's ``run`` in most of the indexing run's stalls. A higher nice value for those
threads makes the kernel run every ordinary thread first when they compete; alone on the
machine they run as fast as before (nice only weighs threads that compete).

How: the library is started on a thread of its own whose nice value is raised first; every
thread it starts inherits that value, no other thread is touched. Only threads that never
take the GIL may be lowered: a lowered thread holding it would make every other thread wait
on it (priority inversion). The thread that calls ``session.run`` keeps its priority.
Linux only (a thread's nice value is its own there; elsewhere it is the process's).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

COMPUTE_NICE = 10  # CFS weight 110 against 1,024 for an ordinary thread
T = TypeVar("T")


def started_below_ui(start: Callable[[], T], nice: int = COMPUTE_NICE) -> T:
    """``start()``'s value; the threads it starts (a native library's pool) run at ``nice``.
    Called where threads have no nice value of their own, it is just ``start()``."""
    if not sys.platform.startswith("linux"):
        return start()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        lower_this_thread(nice)
        try:
            outcome.append(start())
        except BaseException as exc:  # raised again on the caller's thread
            failure.append(exc)

    helper = threading.Thread(target=run, name="start-below-ui", daemon=True)
    helper.start()
    helper.join()
    if failure:
        raise failure[0]
    return outcome[0]


def lower_this_thread(nice: int = COMPUTE_NICE) -> bool:
    """Raise the calling thread's nice value to ``nice`` (never lowers it); False where the
    system refused."""
    tid = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
        return True
    except OSError:
        return False


def nice_of(tid: int) -> int:
    """Thread ``tid``'s nice value (Linux)."""
    return os.getpriority(os.PRIO_PROCESS, tid)
