"""The MCP tools' logic as plain synchronous Python; :mod:`pixelmem.mcp_server` publishes it.

:class:`PixelmemService` answers each tool call (the SDK runs each one on a worker thread).
Before every call it asks :class:`VaultWatcher` what other processes (the app, another server)
changed and re-reads just that, and it re-reads the settings file when the app saved it. The
engine is created on the first call, and the embedding model is loaded only when a search
needs it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pixelmem.core.archive.inbox import DraftNotFound, Inbox, checked_text
from pixelmem.core.errors import MemoryNotFound, PixelmemError
from pixelmem.core.index.engine import Engine, SearchFilters, SearchHit
from pixelmem.core.index.time_search import TimedHits, range_argument, time_search
from pixelmem.core.settings import Settings, settings_path
from pixelmem.core.vault import ids
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.memory_json import display_path, memory_json
from pixelmem.core.vault.vault_watch import Signature, VaultWatcher, file_signature

log = logging.getLogger(__name__)

MAX_SEARCH_LIMIT = 20
MAX_LIST_LIMIT = 500
MAX_QUERY_CHARS = 4000
MAX_PROPOSAL_CHARS = 200_000
RESCAN_THRESHOLD = 200  # more changed files than this: one full scan instead of file by file
SEARCH_MODES = ("hybrid", "semantic", "keyword")
RAG_FIELDS = {  # set_rag_config argument -> settings key
    "provider": "embedding.provider",
    "baseUrl": "embedding.base_url",
    "model": "embedding.model",
    "apiKey": "embedding.api_key",
}


class InvalidArgument(PixelmemError):
    """A tool argument the server refuses, with the reason."""


T = TypeVar("T")


class PixelmemService:
    """The tools' logic over one vault; thread-safe (one call at a time touches the engine)."""

    def __init__(self, vault: Path) -> None:
        self.vault = Path(vault)
        self.inbox = Inbox(self.vault)
        self._lock = threading.RLock()
        self._engine: Engine | None = None
        self._watcher = VaultWatcher(self.vault)
        self._settings_seen: Signature | None = None
        self._index_stale = True

    # -- keeping up with other processes -----------------------------------------------------

    def _store_engine(self) -> Engine:
        """The engine with its store current (no model loaded, no index built)."""
        if self._engine is None:
            self._settings_seen = file_signature(settings_path())
            self._watcher.poll()  # baseline first: anything written after it is seen next time
            engine = Engine(self.vault, Settings.load())
            engine.store.scan()
            self._engine = engine
            return engine
        self._catch_up(self._engine)
        return self._engine

    def _indexed_engine(self) -> Engine:
        """The engine with an index that includes every memory on disk."""
        engine = self._store_engine()
        if self._index_stale:
            self._reindex(engine)
        return engine

    def _catch_up(self, engine: Engine) -> None:
        seen = file_signature(settings_path())
        if seen != self._settings_seen:
            self._settings_seen = seen
            engine.reconfigure(Settings.load())
            self._index_stale = True
        changed = self._watcher.poll()
        if len(changed) > RESCAN_THRESHOLD:
            engine.store.scan()
            self._index_stale = True
        elif changed:
            changes = engine.writes.reload_paths(changed).changes
            self._index_stale = self._index_stale or bool(changes)
            log.debug("picked up %d change(s) from other processes", len(changes))

    def _reindex(self, engine: Engine) -> Any:
        report = engine.reindex()
        self._index_stale = False
        return report

    def _engine_for_search(self) -> Engine:
        return self._call(self._indexed_engine)

    def _index_after_write(self) -> None:
        """A direct write is on disk: bring the index up to date before answering."""
        self._call(lambda: self._reindex(self._store_engine()))

    def _call(self, fn: Callable[[], T]) -> T:
        with self._lock:
            return fn()

    # -- tools -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        mode: str = "hybrid",
        topic: str | None = None,
        max_limit: int = MAX_SEARCH_LIMIT,
        since: str | None = None,
        until: str | None = None,
    ) -> tuple[Engine, list[SearchHit]]:
        """The engine and its hits: the one search both transports (MCP, REST) answer from.

        Only getting a current engine holds the lock; the search itself reads the engine's
        immutable snapshot, so any number of searches run side by side.
        """
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
        mode: str = "hybrid",
        topic: str | None = None,
        max_limit: int = MAX_SEARCH_LIMIT,
        since: str | None = None,
        until: str | None = None,
    ) -> tuple[Engine, TimedHits]:
        """:meth:`search` with the time read from the query and the ``since``/``until`` filter."""
        query = _checked_query(query)
        _check_range("limit", limit, 1, max_limit)
        if mode not in SEARCH_MODES:
            raise InvalidArgument(f"mode must be one of {', '.join(SEARCH_MODES)}, not {mode!r}")
        topic = (topic or "").strip() or None
        start, end = _time_arguments(since, until)
        engine = self._engine_for_search()
        filters = SearchFilters(topic=topic) if topic else None
        found = time_search(
            engine, query, mode=mode, k=limit, filters=filters, since=start, until=end
        )
        return engine, found

    def semantic_search(
        self,
        query: str,
        limit: int = 5,
        mode: str = "hybrid",
        since: str | None = None,
        until: str | None = None,
    ) -> dict[str, Any]:
        engine, found = self.timed_search(query, limit=limit, mode=mode, since=since, until=until)
        hits = found.hits
        results = [_hit_json(hit, memory) for hit, memory in hits_with_memories(engine, hits)]
        answer = search_answer(engine, query.strip(), mode, results)
        if found.range is not None or found.limit is not None:
            answer["time"] = _time_json(found)
        return answer

    def get_memory(self, memory_id: str) -> dict[str, Any]:
        memory_id = ids.validate_id(memory_id)

        def run() -> dict[str, Any]:
            engine = self._store_engine()
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

        return self._call(run)

    def list_memories(self, topic: str | None = None, limit: int = 50) -> dict[str, Any]:
        _check_range("limit", limit, 1, MAX_LIST_LIMIT)
        wanted = topic or ""

        def run() -> dict[str, Any]:
            memories = newest_first(self._store_engine().store.list(), wanted)
            return {
                "total": len(memories),
                "memories": [memory_json(m, with_body=False) for m in memories[:limit]],
                "pending_drafts": self.inbox.count(),
            }

        return self._call(run)

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

        def run() -> dict[str, Any]:
            engine = self._store_engine()
            mode = engine.settings.mcp_writes
            if mode == "off":
                raise InvalidArgument(_WRITES_OFF)
            if mode == "direct":
                memory = engine.writes.create(
                    title, content, topics=topics, importance=importance, source=source
                ).value
                return {
                    "status": "created",
                    "id": memory.id,
                    "title": memory.title,
                    "path": display_path(memory.path),
                    "message": "The memory was saved in the vault and indexed.",
                }
            draft = self.inbox.add(title, content, topics, importance, source)
            return draft_answer(draft)

        answer = self._call(run)
        if answer["status"] == "created":
            self._index_after_write()  # outside the lock: other calls go on meanwhile
        return answer

    def propose_memories_from_text(
        self, text: str, title: str = "", client: str = ""
    ) -> dict[str, Any]:
        """Memories the vault's chat model finds in ``text``, as review-inbox proposals."""
        from pixelmem.core.assist.extraction import messages_from_text, propose_from_messages

        if not isinstance(text, str) or not text.strip() or "\0" in text:
            raise InvalidArgument("text must be a non-empty text without NUL characters")
        if len(text) > MAX_PROPOSAL_CHARS:
            raise InvalidArgument(f"text is longer than {MAX_PROPOSAL_CHARS:,} characters")
        engine = self._engine_for_search()
        if engine.settings.mcp_writes == "off":
            raise InvalidArgument(_WRITES_OFF)
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
        def run() -> dict[str, Any]:
            engine = self._store_engine()
            engine.store.scan()
            self._watcher.poll()
            report = self._reindex(engine)
            skipped = engine.store.skipped
            return {
                "memories": report.memories,
                "chunks": report.chunks,
                "embedded": report.embedded,
                "from_cache": report.reused,
                "skipped": [{"path": display_path(s.path), "reason": s.reason} for s in skipped],
                "semantic_search": _semantic_state(engine),
                "warnings": list(report.warnings),
            }

        return self._call(run)

    def get_rag_config(self) -> dict[str, Any]:
        return self._call(lambda: _rag_config(self._store_engine()))

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

        def run() -> dict[str, Any]:
            engine = self._store_engine()
            before = Settings.load()
            if before.mcp_writes == "off":
                raise InvalidArgument(_WRITES_OFF)
            settings = before.copy()
            for name, value in changes.items():
                settings.set_key(RAG_FIELDS[name], value)
            settings = settings.save_changes(before)
            self._settings_seen = file_signature(settings_path())
            engine.reconfigure(settings)
            shown = {k: ("***" if k == "apiKey" else v) for k, v in changes.items()}
            log.warning("an MCP client changed the embedding settings: %s", shown)
            report = self._reindex(engine)
            answer = _rag_config(engine)
            answer["changed"] = sorted(changes)
            answer["reindex"] = {"embedded": report.embedded, "chunks": report.chunks}
            return answer

        return self._call(run)


