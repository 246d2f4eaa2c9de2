"""``pixelmem mcp`` driven by the official MCP client over stdio, as Claude Code would.

One server process (real local embedding model) serves most tests; tests that change the
embedding settings get their own server whose provider is a fake Ollama on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from doc_files import make_docx, make_pdf
from extraction_fakes import rule_model_reply
from fake_servers import FakeServer
from mcp import ClientSession, StdioServerParameters, stdio_client

from pixelmem import __version__
from pixelmem.cli import main
from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

TOOLS = {
    "semantic_search",
    "get_memory",
    "list_memories",
    "add_memory",
    "reindex_documents",
    "get_rag_config",
    "set_rag_config",
    "propose_memories_from_text",
}


class McpClient:
    """A real ``ClientSession`` over stdio on a background event loop, with a blocking API."""

    def __init__(self, vault: Path, config_dir: Path, errlog: Path) -> None:
        self.errlog = errlog
        env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(config_dir))
        env.pop("PIXELMEM_VAULT", None)
        self._params = StdioServerParameters(
            command=sys.executable, args=["-m", "pixelmem", "mcp", "--vault", str(vault)], env=env
        )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._session: ClientSession | None = None
        self._stop: asyncio.Event | None = None
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._main = asyncio.run_coroutine_threadsafe(self._serve(ready), self._loop)
        try:
            ready.result(timeout=60)
        except BaseException:
            self.close()
            raise

    async def _serve(self, ready: concurrent.futures.Future[None]) -> None:
        self._stop = asyncio.Event()
        try:
            with open(self.errlog, "w", encoding="utf-8") as err:
                async with (
                    stdio_client(self._params, errlog=err) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    self.initialized = await session.initialize()
                    self._session = session
                    ready.set_result(None)
                    await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def _run(self, coro: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def list_tools(self) -> list[Any]:
        assert self._session is not None
        return self._run(self._session.list_tools()).tools

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        assert self._session is not None
        return self._run(self._session.call_tool(name, arguments or {}))

    def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool that must succeed; its structured answer."""
        result = self.call(name, arguments)
        assert not is_error(result), text_of(result)
        return data_of(result)

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        with contextlib.suppress(Exception):  # the server's exit status is not under test
            self._main.result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


def is_error(result: Any) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def data_of(result: Any) -> dict[str, Any]:
    structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
    return structured if isinstance(structured, dict) else json.loads(text_of(result))


def write_settings(config_dir: Path, **changes: str) -> Settings:
    """Change the settings file a server reads (as the app would); keys are dotted names."""
    path = config_dir / "settings.json"
    settings = Settings.load(path)
    for key, value in changes.items():
        settings.set_key(key.replace("__", "."), value)
    settings.save(path)
    return settings


# ---------------------------------------------------------------- the shared server


class Served:
    def __init__(self, vault: Path, config_dir: Path, client: McpClient, ids: dict[str, str]):
        self.vault, self.config_dir, self.client, self.ids = vault, config_dir, client, ids


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("mcp")
    vault, config_dir = root / "vault", root / "config"
    vault.mkdir()
    config_dir.mkdir()
    Settings().save(config_dir / "settings.json")
    store = MemoryStore(vault)
    ids = {
        "bread": store.create(
            "Sourdough starter",
            "Feed the starter twice a day with equal weights of flour and water. "
            "Keep it at room temperature so the yeast stays active.\n",
            topics=["baking"],
        ).id,
        "rust": store.create(
            "Rust borrow checker",
            "A value has one owner; references must not outlive it. Use lifetimes to explain "
            "to the compiler how long a reference lives.\n",
            topics=["rust", "programming"],
            importance="high",
        ).id,
        "kyoto": store.create(
            "Kyoto trip",
            "Fushimi Inari early in the morning, then tofu in Arashiyama.\n",
            topics=["travel"],
        ).id,
    }
    (vault / "plain.md").write_text("# Plain file\n\nWritten by another editor.\n")
    client = McpClient(vault, config_dir, root / "server.log")
    try:
        yield Served(vault, config_dir, client, ids)
    finally:
        client.close()


def test_the_server_reports_pixelmems_version(served: Served) -> None:
    info = served.client.initialized.server_info
    assert (info.name, info.version) == ("pixelmem", __version__)


