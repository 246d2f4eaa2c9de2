"""The OpenAPI 3.1 document, built from the endpoints themselves (nothing to keep in sync).

Each endpoint declares its operation (summary, parameters, request body, responses) where it is
defined; this module adds the shared schemas, the error answers and the bearer security scheme.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pixelmem import __version__
from pixelmem.core.search_mode import SearchMode
from pixelmem.core.settings import MCP_WRITE_MODES
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS
from pixelmem.service.endpoint import Endpoint

ERROR_TEXT = {
    400: "Bad argument",
    401: "Missing or wrong bearer token",
    403: "Not allowed (mcp_writes setting, or a refused Origin)",
    404: "No such memory or job",
    409: "The memory changed since the ETag given in If-Match",
    413: "Request body too large",
    421: "Host header is not this machine (DNS rebinding protection)",
    422: "A field value is not acceptable",
    503: "The embedding provider is unavailable",
}

TOPICS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
IMPORTANCE: dict[str, Any] = {"type": "string", "enum": list(IMPORTANCE_LEVELS)}
# What a client may send (POST /v1/memories, /v1/record and PATCH take the same fields).
EDITABLE_FIELDS: dict[str, Any] = {
    "title": {"type": "string"},
    "body": {"type": "string"},
    "topics": TOPICS,
    "importance": IMPORTANCE,
}
TEXT: dict[str, Any] = {"type": "string"}
MAYBE_TEXT: dict[str, Any] = {"type": ["string", "null"]}
MOMENT: dict[str, Any] = {"type": ["string", "null"], "format": "date-time"}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
INDEX_STATE: dict[str, Any] = {
    "type": "string",
    "enum": ["ready", "loading"],
    "description": "loading: the index has not yet been compared with the vault since the "
    "service started (searches answer from what is loaded so far: the index saved last time)",
}
MEMORY_FIELDS: dict[str, Any] = {
    "id": TEXT,
    "title": TEXT,
    "topics": TOPICS,
    "aliases": TOPICS,
    "importance": IMPORTANCE,
    "created": MOMENT,
    "updated": MOMENT,
    "source": MAYBE_TEXT,
    "path": MAYBE_TEXT,
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An answer object: ``required`` keys always there; others only when they apply."""
    return {"type": "object", "required": list(required), "properties": properties}


def _list(item: str) -> dict[str, Any]:
    return {"type": "array", "items": ref(item)}


_MEMORY_KEYS = tuple(MEMORY_FIELDS)

