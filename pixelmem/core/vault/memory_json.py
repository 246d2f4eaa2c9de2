"""Memories as JSON-ready dicts, shared by `pixelmem list/show --json` and the MCP tools."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pixelmem.core.vault.ids import printable_name
from pixelmem.core.vault.memory import Memory


def display_path(path: object) -> str | None:
    """A path as text safe to print or send (a name that is not UTF-8 shows U+FFFD)."""
    return printable_name(str(path)) if path else None


def iso_utc(value: datetime | None) -> str | None:
    """``2026-11-21T10:00:00Z``, or None for no date."""
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def memory_json(memory: Memory, *, with_body: bool) -> dict[str, Any]:
    """The memory's fields; with the body, also its extra frontmatter keys (as JSON values)."""
    data: dict[str, Any] = {
        "id": memory.id,
        "title": memory.title,
        "topics": list(memory.topics),
        "aliases": list(memory.aliases),
        "importance": memory.importance,
        "created": iso_utc(memory.created),
        "updated": iso_utc(memory.updated),
        "source": memory.source,
        "path": display_path(memory.path),
    }
    if with_body:
        # Through JSON and back: YAML dates and other non-JSON values become their text.
        data["extra"] = json.loads(json.dumps(memory.extra, default=str))
        data["body"] = memory.body
    return data
