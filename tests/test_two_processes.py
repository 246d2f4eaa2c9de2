"""Two processes, one vault: the app (in this process) and an MCP server writing at once.

Both embed through a fake OpenAI-compatible server on 127.0.0.1 (deterministic vectors per
text), so the vectors two processes compute for one chunk are equal and cheap.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from pathlib import Path

import pytest
from fake_servers import FakeServer
from fakes import CheckedWatcher, HashEmbedder
from test_mcp_server import McpClient, write_settings

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.signatures import file_signature, vault_signatures
from pixelmem.core.vault.store import MemoryStore

WRITES = 200


def test_watcher_reports_added_changed_and_removed_files(vault: Path) -> None:
    (vault / "a.md").write_text("a")
    (vault / "sub").mkdir()
    (vault / "sub" / "b.md").write_text("b")
    (vault / ".pixelmem").mkdir()
    (vault / ".pixelmem" / "hidden.md").write_text("not a memory")
    (vault / "image.png").write_bytes(b"\x89PNG")
    watcher = CheckedWatcher(vault)
    assert watcher.poll() == []  # the first poll is the baseline
    assert set(vault_signatures(vault)) == {str(vault / "a.md"), str(vault / "sub" / "b.md")}

    (vault / "c.md").write_text("c")
    (vault / "sub" / "b.md").unlink()
    MemoryStore(vault)  # a store over the folder changes nothing by itself
    assert watcher.poll() == [vault / "c.md", vault / "sub" / "b.md"]
    assert watcher.poll() == []

    # pixelmem saves by atomic rename: a new inode, even within one clock tick, same size
    store = MemoryStore(vault)
    memory = store.create("t", "one")
    watcher.poll()
    memory.body = "two"
    store.update(memory)
    assert watcher.poll() == [memory.path]


def test_watcher_survives_a_vanishing_vault(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "a.md").write_text("a")
    watcher = CheckedWatcher(vault)
    watcher.poll()
    (vault / "a.md").unlink()
    vault.rmdir()
    assert watcher.poll() == [vault / "a.md"]
    assert file_signature(vault / "a.md") is None


@pytest.fixture
def fake_embedder() -> FakeServer:
    with FakeServer(dim=16) as server:
        yield server


def test_app_and_mcp_server_write_one_vault_at_once(
    tmp_path: Path, fake_embedder: FakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    vault, config_dir = tmp_path / "vault", tmp_path / "config"
    vault.mkdir()
    settings = write_settings(
        config_dir,
        embedding__provider="openai",
        embedding__base_url=fake_embedder.openai_url,
        embedding__model="fake-embed",
        mcp_writes="direct",
    )
    app = Engine(vault, settings)
    app.writes.create("Seed", "The first memory, before anyone else writes.\n")
    app.open()
    client = McpClient(vault, config_dir, tmp_path / "server.log")
    try:
        app_ids, mcp_ids, errors, seconds = _write_concurrently(app, client)
        assert errors == []
        # the vault as the two writers left it, before either catches up with the other
        snapshot = tmp_path / "snapshot"
        shutil.copytree(vault, snapshot, ignore=shutil.ignore_patterns("*.lock"))

        # every write of both processes is on disk, readable, and nothing else is there
        store = MemoryStore(vault)
        scan = store.scan()
        assert scan.skipped == []
        on_disk = {m.id: m for m in scan.memories}
        assert set(app_ids) | set(mcp_ids) <= set(on_disk)
        assert len(on_disk) == 1 + 2 * WRITES
        assert all(on_disk[i].title.startswith("app note") for i in app_ids)
        assert all(on_disk[i].title.startswith("mcp note") for i in mcp_ids)

        # each process sees the other's writes
        listed = client.ok("list_memories", {"limit": 500})
        assert listed["total"] == len(on_disk)
        hit = client.ok("semantic_search", {"query": "app note 17 appword17", "mode": "keyword"})
        assert hit["results"][0]["id"] == app_ids[17]
        watcher_catch_up(app)
        assert len(app.store.list()) == len(on_disk)
        assert app.search("mcpword42", mode="keyword")[0].memory_id == mcp_ids[42]
    finally:
        client.close()

    # the cache: loads without a warning, holds exactly the vault's chunks, embeds nothing new
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        fresh = Engine(snapshot, Settings.load(config_dir / "settings.json"))
        report = fresh.open()
    assert [r.getMessage() for r in caplog.records if "cache" in r.getMessage().lower()] == []
    assert report.semantic_error == "" and report.warnings == []
    assert report.embedded == 0, f"{report.embedded} chunks were missing from the cache"
    assert report.reused == report.chunks
    assert fresh.status().stale_cache_entries == 0
    texts = [t for body in fake_embedder.bodies("/v1/embeddings") for t in body["input"]]
    print(
        f"\n{2 * WRITES} concurrent writes in {seconds:.1f} s; {len(texts)} texts embedded, "
        f"{len(set(texts))} distinct, {report.chunks} chunks"
    )


def _write_concurrently(app: Engine, client: McpClient) -> tuple[list, list, list, float]:
    app_ids: list[str] = []
    mcp_ids: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def app_writer() -> None:
        try:
            start.wait()
            watcher = CheckedWatcher(app.vault)
            watcher.poll()
            for i in range(WRITES):
                memory = app.writes.create(
                    f"app note {i}", f"Written by the app: appword{i}.\n"
                ).value
                app.reindex()
                app_ids.append(memory.id)
                if i % 10 == 9:  # the app's file watcher picks up the server's files now and then
                    for path in watcher.poll():
                        app.store.reload_path(path)
                    app.reindex()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=app_writer)
    began = time.monotonic()
    thread.start()
    start.wait()
    try:
        for i in range(WRITES):
            answer = client.ok(
                "add_memory", {"title": f"mcp note {i}", "content": f"From MCP: mcpword{i}."}
            )
            assert answer["status"] == "created"
            mcp_ids.append(answer["id"])
    finally:
        thread.join(timeout=300)
    return app_ids, mcp_ids, errors, time.monotonic() - began


def watcher_catch_up(engine: Engine) -> None:
    """What the app's file watcher does when the server wrote: re-read, then reindex."""
    engine.store.scan()
    engine.reindex()


# ---------------------------------------------------------------- the cache between processes
# Two engines on one vault stand in for two processes: each has its own EmbeddingCache object
# over the same file, exactly as the app and an MCP server do.


def _two_engines(vault: Path) -> tuple[Engine, HashEmbedder, Engine, HashEmbedder]:
    MemoryStore(vault).create("Seed", "Already there.\n")
    one, two = HashEmbedder(), HashEmbedder()
    first, second = Engine(vault, Settings(), embedder=one), Engine(vault, Settings(), embedder=two)
    first.open()
    second.open()
    return first, one, second, two


def test_a_vector_saved_by_one_process_is_not_embedded_again_by_the_other(vault: Path) -> None:
    first, _one, second, two = _two_engines(vault)
    first.writes.create("Written by the app", "A chunk the app embedded and saved.\n")
    first.reindex()
    before = two.texts_embedded

    second.store.scan()  # the server notices the new file
    second.reindex()

    assert two.texts_embedded == before


def test_a_save_never_drops_entries_another_process_just_added(vault: Path) -> None:
    first, _one, second, _two = _two_engines(vault)
    first.writes.create("Written by the app", "The app's chunk.\n")
    first.reindex()
    second.writes.create("Written by the server", "The server's chunk.\n")  # has not seen it
    second.reindex()

    report = Engine(vault, Settings(), embedder=HashEmbedder()).open()

    assert report.embedded == 0
