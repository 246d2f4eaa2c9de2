"""``pixelmem status`` reports what is indexed and what waits, and never embeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.cli import main
from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.embeddings import factory
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault.store import MemoryStore


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> HashEmbedder:
    embedder = HashEmbedder()
    monkeypatch.setattr(factory, "create_embedder", lambda _settings: embedder)
    settings = Settings()
    settings.embedding.provider = "openai"  # the fake above; "auto" would record a choice
    settings.save(settings_path())
    return embedder


def _status(vault: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["status", "--json", "--vault", str(vault)]) == 0
    return json.loads(capsys.readouterr().out)


def _fill(vault: Path, n: int) -> MemoryStore:
    store = MemoryStore(vault)
    for i in range(n):
        store.create(f"Note {i}", f"Paragraph {i} about gardens and notes. " * 30)
    return store


def test_a_new_vault_is_reported_waiting_and_nothing_is_embedded(
    vault: Path, model: HashEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(vault, 6)
    status = _status(vault, capsys)
    assert model.texts_embedded == 0
    assert status["memories"] == 6 and status["chunks"] >= 6
    assert status["chunks_with_vectors"] == 0
    assert status["chunks_waiting"] == status["chunks"]
    assert main(["status", "--vault", str(vault)]) == 0
    text = capsys.readouterr().out
    assert "chunks waiting" in text and "pixelmem index embeds the" in text


def test_an_indexed_vault_and_one_edit_waiting(
    vault: Path, model: HashEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _fill(vault, 6)
    Engine(vault, Settings.load()).open()
    embedded = model.texts_embedded
    status = _status(vault, capsys)
    assert status["chunks_waiting"] == 0
    assert status["chunks_with_vectors"] == status["chunks"]
    assert status["stale_cache_entries"] == 0
    memory = store.list()[0]
    memory.body = "A new text about kettles, never embedded."
    store.update(memory)
    status = _status(vault, capsys)
    assert status["chunks_waiting"] == 1
    assert model.texts_embedded == embedded  # still nothing embedded by status
