"""``pixelmem index``: a failure to embed anything is an exit code, not only a line of text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_servers import FakeServer, free_port

from pixelmem.cli import main
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore


@pytest.fixture
def server():
    with FakeServer(dim=8) as fake:
        yield fake


def configure(base_url: str) -> None:
    settings = Settings()
    settings.embedding.provider = "ollama"
    settings.embedding.base_url = base_url
    settings.save()


def index(vault: Path) -> int:
    return main(["index", "--vault", str(vault)])


@pytest.fixture
def memories(vault: Path) -> None:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.")
    store.create("Bike chain", "Lube the chain every 300 km.")


def test_an_index_that_embeds_exits_0(server: FakeServer, vault: Path, memories, capsys) -> None:
    configure(server.url)
    assert index(vault) == 0
    assert "2 embedded" in capsys.readouterr().out


def test_nothing_embedded_exits_1(vault: Path, memories, capsys) -> None:
    configure(f"http://127.0.0.1:{free_port()}")
    assert index(vault) == 1
    captured = capsys.readouterr()
    assert "semantic search unavailable: Ollama is not running" in captured.out
    assert captured.err.splitlines()[-1] == "pixelmem: nothing could be embedded"


def test_a_per_token_server_is_told_to_enable_pooling(
    server: FakeServer, vault: Path, memories, capsys
) -> None:
    per_token = json.dumps({"embeddings": [[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.6]]]})
    server.fail(status=200, body=per_token, path="/api/embed", times=10)
    configure(server.url)
    assert index(vault) == 1
    out = capsys.readouterr().out
    assert (
        "returns one vector per token: start it with pooling enabled (e.g. --pooling mean)" in out
    )
    assert "different lengths" not in out


def test_a_full_rebuild_with_an_unreachable_provider_keeps_the_cache(
    server: FakeServer, vault: Path, memories, capsys
) -> None:
    configure(server.url)
    assert index(vault) == 0
    cache = vault / ".pixelmem" / "embeddings.msgpack.zst"
    before = cache.read_bytes()
    configure(f"http://127.0.0.1:{free_port()}")  # the server went away
    assert main(["index", "--full", "--vault", str(vault)]) == 1
    err = capsys.readouterr().err
    assert "Ollama is not running" in err and "the embedding cache was kept" in err
    assert cache.read_bytes() == before
