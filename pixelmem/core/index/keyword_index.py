"""BM25 keyword index over chunk texts, built with a handful of vectorised numpy passes.

Why not ``bm25s``: it fits (it accepts pre-tokenised input), but its build walks every document
in Python, and its vocabulary, stopwords and filters (``weight_mask``) would all have to be
bridged to ours. Here the build is ``hash()`` per token in C plus two ``np.sort`` calls, a query
one ``np.bincount`` over the query terms' postings, and a filter a boolean row mask.
``benchmarks/bench_search.py`` prints both build times (ours is about 3x faster).

Scoring is Okapi BM25 with Lucene's non-negative idf, ``log(1 + (N - df + 0.5) / (df + 0.5))``;
each query term counts once. Stopwords (:data:`~pixelmem.core.index.text_tokens.STOPWORDS`) are not
indexed and do not count towards document length.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from typing import NamedTuple

import numpy as np

from pixelmem.core.index import numpy_pieces
from pixelmem.core.index.text_tokens import STOPWORDS, query_terms, tokenize
from pixelmem.core.index.vector_index import top_k_of_scores

DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
# "score > 0" for top_k_of_scores, whose bound is inclusive; every real BM25 weight is larger.
_POSITIVE = float(np.finfo(np.float32).tiny)
_STOP_HASHES = np.array([hash(word) for word in STOPWORDS], np.int64)


def token_hashes(tokens: Sequence[str]) -> np.ndarray:
    """The int64 keys the index uses for ``tokens`` (Python's string hash: this process only)."""
    return np.fromiter(map(hash, tokens), np.int64, count=len(tokens))


class KeywordIndex:
    """An immutable BM25 index: postings in compressed-sparse-column form (term → documents)."""

    __slots__ = ("_docs", "_indptr", "_lengths", "_shift", "_terms", "_weights", "b", "k1")

    def __init__(
        self,
        terms: np.ndarray,
        shift: int,
        indptr: np.ndarray,
        docs: np.ndarray,
        weights: np.ndarray,
        lengths: np.ndarray,
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
    ) -> None:
        """Wrap prepared postings; use :meth:`build` or :meth:`from_tokens` instead.

        Term ``i`` of the vocabulary is the one whose ``hash(term) >> shift == terms[i]``
        (``terms`` sorted). The index lives in one process and never on disk, so Python's
        per-process string hash is a stable key, and hashing in C is several times faster than
        a ``dict`` of millions of tokens.
        """
        self._terms, self._shift = terms, shift
        self._indptr, self._docs, self._weights = indptr, docs, weights
        self._lengths = lengths
        self.k1, self.b = k1, b
        for array in (terms, indptr, docs, weights, lengths):
            array.flags.writeable = False

    @classmethod
    def build(
        cls, texts: Iterable[str], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> KeywordIndex:
        """Tokenise ``texts`` with :func:`~pixelmem.core.index.text_tokens.tokenize` and index
        them."""
        return cls.from_tokens([tokenize(text) for text in texts], k1=k1, b=b)

    @classmethod
    def from_tokens(
        cls, docs: Sequence[Sequence[str]], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> KeywordIndex:
        """Index documents given as token lists (stopwords are dropped here)."""
        lengths = np.fromiter(map(len, docs), np.int64, count=len(docs))
        hashes = np.fromiter(map(hash, chain.from_iterable(docs)), np.int64, int(lengths.sum()))
        return cls.from_hashes(hashes, lengths, k1=k1, b=b)

    @classmethod
    def from_hashes(
        cls,
        hashes: np.ndarray,
        lengths: np.ndarray,
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
    ) -> KeywordIndex:
        """Index documents given as :func:`token_hashes`, concatenated, and their token counts.

        Keeping the hashes of unchanged documents makes a rebuild skip their tokenising.
        """
        n = len(lengths)
        p = content_postings(hashes, lengths)
        df = np.diff(p.indptr)
        avgdl = float(p.doc_len.mean()) if p.doc_len.any() else 1.0
        idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        tf32 = p.tf.astype(np.float32)
        norm = k1 * (1.0 - b + b * p.doc_len[p.post_docs] / np.float32(avgdl))
        weights = idf[p.post_terms] * tf32 * np.float32(k1 + 1.0) / (tf32 + norm)
        return cls(
            p.terms, p.shift, p.indptr, p.post_docs.astype(np.int32), weights.astype(np.float32),
            p.doc_len, k1=k1, b=b,
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

    def evidence(self, strong: Sequence[str], weak: Sequence[str] = ()) -> np.ndarray:
        """BM25 of ``strong`` + ``weak`` terms, but 0 for a document with no ``strong`` match.

        With no strong term at all, the weak terms alone decide (a one-character CJK query).
        That is the rule that keeps one shared common character from making a hit.
        """
        if not strong:
            return self.scores(weak)
        total = self.scores(strong)
        if weak:
            total = np.where(total > 0, total + self.scores(weak), 0.0).astype(np.float32)
        return total

    def idf_sum(self, terms: Iterable[str]) -> float:
        """Σ idf of ``terms``: a term absent from the index counts as the rarest possible.

        A document at average length holding each term once scores about this much, so BM25
        divided by it reads as "how much of the query's evidence this document holds".
        """
        n = len(self)
        distinct = set(terms)
        ids = self._term_ids(distinct)
        df = (self._indptr[np.asarray(ids, np.int64) + 1] - self._indptr[ids]).astype(np.float64)
        present = float(np.log1p((n - df + 0.5) / (df + 0.5)).sum())
        absent = (len(distinct) - len(ids)) * float(np.log1p((n + 0.5) / 0.5))
        return present + absent

    def _term_ids(self, terms: Iterable[str]) -> list[int]:
        """Positions in the vocabulary of the distinct ``terms`` that are indexed."""
        hashes = np.fromiter(map(hash, set(terms)), np.int64)
        return _positions(self._terms, hashes >> self._shift).tolist()

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
    """Positions in ``sorted_values`` of the distinct ``wanted`` values present there, sorted.

    (Not ``np.unique``/``np.isin``: numpy 2 imports ``numpy.ma`` on their first use, ~10-30
    ms, and the first build may be the empty snapshot a panel asks for on the GUI thread.)"""
    pos = np.searchsorted(sorted_values, wanted)
    inside = pos < len(sorted_values)
    pos = pos[inside]
    pos = np.sort(pos[sorted_values[pos] == wanted[inside]])
    return pos[_changes(pos)]


class ContentPostings(NamedTuple):
    """Postings of documents without their stopwords (:func:`content_postings`)."""

    terms: np.ndarray  # the vocabulary's (shortened) hashes, sorted; stopwords included
    shift: int  # how far a token hash is shifted right to compare with ``terms``
    indptr: np.ndarray  # term i's postings are [indptr[i], indptr[i + 1])
    post_terms: np.ndarray  # each posting's term index
    post_docs: np.ndarray  # each posting's document (int64, 0..n-1)
    tf: np.ndarray  # each posting's term frequency
    doc_len: np.ndarray  # each document's length without stopwords (float32)


def content_postings(hashes: np.ndarray, lengths: np.ndarray) -> ContentPostings:
    """Postings of documents given as token hashes (concatenated) and token counts: what the
    full index and the keyword side's segments are both built from."""
    n = len(lengths)
    doc_ids = numpy_pieces.repeat(np.arange(n, dtype=np.int64), lengths)
    terms, shift, post_terms, post_docs, tf = _postings(hashes, doc_ids, n)
    stop = np.zeros(len(terms), bool)
    stop[_positions(terms, _STOP_HASHES >> shift)] = True
    keep = ~stop[post_terms]  # stopword terms stay in the vocabulary with no postings
    post_terms, post_docs, tf = post_terms[keep], post_docs[keep], tf[keep]
    indptr = np.zeros(len(terms) + 1, np.int64)
    np.cumsum(np.bincount(post_terms, minlength=len(terms)), out=indptr[1:])
    doc_len = np.bincount(post_docs, weights=tf, minlength=n).astype(np.float32)
    return ContentPostings(terms, shift, indptr, post_terms, post_docs, tf, doc_len)


def _postings(
    hashes: np.ndarray, doc_ids: np.ndarray, n: int, shift: int = 0
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """Group token occurrences into postings sorted by term, then document.

    Returns ``(terms, lookup shift, term index, document, term frequency)``. Each occurrence
    becomes one int64, the term's hash shifted right in the high bits and the document in the
    low bits, so one ``np.sort`` groups them (``np.unique(return_inverse=True)`` argsorts, ten
    times slower on these heavily repeated keys). If two terms share a shortened hash (about
    1 in 10,000 vaults of 30k chunks), dense term ids take the place of the hashes. (A query
    word absent from the vocabulary meets a term's shortened hash with odds of about 1e-9.)
    """
    doc_bits = max(1, (n - 1).bit_length())
    shift = max(shift, doc_bits)  # ``shift`` > doc_bits only to test the fallback
    distinct = np.sort(hashes)
    distinct = distinct[_changes(distinct)]
    terms, lookup_shift = distinct >> shift, shift
    if np.all(_changes(terms)[1:]):
        keys = hashes >> shift << shift
    else:  # exact but slower
        terms, lookup_shift, shift = distinct, 0, doc_bits
        keys = np.searchsorted(distinct, hashes).astype(np.int64) << shift
    keys |= doc_ids
    keys.sort()
    starts = np.flatnonzero(_changes(keys))
    tf = np.diff(starts, append=keys.size)
    post = keys[starts]
    post_terms = numpy_pieces.count_up(_changes(post >> shift)) - 1
    return terms, lookup_shift, post_terms, post & ((1 << shift) - 1), tf


def _changes(a: np.ndarray) -> np.ndarray:
    """True where a sorted array's value differs from the previous one (and at 0)."""
    out = np.ones(a.size, bool)
    np.not_equal(a[1:], a[:-1], out=out[1:])
    return out
