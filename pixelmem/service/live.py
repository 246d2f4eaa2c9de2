"""The vault kept current for a long-running service, behind the tools' one implementation.

:class:`LiveService` is the stdio server's :class:`~pixelmem.mcp_tools.PixelmemService` with
two things changed for a process that lives for days and serves many clients at once:

- nobody polls the vault before a call: the file watcher (:mod:`watcher`) hands changed paths
  to :meth:`LiveService.apply_changes`, which re-reads just those;
- nobody waits for indexing before a search: the :class:`IndexLane` brings the index up to
  date on its own thread and searches read the engine's current snapshot meanwhile.

It also has the REST API's writes (update, delete with an ETag check, records for the inbox),
which MCP does not offer, on top of the core's public API.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pixelmem.core.archive.inbox import Draft, checked_text
from pixelmem.core.errors import ConflictError
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import SearchSettings, Settings, settings_path
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.vault_watch import file_signature
from pixelmem.core.vault.writes import TrashRecord
from pixelmem.mcp_tools import PixelmemService
from pixelmem.service.errors import ApiError
from pixelmem.service.index_lane import IndexLane

log = logging.getLogger(__name__)

WRITE_INDEX_WAIT = 10.0  # seconds a write waits for its memory to be searchable
EDITABLE = ("title", "body", "topics", "importance")


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


class LiveService(PixelmemService):
    """One vault for a long-running process: watched, indexed in the background."""

    def __init__(self, vault: Path) -> None:
        super().__init__(vault)
        engine = self._store_engine()  # scans now; the watcher starts from this state
        self.lane = IndexLane(engine, before_run=self._before_index_run)

    def start(self) -> int:
        """Start the index lane with a first run; return its ticket.

        The run re-reads the vault first (a walk; unchanged files come from the scan cache):
        whatever changed between the scan in ``__init__`` and the watcher's start is caught.
        """
        self.lane.start()
        return self.lane.request(rescan=True)

    def stop(self) -> None:
        """Let an in-flight write finish, then stop the lane (which saves the cache)."""
        with self._lock:
            pass
        self.lane.stop()

    @property
    def engine(self) -> Engine:
        return self._call(self._store_engine)

    # -- keeping current (overrides) -------------------------------------------------------

    def _catch_up(self, engine: Engine) -> None:
        """Only the settings file is checked per call (one stat); the watcher does the vault."""
        seen = file_signature(settings_path())
        if seen != self._settings_seen:
            self._settings_seen = seen
            engine.reconfigure(Settings.load())
            self.lane.request()

    def _indexed_engine(self) -> Engine:
        return self._store_engine()

    def _engine_for_search(self) -> Engine:
        engine = self._engine
        if engine is None or file_signature(settings_path()) != self._settings_seen:
            return self._call(self._store_engine)
        return engine  # no lock: a search must not wait behind a write or a long reindex

    def search_settings(self) -> SearchSettings:
        return self._engine_for_search().settings.search

    def _reindex(self, engine: Engine) -> Any:
        return self.lane.run_and_wait()

    def _index_after_write(self) -> None:
        """Wait (a while, not forever: a first index may be long) until the write is indexed."""
        self.lane.wait(self.lane.request(), WRITE_INDEX_WAIT)

    def _before_index_run(self, rescan: bool) -> None:
        # Not under self._lock: a tool call holding it may be waiting for this very run
        # (reindex_documents, set_rag_config). The store is thread-safe on its own.
        if rescan and self._engine is not None:
            self._engine.writes.rescan()

    def apply_changes(self, paths: Iterable[Path], rescan: bool = False) -> int:
        """Files changed on disk (by anyone): re-read them (``rescan``: the whole vault) and
        let the lane index; return how many memories changed."""
        with self._lock:
            writes = self._store_engine().writes
            if rescan:
                changed = len(writes.rescan().changes)
            else:
                changed = len(writes.reload_paths(paths).changes)
        if changed:
            self.lane.request()
        return changed

    # -- REST writes -----------------------------------------------------------------------

    def write_mode(self) -> str:
        return self.engine.settings.mcp_writes

    def create(self, proposal: Proposal, source: str) -> tuple[Memory | Draft, bool]:
        """Create a memory (``direct``) or an inbox draft (``review``): ``(it, is_draft)``."""
        mode = self.write_mode()
        if mode == "off":
            raise ApiError(403, "writes_off", _WRITES_OFF)
        if mode == "review":
            return self.record(proposal, source), True
        checked_text(proposal.title, proposal.body, proposal.topics)

        def run() -> Memory:
            return (
                self._store_engine()
                .writes.create(
                    proposal.title,
                    proposal.body,
                    topics=list(proposal.topics),
                    importance=proposal.importance,
                    source=source,
                )
                .value
            )

        memory = self._call(run)
        self._index_after_write()
        return memory, False

    def record(self, proposal: Proposal, source: str) -> Draft:
        """A proposal for the person to confirm: always a draft in the review inbox."""
        return self.inbox.add(
            proposal.title, proposal.body, list(proposal.topics), proposal.importance, source
        )

    def update(self, memory_id: str, changes: dict[str, Any], if_match: str | None) -> Memory:
        self._require_direct("edit")

        def run() -> Memory:
            engine = self._store_engine()
            memory = engine.store.get(memory_id)
            _check_etag(memory, if_match)
            for name, value in changes.items():
                setattr(memory, name, list(value) if name == "topics" else value)
            checked_text(memory.title, memory.body, memory.topics)
            return engine.writes.update(memory).value

        memory = self._call(run)
        self._index_after_write()
        return memory

    def delete(self, memory_id: str, if_match: str | None, *, force: bool = False) -> TrashRecord:
        self._require_direct("delete")

        def run() -> TrashRecord:
            engine = self._store_engine()
            _check_etag(engine.store.get(memory_id), if_match)
            return engine.writes.delete(memory_id, force=force).value

        record = self._call(run)
        self._index_after_write()
        return record

    def _require_direct(self, what: str) -> None:
        mode = self.write_mode()
        if mode != "direct":
            raise ApiError(
                403,
                "writes_need_direct",
                f"mcp_writes is {mode!r}: AI tools may not {what} memories. The user can allow "
                "it with `pixelmem config set mcp_writes direct` (or in the app's settings).",
            )


_WRITES_OFF = (
    "Writing through the service is turned off for this vault (mcp_writes is 'off'). The "
    "user can allow it with `pixelmem config set mcp_writes review` or in the app's settings; "
    "POST /v1/record still proposes a draft for the review inbox."
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


__all__ = ["EDITABLE", "LiveService", "Proposal", "etag_of"]
