"""What the MCP tools and the REST API answer: the JSON shapes both transports share.

Plain dictionaries built from core objects (memories, hits, the engine's state); neither
transport defines a shape the other repeats. The REST API adds HTTP details (ETags, dates).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pixelmem.core.errors import MemoryNotFound
from pixelmem.core.index.engine import Engine, SearchHit
from pixelmem.core.index.time_search import TimedHits
from pixelmem.core.search_mode import uses_meaning
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.memory_json import display_path

_EPOCH = datetime.min.replace(tzinfo=UTC)
LOADING_NOTE = (
    "The index is still loading (the service has just started): these results come from what "
    "is loaded so far and may miss recent changes."
)
DRAFT_MESSAGE = (
    "Saved as a draft in the review inbox. It becomes a memory (with this id) when the user "
    "accepts it in the pixelmem app."
)


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


def hit_json(hit: SearchHit, memory: Memory) -> dict[str, Any]:
    """A hit as the MCP tool answers it: the summary, the whole text and its copies."""
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


def semantic_state(engine: Engine) -> str:
    """Whether semantic search works, in words."""
    error = engine.semantic_error
    return f"unavailable ({error}); keyword search only" if error else "available"


def search_answer(
    engine: Engine, query: str, mode: str, results: list[dict[str, Any]]
) -> dict[str, Any]:
    """A search's answer: the results, a note when semantic search is down, a message when
    nothing reached the relevance floor."""
    ready = engine.index_ready
    answer: dict[str, Any] = {"query": query, "mode": mode, "results": results}
    answer["index"] = index_state(engine)
    error = engine.semantic_error
    if error and uses_meaning(mode):
        answer["note"] = f"Semantic search is unavailable ({error}); these are keyword matches."
    if not ready:
        answer["note"] = " ".join(filter(None, [answer.get("note"), LOADING_NOTE]))
    if not results:
        floor = engine.settings.search.min_relevance
        answer["message"] = (
            f"Nothing relevant to {query!r} in the memories "
            f"(mode {mode}: no memory reached relevance {floor:g})."
            if ready
            else f"The index is still loading: nothing relevant to {query!r} in what is "
            "loaded so far. Ask again in a moment."
        )
    return answer


def index_state(engine: Engine) -> str:
    """``ready``, or ``loading`` until the index was compared with the vault (after a start,
    searches answer from the index saved last time meanwhile, or from nothing yet)."""
    return "ready" if engine.index_ready else "loading"


def rag_config(engine: Engine) -> dict[str, Any]:
    """The embedding and search settings, API keys masked."""
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
        "semanticSearch": semantic_state(engine),
    }


def time_json(found: TimedHits) -> dict[str, Any]:
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