SCHEMAS: dict[str, Any] = {
    "Error": _object(
        {"error": _object({"code": TEXT, "message": TEXT}, ("code", "message"))}, ("error",)
    ),
    "MemorySummary": _object(MEMORY_FIELDS, _MEMORY_KEYS),
    "Memory": _object(
        {
            **MEMORY_FIELDS,
            "body": TEXT,
            "extra": {"type": "object", "description": "frontmatter keys pixelmem does not own"},
            "etag": TEXT,
        },
        (*_MEMORY_KEYS, "body", "extra", "etag"),
    ),
    "MemoryList": _object(
        {
            "total": COUNT,
            "offset": COUNT,
            "memories": _list("MemorySummary"),
            "pending_drafts": COUNT,
        },
        ("total", "offset", "memories", "pending_drafts"),
    ),
    "NewMemory": {
        "type": "object",
        "required": ["title"],
        "additionalProperties": False,
        "properties": EDITABLE_FIELDS,
    },
    "MemoryPatch": {"type": "object", "additionalProperties": False, "properties": EDITABLE_FIELDS},
    "Draft": _object(
        {
            "status": {"type": "string", "const": "pending_review"},
            "id": TEXT,
            "title": TEXT,
            "message": TEXT,
        },
        ("status", "id", "title", "message"),
    ),
    "Trashed": _object(
        {"status": {"type": "string", "const": "trashed"}, "id": TEXT, "trashed": MAYBE_TEXT},
        ("status", "id", "trashed"),
    ),
    "SearchResult": _object(
        {
            "id": TEXT,
            "title": TEXT,
            "score": {"type": "number", "description": "calibrated relevance, 0-1"},
            "snippet": TEXT,
            "topics": TOPICS,
            "path": MAYBE_TEXT,
            "updated": MOMENT,
        },
        ("id", "title", "score", "snippet", "topics", "path", "updated"),
    ),
    "SearchAnswer": _object(
        {
            "query": TEXT,
            "mode": {"type": "string", "enum": [m.value for m in SearchMode]},
            "results": _list("SearchResult"),
            "note": {
                **TEXT,
                "description": "semantic search was unavailable (keyword matches), or the "
                "index is still loading (results from what is loaded so far)",
            },
            "message": {**TEXT, "description": "nothing reached the relevance floor"},
            "time": {"type": "object", "description": "what the query said about time"},
            "index": INDEX_STATE,
        },
        ("query", "mode", "results", "index"),
    ),
    "IndexJobStarted": _object({"job": TEXT, "state": TEXT, "url": TEXT}, ("job", "state", "url")),
    "IndexReport": _object(
        {
            "memories": COUNT,
            "chunks": COUNT,
            "embedded": COUNT,
            "from_cache": COUNT,
            "semantic_error": TEXT,
            "warnings": {"type": "array", "items": TEXT},
        },
        ("memories", "chunks", "embedded", "from_cache", "semantic_error", "warnings"),
    ),
    "IndexJob": _object(
        {
            "job": TEXT,
            "state": {"type": "string", "enum": ["queued", "running", "done", "failed"]},
            "done": COUNT,
            "total": COUNT,
            "finished": MOMENT,
            "report": ref("IndexReport"),
            "error": TEXT,
        },
        ("job", "state", "done", "total"),
    ),
    "SkippedFile": _object({"path": MAYBE_TEXT, "reason": TEXT}, ("path", "reason")),
    "Status": _object(
        {
            "vault": TEXT,
            "memories": COUNT,
            "chunks": COUNT,
            "vectors": COUNT,
            "skipped": _list("SkippedFile"),
            "provider": TEXT,
            "model": TEXT,
            "model_reason": TEXT,
            "semantic_search": {**TEXT, "description": "ok, or unavailable: <why>"},
            "index": INDEX_STATE,
            "indexing": {"type": "boolean"},
            "watching": TEXT,
            "last_indexed": MOMENT,
            "pending_drafts": COUNT,
            "mcp_writes": {"type": "string", "enum": list(MCP_WRITE_MODES)},
        },
        (
            "vault",
            "memories",
            "chunks",
            "vectors",
            "skipped",
            "provider",
            "model",
            "model_reason",
            "semantic_search",
            "index",
            "indexing",
            "watching",
            "last_indexed",
            "pending_drafts",
            "mcp_writes",
        ),
    ),
    "Health": _object(
        {"status": {"type": "string", "const": "ok"}, "version": TEXT}, ("status", "version")
    ),
    "OpenApiDocument": {"type": "object", "description": "this OpenAPI 3.1 document"},
}


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def answer(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, **json_content(ref(schema))}


def query(
    name: str, schema: dict[str, Any], description: str, required: bool = False
) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": required,
        "schema": schema,
        "description": description,
    }


def path_param(name: str, description: str) -> dict[str, Any]:
    schema = {"type": "string"}
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": schema,
        "description": description,
    }


def header(name: str, description: str) -> dict[str, Any]:
    schema = {"type": "string"}
    return {"name": name, "in": "header", "schema": schema, "description": description}


def body(schema: str) -> dict[str, Any]:
    return {"required": True, **json_content(ref(schema))}


def errors(*statuses: int) -> dict[str, Any]:
    return {str(s): answer(ERROR_TEXT[s], "Error") for s in statuses}


def document(endpoints: Iterable[Endpoint]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for ep in endpoints:
        operation = dict(ep.operation)
        operation.setdefault("operationId", ep.handler.__name__)
        responses = operation.setdefault("responses", {})
        if ep.path != "/v1/health":
            responses.update(errors(401, 421))
        else:
            operation["security"] = []
        paths.setdefault(ep.path, {})[ep.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "pixelmem",
            "version": __version__,
            "description": "Local HTTP API of a pixelmem vault. MCP over Streamable HTTP is at "
            "/mcp (same bearer token).",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
