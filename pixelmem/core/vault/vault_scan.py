"""Reading a vault: one file as a :class:`Memory`, or every memory file in one scan.

Which files are scanned is :mod:`vault_files`' rule. A file that cannot be read as a memory
(too big, binary, not UTF-8, broken frontmatter, unreadable) is skipped and reported as a
:class:`SkippedFile`, never modified. Files whose stat is unchanged since the last scan reuse
that scan's result (:mod:`scan_cache`) instead of being read and parsed again. A second file
claiming an id already taken gets its path-derived id. Our own temp files that a killed process
left behind are removed on the way, an hour after they were last touched.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pixelmem.core.errors import PixelmemError, VaultError
from pixelmem.core.files.safe_open import open_regular
from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault import ids, scan_cache
from pixelmem.core.vault.frontmatter_io import (
    Document,
    FrontmatterError,
    memory_from_document,
    parse_document,
    relpath,
)
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.stale_temps import MIN_AGE_SECONDS, RUN_STARTED, open_files
from pixelmem.core.vault.titles import TitleRule, vault_title_rule
from pixelmem.core.vault.vault_files import iter_memory_entries

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 10 * 1024 * 1024
STEP_FILES = 16  # files read between two steps aside (~0.3 ms each when parsed)
# Temp files of atomic.write_temp that a killed process left behind (".<name>.<random>.tmp").
_TEMP_RE = re.compile(r"^\..+\.(?:md|markdown)\.[A-Za-z0-9_]{8}\.tmp$", re.IGNORECASE)
STALE_TEMP_SECONDS = 3600


@dataclass(frozen=True)
class SkippedFile:
    path: Path
    reason: str


@dataclass
class ScanResult:
    memories: list[Memory]
    skipped: list[SkippedFile]
    # Every file matched the scan cache the scan started from (nothing added, changed, removed
    # or read): the result is what that cache's listing showed (:func:`listed_memories`).
    unchanged: bool = False


class UnreadableFile(PixelmemError):
    """A file in the vault that cannot be read as a memory; it is skipped, never modified."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path.name} is skipped: {reason}")
        self.path = path
        self.reason = reason

    def skipped(self) -> SkippedFile:
        return SkippedFile(self.path, self.reason)


