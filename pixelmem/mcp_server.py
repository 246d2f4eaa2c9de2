"""``pixelmem mcp``: the vault as an MCP server over stdio (official ``mcp`` SDK).

:func:`build_server` only describes the tools; their logic is plain Python in
:class:`~pixelmem.core.runtime.tools.PixelmemService` (re-exported here), over the vault's
runtime with the stdio freshness policy (:data:`~pixelmem.core.runtime.freshness.STDIO`): the
watcher follows the vault, each call first checks the files' signatures, and a search waits
until the index holds what changed.

Everything that is not the protocol goes to stderr: stdout belongs to the client.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from pixelmem import __version__
from pixelmem.core.errors import PixelmemError
from pixelmem.core.runtime.freshness import STDIO
from pixelmem.core.runtime.tools import (
    MAX_LIST_LIMIT,
    MAX_QUERY_CHARS,
    MAX_SEARCH_LIMIT,
    RAG_FIELDS,
    InvalidArgument,
    PixelmemService,
)
from pixelmem.core.search_mode import DEFAULT_MODE, SearchMode

try:  # mcp >= 2
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp import Context  # type: ignore[no-redef,attr-defined]
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[no-redef,attr-defined]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]

INSTRUCTIONS = (
    "pixelmem is the user's personal knowledge base: Markdown memories on their disk. "
    "Use semantic_search before answering questions the user's notes may cover, get_memory for "
    "a whole memory, and add_memory to propose a new one (by default it waits in the app's "
    "review inbox until the user accepts it)."
)

T = TypeVar("T")

# What each tool does to the user's data, for clients that ask before calling (MCP 2025-06).
READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
PROPOSES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
CHANGES_SETTINGS = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
# Asks the user's chat model (which may be a remote service), then writes inbox drafts only.
PROPOSES_FROM_TEXT = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, open_world_hint=True
)
REINDEXES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


class PixelmemServer(MCPServer):
    """The SDK's server, with argument errors worded in one short line (no pydantic dump)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(_short(name, exc.__cause__)) from exc.__cause__
            raise


def _short(tool: str, error: ValidationError) -> str:
    """``semantic_search: limit should be less than or equal to 20`` — one clause per field."""
    parts = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "the arguments"
        message = str(item["msg"])
        if message.startswith("Input "):
            message = message[len("Input ") :]
        elif message == "Field required":
            message = "is required"
        parts.append(f"{field} {message}")
    return f"{tool}: {'; '.join(parts)}"


