"""A saved index read back by another engine answers exactly as the one that saved it, is
brought up to date by difference, and is never used when it was made otherwise."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest
from fakes import HashEmbedder

from pixelmem.core.index import engine as engine_module
from pixelmem.core.index import saved_index
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault import scan_cache
from pixelmem.core.vault.store import MemoryStore

QUERIES = ("espresso ratio", "probe launch", "paragraph topic3", "数据库 索引", "zorblax", "泡茶")


@pytest.fixture(autouse=True)
def settled_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written a moment ago count as settled (the scan cache's racy window is moot)."""
    monkeypatch.setattr(scan_cache, "RACY_WINDOW_NS", 0)
    monkeypatch.setattr(scan_cache, "FINE_RACY_WINDOW_NS", 0)


def _fill(vault: Path, n: int = 24) -> None:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.", topics=["coffee"])
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.", topics=["space"])
    store.create("数据库索引", "今天整理了数据库索引的设计思路，重点是减少随机读。", topics=["db"])
    store.create("泡茶", "泡绿茶的水温不要太高，八十度左右就好。")
    for i in range(n):
        paragraphs = (f"Paragraph {j} about topic{(i + j) % 7} and notes " * 8 for j in range(3))
        body = "\n\n".join(paragraphs)
        store.create(f"Note {i}", body, topics=[f"t{i % 3}"])


def _engine(vault: Path, settings: Settings | None = None) -> Engine:
    return Engine(vault, settings or Settings(), embedder=HashEmbedder())


def _answers(engine: Engine) -> list:
    return [
        [
            (h.memory_id, h.score, h.snippet, h.chunk_index, h.start, h.end, h.semantic_score,
             h.keyword_score, h.matched_terms, h.copies)
            for h in engine.search(query, mode=mode, k=8, min_relevance=0.0)
        ]
        for query in QUERIES
        for mode in ("hybrid", "keyword", "semantic")
    ]  # fmt: skip


def _ranked(engine: Engine) -> list:
    """The hits as test_index_updates compares an updated index with a fresh one: scores to
    6 places, and ties by score alone (equal scores may come in another order)."""
    out = []
    for query in QUERIES:
        for mode in ("hybrid", "keyword", "semantic"):
            hits = engine.search(query, mode=mode, k=8, min_relevance=0.0)
            scores = [round(h.score, 6) for h in hits]
            out.append(
                [(h.memory_id, s) if scores.count(s) == 1 else s for h, s in
                 zip(hits, scores, strict=True)]
            )  # fmt: skip
    return out


def _indexed_and_saved(vault: Path) -> Engine:
    engine = _engine(vault)
    report = engine.open()
    assert report.rebuilt  # a first index is saved at once
    assert saved_index.index_path(vault).is_file()
    return engine


def test_a_saved_index_answers_exactly_as_the_engine_that_saved_it(vault: Path) -> None:
    _fill(vault)
    live = _indexed_and_saved(vault)

    loaded = _engine(vault)
    assert loaded.load_saved_index(check_files=True)
    assert loaded.index_ready  # every file as it was: no scan, no build
    assert not loaded.store.scanned
    assert _answers(loaded) == _answers(live)
    hit = loaded.search("espresso ratio", k=1)[0]
    assert loaded.memory_path(hit.memory_id) == live.store.path_for(hit.memory_id)
    assert not loaded.store.scanned


def test_the_saved_file_is_private(vault: Path) -> None:
    _fill(vault, 2)
    _indexed_and_saved(vault)
    mode = stat.S_IMODE(os.stat(saved_index.index_path(vault)).st_mode)
    assert mode & 0o077 == 0