# ---------------------------------------------------------------- answers


_EPOCH = datetime.min.replace(tzinfo=UTC)
DRAFT_MESSAGE = (
    "Saved as a draft in the review inbox. It becomes a memory (with this id) when the user "
    "accepts it in the pixelmem app."
)
_WRITES_OFF = (
    "Writing over MCP is turned off for this vault. The user can allow it in the pixelmem app "
    "(Settings → MCP writes: review or direct) or with `pixelmem config set mcp_writes review`."
)


def _time_arguments(
    since: str | None, until: str | None
) -> tuple[datetime | None, datetime | None]:
    try:
        start = range_argument(since).start if since and since.strip() else None
        end = range_argument(until).end if until and until.strip() else None
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
    return start, end


def _time_json(found: TimedHits) -> dict[str, Any]:
    """What the search read of time, for the client (ISO dates, local time zone)."""
    answer: dict[str, Any] = {}
    if found.range is not None:
        answer["fromQuery"] = {
            "text": found.range.text,
            "start": found.range.start.isoformat(),
            "end": found.range.end.isoformat(),
            "idsFromThen": sorted(h.memory_id for h in found.hits if h.memory_id in found.in_range),
        }
    if found.limit is not None:
        answer["filter"] = {
            "start": found.limit.start.isoformat(),
            "end": found.limit.end.isoformat(),
        }
    return answer


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


