"""``GET /v1/search``: the CLI's search (same engine call, scores, relevance floor) over HTTP."""

from __future__ import annotations

from typing import Any

from pixelmem.core.errors import MemoryNotFound
from pixelmem.core.index.engine import MAX_K
from pixelmem.core.vault.memory_json import display_path, iso_utc
from pixelmem.mcp_tools import SEARCH_MODES, search_answer
from pixelmem.service import openapi as oa
from pixelmem.service.endpoint import Answer, Call, endpoint
from pixelmem.service.errors import ApiError


@endpoint(
    "/v1/search",
    "GET",
    summary="Search memories by meaning and keywords",
    description="Hits below the vault's relevance floor (search.min_relevance) are left out, "
    "as in `pixelmem search`. If the embedding provider is down, hybrid search answers keyword "
    "matches with a `note`; semantic search answers 503.",
    parameters=[
        oa.query("q", {"type": "string"}, "what to look for", required=True),
        oa.query("top_k", {"type": "integer", "minimum": 1, "maximum": MAX_K}, "how many"),
        oa.query("mode", {"type": "string", "enum": list(SEARCH_MODES)}, "default: hybrid"),
        oa.query("topic", {"type": "string"}, "only memories with this topic"),
    ],
    responses={
        "200": oa.answer("{query, mode, results: [SearchResult], note?, message?}"),
        **oa.errors(400, 503),
    },
)
def search(call: Call) -> Answer:
    live = call.state.live
    query = call.text("q")
    if not query or not query.strip():
        raise ApiError(400, "bad_argument", "q (what to look for) is required")
    settings = live.search_settings()
    top_k = call.integer("top_k", settings.top_k, 1, MAX_K)
    mode = call.text("mode") or settings.mode
    engine, hits = live.search(
        query, limit=top_k, mode=mode, topic=call.text("topic"), max_limit=MAX_K
    )
    if mode == "semantic" and engine.semantic_error:
        raise ApiError(503, "provider_unavailable", f"semantic search: {engine.semantic_error}")
    results = []
    for hit in hits:
        try:
            memory = engine.store.get(hit.memory_id)
        except MemoryNotFound:  # deleted since the snapshot was built
            continue
        results.append(_result(hit, memory))
    return 200, search_answer(engine, query.strip(), mode, results)


def _result(hit: Any, memory: Any) -> dict[str, Any]:
    return {
        "id": memory.id,
        "title": memory.title,
        "score": round(float(hit.score), 4),  # calibrated relevance, 0-1
        "snippet": hit.snippet,
        "topics": list(memory.topics),
        "path": display_path(memory.path),
        "updated": iso_utc(memory.updated),
    }


ENDPOINTS = [search]
