"""The OpenAPI 3.1 document, built from the endpoints themselves (nothing to keep in sync).

Each endpoint declares its operation (summary, parameters, request body, responses) where it is
defined; this module adds the shared schemas, the error answers and the bearer security scheme.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pixelmem import __version__
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
MEMORY_FIELDS: dict[str, Any] = {
    "id": {"type": "string"},
    "title": {"type": "string"},
    "topics": TOPICS,
    "importance": IMPORTANCE,
    "created": {"type": ["string", "null"], "format": "date-time"},
    "updated": {"type": ["string", "null"], "format": "date-time"},
    "source": {"type": ["string", "null"]},
    "path": {"type": ["string", "null"]},
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            }
        },
    },
    "MemorySummary": {"type": "object", "properties": MEMORY_FIELDS},
    "Memory": {
        "type": "object",
        "properties": {
            **MEMORY_FIELDS,
            "body": {"type": "string"},
            "extra": {"type": "object"},
            "etag": {"type": "string"},
        },
    },
    "NewMemory": {
        "type": "object",
        "required": ["title"],
        "additionalProperties": False,
        "properties": EDITABLE_FIELDS,
    },
    "MemoryPatch": {"type": "object", "additionalProperties": False, "properties": EDITABLE_FIELDS},
    "Draft": {
        "type": "object",
        "properties": {
            "status": {"type": "string", "const": "pending_review"},
            "id": {"type": "string"},
            "title": {"type": "string"},
            "message": {"type": "string"},
        },
    },
    "SearchResult": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "title": {"type": "string"},
            "score": {"type": "number", "description": "calibrated relevance, 0-1"},
            "snippet": {"type": "string"},
            "topics": TOPICS,
            "path": {"type": ["string", "null"]},
            "updated": {"type": ["string", "null"], "format": "date-time"},
        },
    },
    "Object": {"type": "object"},
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def answer(description: str, schema: str = "Object") -> dict[str, Any]:
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
