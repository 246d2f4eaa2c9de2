"""Writes under each ``mcp_writes`` setting, and a provider that is down: one server, whose
settings file changes between tests as the app would change it."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_helpers import Server, running, until, write_settings

from pixelmem.core.vault.store import MemoryStore

SECRET = "sk-test-NEVER-SHOW-THIS-0123456789"
URL_PASSWORD = "url-pass-NEVER-SHOWN-42"  # a password written into the base URL


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("serve-modes")
    vault, config = root / "vault", root / "config"
    store = MemoryStore(vault)
    store.create("Heat pump", "Bleed the radiators before winter; the heat pump runs better.")
    write_settings(config, embedding__provider="local")  # mcp_writes: review (the default)
    with running(vault, config, root / "server.log") as served:
        served.wait_idle()
        yield served


def _memory_id(server: Server) -> str:
    return str(server.http.get("/v1/memories").json()["memories"][0]["id"])


def test_review_mode_turns_a_new_memory_into_a_draft(server: Server) -> None:
    http = server.http
    answer = http.post("/v1/memories", json={"title": "Draft me", "body": "proposed"})
    assert answer.status_code == 202, answer.text
    draft = answer.json()
    assert draft["status"] == "pending_review" and draft["id"]
    inbox = server.vault / ".pixelmem" / "inbox"
    assert any(draft["id"] in p.read_text("utf-8") for p in inbox.glob("*.md"))
    assert http.get("/v1/memories").json()["total"] == 1  # not a memory yet

    memory_id = _memory_id(server)
    for method in ("PATCH", "DELETE"):
        refused = http.request(method, f"/v1/memories/{memory_id}", json={"title": "x"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "writes_need_direct"
        assert "mcp_writes" in refused.json()["error"]["message"]


def test_off_refuses_writes_but_records_still_reach_the_inbox(server: Server) -> None:
    write_settings(server.config_dir, mcp_writes="off")
    try:
        http = server.http
        refused = http.post("/v1/memories", json={"title": "No", "body": "x"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "writes_off"
        recorded = http.post("/v1/record", json={"title": "A record", "body": "for review"})
        assert recorded.status_code == 202, recorded.text
    finally:
        write_settings(server.config_dir, mcp_writes="review")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when this returns: nothing listens


def test_a_provider_that_is_down(server: Server, tmp_path: Path) -> None:
    """Hybrid search falls back to keywords with a note; semantic search answers 503; the
    provider's API key appears in no answer."""
    write_settings(
        server.config_dir,
        embedding__provider="openai",
        embedding__base_url=f"http://alice:{URL_PASSWORD}@127.0.0.1:{_closed_port()}/v1",
        embedding__model="text-embedding-3-small",
        embedding__api_key=SECRET,
        embedding__timeout="2",
    )
    http = server.http
    status = until(
        lambda: http.get("/v1/status").json(),
        lambda s: not s["indexing"] and s["semantic_search"] != "ok",
        30,
    )
    assert status["provider"] == "openai" and status["vectors"] == 0

    hybrid = http.get("/v1/search", params={"q": "heat pump radiators"})
    assert hybrid.status_code == 200, hybrid.text
    answer = hybrid.json()
    assert [r["title"] for r in answer["results"]] == ["Heat pump"]
    assert "keyword" in answer["note"]

    semantic = http.get("/v1/search", params={"q": "heat pump", "mode": "semantic"})
    assert semantic.status_code == 503, semantic.text
    assert semantic.json()["error"]["code"] == "provider_unavailable"

    exact = http.get("/v1/search", params={"q": "The heat pump", "mode": "exact"})
    assert exact.status_code == 200, exact.text  # the exact phrase asks no model: no note
    assert [r["title"] for r in exact.json()["results"]] == ["Heat pump"]
    assert not exact.json().get("note")

    job = http.post("/v1/index").json()
    done = until(lambda: http.get(job["url"]).json(), lambda j: j["state"] != "queued", 30)
    seen = [hybrid, semantic, http.get("/v1/status"), http.get("/v1/openapi.json")]
    seen += [http.get(job["url"]), http.get("/v1/memories"), http.get("/v1/nothing")]
    for response in seen:
        assert SECRET not in response.text
        assert SECRET[3:15] not in response.text
        assert URL_PASSWORD not in response.text
    assert "127.0.0.1" in status["semantic_search"]  # the address is named, masked
    assert SECRET not in json.dumps(done) and URL_PASSWORD not in json.dumps(done)
    assert SECRET not in server.log() and URL_PASSWORD not in server.log()
    with httpx.Client(base_url=server.base) as anonymous:
        assert SECRET not in anonymous.get("/v1/status").text
