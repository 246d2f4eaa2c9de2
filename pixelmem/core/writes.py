"""The one write gateway: every change to a vault's memories, from any entry point, goes here.

The GUI session, the CLI and the MCP server each hold one :class:`MemoryWrites` per vault and
call it for create, update, delete, restore, accepting a review-inbox draft, importing files
and re-reading files other programs changed. Each call returns the result together with a
:class:`ChangeSet` (which ids were created, updated, deleted), so a caller can announce the
whole batch at once: an import of 1,000 files is one change set.

A write returns as soon as the file is safely on disk; nothing here indexes. Whoever owns the
search index (``Engine.reindex``, the GUI's indexing lane) brings it up to date afterwards.

A backup restored into the vault goes through here too (:meth:`MemoryWrites.restore_backup`).

Deleting follows one trash policy everywhere: the file moves to ``<vault>/.pixelmem/trash/``
with a small record of where it came from (:class:`VaultTrash`), so a delete made by the CLI
or an AI tool can be undone in the app exactly like one made in the app.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Generic, TypeVar

from pixelmem.core.archive.folder_import import FolderImport, ImportProblem
from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.archive.restore import RestoreReport, restore_backup
from pixelmem.core.errors import PixelmemError
from pixelmem.core.files.atomic import atomic_write_bytes
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.paths import appdata_dir
from pixelmem.core.vault.links import LinkUpdate
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore
from pixelmem.core.vault.vault_files import is_memory_relpath

T = TypeVar("T")
ImportListener = Callable[[Path, "Memory | PixelmemError"], None]

CREATED = "created"
UPDATED = "updated"
DELETED = "deleted"
RECORDS_DIRNAME = "trash-records"  # beside trash/, so trash/ holds only trashed files


@dataclass(frozen=True)
class ChangeSet:
    """What one write (or one batch of writes) changed: memory ids, each in one group."""

    created: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()

    @classmethod
    def of(cls, action: str, memory_id: str) -> ChangeSet:
        return cls.from_pairs([(action, memory_id)])

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str]]) -> ChangeSet:
        """From ``(action, id)`` pairs in order; the last action on an id wins."""
        last: dict[str, str] = {}
        for action, memory_id in pairs:
            if action not in (CREATED, UPDATED, DELETED):
                raise ValueError(f"unknown change {action!r}")
            last.pop(memory_id, None)  # keep the order of the latest action
            last[memory_id] = action
        groups: dict[str, list[str]] = {CREATED: [], UPDATED: [], DELETED: []}
        for memory_id, action in last.items():
            groups[action].append(memory_id)
        return cls(tuple(groups[CREATED]), tuple(groups[UPDATED]), tuple(groups[DELETED]))

    def __bool__(self) -> bool:
        return bool(self.created or self.updated or self.deleted)

    def __len__(self) -> int:
        return len(self.created) + len(self.updated) + len(self.deleted)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset((*self.created, *self.updated, *self.deleted))

    def pairs(self) -> list[tuple[str, str]]:
        """``(action, id)`` for every change: created, then updated, then deleted."""
        return [
            *((CREATED, i) for i in self.created),
            *((UPDATED, i) for i in self.updated),
            *((DELETED, i) for i in self.deleted),
        ]

    def action_of(self, memory_id: str) -> str | None:
        for action, group in ((CREATED, self.created), (UPDATED, self.updated)):
            if memory_id in group:
                return action
        return DELETED if memory_id in self.deleted else None


@dataclass(frozen=True)
class Written(Generic[T]):
    """A write's result and what it changed."""

    value: T
    changes: ChangeSet


@dataclass(frozen=True)
class TrashRecord:
    """Enough to undo one deletion."""

    memory_id: str
    title: str
    original: Path
    trashed: Path


@dataclass(frozen=True)
class LinkUpdateResult:
    updated: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()  # one sentence per memory left as it was


