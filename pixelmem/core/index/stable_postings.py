"""Keyword postings keyed by a stable hash of each term: postings another process can read.

The live keyword side (:mod:`keyword_side`) keys terms by Python's string hash, which every
process salts differently, so its postings mean nothing to the next process. A saved index
(:mod:`saved_index`) keys them by the first 8 bytes of the term's blake2b instead: computed
once per distinct term when the index is saved, and once per query term when it is searched.
The postings are built from the same tokens (:func:`~keyword_side.keyword_tokens`) with the
same term frequencies and lengths as a fresh build of the same chunks, so BM25 scores them
exactly alike. Stopwords are left out of the vocabulary as well as the postings (a query's
terms never hold one: :func:`~pixelmem.core.index.text_tokens.query_terms`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from pixelmem.core.index import numpy_pieces
from pixelmem.core.index.keyword_side import _Segment, keyword_tokens
from pixelmem.core.index.text_tokens import STOPWORDS


def term_key(term: str) -> int:
    """The stable int64 key of a term."""
    digest = hashlib.blake2b(term.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


class _TermIds(dict[str, int]):
    """token → dense term id, in first-seen order (a stopword: -1, never a term)."""

    def __init__(self) -> None:
        super().__init__(dict.fromkeys(STOPWORDS, -1))
        self.terms: list[str] = []

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self.terms)
        self.terms.append(term)
        return number


@dataclass(frozen=True)
class StableSegment(_Segment):
    """A base segment whose vocabulary is keyed by :func:`term_key` (``shift`` 0: whole keys)."""

    def span_of(self, term: str, term_hash: int) -> slice | None:
        return self.span(term_key(term))

    def sort_key(self, term: str, term_hash: int) -> int:
        return term_key(term)

    def keys_of(self, terms: Sequence[str], hashes: np.ndarray) -> np.ndarray:
        return np.fromiter(map(term_key, terms), np.int64, count=len(terms))


@dataclass(frozen=True)
class StablePostings:
    """Postings of chunk ids 0..n-1 by stable term key: what :class:`StableSegment` wraps."""

    terms: np.ndarray  # int64 keys, sorted
    indptr: np.ndarray  # term i's postings are [indptr[i], indptr[i + 1])
    docs: np.ndarray  # int32 chunk ids
    tf: np.ndarray  # float32
    doc_len: np.ndarray  # float32: each chunk's length without stopwords

    def segment(self) -> StableSegment:
        return StableSegment(self.terms, 0, self.indptr, self.docs, self.tf)


def stable_postings(texts: Iterable[tuple[str, str]]) -> StablePostings:
    """Postings of chunks given as ``(keyword title, text)`` pairs, in chunk id order."""
    ids = _TermIds()
    parts, lengths = [], []
    for title, text in texts:
        tokens = keyword_tokens(title, text)
        parts.append(np.fromiter(map(ids.__getitem__, tokens), np.int64, count=len(tokens)))
        lengths.append(len(tokens))
    n = max(len(lengths), 1)
    # In pieces: one np.concatenate of 31k small arrays or np.repeat over millions of tokens
    # holds the GIL for all of it (36 ms on the window's clock while a 2k vault's index saved).
    flat = numpy_pieces.concatenate(parts, np.int64)
    docs = numpy_pieces.repeat(np.arange(len(lengths), dtype=np.int64), np.asarray(lengths))
    content = flat >= 0
    flat, docs = flat[content], docs[content]
    keys = np.fromiter(map(term_key, ids.terms), np.int64, count=len(ids.terms))
    order = np.argsort(keys, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    # One sort of (term, chunk) pairs groups the postings: term first, then chunk id.
    pairs = rank[flat] * n + docs
    pairs.sort()
    starts = np.flatnonzero(np.diff(pairs, prepend=-1))
    tf = np.diff(starts, append=pairs.size).astype(np.float32)
    post_terms, post_docs = np.divmod(pairs[starts], n)
    indptr = np.zeros(len(order) + 1, np.int64)
    np.cumsum(np.bincount(post_terms, minlength=len(order)), out=indptr[1:])
    doc_len = np.bincount(post_docs, weights=tf, minlength=len(lengths)).astype(np.float32)
    return StablePostings(keys[order], indptr, post_docs.astype(np.int32), tf, doc_len)
