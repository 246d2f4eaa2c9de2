"""The search-backend seam: what fusion needs from a vector side and a keyword side.

:class:`~pixelmem.core.index.search.SearchIndex` ranks memories from *candidate lists*, never
from full per-chunk score arrays, so a side can be an in-process numpy matrix and BM25 postings
(the local backend: :mod:`~pixelmem.core.index.vector_side`,
:mod:`~pixelmem.core.index.keyword_side`) or anything else that answers "the ``k`` best chunks
for this query among these memories".

Identifiers are small integers handed out by the snapshot's
:class:`~pixelmem.core.index.catalog.Catalog`: a *chunk id* per indexed chunk (never reused
within one snapshot lineage) and a *memory position* per memory. ``allowed`` says which
memories may be returned (None: every live one): as a boolean array over memory positions, and
as what made it (the search filters, or a short list of memory ids being looked up), so a
database side can say it in its own query language.

Sides are persistent values: ``upsert`` and ``remove`` return the side to use from then on and
leave the receiver untouched, so a search running on the old snapshot keeps a consistent view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol, runtime_checkable

import numpy as np

from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.text_tokens import QueryTerms
from pixelmem.core.vault.memory import Memory

ChunkIds = np.ndarray  # int64 chunk ids
Scores = np.ndarray  # float32, one per chunk id, best first


@dataclass(frozen=True)
class SearchFilters:
    """Keep only memories with this topic / importance / date (``updated``, else ``created``),
    and, with ``memory_ids``, only those memories (a time range's, a caller's own choice).

    Dates without a time zone are taken as UTC; a plain ``date`` covers that whole day.
    """

    topic: str | None = None
    importance: str | None = None
    date_from: datetime | date | None = None
    date_to: datetime | date | None = None
    memory_ids: frozenset[str] | None = None


@dataclass(frozen=True)
class Allowed:
    """The memories a side may return: ``mask`` (bool per memory position) is always right;
    ``filters`` and ``memory_ids`` say the same in words (both hold when both are set)."""

    mask: np.ndarray
    filters: SearchFilters | None = None
    memory_ids: tuple[str, ...] | None = None
    chunk_ids: ChunkIds | None = None  # with ``memory_ids``: those memories' chunks


@dataclass(frozen=True)
class ChunkBatch:
    """Chunks to add: ``ids[i]`` is ``chunks[i]`` of the memory at position ``owners[i]``.

    ``keyword_titles[i]`` is the title fed into that chunk's keyword text ("" when titles are
    not searched); ``vectors`` (rows ↔ chunks) is None for a keyword-only index.
    """

    ids: ChunkIds
    owners: np.ndarray
    chunks: Sequence[Chunk]
    keyword_titles: Sequence[str]
    vectors: np.ndarray | None = None
    memories: Sequence[Memory | None] = ()  # each chunk's memory (a database keeps its metadata)

    def __len__(self) -> int:
        return len(self.chunks)


class VectorSide(Protocol):
    """Cosine similarity between a query vector and chunk vectors."""

    @property
    def dim(self) -> int: ...

    def __len__(self) -> int: ...  # live chunks

    def top_chunks(
        self, query: np.ndarray, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        """The ``k`` chunks most similar to ``query`` (best first, ties by chunk id)."""
        ...

    def vectors(self, ids: ChunkIds) -> np.ndarray:
        """The stored unit vectors of these chunks (rows in the order given)."""
        ...

    def upsert(self, batch: ChunkBatch) -> VectorSide: ...

    def remove(self, ids: ChunkIds) -> VectorSide: ...


@runtime_checkable
class Damping(Protocol):
    """A vector side whose hub chunks a search can damp (:mod:`~pixelmem.core.index.hubs`)."""

    def hub_values(self, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Each chunk id's cosine with ``direction``, and which ids hold a chunk (None: all)."""
        ...

    def damped(self, penalty: np.ndarray) -> VectorSide:
        """This side with ``penalty[chunk id]`` taken off each cosine it gives."""
        ...


class KeywordSide(Protocol):
    """BM25 of a query's terms in chunk texts (title words included, see ``keyword_tokens``)."""

    def __len__(self) -> int: ...  # the chunks idf counts in

    def top_chunks(
        self, query: QueryTerms, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        """The ``k`` best chunks with a keyword match (score > 0), best first.

        A chunk counts as a match only with a strong term (see
        :class:`~pixelmem.core.index.text_tokens.QueryTerms`).
        """
        ...

    def idf_sum(self, terms: Iterable[str]) -> float:
        """Σ idf of ``terms`` (absent terms count as the rarest): the query's keyword scale."""
        ...

    def idfs(self, terms: Iterable[str]) -> dict[str, float]:
        """Each distinct term's idf (an absent one: the rarest), in one look-up: each equals
        ``idf_sum((term,))``."""
        ...

    def upsert(self, batch: ChunkBatch) -> KeywordSide: ...

    def remove(self, ids: ChunkIds) -> KeywordSide: ...
