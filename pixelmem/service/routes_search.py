"""``GET /v1/search``: the CLI's search (same engine call, scores, relevance floor) over HTTP."""

from __future__ import annotations

from pixelmem.core.index.engine import MAX_K
from pixelmem.core.runtime.answers import hit_summary, hits_with_memories, search_answer
from pixelmem.core.search_mode import SearchMode
from pixelmem.core.vault.memory_json import iso_utc
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
        oa.query(
            "mode", {"type": "string", "enum": [m.value for m in SearchMode]}, "default: hybrid"
        ),
        oa.query("topic", {"type": "string"}, "only memories with this topic"),
    ],
    responses={
        "200": oa.answer("the results above the relevance floor", "SearchAnswer"),
        **oa.errors(400, 503),
    },
)
def search(call: Call) -> Answer:
    tools = call.state.tools
    query = call.text("q")
    if not query or not query.strip():
        raise ApiError(400, "bad_argument", "q (what to look for) is required")
    settings = tools.current_engine().settings.search
    top_k = call.integer("top_k", settings.top_k, 1, MAX_K)
    mode = call.text("mode") or settings.mode
    engine, hits = tools.search(
        query, limit=top_k, mode=mode, topic=call.text("topic"), max_limit=MAX_K
    )
    if mode == "semantic" and engine.semantic_error:
        raise ApiError(503, "provider_unavailable", f"semantic search: {engine.semantic_error}")
    results = [
        {**hit_summary(hit, memory), "updated": iso_utc(memory.updated)}
        for hit, memory in hits_with_memories(engine, hits)
    ]
    return 200, search_answer(engine, query.strip(), mode, results)


ENDPOINTS = [search]