def _as_tool_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """Errors pixelmem expects become MCP tool errors (``isError``) with their sentence."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except PixelmemError as exc:
            raise ToolError(str(exc)) from None

    return wrapper


Limit = Annotated[
    int, Field(ge=1, le=MAX_SEARCH_LIMIT, description="how many memories to return (1-20)")
]
Mode = Annotated[
    str,  # checked by the service; the schema lists SearchMode's values
    Field(
        description=(
            "hybrid (meaning + keywords, best default), semantic, keyword, or exact (only"
            " memories holding the query word for word, as a phrase)"
        ),
        json_schema_extra={"enum": [m.value for m in SearchMode]},
    ),
]
MemoryId = Annotated[str, Field(description="a memory id as returned by the other tools")]
Importance = Literal["low", "medium", "high"]
OptionalText = Annotated[str | None, Field(description="leave empty to keep the current value")]
When = Annotated[
    str | None,
    Field(description="a date (2024-03-05, 2024-03) or a range like 'last week'; empty: none"),
]


def build_server(service: PixelmemService) -> Any:
    """An MCP server whose tools call ``service``."""
    server = PixelmemServer("pixelmem", instructions=INSTRUCTIONS, version=__version__)

    @server.tool(
        description="Search the user's memories by meaning and keywords. Returns the best "
        "matches with id, title, relevance score (0-1, calibrated), snippet, full text and "
        "file path, or a message saying that nothing relevant was found. A time in the query "
        "('last week', 'in March 2024', '上个月') puts memories from then first; since/until "
        "keep only memories from then.",
        annotations=READS,
    )
    @_as_tool_errors
    def semantic_search(
        query: Annotated[str, Field(description="what to look for, in natural language")],
        limit: Limit = 5,
        mode: Mode = DEFAULT_MODE.value,
        since: When = None,
        until: When = None,
    ) -> dict[str, Any]:
        return service.semantic_search(query, limit, mode, since, until)

    @server.tool(
        description="One memory by id: its frontmatter fields and full Markdown body.",
        annotations=READS,
    )
    @_as_tool_errors
    def get_memory(id: MemoryId) -> dict[str, Any]:
        return service.get_memory(id)

    @server.tool(
        description="List memories, most recently updated first, optionally only those with "
        "a topic. Returns id, title, topics, importance and dates (no bodies).",
        annotations=READS,
    )
    @_as_tool_errors
    def list_memories(
        topic: Annotated[str | None, Field(description="only memories with this topic")] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_LIST_LIMIT, description="at most this many")] = 50,
    ) -> dict[str, Any]:
        return service.list_memories(topic, limit)

    @server.tool(
        description="Propose a new memory. Depending on the user's setting it waits in the "
        "app's review inbox until the user accepts it (default), is saved directly, or is "
        "refused. The answer says which.",
        annotations=PROPOSES,
    )
    @_as_tool_errors
    def add_memory(
        title: Annotated[str, Field(description="a short title")],
        content: Annotated[str, Field(description="the memory text (Markdown)")],
        ctx: Context,
        topics: Annotated[list[str], Field(description="topic tags, e.g. ['rust']")] = [],  # noqa: B006
        importance: Importance = "medium",
    ) -> dict[str, Any]:
        return service.add_memory(title, content, topics, importance, client=_client_name(ctx))

    @server.tool(
        description="Propose memories from a conversation or notes: the user's chat model "
        "finds the facts, decisions and preferences stated in the text (each with a quote), "
        "and they wait in the app's review inbox (as new memories, updates of existing ones, "
        "or replacements of memories they contradict) until the user accepts them.",
        annotations=PROPOSES_FROM_TEXT,
    )
    @_as_tool_errors
    def propose_memories_from_text(
        text: Annotated[
            str, Field(description="the conversation ('User: …' / 'Assistant: …' lines) or text")
        ],
        ctx: Context,
        title: Annotated[str, Field(description="what the text is, for the answer")] = "",
    ) -> dict[str, Any]:
        return service.propose_memories_from_text(text, title, client=_client_name(ctx))

    @server.tool(
        description="Re-read the vault from disk and embed new or changed memories. Returns "
        "counts and the files that were skipped, with the reason.",
        annotations=REINDEXES,
    )
    @_as_tool_errors
    def reindex_documents() -> dict[str, Any]:
        return service.reindex_documents()

    @server.tool(
        description="The embedding and search settings (API keys shown as ***).",
        annotations=READS,
    )
    @_as_tool_errors
    def get_rag_config() -> dict[str, Any]:
        return service.get_rag_config()

    @server.tool(
        description="Change the embedding provider settings. Only the fields given (non-empty) "
        "change; the others keep their values. provider: auto (the built-in model chosen for "
        "the vault), local-multilingual, local (English only), ollama or openai (any "
        "OpenAI-compatible server).",
        annotations=CHANGES_SETTINGS,
    )
    @_as_tool_errors
    def set_rag_config(
        provider: Annotated[
            Literal["auto", "local", "local-multilingual", "ollama", "openai"] | None,
            Field(description="embedding provider; leave empty to keep it"),
        ] = None,
        baseUrl: OptionalText = None,
        model: OptionalText = None,
        apiKey: OptionalText = None,
    ) -> dict[str, Any]:
        return service.set_rag_config(provider, baseUrl, model, apiKey)

    return server


def _client_name(ctx: Any) -> str:
    """The MCP client's name from its handshake (``claude-code``, …), if it sent one."""
    try:
        params = ctx.session.client_params
        info = getattr(params, "client_info", None) or getattr(params, "clientInfo", None)
        name = str(info.name) if info is not None else ""
    except Exception:
        return ""
    return "".join(ch for ch in name if ch.isalnum() or ch in "-_.")[:64]


def run(vault: Path) -> None:
    """Serve ``vault`` over stdio until the client closes the connection."""
    service = PixelmemService(vault, STDIO)
    try:
        build_server(service).run("stdio")
    finally:
        service.close()


__all__ = [
    "INSTRUCTIONS",
    "MAX_LIST_LIMIT",
    "MAX_QUERY_CHARS",
    "MAX_SEARCH_LIMIT",
    "RAG_FIELDS",
    "InvalidArgument",
    "PixelmemService",
    "build_server",
    "run",
]
