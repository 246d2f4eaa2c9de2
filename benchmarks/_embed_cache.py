"""An embedder that remembers every vector on disk, so development sets are embedded once.

    from benchmarks._embed_cache import cached_embedder
    embedder = cached_embedder("local-multilingual")  # an Embedder, as create_embedder gives

Vectors are kept in one SQLite file per model under ``PIXELMEM_EMBED_CACHE`` (default
``../calib-cache`` beside the repository: outside git), keyed by the text and whether it was
embedded as a query or a document. Refits and reports then cost no model time. The model is
loaded only when a text is not in the cache.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("PIXELMEM_EMBED_CACHE", ROOT.parent / "calib-cache"))


class CachedEmbedder:
    """The embedder of ``provider`` behind a text → vector cache (the same model id)."""

    def __init__(self, provider: str, folder: Path = CACHE) -> None:
        from pixelmem.core.providers.embeddings.base import is_multilingual
        from pixelmem.core.providers.embeddings.factory import create_embedder
        from pixelmem.core.settings import EmbeddingSettings

        settings = EmbeddingSettings()
        settings.provider = provider
        self._inner = create_embedder(settings)
        self.multilingual = is_multilingual(self._inner)
        folder.mkdir(parents=True, exist_ok=True)
        name = self._inner.model_id.replace("/", "_").replace(":", "_")
        self._db = sqlite3.connect(folder / f"vectors-{name}.sqlite", check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS v (key BLOB PRIMARY KEY, vec BLOB)")
        self._lock = threading.Lock()
        self._dim: int | None = None
        # Token vectors (not cached: read only for borderline decisions), when the model gives
        # them; looked up by name, so an older tree measured through this file still runs.
        reader = getattr(self._inner, "token_vectors", None)
        if reader is not None:
            self.token_vectors = reader

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed_query("dimension probe").shape[0])
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts), "d")

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([text], "q")[0]

    def _embed(self, texts: list[str], kind: str) -> np.ndarray:
        keys = [hashlib.sha1(f"{kind}\0{t}".encode()).digest() for t in texts]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(f"SELECT key, vec FROM v WHERE key IN ({marks})", part)
                found.update((k, np.frombuffer(v, np.float32)) for k, v in rows)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            todo = [texts[i] for i in missing]
            if kind == "q":
                fresh = np.stack([self._inner.embed_query(t) for t in todo])
            else:
                fresh = self._inner.embed_documents(todo)
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO v VALUES (?, ?)",
                    [
                        (keys[i], np.asarray(v, np.float32).tobytes())
                        for i, v in zip(missing, fresh, strict=True)
                    ],
                )
                self._db.commit()
            for i, v in zip(missing, fresh, strict=True):
                found[keys[i]] = np.asarray(v, np.float32)
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, 0), np.float32)


_MADE: dict[str, CachedEmbedder] = {}


def cached_embedder(provider: str) -> CachedEmbedder:
    """One cached embedder per provider and process."""
    if provider not in _MADE:
        _MADE[provider] = CachedEmbedder(provider)
    return _MADE[provider]
