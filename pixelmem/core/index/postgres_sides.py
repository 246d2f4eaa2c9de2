"""The two search sides of the ``postgres`` backend (see :mod:`.postgres_store`).

Rows in the database are keyed by (memory id, chunk index); the seam speaks chunk ids, so both
sides share a :class:`ChunkKeys` map. Unlike the local sides these are live views of a shared
database, not snapshots: ``upsert``/``remove`` write through and return the same side. Rows of
memories this client does not know (another client's newer note) are left out of results.
The keyword side writes whole rows (tokens and, when there is one, the vector); the vector
side only reads. :func:`database_snapshot` puts both in a :class:`SearchIndex`: the search core
itself knows nothing of PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from pixelmem.core.index.cache import content_hash
from pixelmem.core.index.catalog import Catalog, timestamp
from pixelmem.core.index.chunking import Chunk, embedding_text
from pixelmem.core.index.keyword_side import keyword_tokens
from pixelmem.core.index.postgres_store import ChunkRow, PostgresStore, keyword_tokens_for_db
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.index.search_backend import (
    Allowed,
    ChunkBatch,
    ChunkIds,
    Scores,
    SearchFilters,
)
from pixelmem.core.index.text_tokens import QueryTerms
from pixelmem.core.vault.memory import Memory, searchable_title


def database_snapshot(
    chunks: Sequence[Chunk],
    memories: Mapping[str, Memory],
    store: PostgresStore,
    *,
    titles_in_keyword: bool = True,
    previous: SearchIndex | None = None,
) -> SearchIndex:
    """A snapshot whose sides are the database's (its rows already written for these chunks);
    a local keyword index of the same chunks answers while the server is down."""
    # The local parts are the ones SearchIndex.build makes: the same catalog and keyword index.
    catalog, local, source = SearchIndex._local_parts(chunks, memories, titles_in_keyword, previous)
    keys = ChunkKeys(catalog)
    vector_side = PostgresVectorSide(store, keys) if store.dim else None
    return SearchIndex(
        catalog, vector_side, PostgresKeywordSide(store, keys),
        titles_in_keyword=titles_in_keyword, hashes_source=source, fallback=local,
        backend="postgres",
    )  # fmt: skip


class ChunkKeys:
    """(memory id, chunk index) ↔ chunk id, for the newest snapshot."""

    def __init__(self, catalog: Catalog) -> None:
        self.ids: dict[tuple[str, int], int] = {}
        self.keys: dict[int, tuple[str, int]] = {}
        for cid, chunk in enumerate(catalog.chunks):
            if chunk is not None:
                self.add(cid, chunk.memory_id, chunk.index)

    def add(self, cid: int, memory_id: str, index: int) -> None:
        self.ids[(memory_id, index)] = cid
        self.keys[cid] = (memory_id, index)

    def drop(self, cid: int) -> None:
        key = self.keys.pop(cid, None)
        if key is not None and self.ids.get(key) == cid:
            del self.ids[key]

    def to_ids(self, rows: Iterable[tuple[str, int, float]]) -> tuple[ChunkIds, Scores]:
        pairs = [(cid, s) for m, i, s in rows if (cid := self.ids.get((m, i))) is not None]
        ids = np.array([c for c, _ in pairs], np.int64)
        return ids, np.array([s for _, s in pairs], np.float32)


def _as_sql(allowed: Allowed | None) -> tuple[SearchFilters | None, Sequence[str] | None]:
    """What ``allowed`` says in words (its filters or memory ids), which SQL can say too."""
    if allowed is None:
        return None, None
    return allowed.filters, allowed.memory_ids


class PostgresVectorSide:
    """Cosine through the table's HNSW index (approximate; exact for a few named memories)."""

    def __init__(self, store: PostgresStore, keys: ChunkKeys) -> None:
        self.store, self.keys = store, keys

    @property
    def dim(self) -> int:
        return self.store.dim

    def __len__(self) -> int:
        return len(self.keys.keys)

    def top_chunks(
        self, query: np.ndarray, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        q = np.asarray(query, np.float32)
        norm = float(np.linalg.norm(q))
        filters, memory_ids = _as_sql(allowed)
        rows = self.store.nearest(q / norm if norm else q, k, filters, memory_ids)
        return self.keys.to_ids(rows)

    def hub_values(self, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Each chunk id's cosine with ``direction``, computed by the server (hubs.py)."""
        size = max(self.keys.keys, default=-1) + 1
        values, live = np.zeros(size, np.float32), np.zeros(size, bool)
        for memory_id, index, value in self.store.inner_products(direction):
            cid = self.keys.ids.get((memory_id, index))
            if cid is not None:
                values[cid], live[cid] = value, True
        return values, live

    def damped(self, penalty: np.ndarray) -> DampedVectorSide:
        return DampedVectorSide(self, penalty)

    def vectors(self, ids: ChunkIds) -> np.ndarray:
        keys = [self.keys.keys[int(c)] for c in ids]
        found = self.store.vectors_of(keys)
        return np.array([found[key] for key in keys], np.float32).reshape(len(keys), self.dim)

    def upsert(self, batch: ChunkBatch) -> PostgresVectorSide:
        return self  # the keyword side wrote the rows, vectors included

    def remove(self, ids: ChunkIds) -> PostgresVectorSide:
        return self


class DampedVectorSide:
    """The database's vector side with hub chunks' cosines lowered by ``penalty[chunk id]``
    (hubs.py): the rows the server lists, each less its penalty, in their new order."""

    def __init__(self, inner: PostgresVectorSide, penalty: np.ndarray) -> None:
        self.inner, self.penalty = inner, penalty

    @property
    def dim(self) -> int:
        return self.inner.dim

    def __len__(self) -> int:
        return len(self.inner)

    def top_chunks(
        self, query: np.ndarray, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        ids, cosines = self.inner.top_chunks(query, k, allowed)
        known = ids < len(self.penalty)  # rows newer than the penalties: none taken off
        damped = cosines - np.where(known, self.penalty[np.where(known, ids, 0)], 0.0)
        order = np.lexsort((ids, -damped))
        return ids[order], damped[order].astype(np.float32)

    def vectors(self, ids: ChunkIds) -> np.ndarray:
        return self.inner.vectors(ids)

    def upsert(self, batch: ChunkBatch) -> PostgresVectorSide:
        return self.inner.upsert(batch)

    def remove(self, ids: ChunkIds) -> PostgresVectorSide:
        return self.inner.remove(ids)


class PostgresKeywordSide:
    """BM25 in SQL over the GIN-indexed tokens; writes the rows of upserted chunks."""

    def __init__(self, store: PostgresStore, keys: ChunkKeys) -> None:
        self.store, self.keys = store, keys

    def __len__(self) -> int:
        return len(self.keys.keys)

    def top_chunks(
        self, query: QueryTerms, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        filters, memory_ids = _as_sql(allowed)
        rows = self.store.keyword(query.strong, query.weak, k, filters, memory_ids)
        return self.keys.to_ids(rows)

    def idf_sum(self, terms: Iterable[str]) -> float:
        return self.store.idf_sum(terms)

    def idfs(self, terms: Iterable[str]) -> dict[str, float]:
        return self.store.idfs(terms)

    def upsert(self, batch: ChunkBatch) -> PostgresKeywordSide:
        memories = batch.memories or [None] * len(batch)
        rows = [
            chunk_row(memory, chunk.memory_id, chunk.index, chunk.text, title, vector)
            for memory, chunk, title, vector in zip(
                memories, batch.chunks, batch.keyword_titles,
                batch.vectors if batch.vectors is not None else [None] * len(batch), strict=True,
            )
        ]  # fmt: skip
        self.store.write(rows)
        for cid, chunk in zip(batch.ids.tolist(), batch.chunks, strict=True):
            self.keys.add(cid, chunk.memory_id, chunk.index)
        return self

    def remove(self, ids: ChunkIds) -> PostgresKeywordSide:
        # A snapshot only ever removes every chunk of a memory (deleted, or about to be
        # rewritten by the upsert that follows).
        gone = {self.keys.keys[c][0] for c in ids.tolist() if c in self.keys.keys}
        for c in ids.tolist():
            self.keys.drop(c)
        if gone:
            self.store.write([], delete_memories=sorted(gone))
        return self


def row_metadata(memory: Memory | None) -> tuple[tuple[str, ...], str, float | None]:
    """(topics, importance, date) as a row keeps them, to tell whether a row is current."""
    if memory is None:
        return (), "", None
    stamp = timestamp(memory)
    topics = tuple(dict.fromkeys(t.casefold() for t in memory.topics))
    return topics, memory.importance, None if np.isnan(stamp) else stamp


def chunk_row(
    memory: Memory | None,
    memory_id: str,
    index: int,
    text: str,
    keyword_title: str,
    vector: np.ndarray | None,
) -> ChunkRow:
    """A chunk as the table keeps it (the content hash is the embedding cache's)."""
    title = searchable_title(memory) if memory is not None else ""  # as the indexer hashes
    topics, importance, stamp = row_metadata(memory)
    return ChunkRow(
        memory_id=memory_id,
        chunk_index=index,
        content_hash=content_hash(embedding_text(title, text)),
        tokens=keyword_tokens_for_db(keyword_tokens(keyword_title, text)),
        topics=list(topics),
        importance=importance,
        stamp=stamp,
        vector=vector,
    )