def newest_first(memories: list[Memory], topic: str = "") -> list[Memory]:
    """``memories`` with ``topic`` (any topic if empty; case aside), most recently updated
    first: the order both ``list_memories`` and ``GET /v1/memories`` answer in."""
    wanted = topic.strip().casefold()
    if wanted:
        memories = [m for m in memories if wanted in (t.casefold() for t in m.topics)]
    return sorted(memories, key=lambda m: (m.updated or _EPOCH, m.title), reverse=True)


def hits_with_memories(engine: Engine, hits: list[SearchHit]) -> list[tuple[SearchHit, Memory]]:
    """Each hit with its memory as it is now; a memory deleted since the search's snapshot
    was built is left out."""
    found = []
    for hit in hits:
        try:
            found.append((hit, engine.store.get(hit.memory_id)))
        except MemoryNotFound:
            continue
    return found


def hit_summary(hit: SearchHit, memory: Memory) -> dict[str, Any]:
    """What every transport says of a hit (the MCP tool adds the text, REST the date)."""
    return {
        "id": memory.id,
        "title": memory.title,
        "score": round(float(hit.score), 4),  # calibrated relevance, 0-1
        "snippet": hit.snippet,
        "topics": list(memory.topics),
        "path": display_path(memory.path),
    }


def _hit_json(hit: SearchHit, memory: Memory) -> dict[str, Any]:
    answer = hit_summary(hit, memory)
    answer["text"] = memory.body
    answer["copies"] = list(hit.copies)
    return answer


def draft_answer(draft: Any) -> dict[str, Any]:
    """The answer to a write that became a review-inbox draft."""
    return {
        "status": "pending_review",
        "id": draft.id,
        "title": draft.title,
        "message": DRAFT_MESSAGE,
    }


def _semantic_state(engine: Engine) -> str:
    error = engine.semantic_error
    return f"unavailable ({error}); keyword search only" if error else "available"


def search_answer(
    engine: Engine, query: str, mode: str, results: list[dict[str, Any]]
) -> dict[str, Any]:
    answer: dict[str, Any] = {"query": query, "mode": mode, "results": results}
    error = engine.semantic_error
    if error and mode != "keyword":
        answer["note"] = f"Semantic search is unavailable ({error}); these are keyword matches."
    if not results:
        floor = engine.settings.search.min_relevance
        answer["message"] = (
            f"Nothing relevant to {query!r} in the memories "
            f"(mode {mode}: no memory reached relevance {floor:g})."
        )
    return answer


def _rag_config(engine: Engine) -> dict[str, Any]:
    settings = engine.settings
    return {
        "vault": str(engine.vault),
        "embedding": {
            "provider": settings.embedding.provider,
            "baseUrl": settings.display_value("embedding.base_url"),
            "model": settings.embedding.model,
            "apiKey": settings.display_value("embedding.api_key"),
        },
        "search": {
            "mode": settings.search.mode,
            "topK": settings.search.top_k,
            "minRelevance": settings.search.min_relevance,
        },
        "rerank": {
            "url": settings.rerank.url,
            "model": settings.rerank.model,
            "apiKey": settings.display_value("rerank.api_key"),
        },
        "mcpWrites": settings.mcp_writes,
        "semanticSearch": _semantic_state(engine),
    }
