"""Background steps wait while interactive work runs, never longer than their limit."""

from __future__ import annotations

import threading
import time

import numpy as np

from pixelmem.core import step_aside
from pixelmem.core.step_aside import interactive, interactive_running


def test_a_step_goes_on_at_once_when_nothing_interactive_runs() -> None:
    assert not interactive_running()
    start = time.perf_counter()
    assert step_aside.step_aside() is False
    assert time.perf_counter() - start < 0.05


def test_a_step_waits_until_the_interactive_work_ends() -> None:
    entered, release = threading.Event(), threading.Event()

    def search() -> None:
        with interactive():
            entered.set()
            release.wait(5)

    thread = threading.Thread(target=search)
    thread.start()
    assert entered.wait(5) and interactive_running()
    waited: list[float] = []

    def background() -> None:
        start = time.perf_counter()
        step_aside.step_aside(limit=5)
        waited.append(time.perf_counter() - start)

    worker = threading.Thread(target=background)
    worker.start()
    time.sleep(0.1)
    assert not waited  # still waiting
    release.set()
    thread.join()
    worker.join(5)
    assert waited and 0.08 < waited[0] < 2 and not interactive_running()


def test_a_step_waits_no_longer_than_its_limit() -> None:
    with interactive(), interactive():  # nested requests: quiet only when both ended
        start = time.perf_counter()
        assert step_aside.step_aside(limit=0.05) is True
        assert time.perf_counter() - start < 1
    assert not interactive_running()


def test_the_map_layout_steps_aside_for_a_search(monkeypatch) -> None:
    from pixelmem.core.insight import map_layout, memory_vectors

    calls: list[str] = []
    for module in (map_layout, memory_vectors):
        monkeypatch.setattr(module, "step_aside", lambda name=module.__name__: calls.append(name))
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((60, 16)).astype(np.float32)
    map_layout.layout(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), epochs=5)
    assert calls.count("pixelmem.core.insight.map_layout") == 5
    assert "pixelmem.core.insight.memory_vectors" in calls
