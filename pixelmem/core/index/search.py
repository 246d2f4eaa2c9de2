"""Search over an immutable snapshot of chunks: semantic, keyword and hybrid, one hit per memory.

How a query is answered:

* Evidence per memory, from its best chunk: the cosine with the query vector (``semantic``),
  and BM25 over chunk text with the memory title prepended (``keyword``; a title word finds
  every chunk of its memory, the chunk that also holds the rest of the query wins). A chunk is
  a keyword hit only with a *strong* term match (a word, stem, compound or CJK bigram): one
  shared Chinese character is never enough (:class:`~pixelmem.core.index.text_tokens.QueryTerms`).
* ``score`` is the calibrated relevance of :mod:`pixelmem.core.index.relevance`: 0–1, the same scale
  in every mode, from the evidence the mode uses (``semantic``: the cosine; ``keyword``: BM25;
  ``hybrid``, the default: both). Memories are ranked by it and those below ``min_relevance``
  are dropped, so a query with nothing relevant gets ``[]``. ``semantic_score`` and
  ``keyword_score`` carry the best chunk's raw cosine and BM25.
* When a side cannot run (no query vector, or no searchable word in the query) hybrid is
  exactly the other mode.
* Memories with the same content (an import made twice) are one hit; the others are listed in
  ``copies``.

Filters (topic, importance, date range) are per memory and are applied before ranking.
A snapshot never changes after :meth:`SearchIndex.build`; the indexer builds a new one and swaps
the reference, so any number of threads may search one snapshot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

import numpy as np

from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.keyword_index import KeywordIndex, token_hashes
from pixelmem.core.index.relevance import (
    DEFAULT_MIN_RELEVANCE,
    Calibration,
    keyword_evidence,
    relevance,
    semantic_evidence,
)
from pixelmem.core.index.text_tokens import (
    QueryTerms,
    highlight_terms,
    make_snippet,
    split_query,
    tokenize,
)
from pixelmem.core.index.vector_index import VectorIndex, top_k_of_scores
from pixelmem.core.vault.memory import Memory, searchable_title

MODES = ("hybrid", "semantic", "keyword")
RELATED_VAULT_BACKGROUND = 20  # memories: from here on, the vault's median note is the background
_NONE = -np.inf


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
    copies: tuple[str, ...] = ()  # other memories with the same content, not listed apart


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
        self._keyword_titles = tuple(searchable_title(m) if m else "" for m in found)  # + aliases
        self._importance = np.array([m.importance if m else "" for m in found], dtype=object)
        self._dates = np.array([_timestamp(m) for m in found], np.float64)
        # Same content → same key: an import made twice is one hit, never its own neighbour.
        self._content = np.array([_content_key(m) for m in found], np.int64)
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
            title = searchable_title(memory) if memory is not None and titles_in_keyword else ""
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
        titles = [self._keyword_titles[m] if titles_in_keyword else "" for m in self._row_memory]
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
        min_relevance: float = DEFAULT_MIN_RELEVANCE,
        filters: SearchFilters | None = None,
        semantic_weight: float = 1.0,
        background: float = 0.0,
        calibration: Calibration | None = None,
    ) -> list[SearchHit]:
        """Up to ``k`` memories for ``query``, most relevant first (see the module docstring).

        ``background`` is the query's cosine with unrelated text
        (:func:`~pixelmem.core.index.relevance.background`). ``semantic_weight`` (0–1) is how
        far the
        model can read the query's language (an English-only model, a Chinese query: 0).
        ``calibration``: the embedding model's
        (:func:`~pixelmem.core.index.relevance.calibration_for`).
        """
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
        keep = self._memory_mask(filters)
        if k <= 0 or not keep.any():
            return []
        terms = split_query(query) if mode != "semantic" else None
        vector_ok = mode != "keyword" and query_vector is not None and self.has_vectors
        if mode == "hybrid" and not (vector_ok and terms):
            mode = "semantic" if vector_ok else "keyword"
        evidence = self.evidence(
            terms if mode != "semantic" else None,
            query_vector if mode != "keyword" else None,
            keep=keep,
            background=background,
        )
        sem, kw, cosine, bm25 = evidence
        if sem is None and kw is None:
            return []
        score = relevance(mode, sem, kw, semantic_weight, calibration)
        if mode == "keyword":
            assert kw is not None
            score[kw <= 0] = _NONE  # a keyword search lists only memories that match
        score[~keep] = _NONE
        return self._hits(score, k, min_relevance, query, cosine, bm25)

    def evidence(
        self,
        terms: QueryTerms | None,
        query_vector: np.ndarray | None,
        *,
        keep: np.ndarray | None = None,
        background: float = 0.0,
    ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
        """Per-memory semantic and keyword evidence, then per-chunk cosine and BM25.

        Each is None when its side does not run (no vector, no terms). Evidence is as
        :mod:`pixelmem.core.index.relevance` defines it; ``-inf`` where ``keep`` is False.
        """
        cosine = bm25 = sem = kw = None
        if query_vector is not None and self._vectors is not None:
            cosine = self._vectors.scores(query_vector)
            sem = semantic_evidence(self._memory_best(cosine, keep), background)
        if terms:
            bm25 = self._keywords.evidence(terms.strong, terms.weak)
            best = self._memory_best(bm25, keep)
            kw = keyword_evidence(best, self._keywords.idf_sum(terms.all))
            kw[~(best > 0)] = 0.0
            if keep is not None:
                kw[~keep] = _NONE
        return sem, kw, cosine, bm25

    def related(
        self,
        memory_id: str,
        k: int = 5,
        *,
        min_relevance: float = DEFAULT_MIN_RELEVANCE,
        anchors: np.ndarray | None = None,
        calibration: Calibration | None = None,
    ) -> list[SearchHit]:
        """The ``k`` other memories nearest to this one's chunk vectors (no re-embedding).

        A memory is scored by its best chunk's cosine with the normalised mean of this
        memory's chunk vectors, calibrated like a semantic search (``anchors``: the anchor
        texts' vectors, for the background). Copies of this memory are never listed. Empty when
        the memory is unknown or there are no vectors.
        """
        rows = self._rows_of(memory_id)
        if self._vectors is None or not len(rows) or k <= 0:
            return []
        cosine = self._vectors.group_scores(rows)
        centre = self._vectors.mean_vector(rows)
        best = self._memory_best(cosine)
        background = float(np.median(anchors @ centre)) if anchors is not None else 0.0
        if len(best) >= RELATED_VAULT_BACKGROUND:
            # A neighbour must stand out from the typical note of this vault, not only from
            # unrelated sentences: notes in one vault share style, language and subject.
            background = max(background, float(np.median(best)))
        me = self._position[memory_id]
        nearness = semantic_evidence(best, background)
        nearness[self._content == self._content[me]] = _NONE  # itself and its copies
        score = relevance("semantic", nearness, None, calibration=calibration)
        score[~np.isfinite(nearness)] = _NONE
        return self._hits(score, k, min_relevance, "", cosine, None)

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

    def _memory_best(self, row_scores: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
        """Each memory's best chunk score (float64); ``-inf`` where ``keep`` is False."""
        if not len(self):
            return np.zeros(0, np.float64)
        best = np.maximum.reduceat(row_scores[self._order], self._starts[:-1]).astype(np.float64)
        if keep is not None:
            best[~keep] = _NONE
        return best

    def _hits(
        self,
        score: np.ndarray,
        k: int,
        min_relevance: float,
        query: str,
        cosine: np.ndarray | None,
        bm25: np.ndarray | None,
    ) -> list[SearchHit]:
        """The ``k`` best memories at or above the floor, copies folded into the first one."""
        score = np.where(score >= min_relevance, score, _NONE)
        chosen: dict[int, list[int]] = {}  # content key → memory positions, best first
        depth = 2 * k + 8
        while True:
            ranked = _ranked(score, depth)
            for m in ranked.tolist():
                group = chosen.setdefault(int(self._content[m]), [])
                if m not in group:
                    group.append(m)
            if len(chosen) >= k or len(ranked) < depth:
                break
            chosen.clear()
            depth *= 4  # many copies near the top: look further
        hits = []
        for group in list(chosen.values())[:k]:
            first, *others = group
            hit = self._hit(first, float(score[first]), query, cosine, bm25)
            copies = tuple(self._ids[m] for m in others)
            hits.append(dataclasses.replace(hit, copies=copies) if copies else hit)
        return hits

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


def _content_key(memory: Memory | None) -> int:
    """Equal for memories whose body (or, without one, title) is the same text."""
    if memory is None:
        return 0
    text = " ".join(memory.body.split()) or f"title:{memory.title}"
    return hash(text)


def _timestamp(memory: Memory | None) -> float:
    when = memory and (memory.updated or memory.created)
    return _as_utc(when, time.min).timestamp() if when else np.nan


def _as_utc(value: datetime | date, day_time: time) -> datetime:
    if not isinstance(value, datetime):
        value = datetime.combine(value, day_time)
    return value if value.tzinfo else value.replace(tzinfo=UTC)
