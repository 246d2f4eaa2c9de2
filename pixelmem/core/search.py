"""Search over an immutable snapshot of chunks: semantic, keyword and hybrid, one hit per memory.

How a query is answered:

* ``semantic``: cosine of the query vector with every chunk; a memory scores its best chunk;
  memories below ``min_score`` are dropped. ``score`` is that cosine.
* ``keyword``: BM25 over chunk text with the memory title prepended (so a title word finds every
  chunk of its memory, and the chunk that also holds the rest of the query wins); only memories
  with a score > 0. ``score`` is BM25 relative to the best hit (1.0 = best); the raw BM25 is in
  ``keyword_score``.
* ``hybrid`` (default): both lists are first grouped per memory (a memory's rank is its best
  chunk's rank, so a long memory cannot fill a list with its chunks and push others down), cut to
  ``max(50, 4k)`` memories each, and fused by reciprocal rank, ``Σ 1 / (60 + rank)``. ``score``
  is that sum divided by its maximum, ``2 / 61``: 1.0 = ranked first by both sides, 0.5 = first
  by one side only. ``semantic_score`` and ``keyword_score`` always carry the best chunk's raw
  cosine and BM25. The semantic side keeps only cosines ``>= min_score``; so a query that
  neither matches a word nor passes the threshold gets ``[]``. When a side cannot run (no query
  vector, or no searchable word in the query) hybrid is exactly the other mode.

Filters (topic, importance, date range) are per memory and are applied before ranking.
A snapshot never changes after :meth:`SearchIndex.build`; the indexer builds a new one and swaps
the reference, so any number of threads may search one snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

import numpy as np

from pixelmem.core.chunking import Chunk
from pixelmem.core.keyword_index import KeywordIndex, token_hashes
from pixelmem.core.memory import Memory
from pixelmem.core.text_tokens import highlight_terms, make_snippet, query_terms, tokenize
from pixelmem.core.vector_index import VectorIndex, top_k_of_scores

MODES = ("hybrid", "semantic", "keyword")
RRF_K = 60
_NONE = -np.inf
# "score > 0" for BM25 with an inclusive floor; every real BM25 weight is larger.
_POSITIVE = float(np.finfo(np.float32).tiny)


@dataclass(frozen=True)
class SearchFilters:
    """Keep only memories with this topic / importance / date (``updated``, else ``created``).

    Dates without a time zone are taken as UTC; a plain ``date`` covers that whole day.
    """

    topic: str | None = None
    importance: str | None = None
    date_from: datetime | date | None = None
    date_to: datetime | date | None = None


@dataclass(frozen=True)
class _TokenHashes:
    """Every chunk's keyword token hashes, kept so the next build can reuse them."""

    titles_in_keyword: bool
    hashes: np.ndarray
    lengths: np.ndarray


@dataclass(frozen=True)
class SearchHit:
    """One memory found, shown through its best chunk.

    ``start``/``end`` is the chunk's span in the memory body. ``matched_terms`` are the query's
    words (and, for CJK, its longest substrings) found in the title or chunk, for highlighting.
    """

    memory_id: str
    title: str
    score: float
    snippet: str
    chunk_index: int
    start: int
    end: int
    semantic_score: float | None
    keyword_score: float | None
    matched_terms: tuple[str, ...]


