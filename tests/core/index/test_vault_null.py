"""The vault's own leave-one-out null (search.SearchIndex.loo_null, decision.Best.loo):
what a question about a thing the vault does not hold, answered by a sibling, scores in THIS
vault — measured from its own memories, per script, once per snapshot."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import numpy as np
import pytest

from pixelmem.core.index import relevance as rel
from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.decision import Best, Decision
from pixelmem.core.index.hubs import HubMeasure
from pixelmem.core.index.scripts import CJK_SCRIPT, OTHER_SCRIPT
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.index.vault_null import (
    CLOSENESS_MIN,
    LOO_MIN,
    closeness,
    nearest_others,
    shared_subject,
)
from pixelmem.core.vault.memory import Memory


def _vault(n: int, vectors: np.ndarray, word: str = "note") -> SearchIndex:
    now = datetime(2024, 1, 1, tzinfo=UTC)
    memories = {
        f"m{i}": Memory(id=f"m{i}", title=f"{word} {i}", body=f"{word} text {i}", topics=[],
                        created=now, updated=now)
        for i in range(n)
    }  # fmt: skip
    chunks = [
        Chunk(memory_id=f"m{i}", index=0, start=0, end=len(memories[f"m{i}"].body),
              text=memories[f"m{i}"].body)
        for i in range(n)
    ]  # fmt: skip
    return SearchIndex.build(chunks, vectors.astype(np.float32), memories)


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _topic_vault(n: int, shared: float, seed: int = 3) -> tuple[SearchIndex, np.ndarray]:
    rng = np.random.default_rng(seed)
    direction = np.zeros(32)
    direction[0] = shared  # every note of the vault leans one way: one topic
    vectors = _unit(direction + rng.normal(size=(n, 32)))
    return _vault(n, vectors), vectors


def test_a_one_topic_vault_has_a_higher_null_than_one_of_unrelated_notes() -> None:
    topic, _ = _topic_vault(80, shared=4.0)
    scattered, _ = _topic_vault(80, shared=0.0)
    high, low = topic.loo_null(OTHER_SCRIPT), scattered.loo_null(OTHER_SCRIPT)
    assert high is not None and low is not None
    assert high[0] > low[0] + 0.2
    assert topic.loo_null(CJK_SCRIPT) is None  # no Chinese memory: nothing to say


def test_the_null_leaves_each_memory_out() -> None:
    _, vectors = _topic_vault(60, shared=0.0)
    twice = np.concatenate([vectors, vectors])  # every note has an identical twin
    index = _vault(120, twice)
    null = index.loo_null(OTHER_SCRIPT)
    assert null is not None and null[0] == pytest.approx(1.0, abs=1e-4)  # the twin, not itself
    single = _vault(60, vectors).loo_null(OTHER_SCRIPT)
    assert single is not None and single[0] < 0.9  # without twins: the nearest other note


def test_a_small_vault_falls_back_to_the_prior() -> None:
    index, _ = _topic_vault(LOO_MIN - 1, shared=4.0)
    assert index.loo_null(OTHER_SCRIPT) is None
    rng = np.random.default_rng(5)
    query = _unit(rng.normal(size=(1, 32)))[0]
    hits = index.search("note text", query, background=np.full(3, 0.2), explain=True,
                        min_relevance=0.0, calibration=rel.CALIBRATIONS["e5-small"])  # fmt: skip
    assert hits[0].evidence is not None and hits[0].evidence.loo is None


def test_the_best_hit_is_measured_against_its_vaults_null() -> None:
    index, vectors = _topic_vault(80, shared=4.0)
    null = index.loo_null(OTHER_SCRIPT)
    assert null is not None
    query = vectors[7]
    hits = index.search("note text 7", query, background=np.full(3, 0.2), explain=True,
                        min_relevance=0.0, calibration=rel.CALIBRATIONS["e5-small"])  # fmt: skip
    evidence = hits[0].evidence
    assert evidence is not None and evidence.loo is not None
    assert evidence.cosine is not None
    assert evidence.loo == pytest.approx(min(6.0, (evidence.cosine - null[0]) / null[1]), abs=1e-3)
    assert any("nearest-other null" in line for line in evidence.lines())


def test_more_above_the_null_never_lowers_the_decision() -> None:
    for family, calibration in rel.CALIBRATIONS.items():
        for part in ("same", "same_cjk", "meaning"):
            model: Decision = getattr(calibration, part)
            assert model.loo >= 0, (family, part)
            low = Best(rank=0.0, semantic=0.3, keyword=0.2, standout=1.0, loo=-1.0)
            high = Best(rank=0.0, semantic=0.3, keyword=0.2, standout=1.0, loo=2.0)
            assert model.logit(high) >= model.logit(low)
    reads = Decision(-1.0, rank=1.0, loo=0.8)
    assert reads.logit(Best(rank=0.0, semantic=0.3, keyword=0.2, loo=2.0)) == pytest.approx(0.6)


def test_the_null_is_measured_only_when_read() -> None:
    index, vectors = _topic_vault(80, shared=4.0)
    shipped = rel.CALIBRATIONS["e5-small"]
    index.prepare(shipped)  # no shipped model reads it: the indexing worker skips it
    index.search("note text 3", vectors[3], background=np.full(3, 0.2), min_relevance=0.0,
                 calibration=shipped)  # fmt: skip
    assert index._nulls is None
    reading = dataclasses.replace(shipped, same=Decision(-1.0, rank=1.0, loo=0.5))
    index.prepare(reading)
    assert index._nulls is not None and np.isfinite(index._nulls[0, OTHER_SCRIPT])
    explained, _ = _topic_vault(80, shared=4.0)  # the app's searches show it in their evidence
    explained.prepare(shipped, explained=True)
    assert explained._nulls is not None and np.isfinite(explained._nulls[0, OTHER_SCRIPT])


class _DatabaseLike:
    """A vector side as the PostgreSQL one offers it: a search, no matrix."""

    def __init__(self, side: object) -> None:
        self._side = side

    def top_chunks(self, query: np.ndarray, k: int, allowed: object) -> object:
        return self._side.top_chunks(query, k, allowed)  # type: ignore[attr-defined]


def test_a_database_side_gives_the_same_null_through_its_search() -> None:
    index, vectors = _topic_vault(60, shared=2.0)
    probes = vectors[:40].astype(np.float32)
    mine = np.arange(40)
    owners = index._catalog.owners
    local = nearest_others(index._vectors, probes, mine, owners)  # type: ignore[arg-type]
    searched = nearest_others(_DatabaseLike(index._vectors), probes, mine, owners)  # type: ignore[arg-type]
    assert searched == pytest.approx(local, abs=1e-5)


# -- how much a vault's notes share (vault_null.closeness, SearchIndex.backgrounds) ----------


def _anchors_measure(rng: np.random.Generator, dim: int = 32) -> HubMeasure:
    """Unrelated anchor texts: as far apart as random directions."""
    questions = _unit(rng.normal(size=(20, dim)))
    passages = _unit(rng.normal(size=(20, dim)))
    return HubMeasure.of(questions, passages, np.array([OTHER_SCRIPT] * 20, np.int8))


def test_a_vault_whose_notes_share_a_subject_is_closer_than_unrelated_text() -> None:
    rng = np.random.default_rng(5)
    anchors = _anchors_measure(rng)
    assert anchors.closeness is not None
    _, one_subject = _topic_vault(40, shared=4.0)
    _, scattered = _topic_vault(40, shared=0.0)
    scripts = np.full(40, OTHER_SCRIPT, np.int8)
    shared = shared_subject(closeness(one_subject, scripts), anchors.closeness)
    assert shared[OTHER_SCRIPT] > 0.3
    assert shared[CJK_SCRIPT] == 0  # no Chinese notes: nothing to say
    assert shared_subject(closeness(scattered, scripts), anchors.closeness)[OTHER_SCRIPT] < 0.05
    few = closeness(one_subject[: CLOSENESS_MIN - 1], scripts[: CLOSENESS_MIN - 1])
    assert shared_subject(few, anchors.closeness)[OTHER_SCRIPT] == 0  # too few notes to say
    assert not shared_subject(closeness(one_subject, scripts), None).any()  # no anchors


def test_what_a_vaults_notes_share_is_not_taken_for_unrelated_text() -> None:
    rng = np.random.default_rng(7)
    anchors = _anchors_measure(rng)
    index, vectors = _topic_vault(30, shared=4.0)
    direction = np.zeros(32)
    direction[0] = 1.0
    query = _unit((direction + 0.5 * rng.normal(size=32))[None, :])[0]  # on their subject
    plain = index.backgrounds(query, np.zeros(3))
    corrected = index.backgrounds(query, np.zeros(3), anchors, OTHER_SCRIPT, on_subject=True)
    scripts = np.full(30, OTHER_SCRIPT, np.int8)
    shared = shared_subject(closeness(vectors, scripts), anchors.closeness)[OTHER_SCRIPT]
    share = 30 / (30 + rel.VAULT_PRIOR)
    median = plain[0, OTHER_SCRIPT] / share  # the vault's own (the anchors' is 0 here)
    drop = plain[0, OTHER_SCRIPT] - corrected[0, OTHER_SCRIPT]
    assert 0 < drop == pytest.approx(share * min(shared, median), abs=1e-6)  # not below anchors'
    assert corrected[0, OTHER_SCRIPT] >= 0
    assert corrected[2, OTHER_SCRIPT] == pytest.approx(plain[2, OTHER_SCRIPT])  # same spread
    assert corrected[3, OTHER_SCRIPT] == pytest.approx(plain[0, OTHER_SCRIPT])  # standout's too
    across = index.backgrounds(query, np.zeros(3), anchors, CJK_SCRIPT, on_subject=True)
    assert across[0, OTHER_SCRIPT] == pytest.approx(plain[0, OTHER_SCRIPT])  # a Chinese question
    other = index.backgrounds(query, np.zeros(3), anchors, OTHER_SCRIPT)  # not on their subject
    assert other == pytest.approx(plain)
    scattered, _ = _topic_vault(30, shared=0.0)  # notes as far apart as unrelated text: as before
    untouched = scattered.backgrounds(query, np.zeros(3), anchors, OTHER_SCRIPT, on_subject=True)
    assert untouched == pytest.approx(scattered.backgrounds(query, np.zeros(3)), abs=0.02)


def test_explain_says_what_the_vaults_shared_subject_took_off() -> None:
    rng = np.random.default_rng(7)
    anchors = _anchors_measure(rng)
    direction = np.zeros(32)
    direction[0] = 4.0
    vectors = _unit(direction + rng.normal(size=(30, 32)))
    index = _vault(30, vectors, word="kevin")  # every note holds "kevin": its subject
    query = _unit((direction / 4 + 0.5 * rng.normal(size=32))[None, :])[0]
    args = {"background": np.zeros(3), "hubs": anchors, "min_relevance": 0.0, "explain": True}
    on = index.search("what did kevin study", query, **args)[0].evidence
    off = index.search("what did anna study", query, **args)[0].evidence  # not its subject
    assert on is not None and off is not None
    assert on.shared > 0 and on.background == pytest.approx(off.background - on.shared)
    assert "share the question's subject" in " ".join(on.lines())
    assert off.shared == 0 and "share the question's subject" not in " ".join(off.lines())


def test_a_question_is_on_the_vaults_subject_when_it_names_what_most_notes_hold() -> None:
    from pixelmem.core.index.query import parse_query

    rng = np.random.default_rng(11)
    index = _vault(12, _unit(rng.normal(size=(12, 32))), word="kevin")  # "kevin text 3"…
    assert index._on_subject(parse_query("What country is Kevin studying in?").terms)
    assert not index._on_subject(parse_query("how to grow tomatoes").terms)
    assert not index._on_subject(None)
