"""The embedder interface every provider implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from pixelmem.core.errors import ProviderResponseError


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors.

    ``model_id`` identifies the vector space (provider + model); vectors of two model ids are
    never mixed in one index or cache. An embedder may set ``multilingual = False`` (read with
    :func:`is_multilingual`) when it only understands English.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32[len(texts), dim], each row L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Return float32[dim], L2-normalised."""
        ...


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """L2-normalise each row (float32); zero rows stay zero instead of becoming NaN."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


def validate_vectors(matrix: np.ndarray, expected_rows: int, expected_dim: int | None) -> None:
    """Raise :class:`ProviderResponseError` for vectors that are not usable data."""
    if matrix.ndim != 2 or matrix.shape[0] != expected_rows:
        raise ProviderResponseError(
            f"the provider returned {matrix.shape[0] if matrix.ndim else 0} vectors "
            f"for {expected_rows} texts"
        )
    if expected_dim is not None and matrix.shape[1] != expected_dim:
        raise ProviderResponseError(
            f"the provider returned vectors of dimension {matrix.shape[1]}, expected {expected_dim}"
        )
    if not np.all(np.isfinite(matrix)):
        raise ProviderResponseError("the provider returned vectors containing NaN or infinity")


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Several queries' vectors: in one call where the embedder has ``embed_queries`` (a remote
    model, whose queries are embedded as its documents: one request, not one per text), else
    one :meth:`~Embedder.embed_query` each."""
    batch = getattr(embedder, "embed_queries", None)
    if batch is not None:
        return np.asarray(batch(list(texts)), np.float32)
    return np.array([embedder.embed_query(text) for text in texts], np.float32)


def is_multilingual(embedder: object) -> bool:
    """Whether the model reads non-English text; remote models are assumed to."""
    return bool(getattr(embedder, "multilingual", True))
