"""A save updates only its memory's chunks in the snapshot; the result equals a fresh index."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.core.index import indexer as indexer_module
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.search import SearchFilters, SearchIndex
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

QUERIES = ("espresso ratio", "probe launch", "paragraph topic3", "kettle descaling", "zorblax")


def _fill(vault: Path, n: int = 30) -> MemoryStore:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"])
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.", topics=["space"])
    for i in range(n):
        paragraphs = (f"Paragraph {j} about topic{(i + j) % 7} and notes " * 8 for j in range(3))
        body = "\n\n".join(paragraphs)
        store.create(f"Note {i}", body, topics=[f"t{i % 3}"])
    return store


def _results(engine: Engine) -> list:
    out = []
    for query in QUERIES:
        for mode in ("hybrid", "keyword", "semantic"):
            hits = engine.search(query, mode=mode, k=8, min_relevance=0.0)
            # Equal scores may come in another order (memories sit elsewhere in the index).
            scores = [round(h.score, 6) for h in hits]
            out.append(
                [(h.memory_id, s, h.chunk_index) if scores.count(s) == 1 else s for h, s in
                 zip(hits, scores, strict=True)]
            )  # fmt: skip
    return out


def _counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = SearchIndex.build

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(indexer_module.SearchIndex, "build", counting)
    return calls


def test_a_save_updates_only_its_own_chunks(vault: Path, monkeypatch) -> None:
    store = _fill(vault)
    embedder = HashEmbedder()
    engine = Engine(vault, Settings(), embedder=embedder, store=store)
    engine.open()
    before = engine.index
    builds = _counting_builds(monkeypatch)
    embedder.texts_embedded = 0
    memory = next(m for m in store.list() if m.title == "Espresso ratio")
    memory.body = "Descale the kettle monthly; espresso ratio is 1:2."
    engine.writes.update(memory)
    report = engine.reindex()
    assert builds == []  # no full rebuild
    assert embedder.texts_embedded == report.embedded == 1
    assert report.chunks == before.chunk_count and report.memories == len(store.list())
    assert engine.search("kettle descaling")[0].memory_id == memory.id
    assert before.search("kettle descaling", None) == []  # the old snapshot is untouched

    created = engine.writes.create("Kettle", "The kettle whistles when the water boils.").value
    engine.reindex()
    engine.writes.delete(next(m.id for m in store.list() if m.title == "Note 3"))
    other = next(m for m in store.list() if m.title == "Note 4")
    other.topics = ["retagged"]  # metadata only: no chunk changes
    engine.writes.update(other)
    embedder.texts_embedded = 0
    engine.reindex()
    assert builds == [] and embedder.texts_embedded == 0
    assert created.id in engine.index and "Note 3" not in [m.title for m in store.list()]
    retagged = engine.search("topic", k=50, min_relevance=0.0, filters=SearchFilters("retagged"))
    assert [h.memory_id for h in retagged] == [other.id]

    fresh = Engine(vault, Settings(), embedder=HashEmbedder())
    fresh.open()
    assert set(fresh.index.memory_ids) == set(engine.index.memory_ids)
    assert _results(fresh) == _results(engine)


def test_many_changes_or_a_worn_snapshot_rebuild(vault: Path, monkeypatch) -> None:
    store = _fill(vault, n=12)
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    builds = _counting_builds(monkeypatch)
    monkeypatch.setattr(indexer_module, "UPDATE_MAX_CHUNKS", 10)
    for memory in store.list()[:10]:  # many chunks change: a fresh build is cheaper
        memory.body += "\n\nOne more paragraph."
        engine.writes.update(memory)
    engine.reindex()
    assert len(builds) == 1
    monkeypatch.setattr(indexer_module, "REBUILD_STALE_SHARE", 0.0)
    memory = store.list()[0]
    memory.body = "A small edit."
    engine.writes.update(memory)
    engine.reindex()  # this update leaves dead chunks behind ...
    assert len(builds) == 1
    memory = store.get(memory.id)
    memory.body = "Another small edit."
    engine.writes.update(memory)
    engine.reindex()  # ... so the next change rebuilds
    assert len(builds) == 2
    assert engine.search("another small edit")[0].memory_id == memory.id


def test_keyword_only_index_updates_too(vault: Path, monkeypatch) -> None:
    store = _fill(vault, n=5)
    engine = Engine(vault, Settings(), embedder=None, store=store)
    engine._embedder_ready = True  # no embedding model at all
    engine.open()
    assert not engine.index.has_vectors
    builds = _counting_builds(monkeypatch)
    created = engine.writes.create("Kettle", "The kettle whistles when the water boils.").value
    report = engine.reindex()
    assert builds == [] and report.semantic_error
    assert engine.search("kettle whistles")[0].memory_id == created.id


def test_an_alias_added_by_a_save_is_searchable(vault: Path, monkeypatch) -> None:
    store = _fill(vault, n=3)
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    builds = _counting_builds(monkeypatch)
    memory = next(m for m in store.list() if m.title == "Espresso ratio")
    memory.aliases = ["Ristretto plan"]
    engine.writes.update(memory)
    engine.reindex()
    assert builds == []  # an update, not a rebuild
    assert [h.memory_id for h in engine.search("ristretto", mode="keyword")] == [memory.id]


def test_a_first_index_chunks_its_memories_in_steps(vault: Path, monkeypatch) -> None:
    """Chunking and hashing every memory is Python on the indexing thread (0.5-1 s for 10k):
    a step every CHUNK_STEP_MEMORIES memories lets a late window go first."""
    steps: list[int] = []
    monkeypatch.setattr(indexer_module, "step_aside", lambda: steps.append(1))
    monkeypatch.setattr(indexer_module, "CHUNK_STEP_MEMORIES", 8)
    store = _fill(vault, 30)  # 32 memories
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    report = engine.open()
    assert report.memories == 32 and len(steps) >= 32 // 8
    assert engine.search("espresso ratio", k=1)[0].title == "Espresso ratio"
