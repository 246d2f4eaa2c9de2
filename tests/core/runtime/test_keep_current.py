"""Keeping a vault current, proven once for all three adapters over the runtime: the app (a
real main window), ``pixelmem serve`` (its ASGI app with its lifespan, over HTTP) and the MCP
server (its tools, through the official client, with the stdio freshness policy).

Each adapter reads through its own front door: the app's list, the REST API, the MCP tools.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import HashEmbedder

from pixelmem.cli import main
from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.embeddings import factory
from pixelmem.core.runtime.freshness import SERVICE, STDIO
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault.store import MemoryStore

ADAPTERS = ["app", "serve", "mcp"]
TIMEOUT = 10.0
NOTE = "---\ntitle: {title}\n---\n{body}\n"


def _settings() -> Settings:
    """The settings file every adapter reads (hashed vectors score low: show every match)."""
    settings = Settings()
    settings.search.min_relevance = 0.0
    settings.save(settings_path())
    return Settings.load(settings_path())


def _engine(vault: Path) -> Engine:
    return Engine(vault, _settings(), embedder=HashEmbedder(model="old"))


def _wait(probe: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


class AppAdapter:
    def __init__(self, vault: Path, qtbot: Any) -> None:
        from pixelmem.gui.window.main_window import MainWindow

        engine = _engine(vault)
        self.qtbot = qtbot
        self.window = MainWindow(engine, engine.settings)
        qtbot.addWidget(self.window)
        self.window._closing_ok = True
        with qtbot.waitSignal(self.window.session.indexing_finished, timeout=10_000):
            self.window.start()
        self.runtime = self.window.session.runtime
        qtbot.waitUntil(lambda: self.runtime.watcher.mode in ("native", "polling"))
        assert self.runtime.watcher.wait_ready(TIMEOUT)

    def wait(self, probe: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        self.qtbot.waitUntil(probe, timeout=int(timeout * 1000))

    def titles(self) -> set[str]:
        return {m.title for m in self.window.list_model.memories()}

    def search(self, query: str, mode: str = "keyword") -> list[str]:
        return [h.title for h in self.runtime.search(query, mode=mode)]

    def mcp_writes(self) -> str:
        return self.window.settings.mcp_writes

    def close(self) -> None:
        self.window.session.shutdown()


class ServeAdapter:
    def __init__(self, vault: Path) -> None:
        from starlette.testclient import TestClient

        from pixelmem.service.app import AppOptions, create_app
        from pixelmem.service.guard import GuardSettings

        self.runtime = VaultRuntime(_engine(vault), SERVICE, settings_file=settings_path())
        tools = PixelmemService(vault, SERVICE, runtime=self.runtime)
        guard = GuardSettings.for_bind("t" * 43, "127.0.0.1")
        app = create_app(tools, AppOptions(guard))
        self.http = TestClient(app, base_url="http://127.0.0.1:8733")
        self.http.headers["Authorization"] = "Bearer " + "t" * 43
        self.http.__enter__()  # the lifespan: the runtime starts (watcher, first index)
        _wait(lambda: not self.http.get("/v1/status").json()["indexing"])

    def wait(self, probe: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        _wait(probe, timeout)

    def titles(self) -> set[str]:
        answer = self.http.get("/v1/memories", params={"limit": 500})
        return {m["title"] for m in answer.json()["memories"]}

    def search(self, query: str, mode: str = "keyword") -> list[str]:
        answer = self.http.get("/v1/search", params={"q": query, "mode": mode})
        assert answer.status_code == 200, answer.text
        return [r["title"] for r in answer.json()["results"]]

    def mcp_writes(self) -> str:
        return str(self.http.get("/v1/status").json()["mcp_writes"])

    def close(self) -> None:
        self.http.__exit__(None, None, None)


class McpAdapter:
    """The MCP server's tools through the official client, in process (the stdio pipes
    themselves are tested with a real subprocess in tests/test_mcp_server.py)."""

    def __init__(self, vault: Path) -> None:
        from mcp import Client

        from pixelmem.mcp_server import build_server

        self.runtime = VaultRuntime(_engine(vault), STDIO, settings_file=settings_path())
        self.runtime.start()  # what the stdio server does on the first call
        self.tools = PixelmemService(vault, STDIO, runtime=self.runtime)
        self._client = Client(build_server(self.tools))
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._stop = asyncio.Event()
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._main = asyncio.run_coroutine_threadsafe(self._serve(ready), self._loop)
        ready.result(TIMEOUT)

    async def _serve(self, ready: concurrent.futures.Future[None]) -> None:
        async with self._client:
            ready.set_result(None)
            await self._stop.wait()

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        coro = self._client.call_tool(name, arguments or {})
        result = asyncio.run_coroutine_threadsafe(coro, self._loop).result(60)
        assert not result.is_error, result.content
        structured = result.structured_content
        return structured if isinstance(structured, dict) else json.loads(result.content[0].text)

    def wait(self, probe: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        _wait(probe, timeout)

    def titles(self) -> set[str]:
        return {m["title"] for m in self.call("list_memories", {"limit": 500})["memories"]}

    def search(self, query: str, mode: str = "keyword") -> list[str]:
        answer = self.call("semantic_search", {"query": query, "mode": mode, "limit": 20})
        return [r["title"] for r in answer["results"]]

    def mcp_writes(self) -> str:
        return str(self.call("get_rag_config")["mcpWrites"])

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._main.result(TIMEOUT)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(TIMEOUT)
        self._loop.close()
        self.tools.close()


@pytest.fixture(params=ADAPTERS)
def adapter(request: pytest.FixtureRequest, vault: Path) -> Iterator[Any]:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.")
    store.create("Tomato garden", "Water tomatoes deeply twice a week.")
    if request.param == "app":
        made: Any = AppAdapter(vault, request.getfixturevalue("qtbot"))
    elif request.param == "serve":
        made = ServeAdapter(vault)
    else:
        made = McpAdapter(vault)
    made.vault = vault
    try:
        yield made
    finally:
        made.close()


def _memory_file(vault: Path, title: str) -> Path:
    return next(m.path for m in MemoryStore(vault).list() if m.title == title and m.path)


def test_an_editors_rename_save_is_picked_up(adapter: Any) -> None:
    path = _memory_file(adapter.vault, "Tomato garden")
    temp = path.with_name(f".{path.name}.swp")  # how vim, VS Code and sync tools save
    text = path.read_text(encoding="utf-8").replace("Tomato garden", "Tomato bed")
    temp.write_text(text.replace("Water tomatoes", "Quokkas guard tomatoes"), encoding="utf-8")
    os.replace(temp, path)
    adapter.wait(lambda: "Tomato bed" in adapter.titles())
    adapter.wait(lambda: adapter.search("quokkas guard") == ["Tomato bed"])
    assert "Tomato garden" not in adapter.titles()


def test_a_new_folder_and_its_notes_are_picked_up(adapter: Any) -> None:
    folder = adapter.vault / "projects" / "lighthouse"
    folder.mkdir(parents=True)
    (folder / "keeper.md").write_text(NOTE.format(title="Keeper", body="Trim the lantern wick."))
    adapter.wait(lambda: "Keeper" in adapter.titles())
    adapter.wait(lambda: adapter.search("lantern wick") == ["Keeper"])


def test_a_deleted_file_is_dropped(adapter: Any) -> None:
    _memory_file(adapter.vault, "Espresso ratio").unlink()
    adapter.wait(lambda: "Espresso ratio" not in adapter.titles())
    adapter.wait(lambda: adapter.search("espresso") == [])


def test_a_burst_of_changes_is_indexed_in_a_few_runs(adapter: Any) -> None:
    before = adapter.runtime.lane.runs
    for i in range(40):
        (adapter.vault / f"burst {i}.md").write_text(
            NOTE.format(title=f"Burst {i}", body=f"burstword{i} in a burst of files")
        )
    adapter.wait(lambda: adapter.search("burstword39") == ["Burst 39"], 20)
    adapter.wait(lambda: not adapter.runtime.lane.busy)
    assert all(adapter.search(f"burstword{i}") == [f"Burst {i}"] for i in (0, 17, 38))
    assert adapter.runtime.lane.runs - before <= 6  # 40 files: folded, not one run each


def test_settings_saved_by_another_process_are_used(adapter: Any, capsys) -> None:
    assert adapter.mcp_writes() == "review"
    assert main(["config", "set", "mcp_writes", "direct"]) == 0
    capsys.readouterr()
    adapter.wait(lambda: adapter.mcp_writes() == "direct")


def test_keyword_answers_while_a_new_model_embeds(adapter: Any, monkeypatch, capsys) -> None:
    """Another model (here: set by another process) re-embeds the vault on the lane; searches
    meanwhile answer from the old snapshot with its own model, never a dimension error."""
    new = HashEmbedder(dim=96, model="new")
    gate, embedding = threading.Event(), threading.Event()
    original = new.embed_documents

    def gated(texts):  # type: ignore[no-untyped-def]
        embedding.set()
        assert gate.wait(20)
        return original(texts)

    new.embed_documents = gated  # type: ignore[method-assign]
    monkeypatch.setattr(factory, "create_embedder", lambda _settings: new)
    try:
        assert main(["config", "set", "embedding.model", "another-model"]) == 0
        capsys.readouterr()
        adapter.wait(lambda: embedding.is_set())
        assert adapter.search("espresso") == ["Espresso ratio"]
        assert adapter.search("espresso coffee", mode="hybrid")[:1] == ["Espresso ratio"]
        assert adapter.runtime.lane.busy  # still embedding with the new model
    finally:
        gate.set()
    adapter.wait(lambda: not adapter.runtime.lane.busy)
    assert adapter.runtime.engine.status().model_id == "fake:new"
    assert adapter.search("espresso coffee", mode="semantic")[:1] == ["Espresso ratio"]
