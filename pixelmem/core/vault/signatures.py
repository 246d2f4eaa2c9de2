"""File signatures: a cheap way to tell which memory files changed, without reading them.

A file's signature is ``(mtime_ns, size, inode)`` from ``os.scandir``: pixelmem writes by
atomic rename, so every save gets a new inode even when the clock is too coarse to move the
mtime. The walk follows the vault's file rules (:mod:`vault_files`), as the store's scan does.
The runtime's watcher (:meth:`~pixelmem.core.runtime.watcher.VaultWatcher.check`) compares
them between two looks.
"""

from __future__ import annotations

import os
from pathlib import Path

from pixelmem.core.vault.vault_files import iter_memory_entries

Signature = tuple[int, int, int]  # (mtime_ns, size, inode)


def vault_signatures(root: Path) -> dict[str, Signature]:
    """``{absolute path: signature}`` for every memory file the store would scan."""
    found: dict[str, Signature] = {}
    for entry in iter_memory_entries(str(root), Path(root).resolve()):
        try:
            info = entry.stat()
        except OSError:  # vanished between readdir and stat: it shows up as removed
            continue
        found[entry.path] = (info.st_mtime_ns, info.st_size, info.st_ino)
    return found


def file_signature(path: Path) -> Signature | None:
    """The signature of one file (e.g. the settings file), None if it does not exist."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


def changed_paths(before: dict[str, Signature], after: dict[str, Signature]) -> list[Path]:
    """Paths added, changed or removed between two :func:`vault_signatures`, sorted."""
    changed = [p for p, sig in after.items() if before.get(p) != sig]
    changed += [p for p in before if p not in after]
    return [Path(p) for p in sorted(changed)]