@dataclass(frozen=True)
class ImportResult:
    created: tuple[str, ...] = ()
    failed: tuple[str, ...] = field(default_factory=tuple)  # one sentence per failed file
    # One sentence per file left out on purpose: its text is already there, or its kind
    # is not one pixelmem reads.
    skipped: tuple[str, ...] = field(default_factory=tuple)
    copied: tuple[str, ...] = ()  # attachments copied with a folder (paths below the vault)
    problems: tuple[ImportProblem, ...] = ()  # failed and skipped, for a translated report


class VaultTrash:
    """``<vault>/.pixelmem/trash/`` for trashed files; ``trash-records/`` says where each was."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.folder = appdata_dir(store.root) / "trash"
        self.records = appdata_dir(store.root) / RECORDS_DIRNAME

    def move(self, memory_id: str, *, force: bool = False) -> TrashRecord:
        memory = self.store.get(memory_id)
        assert memory.path is not None
        trashed = self.store.delete(memory_id, force=force)
        record = TrashRecord(memory_id, memory.title, memory.path, trashed)
        with contextlib.suppress(OSError):  # the file is safe; only undo-from-elsewhere is lost
            self._write_record(record)
        return record

    def restore(self, record: TrashRecord) -> Memory:
        memory = self.store.restore_from_trash(record.trashed, record.original)
        with contextlib.suppress(OSError):
            self._record_path(record.trashed).unlink()
        return memory

    def find(self, memory_id: str) -> TrashRecord | None:
        """The latest record of ``memory_id`` whose file is still in the trash."""
        found: list[tuple[int, TrashRecord]] = []
        try:
            entries = list(os.scandir(self.records))
        except OSError:
            return None
        for entry in entries:
            record = self._read_record(Path(entry.path))
            if record is not None and record.memory_id == memory_id and record.trashed.exists():
                with contextlib.suppress(OSError):
                    found.append((entry.stat().st_mtime_ns, record))
        return max(found, key=lambda pair: pair[0])[1] if found else None

    def _record_path(self, trashed: Path) -> Path:
        return self.records / f"{trashed.name}.json"

    def _write_record(self, record: TrashRecord) -> None:
        data = {
            "id": record.memory_id,
            "title": record.title,
            "original": os.path.relpath(record.original, self.store.root),
            "trashed": record.trashed.name,
        }
        path = self._record_path(record.trashed)
        make_private_dirs(path.parent)
        atomic_write_bytes(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))

    def _read_record(self, path: Path) -> TrashRecord | None:
        try:
            data = json.loads(path.read_bytes()[:65536])
            return TrashRecord(
                str(data["id"]),
                str(data["title"]),
                self.store.root / str(data["original"]),
                self.folder / Path(str(data["trashed"])).name,
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None


class MemoryWrites:
    """One vault's write gateway (one per process and vault); safe to call from any thread."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.trash = VaultTrash(store)

    def create(self, title: str, body: str = "", **fields: Any) -> Written[Memory]:
        """Write a new memory; ``fields`` are :meth:`MemoryStore.create`'s keyword arguments."""
        memory = self.store.create(title, body, **fields)
        return Written(memory, ChangeSet.of(CREATED, memory.id))

    def create_from(self, draft: Memory) -> Written[Memory]:
        """Write ``draft`` (an unsaved :class:`Memory`, e.g. the editor's) as a new memory."""
        return self.create(
            draft.title,
            draft.body,
            topics=draft.topics,
            aliases=draft.aliases,
            importance=draft.importance,
            source=draft.source,
            extra=draft.extra or None,
        )

    def update(self, memory: Memory, *, force: bool = False) -> Written[Memory]:
        """Save an edited memory; ``ConflictError`` if its file changed, unless ``force``."""
        saved = self.store.update(memory, force=force)
        if saved.id != memory.id:  # renamed, and its id came from its path: a new memory
            pairs = [(DELETED, memory.id), (CREATED, saved.id)]
            return Written(saved, ChangeSet.from_pairs(pairs))
        return Written(saved, ChangeSet.of(UPDATED, saved.id))

    def save_conflict_copy(self, memory: Memory) -> Written[Memory]:
        copy = self.store.save_conflict_copy(memory)
        return Written(copy, ChangeSet.of(CREATED, copy.id))

    def delete(self, memory_id: str, *, force: bool = False) -> Written[TrashRecord]:
        """Move a memory to the trash; a note the user may not write raises
        :class:`~pixelmem.core.errors.NoteNotWritable` unless ``force`` (they confirmed)."""
        record = self.trash.move(memory_id, force=force)
        return Written(record, ChangeSet.of(DELETED, memory_id))

    def restore(self, record: TrashRecord) -> Written[Memory]:
        memory = self.trash.restore(record)
        return Written(memory, ChangeSet.of(CREATED, memory.id))

    def accept_draft(self, inbox: Inbox, draft_id: str) -> Written[Memory]:
        memory, changes = inbox.accept_changes(draft_id, self.store)
        return Written(memory, ChangeSet.from_pairs(changes))

    def import_files(
        self, paths: Iterable[Path], on_file: ImportListener | None = None
    ) -> Written[ImportResult]:
        """Import files and folders; a failed file is reported, not fatal. Folders keep their
        tree, names and attachments (:mod:`~pixelmem.core.archive.folder_import`, which says
        what is refused and skipped). ``on_file(path, memory_or_error)`` hears of each file.
        """
        done = FolderImport(self.store, on_file).run(paths)
        problems = tuple(done.problems)
        result = ImportResult(
            created=tuple(done.created),
            failed=tuple(p.sentence() for p in problems if not p.skipped),
            skipped=tuple(p.sentence() for p in problems if p.skipped),
            copied=tuple(done.copied),
            problems=problems,
        )
        created = result.created
        return Written(result, ChangeSet(created=tuple(created)))

    def apply_link_updates(self, updates: Iterable[LinkUpdate]) -> Written[LinkUpdateResult]:
        """Write the rewritten links of :func:`links.plan_rename`/:func:`links.plan_retarget`,
        all in one change set. A memory changed since the plan was made is left alone and
        reported (its links are not rewritten over someone else's edit)."""
        updated: list[str] = []
        failed: list[str] = []
        for update in updates:
            try:
                memory = self.store.get(update.memory_id)
                if update.disk_hash is not None and memory.disk_hash != update.disk_hash:
                    raise PixelmemError("it changed since the links were looked up")
                memory.body = update.body
                saved = self.store.update(memory)
            except PixelmemError as exc:
                failed.append(f"{update.title}: {exc}")
                continue
            updated.append(saved.id)
        result = LinkUpdateResult(tuple(updated), tuple(failed))
        return Written(result, ChangeSet(updated=tuple(updated)))

    def restore_backup(self, archive: Path, **options: Any) -> Written[RestoreReport]:
        """Restore a backup into this vault (:func:`~pixelmem.core.archive.restore.
        restore_backup`'s options: nothing is overwritten unless asked); the memories it brought
        back come as one change set."""
        report = restore_backup(archive, self.store.root, **options)
        if options.get("dry_run"):
            return Written(report, ChangeSet())
        restored = (PurePosixPath(rel) for rel in report.restored)
        paths = [self.store.root / rel for rel in restored if is_memory_relpath(rel)]
        return Written(report, self.reload_paths(paths).changes)

    def reload_paths(self, paths: Iterable[Path]) -> Written[None]:
        """Files changed outside pixelmem: re-read them; our own writes compare equal."""
        changes = (self.store.reload_path(Path(p)) for p in paths)
        return Written(None, ChangeSet.from_pairs(c for c in changes if c is not None))

    def rescan(self) -> Written[None]:
        """Scan the whole vault again; the change set is every id that came, went or changed."""
        before = {m.id: m.disk_hash for m in self.store.list()}
        after = {m.id: m.disk_hash for m in self.store.scan().memories}
        return Written(
            None,
            ChangeSet(
                created=tuple(i for i in after if i not in before),
                updated=tuple(i for i in after if i in before and before[i] != after[i]),
                deleted=tuple(i for i in before if i not in after),
            ),
        )


__all__ = [
    "CREATED",
    "DELETED",
    "UPDATED",
    "ChangeSet",
    "ImportResult",
    "LinkUpdateResult",
    "MemoryWrites",
    "TrashRecord",
    "VaultTrash",
    "Written",
]