def test_tools_are_listed_with_schemas(served: Served) -> None:
    tools = {t.name: t for t in served.client.list_tools()}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 20
    schema = _schema(tools["semantic_search"])
    assert schema["required"] == ["query"]
    limit = schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 20, 5)
    assert schema["properties"]["mode"]["enum"] == ["hybrid", "semantic", "keyword", "exact"]
    add = _schema(tools["add_memory"])
    assert set(add["properties"]) == {"title", "content", "topics", "importance"}
    assert set(add["required"]) == {"title", "content"}
    assert add["properties"]["importance"]["enum"] == ["low", "medium", "high"]
    assert _schema(tools["get_memory"])["required"] == ["id"]
    assert set(_schema(tools["set_rag_config"])["properties"]) == {
        "provider",
        "baseUrl",
        "model",
        "apiKey",
    }


def test_tools_say_what_they_do_to_the_data(served: Served) -> None:
    tools = {t.name: t for t in served.client.list_tools()}
    for name in ("semantic_search", "get_memory", "list_memories", "get_rag_config"):
        assert tools[name].annotations.read_only_hint is True, name
    assert tools["add_memory"].annotations.destructive_hint is False  # a proposal, a new file
    assert tools["set_rag_config"].annotations.destructive_hint is True  # re-embeds the vault
    # Only proposing from text reaches beyond the vault: it asks the user's chat model.
    assert tools["propose_memories_from_text"].annotations.open_world_hint is True
    assert tools["propose_memories_from_text"].annotations.destructive_hint is False
    others = [t for name, t in tools.items() if name != "propose_memories_from_text"]
    assert all(t.annotations.open_world_hint is False for t in others)


def _schema(tool: Any) -> dict[str, Any]:
    return getattr(tool, "input_schema", None) or tool.inputSchema


def test_search_finds_the_memory_by_meaning(served: Served) -> None:
    answer = served.client.ok(
        "semantic_search", {"query": "how often do I feed my bread yeast culture?"}
    )
    top = answer["results"][0]
    assert top["id"] == served.ids["bread"]
    assert top["title"] == "Sourdough starter"
    assert top["text"].startswith("Feed the starter twice a day")  # the full body
    assert top["snippet"] and 0 < top["score"] <= 1.5
    assert Path(top["path"]).parent == served.vault
    assert "note" not in answer  # semantic search is available


def test_keyword_mode_and_limit(served: Served) -> None:
    answer = served.client.ok(
        "semantic_search", {"query": "Fushimi Inari", "mode": "keyword", "limit": 1}
    )
    assert [r["id"] for r in answer["results"]] == [served.ids["kyoto"]]


def test_nothing_found_says_so(served: Served) -> None:
    answer = served.client.ok("semantic_search", {"query": "qzxv wplkj", "mode": "semantic"})
    assert answer["results"] == []
    assert answer["message"].startswith("Nothing relevant to")


