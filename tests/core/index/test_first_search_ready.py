"""The app's engine publishes a snapshot with its first search's one-time work done (the
relevance anchors embedded, the hub chunks damped, numpy.ma imported): the window's first
keystroke must not pay it on its search worker. A command's engine does none of it: a keyword
search must not load the model."""

from __future__ import annotations

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


def test_the_apps_first_search_embeds_only_its_query(tmp_path: Path) -> None:
    engine, embedder = _indexed(tmp_path / "app", app=True)
    assert saved_index.anchors_path(engine.vault).is_file()
    assert saved_index.anchors_path(engine.vault, questions=True).is_file()
    documents, queries = embedder.texts_embedded, embedder.queries
    assert engine.search("how do I descale a kettle")
    assert (embedder.texts_embedded, embedder.queries) == (documents, queries + 1)


def test_a_commands_engine_embeds_no_anchors_while_indexing(tmp_path: Path) -> None:
    engine, embedder = _indexed(tmp_path / "command", app=False)
    assert embedder.queries == 0
    assert not saved_index.anchors_path(engine.vault).exists()
    engine.search("kettle", mode="keyword")
    assert embedder.queries == 0  # a keyword search asks the model nothing


@pytest.mark.parametrize("query", ["how do I descale a kettle", "night train", "zzz qqq"])
def test_a_prepared_snapshot_answers_as_one_prepared_by_its_first_search(
    tmp_path: Path, query: str
) -> None:
    app, _ = _indexed(tmp_path / "app", app=True)
    command, _ = _indexed(tmp_path / "command", app=False)
    command.explains = True  # the same explanations; only the preparing differs
    found = app.search(query, explain=True, weaker=3)
    expected = command.search(query, explain=True, weaker=3)
    assert [(h.memory_id, h.score, h.chunk_index, h.weaker) for h in found] == [
        (h.memory_id, h.score, h.chunk_index, h.weaker) for h in expected
    ]
    assert [h.evidence for h in found] == [h.evidence for h in expected]


def _app_engine_loading_the_saved_index(vault: Path) -> tuple[Engine, CountingEmbedder]:
    embedder = CountingEmbedder()
    engine = Engine(vault, Settings(), embedder=embedder)
    engine.embed_apart = engine.explains = True
    assert engine.load_saved_index()
    return engine, embedder


def test_a_saved_index_loaded_at_launch_is_searchable_without_embedding(tmp_path: Path) -> None:
    """Saved by a command (no anchors beside it): the launch embeds nothing before the index
    is searchable; the first search embeds the anchors as before."""
    command, _ = _indexed(tmp_path / "vault", app=False)
    assert saved_index.index_path(command.vault).is_file()
    app, embedder = _app_engine_loading_the_saved_index(command.vault)
    assert (embedder.texts_embedded, embedder.queries) == (0, 0)
    assert app.search("how do I descale a kettle")
    assert embedder.texts_embedded > 0


def test_a_saved_index_with_its_anchors_is_loaded_ready_for_the_first_search(
    tmp_path: Path,
) -> None:
    first, _ = _indexed(tmp_path / "vault", app=True)  # the app's first index saved them
    app, embedder = _app_engine_loading_the_saved_index(first.vault)
    assert app.search("how do I descale a kettle")
    assert (embedder.texts_embedded, embedder.queries) == (0, 1)
