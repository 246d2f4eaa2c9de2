"""Embeddings from any OpenAI-compatible server (OpenAI, LM Studio, vLLM, llama.cpp, …)."""

from __future__ import annotations

import base64
import binascii
from typing import Any

import httpx
import numpy as np

from pixelmem.core.errors import ProviderResponseError
from pixelmem.core.providers.embeddings.remote import RemoteEmbedder, float_matrix
from pixelmem.core.providers.http import Service, json_field
from pixelmem.core.providers.servers import OPENAI_BASE_URL, openai_service

DEFAULT_BASE_URL = OPENAI_BASE_URL
DEFAULT_MODEL = "text-embedding-3-small"


class OpenAIEmbedder(RemoteEmbedder):
    """``POST {base}/embeddings`` with a list ``input``, in batches; rows ordered by ``index``."""

    default_model = DEFAULT_MODEL

    @property
    def model_id(self) -> str:
        # The host is part of the identity: two servers may serve different weights under one
        # model name (a quantised "e5" in LM Studio, the full one in vLLM).
        return f"openai:{httpx.URL(self.base_url).netloc.decode('ascii')}:{self.model}"

    def _service(self, base_url: str) -> Service:
        # No key means no Authorization header at all: local servers need none.
        return openai_service(base_url, "embedding")

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        where = self._client.service.where
        # OpenAI refuses an empty string as input; a space embeds to "nothing" just as well.
        payload = {"model": self.model, "input": [text if text.strip() else " " for text in texts]}
        items = json_field(self._client.post("/embeddings", payload), "data", list, where)
        return float_matrix(_ordered_rows(items, where), where, self.server)


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