def read_checked(path: Path) -> tuple[str, bytes, os.stat_result]:
    """The text of a file if it is a readable Markdown file; raise :class:`UnreadableFile`."""
    try:
        with open_regular(path) as handle:
            info = os.fstat(handle.fileno())
            if info.st_size > MAX_FILE_BYTES:
                raise UnreadableFile(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if not data.strip():
        raise UnreadableFile(path, "empty file")
    if b"\0" in data:
        raise UnreadableFile(path, "binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(path, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    return text, data, info


def load_memory(path: Path, vault_root: Path) -> Memory:
    """Read one file as a :class:`Memory`; raise :class:`UnreadableFile` if it must be skipped."""
    return load_with_document(path if isinstance(path, Path) else Path(path), vault_root)[0]


def load_with_document(
    path: Path, vault_root: Path, rule: TitleRule | None = None
) -> tuple[Memory, Document]:
    """The memory and the split file; ``rule`` is the vault's title rule (found if not given)."""
    text, data, info = read_checked(path)
    try:
        doc = parse_document(text)
    except FrontmatterError as exc:
        raise UnreadableFile(path, str(exc)) from None
    memory = memory_from_document(doc, path, vault_root, info.st_mtime_ns, rule)
    memory.disk_hash = hashlib.sha256(data).hexdigest()
    return memory, doc


# ---------------------------------------------------------------- the whole vault


@dataclass
class VaultScan:
    """One scan's table: memories by id, ids by path, skipped files, and the scan cache."""

    memories: dict[str, Memory]
    by_path: dict[Path, str]
    skipped: list[SkippedFile]
    cache: scan_cache.ScanSession


def scan_vault(root: Path, resolved_root: Path, previous: scan_cache.ScanCache) -> VaultScan:
    """Read every memory file below ``root`` (sorted by path); ``previous`` is the last scan's
    cache. Call ``result.cache.finish(path)`` to save the cache for the next scan."""
    if not root.is_dir():
        raise VaultError(f"the vault folder {root} no longer exists")
    rule = vault_title_rule(root)
    if previous.rule not in (None, rule):  # the folder became, or stopped being, a vault of
        previous = scan_cache.ScanCache(first_seen=previous.first_seen)  # Obsidian's
    session = scan_cache.ScanSession(previous, rule)
    prefix = len(os.path.join(str(root), ""))
    result = VaultScan({}, {}, [], session)
    entries = sorted(_memory_entries(root, resolved_root), key=lambda entry: entry.path)
    for number, entry in enumerate(entries):
        if number % STEP_FILES == 0:
            step_aside()  # a late or building window, or a search, first (core/step_aside)
        path = Path(entry.path)
        rel = entry.path[prefix:]
        sig = scan_cache.signature(entry)
        found = session.cached(rel, sig, path)
        if found is None:
            try:
                found, doc = load_with_document(path, root, rule)
            except UnreadableFile as exc:
                # A file that could not be opened may be readable next time: not cached.
                if not isinstance(exc.__context__, OSError):
                    session.record(rel, sig, exc.reason)
                result.skipped.append(exc.skipped())
                continue
            # Before de-duplication may change its id. Values built from YAML aliases
            # share objects the cache would store expanded: those files are parsed again.
            session.record(rel, sig, None if doc.aliases else found)
        if isinstance(found, str):
            result.skipped.append(SkippedFile(path, found))
            continue
        if found.created is None:  # no date in the file: the one it was first seen
            found.created = session.first_seen(rel, sig)
        memory = deduplicated(found, result.memories, root)
        result.memories[memory.id] = memory
        result.by_path[path] = memory.id
    log.debug("scan: %d file(s) from the scan cache, %d read", session.hits, session.misses)
    return result


def listed_memories(listing: scan_cache.Listing) -> list[Memory]:
    """The memories a scan cache's listing shows, as the list needs them: the fields it
    shows, no path, and as the body only the line the list shows of a memory without topics
    (:func:`~pixelmem.core.vault.memory.preview_line`): a picture for a list, never for an
    editor. What :func:`scan_vault` gives, in the same order with the same ids, when no file
    changed. ``ValueError`` for a row this code did not write (the listing is read without the
    file's checksum: a damaged one must not reach the list)."""
    if not all(map(_listed_row_ok, listing.rows)):  # ~6 ms for 10k
        bad = next(row for row in listing.rows if not _listed_row_ok(row))
        raise ValueError(f"a listing row this code did not write: {bad!r:.80}")
    return [
        Memory(
            id=row[1],
            title=row[2],
            body=row[9],
            topics=list(row[3]),
            importance=row[4],
            created=row[5],
            updated=row[6],
            aliases=list(row[7]),
            has_id=row[8],
        )
        for row in listing.rows
    ]


def _listed_row_ok(row: object) -> bool:
    """A row as :meth:`~.scan_cache.ScanCache.listing` writes it: strings, lists of strings,
    dates, a flag. (Plain checks, no generators: 10k rows at every launch.)"""
    if type(row) is not list or len(row) != 10:
        return False
    _rel, memory_id, title, topics, importance, created, updated, aliases, has_id, body = row
    if type(memory_id) is not str or type(title) is not str or type(body) is not str:
        return False
    if type(importance) is not str or type(has_id) is not bool:
        return False
    if type(topics) is not list or type(aliases) is not list:
        return False
    for name in topics:
        if type(name) is not str:
            return False
    for name in aliases:
        if type(name) is not str:
            return False
    return (created is None or type(created) is datetime) and (
        updated is None or type(updated) is datetime
    )


def _memory_entries(root: Path, resolved_root: Path) -> list[os.DirEntry[str]]:
    def unreadable(folder: str, exc: OSError) -> None:
        if isinstance(exc, FileNotFoundError) and folder == str(root):
            raise VaultError(f"the vault folder {root} no longer exists") from None
        if not isinstance(exc, FileNotFoundError):
            log.warning("cannot read folder %s: %s", folder, exc)

    return list(
        iter_memory_entries(str(root), resolved_root, on_hidden=_TempSweeper(), on_error=unreadable)
    )


def deduplicated(memory: Memory, table: Mapping[str, Memory], root: Path) -> Memory:
    """A second file claiming an id already taken gets its path-derived id instead."""
    other = table.get(memory.id)
    if other is None or other.path == memory.path:
        return memory
    assert memory.path is not None
    log.warning("%s repeats the id of %s; using a path-derived id", memory.path, other.path)
    memory.id = ids.path_id(relpath(memory.path, root))
    memory.has_id = False
    return memory


class _TempSweeper:
    """Removes our own temp files that a killed write left beside a note: once no process
    holds one open and it is older than this run (stale_temps' rule, asked of /proc once per
    scan and only when there is a candidate), or an hour on where open files cannot be listed."""

    def __init__(self) -> None:
        self._held: set[str] | None = None
        self._asked = False

    def __call__(self, entry: os.DirEntry[str]) -> None:
        if not _TEMP_RE.match(entry.name):
            return
        try:
            mtime = entry.stat(follow_symlinks=False).st_mtime
            age = time.time() - mtime
            if age > STALE_TEMP_SECONDS or (age > MIN_AGE_SECONDS and self._unheld(entry, mtime)):
                os.unlink(entry.path)
        except OSError:
            pass

    def _unheld(self, entry: os.DirEntry[str], mtime: float) -> bool:
        if mtime >= RUN_STARTED:
            return False  # maybe one of this process's own writes, in progress
        if not self._asked:
            self._held, self._asked = open_files(), True
        return self._held is not None and os.path.realpath(entry.path) not in self._held
