"""The relevance floor with the real models: relevant queries find their memory first, the
others find nothing; what a chat would inject follows the same rule.

The vault and queries are ``benchmarks/data/floor_bilingual`` (English and Chinese notes on
everyday subjects; questions with one right answer and questions that no note answers). It is
development data: the floor was chosen on it, so this test guards against regressions; the
held-out checks live outside the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pixelmem.core.assist.injection import build_prompt_for
from pixelmem.core.index import relevance as rel
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.evaluate import load_beir
from pixelmem.core.index.scripts import cjk_share
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

FLOOR_SET = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "floor_bilingual"


def _engine(root: Path, provider: str) -> tuple[Engine, dict[str, str]]:
    corpus, _, _ = load_beir(FLOOR_SET)
    store = MemoryStore(root)
    memory_of = {
        doc_id: store.create(row["title"], row["text"]).id for doc_id, row in corpus.items()
    }
    settings = Settings()
    settings.embedding.provider = provider
    engine = Engine(settings=settings, store=store)
    engine.open()
    assert engine.semantic_error == ""
    return engine, memory_of


@pytest.fixture(scope="module", params=["local", "local-multilingual"])
def floor_engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    return _engine(tmp_path_factory.mktemp(request.param), request.param), request.param


def _cross_lingual(query: str, doc: dict) -> bool:
    return (cjk_share(query) > 0.5) != (cjk_share(doc["text"]) > 0.5)


# Measured on this development set when the floor was chosen (benchmarks/fit_relevance.py):
# the English model answers 21 of its 22 same-language questions (one Chinese question matches
# on a single word); the multilingual one misses 3 cross-lingual questions of 25. Both return
# nothing for all 15 questions that no note answers.
MAY_MISS = {"local": 1, "local-multilingual": 3}
# Hybrid is never below what the semantic side alone supports (relevance.combined), so a
# cross-language question is shown whenever the multilingual model's cosine alone clears the
# floor: "马拉松比赛前要减量训练多久" finds the marathon plan (0.48–0.6), and "如何学习钢琴"
# (how to learn the piano) finds the guitar practice routine, on the next subject, as close
# (semantic evidence 0.41 against 0.35). Before, hybrid hid both below what semantic mode
# showed; the piano question is the one question nothing answers that the floor may show.
MAY_SHOW = {"local": 0, "local-multilingual": 1}


def test_relevant_queries_first_and_irrelevant_ones_empty(floor_engine) -> None:
    (engine, memory_of), provider = floor_engine
    corpus, queries, qrels = load_beir(FLOOR_SET)
    shown_for_nothing, missed = [], []
    for query_id, text in queries.items():
        hits = engine.search(text)
        wanted = next(iter(qrels.get(query_id, {})), None)
        if wanted is None:
            if hits:
                shown_for_nothing.append(f"{text!r} → {hits[0].title} {hits[0].score:.2f}")
            continue
        if provider == "local" and _cross_lingual(text, corpus[wanted]):
            continue  # the English model cannot cross languages; see the multilingual run
        if not hits or hits[0].memory_id != memory_of[wanted]:
            got = f"{hits[0].title} {hits[0].score:.2f}" if hits else "nothing"
            missed.append(f"{text!r} → {got} (expected {corpus[wanted]['title']})")
    assert len(shown_for_nothing) <= MAY_SHOW[provider], shown_for_nothing
    assert all("如何学习钢琴" in shown for shown in shown_for_nothing), shown_for_nothing
    assert len(missed) <= MAY_MISS[provider], missed


def test_scores_are_probabilities_on_one_scale(floor_engine) -> None:
    (engine, _), _ = floor_engine
    for mode in ("hybrid", "semantic", "keyword"):
        hits = engine.search("how long should my espresso shot run?", mode=mode, k=10,
                             min_relevance=0.0)  # fmt: skip
        scores = [h.score for h in hits]
        assert hits[0].title == "Espresso dial-in notes"
        assert all(0.0 <= s <= 1.0 for s in scores) and scores == sorted(scores, reverse=True)
        assert scores[0] >= rel.DEFAULT_MIN_RELEVANCE
        titles = {h.title for h in hits if h.score >= rel.DEFAULT_MIN_RELEVANCE}
        assert not titles & {"Marathon training plan", "Sourdough starter care"}


def test_chat_injects_only_what_is_relevant(floor_engine) -> None:
    (engine, memory_of), _ = floor_engine
    prompt = build_prompt_for(engine, "how long should my espresso shot run?")
    used = [u.id for u in prompt.used]
    assert used[0] == memory_of["en01"]
    assert memory_of["en02"] not in used and memory_of["en03"] not in used  # marathon, sourdough
    nothing = build_prompt_for(engine, "how to train a puppy to sit")
    assert nothing.used == []


def test_related_lists_only_close_memories(floor_engine) -> None:
    (engine, memory_of), _ = floor_engine
    # Two notes on the same subject in the same language are related; unrelated ones are not.
    migration = engine.related(memory_of["en04"], k=5)
    assert all(h.score >= rel.DEFAULT_MIN_RELEVANCE for h in migration)
    tea = {h.memory_id for h in engine.related(memory_of["zh01"], k=5)}
    assert memory_of["zh02"] not in tea  # green tea is not braised pork


def test_anchor_background_differs_by_model_but_evidence_is_comparable(floor_engine) -> None:
    (engine, _), _ = floor_engine
    vector = engine.query_vector("how long should my espresso shot run?")
    background = engine.background(vector)
    assert -0.2 < background < 0.95
    anchors = engine.anchor_vectors()
    assert anchors is not None and anchors.shape[0] == len(rel.ANCHOR_TEXTS)
    assert np.all(np.isfinite(anchors))


def test_floor_set_is_well_formed() -> None:
    corpus, queries, qrels = load_beir(FLOOR_SET)
    assert len(corpus) == 40 and len(queries) == 40
    unanswerable = [q for q in queries if q not in qrels]
    assert len(unanswerable) >= 15
    assert all(doc in corpus for judged in qrels.values() for doc in judged)
    json.dumps(queries, ensure_ascii=False)
