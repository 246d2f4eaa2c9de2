"""A cheap "what changed in the vault since I last looked?" for long-running processes.

The MCP server has no file-system watcher; before each request it asks :class:`VaultWatcher`
which Markdown files were added, changed or removed since the previous poll, and re-reads only
those. A file's signature is ``(mtime_ns, size, inode)`` from ``os.scandir``: pixelmem writes by
atomic rename, so every save gets a new inode even when the clock is too coarse to move the
mtime. The walk follows the vault's file rules (:mod:`vault_files`), as the store's scan does.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from pixelmem.core.vault.vault_files import iter_memory_entries

log = logging.getLogger(__name__)

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


class VaultWatcher:
    """Remembers the vault's file signatures; :meth:`poll` returns the paths that differ."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._seen: dict[str, Signature] | None = None

    def poll(self) -> list[Path]:
        """Paths added, changed or removed since the last poll (the first poll returns [])."""
        current = vault_signatures(self.root)
        previous, self._seen = self._seen, current
        if previous is None:
            return []
        changed = [p for p, sig in current.items() if previous.get(p) != sig]
        changed += [p for p in previous if p not in current]
        return [Path(p) for p in sorted(changed)]

    def reset(self) -> None:
        """Forget what was seen: the next poll is a fresh baseline."""
        self._seen = None
