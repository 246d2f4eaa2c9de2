"""The MCP tools' logic as plain synchronous Python over one vault's runtime.

:class:`PixelmemService` answers each tool call (the SDK runs each one on a worker thread); the
stdio server (:mod:`pixelmem.mcp_server`) and ``pixelmem serve`` both publish it. The runtime
is opened on the first call (the embedding model loads with the first index run); before each
call it catches up as its :class:`~pixelmem.core.runtime.freshness.Freshness` says. The
answers' shapes are :mod:`answers`.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from pixelmem.core.archive.inbox import DraftNotFound, Inbox, checked_text
from pixelmem.core.errors import MemoryNotFound, PixelmemError
from pixelmem.core.index.engine import Engine, SearchFilters, SearchHit
from pixelmem.core.index.time_search import TimedHits, range_argument, time_search
from pixelmem.core.runtime.answers import (
    draft_answer,
    hit_json,
    hits_with_memories,
    newest_first,
    rag_config,
    search_answer,
    semantic_state,
    time_json,
)
from pixelmem.core.runtime.freshness import STDIO, Freshness
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.core.search_mode import DEFAULT_MODE, SearchMode
from pixelmem.core.settings import Settings
from pixelmem.core.vault import ids
from pixelmem.core.vault.memory_json import display_path, memory_json

log = logging.getLogger(__name__)

MAX_SEARCH_LIMIT = 20
MAX_LIST_LIMIT = 500
MAX_QUERY_CHARS = 4000
MAX_PROPOSAL_CHARS = 200_000
RAG_FIELDS = {  # set_rag_config argument -> settings key
    "provider": "embedding.provider",
    "baseUrl": "embedding.base_url",
    "model": "embedding.model",
    "apiKey": "embedding.api_key",
}
WRITES_OFF = (
    "Writing over MCP is turned off for this vault. The user can allow it in the pixelmem app "
    "(Settings → MCP writes: review or direct) or with `pixelmem config set mcp_writes review`."
)


class InvalidArgument(PixelmemError):
    """A tool argument the server refuses, with the reason."""


class PixelmemService:
    """The tools' logic over one vault; thread-safe."""

    def __init__(
        self,
        vault: Path,
        freshness: Freshness = STDIO,
        *,
        runtime: VaultRuntime | None = None,
    ) -> None:
        self.vault = Path(vault)
        self.inbox = Inbox(self.vault)
        self.freshness = freshness
        self._runtime = runtime
        self._opening = threading.Lock()

    @property
    def runtime(self) -> VaultRuntime:
        """The vault's runtime, opened and started on first use."""
        if self._runtime is None:
            with self._opening:
                if self._runtime is None:
                    runtime = VaultRuntime.open(self.vault, self.freshness)
                    runtime.start()
                    self._runtime = runtime
        return self._runtime

    def close(self) -> None:
        if self._runtime is not None:
            self._runtime.stop()

    def current_engine(self) -> Engine:
        """The engine with its store (and settings) as current as the policy asks."""
        runtime = self.runtime
        runtime.before_call()
        return runtime.engine

    # -- tools -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        mode: str = DEFAULT_MODE,
        topic: str | None = None,
        max_limit: int = MAX_SEARCH_LIMIT,
        since: str | None = None,
        until: str | None = None,
    ) -> tuple[Engine, list[SearchHit]]:
        """The engine and its hits: the one search both transports (MCP, REST) answer from."""
        engine, found = self.timed_search(
            query, limit=limit, mode=mode, topic=topic, max_limit=max_limit,
            since=since, until=until,
        )  # fmt: skip
        return engine, found.hits

    def timed_search(
        self,
        query: str,
        *,
        limit: int = 5,
        mode: str = DEFAULT_MODE,
        topic: str | None = None,
        max_limit: int = MAX_SEARCH_LIMIT,
        since: str | None = None,
        until: str | None = None,
    ) -> tuple[Engine, TimedHits]:
        """:meth:`search` with the time read from the query and the ``since``/``until``
        filter. No lock: the search reads the engine's immutable snapshot, so any number of
        searches run side by side, and beside writes and indexing."""
        query = _checked_query(query)
        _check_range("limit", limit, 1, max_limit)
        if mode not in tuple(SearchMode):
            raise InvalidArgument(f"mode must be one of {', '.join(SearchMode)}, not {mode!r}")
        topic = (topic or "").strip() or None
        start, end = _time_arguments(since, until)
        engine = self.current_engine()
        filters = SearchFilters(topic=topic) if topic else None
        self.runtime.wait_searchable(self.freshness.search_waits)
        found = time_search(
            engine, query, mode=mode, k=limit, filters=filters, since=start, until=end
        )
        return engine, found

    def semantic_search(
        self,
        query: str,
        limit: int = 5,
        mode: str = DEFAULT_MODE,
        since: str | None = None,
        until: str | None = None,
    ) -> dict[str, Any]:
        engine, found = self.timed_search(query, limit=limit, mode=mode, since=since, until=until)
        hits = found.hits
        results = [hit_json(hit, memory) for hit, memory in hits_with_memories(engine, hits)]
        answer = search_answer(engine, query.strip(), mode, results)
        if found.range is not None or found.limit is not None:
            answer["time"] = time_json(found)
        return answer

    def get_memory(self, memory_id: str) -> dict[str, Any]:
        memory_id = ids.validate_id(memory_id)
        engine = self.current_engine()
        try:
            return memory_json(engine.store.find(memory_id), with_body=True)
        except MemoryNotFound:
            try:
                self.inbox.get(memory_id)
            except DraftNotFound:
                raise MemoryNotFound(memory_id) from None
            raise InvalidArgument(
                f"{memory_id!r} is a draft waiting in the review inbox; it becomes a memory "
                "when the user accepts it in the pixelmem app"
            ) from None

    def list_memories(self, topic: str | None = None, limit: int = 50) -> dict[str, Any]:
        _check_range("limit", limit, 1, MAX_LIST_LIMIT)
        memories = newest_first(self.current_engine().store.list(), topic or "")
        return {
            "total": len(memories),
            "memories": [memory_json(m, with_body=False) for m in memories[:limit]],
            "pending_drafts": self.inbox.count(),
        }

    def add_memory(
        self,
        title: str,
        content: str,
        topics: list[str] | None = None,
        importance: str = "medium",
        client: str = "",
    ) -> dict[str, Any]:
        topics = [t for t in (topics or []) if t.strip()]
        checked_text(title, content, topics)
        source = f"mcp:{client}" if client else "mcp"
        mode = self.current_engine().settings.mcp_writes
        if mode == "off":
            raise InvalidArgument(WRITES_OFF)
        if mode != "direct":
            return draft_answer(self.inbox.add(title, content, topics, importance, source))
        memory = self.runtime.write(  # waits (a while) until it is searchable
            lambda writes: writes.create(
                title, content, topics=topics, importance=importance, source=source
            )
        ).value
        return {
            "status": "created",
            "id": memory.id,
            "title": memory.title,
            "path": display_path(memory.path),
            "message": "The memory was saved in the vault and indexed.",
        }

    def propose_memories_from_text(
        self, text: str, title: str = "", client: str = ""
    ) -> dict[str, Any]:
        """Memories the vault's chat model finds in ``text``, as review-inbox proposals."""
        from pixelmem.core.assist.extraction import messages_from_text, propose_from_messages

        if not isinstance(text, str) or not text.strip() or "\0" in text:
            raise InvalidArgument("text must be a non-empty text without NUL characters")
        if len(text) > MAX_PROPOSAL_CHARS:
            raise InvalidArgument(f"text is longer than {MAX_PROPOSAL_CHARS:,} characters")
        engine = self.current_engine()
        self.runtime.wait_searchable(self.freshness.search_waits)  # it searches the vault
        if engine.settings.mcp_writes == "off":
            raise InvalidArgument(WRITES_OFF)
        source = f"mcp:{client}" if client else "mcp"
        report = propose_from_messages(
            engine, self.inbox, engine.settings.chat, messages_from_text(text), source=source
        )
        proposed = [
            {"id": d.id, "title": d.title, "proposal": d.extra.get("proposal", "new"),
             "target": d.extra.get("target"), "kind": d.extra.get("kind")}
            for d in report.drafts
        ]  # fmt: skip
        return {
            "status": "pending_review",
            "proposed": proposed,
            "setAside": report.dropped,
            "message": f"{len(proposed)} proposal(s){' from ' + title if title else ''} wait in "
            "the review inbox; they become memories only when the user accepts them in the "
            "pixelmem app.",
        }

    def reindex_documents(self) -> dict[str, Any]:
        engine = self.current_engine()
        report = self.runtime.reindex_now(rescan=True)
        return {
            "memories": report.memories,
            "chunks": report.chunks,
            "embedded": report.embedded,
            "from_cache": report.reused,
            "skipped": [
                {"path": display_path(s.path), "reason": s.reason} for s in engine.store.skipped
            ],
            "semantic_search": semantic_state(engine),
            "warnings": list(report.warnings),
        }

    def get_rag_config(self) -> dict[str, Any]:
        return rag_config(self.current_engine())

    def set_rag_config(
        self,
        provider: str | None = None,
        baseUrl: str | None = None,  # camelCase: the tool's argument names
        model: str | None = None,
        apiKey: str | None = None,
    ) -> dict[str, Any]:
        given = {"provider": provider, "baseUrl": baseUrl, "model": model, "apiKey": apiKey}
        changes = {name: value for name, value in given.items() if value and value.strip()}
        if not changes:
            raise InvalidArgument("give at least one of provider, baseUrl, model, apiKey")
        engine = self.current_engine()
        runtime = self.runtime
        before = Settings.load(runtime.settings_file)
        if before.mcp_writes == "off":
            raise InvalidArgument(WRITES_OFF)
        settings = before.copy()
        for name, value in changes.items():
            settings.set_key(RAG_FIELDS[name], value)
        settings = settings.save_changes(before, runtime.settings_file)
        runtime.switch_settings(settings, request=False)  # the run below applies them
        shown = {k: ("***" if k == "apiKey" else v) for k, v in changes.items()}
        log.warning("an MCP client changed the embedding settings: %s", shown)
        report = runtime.reindex_now()
        answer = rag_config(engine)
        answer["changed"] = sorted(changes)
        answer["reindex"] = {"embedded": report.embedded, "chunks": report.chunks}
        return answer


def _time_arguments(
    since: str | None, until: str | None
) -> tuple[datetime | None, datetime | None]:
    try:
        start = range_argument(since).start if since and since.strip() else None
        end = range_argument(until).end if until and until.strip() else None
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
    return start, end


def _checked_query(query: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InvalidArgument("query must be a non-empty text")
    if "\0" in query:
        raise InvalidArgument("query contains a NUL character")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidArgument(f"query is longer than {MAX_QUERY_CHARS} characters")
    return query.strip()


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidArgument(f"{name} must be a whole number from {low} to {high}, not {value!r}")
