"""Postings keyed by a stable hash hold exactly what the live keyword side indexes."""

from __future__ import annotations

import numpy as np

from pixelmem.core.index.keyword_index import content_postings, token_hashes
from pixelmem.core.index.keyword_side import keyword_tokens
from pixelmem.core.index.stable_postings import stable_postings, term_key

CHUNKS = [
    ("Espresso ratio", "Use 18 g of coffee for 36 g of espresso, the ratio of the house."),
    ("", "The the the and of: only stopwords and a kettle."),
    ("数据库索引", "今天整理了数据库索引的设计思路，重点是减少随机读。"),
    ("Empty", ""),
    ("Running", "runners ran running runs; the runner's run"),
]


def _by_term(terms, indptr, docs, tf, key_of) -> dict:
    return {
        key_of(i): list(zip(docs[indptr[i] : indptr[i + 1]].tolist(),
                            tf[indptr[i] : indptr[i + 1]].tolist(), strict=True))
        for i in range(len(terms))
        if indptr[i + 1] > indptr[i]
    }  # fmt: skip


def test_the_same_postings_and_lengths_as_a_fresh_build() -> None:
    tokens = [keyword_tokens(title, text) for title, text in CHUNKS]
    parts = [token_hashes(t) for t in tokens]
    live = content_postings(np.concatenate(parts), np.array([len(p) for p in parts]))
    stable = stable_postings(CHUNKS)

    words = {w for t in tokens for w in t}
    live_name = {hash(w) >> live.shift: w for w in words}
    stable_name = {term_key(w): w for w in words}
    live_terms = _by_term(live.terms, live.indptr, live.post_docs, live.tf,
                          lambda i: live_name[int(live.terms[i])])  # fmt: skip
    stable_terms = _by_term(stable.terms, stable.indptr, stable.docs, stable.tf,
                            lambda i: stable_name[int(stable.terms[i])])  # fmt: skip
    assert stable_terms == live_terms
    assert np.array_equal(stable.doc_len, live.doc_len)
    assert np.all(np.diff(stable.terms) > 0)  # sorted: a look-up is a binary search


def test_no_chunks() -> None:
    empty = stable_postings([])
    assert len(empty.terms) == 0 and list(empty.indptr) == [0] and len(empty.doc_len) == 0
