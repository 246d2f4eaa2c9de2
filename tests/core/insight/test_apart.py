"""The map's long work runs in a child process (no GIL shared with the window), with the same
results as in the calling thread, and in the calling thread when no child can start."""

from __future__ import annotations

import logging
import multiprocessing.spawn
import os

import numpy as np
import pytest

from pixelmem.core.child_process import ChildProcess
from pixelmem.core.insight import apart
from pixelmem.core.insight.map_clusters import choose_clusters
from pixelmem.core.insight.memory_vectors import unit_rows
from pixelmem.core.insight.semantic_map import fingerprints


@pytest.fixture
def fresh_child(monkeypatch: pytest.MonkeyPatch):
    """No child yet and none given up on; the one started here stopped after the test."""
    child = ChildProcess("map work")
    monkeypatch.setattr(apart, "_child", child)
    yield child
    child.shutdown()


def _vectors(rows: int) -> np.ndarray:
    rng = np.random.default_rng(5)
    return unit_rows(rng.standard_normal((rows, 48)).astype(np.float32))


def _child_pids() -> list[int]:
    return apart._child.pids()


def test_a_large_array_is_worked_on_in_a_child_process_with_the_same_results(fresh_child):
    vectors = _vectors(apart.APART_MIN + 10)
    assert run_and_compare(fingerprints, vectors)
    pids = _child_pids()
    assert len(pids) == 1  # it ran apart: one child, started for it
    xy = vectors[:, :2] * 10
    assert np.array_equal(apart.run_apart(choose_clusters, xy, seed=3), choose_clusters(xy, seed=3))
    assert _child_pids() == pids  # the same child serves the next call


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def run_and_compare(function, array: np.ndarray) -> bool:
    return apart.run_apart(function, array) == function(array)


def test_a_small_array_is_worked_on_in_the_calling_thread(fresh_child):
    vectors = _vectors(apart.APART_MIN - 1)
    assert run_and_compare(fingerprints, vectors)
    assert _child_pids() == []


def test_without_a_child_the_work_is_done_here_and_the_reason_logged_once(
    fresh_child, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    monkeypatch.setattr(multiprocessing.spawn, "_python_exe", os.fsencode("/nonexistent/python"))
    vectors = _vectors(apart.APART_MIN)
    with caplog.at_level(logging.WARNING):
        assert run_and_compare(fingerprints, vectors)
        assert run_and_compare(fingerprints, vectors)
    warnings = [r for r in caplog.records if "no child process" in r.getMessage()]
    assert len(warnings) == 1 and "map work" in warnings[0].getMessage()
    assert not fresh_child.running


def test_an_error_of_the_function_itself_is_raised_as_it_would_be_here(fresh_child):
    with pytest.raises(TypeError):  # choose_clusters has no option "colour"
        apart.run_apart(choose_clusters, _vectors(apart.APART_MIN)[:, :2], colour=1)
    assert fresh_child.usable  # the child is still used


def test_a_block_the_child_cannot_open_is_worked_on_here(fresh_child, monkeypatch):
    monkeypatch.setattr(apart._Shared, "open", _handle_to_nowhere)
    vectors = _vectors(apart.APART_MIN)
    assert run_and_compare(fingerprints, vectors)
    assert fresh_child.usable  # not the child's fault: a later call may still go


def _handle_to_nowhere(self):
    self.handle = ("pixelmem-no-such-block", self._array.shape, self._array.dtype.str)
    return self


def test_without_room_in_shared_memory_the_work_is_done_here(
    fresh_child, monkeypatch: pytest.MonkeyPatch, tmp_path
):
    # a tiny /dev/shm (a container's) is never filled: writing past it would kill the app
    monkeypatch.setattr(apart, "_SHM_FOLDER", str(tmp_path))
    monkeypatch.setattr(apart.shutil, "disk_usage", lambda _path: shutil_usage(free=1 << 16))
    assert run_and_compare(fingerprints, _vectors(apart.APART_MIN))
    assert _child_pids() == []
    assert fresh_child.usable  # not given up: a smaller array may still go


def shutil_usage(*, free: int):
    import shutil

    return shutil._ntuple_diskusage(1 << 30, (1 << 30) - free, free)  # type: ignore[attr-defined]
