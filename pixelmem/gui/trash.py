"""Delete to the system trash (SPEC §1), falling back to ``<vault>/.pixelmem/trash``; undo both.

Runs on the write lane. The store is told about every move through ``reload_path`` (system
trash) or does the move itself (``store.delete`` / ``store.restore_from_trash``), so its table
and the file-system watcher agree on what happened.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFile

from pixelmem.core.errors import VaultError
from pixelmem.core.store import MemoryStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrashRecord:
    """Enough to undo one deletion."""

    memory_id: str
    title: str
    original: Path
    trashed: Path
    system_trash: bool


def move_to_trash(store: MemoryStore, memory_id: str) -> TrashRecord:
    """Move a memory's file to the system trash if there is one, else to the vault's trash."""
    memory = store.get(memory_id)
    assert memory.path is not None
    handle = QFile(str(memory.path))
    if handle.moveToTrash():  # on success fileName() is the file's place in the trash
        store.reload_path(memory.path)  # the store forgets the file it no longer sees
        return TrashRecord(memory_id, memory.title, memory.path, Path(handle.fileName()), True)
    trashed = store.delete(memory_id)
    return TrashRecord(memory_id, memory.title, memory.path, trashed, False)


def restore(store: MemoryStore, record: TrashRecord) -> str:
    """Put a trashed file back (beside the original name if that is taken); its memory id."""
    if not record.system_trash:
        return store.restore_from_trash(record.trashed, record.original).id
    target = _move_back(record.trashed, record.original)
    _forget_trash_info(record.trashed)
    change = store.reload_path(target)
    return change[1] if change else record.memory_id


def _move_back(source: Path, original: Path) -> Path:
    """Move without ever replacing an existing file: link (fails if taken), then unlink."""
    if not source.exists():
        raise VaultError(f"{source.name} is no longer in the trash")
    original.parent.mkdir(parents=True, exist_ok=True)
    stem, suffix = original.stem, original.suffix
    for number in range(1, 1000):
        name = original.name if number == 1 else f"{stem} ({number}){suffix}"
        target = original.with_name(name)
        try:
            os.link(source, target)
        except FileExistsError:
            continue
        except OSError:  # no hard links here (another file system): check, then rename
            if target.exists():
                continue
            os.rename(source, target)
            return target
        os.unlink(source)
        return target
    raise VaultError(f"cannot restore {original.name}: too many files with that name")


def _forget_trash_info(trashed: Path) -> None:
    """Drop the freedesktop ``.trashinfo`` entry so the trash does not list a ghost file."""
    if trashed.parent.name != "files":
        return
    info = trashed.parent.parent / "info" / f"{trashed.name}.trashinfo"
    with contextlib.suppress(OSError):
        info.unlink()
