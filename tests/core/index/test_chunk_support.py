"""A long note whose chunks are all near a query ranks above one near it in a single chunk.

``chunk_support`` is a soft maximum over a memory's chunk cosines less their maximum: 0 for a
one-chunk memory, growing with every chunk close to the best one. Search adds it to the cosine
the order reads; the best hit's decision reads the best chunk's cosine as before.
"""

from __future__ import annotations

import numpy as np
import pytest

from pixelmem.core.index import search as search_module
from pixelmem.core.index.chunk_support import SOFT_TEMPERATURE, support, support_cap
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.relevance import CALIBRATIONS
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.vault.memory import Memory

E5 = CALIBRATIONS["e5-small"]


def test_support_is_zero_for_one_chunk_and_grows_with_near_chunks() -> None:
    scores = np.array([0.80, 0.80, 0.80, 0.80, 0.80, 0.50, 0.70, -np.inf])
    ids = np.array([0, 1, 2, 3, 4, 5, 6, 7])
    counts = np.array([1, 4, 2, 1, 0])  # the last has no chunk; chunk 7 was never scored
    got = support(scores, ids, counts)
    assert got[0] == 0.0 and got[4] == 0.0 and got[3] == 0.0
    assert got[1] == pytest.approx(SOFT_TEMPERATURE * np.log(4))  # four equal chunks: the cap
    assert got[1] == pytest.approx(support_cap(4))
    assert 0.0 < got[2] < 1e-3  # a second chunk 0.2 below the best counts for next to nothing


def _index(long_share: float, long_text: str = "") -> tuple[SearchIndex, np.ndarray]:
    """A query direction; ``long`` (six chunks, each ``long_share`` of the way towards it;
    its text ``long_text`` when given) and ``short`` (one chunk a little closer than the long
    note's best), among unrelated notes."""
    rng = np.random.default_rng(3)
    query = rng.standard_normal(32)
    query /= np.linalg.norm(query)
    memories, chunks, vectors = {}, [], []

    def add(mid: str, directions: list[np.ndarray], body: str = "") -> None:
        parts = [body or f"part{i} of {mid}" for i in range(len(directions))]
        memories[mid] = Memory(mid, mid, " ".join(parts))
        for i, vector in enumerate(directions):
            text = parts[i]
            chunks.append(Chunk(mid, i, 0, len(text), text))
            vectors.append(vector)

    def towards(share: float) -> np.ndarray:
        noise = rng.standard_normal(32)
        noise -= noise @ query * query
        noise /= np.linalg.norm(noise)
        return share * query + np.sqrt(1 - share**2) * noise

    add("long", [towards(long_share) for _ in range(6)], long_text)
    add("short", [towards(long_share + 0.004)])
    for m in range(30):
        add(f"other{m}", [towards(0.1) for _ in range(int(rng.integers(1, 4)))])
    matrix = np.array(vectors, np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return SearchIndex.build(chunks, matrix, memories), query.astype(np.float32)


def test_a_note_near_the_query_in_every_chunk_ranks_first(monkeypatch) -> None:
    index, query = _index(0.6)
    decided = []
    original = search_module.decide

    def decide(models, best, mode):
        decided.append(best)
        return original(models, best, mode)

    monkeypatch.setattr(search_module, "decide", decide)
    hits = index.search("", query, mode="semantic", k=2, min_relevance=0.0, calibration=E5)
    assert [h.memory_id for h in hits] == ["long", "short"]
    with monkeypatch.context() as patch:
        patch.setattr(search_module, "SUPPORT_SHARE", 0.0)
        plain = index.search(
            "", query, mode="semantic", k=2, min_relevance=0.0, calibration=E5, explain=True
        )
    assert [h.memory_id for h in plain] == ["short", "long"]
    # The decision read the long note's calibrated logit: its best chunk's, not the support.
    calibrated = next(h.evidence.rank for h in plain if h.memory_id == "long")
    assert 1 / (1 + np.exp(-decided[0].rank)) == pytest.approx(calibrated)


LONG_SHORT = ("long", "short")


def test_a_note_in_another_script_gets_no_support(monkeypatch) -> None:
    """Across scripts every cosine sits in a narrow band: the long Chinese note's chunks being
    all near an English question says nothing, and it ranks by its best chunk: the same
    order and scores as without the support, while the same note in English moves."""

    def search(long_text: str, share: float) -> list[tuple[str, float]]:
        index, query = _index(0.6, long_text=long_text)
        with monkeypatch.context() as patch:
            patch.setattr(search_module, "SUPPORT_SHARE", share)
            hits = index.search(
                "where is the wall", query, mode="semantic", k=4, min_relevance=0.0,
                calibration=E5,
            )  # fmt: skip
        return [(h.memory_id, round(h.score, 9)) for h in hits if h.memory_id in LONG_SHORT]

    chinese = "长城是古代中国为抵御外敌而修建的防御工事"
    assert search(chinese, 0.7) == search(chinese, 0.0)
    english = "the wall was built to keep raiders out of the northern plains"
    assert search(english, 0.7) != search(english, 0.0)
