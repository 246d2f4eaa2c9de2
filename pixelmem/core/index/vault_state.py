"""Whether a vault's files are still those an index was made from, without a scan.

A saved index (:mod:`saved_index`) keeps a :class:`FileTable`: every file its memories came
from, with the file's hash (``Memory.disk_hash``, the sha256 of its bytes), and every skipped
(unreadable) file. A file's signature (mtime, size, inode, ctime) is kept too where the scan
cache vouches for it: its entry holds the same file hash, and under the scan cache's own trust
rule the file had settled before the scan that read it began
(:func:`~pixelmem.core.vault.scan_cache.settled_at`).

:func:`unchanged` walks the vault as the scan does (:mod:`~pixelmem.core.vault.vault_files`):
the same files, none added or gone; a file with its vouched signature is taken as it was, any
other memory file is read and its hash compared (a note saved in the app since the last scan;
at most :data:`MAX_READS` of them). That costs a ``stat`` per file (~30 ms for 10k) where a
scan costs the scan cache's load and the memories' table (~0.5 s). What it cannot vouch for
(an unreadable folder, a changed skipped file, too many files to read) makes it answer False:
the caller then scans.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.scan_cache import ScanCache, cached_result, settled_at, signature
from pixelmem.core.vault.vault_files import iter_memory_entries
from pixelmem.core.vault.vault_scan import UnreadableFile, read_checked

MAX_READS = 256  # memory files read to compare their hash; more: the caller scans instead
_UNKNOWN = (-1, -1, -1, -1)  # no vouched signature: read the file to compare


@dataclass(frozen=True)
class FileTable:
    """Vault-relative paths (POSIX), each with its signature (``-1`` × 4: none vouched for)
    and its file hash (None: a skipped file)."""

    paths: tuple[str, ...]
    signatures: np.ndarray  # int64 [n, 4]: mtime_ns, size, inode, ctime_ns
    hashes: tuple[str | None, ...]

    @classmethod
    def empty(cls) -> FileTable:
        return cls((), np.zeros((0, 4), np.int64), ())


def file_table(
    vault: Path,
    memories: Iterable[Memory],
    skipped: Iterable[Path],
    cache: ScanCache | None,
) -> FileTable | None:
    """The table of ``memories`` and the ``skipped`` files, with the signatures the last
    scan's ``cache`` vouches for; None when a memory has no file hash (it was not read from
    a file)."""
    stamp, entries = (cache.stamp_ns, vouched(vault, cache)) if cache is not None else (0, {})
    files: list[tuple[Path | None, str | None]] = []
    for memory in memories:
        if not memory.disk_hash:
            return None
        files.append((memory.path, memory.disk_hash))
    files += [(path, None) for path in skipped]
    paths: list[str] = []
    signatures: list[tuple[int, ...]] = []
    prefix = os.path.join(str(vault), "")
    for path, disk_hash in files:
        name = str(path) if path is not None else ""
        if not name.startswith(prefix):  # no path, or one outside the vault
            return None
        rel = name[len(prefix) :].replace(os.sep, "/")
        entry = entries.get(rel)
        trusted = entry is not None and entry[1] == disk_hash and settled_at(entry[0]) < stamp
        paths.append(rel)
        signatures.append(tuple(entry[0]) if entry is not None and trusted else _UNKNOWN)
    hashes = tuple(disk_hash for _path, disk_hash in files)
    return FileTable(tuple(paths), np.asarray(signatures, np.int64).reshape(-1, 4), hashes)


def vouched(vault: Path, cache: ScanCache) -> dict[str, tuple[list[int], str | None]]:
    """What ``cache`` says each file read as: ``{relative path: (signature, file hash, None
    for a skipped file)}`` (files it holds no result for are left out)."""
    found: dict[str, tuple[list[int], str | None]] = {}
    for rel, entry in cache.entries.items():
        result = cached_result(entry, vault)  # its path is not what is asked here
        if isinstance(result, Memory) and result.disk_hash:
            found[rel.replace(os.sep, "/")] = (list(entry[:4]), result.disk_hash)
        elif isinstance(result, str):
            found[rel.replace(os.sep, "/")] = (list(entry[:4]), None)
    return found


def unchanged(vault: Path, table: FileTable) -> bool:
    """Whether the vault's memory files are exactly the table's, with the same contents."""
    known = {p: i for i, p in enumerate(table.paths)}
    signatures = table.signatures.tolist()
    root = str(vault)
    prefix = len(os.path.join(root, ""))
    unreadable: list[str] = []
    seen, reads = 0, 0
    entries = iter_memory_entries(root, vault.resolve(), on_error=lambda f, e: unreadable.append(f))
    for entry in entries:
        at = known.get(entry.path[prefix:].replace(os.sep, "/"))
        if at is None:
            return False  # a new file
        seen += 1
        sig = signature(entry)
        if sig is not None and sig == signatures[at]:
            continue
        wanted = table.hashes[at]
        reads += 1
        if wanted is None or reads > MAX_READS or _file_hash(Path(entry.path)) != wanted:
            return False
    return not unreadable and seen == len(known)


def _file_hash(path: Path) -> str | None:
    try:
        _text, data, _info = read_checked(path)
    except UnreadableFile:
        return None
    return hashlib.sha256(data).hexdigest()
