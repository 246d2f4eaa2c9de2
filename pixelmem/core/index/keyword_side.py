"""The local keyword side: BM25 postings that take upserts and removals without a rebuild.

A full build makes one *base* segment. Every later upsert rebuilds only a small *delta* segment
holding the chunks added since; a removal only marks chunk ids dead. The corpus statistics BM25
needs (number of chunks, document frequency, average length) are taken over the live chunks at
query time, for the query's terms only, so a search after any number of updates scores exactly
as a fresh build of the same chunks would (up to float summation order). The weight formula and
its float32 steps are those of :class:`~pixelmem.core.index.keyword_index.KeywordIndex`.

The owner of the snapshot merges (rebuilds) when the delta or the dead share grows large.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from pixelmem.core.index import numpy_pieces
from pixelmem.core.index.keyword_index import (
    _POSITIVE,
    DEFAULT_B,
    DEFAULT_K1,
    content_postings,
    token_hashes,
)
from pixelmem.core.index.search_backend import Allowed, ChunkBatch, ChunkIds, Scores
from pixelmem.core.index.text_tokens import QueryTerms, tokenize
from pixelmem.core.index.vector_index import top_k_of_scores, top_k_set
from pixelmem.core.index.vector_side import top_of_ids


def keyword_tokens(title: str, text: str) -> list[str]:
    """What BM25 indexes for a chunk: its text's tokens, then those of its memory's keyword
    title (:func:`~pixelmem.core.index.search.keyword_title`), as a full build does."""
    return tokenize(text) + tokenize(title) if title else tokenize(text)


@dataclass(frozen=True)
class _Segment:
    """Postings of some chunks: term ``terms[i]`` (a shortened hash) → ``docs``/``tf`` span."""

    terms: np.ndarray
    shift: int
    indptr: np.ndarray
    docs: np.ndarray  # int64 chunk ids
    tf: np.ndarray  # float32

    @classmethod
    def build(
        cls, hashes: np.ndarray, lengths: np.ndarray, ids: np.ndarray
    ) -> tuple[_Segment, np.ndarray]:
        """Postings of the chunks ``ids`` (token hashes concatenated, ``lengths`` per chunk),
        and each chunk's length without stopwords (float32, in ``ids`` order)."""
        p = content_postings(hashes, lengths)
        segment = cls(p.terms, p.shift, p.indptr, ids[p.post_docs], p.tf.astype(np.float32))
        return segment, p.doc_len

    def span_of(self, term: str, term_hash: int) -> slice | None:
        """Where the postings of ``term`` (``hash(term)``) are (None: not in this segment).
        A segment keyed otherwise (a saved one: ``stable_postings``) reads ``term``."""
        return self.span(term_hash)

    def sort_key(self, term: str, term_hash: int) -> int:
        """Where ``term`` sorts in this segment's vocabulary (the order terms are summed in)."""
        return term_hash >> self.shift

    def keys_of(self, terms: Sequence[str], hashes: np.ndarray) -> np.ndarray:
        """The vocabulary keys of ``terms`` (their ``hash``es given): :meth:`sort_key` of each."""
        return hashes >> self.shift

    def spans(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Start and end of the postings of each vocabulary key (both 0: not in this segment):
        one search for every term of a query (a pasted paragraph has hundreds)."""
        size = len(self.terms)
        at = np.searchsorted(self.terms, keys)
        found = at < size
        found[found] = self.terms[at[found]] == keys[found]
        at = np.where(found, at, 0)
        starts = np.where(found, self.indptr[at], 0)
        ends = np.where(found, self.indptr[np.minimum(at + 1, size)], 0)
        return starts, ends

    def span(self, term_hash: int) -> slice | None:
        """Where the postings of the term with this hash are (None: not in this segment)."""
        key = term_hash >> self.shift
        pos = int(np.searchsorted(self.terms, key))
        if pos >= len(self.terms) or self.terms[pos] != key:
            return None
        return slice(int(self.indptr[pos]), int(self.indptr[pos + 1]))


@dataclass(frozen=True)
class _Delta:
    """The chunks upserted since the base was built, kept to rebuild the delta segment."""

    ids: np.ndarray
    hashes: np.ndarray
    lengths: np.ndarray


_NO_DELTA = _Delta(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))


class LocalKeywordSide:
    """BM25 (Okapi, Lucene idf) over chunk ids 0..n-1, some of them dead."""

    def __init__(
        self,
        base: _Segment,
        delta: tuple[_Segment, _Delta] | None,
        doc_len: np.ndarray,
        owners: np.ndarray,
        alive: np.ndarray | None,
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
    ) -> None:
        """Use :meth:`from_hashes`; ``owners`` maps chunk id → memory position."""
        self._base, self._delta = base, delta
        self._doc_len, self._owners, self._alive = doc_len, owners, alive
        self.k1, self.b = k1, b
        live = doc_len if alive is None else doc_len[alive]
        self._n = len(live)
        self._avgdl = float(live.mean()) if live.any() else 1.0
        self._memo = threading.local()
        self._looked_up: dict[str, tuple[int | None, int, list[tuple[_Segment, slice]]]] = {}
        # Until the first update the statistics are those of the build: weigh postings once.
        self._weights = self._all_weights() if delta is None and alive is None else None

    @classmethod
    def from_hashes(
        cls, hashes: np.ndarray, lengths: np.ndarray, owners: np.ndarray
    ) -> LocalKeywordSide:
        """One base segment over chunk ids 0..len(lengths)-1 (:func:`token_hashes` of each
        chunk's :func:`keyword_tokens`, concatenated)."""
        ids = np.arange(len(lengths), dtype=np.int64)
        base, doc_len = _Segment.build(hashes, lengths, ids)
        return cls(base, None, doc_len, owners, None)

    def __len__(self) -> int:
        return self._n

    @property
    def delta_size(self) -> int:
        """Chunks in the delta segment (the owner rebuilds when this grows large)."""
        return 0 if self._delta is None else len(self._delta[1].ids)

    # -- the seam --------------------------------------------------------------------------

    def top_chunks(
        self, query: QueryTerms, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        scores = self._evidence(query)
        if allowed is not None and allowed.chunk_ids is not None:  # a few memories' chunks
            return top_of_ids(allowed.chunk_ids, scores, k, _POSITIVE)
        mask = self._alive if allowed is None else self._allowed(allowed.mask)
        return top_k_of_scores(scores, k, mask, min_score=_POSITIVE)

    def top_chunk_set(
        self, query: QueryTerms, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, float | None]:
        """The chunk ids :meth:`top_chunks` lists, unsorted, and the lowest BM25 among them."""
        if allowed is not None and allowed.chunk_ids is not None:
            ids, top = self.top_chunks(query, k, allowed)
            return ids, float(top[-1]) if len(top) else None
        mask = self._alive if allowed is None else self._allowed(allowed.mask)
        return top_k_set(self._evidence(query), k, mask, min_score=_POSITIVE)

    def scores(self, query: QueryTerms) -> np.ndarray:
        """Every chunk id's BM25 evidence for ``query`` (float32; see :meth:`top_chunks`), kept
        for the thread's last query."""
        return self._evidence(query)

    def idf_sum(self, terms: Iterable[str]) -> float:
        """Σ idf of ``terms``: a term absent from the index counts as the rarest possible."""
        n = self._n
        # In the terms' own order, not their hashes': a float64 sum whose order no process's
        # string hash decides (a saved index, keyed otherwise, sums alike).
        found = [(pos, df) for pos, df, _ in self._term_postings(sorted(set(terms)))]
        found = [(pos, df) for pos, df in found if pos is not None]
        dfs = np.array([df for _, df in found], np.float64)
        present = float(np.log1p((n - dfs + 0.5) / (dfs + 0.5)).sum())
        absent = (len(set(terms)) - len(found)) * float(np.log1p((n + 0.5) / 0.5))
        return present + absent

    def idfs(self, terms: Iterable[str]) -> dict[str, float]:
        n = self._n
        distinct = sorted(set(terms))
        found = self._term_postings(distinct)
        dfs = np.array([df for _, df, _ in found], np.float64)
        idf = np.log1p((n - dfs + 0.5) / (dfs + 0.5))
        idf[[pos is None for pos, _, _ in found]] = np.log1p((n + 0.5) / 0.5)  # the rarest
        return dict(zip(distinct, idf.tolist(), strict=True))

    def upsert(self, batch: ChunkBatch) -> LocalKeywordSide:
        parts = [
            token_hashes(keyword_tokens(title, chunk.text))
            for title, chunk in zip(batch.keyword_titles, batch.chunks, strict=True)
        ]
        lengths = np.fromiter(map(len, parts), np.int64, count=len(parts))
        hashes = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        old = self._delta[1] if self._delta is not None else _NO_DELTA
        pending = _Delta(
            np.concatenate((old.ids, batch.ids)),
            np.concatenate((old.hashes, hashes)),
            np.concatenate((old.lengths, lengths)),
        )
        segment, lens = _Segment.build(pending.hashes, pending.lengths, pending.ids)
        size = max(len(self._doc_len), int(batch.ids.max(initial=-1)) + 1)
        doc_len = _grown(self._doc_len, size, 0.0)
        doc_len[pending.ids] = lens
        owners = _grown(self._owners, size, -1)
        owners[batch.ids] = batch.owners
        alive = _grown(self._alive_or_all(), size, False)
        alive[batch.ids] = True
        return LocalKeywordSide(
            self._base, (segment, pending), doc_len, owners, _none_if_all(alive), k1=self.k1,
            b=self.b,
        )  # fmt: skip

    def remove(self, ids: ChunkIds) -> LocalKeywordSide:
        alive = self._alive_or_all().copy()
        alive[np.asarray(ids, np.int64)] = False
        return LocalKeywordSide(
            self._base, self._delta, self._doc_len, self._owners, alive, k1=self.k1, b=self.b
        )

    # -- scoring ---------------------------------------------------------------------------

    def _evidence(self, query: QueryTerms) -> np.ndarray:
        """BM25 of strong + weak terms per chunk id, 0 without a strong match (see
        :meth:`KeywordIndex.evidence <pixelmem.core.index.keyword_index.KeywordIndex.evidence>`).

        Kept for the last query of each thread: fusion asks the same side again for the scores
        of a few memories' chunks, and one pass has already scored every chunk.
        """
        key = (query.strong, query.weak)
        memo = getattr(self._memo, "last", None)
        if memo is not None and memo[0] == key:
            scores: np.ndarray = memo[1]
            return scores
        if not query.strong:
            scores = self._scores(query.weak)
        else:
            scores = self._scores(query.strong)
            if query.weak:
                extra = self._scores(query.weak)
                scores = np.where(scores > 0, scores + extra, 0.0).astype(np.float32)
        self._memo.last = (key, scores)
        return scores

    def _scores(self, terms: Sequence[str]) -> np.ndarray:
        """Dense BM25 (float32, one per chunk id) of distinct ``terms``."""
        size = len(self._doc_len)
        docs_parts, weight_parts = [], []
        for pos, df, spans in sorted(self._term_postings(set(terms)), key=_by_position):
            if pos is None:
                continue
            for segment, span in spans:
                docs_parts.append(segment.docs[span])
                if self._weights is not None:
                    weight_parts.append(self._weights[span])
                else:
                    weight_parts.append(self._weigh(segment.docs[span], segment.tf[span], df))
        if not docs_parts:
            return np.zeros(size, np.float32)
        docs = np.concatenate(docs_parts)
        weights = np.concatenate(weight_parts)
        return np.bincount(docs, weights=weights, minlength=size).astype(np.float32)

    def _weigh(self, docs: np.ndarray, tf32: np.ndarray, df: int | np.ndarray) -> np.ndarray:
        """BM25 weights of postings (float32, in the steps of ``KeywordIndex.from_hashes``)."""
        n, k1, b = self._n, self.k1, self.b
        idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        norm = k1 * (1.0 - b + b * self._doc_len[docs] / np.float32(self._avgdl))
        out: np.ndarray = idf * tf32 * np.float32(k1 + 1.0) / (tf32 + norm)
        return out

    def _all_weights(self) -> np.ndarray:
        """The weight of every posting of the base segment (each term's df: its span)."""
        base = self._base
        df = np.diff(base.indptr)
        return self._weigh(base.docs, base.tf, numpy_pieces.repeat(df, df))

    def _term_postings(
        self, terms: Iterable[str]
    ) -> list[tuple[int | None, int, list[tuple[_Segment, slice]]]]:
        """Per distinct term: its sort key (base vocabulary order; None when indexed nowhere),
        its live document frequency, and its postings in every segment. Kept per snapshot
        (which never changes): a search asks for the same terms' BM25, idf sum and idfs."""
        terms = list(terms)
        known = self._looked_up  # shared by the threads searching this snapshot
        found, missing = {}, []
        for term in dict.fromkeys(terms):
            if (entry := known.get(term)) is None:
                missing.append(term)
            else:
                found[term] = entry
        if missing:
            fresh = dict(zip(missing, self._look_up(missing), strict=True))
            found |= fresh
            if len(known) > _LOOKED_UP_MAX:
                known.clear()  # a new vocabulary's worth of queries: start again
            known.update(fresh)
        return [found[term] for term in terms]

    def _look_up(
        self, terms: list[str]
    ) -> list[tuple[int | None, int, list[tuple[_Segment, slice]]]]:
        hashes = np.fromiter(map(hash, terms), np.int64, count=len(terms))
        segments = [self._base] + ([self._delta[0]] if self._delta is not None else [])
        found = []
        for segment in segments:
            starts, ends = segment.spans(segment.keys_of(terms, hashes))
            found.append((segment, starts.tolist(), ends.tolist()))
        base_keys = self._base.keys_of(terms, hashes).tolist()
        out: list[tuple[int | None, int, list[tuple[_Segment, slice]]]] = []
        for i in range(len(terms)):
            spans = [(seg, slice(st[i], en[i])) for seg, st, en in found if en[i] > st[i]]
            df = sum(self._live_count(seg.docs[span]) for seg, span in spans)
            out.append((base_keys[i] if spans else None, df, spans))
        return out

    def _live_count(self, docs: np.ndarray) -> int:
        return len(docs) if self._alive is None else int(np.count_nonzero(self._alive[docs]))

    def _allowed(self, allowed: np.ndarray) -> np.ndarray:
        mask = allowed[self._owners]
        return mask if self._alive is None else mask & self._alive

    def _alive_or_all(self) -> np.ndarray:
        return np.ones(len(self._doc_len), bool) if self._alive is None else self._alive


_LOOKED_UP_MAX = 50_000  # terms a snapshot keeps looked up


def _by_position(item: tuple[int | None, int, object]) -> int:
    return -1 if item[0] is None else item[0]


def _grown(array: np.ndarray, size: int, fill: float | int | bool) -> np.ndarray:
    """A copy of ``array`` extended to ``size`` with ``fill``."""
    out = np.full(size, fill, array.dtype)
    out[: len(array)] = array
    return out


def _none_if_all(alive: np.ndarray) -> np.ndarray | None:
    return None if alive.all() else alive
