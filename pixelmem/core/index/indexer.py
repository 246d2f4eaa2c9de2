"""Incremental indexing: memories → chunks → vectors (cache first) → a searchable snapshot.

Only chunks whose exact embedded text is missing from the cache are sent to the embedder, so a
restart on an unchanged vault embeds nothing and an edit embeds only the chunks it changed.
When the snapshot being replaced is this indexer's own last one, a few changed memories are
applied to it through :meth:`SearchIndex.updated` (their chunks only, the rest untouched);
many changes, or a snapshot worn by updates, make a fresh build.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from pixelmem.core.errors import IndexCancelled, ProviderError
from pixelmem.core.index.cache import EmbeddingCache, content_hash
from pixelmem.core.index.catalog import MemoryChunks
from pixelmem.core.index.chunking import Chunk, ChunkerSettings, chunk_text, embedding_text
from pixelmem.core.index.saved_index import Seed
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.providers.embeddings.base import Embedder
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault import drawings
from pixelmem.core.vault.gc_pause import collector_paused
from pixelmem.core.vault.memory import Memory, searchable_title

if TYPE_CHECKING:
    from pixelmem.core.index.postgres_store import PostgresStore

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
# Memories chunked and hashed between two steps (~50-100 µs of Python each, 0.5-1 s for a first
# index of 10k memories on the indexing thread): a late window goes first (core/step_aside).
CHUNK_STEP_MEMORIES = 64
EMBED_BATCH = 64  # texts handed to the embedder per call: progress and cancel granularity
PUBLISH_KEYWORD_FIRST = 64  # this many chunks to embed: offer keyword search meanwhile
# Chunks per database transaction of a sync: what a killed server or client keeps, and how
# long another client indexing the same database waits for the lock (~5 s of embedding).
SYNC_BATCH_CHUNKS = 256
UPDATE_MAX_CHUNKS = 2000  # more new chunks than this (or than a quarter of all): rebuild
REBUILD_STALE_SHARE = 0.25  # dead chunks + keyword delta past this share: rebuild


@dataclass
class IndexReport:
    memories: int = 0
    chunks: int = 0
    embedded: int = 0  # chunks sent to the embedder in this run
    reused: int = 0  # chunks whose vectors came from the cache
    semantic_error: str = ""  # why semantic search is unavailable, if it is
    warnings: list[str] = field(default_factory=list)
    rebuilt: bool = False  # a fresh snapshot, not the last one updated


@dataclass(frozen=True)
class _Prepared:
    fingerprint: str
    chunks: tuple[Chunk, ...]
    hashes: tuple[bytes, ...]
    metadata: tuple[object, ...] = ()  # what filters read, besides title and body
    disk_hash: str | None = None  # the file as read: equal means nothing changed


@dataclass(frozen=True)
class _Changes:
    """How the store's memories differ from those of the last snapshot."""

    changed: list[Memory]  # new, or another title or body
    refreshed: list[Memory]  # same title and body, other topics / importance / dates
    removed: list[str]
    prepared: dict[str, _Prepared]


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
        store: PostgresStore | None = None,
    ) -> None:
        """``store``: the ``postgres`` backend's database (it also replaces the cache: vectors
        any client stored for the same text are reused)."""
        self.embedder = embedder
        self.cache = cache
        self.store = store
        # Delete the rows of memories this client does not know. Only on request (a full
        # rebuild): another client may have written a memory this vault copy has not yet.
        self.prune_database = False
        # Embed in a child process where the model allows it (the app: embeddings/apart).
        self.embed_apart = False
        self.chunker = chunker or ChunkerSettings()
        self._prepared: dict[str, _Prepared] = {}
        self._last: SearchIndex | None = None  # the last complete snapshot this indexer made

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
        changes = self._changes(table) if previous is not None and previous is self._last else None
        if changes is not None and self._can_update(previous, changes):
            assert previous is not None
            return self._update(previous, table, changes, progress, cancel)
        self._last = None
        with collector_paused(keep=True):  # the chunks live on in the snapshot
            chunks, hashes = self._chunk_all(table)
        report = IndexReport(memories=len(table), chunks=len(chunks), rebuilt=True)
        vectors: np.ndarray | None = None
        if self.store is not None:
            index = self._sync_database(self.store, chunks, hashes, table, report, progress, cancel)
            if index is None:
                from pixelmem.core.index.postgres_sides import database_snapshot

                index = database_snapshot(chunks, table, self.store, previous=previous)
            self._remember(index, report)
            return index, report

        def keyword_first(missing: int) -> None:
            nonlocal previous
            if publish is not None and missing >= PUBLISH_KEYWORD_FIRST:
                with collector_paused(keep=True):
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
        with collector_paused(keep=True):
            index = SearchIndex.build(chunks, vectors, table, previous=previous)
        self._remember(index, report)
        return index, report

    # -- a snapshot made by another indexer ---------------------------------------------------

    def adopt(
        self, index: SearchIndex, seeds: Mapping[str, Seed], table: Mapping[str, Memory]
    ) -> None:
        """Take ``index`` (a saved one) as this indexer's last snapshot, with what the indexer
        that made it knew of each memory (``seeds``): the next :meth:`build` given it as
        ``previous`` updates it by difference. ``table``: the memories now, for metadata."""
        prepared = {}
        for mid, seed in seeds.items():
            memory = table.get(mid)
            metadata = _metadata(memory) if memory is not None else ()
            chunks = tuple(index.chunks_of(mid))
            prepared[mid] = _Prepared(
                seed.fingerprint, chunks, seed.hashes, metadata, seed.disk_hash
            )
        self._prepared, self._last = prepared, index

    @property
    def last(self) -> SearchIndex | None:
        """The last complete snapshot this indexer made or adopted (None: none yet)."""
        return self._last

    def seeds(self) -> dict[str, Seed]:
        """What this indexer knows of each memory of its last snapshot (for a saved copy)."""
        return {
            mid: Seed(p.fingerprint, p.disk_hash, p.hashes) for mid, p in self._prepared.items()
        }

    # -- updating the last snapshot ----------------------------------------------------------

    def _changes(self, table: dict[str, Memory]) -> _Changes:
        changed, refreshed = [], []
        prepared: dict[str, _Prepared] = {}
        for memory in table.values():
            known = self._prepared.get(memory.id)
            if known is not None and memory.disk_hash and known.disk_hash == memory.disk_hash:
                prepared[memory.id] = known  # the same file as last time
                continue
            fresh = self._prepare(memory)
            prepared[memory.id] = fresh
            if known is None or known.fingerprint != fresh.fingerprint:
                changed.append(memory)
            elif known.metadata != fresh.metadata:
                refreshed.append(memory)
        removed = [mid for mid in self._prepared if mid not in table]
        return _Changes(changed, refreshed, removed, prepared)

    def _can_update(self, previous: SearchIndex | None, changes: _Changes) -> bool:
        if previous is None or previous.stale_share > REBUILD_STALE_SHARE:
            return False
        new_chunks = sum(len(changes.prepared[m.id].chunks) for m in changes.changed)
        return new_chunks <= min(UPDATE_MAX_CHUNKS, max(64, previous.chunk_count // 4))

    def _update(
        self,
        previous: SearchIndex,
        table: dict[str, Memory],
        changes: _Changes,
        progress: Progress | None,
        cancel: threading.Event | None,
    ) -> tuple[SearchIndex, IndexReport]:
        """Apply ``changes`` to ``previous``: only the changed memories' chunks are embedded
        (cache first), tokenised and stored."""
        report = IndexReport(memories=len(table))
        if self.embedder is None:
            report.semantic_error = "no embedding model is configured"
        if not (changes.changed or changes.refreshed or changes.removed):
            self._prepared = changes.prepared
            report.chunks = report.reused = previous.chunk_count
            self._save_cache(self._all_hashes(), report)
            return previous, report  # nothing changed: the same snapshot
        changed = changes.changed
        if self.store is not None:  # the rows carry the metadata SQL filters read
            changed = changed + changes.refreshed
        items = [MemoryChunks(m.id, m, changes.prepared[m.id].chunks) for m in changed]
        chunks = [c for item in items for c in item.chunks]
        hashes = [h for m in changed for h in changes.prepared[m.id].hashes]
        vectors = None
        if previous.has_vectors and chunks:
            assert self.embedder is not None
            try:
                if self.store is None:
                    vectors = self._vectors_for(
                        chunks, table, hashes, report, progress, cancel, _nothing
                    )
                else:
                    vectors = self._vectors_shared(
                        chunks, table, hashes, report, progress, cancel,
                        self.store.vectors_by_hash,
                    )  # fmt: skip
            except ProviderError as exc:
                log.warning("semantic search unavailable: %s", exc)
                self._last = None  # a keyword-only snapshot of everything, as a full build makes
                return self.build(table.values(), progress=progress, cancel=cancel)
        index = previous.updated(changes.removed, items, changes.refreshed, vectors)
        self._prepared = changes.prepared  # only now: a cancelled update changes nothing
        report.chunks = index.chunk_count
        report.reused = index.chunk_count - report.embedded
        self._save_cache(self._all_hashes(), report)
        self._remember(index, report)
        return index, report

    # -- the postgres backend ----------------------------------------------------------------

    def _sync_database(
        self,
        store: PostgresStore,
        chunks: list[Chunk],
        hashes: list[bytes],
        table: dict[str, Memory],
        report: IndexReport,
        progress: Progress | None,
        cancel: threading.Event | None,
    ) -> SearchIndex | None:
        """Write the rows of memories whose chunks the database lacks or has otherwise (by
        content hash and metadata), delete those of memories gone from the vault."""
        from pixelmem.core.index.postgres_sides import chunk_row, row_metadata
        from pixelmem.core.index.search import keyword_title

        states = store.row_states()
        in_db: dict[str, int] = {}
        for mid, _ in states:
            in_db[mid] = in_db.get(mid, 0) + 1
        dirty: set[str] = set()
        local: dict[str, int] = {}
        for chunk, h in zip(chunks, hashes, strict=True):
            local[chunk.memory_id] = local.get(chunk.memory_id, 0) + 1
            state = states.get((chunk.memory_id, chunk.index))
            wanted = (h, row_metadata(table.get(chunk.memory_id)))
            if state != wanted:
                dirty.add(chunk.memory_id)
        dirty |= {mid for mid, count in local.items() if in_db.get(mid, 0) != count}
        gone = sorted(set(in_db) - set(local)) if self.prune_database else []
        rows_at = [i for i, c in enumerate(chunks) if c.memory_id in dirty]
        if self.embedder is None:
            report.semantic_error = "no embedding model is configured"
        done = 0

        def batch_progress(embedded: int, _total: int) -> None:
            if progress:
                progress(min(done + embedded, len(rows_at)), len(rows_at))

        try:
            for batch_rows in _sync_batches(rows_at, chunks, SYNC_BATCH_CHUNKS) or [[]]:
                if cancel is not None and cancel.is_set():
                    raise IndexCancelled()  # the batches written so far stay
                with store.sync_batch() as batch:
                    vectors = None
                    if self.embedder is not None and batch_rows:
                        vectors = self._vectors_shared(
                            [chunks[i] for i in batch_rows], table,
                            [hashes[i] for i in batch_rows], report, batch_progress, cancel,
                            batch.vectors_by_hash,
                        )  # fmt: skip
                    rows = [
                        chunk_row(
                            table.get(chunks[i].memory_id), chunks[i].memory_id,
                            chunks[i].index, chunks[i].text,
                            keyword_title(table.get(chunks[i].memory_id)),
                            None if vectors is None else vectors[n],
                        )
                        for n, i in enumerate(batch_rows)
                    ]  # fmt: skip
                    batch.write(rows, delete_memories=gone)
                gone = []  # deleted with the first batch
                done += len(batch_rows)
                batch_progress(0, 0)
        except ProviderError as exc:
            report.semantic_error = str(exc)
            log.warning("semantic search unavailable: %s", exc)
            return SearchIndex.build(chunks, None, table)  # keyword-only; done batches stay
        report.reused = len(chunks) - report.embedded
        return None

    def _vectors_shared(
        self,
        chunks: Sequence[Chunk],
        table: dict[str, Memory],
        hashes: Sequence[bytes],
        report: IndexReport,
        progress: Progress | None,
        cancel: threading.Event | None,
        stored: Callable[[Sequence[bytes]], dict[bytes, np.ndarray]],
    ) -> np.ndarray:
        """Vectors from the database (``stored``) when any client stored the same text with
        this model, from the embedder otherwise."""
        assert self.embedder is not None
        found = stored(hashes)
        matrix = np.zeros((len(chunks), self.embedder.dim), np.float32)
        missing = []
        for i, h in enumerate(hashes):
            if h in found:
                matrix[i] = found[h]
            else:
                missing.append(i)
        if missing:
            sub = self._vectors_for(
                [chunks[i] for i in missing], table, [hashes[i] for i in missing], report,
                progress, cancel, _nothing,
            )  # fmt: skip
            matrix[missing] = sub
        return matrix  # the callers count report.reused over all their chunks

    def _all_hashes(self) -> list[bytes]:
        return [h for p in self._prepared.values() for h in p.hashes]

    def _remember(self, index: SearchIndex, report: IndexReport) -> None:
        """Keep ``index`` as the base of the next update, when it is whole: every chunk has a
        vector (or no embedder is configured, so none ever will)."""
        whole = not report.semantic_error or self.embedder is None
        self._last = index if whole and (index.has_vectors or self.embedder is None) else None

    # -- chunking --------------------------------------------------------------------------

    def _chunk_all(self, table: dict[str, Memory]) -> tuple[list[Chunk], list[bytes]]:
        chunks: list[Chunk] = []
        hashes: list[bytes] = []
        fresh: dict[str, _Prepared] = {}
        for number, memory in enumerate(table.values(), 1):
            if number % CHUNK_STEP_MEMORIES == 0:
                step_aside()  # a late window, or a search someone types, first
            prepared = self._prepare(memory)
            fresh[memory.id] = prepared
            chunks.extend(prepared.chunks)
            hashes.extend(prepared.hashes)
        self._prepared = fresh  # deleted memories drop out here
        return chunks, hashes

    def _prepare(self, memory: Memory) -> _Prepared:
        fingerprint = _fingerprint(memory)
        metadata = _metadata(memory)
        known = self._prepared.get(memory.id)
        if known is not None and known.fingerprint == fingerprint:
            if known.metadata == metadata and known.disk_hash == memory.disk_hash:
                return known
            return dataclasses.replace(known, metadata=metadata, disk_hash=memory.disk_hash)
        chunks, hashes = memory_chunks(memory, self.chunker)
        return _Prepared(fingerprint, tuple(chunks), hashes, metadata, memory.disk_hash)

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
            vectors = self._embed(texts)
            if self.cache is not None:
                self.cache.put_many([hashes[r] for r in rows], vectors)
            for r, v in zip(rows, vectors, strict=True):
                matrix[r] = v
            report.embedded += len(rows)
            if progress:
                progress(min(start + EMBED_BATCH, total), total)
        _fill_duplicates(matrix, missing, hashes)
        return matrix

    def _embed(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None
        if not self.embed_apart:
            return self.embedder.embed_documents(texts)
        from pixelmem.core.providers.embeddings import apart  # multiprocessing: the app only

        return apart.embed_documents(self.embedder, texts)

    def _save_cache(self, keep: Sequence[bytes] | None, report: IndexReport) -> None:
        if self.cache is None or not (self.cache.dirty or _has_stale(self.cache, keep)):
            return
        try:
            self.cache.save(keep=keep)
        except OSError as exc:  # a read-only vault must not stop search from working
            report.warnings.append(f"could not save the embedding cache: {exc.strerror or exc}")
            log.warning("could not save the embedding cache: %s", exc)


def memory_chunks(
    memory: Memory, chunker: ChunkerSettings
) -> tuple[list[Chunk], tuple[bytes, ...]]:
    """A memory's chunks and each one's content hash: what its vectors are cached under."""
    spans = drawings.text_spans(memory.body) if is_drawing(memory) else None
    chunks = chunk_text(memory.id, memory.body, chunker, spans)
    if not chunks:  # a title-only memory is still findable
        chunks = [Chunk(memory.id, 0, 0, 0, "")]
    title = searchable_title(memory)
    return chunks, tuple(content_hash(embedding_text(title, c.text)) for c in chunks)


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
    digest.update(b"\0drawing" if is_drawing(memory) else b"")  # read by its words alone
    return digest.hexdigest()


def is_drawing(memory: Memory) -> bool:
    """Whether the memory is an Excalidraw drawing, read by its words alone (core.vault.
    drawings)."""
    return drawings.is_drawing(memory.extra, memory.body)


def _sync_batches(rows: list[int], chunks: Sequence[Chunk], size: int) -> list[list[int]]:
    """``rows`` in batches of about ``size`` chunks, never splitting a memory's chunks (its
    rows are replaced in one transaction)."""
    batches: list[list[int]] = []
    current: list[int] = []
    for position, row in enumerate(rows):
        current.append(row)
        last_of_memory = (
            position + 1 == len(rows)
            or chunks[rows[position + 1]].memory_id != chunks[row].memory_id
        )
        if len(current) >= size and last_of_memory:
            batches.append(current)
            current = []
    if current:
        batches.append(current)
    return batches


def _nothing(_: int) -> None:
    """No keyword-only snapshot first (an update, or the database answers meanwhile)."""


def _metadata(memory: Memory) -> tuple[object, ...]:
    """What the snapshot keeps of a memory besides its title and body (for filters)."""
    return (tuple(memory.topics), memory.importance, memory.created, memory.updated)


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
