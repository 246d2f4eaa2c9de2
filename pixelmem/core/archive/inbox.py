"""The review inbox: memories proposed by MCP clients wait here until the user decides.

Each draft is a Markdown file in ``<vault>/.pixelmem/inbox/`` in the same format as a memory
(``id``, ``title``, ``created``, ``updated``, ``topics``, ``importance``, ``source``), so a person
can read or fix one with any editor. Accepting creates the memory through the store (keeping the
draft's id, so a client that proposed it can find it later) and rejecting moves the draft to
``<vault>/.pixelmem/trash/``: no draft is ever deleted. The app and an MCP server may share one
inbox; accept, reject and update hold a lock so a draft is accepted at most once.

A draft may also propose a change to an existing memory (``proposal: update`` or
``supersede`` in its frontmatter, with the ``target`` id): accepting it applies the change
through :mod:`pixelmem.core.archive.proposals`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pixelmem.core.errors import InvalidIdError, InvalidMemoryError, PixelmemError, VaultError
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.files.folders import unique_path
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.files.process_lock import process_lock
from pixelmem.core.paths import appdata_dir
from pixelmem.core.vault import ids
from pixelmem.core.vault.frontmatter_io import (
    FrontmatterError,
    checked_fields,
    memory_from_document,
    new_file_text,
    parse_document,
    refuse_unencodable,
)
from pixelmem.core.vault.memory import DEFAULT_IMPORTANCE, Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_files import is_hidden, is_markdown
from pixelmem.core.vault.vault_scan import MAX_FILE_BYTES, UnreadableFile, read_checked

log = logging.getLogger(__name__)

INBOX_DIRNAME = "inbox"
TRASH_DIRNAME = "trash"
MAX_TITLE_CHARS = 500
MAX_TOPICS = 50
_thread_lock = threading.Lock()
DraftList = list["Draft"]
PathList = list[Path]
Changes = list[tuple[str, str]]  # (action, memory id)


class DraftNotFound(PixelmemError):
    def __init__(self, draft_id: str) -> None:
        super().__init__(
            f"no draft with id {draft_id!r} in the review inbox (already accepted or rejected?)"
        )
        self.draft_id = draft_id


@dataclass
class Draft:
    """A proposed memory; ``path`` is its file in the inbox."""

    id: str
    title: str
    body: str = ""
    topics: list[str] = field(default_factory=list)
    importance: str = DEFAULT_IMPORTANCE
    source: str | None = None
    created: datetime | None = None
    updated: datetime | None = None
    path: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # other frontmatter (a proposal's)


def checked_text(title: str, content: str, topics: Iterable[str]) -> None:
    """Refuse text that would make an unreadable or unreasonable memory file.

    A NUL byte makes the store skip the file as binary; control characters in a title or topic
    break the YAML line they live on.
    """
    if "\0" in content:
        raise InvalidMemoryError("the content contains a NUL character")
    if len(content.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES - 64 * 1024:
        raise InvalidMemoryError(f"the content is larger than {MAX_FILE_BYTES // 2**20} MB")
    if len(title) > MAX_TITLE_CHARS:
        raise InvalidMemoryError(f"the title is longer than {MAX_TITLE_CHARS} characters")
    topics = list(topics)
    if len(topics) > MAX_TOPICS:
        raise InvalidMemoryError(f"more than {MAX_TOPICS} topics")
    for text in (title, *topics):
        if not isinstance(text, str):
            raise InvalidMemoryError("titles and topics must be text")
        if any(unicodedata.category(ch) == "Cc" and ch not in "\t\r\n" for ch in text):
            raise InvalidMemoryError(f"{text[:40]!r} contains control characters (NUL, …)")
    refuse_unencodable(content, "the content")
    refuse_unencodable(title, "the title")
    for topic in topics:
        refuse_unencodable(topic, "a topic")


class Inbox:
    """The drafts of one vault."""

    def __init__(self, vault: Path) -> None:
        self.vault = Path(vault)
        self.folder = appdata_dir(self.vault) / INBOX_DIRNAME

    # -- reading ---------------------------------------------------------------------------

    def list(self) -> DraftList:
        """Every readable draft, oldest first; unreadable files are logged and left alone."""
        drafts = []
        for path in self._files():
            try:
                drafts.append(self._read(path))
            except UnreadableFile as exc:
                log.warning("review inbox: %s", exc)
        epoch = datetime.min.replace(tzinfo=UTC)
        return sorted(drafts, key=lambda d: (d.created or epoch, d.title))

    def count(self) -> int:
        return len(self._files())

    def get(self, draft_id: str) -> Draft:
        """One draft by id; raise :class:`DraftNotFound` or :class:`InvalidIdError`."""
        ids.validate_id(draft_id)
        for draft in self.list():
            if draft.id == draft_id:
                return draft
        raise DraftNotFound(draft_id)

    # -- writing ---------------------------------------------------------------------------

    def add(
        self,
        title: str,
        content: str,
        topics: Iterable[str] = (),
        importance: str = DEFAULT_IMPORTANCE,
        source: str | None = "mcp",
        extra: dict[str, Any] | None = None,
    ) -> Draft:
        """Write a new draft file and return it (``extra``: more frontmatter keys)."""
        topics = list(topics)
        checked_text(title, content, topics)
        fields = checked_fields(title, topics, importance, source, extra)
        now = _now()
        draft_id = ids.new_id()
        slug_source = fields["topics"][0] if fields["topics"] else fields["title"]
        text = new_file_text(draft_id, fields, now, now, content)
        self._make_folder()
        with self._locked():
            path = unique_path(self.folder, ids.memory_filename(now, slug_source, draft_id))
            self._write(path, text.encode("utf-8"))
        return self._read(path)

    def update(self, draft: Draft) -> Draft:
        """Save an edited draft over its file (the draft must still be in the inbox)."""
        checked_text(draft.title, draft.body, draft.topics)
        fields = checked_fields(
            draft.title, draft.topics, draft.importance, draft.source, draft.extra
        )
        with self._locked():
            current = self._find(draft.id)
            created = current.created or _now()
            text = new_file_text(draft.id, fields, created, _now(), draft.body)
            assert current.path is not None
            self._write(current.path, text.encode("utf-8"))
            return self._read(current.path)

    def accept(self, draft_id: str, store: MemoryStore) -> Memory:
        """Create the memory in the vault, then move the draft to the trash."""
        return self.accept_changes(draft_id, store)[0]

    def accept_changes(self, draft_id: str, store: MemoryStore) -> tuple[Memory, Changes]:
        """:meth:`accept`, with what changed in the vault as ``(action, id)`` pairs (a
        proposal updates a memory, or creates one and marks another superseded)."""
        from pixelmem.core.archive.proposals import apply_proposal, is_proposal

        with self._locked():
            draft = self._find(draft_id)
            changes: Changes
            if is_proposal(draft):
                memory, changes = apply_proposal(draft, store)
            else:
                memory = self._create_memory(draft, store)
                changes = [("created", memory.id)]
            assert draft.path is not None
            self._to_trash(draft.path)
        return memory, changes

    def reject(self, draft_id: str) -> Path:
        """Move the draft to ``.pixelmem/trash``; return where it went."""
        with self._locked():
            draft = self._find(draft_id)
            assert draft.path is not None
            return self._to_trash(draft.path)

    # -- internals -------------------------------------------------------------------------

    def _files(self) -> PathList:
        try:
            with os.scandir(self.folder) as entries:
                return sorted(
                    Path(e.path)
                    for e in entries
                    if is_markdown(e.name) and not is_hidden(e.name) and e.is_file()
                )
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise VaultError(
                f"cannot read the review inbox {self.folder}: {exc.strerror}"
            ) from None

    def _read(self, path: Path) -> Draft:
        text, _data, info = read_checked(path)
        try:
            doc = parse_document(text)
        except FrontmatterError as exc:
            raise UnreadableFile(path, str(exc)) from None
        memory = memory_from_document(doc, path, self.folder, info.st_mtime_ns)
        return Draft(
            id=memory.id,
            title=memory.title,
            body=memory.body,
            topics=memory.topics,
            importance=memory.importance,
            source=memory.source,
            created=memory.created or memory.updated,  # drafts are written with a date
            updated=memory.updated,
            path=path,
            extra=dict(memory.extra),
        )

    def _find(self, draft_id: str) -> Draft:
        return self.get(draft_id)

    def _create_memory(self, draft: Draft, store: MemoryStore) -> Memory:
        """The memory for ``draft``; if an earlier accept got this far and then stopped (the
        draft is still here but its memory exists), that memory is returned, not a copy."""
        fields = draft_as_memory_fields(draft)
        if draft.id in store:
            existing = store.get(draft.id)
            if existing.title == draft.title and existing.body == draft.body:
                return existing
            return store.create(draft.title, draft.body, **fields)  # type: ignore[arg-type]
        try:
            return store.create(
                draft.title,
                draft.body,
                memory_id=draft.id,
                **fields,  # type: ignore[arg-type]
            )
        except InvalidIdError:  # taken since the scan: the memory gets a fresh id
            return store.create(draft.title, draft.body, **fields)  # type: ignore[arg-type]

    def _to_trash(self, path: Path) -> Path:
        trash = appdata_dir(self.vault) / TRASH_DIRNAME
        try:
            make_private_dirs(trash)
            target = unique_path(trash, path.name)
            os.replace(path, target)
        except FileNotFoundError:
            raise DraftNotFound(path.stem) from None
        except OSError as exc:
            raise VaultError(f"cannot move {path.name} to the trash: {exc.strerror}") from None
        return target

    def _write(self, path: Path, data: bytes) -> None:
        try:
            atomic_write_bytes(path, data)
        except OSError as exc:
            raise VaultError(f"cannot write the draft {path.name}: {exc.strerror}") from None

    def _make_folder(self) -> None:
        try:
            make_private_dirs(self.folder)
        except OSError as exc:
            raise VaultError(
                f"cannot create the review inbox {self.folder}: {exc.strerror}"
            ) from None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One inbox change at a time, across threads and processes (GUI + MCP server)."""
        with _thread_lock, process_lock(appdata_dir(self.vault), "inbox.lock"):
            yield


def draft_as_memory_fields(draft: Draft) -> dict[str, object]:
    """The draft's fields as keyword arguments for ``MemoryStore.create``."""
    from pixelmem.core.archive.proposals import kept_extra

    return {
        "topics": list(draft.topics),
        "importance": draft.importance,
        "source": draft.source,
        "created": draft.created,
        "extra": kept_extra(draft.extra) or None,
    }


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


__all__ = ["Draft", "DraftNotFound", "Inbox", "checked_text"]
