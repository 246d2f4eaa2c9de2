"""What a snapshot's first search does once (the relevance anchors embedded, the hub chunks
damped, numpy.ma imported) the app does on a worker once the snapshot is ready
(Engine.prepare_first_search): the window's first keystroke must not pay it on its search
worker. Indexing itself does none of it: a command's keyword search must not load the model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.core.index import saved_index
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings

NOTES = {
    "Espresso": "Grind fine, tamp evenly and pull the shot for about thirty seconds.",
    "Kettle": "Descale the kettle with citric acid once a month.",
    "Tomatoes": "Water the tomatoes in the morning and stake them when they flower.",
    "Budget": "The monthly budget keeps rent, food and savings apart.",
    "Train": "The night train leaves at ten and arrives before breakfast.",
    "Backups": "Keep three copies of your files, one of them far away.",
}


class CountingEmbedder(HashEmbedder):
    """Counts the queries it embeds, too (the anchors as questions are embedded one by one)."""

    def __init__(self) -> None:
        super().__init__()
        self.queries = 0

    def embed_query(self, text: str):
        self.queries += 1
        return super().embed_query(text)


def _indexed(vault: Path, *, app: bool) -> tuple[Engine, CountingEmbedder]:
    vault.mkdir()
    for title, body in NOTES.items():
        (vault / f"{title}.md").write_text(f"# {title}\n\n{body}\n", "utf-8")
    embedder = CountingEmbedder()
    engine = Engine(vault, Settings(), embedder=embedder)
    engine.embed_apart = engine.explains = app  # what gui/session sets
    engine.store.scan()
    engine.reindex()
    return engine, embedder


def test_after_the_warm_up_the_first_search_embeds_only_its_query(tmp_path: Path) -> None:
    engine, embedder = _indexed(tmp_path / "app", app=True)
    engine.prepare_first_search()
    assert saved_index.anchors_path(engine.vault).is_file()
    assert saved_index.anchors_path(engine.vault, questions=True).is_file()
    documents, queries = embedder.texts_embedded, embedder.queries
    assert engine.search("how do I descale a kettle")
    assert (embedder.texts_embedded, embedder.queries) == (documents, queries + 1)


def test_indexing_embeds_no_anchors(tmp_path: Path) -> None:
    engine, embedder = _indexed(tmp_path / "command", app=False)
    assert embedder.queries == 0
    assert not saved_index.anchors_path(engine.vault).exists()
    engine.search("kettle", mode="keyword")
    assert embedder.queries == 0  # a keyword search asks the model nothing


@pytest.mark.parametrize("query", ["how do I descale a kettle", "night train", "zzz qqq"])
def test_a_warmed_snapshot_answers_as_one_its_first_search_prepared(
    tmp_path: Path, query: str
) -> None:
    warmed, _ = _indexed(tmp_path / "app", app=True)
    warmed.prepare_first_search()
    cold, _ = _indexed(tmp_path / "command", app=False)
    cold.explains = True  # the same explanations; only the warm-up differs
    found = warmed.search(query, explain=True, weaker=3)
    expected = cold.search(query, explain=True, weaker=3)
    assert [(h.memory_id, h.score, h.chunk_index, h.weaker) for h in found] == [
        (h.memory_id, h.score, h.chunk_index, h.weaker) for h in expected
    ]
    assert [h.evidence for h in found] == [h.evidence for h in expected]


def test_a_saved_index_loads_without_embedding_and_warms_up_after(tmp_path: Path) -> None:
    command, _ = _indexed(tmp_path / "vault", app=False)
    assert saved_index.index_path(command.vault).is_file()  # saved without anchors
    embedder = CountingEmbedder()
    app = Engine(command.vault, Settings(), embedder=embedder)
    app.embed_apart = app.explains = True
    assert app.load_saved_index()
    assert (embedder.texts_embedded, embedder.queries) == (0, 0)  # searchable at once
    app.prepare_first_search()
    documents, queries = embedder.texts_embedded, embedder.queries
    assert documents > 0
    assert app.search("how do I descale a kettle")
    assert (embedder.texts_embedded, embedder.queries) == (documents, queries + 1)


def test_a_search_during_the_warm_up_waits_for_its_anchors(tmp_path: Path) -> None:
    engine, embedder = _indexed(tmp_path / "app", app=True)
    embedding, release = threading.Event(), threading.Event()
    real = embedder.embed_documents

    def slow(texts):
        embedding.set()
        release.wait(10)
        return real(texts)

    embedder.embed_documents = slow  # type: ignore[method-assign]
    calls = embedder.calls
    warm = threading.Thread(target=engine.prepare_first_search)
    warm.start()
    assert embedding.wait(10)  # the warm-up is embedding the anchors
    searched: list[object] = []
    search = threading.Thread(target=lambda: searched.append(engine.anchor_vectors()))
    search.start()
    release.set()
    warm.join(10)
    search.join(10)
    assert searched[0] is not None
    assert embedder.calls == calls + 1  # the warm-up's one batch; the search embedded nothing
