"""A native library's threads start below the window's priority; no other thread is touched."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from pixelmem.core.thread_priority import COMPUTE_NICE, nice_of, started_below_ui

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice")


@linux_only
def test_threads_started_inside_run_lowered_and_the_caller_keeps_its_priority() -> None:
    me = threading.get_native_id()
    before = nice_of(me)
    stop = threading.Event()
    native_ids: list[int] = []

    def start_pool() -> list[threading.Thread]:
        pool = [threading.Thread(target=lambda: (native_ids.append(threading.get_native_id()),
                                                 stop.wait(5))) for _ in range(2)]  # fmt: skip
        for thread in pool:
            thread.start()
        return pool

    pool = started_below_ui(start_pool)
    try:
        while len(native_ids) < 2:
            stop.wait(0.01)
        assert [nice_of(tid) for tid in native_ids] == [max(before, COMPUTE_NICE)] * 2
        assert nice_of(me) == before
    finally:
        stop.set()
        for thread in pool:
            thread.join()


def test_the_value_and_the_error_come_back_to_the_caller() -> None:
    assert started_below_ui(lambda: 42) == 42
    with pytest.raises(ZeroDivisionError):
        started_below_ui(lambda: 1 / 0)


@linux_only
def test_the_built_in_model_pool_runs_lowered() -> None:
    from pixelmem.core.providers.embeddings.local import LocalEmbedder

    tasks = "/proc/self/task"
    before = set(os.listdir(tasks))
    embedder = LocalEmbedder()
    embedder._ensure_loaded()
    started = [int(t) for t in set(os.listdir(tasks)) - before]
    assert any(nice_of(tid) >= COMPUTE_NICE for tid in started)
    assert nice_of(threading.get_native_id()) < COMPUTE_NICE or os.nice(0) >= COMPUTE_NICE
