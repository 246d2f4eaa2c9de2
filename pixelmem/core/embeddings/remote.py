"""What the HTTP embedders share: one client, batches, and a dimension learnt from the server."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import httpx
import numpy as np

from pixelmem.core.http import (
    DEFAULT_TIMEOUT,
    JsonClient,
    RetryPolicy,
    Service,
    embed_in_batches,
)

_PROBE_TEXT = "dimension probe"


class RemoteEmbedder(ABC):
    """An :class:`~pixelmem.core.embeddings.base.Embedder` behind an HTTP server.

    A subclass says how to reach the server (:meth:`_service`) and how to embed one batch
    (:meth:`_embed_batch`); batching, checking the vectors and normalising them happen here.
    """

    default_model = ""

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
        service = self._service(base_url)
        self.base_url = service.base_url
        self.model = model or self.default_model
        self.batch_size = batch_size
        self._client = JsonClient(service, api_key=api_key, timeout=timeout, retry=retry)
        self._dim: int | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, model={self.model!r})"

    @property
    @abstractmethod
    def model_id(self) -> str: ...

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

    @abstractmethod
    def _service(self, base_url: str) -> Service:
        """The server at ``base_url`` (the provider's default address if empty)."""

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """One request's vectors, float32[len(texts), dim], as the server sent them."""