class SearchIndex:
    """Chunks, their vectors and their BM25 postings, plus per-memory metadata for filters."""

    def __init__(
        self,
        chunks: Sequence[Chunk],
        vectors: VectorIndex | None,
        keywords: KeywordIndex,
        memories: Mapping[str, Memory],
        token_hashes: _TokenHashes | None = None,
    ) -> None:
        """Assemble a snapshot from prepared parts; :meth:`build` is the usual way in."""
        self._chunks = tuple(chunks)
        self._vectors = vectors if vectors is not None and len(vectors) else None
        self._keywords = keywords
        self._token_hashes = token_hashes
        ids = list(dict.fromkeys(c.memory_id for c in self._chunks))
        self._ids = tuple(ids)
        self._position = {mid: i for i, mid in enumerate(ids)}
        self._row_memory = np.array([self._position[c.memory_id] for c in self._chunks], np.int64)
        # Rows grouped by memory: memory m owns _order[_starts[m]:_starts[m + 1]].
        self._order = np.argsort(self._row_memory, kind="stable")
        self._starts = np.searchsorted(self._row_memory[self._order], np.arange(len(ids) + 1))
        found = [memories.get(mid) for mid in ids]
        self._titles = tuple(m.title if m else "" for m in found)
        self._importance = np.array([m.importance if m else "" for m in found], dtype=object)
        self._dates = np.array([_timestamp(m) for m in found], np.float64)
        self._topics: dict[str, list[int]] = {}
        for i, m in enumerate(found):
            for topic in dict.fromkeys(t.casefold() for t in (m.topics if m else ())):
                self._topics.setdefault(topic, []).append(i)

    @classmethod
    def build(
        cls,
        chunks: Sequence[Chunk],
        vectors: np.ndarray | None,
        memories: Mapping[str, Memory],
        *,
        titles_in_keyword: bool = True,
        previous: SearchIndex | None = None,
    ) -> SearchIndex:
        """Index ``chunks`` (row i ↔ ``vectors[i]``); no vectors or 0 rows: keyword-only.

        ``vectors`` is used without a copy when it is C-ordered float32. Pass the snapshot being
        replaced as ``previous`` and chunks whose text and memory title are unchanged are not
        tokenised again (a rebuild after one edit costs the postings sort, not the tokenising).
        """
        if vectors is not None and len(vectors) and len(vectors) != len(chunks):
            raise ValueError(f"{len(vectors)} vectors for {len(chunks)} chunks")
        vector_index = VectorIndex(vectors) if vectors is not None and len(vectors) else None
        reusable = previous._reusable_hashes(titles_in_keyword) if previous is not None else {}
        title_hashes: dict[str, np.ndarray] = {}
        parts = []
        for chunk in chunks:
            memory = memories.get(chunk.memory_id)
            title = memory.title if memory is not None and titles_in_keyword else ""
            part = reusable.get((title, chunk.text))
            if part is None:
                if title not in title_hashes:
                    title_hashes[title] = token_hashes(tokenize(title))
                part = np.concatenate((token_hashes(tokenize(chunk.text)), title_hashes[title]))
            parts.append(part)
        lengths = np.fromiter(map(len, parts), np.int64, count=len(parts))
        hashes = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        keywords = KeywordIndex.from_hashes(hashes, lengths)
        source = _TokenHashes(titles_in_keyword, hashes, lengths)
        return cls(chunks, vector_index, keywords, memories, source)

    def _reusable_hashes(self, titles_in_keyword: bool) -> dict[tuple[str, str], np.ndarray]:
        """(title, chunk text) → that chunk's token hashes, for the next :meth:`build`."""
        source = self._token_hashes
        if source is None or source.titles_in_keyword != titles_in_keyword:
            return {}
        ends = np.cumsum(source.lengths)
        titles = [self._titles[m] if titles_in_keyword else "" for m in self._row_memory]
        return {
            (title, chunk.text): source.hashes[end - length : end]
            for title, chunk, end, length in zip(
                titles, self._chunks, ends.tolist(), source.lengths.tolist(), strict=True
            )
        }

    # -- what is in it ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._position

    @property
    def memory_ids(self) -> tuple[str, ...]:
        """Ids of the searchable memories, in index order."""
        return self._ids

    @property
    def chunk_count(self) -> int:
        return len(self._chunks)

    @property
    def has_vectors(self) -> bool:
        """False for a keyword-only snapshot (no embedder, or it failed)."""
        return self._vectors is not None

    def chunks_of(self, memory_id: str) -> list[Chunk]:
        """The chunks of one memory in index order (empty if it is not indexed)."""
        return [self._chunks[r] for r in self._rows_of(memory_id)]

    # -- queries ---------------------------------------------------------------------------

    def search(
        self,
        query: str,
        query_vector: np.ndarray | None,
        *,
        mode: str = "hybrid",
        k: int = 5,
        min_score: float = 0.3,
        filters: SearchFilters | None = None,
        semantic_weight: float = 1.0,
    ) -> list[SearchHit]:
        """Up to ``k`` memories for ``query``, best first (see the module docstring).

        ``semantic_weight`` (0–1) scales the semantic side of hybrid fusion: the engine lowers it
        when the model cannot read the query's language (an English-only model, a Chinese query).
        """
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
        keep = self._memory_mask(filters)
        if k <= 0 or not keep.any():
            return []
        terms = query_terms(query) if mode != "semantic" else []
        vector_ok = mode != "keyword" and query_vector is not None and self.has_vectors
        if mode == "hybrid" and not (vector_ok and terms):
            mode = "semantic" if vector_ok else "keyword"
        cosine = None
        if vector_ok and self._vectors is not None and query_vector is not None:
            cosine = self._vectors.scores(query_vector)
        bm25 = self._keywords.scores(terms) if terms else None
        sem = self._memory_best(cosine, keep, min_score) if cosine is not None else None
        kw = self._memory_best(bm25, keep, _POSITIVE) if bm25 is not None else None
        if mode == "semantic":
            ranked = _ranked(sem, k)
            scores = sem[ranked] if sem is not None else []
        elif mode == "keyword":
            ranked = _ranked(kw, k)
            scores = kw[ranked] / kw[ranked[0]] if kw is not None and len(ranked) else []
        else:
            assert sem is not None and kw is not None  # hybrid runs only with both sides
            ranked, scores = _fuse(sem, kw, k, max(50, 4 * k), semantic_weight)
        return [
            self._hit(int(m), float(s), query, cosine, bm25)
            for m, s in zip(ranked, scores, strict=True)
        ]

    def related(self, memory_id: str, k: int = 5, *, min_score: float = 0.0) -> list[SearchHit]:
        """The ``k`` other memories nearest to this one's chunk vectors (no re-embedding).

        A memory is scored by its best chunk's cosine with the normalised mean of this
        memory's chunk vectors. Empty when the memory is unknown or there are no vectors.
        """
        rows = self._rows_of(memory_id)
        if self._vectors is None or not len(rows) or k <= 0:
            return []
        cosine = self._vectors.group_scores(rows)
        keep = np.ones(len(self), bool)
        keep[self._position[memory_id]] = False
        best = self._memory_best(cosine, keep, min_score)
        ranked = _ranked(best, k)
        return [self._hit(int(m), float(best[m]), "", cosine, None) for m in ranked]

    # -- internals -------------------------------------------------------------------------

    def _rows_of(self, memory_id: str) -> np.ndarray:
        m = self._position.get(memory_id)
        if m is None:
            return np.zeros(0, np.int64)
        return self._order[self._starts[m] : self._starts[m + 1]]

    def _memory_mask(self, filters: SearchFilters | None) -> np.ndarray:
        keep = np.ones(len(self), bool)
        if filters is None:
            return keep
        if filters.topic is not None:
            members = np.zeros(len(self), bool)
            members[self._topics.get(filters.topic.casefold(), [])] = True
            keep &= members
        if filters.importance is not None:
            keep &= self._importance == filters.importance
        if filters.date_from is not None:
            keep &= self._dates >= _as_utc(filters.date_from, time.min).timestamp()
        if filters.date_to is not None:
            keep &= self._dates <= _as_utc(filters.date_to, time.max).timestamp()
        return keep

    def _memory_best(self, row_scores: np.ndarray, keep: np.ndarray, floor: float) -> np.ndarray:
        """Each memory's best chunk score; ``-inf`` where filtered out or below ``floor``."""
        if not len(self):
            return np.zeros(0, np.float32)
        best = np.maximum.reduceat(row_scores[self._order], self._starts[:-1])
        best[~keep | (best < floor)] = _NONE
        return best

    def _hit(
        self,
        m: int,
        score: float,
        query: str,
        cosine: np.ndarray | None,
        bm25: np.ndarray | None,
    ) -> SearchHit:
        rows = self._order[self._starts[m] : self._starts[m + 1]]
        row = int(rows[_best_row(rows, cosine, bm25)])
        chunk = self._chunks[row]
        terms = highlight_terms(query, f"{self._titles[m]}\n{chunk.text}") if query else ()
        return SearchHit(
            memory_id=chunk.memory_id,
            title=self._titles[m],
            score=score,
            snippet=make_snippet(chunk.text, terms),
            chunk_index=chunk.index,
            start=chunk.start,
            end=chunk.end,
            semantic_score=None if cosine is None else float(cosine[row]),
            keyword_score=None if bm25 is None else float(bm25[row]),
            matched_terms=terms,
        )


