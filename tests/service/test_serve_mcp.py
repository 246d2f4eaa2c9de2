"""MCP over Streamable HTTP at ``/mcp``, driven by the official client: the same tools as stdio,
answered by the same implementation, behind the same token and Host/Origin checks."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from serve_helpers import Server, running, search_ids, write_settings
from test_mcp_server import TOOLS, data_of, is_error, text_of

from pixelmem.core.vault.store import MemoryStore


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("serve-mcp")
    vault, config = root / "vault", root / "config"
    MemoryStore(vault).create("Greenhouse", "Open the greenhouse vents above 25 degrees.")
    write_settings(config, embedding__provider="local")  # mcp_writes: review (the default)
    with running(vault, config, root / "server.log") as served:
        served.wait_idle()
        yield served


@contextlib.asynccontextmanager
async def mcp_session(
    server: Server, token: str | None = None, statuses: list[int] | None = None
) -> AsyncIterator[ClientSession]:
    """A client session with the token; ``statuses`` collects every HTTP status seen."""
    token = server.token if token is None else token
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http_client = create_mcp_http_client(headers=headers)

    async def note(response: Any) -> None:
        if statuses is not None:
            statuses.append(response.status_code)

    http_client.event_hooks["response"].append(note)
    async with (
        http_client as http,
        streamable_http_client(f"{server.base}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def call(server: Server, name: str, arguments: dict[str, Any] | None = None) -> Any:
    async def run() -> Any:
        async with mcp_session(server) as session:
            return await session.call_tool(name, arguments or {})

    return asyncio.run(run())


def test_the_same_tools_as_stdio(server: Server) -> None:
    async def run() -> Any:
        async with mcp_session(server) as session:
            return (await session.list_tools()).tools

    tools = asyncio.run(run())
    assert {t.name for t in tools} == TOOLS


def test_search_and_add_over_http(server: Server) -> None:
    found = call(server, "semantic_search", {"query": "greenhouse ventilation", "limit": 3})
    assert not is_error(found), text_of(found)
    assert [r["title"] for r in data_of(found)["results"]] == ["Greenhouse"]

    added = data_of(call(server, "add_memory", {"title": "Seedlings", "content": "Harden off."}))
    assert added["status"] == "pending_review"  # review mode, like stdio
    drafts = list((server.vault / ".pixelmem" / "inbox").glob("*.md"))
    assert any(added["id"] in p.read_text("utf-8") for p in drafts)
    assert "source: mcp" in "".join(p.read_text("utf-8") for p in drafts)

    bad = call(server, "semantic_search", {"query": "   "})
    assert is_error(bad) and "query" in text_of(bad)


def test_a_direct_add_over_mcp_is_searchable_over_rest(server: Server) -> None:
    write_settings(server.config_dir, mcp_writes="direct")
    try:
        added = data_of(
            call(server, "add_memory", {"title": "Compost", "content": "Turn the compost heap."})
        )
        assert added["status"] == "created"
        assert added["id"] in search_ids(server.http, "turn the compost heap")
    finally:
        write_settings(server.config_dir, mcp_writes="review")


def test_no_or_a_wrong_token_is_refused(server: Server) -> None:
    async def run(token: str, statuses: list[int]) -> None:
        async with mcp_session(server, token, statuses) as session:
            await session.list_tools()

    for token in ("", "wrong"):
        statuses: list[int] = []
        with pytest.raises(BaseException, match="error"):
            asyncio.run(run(token, statuses))
        assert statuses == [401]


def test_rebinding_is_refused_on_mcp(server: Server) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream"}
    with server.client(headers=headers) as http:
        assert http.post("/mcp", json=init).status_code == 200
        assert http.post("/mcp", json=init, headers={"Host": "evil.example"}).status_code == 421
        evil = {"Origin": "http://evil.example"}
        assert http.post("/mcp", json=init, headers=evil).status_code == 403
    assert httpx.post(f"{server.base}/mcp", json=init, headers=headers).status_code == 401


def test_reindex_tool_while_a_rest_index_job_is_pending(server: Server) -> None:
    """The tool waits for the index lane while the lane re-reads the vault: no deadlock."""
    (server.vault / "orchard.md").write_text("# Orchard\n\nPrune the apple trees in winter.\n")
    job = server.http.post("/v1/index").json()
    result = call(server, "reindex_documents")
    assert not is_error(result), text_of(result)
    assert data_of(result)["memories"] >= 2
    assert server.http.get(job["url"]).json()["state"] in ("running", "done")
    assert "Orchard" in [r["title"] for r in data_of(call(server, "semantic_search", {
        "query": "prune apple trees"}))["results"]]  # fmt: skip


def test_sigterm_with_an_open_session_stops_promptly_and_cleanly(server: Server) -> None:
    """Last in this module: it stops the shared server."""

    stopped: list[float] = []

    async def run() -> None:
        async with mcp_session(server) as session:
            await session.list_tools()
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            while server.process.poll() is None:
                await asyncio.sleep(0.05)
            stopped.append(time.monotonic() - started)

    with contextlib.suppress(BaseException):  # the client sees its server go away
        asyncio.run(run())
    assert server.process.poll() is not None
    assert stopped and stopped[0] < 5
    assert "ERROR" not in server.log() and "service stopped" in server.log(), server.log()
