"""Embeddings from a local (or remote) Ollama server."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import httpx
import numpy as np

from pixelmem.core.http import (
    DEFAULT_TIMEOUT,
    EndpointNotFound,
    JsonClient,
    RetryPolicy,
    Service,
    embed_in_batches,
    float_matrix,
    json_field,
)

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "http://localhost:11434"
DEFAULT_MODEL = "nomic-embed-text"
_PROBE_TEXT = "dimension probe"


class OllamaEmbedder:
    """``POST /api/embed`` with a list ``input``; ``/api/embeddings`` for servers older than 0.3."""

    def __init__(
        self,
        base_url: str = "",
        model: str = "",
        *,
        api_key: str = "",
        batch_size: int = 256,
        timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self.model = model or DEFAULT_MODEL
        self.batch_size = batch_size
        service = Service(
            "Ollama",
            self.base_url,
            not_running_hint="start it with `ollama serve`",
            pull_hint=" — pull it with `ollama pull {model}`",
            base_url_hint="check the Ollama address (embedding.base_url)",
            key_setting="embedding.api_key",
        )
        # A key is optional: only an Ollama behind an authenticating proxy needs one.
        self._client = JsonClient(service, api_key=api_key, timeout=timeout, retry=retry)
        self._dim: int | None = None
        self._legacy = False  # the server has no /api/embed: one text per /api/embeddings call

    def __repr__(self) -> str:
        return f"OllamaEmbedder(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def model_id(self) -> str:
        return f"ollama:{self.model}"

    @property
    def dim(self) -> int:
        """The model's dimension, learnt from the first answer (one probe text if needed)."""
        if self._dim is None:
            self.embed_documents([_PROBE_TEXT])
        assert self._dim is not None
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = embed_in_batches(
            texts, self.batch_size, self._embed_batch, self._dim, self._client.service.where
        )
        self._dim = int(vectors.shape[1])
        return vectors

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]

    def close(self) -> None:
        self._client.close()

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        where = self._client.service.where
        if not self._legacy:
            try:
                body = self._client.post("/api/embed", {"model": self.model, "input": texts})
                return float_matrix(json_field(body, "embeddings", list, where), where)
            except EndpointNotFound:
                log.info("%s has no /api/embed; using /api/embeddings (old server)", where)
                self._legacy = True
        rows = [
            json_field(
                self._client.post("/api/embeddings", {"model": self.model, "prompt": text}),
                "embedding",
                list,
                where,
            )
            for text in texts
        ]
        return float_matrix(rows, where)
