"""The built-in embedder: parity with the reference model, batching, ordering, model checks."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pixelmem.core.errors import ModelFileError
from pixelmem.core.providers.embeddings import Embedder, local
from pixelmem.core.providers.embeddings.local import DIM, MODEL_ID, LocalEmbedder, verify_model_file

REFERENCE = Path(__file__).resolve().parents[2] / "data" / "minilm_reference.npz"


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    e = LocalEmbedder()
    e.load()
    return e


@pytest.fixture(scope="module")
def reference() -> dict[str, np.ndarray]:
    with np.load(REFERENCE) as data:
        return {key: data[key] for key in data.files}


@pytest.fixture(scope="module")
def reference_run(embedder: LocalEmbedder, reference: dict[str, np.ndarray]) -> np.ndarray:
    return embedder.embed_documents([str(t) for t in reference["texts"]])


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_is_an_embedder(embedder: LocalEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == MODEL_ID == "local:all-MiniLM-L6-v2-int8"
    assert embedder.dim == DIM == 384


def test_parity_with_the_fp32_reference_model(
    reference_run: np.ndarray, reference: dict[str, np.ndarray]
) -> None:
    texts = [str(t) for t in reference["texts"]]
    assert any(ord(ch) > 0x4E00 for ch in "".join(texts)), "one Chinese text"
    assert max(len(t.split()) for t in texts) > 300, "one text longer than the window"
    assert cosines(reference_run, reference["fp32"]).min() >= 0.999


def test_matches_an_unpadded_one_by_one_run_of_the_same_model(
    reference_run: np.ndarray, reference: dict[str, np.ndarray]
) -> None:
    # Padding, masking, pooling and truncation must not change a single vector.
    assert cosines(reference_run, reference["int8"]).min() >= 0.99999


def test_text_beyond_256_tokens_is_truncated(
    embedder: LocalEmbedder, reference: dict[str, np.ndarray]
) -> None:
    long_text = max((str(t) for t in reference["texts"]), key=len)
    a = embedder.embed_query(long_text)
    b = embedder.embed_query(long_text + " Completely different words about volcanoes." * 20)
    assert float(a @ b) > 0.99999


def test_vectors_are_normalised_float32(embedder: LocalEmbedder) -> None:
    vectors = embedder.embed_documents(["one", "two words", "", "三个字"])
    assert vectors.shape == (4, DIM) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = embedder.embed_query("a query")
    assert query.shape == (DIM,) and query.dtype == np.float32
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5


def test_empty_input_needs_no_model() -> None:
    missing = LocalEmbedder(model_path=Path("/nonexistent/model.onnx"))
    out = missing.embed_documents([])
    assert out.shape == (0, DIM) and out.dtype == np.float32


def test_batch_and_single_agree_and_order_survives_sorting(embedder: LocalEmbedder) -> None:
    # More than one batch, lengths shuffled, so sorting really reorders.
    texts = [" ".join(f"word{j} on topic {i}" for j in range(1 + (i * 7) % 12)) for i in range(21)]
    batch = embedder.embed_documents(texts)
    single = np.stack([embedder.embed_query(t) for t in texts])
    assert cosines(batch, single).min() > 0.9999
    unsorted = LocalEmbedder(sort_by_length=False).embed_documents(texts)
    assert cosines(batch, unsorted).min() > 0.9999


def test_paraphrase_is_closer_than_an_unrelated_sentence(embedder: LocalEmbedder) -> None:
    a, b, c = embedder.embed_documents(
        [
            "A man is playing a guitar.",
            "Someone is strumming a guitar on stage.",
            "The central bank raised interest rates again.",
        ]
    )
    assert float(a @ b) > 0.6
    assert float(a @ b) > float(a @ c) + 0.3


def test_progress_reports_every_batch(embedder: LocalEmbedder) -> None:
    calls: list[tuple[int, int]] = []
    texts = [f"text {i}" for i in range(37)]
    embedder.embed_documents(texts, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(16, 37), (32, 37), (37, 37)]


def test_tokenizer_window_is_256_without_fixed_padding(embedder: LocalEmbedder) -> None:
    tokenizer = embedder._ensure_loaded()[1]
    assert len(tokenizer.encode("hello world").ids) == 4
    assert len(tokenizer.encode("word " * 1000).ids) == 256


def test_loads_once_under_concurrent_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    loads = []
    original = LocalEmbedder._load_session

    def counting(self: LocalEmbedder) -> object:
        loads.append(1)
        return original(self)

    monkeypatch.setattr(LocalEmbedder, "_load_session", counting)
    fresh = LocalEmbedder()
    results: list[np.ndarray] = []
    barrier = threading.Barrier(4)

    def work() -> None:
        barrier.wait()
        results.append(fresh.embed_query("the same question"))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(loads) == 1 and len(results) == 4
    assert all(np.array_equal(results[0], r) for r in results)


def test_checksum_mismatch_is_a_model_file_error() -> None:
    damaged = LocalEmbedder(expected_sha256="0" * 64)
    with pytest.raises(ModelFileError, match="damaged or not the expected file"):
        damaged.embed_query("x")


def test_missing_model_is_a_model_file_error(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="missing"):
        LocalEmbedder(model_path=tmp_path / "model.onnx").embed_documents(["x"])


def test_unloadable_model_is_a_model_file_error(tmp_path: Path) -> None:
    bogus = tmp_path / "model.onnx"
    bogus.write_bytes(b"not an onnx model")
    sha = hashlib.sha256(b"not an onnx model").hexdigest()
    with pytest.raises(ModelFileError, match="cannot be loaded"):
        LocalEmbedder(model_path=bogus, expected_sha256=sha).load()


def test_checksum_is_computed_once_per_file_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real_digest = hashlib.file_digest

    def counting(handle: Any, name: str) -> Any:
        calls.append(name)
        return real_digest(handle, name)

    monkeypatch.setattr(local.hashlib, "file_digest", counting)
    path = tmp_path / "model.onnx"
    path.write_bytes(b"v1")
    sha1 = hashlib.sha256(b"v1").hexdigest()
    verify_model_file(path, sha1)
    verify_model_file(path, sha1)
    assert len(calls) == 1
    path.write_bytes(b"v2 changed")
    with pytest.raises(ModelFileError):
        verify_model_file(path, sha1)
    assert len(calls) == 2


def test_token_vectors_are_the_texts_own_tokens_normalised(embedder: LocalEmbedder) -> None:
    tokenizer = embedder._ensure_loaded()[1]
    text = "Sourdough needs a starter fed with flour and water every day."
    tokens = embedder.token_vectors(text, query=True)
    pieces = len(tokenizer.encode(text).ids) - 2  # no [CLS], no [SEP]
    assert tokens.shape == (pieces, DIM) and tokens.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(tokens, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(tokens, embedder.token_vectors(text, query=False))  # no prefix
    # A token's vector is read in its context: "bank" of a river is not "bank" of money.
    river = embedder.token_vectors("the river bank", query=False)[-1]
    money = embedder.token_vectors("the savings bank", query=False)[-1]
    assert float(river @ money) < 0.99
    assert len(embedder.token_vectors("flour " * 2000, query=False)) == local.MAX_TOKENS - 2
    assert embedder.token_vectors("", query=True).shape == (0, DIM)


def test_minilm_is_a_token_reader(embedder: LocalEmbedder) -> None:
    from pixelmem.core.index.token_coverage import RememberedTokens, reader_of

    reader = reader_of(embedder)
    assert isinstance(reader, RememberedTokens) and reader_of(embedder) is reader
    text = "the river bank"
    assert np.array_equal(reader.token_vectors(text, query=False),
                          embedder.token_vectors(text, query=False))  # fmt: skip
