"""The service's index lane: a failed run reaches whoever waited for it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pixelmem.core.errors import PixelmemError, ProviderError
from pixelmem.core.index.engine import IndexReport
from pixelmem.core.vault.store import MemoryStore
from pixelmem.service.live import LiveService


@pytest.fixture
def live(vault: Path):
    MemoryStore(vault).create("Bread", "Rye flour and water, every day.")
    service = LiveService(vault)
    yield service
    service.stop()


def test_a_failed_reindex_is_an_error_not_an_empty_report(live: LiveService, monkeypatch) -> None:
    def broken(**_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(live.engine, "reindex", broken)
    live.start()
    with pytest.raises(PixelmemError, match="No space left on device"):
        live.reindex_documents()  # the MCP tool: it used to answer "memories: 0"
    assert live.lane.last_run is not None and "No space" in live.lane.last_run.error


def test_a_core_error_keeps_its_kind(live: LiveService, monkeypatch) -> None:
    def down(**_: object) -> None:
        raise ProviderError("the embedding server is down")

    monkeypatch.setattr(live.engine, "reindex", down)
    live.start()
    with pytest.raises(ProviderError, match="is down"):
        live.lane.run_and_wait()


def test_a_finished_run_answers_its_report(live: LiveService, monkeypatch) -> None:
    monkeypatch.setattr(live.engine, "reindex", lambda **_: IndexReport(memories=1, chunks=3))
    live.start()
    answer = live.reindex_documents()
    assert (answer["memories"], answer["chunks"]) == (1, 3)


def test_a_done_job_keeps_its_own_figures_while_a_later_run_goes_on(
    live: LiveService, monkeypatch
) -> None:
    later_started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def reindex(progress, **_: object) -> IndexReport:
        runs.append(len(runs))
        if len(runs) == 1:
            progress(4, 4)
            return IndexReport(memories=1, chunks=4)
        progress(1, 50)  # a long run for later changes
        later_started.set()
        release.wait(10)
        return IndexReport(memories=1, chunks=50)

    monkeypatch.setattr(live.engine, "reindex", reindex)
    live.start()
    first = live.lane.request()
    assert live.lane.wait(first, 10)
    live.lane.request()
    assert later_started.wait(10)
    try:
        assert live.lane.state_of(first) == ("done", 4, 4)
    finally:
        release.set()
