"""Incremental indexing: memories → chunks → vectors (cache first) → a searchable snapshot.

Only chunks whose exact embedded text is missing from the cache are sent to the embedder, so a
restart on an unchanged vault embeds nothing and an edit embeds only the chunks it changed.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from pixelmem.core.errors import PixelmemError, ProviderError
from pixelmem.core.index.cache import EmbeddingCache, content_hash
from pixelmem.core.index.chunking import Chunk, ChunkerSettings, chunk_text
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.providers.embeddings.base import Embedder
from pixelmem.core.vault.memory import Memory, searchable_title

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
EMBED_BATCH = 64  # texts handed to the embedder per call: progress and cancel granularity
PUBLISH_KEYWORD_FIRST = 64  # this many chunks to embed: offer keyword search meanwhile


class IndexCancelled(PixelmemError):
    def __init__(self) -> None:
        super().__init__("indexing was cancelled; the vectors computed so far are kept")


@dataclass
class IndexReport:
    memories: int = 0
    chunks: int = 0
    embedded: int = 0  # chunks sent to the embedder in this run
    reused: int = 0  # chunks whose vectors came from the cache
    semantic_error: str = ""  # why semantic search is unavailable, if it is
    warnings: list[str] = field(default_factory=list)


def embedding_text(title: str, text: str) -> str:
    """What is embedded for a chunk: the memory title gives every chunk its context."""
    return f"{title}\n{text}" if title else text


@dataclass(frozen=True)
class _Prepared:
    fingerprint: str
    chunks: tuple[Chunk, ...]
    hashes: tuple[bytes, ...]


class Indexer:
    """Turns the store's memories into a :class:`SearchIndex`, reusing every cached vector.

    Not thread-safe by itself: callers run one ``build`` at a time (the GUI's writer lane, the
    CLI's single thread). Readers use the returned immutable snapshot.
    """

    def __init__(
        self,
        embedder: Embedder | None,
        cache: EmbeddingCache | None,
        chunker: ChunkerSettings | None = None,
    ) -> None:
        self.embedder = embedder
        self.cache = cache
        self.chunker = chunker or ChunkerSettings()
        self._prepared: dict[str, _Prepared] = {}

    def build(
        self,
        memories: Iterable[Memory],
        *,
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        previous: SearchIndex | None = None,
        publish: Callable[[SearchIndex], None] | None = None,
    ) -> tuple[SearchIndex, IndexReport]:
        """Index ``memories``. ``previous`` (the snapshot being replaced) saves re-tokenising
        unchanged chunks. When many chunks must be embedded first, a keyword-only snapshot is
        handed to ``publish`` before embedding starts, so search works during a long first run
        (and stays working if that run is cancelled)."""
        table = {m.id: m for m in memories}
        chunks, hashes = self._chunk_all(table)
        report = IndexReport(memories=len(table), chunks=len(chunks))
        vectors: np.ndarray | None = None

        def keyword_first(missing: int) -> None:
            nonlocal previous
            if publish is not None and missing >= PUBLISH_KEYWORD_FIRST:
                previous = SearchIndex.build(chunks, None, table, previous=previous)
                publish(previous)

        if self.embedder is not None:
            try:
                vectors = self._vectors_for(
                    chunks, table, hashes, report, progress, cancel, keyword_first
                )
            except ProviderError as exc:
                report.semantic_error = str(exc)
                log.warning("semantic search unavailable: %s", exc)
        else:
            report.semantic_error = "no embedding model is configured"
        self._save_cache(hashes, report)
        index = SearchIndex.build(chunks, vectors, table, previous=previous)
        return index, report

    # -- chunking --------------------------------------------------------------------------

    def _chunk_all(self, table: dict[str, Memory]) -> tuple[list[Chunk], list[bytes]]:
        chunks: list[Chunk] = []
        hashes: list[bytes] = []
        fresh: dict[str, _Prepared] = {}
        for memory in table.values():
            prepared = self._prepare(memory)
            fresh[memory.id] = prepared
            chunks.extend(prepared.chunks)
            hashes.extend(prepared.hashes)
        self._prepared = fresh  # deleted memories drop out here
        return chunks, hashes

    def _prepare(self, memory: Memory) -> _Prepared:
        fingerprint = _fingerprint(memory)
        known = self._prepared.get(memory.id)
        if known is not None and known.fingerprint == fingerprint:
            return known
        chunks = chunk_text(memory.id, memory.body, self.chunker)
        if not chunks:  # a title-only memory is still findable
            chunks = [Chunk(memory.id, 0, 0, 0, "")]
        hashes = tuple(
            content_hash(embedding_text(searchable_title(memory), c.text)) for c in chunks
        )
        return _Prepared(fingerprint, tuple(chunks), hashes)

    # -- vectors ---------------------------------------------------------------------------

    def _vectors_for(
        self,
        chunks: Sequence[Chunk],
        table: dict[str, Memory],
        hashes: Sequence[bytes],
        report: IndexReport,
        progress: Progress | None,
        cancel: threading.Event | None,
        before_embedding: Callable[[int], None],
    ) -> np.ndarray:
        assert self.embedder is not None
        dim = self.embedder.dim
        if self.cache is None:
            matrix = np.zeros((len(chunks), dim), dtype=np.float32)
            missing = list(range(len(chunks)))
        else:
            found, missing = self.cache.get_many(hashes)
            matrix = _scatter(found, missing, len(chunks), dim)
        report.reused = len(chunks) - len(missing)
        todo = _unique_by_hash(missing, hashes)
        total = len(todo)
        before_embedding(total)
        if progress:
            progress(0, total)
        for start in range(0, total, EMBED_BATCH):
            if cancel is not None and cancel.is_set():
                self._save_cache(None, report)
                raise IndexCancelled()
            rows = todo[start : start + EMBED_BATCH]
            texts = [
                embedding_text(searchable_title(table[chunks[r].memory_id]), chunks[r].text)
                for r in rows
            ]
            vectors = self.embedder.embed_documents(texts)
            if self.cache is not None:
                self.cache.put_many([hashes[r] for r in rows], vectors)
            for r, v in zip(rows, vectors, strict=True):
                matrix[r] = v
            report.embedded += len(rows)
            if progress:
                progress(min(start + EMBED_BATCH, total), total)
        _fill_duplicates(matrix, missing, hashes)
        return matrix

    def _save_cache(self, keep: Sequence[bytes] | None, report: IndexReport) -> None:
        if self.cache is None or not (self.cache.dirty or _has_stale(self.cache, keep)):
            return
        try:
            self.cache.save(keep=keep)
        except OSError as exc:  # a read-only vault must not stop search from working
            report.warnings.append(f"could not save the embedding cache: {exc.strerror or exc}")
            log.warning("could not save the embedding cache: %s", exc)


def _has_stale(cache: EmbeddingCache, keep: Sequence[bytes] | None) -> bool:
    if keep is None:
        return False
    live = set(keep)
    return len(cache) > sum(1 for h in live if h in cache)


def _fingerprint(memory: Memory) -> str:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(searchable_title(memory).encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(memory.body.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _scatter(found: np.ndarray, missing: Sequence[int], n: int, dim: int) -> np.ndarray:
    """Rows from the cache in chunk order, zeros where the cache had nothing yet."""
    if not missing:
        return np.ascontiguousarray(found, dtype=np.float32)
    matrix = np.zeros((n, dim), dtype=np.float32)
    have = np.ones(n, dtype=bool)
    have[np.asarray(missing, dtype=np.intp)] = False
    matrix[have] = found
    return matrix


def _unique_by_hash(rows: Sequence[int], hashes: Sequence[bytes]) -> list[int]:
    """One row per distinct text: identical chunks (templates, boilerplate) embed once."""
    seen: set[bytes] = set()
    unique = []
    for r in rows:
        if hashes[r] not in seen:
            seen.add(hashes[r])
            unique.append(r)
    return unique


def _fill_duplicates(matrix: np.ndarray, rows: Sequence[int], hashes: Sequence[bytes]) -> None:
    first: dict[bytes, int] = {}
    for r in rows:
        source = first.setdefault(hashes[r], r)
        if source != r:
            matrix[r] = matrix[source]
