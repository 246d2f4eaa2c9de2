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


class _SearchRunning:
    """A search on a thread, running (interactive) until :meth:`end`."""

    def __init__(self) -> None:
        entered, self._release = threading.Event(), threading.Event()

        def search() -> None:
            with interactive():
                entered.set()
                self._release.wait(5)

        self._thread = threading.Thread(target=search)
        self._thread.start()
        assert entered.wait(5)

    def end(self) -> None:
        self._release.set()
        self._thread.join()


def test_a_step_waits_until_the_interactive_work_ends() -> None:
    search = _SearchRunning()
    assert interactive_running()
    waited: list[float] = []

    def background() -> None:
        start = time.perf_counter()
        step_aside.step_aside(limit=5)
        waited.append(time.perf_counter() - start)

    worker = threading.Thread(target=background)
    worker.start()
    time.sleep(0.1)
    assert not waited  # still waiting
    search.end()
    worker.join(5)
    assert waited and 0.08 < waited[0] < 2 and not interactive_running()


def test_a_step_waits_no_longer_than_its_limit() -> None:
    with interactive(), interactive():  # nested requests: quiet only when both ended
        assert _in_worker(lambda: step_aside.step_aside(limit=0.05)) == (True, True)
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


def test_a_catalogs_metadata_is_built_in_steps(monkeypatch) -> None:
    """Its Python per memory (name keys, content keys, scripts) took 0.34 s at 10k memories
    on the indexing thread without a step (bench_ui --why, indexing)."""
    from pathlib import Path

    from pixelmem.core.index import catalog
    from pixelmem.core.vault.memory import Memory

    steps: list[int] = []
    monkeypatch.setattr(catalog, "step_aside", lambda: steps.append(1))
    memories = [
        Memory(f"m{i}", f"Café {i}", body=f"body {i % 7}", topics=["T", "t"], path=Path(f"n{i}.md"))
        for i in range(catalog.STEP_MEMORIES * 2 + 5)
    ]
    meta = catalog._Metadata.of([*memories, None])
    assert len(steps) == 2
    assert meta.names[3] == ("cafe3", "n3") and meta.topics[3] == ("t",) and meta.names[-1] == ()
    assert meta.content[0] == meta.content[7] != meta.content[1] and meta.content[-1] == 0
    assert len(meta.dates) == len(meta.scripts) == len(memories) + 1


def test_a_step_asks_the_window_to_beat_and_waits_while_it_is_late(monkeypatch) -> None:
    woken: list[int] = []
    monkeypatch.setattr(step_aside, "_woken", 0.0)
    step_aside.watch_ui(lambda: woken.append(1))
    try:
        assert _in_worker(step_aside.step_aside)[0] is False and woken == [1]  # no beat yet
        step_aside.ui_beat()
        assert _in_worker(step_aside.step_aside)[0] is False  # on time
        time.sleep(step_aside.UI_LATE_S * 2)  # the window is late now
        beat_again = threading.Timer(0.02, step_aside.ui_beat)
        beat_again.start()
        assert _in_worker(step_aside.step_aside) == (True, True)  # waited, until the beat
        beat_again.join()
        step_aside.ui_rest()
        assert _in_worker(step_aside.step_aside)[0] is False  # it stopped beating: no wait
    finally:
        step_aside.watch_ui(None)


def test_without_a_window_a_step_never_waits() -> None:
    step_aside.watch_ui(None)
    step_aside.ui_beat()  # a stray beat
    step_aside.watch_ui(None)
    time.sleep(step_aside.UI_LATE_S * 2)
    assert step_aside.step_aside() is False


def test_the_windows_own_thread_never_waits_for_itself() -> None:
    step_aside.watch_ui(lambda: None)  # this thread is the window's
    try:
        step_aside.ui_beat()
        time.sleep(step_aside.UI_LATE_S * 2)  # late: it is busy in this very step
        start = time.perf_counter()
        assert step_aside.step_aside() is False
        assert time.perf_counter() - start < step_aside.UI_WAIT_S / 2
    finally:
        step_aside.watch_ui(None)


def _in_worker(step) -> tuple[bool, bool]:
    """(``step()``'s answer, whether it took between 10 ms and UI_WAIT_S + slack) run on a
    thread that is not the window's."""
    out: list[tuple[bool, bool]] = []

    def run() -> None:
        start = time.perf_counter()
        waited = step()
        took = time.perf_counter() - start
        out.append((waited, 0.01 < took < step_aside.UI_WAIT_S + 0.5))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(5)
    return out[0]


def test_a_window_that_stopped_beating_costs_one_wait_only() -> None:
    """The window blocked (waiting for the workers to finish, say): one step waits for it, the
    next ones go on at once until it beats again."""
    step_aside.watch_ui(lambda: None)
    try:
        step_aside.ui_beat()
        time.sleep(step_aside.UI_LATE_S * 2)
        assert _in_worker(step_aside.step_aside) == (True, True)  # waited UI_WAIT_S, in vain
        start = time.perf_counter()
        assert _in_worker(step_aside.step_aside)[0] is False
        assert time.perf_counter() - start < step_aside.UI_WAIT_S
        step_aside.ui_beat()  # it is back, then late again: worth a wait again
        time.sleep(step_aside.UI_LATE_S * 2)
        assert _in_worker(step_aside.step_aside)[0] is True
    finally:
        step_aside.watch_ui(None)


def test_interactive_work_never_waits_for_itself() -> None:
    """A search that takes a background step (building a small index) goes on at once."""

    def search() -> tuple[bool, float]:
        with interactive():
            start = time.perf_counter()
            return step_aside.step_aside(limit=1), time.perf_counter() - start

    out: list[tuple[bool, float]] = []
    thread = threading.Thread(target=lambda: out.append(search()))
    thread.start()
    thread.join(5)
    assert out[0][0] is False and out[0][1] < 0.1


def test_the_main_thread_never_waits() -> None:
    """Where the window runs: a step there would freeze it while a search runs elsewhere."""
    search = _SearchRunning()
    try:
        start = time.perf_counter()
        assert step_aside.step_aside(limit=1) is False
        assert time.perf_counter() - start < 0.1
    finally:
        search.end()


def _step_on_a_worker(limit: float) -> float:
    waited: list[float] = []

    def background() -> None:
        start = time.perf_counter()
        step_aside.step_aside(limit=limit)
        waited.append(time.perf_counter() - start)

    worker = threading.Thread(target=background)
    worker.start()
    worker.join(5)
    return waited[0]


def test_a_step_waits_while_the_window_builds_and_not_after(monkeypatch) -> None:
    monkeypatch.setattr(step_aside, "_building_until", 0.0)
    step_aside.window_building(0.15)
    assert 0.1 < _step_on_a_worker(limit=5) < 1.0  # until the build's time has passed
    assert _step_on_a_worker(limit=5) < 0.05  # then at once


def test_a_build_that_never_ends_holds_a_step_no_longer_than_its_limit(monkeypatch) -> None:
    monkeypatch.setattr(step_aside, "_building_until", 0.0)
    step_aside.window_building(30)
    assert 0.08 < _step_on_a_worker(limit=0.1) < 1.0


def test_the_window_never_waits_for_its_own_build(monkeypatch) -> None:
    monkeypatch.setattr(step_aside, "_building_until", 0.0)
    step_aside.window_building(30)
    start = time.perf_counter()
    assert step_aside.step_aside() is False  # the main thread: the window's
    assert time.perf_counter() - start < 0.05
