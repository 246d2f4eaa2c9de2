"""A long query's keyword evidence weighs more in hybrid ranking, and in a claim's decision.

Keyword evidence is BM25 as a share of the query's idf sum: a claim of twenty words spreads it
thin, and the note holding the claim's rare terms lost to a note whose embedding is a little
closer. ``relevance.keyword_gain`` scales it for ranking (claims → articles nDCG@10 +0.02 on
the development sets); a question's best hit is still decided on the calibrated logit, a
statement's (a claim, a pasted sentence) on the gained one it was ranked by.
"""

from __future__ import annotations

import numpy as np
import pytest

from pixelmem.core.index import search as search_module
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.relevance import (
    CALIBRATIONS,
    LONG_QUERY_GAIN,
    LONG_QUERY_TERMS,
    keyword_gain,
    rank_logits,
)
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.vault.memory import Memory

E5 = CALIBRATIONS["e5-small"]


def test_gain_is_one_for_short_queries_then_grows_to_a_cap() -> None:
    assert keyword_gain(0) == keyword_gain(LONG_QUERY_TERMS) == 1.0
    assert keyword_gain(2 * LONG_QUERY_TERMS) == pytest.approx(2.0)
    assert keyword_gain(1000) == LONG_QUERY_GAIN


def test_gain_can_turn_the_order_towards_keyword_evidence() -> None:
    semantic = np.array([0.40, 0.25])  # the first is closer in meaning
    keyword = np.array([0.05, 0.40])  # the second holds the query's rare words
    plain = rank_logits("hybrid", semantic, keyword, calibration=E5)
    gained = rank_logits("hybrid", semantic, keyword, calibration=E5, gain=3.0)
    assert plain[0] > plain[1] and gained[1] > gained[0]
    # Semantic and keyword modes have one side each: the gain changes nothing there.
    for mode in ("semantic", "keyword"):
        sides = (semantic if mode == "semantic" else None, keyword if mode == "keyword" else None)
        assert np.array_equal(
            rank_logits(mode, *sides, calibration=E5),
            rank_logits(mode, *sides, calibration=E5, gain=3.0),
        )


WORDS = ["glacier", "moraine", "ablation", "firn", "crevasse", "serac", "calving", "nunatak"]


def _index() -> SearchIndex:
    """Two notes: one that holds a long query's rare words, one closer to its vector."""
    rng = np.random.default_rng(5)
    filler = [f"w{i}" for i in range(300)]
    memories, chunks, vectors = {}, [], []
    direction = rng.standard_normal(16)
    for m in range(40):
        mid = f"m{m:02d}"
        words = list(rng.choice(filler, 30))
        if m == 0:
            words[:8] = WORDS  # the rare words
        text = " ".join(words)
        memories[mid] = Memory(mid, f"note {m}", text)
        chunks.append(Chunk(mid, 0, 0, len(text), text))
        noise = rng.standard_normal(16)
        vectors.append(direction * (0.9 if m == 1 else 0.6 if m == 0 else 0.0) + noise * 0.4)
    matrix = np.array(vectors, np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return SearchIndex.build(chunks, matrix, memories)


def test_a_long_query_ranks_the_note_holding_its_words_first(monkeypatch) -> None:
    index = _index()
    query = np.asarray(np.random.default_rng(5).standard_normal(16), np.float32)
    query /= np.linalg.norm(query)
    # 8 rare words and 4 common ones, asked (a question is decided on the plain logit)
    long_query = "what " + " ".join([*WORDS, "w1", "w2", "w3", "w4"])
    decided = []

    def decide(models, best, mode):  # what the decision reads of the best hit
        decided.append(best)
        return original(models, best, mode)

    original = search_module.decide
    monkeypatch.setattr(search_module, "decide", decide)
    gained = index.search(long_query, query, k=2, min_relevance=0.0, calibration=E5)
    read = decided[-1]
    with monkeypatch.context() as patch:
        patch.setattr(search_module, "keyword_gain", lambda terms: 1.0)
        plain = index.search(
            long_query, query, k=2, min_relevance=0.0, calibration=E5, explain=True
        )
    assert gained[0].memory_id == "m00"
    assert plain[0].memory_id == "m01"
    # The decision read m00's calibrated logit (the order's, without the gain), and no margin:
    # by its calibrated evidence m01 stands above it.
    calibrated = next(h.evidence.rank for h in plain if h.memory_id == "m00")
    assert 1 / (1 + np.exp(-read.rank)) == pytest.approx(calibrated)
    assert read.margin == 0.0
    # Stated (no question word or mark), the same words are decided as they were ranked.
    stated = index.search(long_query.removeprefix("what "), query, k=2, min_relevance=0.0,
                          calibration=E5)  # fmt: skip
    assert stated[0].memory_id == "m00"
    assert decided[-1].rank > read.rank and decided[-1].margin > 0.0
