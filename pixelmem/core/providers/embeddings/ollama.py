"""Embeddings from a local (or remote) Ollama server."""

from __future__ import annotations

import logging

import numpy as np

from pixelmem.core.providers.embeddings.remote import RemoteEmbedder, float_matrix
from pixelmem.core.providers.http import EndpointNotFound, Service, json_field
from pixelmem.core.providers.servers import OLLAMA_BASE_URL, ollama_service

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = OLLAMA_BASE_URL
DEFAULT_MODEL = "nomic-embed-text"


class OllamaEmbedder(RemoteEmbedder):
    """``POST /api/embed`` with a list ``input``; ``/api/embeddings`` for servers older than 0.3."""

    default_model = DEFAULT_MODEL
    _legacy = False  # set once the server has no /api/embed: one text per /api/embeddings call

    @property
    def model_id(self) -> str:
        return f"ollama:{self.model}"

    def _service(self, base_url: str) -> Service:
        # A key is optional: only an Ollama behind an authenticating proxy needs one.
        return ollama_service(base_url, "embedding")

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        where = self._client.service.where
        if not self._legacy:
            try:
                body = self._client.post("/api/embed", {"model": self.model, "input": texts})
                return float_matrix(json_field(body, "embeddings", list, where), where, self.server)
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
        return float_matrix(rows, where, self.server)
