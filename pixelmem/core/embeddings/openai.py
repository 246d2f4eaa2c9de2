"""Embeddings from any OpenAI-compatible server (OpenAI, LM Studio, vLLM, llama.cpp, …)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from pixelmem.core.errors import ProviderResponseError
from pixelmem.core.http import (
    DEFAULT_TIMEOUT,
    JsonClient,
    RetryPolicy,
    Service,
    embed_in_batches,
    float_matrix,
    json_field,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "text-embedding-3-small"
_PROBE_TEXT = "dimension probe"


class OpenAIEmbedder:
    """``POST {base}/embeddings`` with a list ``input``, in batches; rows ordered by ``index``."""

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
            "the OpenAI-compatible server",
            self.base_url,
            base_url_hint="check embedding.base_url (it usually ends in /v1)",
            key_setting="embedding.api_key",
        )
        # No key means no Authorization header at all: local servers need none.
        self._client = JsonClient(service, api_key=api_key, timeout=timeout, retry=retry)
        self._dim: int | None = None

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def model_id(self) -> str:
        # The host is part of the identity: two servers may serve different weights under one
        # model name (a quantised "e5" in LM Studio, the full one in vLLM).
        return f"openai:{httpx.URL(self.base_url).netloc.decode('ascii')}:{self.model}"

    @property
    def dim(self) -> int:
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
        # OpenAI refuses an empty string as input; a space embeds to "nothing" just as well.
        payload = {"model": self.model, "input": [text if text.strip() else " " for text in texts]}
        items = json_field(self._client.post("/embeddings", payload), "data", list, where)
        return float_matrix(_ordered_rows(items, where), where)


def _ordered_rows(items: list[Any], where: str) -> list[Any]:
    if not all(isinstance(item, dict) and "embedding" in item for item in items):
        raise ProviderResponseError(f"{where} returned 'data' items without an 'embedding'")
    if all("index" in item for item in items):
        indices = sorted(item["index"] for item in items if type(item["index"]) is int)
        if indices != list(range(len(items))):
            raise ProviderResponseError(
                f"{where} returned vectors with missing or repeated indices"
            )
        items = sorted(items, key=lambda item: item["index"])
    return [_vector(item["embedding"], where) for item in items]


def _vector(value: Any, where: str) -> Any:
    if not isinstance(value, str):
        return value
    try:  # encoding_format "base64": little-endian float32 bytes
        return np.frombuffer(base64.b64decode(value, validate=True), dtype="<f4").tolist()
    except (binascii.Error, ValueError):
        raise ProviderResponseError(f"{where} returned an embedding that is not valid") from None
