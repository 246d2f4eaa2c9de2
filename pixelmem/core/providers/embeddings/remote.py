"""What the HTTP embedders share: one client, batches, and a dimension learnt from the server."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import numpy as np

from pixelmem.core.errors import ProviderResponseError
from pixelmem.core.providers.embeddings.base import normalise_rows, validate_vectors
from pixelmem.core.providers.http import DEFAULT_TIMEOUT, JsonClient, RetryPolicy, Service

_PROBE_TEXT = "dimension probe"


class RemoteEmbedder(ABC):
    """An :class:`~pixelmem.core.providers.embeddings.base.Embedder` behind an HTTP server.

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

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Several queries in one request (see base.embed_queries)."""
        return self.embed_documents(texts)

    def close(self) -> None:
        self._client.close()

    @property
    def server(self) -> str:
        """Which server answered last (for hints worded in its own flags)."""
        from pixelmem.core.providers.server_hints import server_kind

        return server_kind(self._client.server_software, self._client.service.name)

    @abstractmethod
    def _service(self, base_url: str) -> Service:
        """The server at ``base_url`` (the provider's default address if empty)."""

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """One request's vectors, float32[len(texts), dim], as the server sent them."""


# ---------------------------------------------------------------- checking answers


def float_matrix(rows: Any, where: str, server: str = "") -> np.ndarray:
    """Rows of numbers from a JSON answer as float32[n, dim]; NaN and dimensions checked later.
    ``server`` (:func:`~pixelmem.core.providers.server_hints.server_kind`) words the hints."""
    if _per_token(rows):
        from pixelmem.core.providers.server_hints import pooling_hint

        raise ProviderResponseError(f"{where} returns one vector per token: {pooling_hint(server)}")
    try:
        matrix = np.asarray(rows)
    except ValueError:
        raise ProviderResponseError(f"{where} returned vectors of different lengths") from None
    if matrix.ndim == 1 and matrix.size == 0:
        return np.zeros((0, 0), dtype=np.float32)
    if matrix.size and matrix.dtype.kind not in "iuf":
        raise ProviderResponseError(f"{where} returned vectors that are not lists of numbers")
    if matrix.ndim != 2:
        raise ProviderResponseError(f"{where} returned vectors of different lengths")
    if matrix.shape[0] and matrix.shape[1] == 0:
        raise ProviderResponseError(
            f"{where} returned empty vectors — is the model an embedding model?"
        )
    return matrix.astype(np.float32)


def _per_token(rows: Any) -> bool:
    """A list of vectors per input (llama.cpp without pooling) instead of one vector each."""
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], list) or not rows[0]:
        return False
    return isinstance(rows[0][0], list)


def embed_in_batches(
    texts: Sequence[str],
    batch_size: int,
    embed_batch: Callable[[list[str]], np.ndarray],
    dim: int | None,
    where: str,
) -> np.ndarray:
    """Embed ``texts`` batch by batch, checking every batch (count, dimension, NaN).

    Returns float32[len(texts), dim] with L2-normalised rows. ``dim`` is the dimension already
    known for this model, or None to take it from the first batch.
    """
    parts: list[np.ndarray] = []
    for start in range(0, len(texts), max(1, batch_size)):
        batch = list(texts[start : start + max(1, batch_size)])
        matrix = embed_batch(batch)
        try:
            validate_vectors(matrix, len(batch), dim)
        except ProviderResponseError as exc:
            raise ProviderResponseError(str(exc).replace("the provider", where, 1)) from None
        dim = int(matrix.shape[1])
        parts.append(matrix)
    if not parts:
        return np.zeros((0, dim or 0), dtype=np.float32)
    return normalise_rows(np.vstack(parts))
