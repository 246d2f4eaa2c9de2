"""Test doubles shared by core tests: a fast deterministic embedder that counts its calls."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """Bag-of-words vectors from hashed words: texts sharing words are close, others are not.

    ``synonyms`` maps a word to another so tests can model a paraphrase that shares no words.
    """

    def __init__(self, dim: int = 64, model: str = "hash", synonyms: dict[str, str] | None = None):
        self._dim = dim
        self._model = model
        self.synonyms = synonyms or {}
        self.calls = 0
        self.texts_embedded = 0
        self.gate: threading.Event | None = None  # set() to let a gated embed_query finish
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return f"fake:{self._model}"

    @property
    def dim(self) -> int:
        return self._dim

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self._dim, dtype=np.float32)
        for word in WORD.findall(text.lower()):
            word = self.synonyms.get(word, word)
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            vec[int.from_bytes(digest[:4], "little") % self._dim] += 1.0
        norm = np.linalg.norm(vec)
        if norm == 0:
            vec[0] = 1.0
            norm = 1.0
        return vec / norm

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            self.calls += 1
            self.texts_embedded += len(texts)
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        if self.gate is not None:
            self.gate.wait(10)
        return self._vector(text)


class CheckedWatcher:
    """The runtime's watcher looked at by hand: ``poll()`` is what one ``check()`` reported."""

    def __init__(self, vault: Path) -> None:
        from pixelmem.core.runtime.watcher import VaultWatcher

        self.reported: list[Path] = []
        self.watcher = VaultWatcher(vault, lambda paths, _rescan: self.reported.extend(paths))

    def poll(self) -> list[Path]:
        self.reported = []
        self.watcher.check()
        return self.reported