def test_a_changed_vault_makes_it_partial_until_a_reindex_updates_it_by_difference(
    vault: Path,
) -> None:
    _fill(vault)
    _indexed_and_saved(vault)
    store = MemoryStore(vault)
    store.scan()
    first = store.list()[0]
    first.body = "The Zorblax-8 probe is next: espresso for the crew."
    store.update(first)
    store.create("Kettle", "Descale the kettle with citric acid every month.")

    loaded = _engine(vault)
    assert loaded.load_saved_index(check_files=True)
    assert not loaded.index_ready  # searches answer from the saved copy meanwhile
    assert loaded.search("kettle descale", mode="keyword", min_relevance=0.0) == []
    embedder = loaded.embedder
    assert isinstance(embedder, HashEmbedder)
    report = loaded.reindex()
    assert loaded.index_ready and not report.rebuilt
    assert report.embedded == embedder.texts_embedded  # only the two memories' chunks
    assert 0 < report.embedded <= 4

    fresh = _engine(vault)
    fresh.open()
    assert _ranked(loaded) == _ranked(fresh)


def test_an_index_made_otherwise_is_not_used(vault: Path) -> None:
    _fill(vault, 4)
    _indexed_and_saved(vault)
    other_model = Engine(vault, Settings(), embedder=HashEmbedder(model="other"))
    assert not other_model.load_saved_index()
    settings = Settings()
    settings.chunk.size = 400
    assert not _engine(vault, settings).load_saved_index()
    assert _engine(vault).load_saved_index()


def test_a_damaged_file_is_ignored_and_replaced(vault: Path) -> None:
    _fill(vault, 4)
    _indexed_and_saved(vault)
    path = saved_index.index_path(vault)
    data = bytearray(path.read_bytes())
    data[60] ^= 0xFF  # inside the header: its checksum no longer holds
    path.write_bytes(bytes(data))
    engine = _engine(vault)
    assert not engine.load_saved_index()
    assert engine.open().rebuilt
    assert _engine(vault).load_saved_index()
    path.write_bytes(path.read_bytes()[:-100])  # cut short
    assert not _engine(vault).load_saved_index()


def test_an_updated_index_is_saved_again_only_after_a_while(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(vault, 4)
    engine = _indexed_and_saved(vault)
    written = saved_index.index_path(vault).stat().st_mtime_ns
    engine.writes.create("Kettle", "Descale the kettle with citric acid.")
    assert not engine.reindex().rebuilt
    assert saved_index.index_path(vault).stat().st_mtime_ns == written  # just saved: not yet
    monkeypatch.setattr(engine_module, "SAVE_EVERY_SECONDS", 0)
    engine.reindex()  # nothing new, but the copy on disk is behind: saved now
    saved = saved_index.index_path(vault).stat().st_mtime_ns
    assert saved != written
    engine.reindex()  # the copy on disk is this snapshot: nothing to save
    assert saved_index.index_path(vault).stat().st_mtime_ns == saved
    loaded = _engine(vault)
    assert loaded.load_saved_index(check_files=True) and loaded.index_ready
    assert loaded.search("kettle citric", mode="keyword")[0].title == "Kettle"


def test_the_saved_anchors_spare_the_model(vault: Path) -> None:
    _fill(vault, 2)
    live = _indexed_and_saved(vault)
    live.search("espresso")  # the first hybrid search embeds the anchors, and saves them
    loaded = _engine(vault)
    loaded.load_saved_index(check_files=True)
    embedder = loaded.embedder
    assert isinstance(embedder, HashEmbedder)
    anchors = loaded.anchor_vectors()
    assert embedder.texts_embedded == 0
    assert np.array_equal(anchors, live.anchor_vectors())


def test_a_vault_that_becomes_an_obsidian_vault_is_titled_anew(vault: Path) -> None:
    """Obsidian opening the folder (``.obsidian/``) titles its notes by file name: an index
    saved before is not used, though every note file is as it was."""
    (vault / "garden-plan.md").write_text("# Tomatoes this year\n\nStake them early.\n", "utf-8")
    _indexed_and_saved(vault)
    before = _engine(vault)
    assert before.load_saved_index(check_files=True)
    hits = before.search("tomatoes stake", min_relevance=0.0)
    assert hits[0].title == "Tomatoes this year"
    (vault / ".obsidian").mkdir()
    after = _engine(vault)
    assert not after.load_saved_index(check_files=True)
    after.open()
    assert after.search("tomatoes stake", min_relevance=0.0)[0].title == "garden-plan"
    assert after.survey().waiting_chunks == 0  # the new titles' chunks are embedded
