"""BM25 keyword index over chunk texts, built with a handful of vectorised numpy passes.

Why not ``bm25s``: it fits (it accepts pre-tokenised input), but its build walks every document
in Python, and its vocabulary, stopword handling and filters (``weight_mask``) would all have to
be bridged to ours. Building the postings here is one ``np.unique`` over (term, doc) keys, and a
query is one ``np.bincount`` over the query terms' postings, with a row mask for filters.
``benchmarks/bench_search.py`` prints both build times.

Scoring is Okapi BM25 with Lucene's non-negative idf, ``log(1 + (N - df + 0.5) / (df + 0.5))``;
each query term counts once. Stopwords (:data:`~pixelmem.core.text_tokens.STOPWORDS`) are not
indexed and do not count towards document length.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np

from pixelmem.core.text_tokens import STOPWORDS, query_terms, tokenize
from pixelmem.core.vector_index import top_k_of_scores

DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
# "score > 0" for top_k_of_scores, whose bound is inclusive; every real BM25 weight is larger.
_POSITIVE = float(np.finfo(np.float32).tiny)
_STOP_HASHES = np.array(sorted(hash(word) for word in STOPWORDS), np.int64)


class KeywordIndex:
    """An immutable BM25 index: postings in compressed-sparse-column form (term → documents)."""

    __slots__ = ("_docs", "_indptr", "_lengths", "_terms", "_weights", "b", "k1")

    def __init__(
        self,
        terms: np.ndarray,
        indptr: np.ndarray,
        docs: np.ndarray,
        weights: np.ndarray,
        lengths: np.ndarray,
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
    ) -> None:
        """Wrap prepared postings; use :meth:`build` or :meth:`from_tokens` instead.

        ``terms`` are the sorted ``hash()`` values of the vocabulary: the index lives in one
        process, never on disk, so Python's per-process string hash is a stable term id, and
        hashing in C is several times faster than building a ``dict`` of millions of tokens.
        """
        self._terms = terms
        self._indptr, self._docs, self._weights = indptr, docs, weights
        self._lengths = lengths
        self.k1, self.b = k1, b
        for array in (terms, indptr, docs, weights, lengths):
            array.flags.writeable = False

    @classmethod
    def build(
        cls, texts: Iterable[str], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> KeywordIndex:
        """Tokenise ``texts`` with :func:`~pixelmem.core.text_tokens.tokenize` and index them."""
        return cls.from_tokens([tokenize(text) for text in texts], k1=k1, b=b)

    @classmethod
    def from_tokens(
        cls, docs: Sequence[Sequence[str]], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> KeywordIndex:
        """Index documents given as token lists (stopwords are dropped here)."""
        n = len(docs)
        lengths = np.fromiter(map(len, docs), np.int64, count=n)
        total = int(lengths.sum())
        hashes = np.fromiter(map(hash, chain.from_iterable(docs)), np.int64, count=total)
        doc_ids = np.repeat(np.arange(n, dtype=np.int64), lengths)
        terms, term_ids = np.unique(hashes, return_inverse=True)
        stop = np.zeros(len(terms), bool)
        stop[_positions(terms, _STOP_HASHES)] = True
        if stop.any():  # drop stopwords before counting lengths; their terms keep no postings
            keep = ~stop[term_ids]
            term_ids, doc_ids = term_ids[keep], doc_ids[keep]
        keys, tf = np.unique(term_ids * max(n, 1) + doc_ids, return_counts=True)
        post_terms, post_docs = np.divmod(keys, max(n, 1))
        df = np.bincount(post_terms, minlength=len(terms))
        indptr = np.zeros(len(terms) + 1, np.int64)
        np.cumsum(df, out=indptr[1:])
        doc_len = np.bincount(doc_ids, minlength=n).astype(np.float32)
        avgdl = float(doc_len.mean()) if doc_len.any() else 1.0
        idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        tf32 = tf.astype(np.float32)
        norm = k1 * (1.0 - b + b * doc_len[post_docs] / np.float32(avgdl))
        weights = idf[post_terms] * tf32 * np.float32(k1 + 1.0) / (tf32 + norm)
        return cls(
            terms, indptr, post_docs.astype(np.int32), weights.astype(np.float32), doc_len,
            k1=k1, b=b,
        )  # fmt: skip

    def __len__(self) -> int:
        return len(self._lengths)

    @property
    def vocabulary_size(self) -> int:
        return len(self._terms)

    def doc_freq(self, term: str) -> int:
        """How many documents contain ``term`` (a token, as :func:`tokenize` produces it)."""
        ids = self._term_ids([term])
        return int(self._indptr[ids[0] + 1] - self._indptr[ids[0]]) if ids else 0

    def scores(self, terms: Iterable[str]) -> np.ndarray:
        """Dense BM25 scores (float32, one per document) for already-tokenised query terms."""
        n = len(self)
        spans = [slice(self._indptr[t], self._indptr[t + 1]) for t in self._term_ids(terms)]
        if not spans:
            return np.zeros(n, np.float32)
        docs = np.concatenate([self._docs[s] for s in spans])
        weights = np.concatenate([self._weights[s] for s in spans])
        return np.bincount(docs, weights=weights, minlength=n).astype(np.float32)

    def _term_ids(self, terms: Iterable[str]) -> list[int]:
        """Positions in the vocabulary of the distinct ``terms`` that are indexed."""
        hashes = np.fromiter(map(hash, set(terms)), np.int64)
        return _positions(self._terms, hashes).tolist()

    def score(
        self, query: str, k: int = 10, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` documents for ``query`` with a BM25 score > 0, best first.

        ``mask`` (bool per document) keeps only the documents where it is True.
        Returns ``(indices int64, scores float32)``.
        """
        scores = self.scores(query_terms(query))
        return top_k_of_scores(scores, k, mask, min_score=_POSITIVE)


def _positions(sorted_values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions in ``sorted_values`` of the distinct ``wanted`` values present there."""
    pos = np.searchsorted(sorted_values, wanted)
    pos = pos[pos < len(sorted_values)]
    return np.unique(pos[np.isin(sorted_values[pos], wanted)], return_counts=True)[0]
