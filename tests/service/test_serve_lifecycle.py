"""Shutdown and sharing: SIGTERM during a burst of writes loses nothing; the service and another
process (the app's engine, here in the test process) write one vault at the same time."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from fakes import CheckedWatcher
from serve_helpers import Server, running, search_ids, until, write_settings

from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

CLIENTS = 6


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    vault, config = tmp_path / "vault", tmp_path / "config"
    MemoryStore(vault).create("Seed", "The first memory.")
    write_settings(config, embedding__provider="local", mcp_writes="direct")
    return vault, config


def test_sigterm_during_a_burst_of_writes_loses_nothing(tmp_path: Path) -> None:
    vault, config = _setup(tmp_path)
    server = Server(vault, config, tmp_path / "server.log")
    try:
        server.wait_idle()
        acknowledged: dict[str, tuple[str, str]] = {}  # id -> (title, body) the server confirmed
        lock = threading.Lock()
        stop = threading.Event()

        def client(n: int) -> None:
            with server.client() as http:
                i = 0
                while not stop.is_set():
                    title, body = f"Burst {n}-{i}", f"written by client {n}, number {i}"
                    try:
                        answer = http.post("/v1/memories", json={"title": title, "body": body})
                    except httpx.HTTPError:
                        return  # the server has gone: this write was never acknowledged
                    if answer.status_code != 201:
                        return
                    edited = body + " (edited)"
                    memory = answer.json()
                    with lock:
                        acknowledged[memory["id"]] = (title, body)
                    try:
                        patch = http.patch(
                            f"/v1/memories/{memory['id']}",
                            json={"body": edited},
                            headers={"If-Match": memory["etag"]},
                        )
                    except httpx.HTTPError:
                        return
                    if patch.status_code == 200:
                        with lock:
                            acknowledged[memory["id"]] = (title, edited)
                    i += 1

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        until(lambda: len(acknowledged), lambda n: n >= 30, 60)
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(60)
        stop.set()
        for thread in threads:
            thread.join(30)
    finally:
        server.stop()
    # uvicorn shuts down cleanly, then re-raises the signal so the exit says what ended it
    assert code in (0, -signal.SIGTERM), server.log()
    assert "service stopped" in server.log() and "Traceback" not in server.log(), server.log()

    on_disk = {m.id: m for m in MemoryStore(vault).list()}
    assert not MemoryStore(vault).skipped
    for memory_id, (title, body) in acknowledged.items():
        memory = on_disk[memory_id]  # every acknowledged write is on disk and parses
        assert (memory.title, memory.body.strip()) == (title, body)
    # the index cache was saved on the way out: a fresh engine embeds nothing
    engine = Engine(vault, _local())
    assert engine.open().embedded == 0


def _local() -> Settings:
    settings = Settings()
    settings.embedding.provider = "local"
    return settings


def test_the_service_and_another_process_share_a_vault(tmp_path: Path) -> None:
    """The app (an engine in this process, polling like the GUI's watcher) and the service
    write at once; each sees the other's memories, nothing is lost, the caches merge."""
    vault, config = _setup(tmp_path)
    app = Engine(vault, _local())
    app.open()
    watcher = CheckedWatcher(vault)
    watcher.poll()
    with running(vault, config, tmp_path / "server.log") as server:
        server.wait_idle()
        rest_ids: list[str] = []

        def service_writes() -> None:
            with server.client() as http:
                for i in range(10):
                    body = {"title": f"Service note {i}", "body": f"lighthouse keeper log {i}"}
                    answer = http.post("/v1/memories", json=body)
                    assert answer.status_code == 201, answer.text
                    rest_ids.append(answer.json()["id"])

        writer = threading.Thread(target=service_writes)
        writer.start()
        app_ids = [
            app.writes.create(f"App note {i}", f"orchard apple variety {i}").value.id
            for i in range(10)
        ]
        writer.join(60)
        assert len(rest_ids) == 10

        # the app picks up the service's files, as its watcher does
        time.sleep(0.2)
        app.writes.reload_paths(watcher.poll())
        app.reindex()
        assert {*rest_ids, *app_ids} <= {m.id for m in app.store.list()}
        assert set(rest_ids) & {h.memory_id for h in app.search("lighthouse keeper log", k=20)}

        # and the service finds the app's memories without being told
        until(
            lambda: search_ids(server.http, "orchard apple variety", top_k=20),
            lambda found: set(app_ids) <= set(found),
            5,
        )
        status = server.http.get("/v1/status").json()
        assert status["memories"] == 21
    on_disk = {m.id for m in MemoryStore(vault).list()}
    assert {*rest_ids, *app_ids} <= on_disk and len(on_disk) == 21
    fresh = Engine(vault, _local()).open()
    assert fresh.embedded == 0 and not fresh.warnings


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1"])
def test_binding_beyond_loopback_needs_a_flag(tmp_path: Path, host: str) -> None:
    vault, config = _setup(tmp_path)
    env = {"PIXELMEM_CONFIG_DIR": str(config), "PATH": "/usr/bin:/bin"}
    refused = subprocess.run(
        [sys.executable, "-m", "pixelmem", "serve", "--vault", str(vault), "--host", host],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1
    assert "--allow-remote" in refused.stderr


def test_a_polled_vault_is_followed_too(tmp_path: Path) -> None:
    """Network and container mounts that send no file events: WATCHFILES_FORCE_POLLING=1."""
    vault, config = _setup(tmp_path)
    log = tmp_path / "server.log"
    with running(vault, config, log, WATCHFILES_FORCE_POLLING="1") as server:
        server.wait_idle()
        assert server.http.get("/v1/status").json()["watching"] == "polling"
        (vault / "sub").mkdir()
        (vault / "sub" / "lantern.md").write_text("# Lantern\n\nTrim the lantern wick.\n")
        until(lambda: search_ids(server.http, "trim the lantern wick"), bool, 2.5)
