"""Search behaviour with the real offline model: what a person expects from hybrid search."""

from __future__ import annotations

import pytest

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

MEMORIES = [
    (
        "Bicycle maintenance",
        "To fix a flat: remove the wheel, find the puncture with water, "
        "patch the inner tube and pump it back up.",
        ["bike"],
    ),
    (
        "Grant meeting notes",
        "Met Dr. Okonkwo-Ferreira to review the XK-4471 budget lines.",
        ["work"],
    ),
    (
        "Sourdough starter",
        "Feed the starter with equal weights of flour and water daily.",
        ["cooking"],
    ),
    ("Team offsite", "We planned the quarterly offsite agenda and booked the venue.", ["work"]),
    ("长城旅行", "去年秋天我们去了慕田峪长城，风景很美，缆车很方便。", ["旅行"]),
    (
        "Python packaging",
        "Use pyproject.toml with a build backend; publish wheels to PyPI.",
        ["code"],
    ),
    (
        "Houseplants",
        "Water the fiddle-leaf fig when the top soil is dry; bright indirect light.",
        ["home"],
    ),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    vault = tmp_path_factory.mktemp("quality")
    store = MemoryStore(vault)
    for title, body, topics in MEMORIES:
        store.create(title, body, topics=topics)
    engine = Engine(vault, Settings(), store=store)
    engine.open()
    assert engine.semantic_error == ""
    return engine


def _titles(hits) -> list[str]:
    return [h.title for h in hits]


def test_hybrid_finds_an_exact_rare_name(engine: Engine) -> None:
    assert _titles(engine.search("Okonkwo-Ferreira", mode="hybrid"))[0] == "Grant meeting notes"
    assert _titles(engine.search("XK-4471", mode="keyword"))[0] == "Grant meeting notes"


def test_hybrid_finds_a_paraphrase_that_keyword_misses(engine: Engine) -> None:
    query = "mending a punctured bike tyre"
    assert "Bicycle maintenance" not in _titles(engine.search(query, mode="keyword"))
    assert _titles(engine.search(query, mode="semantic"))[0] == "Bicycle maintenance"
    assert _titles(engine.search(query, mode="hybrid"))[0] == "Bicycle maintenance"


def test_chinese_query_finds_its_chinese_memory(engine: Engine) -> None:
    assert _titles(engine.search("长城的缆车"))[0] == "长城旅行"


def test_no_hit_above_threshold_is_an_honest_empty_result(engine: Engine) -> None:
    assert engine.search("zqxj vwpt", mode="hybrid", min_relevance=0.5) == []
    assert engine.search("zqxj vwpt", mode="semantic", min_relevance=0.5) == []


def test_hits_are_grouped_per_memory_with_spans(engine: Engine) -> None:
    hits = engine.search("water", mode="keyword", k=10)
    ids = [h.memory_id for h in hits]
    assert len(ids) == len(set(ids))
    for hit in hits:
        body = engine.store.get(hit.memory_id).body
        assert 0 <= hit.start <= hit.end <= len(body)


def test_related_memories_exclude_the_memory_itself(engine: Engine) -> None:
    grant = next(m for m in engine.store.list() if m.title == "Grant meeting notes")
    related = engine.related(grant.id, k=3, min_relevance=0.0)
    assert related and all(h.memory_id != grant.id for h in related)
