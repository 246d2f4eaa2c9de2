"""The REST API's writes (create, record, update and delete with an ETag check), which MCP does
not offer, through the runtime's one write path.

They follow the vault's ``mcp_writes`` setting as the MCP tools do: ``review`` turns a new
memory into a review-inbox draft, only ``direct`` lets a client edit or delete. Each write waits
(a while, not forever: a first index may be long) until its memory is searchable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pixelmem.core.archive.inbox import Draft, checked_text
from pixelmem.core.errors import ConflictError
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.vault.memory import Memory
from pixelmem.core.writes import MemoryWrites, TrashRecord, Written
from pixelmem.service.errors import ApiError

EDITABLE = ("title", "body", "topics", "importance")
WRITES_OFF = (
    "Writing through the service is turned off for this vault (mcp_writes is 'off'). The "
    "user can allow it with `pixelmem config set mcp_writes review` or in the app's settings; "
    "POST /v1/record still proposes a draft for the review inbox."
)


@dataclass(frozen=True)
class Proposal:
    """A new memory's fields as a client sent them."""

    title: str
    body: str = ""
    topics: tuple[str, ...] = ()
    importance: str = "medium"


def etag_of(memory: Memory) -> str:
    """The memory file's content hash, quoted as an HTTP entity tag."""
    return f'"{memory.disk_hash or ""}"'


class RestWrites:
    """The REST API's writes over the tools' runtime."""

    def __init__(self, tools: PixelmemService) -> None:
        self.tools = tools

    def write_mode(self) -> str:
        return self.tools.current_engine().settings.mcp_writes

    def create(self, proposal: Proposal, source: str) -> tuple[Memory | Draft, bool]:
        """Create a memory (``direct``) or an inbox draft (``review``): ``(it, is_draft)``."""
        mode = self.write_mode()
        if mode == "off":
            raise ApiError(403, "writes_off", WRITES_OFF)
        if mode == "review":
            return self.record(proposal, source), True
        checked_text(proposal.title, proposal.body, proposal.topics)

        def create(writes: MemoryWrites) -> Written[Memory]:
            return writes.create(
                proposal.title,
                proposal.body,
                topics=list(proposal.topics),
                importance=proposal.importance,
                source=source,
            )

        return self.tools.runtime.write(create).value, False

    def record(self, proposal: Proposal, source: str) -> Draft:
        """A proposal for the person to confirm: always a draft in the review inbox."""
        return self.tools.inbox.add(
            proposal.title, proposal.body, list(proposal.topics), proposal.importance, source
        )

    def update(self, memory_id: str, changes: dict[str, Any], if_match: str | None) -> Memory:
        self._require_direct("edit")

        def update(writes: MemoryWrites) -> Written[Memory]:
            memory = writes.store.get(memory_id)
            _check_etag(memory, if_match)
            for name, value in changes.items():
                setattr(memory, name, list(value) if name == "topics" else value)
            checked_text(memory.title, memory.body, memory.topics)
            return writes.update(memory)

        return self.tools.runtime.write(update).value

    def delete(self, memory_id: str, if_match: str | None, *, force: bool = False) -> TrashRecord:
        self._require_direct("delete")

        def delete(writes: MemoryWrites) -> Written[TrashRecord]:
            _check_etag(writes.store.get(memory_id), if_match)
            return writes.delete(memory_id, force=force)

        return self.tools.runtime.write(delete).value

    def _require_direct(self, what: str) -> None:
        mode = self.write_mode()
        if mode != "direct":
            raise ApiError(
                403,
                "writes_need_direct",
                f"mcp_writes is {mode!r}: AI tools may not {what} memories. The user can allow "
                "it with `pixelmem config set mcp_writes direct` (or in the app's settings).",
            )


def _check_etag(memory: Memory, if_match: str | None) -> None:
    if if_match is None or if_match.strip() == "*":
        return
    if etag_of(memory) not in entity_tags(if_match):
        assert memory.path is not None
        raise ConflictError(memory.path, memory.id)


_ENTITY_TAG = re.compile(r'\s*(?:W/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)')


def entity_tags(header: str) -> set[str]:
    """The quoted tags of an ``If-Match`` list (RFC 9110 §8.8.3: ``"tag", W/"tag"``); a value
    that is not such a list is a client's mistake (400), not a file changed on disk."""
    tags: set[str] = set()
    position = 0
    while position < len(header):
        match = _ENTITY_TAG.match(header, position)
        if match is None:
            raise ApiError(
                400,
                "bad_if_match",
                'If-Match must be "*" or quoted entity tags, e.g. the ETag header of GET '
                'as it came ("…", quotes included)',
            )
        tags.add(match.group(1))
        position = match.end()
    if not tags:
        raise ApiError(400, "bad_if_match", 'If-Match is empty; send "*" or the ETag of GET')
    return tags


__all__ = ["EDITABLE", "Proposal", "RestWrites", "etag_of"]