def test_get_and_list_memories(served: Served) -> None:
    memory = served.client.ok("get_memory", {"id": served.ids["rust"]})
    assert memory["title"] == "Rust borrow checker"
    assert memory["topics"] == ["rust", "programming"] and memory["importance"] == "high"
    assert memory["body"].startswith("A value has one owner") and memory["created"]
    by_prefix = served.client.ok("get_memory", {"id": served.ids["rust"][:8]})  # as the CLI
    assert by_prefix["id"] == served.ids["rust"]

    listed = served.client.ok("list_memories", {"topic": "RUST"})
    assert [m["id"] for m in listed["memories"]] == [served.ids["rust"]]
    everything = served.client.ok("list_memories", {"limit": 2})
    assert everything["total"] >= 4 and len(everything["memories"]) == 2
    assert "body" not in everything["memories"][0]


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("semantic_search", {"query": ""}, "non-empty"),
        ("semantic_search", {"query": "   "}, "non-empty"),
        ("semantic_search", {"query": "a\0b"}, "NUL"),
        ("semantic_search", {"query": "x", "limit": 0}, "limit"),
        ("semantic_search", {"query": "x", "limit": 21}, "limit"),
        ("semantic_search", {"query": "x", "limit": "many"}, "limit"),
        ("semantic_search", {"query": "x", "mode": "fuzzy"}, "mode"),
        ("semantic_search", {}, "query"),
        ("get_memory", {"id": "../../etc/passwd"}, "invalid memory id"),
        ("get_memory", {"id": "/etc/passwd"}, "invalid memory id"),
        ("get_memory", {"id": "notes\\..\\..\\x"}, "invalid memory id"),
        ("get_memory", {"id": "a\0b"}, "invalid memory id"),
        ("get_memory", {"id": ""}, "invalid memory id"),
        ("get_memory", {"id": "0123456789abcdef0123456789abcdef"}, "no memory with id"),
        ("list_memories", {"limit": 0}, "limit"),
        ("add_memory", {"title": "t", "content": "x", "importance": "urgent"}, "importance"),
        ("add_memory", {"title": "", "content": "x"}, "title"),
        ("add_memory", {"title": "t", "content": "a\0b"}, "NUL"),
        ("add_memory", {"content": "x"}, "title"),
        ("set_rag_config", {}, "at least one"),
        ("no_such_tool", {}, "no_such_tool"),
    ],
)
def test_bad_arguments_are_tool_errors(
    served: Served, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    result = served.client.call(tool, arguments)
    assert is_error(result)
    assert expected.lower() in text_of(result).lower()
    # One short line a model can act on: no pydantic dump, no links to its docs.
    assert "\n" not in text_of(result) and "pydantic" not in text_of(result)
    assert "validation error" not in text_of(result) and len(text_of(result)) < 300


def test_the_server_survives_bad_calls(served: Served) -> None:
    for bad in ("../../etc/passwd", "..", "C:\\Windows", "x" * 10_000):
        assert is_error(served.client.call("get_memory", {"id": bad}))
    assert len(served.client.list_tools()) == len(TOOLS)
    assert not (served.vault.parent / "etc").exists()


def test_add_memory_waits_in_the_inbox_by_default(served: Served) -> None:
    answer = served.client.ok(
        "add_memory",
        {"title": "Draft idea", "content": "Proposed by a client.", "topics": ["ideas"]},
    )
    assert answer["status"] == "pending_review" and "review" in answer["message"]
    draft = Inbox(served.vault).get(answer["id"])
    assert draft.title == "Draft idea" and draft.topics == ["ideas"]
    assert draft.source and draft.source.startswith("mcp")
    refused = served.client.call("get_memory", {"id": answer["id"]})
    assert is_error(refused) and "inbox" in text_of(refused)
    assert served.client.ok("list_memories", {})["pending_drafts"] >= 1


def test_add_memory_direct_and_off_follow_the_setting(served: Served) -> None:
    try:
        write_settings(served.config_dir, mcp_writes="direct")
        created = served.client.ok(
            "add_memory",
            {"title": "Heron sighting", "content": "A grey heron by the canal at dawn."},
        )
        assert created["status"] == "created"
        assert Path(created["path"]).read_text(encoding="utf-8").endswith("canal at dawn.\n")
        found = served.client.ok("semantic_search", {"query": "grey heron canal"})
        assert found["results"][0]["id"] == created["id"]  # indexed right away

        write_settings(served.config_dir, mcp_writes="off")
        refused = served.client.call("add_memory", {"title": "t", "content": "x"})
        assert is_error(refused) and "mcp_writes" in text_of(refused)
    finally:
        write_settings(served.config_dir, mcp_writes="review")


def test_a_time_in_the_query_and_since_until(served: Served) -> None:
    found = served.client.ok("semantic_search", {"query": "sourdough starter this year"})
    assert found["time"]["fromQuery"]["text"] == "this year"
    assert found["results"][0]["id"] == served.ids["bread"]
    kept = served.client.ok(
        "semantic_search", {"query": "sourdough starter", "until": "2001-01-01"}
    )
    assert kept["results"] == [] and kept["time"]["filter"]["end"].startswith("2001-01-02")
    refused = served.client.call("semantic_search", {"query": "x", "since": "someday"})
    assert is_error(refused) and "not a date" in text_of(refused)


def test_propose_memories_from_text_waits_in_the_inbox(served: Served) -> None:
    with FakeServer(chat_responder=rule_model_reply) as chat:
        write_settings(served.config_dir, chat__provider="openai", chat__base_url=chat.openai_url)
        try:
            text = "User: I prefer rye flour for the starter.\nAssistant: Rye is lively."
            answer = served.client.ok("propose_memories_from_text", {"text": text})
        finally:
            write_settings(served.config_dir, chat__provider="")
    assert answer["status"] == "pending_review"
    [proposed] = answer["proposed"]
    assert proposed["kind"] == "preference"
    draft = Inbox(served.vault).get(proposed["id"])
    assert "rye flour" in draft.body and draft.source and draft.source.startswith("mcp")
    assert any("Yacht" in reason for reason in answer["setAside"])
    empty = served.client.call("propose_memories_from_text", {"text": "  "})
    assert is_error(empty)


def test_changes_by_another_process_are_picked_up(served: Served) -> None:
    store = MemoryStore(served.vault)
    memory = store.create("Marmalade", "Seville oranges, sugar, a long slow boil.\n")
    found = served.client.ok("semantic_search", {"query": "Seville oranges", "mode": "keyword"})
    assert [r["id"] for r in found["results"]][:1] == [memory.id]

    memory.body = "Blood oranges this year.\n"
    store.update(memory)
    assert served.client.ok("get_memory", {"id": memory.id})["body"] == "Blood oranges this year.\n"

    store.delete(memory.id)
    gone = served.client.call("get_memory", {"id": memory.id})
    assert is_error(gone) and "no memory" in text_of(gone)


def test_imported_pdf_and_docx_reach_mcp_clients(served: Served, tmp_path: Path) -> None:
    pdf, word = tmp_path / "quokkas.pdf", tmp_path / "report.docx"
    make_pdf(pdf, ["Quokkas live on Rottnest Island"], title="Quokka facts")
    make_docx(word, title="Quarterly report")
    assert main(["import", str(pdf), str(word), "--vault", str(served.vault)]) == 0

    found = served.client.ok("semantic_search", {"query": "Rottnest quokkas", "limit": 1})
    memory = served.client.ok("get_memory", {"id": found["results"][0]["id"]})
    assert memory["title"] == "Quokka facts" and memory["source"] == str(pdf.resolve())
    assert "Rottnest Island" in memory["body"]
    report = served.client.ok("semantic_search", {"query": "Section two", "mode": "keyword"})
    assert report["results"][0]["title"] == "Quarterly report"


def test_reindex_reports_skipped_files(served: Served) -> None:
    bad = served.vault / "broken.md"
    bad.write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")
    try:
        report = served.client.ok("reindex_documents")
        assert report["memories"] >= 4 and report["chunks"] >= report["memories"]
        assert report["semantic_search"] == "available"
        skipped = {Path(s["path"]).name: s["reason"] for s in report["skipped"]}
        assert "YAML" in skipped["broken.md"]
        assert bad.read_bytes() == b"---\ntitle: [unclosed\n---\nbody\n"  # left alone
    finally:
        bad.unlink()


# ---------------------------------------------------------------- settings over MCP


def test_rag_config_masks_and_merges(tmp_path: Path) -> None:
    vault, config_dir = tmp_path / "vault", tmp_path / "config"
    vault.mkdir()
    MemoryStore(vault).create("Note", "Something to embed.\n")
    with FakeServer(dim=16) as fake:
        write_settings(config_dir, search__top_k="7", rerank__api_key="rr-secret-key")
        client = McpClient(vault, config_dir, tmp_path / "server.log")
        try:
            shown = client.ok("get_rag_config")
            assert shown["embedding"]["provider"] == "auto"
            assert shown["rerank"]["apiKey"] == "***"

            first = client.ok("set_rag_config", {"provider": "ollama", "baseUrl": fake.url})
            assert first["reindex"]["embedded"] >= 1  # the new provider embedded the vault
            answer = client.ok("set_rag_config", {"model": "all-minilm", "apiKey": "sk-zz9"})
            assert answer["changed"] == ["apiKey", "model"]
            assert answer["embedding"] == {
                "provider": "ollama",
                "baseUrl": fake.url,
                "model": "all-minilm",
                "apiKey": "***",
            }
            assert answer["reindex"]["embedded"] >= 1  # another model: its own vectors

            text = text_of(client.call("get_rag_config"))
            assert "sk-zz9" not in text and "rr-secret-key" not in text

            saved = Settings.load(config_dir / "settings.json")
            assert saved.embedding.api_key == "sk-zz9" and saved.search.top_k == 7
            assert saved.rerank.api_key == "rr-secret-key"

            bad = client.call("set_rag_config", {"baseUrl": "ftp://example.org"})
            assert is_error(bad) and "http" in text_of(bad)
            assert is_error(client.call("set_rag_config", {"provider": "bogus"}))
            assert Settings.load(config_dir / "settings.json").embedding.base_url == fake.url

            hits = client.ok("semantic_search", {"query": "something"})
            assert hits["results"] and "note" not in hits
            assert any(r.path == "/api/embed" for r in fake.requests)

            write_settings(config_dir, mcp_writes="off")
            refused = client.call("set_rag_config", {"model": "other"})
            assert is_error(refused) and "mcp_writes" in text_of(refused)
        finally:
            client.close()
    log = (tmp_path / "server.log").read_text()
    assert "changed the embedding settings" in log  # logging goes to stderr
    assert "sk-zz9" not in log


def test_a_missing_vault_is_an_error_not_a_new_vault(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pixelmem", "mcp", "--vault", str(missing)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1 and "does not exist" in done.stderr
    assert done.stdout == "" and not missing.exists()
    assert time.monotonic() - start < 30
