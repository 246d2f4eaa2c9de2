"""Indexer + engine: incremental embedding, model switches, failures, cancellation."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.core.errors import ProviderUnavailable
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.indexer import IndexCancelled
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

LONG_BODY = "\n\n".join(
    f"Paragraph {i} about topic{i} with enough words to fill the chunk. " * 6 for i in range(8)
)


def _engine(vault: Path, embedder=None, **settings_kw) -> Engine:
    settings = Settings()
    for key, value in settings_kw.items():
        settings.set_key(key, str(value))
    return Engine(vault, settings, embedder=embedder or HashEmbedder())


def _fill(vault: Path) -> MemoryStore:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"])
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.", topics=["space"])
    store.create("Long notes", LONG_BODY, topics=["misc"], importance="high")
    return store


def test_restart_on_unchanged_vault_embeds_nothing(vault: Path) -> None:
    _fill(vault)
    first = HashEmbedder()
    report = _engine(vault, first).open()
    assert report.embedded == report.chunks > 3
    assert first.texts_embedded == report.chunks

    second = HashEmbedder()
    report2 = _engine(vault, second).open()
    assert second.texts_embedded == 0
    assert report2.reused == report2.chunks == report.chunks


def test_editing_one_paragraph_embeds_only_changed_chunks(vault: Path) -> None:
    store = _fill(vault)
    embedder = HashEmbedder()
    engine = Engine(vault, Settings(), embedder=embedder, store=store)
    engine.open()
    long_memory = next(m for m in store.list() if m.title == "Long notes")
    chunks_before = sum(1 for _ in engine.index.chunks_of(long_memory.id))
    assert chunks_before >= 3
    embedder.texts_embedded = 0
    long_memory.body = long_memory.body.replace("Paragraph 7 about", "Paragraph seven about")
    engine.writes.update(long_memory)
    engine.reindex()
    assert 1 <= embedder.texts_embedded < chunks_before


def test_deleted_memory_leaves_the_index(vault: Path) -> None:
    store = _fill(vault)
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    target = next(m for m in store.list() if m.title == "Zorblax-7 launch")
    assert engine.search("Zorblax-7", mode="keyword")[0].memory_id == target.id
    engine.writes.delete(target.id)
    engine.reindex()
    assert all(h.memory_id != target.id for h in engine.search("Zorblax-7", mode="keyword"))
    assert target.id not in engine.index.memory_ids


def test_model_switch_reembeds_everything_and_never_mixes(vault: Path) -> None:
    _fill(vault)
    _engine(vault, HashEmbedder(model="a")).open()
    other = HashEmbedder(model="b")
    report = _engine(vault, other).open()
    assert report.embedded == report.chunks
    # and switching back finds its own vectors gone (the cache holds one model only)
    back = HashEmbedder(model="a")
    assert _engine(vault, back).open().embedded == report.chunks


def test_full_reindex_drops_the_cache(vault: Path) -> None:
    _fill(vault)
    embedder = HashEmbedder()
    engine = _engine(vault, embedder)
    first = engine.open()
    embedder.texts_embedded = 0
    report = engine.reindex(full=True)
    assert report.embedded == first.chunks


def test_progress_reports_done_and_total(vault: Path) -> None:
    _fill(vault)
    seen: list[tuple[int, int]] = []
    _engine(vault).open(progress=lambda d, t: seen.append((d, t)))
    assert seen[0][0] == 0
    assert seen[-1][0] == seen[-1][1] > 0


def test_cancel_stops_and_keeps_previous_index(vault: Path) -> None:
    _fill(vault)
    engine = _engine(vault)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(IndexCancelled):
        engine.open(cancel=cancel)
    assert engine.index.chunk_count == 0  # a small vault: no interim index was worth building
    engine.reindex()
    assert engine.index.chunk_count > 0


def test_long_first_run_offers_keyword_search_and_survives_cancel(vault: Path) -> None:
    store = MemoryStore(vault)
    for i in range(80):
        store.create(f"Note {i}", f"Entry number {i} mentions the word marker{i}.")
    embedder = HashEmbedder()
    engine = Engine(vault, Settings(), embedder=embedder, store=store)
    cancel = threading.Event()
    seen_during_embedding: list[int] = []

    def progress(done: int, total: int) -> None:
        seen_during_embedding.append(len(engine.search("marker42", mode="hybrid")))
        if done >= 64:
            cancel.set()

    with pytest.raises(IndexCancelled):
        engine.open(progress=progress, cancel=cancel)
    assert seen_during_embedding[0] == 1  # keyword search worked before any vector existed
    hit = engine.search("marker42")[0]
    assert hit.title == "Note 42"
    assert not engine.index.has_vectors
    embedder.texts_embedded = 0
    report = engine.reindex()  # the vectors computed before the cancel were kept
    assert report.reused == 64 and embedder.texts_embedded == 16
    assert engine.index.has_vectors


class _DownEmbedder(HashEmbedder):
    def embed_documents(self, texts):
        raise ProviderUnavailable("Ollama is not running at http://localhost:11434")

    def embed_query(self, text):
        raise ProviderUnavailable("Ollama is not running at http://localhost:11434")


def test_provider_down_keeps_keyword_search_and_says_why(vault: Path) -> None:
    _fill(vault)
    engine = _engine(vault, _DownEmbedder())
    report = engine.open()
    assert "not running" in report.semantic_error
    assert "not running" in engine.semantic_error
    hits = engine.search("Zorblax-7")  # hybrid degrades to keyword
    assert hits and hits[0].title == "Zorblax-7 launch"
    assert engine.search("Zorblax-7", mode="semantic") == []
    assert "not running" in engine.status().semantic_error
    # Explained too (the app's results ask for the evidence): no meaning side, no hub damping.
    explained = engine.search("Zorblax-7", explain=True)
    assert explained[0].evidence is not None and explained[0].evidence.cosine is None


def test_status_counts(vault: Path) -> None:
    _fill(vault)
    (vault / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody")
    engine = _engine(vault)
    engine.open()
    status = engine.status()
    assert status.memories == 3
    assert status.chunks == status.indexed_chunks > 3
    assert len(status.skipped) == 1
    assert status.model_id == "fake:hash"
    assert status.semantic_error == ""


def test_query_vectors_are_cached(vault: Path) -> None:
    _fill(vault)
    embedder = HashEmbedder()
    calls = []
    original = embedder.embed_query
    embedder.embed_query = lambda text: calls.append(text) or original(text)  # type: ignore[method-assign]
    engine = _engine(vault, embedder)
    engine.open()
    engine.search("espresso ratio")
    engine.search("espresso ratio")
    assert calls.count("espresso ratio") == 1  # besides: the anchor texts, once (hubs)


def test_external_edit_is_picked_up(vault: Path) -> None:
    store = _fill(vault)
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    path = vault / "outside.md"
    path.write_text("# Quokka facts\n\nQuokkas live on Rottnest Island.\n", encoding="utf-8")
    changes = engine.writes.reload_paths([path]).changes
    engine.reindex()
    assert len(changes.created) == 1
    assert engine.search("Rottnest", mode="keyword")[0].memory_id == changes.created[0]


def test_reconfigure_with_other_chunking_rebuilds(vault: Path) -> None:
    _fill(vault)
    engine = _engine(vault)
    before = engine.open().chunks
    settings = Settings()
    settings.set_key("chunk.size", "200")
    settings.set_key("chunk.overlap", "20")
    engine.reconfigure(settings)
    assert engine.reindex().chunks > before


def test_empty_query_returns_nothing(vault: Path) -> None:
    _fill(vault)
    engine = _engine(vault)
    engine.open()
    assert engine.search("   ") == []


def test_english_only_model_steps_back_for_chinese_queries(vault: Path) -> None:
    english_only = HashEmbedder()
    english_only.multilingual = False  # type: ignore[attr-defined]
    engine = _engine(vault, english_only)
    engine.open()
    assert engine.semantic_weight("how do I brew espresso") == 1.0
    assert engine.semantic_weight("长城的缆车") == 0.0
    assert engine.semantic_weight("Python 装饰器怎么用") == 0.0  # half CJK: the model can't read it
    assert 0.0 < engine.semantic_weight("Rust borrow checker 报错") < 1.0
    assert _engine(vault, HashEmbedder()).semantic_weight("长城的缆车") == 1.0


def test_reranker_reorders_and_failure_falls_back(vault: Path) -> None:
    from fake_servers import FakeServer, free_port

    store = MemoryStore(vault)
    store.create("Apple pie", "An apple pie recipe with cinnamon.")
    store.create("Bananas", "Bananas are yellow; apple mentioned once.")
    store.create("Cars", "Car repair notes.")
    with FakeServer() as server:
        settings = Settings()
        settings.set_key("rerank.url", server.rerank_url)
        engine = Engine(vault, settings, embedder=HashEmbedder(), store=store)
        engine.open()
        hits = engine.search("apple pie recipe", mode="keyword", k=2, min_relevance=0.0)
        assert hits[0].title == "Apple pie"
        body = server.bodies("/rerank")[-1]
        assert body["query"] == "apple pie recipe" and len(body["documents"]) >= 2
        assert engine.rerank_warning is None

    down = Settings()
    down.set_key("rerank.url", f"http://127.0.0.1:{free_port()}")
    engine.reconfigure(down)
    hits = engine.search("apple pie recipe", mode="keyword", k=2, min_relevance=0.0)
    assert hits and hits[0].title == "Apple pie"  # un-reranked results, not an error
    assert engine.rerank_warning and "reranking failed" in engine.rerank_warning


def test_a_model_switch_never_mixes_query_and_index_dimensions(vault: Path, monkeypatch) -> None:
    """Searches during a switch to a model of another dimension use the snapshot's own model
    (the `query has dimension 576, the index has 384` 500 of `serve`); the new one after."""
    from pixelmem.core.providers.embeddings import factory

    _fill(vault)
    engine = _engine(vault, HashEmbedder(dim=64, model="old"))
    engine.open()
    wider = HashEmbedder(dim=96, model="new")
    wider.gate = threading.Event()
    embedding = threading.Event()
    original = wider.embed_documents

    def slow_documents(texts):
        embedding.set()
        assert wider.gate is not None and wider.gate.wait(10)
        return original(texts)

    wider.embed_documents = slow_documents  # type: ignore[method-assign]
    monkeypatch.setattr(factory, "create_embedder", lambda _settings: wider)
    settings = engine.settings.copy()
    settings.set_key("embedding.provider", "openai")
    engine.reconfigure(settings)
    assert engine.reconfigure_pending
    assert engine.search("espresso coffee", mode="semantic")  # the old model, its vectors

    thread = threading.Thread(target=engine.reindex)
    thread.start()
    assert embedding.wait(10)
    during = engine.search("Zorblax probe", mode="hybrid")  # mid re-embed: still answers
    assert during and during[0].title == "Zorblax-7 launch"
    wider.gate.set()
    thread.join(10)
    assert engine.status().model_id == "fake:new" and engine.index.has_vectors
    assert engine.search("Zorblax probe", mode="semantic")[0].title == "Zorblax-7 launch"


def test_the_embedder_made_once_when_threads_ask_at_once(tmp_path: Path, monkeypatch) -> None:
    """`pixelmem search` embeds the query on a thread while it loads the saved index: a
    second thread asking for the embedder while the first makes it must wait for it, not
    see None (the search then took the vault for one without a model and rebuilt it)."""
    from pixelmem.core.providers.embeddings import factory

    made: list[HashEmbedder] = []
    entered = threading.Event()

    def slow_create(_settings):  # type: ignore[no-untyped-def]
        entered.set()
        threading.Event().wait(0.2)
        made.append(HashEmbedder())
        return made[-1]

    monkeypatch.setattr(factory, "create_embedder", slow_create)
    engine = Engine(tmp_path, Settings())
    seen: list[object] = []
    first = threading.Thread(target=lambda: seen.append(engine.embedder))
    first.start()
    assert entered.wait(5)
    seen.append(engine.embedder)  # while the first thread is still making it
    first.join()
    assert len(made) == 1
    assert seen == [made[0], made[0]]


class _TokenEmbedder(HashEmbedder):
    """A hash embedder that also gives token vectors (one per word): a token reader."""

    def __init__(self) -> None:
        super().__init__()
        self.token_texts: list[tuple[str, bool]] = []

    def token_vectors(self, text: str, *, query: bool):
        import numpy as np

        self.token_texts.append((text, query))
        words = text.split() or ["."]
        return np.stack([self._vector(word) for word in words])


def test_the_engine_reads_token_coverage_of_an_embedder_that_gives_it(vault: Path) -> None:
    _fill(vault)
    plain = _engine(vault)
    plain.open()
    hit = plain.search("espresso coffee ratio", explain=True, min_relevance=0.0)[0]
    assert hit.evidence is not None and hit.evidence.lift is None  # no token vectors
    reader = _TokenEmbedder()
    engine = _engine(vault, embedder=reader)
    engine.open()
    hit = engine.search("espresso coffee ratio", explain=True, min_relevance=0.0)[0]
    assert hit.title == "Espresso ratio"
    assert hit.evidence is not None and hit.evidence.lift is not None
    assert hit.evidence.lift > 0  # its note covers the question's words, the next does not
    assert ("espresso coffee ratio", True) in reader.token_texts
    assert any(not q and text.startswith("Espresso ratio\n") for text, q in reader.token_texts)


def test_the_apps_explained_searches_run_no_token_model_the_decision_does_not_read(
    vault: Path,
) -> None:
    _fill(vault)
    reader = _TokenEmbedder()
    engine = _engine(vault, embedder=reader)
    engine.explains = True  # the app: its panel explains every search typed
    engine.open()
    hit = engine.search("espresso coffee ratio", explain=True, min_relevance=0.0)[0]
    assert hit.title == "Espresso ratio" and hit.evidence is not None
    assert hit.evidence.lift is None and reader.token_texts == []  # not on the border here


def test_the_english_model_reads_token_coverage(vault: Path) -> None:
    from pixelmem.core.index.relevance import CALIBRATIONS
    from pixelmem.core.providers.embeddings.local import LocalEmbedder

    _fill(vault)
    engine = _engine(vault, embedder=LocalEmbedder())
    engine.open()
    hit = engine.search("how much coffee for an espresso", explain=True, min_relevance=0.0)[0]
    assert hit.title == "Espresso ratio"
    assert hit.evidence is not None and hit.evidence.lift is not None
    assert hit.evidence.lift > 0  # MiniLM's tokens: its note covers the question best
    assert CALIBRATIONS["all-minilm-l6"].tokens.weight > 0  # and its border reads them


def test_an_index_run_lets_a_building_window_go_first(vault: Path, monkeypatch) -> None:
    """A run's start (imports, the cache, the saved index) keeps the GIL in one go: it offers
    a step first, holding no lock a search or another run needs while it waits."""
    from pixelmem.core.index import engine as engine_module

    _fill(vault)
    engine = _engine(vault)
    seen: list[bool] = []

    def free_for_another_thread() -> bool:  # (an RLock: this thread would get it anyway)
        got: list[bool] = []

        def probe() -> None:
            got.append(engine._build_lock.acquire(blocking=False))
            if got[-1]:
                engine._build_lock.release()

        other = threading.Thread(target=probe)
        other.start()
        other.join()
        return got[0]

    def step() -> bool:
        seen.append(free_for_another_thread())
        return False

    monkeypatch.setattr(engine_module, "step_aside", step)
    engine.reindex()
    assert seen == [True]  # one step, before the run took its lock