def _ranked(best: np.ndarray | None, k: int) -> np.ndarray:
    """Memory positions of the ``k`` best finite scores, best first."""
    if best is None:
        return np.zeros(0, np.int64)
    return top_k_of_scores(best, k, min_score=float(np.finfo(np.float32).min))[0]


def _fuse(
    sem: np.ndarray, kw: np.ndarray, k: int, depth: int, sem_weight: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Weighted reciprocal-rank fusion of two per-memory score arrays; scores scaled to 0–1."""
    sem_weight = min(1.0, max(0.0, sem_weight))
    fused = np.zeros(len(sem), np.float64)
    for side, weight in ((sem, sem_weight), (kw, 1.0)):
        if weight == 0.0:
            continue
        ranked = _ranked(side, depth)
        fused[ranked] += weight / (RRF_K + 1 + np.arange(len(ranked)))
    # Ties (first on one side each) go to the stronger raw evidence: cosine + relative BM25.
    evidence = np.where(np.isfinite(sem), sem, 0.0)
    top_kw = kw.max(initial=_NONE)
    if np.isfinite(top_kw):
        evidence += np.where(np.isfinite(kw), kw / top_kw, 0.0)
    candidates = np.flatnonzero(fused)
    order = np.lexsort((candidates, -evidence[candidates], -fused[candidates]))[:k]
    ranked = candidates[order]
    return ranked, fused[ranked] * (RRF_K + 1) / (1.0 + sem_weight)


def _best_row(rows: np.ndarray, cosine: np.ndarray | None, bm25: np.ndarray | None) -> int:
    """Position in ``rows`` of the chunk that is best on both sides, each scaled to its max."""
    total = np.zeros(len(rows), np.float64)
    for scores in (cosine, bm25):
        if scores is not None:
            part = scores[rows].astype(np.float64)
            top = part.max()
            if top > 0:
                total += part / top
    return int(np.argmax(total))


def _timestamp(memory: Memory | None) -> float:
    when = memory and (memory.updated or memory.created)
    return _as_utc(when, time.min).timestamp() if when else np.nan


def _as_utc(value: datetime | date, day_time: time) -> datetime:
    if not isinstance(value, datetime):
        value = datetime.combine(value, day_time)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
