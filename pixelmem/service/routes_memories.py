"""``/v1/memories`` (list, get, create, patch, delete to the trash) and ``/v1/record``.

Writes follow the vault's ``mcp_writes`` setting, as the MCP tools do: ``review`` turns a new
memory into a review-inbox draft (202), and only ``direct`` lets a client edit or delete.
An edit or delete may carry ``If-Match: <etag from GET>``; if the file changed since, 409.
"""

from __future__ import annotations

from typing import Any

from pixelmem.core.archive.inbox import DraftNotFound
from pixelmem.core.errors import MemoryNotFound
from pixelmem.core.runtime.answers import draft_answer, newest_first
from pixelmem.core.runtime.tools import MAX_LIST_LIMIT
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.memory_json import display_path, memory_json
from pixelmem.service import openapi as oa
from pixelmem.service.endpoint import Answer, Call, endpoint
from pixelmem.service.errors import ApiError
from pixelmem.service.memory_writes import EDITABLE, Proposal, etag_of

SOURCE = "http"
ID = oa.path_param("id", "a memory id")
IF_MATCH = oa.header("If-Match", "the ETag from GET; 409 if the memory changed since")


@endpoint(
    "/v1/memories",
    "GET",
    summary="List memories, most recently updated first (no bodies)",
    parameters=[
        oa.query("topic", {"type": "string"}, "only memories with this topic"),
        oa.query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIST_LIMIT}, "page"),
        oa.query("offset", {"type": "integer", "minimum": 0}, "skip this many"),
    ],
    responses={
        "200": oa.answer("a page of memories", "MemoryList"),
        **oa.errors(400),
    },
)
def list_memories(call: Call) -> Answer:
    limit = call.integer("limit", 50, 1, MAX_LIST_LIMIT)
    offset = call.integer("offset", 0, 0, 10**9)
    tools = call.state.tools
    memories = newest_first(tools.current_engine().store.list(), call.text("topic") or "")
    page = memories[offset : offset + limit]
    return 200, {
        "total": len(memories),
        "offset": offset,
        "memories": [memory_json(m, with_body=False) for m in page],
        "pending_drafts": tools.inbox.count(),
    }


@endpoint(
    "/v1/memories/{id}",
    "GET",
    summary="One memory with its body and ETag",
    parameters=[ID],
    responses={"200": oa.answer("the memory", "Memory"), **oa.errors(400, 404)},
)
def get_memory(call: Call) -> Answer:
    tools, memory_id = call.state.tools, call.path("id")
    try:
        memory = tools.current_engine().store.find(memory_id)
    except MemoryNotFound:
        if not _is_draft(tools, memory_id):
            raise
        raise ApiError(
            404,
            "pending_review",
            f"{memory_id!r} is a draft waiting in the review inbox; it becomes a memory when "
            "the user accepts it in the pixelmem app",
        ) from None
    return _memory_answer(200, memory)


def _memory_id(call: Call) -> str:
    """The full id the path names (an id or a unique prefix, as the CLI takes)."""
    key = call.path("id")
    try:
        return call.state.tools.current_engine().store.find(key).id
    except MemoryNotFound:
        return key  # the write reports it, drafts included


def _is_draft(tools: Any, draft_id: str) -> bool:
    try:
        tools.inbox.get(draft_id)
    except DraftNotFound:
        return False
    return True


@endpoint(
    "/v1/memories",
    "POST",
    summary="Create a memory (mcp_writes direct) or an inbox draft (review: 202)",
    requestBody=oa.body("NewMemory"),
    responses={
        "201": oa.answer("created", "Memory"),
        "202": oa.answer("saved as a review-inbox draft", "Draft"),
        **oa.errors(400, 403, 413, 422),
    },
)
def create_memory(call: Call) -> Answer:
    proposal = _proposal(call.json())
    made, is_draft = call.state.writes.create(proposal, SOURCE)
    if is_draft:
        return 202, draft_answer(made)
    status, data, headers = _memory_answer(201, made)
    return status, data, {**headers, "Location": f"/v1/memories/{made.id}"}


@endpoint(
    "/v1/memories/{id}",
    "PATCH",
    summary="Change fields of a memory (mcp_writes direct)",
    parameters=[ID, IF_MATCH],
    requestBody=oa.body("MemoryPatch"),
    responses={"200": oa.answer("saved", "Memory"), **oa.errors(400, 403, 404, 409, 413, 422)},
)
def patch_memory(call: Call) -> Answer:
    changes = _fields(call.json(), required=())
    if not changes:
        raise ApiError(422, "invalid_body", f"give at least one of {', '.join(EDITABLE)}")
    memory = call.state.writes.update(_memory_id(call), changes, call.header("if-match"))
    return _memory_answer(200, memory)


@endpoint(
    "/v1/memories/{id}",
    "DELETE",
    summary="Move a memory to the vault's trash (mcp_writes direct; undo in the app)",
    parameters=[
        ID,
        IF_MATCH,
        oa.query(
            "force",
            {"type": "boolean"},
            "also a read-only note (without it: 403 not_writable); it is moved, not erased",
        ),
    ],
    responses={"200": oa.answer("moved to the trash", "Trashed"), **oa.errors(400, 403, 404, 409)},
)
def delete_memory(call: Call) -> Answer:
    force = (call.text("force") or "").lower() in ("1", "true", "yes")
    record = call.state.writes.delete(_memory_id(call), call.header("if-match"), force=force)
    return 200, {
        "status": "trashed",
        "id": record.memory_id,
        "trashed": display_path(record.trashed),
    }


@endpoint(
    "/v1/record",
    "POST",
    summary="Propose an AI-generated record for the person to confirm (always an inbox draft)",
    requestBody=oa.body("NewMemory"),
    responses={
        "202": oa.answer("saved as a review-inbox draft", "Draft"),
        **oa.errors(400, 413, 422),
    },
)
def record(call: Call) -> Answer:
    draft = call.state.writes.record(_proposal(call.json()), SOURCE)
    return 202, draft_answer(draft)


# ---------------------------------------------------------------- helpers


def _memory_answer(status: int, memory: Memory) -> tuple[int, dict[str, Any], dict[str, str]]:
    data = memory_json(memory, with_body=True)
    data["etag"] = etag_of(memory)
    return status, data, {"ETag": data["etag"]}


def _proposal(data: dict[str, Any]) -> Proposal:
    fields = _fields(data, required=("title",))
    return Proposal(
        title=fields["title"],
        body=fields.get("body", ""),
        topics=tuple(fields.get("topics", ())),
        importance=fields.get("importance", "medium"),
    )


def _fields(data: dict[str, Any], *, required: tuple[str, ...]) -> dict[str, Any]:
    """The editable fields of a body, type-checked (422 with the reason otherwise)."""
    unknown = sorted(set(data) - set(EDITABLE))
    if unknown:
        raise ApiError(422, "invalid_body", f"unknown field(s): {', '.join(unknown)}")
    for name in required:
        if name not in data:
            raise ApiError(422, "invalid_body", f"{name} is required")
    for name, value in data.items():
        if name == "topics":
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise ApiError(422, "invalid_body", "topics must be a list of strings")
        elif not isinstance(value, str):
            raise ApiError(422, "invalid_body", f"{name} must be a string")
    return dict(data)


ENDPOINTS = [list_memories, get_memory, create_memory, patch_memory, delete_memory, record]
