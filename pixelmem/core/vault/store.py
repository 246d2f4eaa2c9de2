"""The vault: a folder of Markdown memories, read into a table and written back safely.

Rules this module keeps (README, "How memories are stored"):
- A file is rewritten only when pixelmem saves an edit to it, and then only the frontmatter
  lines of keys that changed; unknown keys, their order and the body bytes stay as they were.
- Foreign files (no ``id`` key) keep a path-derived id; saving one never adds ``id``,
  ``created`` or ``updated`` keys the file did not have.
- Every write is atomic and is refused (:class:`ConflictError`) if the file changed on disk
  since it was read, unless forced. Deleting moves the file into ``<vault>/.pixelmem/trash``.
- Files that cannot be read are skipped and reported, never modified (reading and scanning
  are :mod:`vault_scan`'s; which files count is :mod:`vault_files`').

The table is guarded by an RLock; file reads happen outside it. Writes are serialised per
process by a lock and across processes (GUI, CLI, MCP server) by ``files.process_lock``.
Callers write through :class:`~pixelmem.core.writes.MemoryWrites`, not the store directly.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import threading
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pixelmem.core.errors import (
    ConflictError,
    InvalidIdError,
    InvalidMemoryError,
    MemoryNotFound,
    MemoryUnreadable,
    NoteNotWritable,
    PixelmemError,
    VaultError,
    VaultNotWritable,
)
from pixelmem.core.files.checked_replace import ContentChanged, checked_replace, write_new
from pixelmem.core.files.file_names import fitted, split_name
from pixelmem.core.files.folders import unique_path
from pixelmem.core.files.permissions import make_private_dirs, secure_appdata, write_refusal
from pixelmem.core.files.process_lock import process_lock
from pixelmem.core.paths import appdata_dir, resolve_vault
from pixelmem.core.vault import ids, scan_cache
from pixelmem.core.vault.frontmatter_io import (
    Document,
    checked_body,
    checked_fields,
    new_file_text,
    normalise_datetime,
    relpath,
    render_update,
)
from pixelmem.core.vault.gc_pause import collector_paused
from pixelmem.core.vault.memory import DEFAULT_IMPORTANCE, Memory
from pixelmem.core.vault.stale_temps import remove_stale_temps
from pixelmem.core.vault.titles import (
    OBSIDIAN,
    TitleRule,
    file_name_for,
    name_problem,
    title_source,
    vault_title_rule,
)
from pixelmem.core.vault.vault_files import is_inside, is_memory_relpath
from pixelmem.core.vault.vault_scan import (
    MAX_FILE_BYTES,
    ScanResult,
    SkippedFile,
    UnreadableFile,
    deduplicated,
    listed_memories,
    load_memory,
    load_with_document,
    scan_vault,
)

log = logging.getLogger(__name__)

NEW_FILE = "<new file>"  # MemoryStore._write: the path must not exist yet
MIN_ID_PREFIX = 4  # characters of an id that find() accepts in its place


MemoryList = list[Memory]
SkippedList = list[SkippedFile]


# ---------------------------------------------------------------- the store


class MemoryStore:
    """The memories of one vault folder. Safe to share between threads."""

    def __init__(self, root: Path | None = None, *, create: bool = True) -> None:
        self.root = Path(root).expanduser() if root is not None else resolve_vault()
        _prepare_root(self.root, create)
        secure_appdata(appdata_dir(self.root))
        remove_stale_temps(appdata_dir(self.root))
        self._resolved_root = self.root.resolve()
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._memories: dict[str, Memory] = {}
        self._by_path: dict[Path, str] = {}
        self._skipped: SkippedList = []
        self._scanned = False
        self._scan_cache: scan_cache.ScanCache | None = None  # the last scan's, for the next
        self._listed_stamp: int | None = None  # the scan cache cached_listing() showed

    # ------------------------------------------------------------ reading

    def scan(self) -> ScanResult:
        """Read every Markdown file under the vault and replace the table.

        Files whose stat is unchanged since the last scan reuse that scan's result from the
        scan cache (:mod:`pixelmem.core.vault.scan_cache`) instead of being read and parsed again.
        """
        with collector_paused(keep=True):  # the table, the cache and the copies live on
            if self._scan_cache is None:
                self._scan_cache = scan_cache.ScanCache.load(self._scan_cache_path())
            found = scan_vault(self.root, self._resolved_root, self._scan_cache)
            # Exact as shown: nothing changed since the cache this scan started from, and that
            # is the one the listing came from (another process may have rewritten it since).
            listed = self._listed_stamp in (None, self._scan_cache.stamp_ns)
            self._listed_stamp = None
            self._scan_cache = found.cache.finish(self._scan_cache_path())
            memories, by_path, skipped = found.memories, found.by_path, found.skipped
            with self._lock:
                self._memories, self._by_path, self._skipped = memories, by_path, skipped
                self._scanned = True
            copies = [_copy(m) for m in memories.values()]
        return ScanResult(copies, list(skipped), unchanged=found.cache.unchanged and listed)

    def cached_listing(self) -> MemoryList:
        """The memories as the last scan of this vault saw them, from the scan cache's listing
        alone (no file is looked at, no body decompressed): a first picture for a list while
        :meth:`scan` checks every file. They have no path, and as the body only the line a
        list shows (:func:`~.vault_scan.listed_memories`): get a memory to edit from
        :meth:`get` once scanned. Empty when there is no usable cache. The next
        :meth:`scan`'s ``unchanged`` says whether this picture was exact."""
        with collector_paused():  # ~50k containers that all live on: see gc_pause
            listing = scan_cache.load_listing(self._scan_cache_path())
            if listing is None or listing.rule not in (None, vault_title_rule(self.root)):
                return []  # none, or titled by another rule: the scan will show the vault
            try:
                memories = listed_memories(listing)
            except ValueError as exc:  # damaged: no picture, the scan will show the vault
                log.debug("ignoring the scan cache's listing: %s", exc)
                return []
            self._listed_stamp = listing.stamp_ns
            return memories

    def list(self) -> MemoryList:
        """Copies of every memory from the last scan (scans on first use); ~2 ms per 1000."""
        self._ensure_scanned()
        with self._lock:
            memories = list(self._memories.values())
        return [_copy(memory) for memory in memories]

    def view(self) -> tuple[Memory, ...]:
        """Every memory from the last scan, not copied (scans on first use): for callers that
        only read them all (the index, the link graph, the timeline). Never change one: the
        store's own. (It replaces a memory on every change and never edits one in place, so
        a view stays what it was when taken.) A copy of 10k made 40k objects in ~30 ms, and
        the collections they set off held the GIL up to ~100 ms (bench_gil_holds.py)."""
        self._ensure_scanned()
        with self._lock:
            return tuple(self._memories.values())

    def get(self, memory_id: str) -> Memory:
        """A copy of one memory; raise :class:`MemoryNotFound` or :class:`InvalidIdError`."""
        ids.validate_id(memory_id)
        self._ensure_scanned()
        with self._lock:
            memory = self._memories.get(memory_id)
        if memory is None:
            raise self._not_found(memory_id)
        return _copy(memory)

    def find(self, key: str) -> Memory:
        """A memory by its id, or by a unique prefix of at least :data:`MIN_ID_PREFIX`
        characters (ids are long to type); the one rule for the CLI, REST and MCP."""
        try:
            return self.get(key)
        except MemoryNotFound:
            if len(key) < MIN_ID_PREFIX:
                raise
            with self._lock:
                matches = [i for i in self._memories if i.startswith(key)]
            if len(matches) != 1:
                raise
            return self.get(matches[0])

    def _not_found(self, memory_id: str) -> MemoryNotFound:
        """ "No memory with id" — or, when the id names a file the scan could not read, which
        file and why (a note made unreadable is not a note that is gone)."""
        with self._lock:
            skipped = list(self._skipped)
        for item in skipped:
            if ids.path_id(relpath(item.path, self.root)) == memory_id:
                return MemoryUnreadable(memory_id, item.path.name, item.reason)
        if skipped:
            return MemoryNotFound(memory_id, unreadable=len(skipped))
        return MemoryNotFound(memory_id)

    def __contains__(self, memory_id: object) -> bool:
        self._ensure_scanned()
        with self._lock:
            return memory_id in self._memories

    def path_for(self, memory_id: str) -> Path:
        memory = self.get(memory_id)
        assert memory.path is not None
        return memory.path

    @property
    def skipped(self) -> SkippedList:
        self._ensure_scanned()
        with self._lock:
            return list(self._skipped)

    @property
    def scanned(self) -> bool:
        """Whether the vault was scanned (the table is filled)."""
        return self._scanned

    @property
    def last_scan_cache(self) -> scan_cache.ScanCache | None:
        """The scan cache the last scan left: what each file read as, by signature."""
        return self._scan_cache

    def reload_path(self, path: Path) -> tuple[str, str] | None:
        """Re-read one file after a change on disk: ``(action, memory_id)`` or None if unchanged.

        ``action`` is ``created``, ``updated`` or ``deleted`` (also when a file became
        unreadable). Files outside the vault, in dot-folders or not Markdown are ignored.
        """
        path = Path(path)
        path = path if path.is_absolute() else self.root / path
        if not self._is_memory_path(path):
            return None
        try:
            if path.is_symlink() and not self._is_inside(path.resolve()):
                return None
        except (OSError, RuntimeError):  # a symlink loop: not a file below, so it counts as gone
            pass
        self._ensure_scanned()
        memory: Memory | None = None
        skipped: SkippedFile | None = None
        if path.is_file():
            try:
                memory = self._dated(load_memory(path, self.root))
            except UnreadableFile as exc:
                skipped = exc.skipped()
        with self._lock:
            self._skipped = [s for s in self._skipped if s.path != path]
            if skipped:
                self._skipped.append(skipped)
            old_id = self._by_path.get(path)
            old = self._memories.get(old_id) if old_id else None
            if memory is None:
                if old_id is None:
                    return None
                self._forget(old_id)
                return ("deleted", old_id)
            if old is not None and old.disk_hash == memory.disk_hash:
                return None
            memory = self._replace_entry(path, memory)
            return ("updated" if old is not None else "created", memory.id)

    # ------------------------------------------------------------ writing

    def create(
        self,
        title: str,
        body: str = "",
        *,
        topics: Iterable[str] = (),
        importance: str = DEFAULT_IMPORTANCE,
        source: str | None = None,
        extra: Mapping[str, Any] | None = None,
        aliases: Iterable[str] = (),
        created: datetime | None = None,
        updated: datetime | None = None,
        memory_id: str | None = None,
        place: Path | None = None,
    ) -> Memory:
        """Write a new memory file ``memory_YYYY-MM-DD_<slug>_<id8>.md`` and return it.

        ``memory_id`` keeps a given id (imports); it must be valid and unused. ``place`` is
        the file's path instead (an import keeping a file's name), inside the vault.
        """
        self._ensure_scanned()
        now = _now()
        fields = checked_fields(title, topics, importance, source, extra, aliases)
        checked_body(body)
        created_at = normalise_datetime(created) or now
        with self._lock:
            if memory_id is not None and ids.validate_id(memory_id) in self._memories:
                raise InvalidIdError(memory_id, "already used by another memory")
        new_id = memory_id or self._fresh_id()
        slug_source = fields["topics"][0] if fields["topics"] else fields["title"]
        name = ids.memory_filename(created_at, slug_source, new_id)
        named = file_name_for(fields["title"]) if vault_title_rule(self.root) == OBSIDIAN else None
        # An Obsidian vault's note is called by its file name, as Obsidian names it.
        path = self._inside_vault(Path(place)) if place is not None else self.root / (named or name)
        title_key = not (named and path.name == named)
        updated_at = normalise_datetime(updated) or now
        memory = self._write_new(
            path, new_id, fields, created_at, updated_at, body, title_key=title_key
        )
        return _copy(memory)

    def update(self, memory: Memory, *, force: bool = False) -> Memory:
        """Save an edited memory; raise :class:`ConflictError` if its file changed on disk.

        Only what differs from the file is rewritten. ``force=True`` overwrites a changed file
        (keys on disk that ``memory`` does not mention are still kept). Unknown keys are never
        removed; set a new value in ``memory.extra`` to change one.
        """
        ids.validate_id(memory.id)
        fields = checked_fields(
            memory.title,
            memory.topics,
            memory.importance,
            memory.source,
            memory.extra,
            memory.aliases,
        )
        checked_body(memory.body)
        path = self._known_path(memory)
        rule = vault_title_rule(self.root)
        with self._write_lock, self._process_lock():
            self._refuse_unwritable(path, "saved")
            doc, current = self._read_for_update(path, memory, force)
            renamed = self._renamed_path(path, doc, current, fields["title"], rule)
            now = _now()
            data = render_update(memory, fields, doc, current, now, rule, rename_ok=bool(renamed))
            if data is None and renamed is None:  # nothing changed: leave the file alone
                assert current is not None
                return _copy(current)
            if data is not None:
                expected = None if force or current is None else current.disk_hash
                try:
                    self._write(path, data, expected)
                except ContentChanged:
                    raise ConflictError(path, memory.id) from None
            if renamed is not None:
                try:
                    self._rename(path, renamed)
                except PixelmemError:  # saved under its old name: the table says so
                    with self._lock:
                        self._replace_entry(path, self._load_written(path))
                    raise
            saved = self._load_written(renamed or path)
            with self._lock:
                if renamed is not None:
                    self._forget_path(path)
                saved = self._replace_entry(renamed or path, saved)
        return _copy(saved)

    def _renamed_path(
        self, path: Path, doc: Document, current: Memory | None, title: str, rule: TitleRule
    ) -> Path | None:
        """Where the file goes when its new title is its name (an Obsidian vault's note
        without a ``title`` key: Obsidian calls a note by its file name, so a new title is a
        rename; a ``title`` key would be ignored there). None when it stays where it is."""
        if current is None or title == current.title or rule != OBSIDIAN:
            return None
        if title_source(doc.data, doc.body, rule) != "file name":
            return None
        name = file_name_for(title, path.suffix)
        if name is None:
            why = name_problem(" ".join(title.split())) or "it is too long for a file name"
            raise InvalidMemoryError(f"“{title}” cannot be the note's file name: {why}")
        target = path.with_name(name)
        if target == path:
            return None
        if target.exists() and not _same_file(target, path):
            raise InvalidMemoryError(f"a note called “{title}” is already in this folder")
        return target

    def _rename(self, path: Path, target: Path) -> None:
        """Rename the note's file, never over another file: a hard link to the new name (which
        fails if the name is taken, even by a file made a moment ago) and then the old name
        removed; a plain rename for a change of case on a case-blind disk, a symlink, or a
        disk without hard links (checked first)."""
        self._inside_vault(target)
        try:
            if _same_file(target, path) or path.is_symlink():
                os.rename(path, target)
                return
            try:
                os.link(path, target, follow_symlinks=False)
            except FileExistsError:
                raise
            except OSError:  # no hard links here (FAT, some network disks)
                if target.exists():
                    raise FileExistsError(target) from None
                os.rename(path, target)
                return
            os.unlink(path)
        except FileExistsError:
            raise InvalidMemoryError(f"a note called “{target.stem}” is already there") from None
        except OSError as exc:
            raise self._write_error(exc) from exc

    def _forget_path(self, path: Path) -> None:
        old_id = self._by_path.get(path)
        if old_id is not None:
            self._forget(old_id)

    def save_conflict_copy(self, memory: Memory) -> Memory:
        """Keep both: write ``memory`` as ``<stem> (conflict YYYY-MM-DD HHMMSS).md``, new id.

        The copy's title says so too ("… (conflict copy 2026-11-24 01:35)"): two rows with one
        title in the list would leave the person guessing which is which.
        """
        now = _now()
        title = f"{memory.title} (conflict copy {now:%Y-%m-%d %H:%M})"
        fields = checked_fields(
            title, memory.topics, memory.importance, memory.source, memory.extra, memory.aliases
        )
        checked_body(memory.body)
        original = self._known_path(memory)
        stem, _ = split_name(original.name)
        path = original.parent / fitted(stem, f" (conflict {now:%Y-%m-%d %H%M%S})", ".md")
        copy = self._write_new(
            path, self._fresh_id(), fields, memory.created or now, now, memory.body
        )
        return _copy(copy)

    def delete(self, memory_id: str, *, force: bool = False) -> Path:
        """Move a memory's file to ``<vault>/.pixelmem/trash/``; return where it went.

        A note the user may not write (read-only, another user's) raises
        :class:`NoteNotWritable` unless ``force`` (the person confirmed it)."""
        path = self.path_for(memory_id)
        trash = appdata_dir(self.root) / "trash"
        with self._write_lock, self._process_lock():
            if not force:
                self._refuse_unwritable(path, "moved to the trash")
            try:
                make_private_dirs(trash)
                target = unique_path(trash, path.name)
                os.replace(path, target)
            except FileNotFoundError:
                with self._lock:
                    self._forget(memory_id)
                raise MemoryNotFound(memory_id) from None
            except OSError as exc:
                raise self._write_error(exc) from exc
            with self._lock:
                self._forget(memory_id)
        return target

    def restore_from_trash(self, trashed: Path, original: Path) -> Memory:
        """Undo :meth:`delete`: move ``trashed`` back (beside ``original`` if that is taken)."""
        trash = (appdata_dir(self.root) / "trash").resolve()
        if not Path(trashed).resolve().is_relative_to(trash):
            raise VaultError(f"{trashed} is not in the vault's trash")
        original = self._inside_vault(Path(original))
        with self._write_lock, self._process_lock():
            target = unique_path(original.parent, original.name)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(trashed, target)
            except FileNotFoundError:
                raise VaultError(f"{trashed} is no longer in the trash") from None
            except OSError as exc:
                raise self._write_error(exc) from exc
        try:
            memory = self._dated(load_memory(target, self.root))
        except UnreadableFile as exc:
            raise VaultError(str(exc)) from None
        with self._lock:
            memory = self._replace_entry(target, memory)
        return _copy(memory)

    # ------------------------------------------------------------ internals

    def _ensure_scanned(self) -> None:
        if not self._scanned:
            self.scan()

    def _scan_cache_path(self) -> Path:
        return appdata_dir(self.root) / scan_cache.CACHE_FILENAME

    def _is_inside(self, resolved: Path) -> bool:
        return is_inside(resolved, self._resolved_root)

    def _inside_vault(self, path: Path) -> Path:
        path = path if path.is_absolute() else self.root / path
        if not self._is_inside(path.resolve()):
            raise VaultError(f"{path} is outside the vault {self.root}")
        return path

    def _is_memory_path(self, path: Path) -> bool:
        try:
            return is_memory_relpath(path.relative_to(self.root))
        except ValueError:
            return False

    def _replace_entry(self, path: Path, memory: Memory) -> Memory:
        """Put the memory just read from ``path`` in the table instead of that file's old entry."""
        old_id = self._by_path.get(path)
        if old_id is not None:
            self._forget(old_id)
        memory = deduplicated(memory, self._memories, self.root)
        self._remember(memory)
        return memory

    def _remember(self, memory: Memory) -> None:
        assert memory.path is not None
        self._memories[memory.id] = memory
        self._by_path[memory.path] = memory.id

    def _forget(self, memory_id: str) -> None:
        memory = self._memories.pop(memory_id, None)
        if memory is not None and memory.path is not None:
            self._by_path.pop(memory.path, None)

    def _fresh_id(self) -> str:
        with self._lock:
            while True:
                candidate = ids.new_id()
                if candidate not in self._memories:
                    return candidate

    def _known_path(self, memory: Memory) -> Path:
        self._ensure_scanned()
        with self._lock:
            known = self._memories.get(memory.id)
        if known is not None and known.path is not None:
            return known.path
        if memory.path is None:
            raise MemoryNotFound(memory.id)
        return self._inside_vault(Path(memory.path))

    def _read_for_update(
        self, path: Path, memory: Memory, force: bool
    ) -> tuple[Document, Memory | None]:
        """The file as it is now, after the dirty check."""
        try:
            current, doc = load_with_document(path, self.root)
        except UnreadableFile as exc:
            if not path.exists() and force:
                return Document(), None
            if path.exists() and force:
                raise VaultError(f"{exc}; not overwriting it") from None
            raise ConflictError(path, memory.id) from None
        baseline = memory.disk_hash
        if baseline is None:
            with self._lock:
                known = self._memories.get(memory.id)
            baseline = known.disk_hash if known else None
        if not force and current.disk_hash != baseline:
            raise ConflictError(path, memory.id)
        return doc, current

    def _write_new(
        self,
        path: Path,
        memory_id: str,
        fields: dict[str, Any],
        created: datetime,
        updated: datetime,
        body: str,
        *,
        title_key: bool = True,
    ) -> Memory:
        """Write a new file at ``path``, or beside it as ``<stem> (2).md`` if that is taken
        (then with a ``title`` key: the name no longer says it)."""
        with self._write_lock, self._process_lock():
            while True:  # another program may create the free name first: take the next one
                free = unique_path(path.parent, path.name)
                with_key = title_key or free != path
                text = new_file_text(memory_id, fields, created, updated, body, title_key=with_key)
                path = free
                try:
                    self._write(path, text.encode("utf-8"), NEW_FILE)
                    break
                except FileExistsError:
                    continue
            memory = self._load_written(path)
            with self._lock:
                memory = self._replace_entry(path, memory)
        return memory

    def _dated(self, memory: Memory) -> Memory:
        """A memory read outside a scan, given its first-seen date if its file has none."""
        if memory.created is None and memory.path is not None:
            self._ensure_scanned()
            assert self._scan_cache is not None
            rel = os.path.relpath(memory.path, self.root)
            seen = self._scan_cache.first_seen.setdefault(rel, memory.disk_mtime_ns or 0)
            memory.created = scan_cache.first_seen_datetime(seen)
        return memory

    def _load_written(self, path: Path) -> Memory:
        try:
            return self._dated(load_memory(path, self.root))
        except UnreadableFile as exc:  # pragma: no cover - we just wrote it
            raise VaultError(str(exc)) from None

    def _write(self, path: Path, data: bytes, expected_hash: str | None) -> None:
        """Replace ``path`` if it still hashes to ``expected_hash`` (:class:`ContentChanged`
        if not; ``None``: unconditionally), or create it when given :data:`NEW_FILE`."""
        if len(data) > MAX_FILE_BYTES:  # it would be skipped as unreadable on the next scan
            limit = MAX_FILE_BYTES // (1024 * 1024)
            raise InvalidMemoryError(f"a memory cannot be larger than {limit} MB; split it up")
        self._inside_vault(path)
        # Through a symlink (checked to stay in the vault): replace the target, keep the link.
        target = path.resolve() if path.is_symlink() else path
        try:
            if expected_hash == NEW_FILE:
                write_new(target, data)
            else:
                checked_replace(target, data, expected_hash)
        except FileExistsError:
            raise
        except OSError as exc:
            raise self._write_error(exc) from exc

    def check_writable(self, memory_id: str, action: str) -> None:
        """Raise :class:`NoteNotWritable` now if the memory's file must be left alone (for an
        operation that would otherwise stop half-way, e.g. a merge)."""
        self._refuse_unwritable(self.path_for(memory_id), action)

    def _refuse_unwritable(self, path: Path, action: str) -> None:
        why = write_refusal(path)
        if why is not None:
            raise NoteNotWritable(path, why, action)

    def _write_error(self, exc: OSError) -> PixelmemError:
        if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            return VaultNotWritable(self.root, "the disk is full; the file was left unchanged")
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return VaultNotWritable(self.root, f"{exc.strerror}; nothing was changed")
        if isinstance(exc, FileNotFoundError) and not self.root.exists():
            return VaultError(f"the vault folder {self.root} no longer exists")
        return VaultNotWritable(self.root, exc.strerror or str(exc))

    def _process_lock(self) -> contextlib.AbstractContextManager[None]:
        """Serialise check-and-write across processes sharing the vault (GUI + MCP server)."""
        return process_lock(appdata_dir(self.root), "write.lock")


# ---------------------------------------------------------------- helpers


def _prepare_root(root: Path, create: bool) -> None:
    if root.is_dir():
        return
    if root.exists():
        raise VaultError(f"the vault {root} is not a folder")
    if not create:
        raise VaultError(f"the vault folder {root} does not exist")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VaultNotWritable(root, exc.strerror or str(exc)) from None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _copy(memory: Memory) -> Memory:
    """A copy callers may edit without touching the table (2x faster than dataclasses.replace)."""
    clone = object.__new__(Memory)
    clone.__dict__.update(memory.__dict__)
    clone.topics = list(memory.topics)
    clone.extra = dict(memory.extra)
    return clone
