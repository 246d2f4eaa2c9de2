"""The runtime's index lane: a failed run reaches whoever waited for it, a done job keeps its
figures, a cancelled run for new settings is served again."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pixelmem.core.errors import IndexCancelled, PixelmemError, ProviderError
from pixelmem.core.index.engine import IndexReport
from pixelmem.core.runtime.freshness import SERVICE
from pixelmem.core.runtime.index_lane import IndexLane
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.vault.store import MemoryStore


@pytest.fixture
def tools(vault: Path):
    MemoryStore(vault).create("Bread", "Rye flour and water, every day.")
    service = PixelmemService(vault, SERVICE, runtime=VaultRuntime.open(vault, SERVICE))
    yield service
    service.close()


def test_a_failed_reindex_is_an_error_not_an_empty_report(tools, monkeypatch) -> None:
    def broken(**_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tools.runtime.engine, "reindex", broken)
    tools.runtime.start(watch=False)
    with pytest.raises(PixelmemError, match="No space left on device"):
        tools.reindex_documents()  # the MCP tool: it used to answer "memories: 0"
    last = tools.runtime.lane.last_run
    assert last is not None and "No space" in last.error


def test_a_core_error_keeps_its_kind(tools, monkeypatch) -> None:
    def down(**_: object) -> None:
        raise ProviderError("the embedding server is down")

    monkeypatch.setattr(tools.runtime.engine, "reindex", down)
    tools.runtime.start(watch=False)
    with pytest.raises(ProviderError, match="is down"):
        tools.runtime.reindex_now()


def test_a_finished_run_answers_its_report(tools, monkeypatch) -> None:
    monkeypatch.setattr(
        tools.runtime.engine, "reindex", lambda **_: IndexReport(memories=1, chunks=3)
    )
    tools.runtime.start(watch=False)
    answer = tools.reindex_documents()
    assert (answer["memories"], answer["chunks"]) == (1, 3)


def test_a_done_job_keeps_its_own_figures_while_a_later_run_goes_on(tools, monkeypatch) -> None:
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

    monkeypatch.setattr(tools.runtime.engine, "reindex", reindex)
    lane = tools.runtime.lane
    lane.start()
    first = lane.request()
    assert lane.wait(first, 10)
    lane.request()
    assert later_started.wait(10)
    try:
        assert lane.state_of(first) == ("done", 4, 4)
    finally:
        release.set()


def test_a_run_cancelled_for_new_settings_is_served_again() -> None:
    started, runs = threading.Event(), []

    def run(rescan, progress, cancel, published) -> IndexReport:
        runs.append(rescan)
        if len(runs) == 1:
            started.set()
            assert cancel.wait(10)
            raise IndexCancelled()
        return IndexReport(memories=len(runs))

    lane = IndexLane(run)
    lane.start()
    try:
        ticket = lane.request(rescan=True)
        assert started.wait(10)
        lane.cancel(requeue=True)
        assert lane.wait(ticket, 10)
        served = lane.run_for(ticket)
        assert served is not None and served.report is not None  # not a cancelled run
        assert runs == [True, True]  # the rescan was asked again too
    finally:
        lane.stop()


def test_a_cancel_by_the_person_ends_the_run() -> None:
    started = threading.Event()

    def run(rescan, progress, cancel, published) -> IndexReport:
        started.set()
        assert cancel.wait(10)
        raise IndexCancelled()

    lane = IndexLane(run)
    lane.start()
    try:
        ticket = lane.request()
        assert started.wait(10)
        lane.cancel()
        assert lane.wait(ticket, 10)
        run_ = lane.run_for(ticket)
        assert run_ is not None and run_.cancelled and lane.runs == 1
    finally:
        lane.stop()
