"""Restore a backup made by :mod:`pixelmem.core.archive.backup` without ever overwriting a file.

Restoring reads the archive once: every member is checked (regular files only, no absolute or
``..`` names, no links or devices), hashed and, unless it is in the destination already and
not to be replaced, staged in a private folder inside the destination (:mod:`restore_staging`),
and then the manifest and every checksum are checked; nothing
outside the staging folder is written unless all of it holds (a failure removes the staging
folder and the folders the restore made). Then the files go into place without clobbering:
each target folder is made and checked once (inside the destination, no symlink leading out)
and held open, the staged files get their modes and times, their data is flushed in one go
(``syncfs``), and each is hard-linked into its folder (``link`` fails rather than replace a
file); every folder that received one is fsynced once. All or nothing: a failure or an
interruption (Ctrl-C) while placing takes back every file placed so far (and puts back the old
versions it had moved to the trash) before it is raised; a restore killed outright leaves only
complete files (run it again: the identical ones are skipped) and a staging folder that the
next restore removes.

An existing file that differs is a conflict: by default nothing is restored and the conflicts
are listed; ``keep_existing`` restores only what is missing and ``overwrite`` first moves the
existing versions into ``.pixelmem/trash/restore-<time>/``. The embedding cache is derived data:
a differing one is kept unless ``overwrite``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import shutil
import tarfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from pixelmem.core.archive.archive_manifest import (
    CACHE_RELPATH,
    FILES_PREFIX,
    MANIFEST_NAME,
    BackupError,
    FileEntry,
    Progress,
    manifest_entries,
    parse_manifest,
    relpath_problem,
)
from pixelmem.core.archive.restore_staging import (
    Staging,
    flush_to_disk,
    missing_folders,
    rename_no_replace,
    write_all,
)
from pixelmem.core.errors import PixelmemError
from pixelmem.core.files.atomic import remove_quietly, temp_beside
from pixelmem.core.files.folders import make_dirs
from pixelmem.core.files.permissions import make_private_dirs, new_file_mode
from pixelmem.core.paths import APPDATA_DIRNAME
from pixelmem.core.wording import counted

_BLOCK = 1024 * 1024
_MAX_MANIFEST = 256 * 1024 * 1024


class RestoreConflict(PixelmemError):
    """Files in the destination differ from the backup; nothing was restored."""

    def __init__(self, dest: Path, conflicts: list[str]) -> None:
        shown = "\n".join(f"  {name}" for name in conflicts[:20])
        more = f"\n  … and {len(conflicts) - 20} more" if len(conflicts) > 20 else ""
        super().__init__(
            f"{counted(len(conflicts), 'file')} in {dest} "
            f"{'differs' if len(conflicts) == 1 else 'differ'} from the backup; "
            "nothing was restored:\n"
            f"{shown}{more}\n"
            "Restore into an empty folder (--to DIR), restore only the missing files "
            "(--keep-existing), or replace them (--overwrite: the current versions are moved "
            f"to {APPDATA_DIRNAME}/trash/ first)."
        )
        self.dest = dest
        self.conflicts = conflicts


@dataclass
class RestoreReport:
    dest: Path
    restored: list[str] = field(default_factory=list)
    identical: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # differing files left as they were
    replaced: list[str] = field(default_factory=list)  # old versions moved to the trash
    trash: Path | None = None


# ---------------------------------------------------------------- verifying an archive


def member_problem(member: tarfile.TarInfo) -> str | None:
    """Why ``member`` must not be restored, or None."""
    if not (member.isreg() or member.isdir()):
        kind = "a link" if member.issym() or member.islnk() else "a device or special file"
        return f"{kind}, not a regular file"
    name = member.name
    if name == MANIFEST_NAME:
        return None if member.isreg() else "the manifest is not a file"
    if not name.startswith(FILES_PREFIX) and name.rstrip("/") != FILES_PREFIX.rstrip("/"):
        return "outside the archive's vault/ folder"
    # tarfile.data_filter is not called: for regular files and folders it refuses what this
    # does (absolute names, other kinds) and a name whose realpath on disk leaves ``dest``,
    # at a realpath per member (~60 µs: a third of a 50,000-note restore). Placing checks that
    # once per folder instead, holds the folder open and links by a single name into it.
    return relpath_problem(name)


def verify_backup(archive: Path, progress: Progress | None = None) -> dict[str, FileEntry]:
    """Check every member and checksum of ``archive``; its files by vault-relative path.

    Raises :class:`BackupError` naming every problem.
    """
    hashes: dict[str, str] = {}
    bad: list[str] = []
    manifest_bytes: bytes | None = None
    with _reading(archive):
        for member, reader in _members(archive, progress):
            problem = member_problem(member)
            if problem:
                bad.append(f"{member.name!r}: {problem}")
            elif member.isdir():
                continue
            elif member.name in hashes or (
                member.name == MANIFEST_NAME and manifest_bytes is not None
            ):
                bad.append(f"{member.name!r}: appears twice")
            elif member.name == MANIFEST_NAME:
                manifest_bytes = reader().read(_MAX_MANIFEST + 1)
            else:
                hashes[member.name] = _sha256(reader())
    return _checked_entries(archive, bad, manifest_bytes, hashes)


def _members(
    archive: Path, progress: Progress | None
) -> Iterator[tuple[tarfile.TarInfo, Callable[[], IO[bytes]]]]:
    """Each member in archive order, with a function opening its data; progress in bytes."""
    total = archive.stat().st_size
    with open(archive, "rb") as raw, tarfile.open(fileobj=raw, mode="r:gz") as tar:
        for member in tar:
            yield member, _opener(tar, member)
            if progress:
                progress(min(raw.tell(), total), total)
    if progress:
        progress(total, total)


def _opener(tar: tarfile.TarFile, member: tarfile.TarInfo) -> Callable[[], IO[bytes]]:
    def open_member() -> IO[bytes]:
        if member.isreg() and not member.issparse() and member.size <= _BLOCK:
            return io.BytesIO(_small_member_bytes(tar, member))
        handle = tar.extractfile(member)
        if handle is None:
            raise BackupError(f"{member.name} has no data")
        return handle

    return open_member


def _small_member_bytes(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    """A small regular member's bytes in one read where they start in the archive: what
    ``extractfile`` reads too, without its two reader objects per member (~8 µs each; a
    tenth of reading a 50,000-note archive)."""
    assert tar.fileobj is not None
    tar.fileobj.seek(member.offset_data)
    data = tar.fileobj.read(member.size)
    if len(data) != member.size:
        raise tarfile.ReadError("unexpected end of data")
    return data


def _sha256(handle: IO[bytes]) -> str:
    digest = hashlib.sha256()
    while block := handle.read(_BLOCK):
        digest.update(block)
    return digest.hexdigest()


def _compare(archive: Path, entries: dict[str, FileEntry], hashes: dict[str, str]) -> None:
    named = {FILES_PREFIX + path: entry for path, entry in entries.items()}
    problems = [f"{e.path}: missing from the archive" for n, e in named.items() if n not in hashes]
    for name, digest in hashes.items():
        entry = named.get(name)
        if entry is None:
            problems.append(f"{name}: not listed in the manifest")
        elif entry.sha256 != digest:
            problems.append(f"{entry.path}: checksum mismatch (the archive is damaged)")
    if problems:
        raise BackupError(
            f"{archive} failed verification; nothing was restored:\n  " + "\n  ".join(problems[:20])
        )


# ---------------------------------------------------------------- restore


def restore_backup(
    archive: Path,
    dest: Path,
    *,
    overwrite: bool = False,
    keep_existing: bool = False,
    dry_run: bool = False,
    progress: Progress | None = None,
    verify_progress: Progress | None = None,
) -> RestoreReport:
    """Check ``archive`` and write its files under ``dest`` (see the module docstring)."""
    archive, dest = Path(archive), Path(dest)
    if dry_run:
        report, replace = _planned(verify_backup(archive, verify_progress), dest, overwrite,
                                   keep_existing)  # fmt: skip
        report.replaced = sorted(replace)
        return report
    with Staging(dest) as staging:
        entries, staged = _stage(archive, dest, staging, verify_progress, overwrite)
        report, replace = _planned(entries, dest, overwrite, keep_existing)
        if replace:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            report.trash = dest / APPDATA_DIRNAME / "trash" / f"restore-{stamp}"
        todo = sorted(set(report.restored) | replace)
        _all_staged(todo, staged, dest)
        _Placing(dest, entries, staged, report, staging).place(todo, progress)
    return report


def _all_staged(todo: list[str], staged: dict[str, Path], dest: Path) -> None:
    """Files that were in ``dest`` while the archive was read (so not staged) and are gone
    now: someone is deleting there meanwhile; stop before anything is placed."""
    gone = [rel for rel in todo if rel not in staged]
    if gone:
        raise BackupError(
            f"{counted(len(gone), 'file')} in {dest} "
            f"{'was' if len(gone) == 1 else 'were'} removed while the restore read the "
            f"archive ({', '.join(gone[:5])}); nothing was restored — run it again"
        )


def _planned(
    entries: dict[str, FileEntry], dest: Path, overwrite: bool, keep_existing: bool
) -> tuple[RestoreReport, set[str]]:
    """The report so far (new and identical files, kept ones) and the files to replace; a
    :class:`RestoreConflict` when differing files block the restore."""
    report = RestoreReport(dest)
    conflicts = _plan(entries, dest, report)
    blocking = [c for c in conflicts if c != CACHE_RELPATH]
    if blocking and not (overwrite or keep_existing):
        raise RestoreConflict(dest, blocking)
    replace = set(conflicts) if overwrite else set()
    report.kept = sorted(set(conflicts) - replace)
    return report, replace


def _plan(entries: dict[str, FileEntry], dest: Path, report: RestoreReport) -> list[str]:
    """Sort entries into new (``report.restored``), identical, and conflicts (returned)."""
    conflicts = []
    inside = _Inside(dest)
    absent = _Absent(dest)
    for path, entry in sorted(entries.items()):
        target = dest / path
        if not inside(target.parent):
            raise BackupError(f"{path} would be written outside {dest} (a symlinked folder?)")
        if absent(path):
            report.restored.append(path)
        elif target.is_file() and not target.is_symlink() and _file_sha256(target) == entry.sha256:
            report.identical.append(path)
        else:
            conflicts.append(path)
    return conflicts


class _Absent:
    """Whether a relative path is free in ``dest``: a file in a folder that is not there is
    known to be free without a look of its own (a restore into a new folder: an ``lstat`` per
    folder, not per file). A folder made after its look is caught when placing: a link or a
    rename never replaces."""

    def __init__(self, dest: Path) -> None:
        self.dest = dest
        self._folders: dict[str, bool] = {"": True}

    def __call__(self, rel: str) -> bool:
        if not self._folder_exists(rel.rpartition("/")[0]):
            return True
        return not os.path.lexists(self.dest / rel)

    def _folder_exists(self, folder: str) -> bool:
        unknown: list[str] = []  # the folder and its parents not looked at yet, innermost first
        while folder not in self._folders:
            unknown.append(folder)
            folder = folder.rpartition("/")[0]
        found = self._folders[folder]
        for folder in reversed(unknown):  # no recursion: a vault may be 2,000 folders deep
            found = found and os.path.lexists(self.dest / folder)
            self._folders[folder] = found
        return found


class _Inside:
    """Whether folders resolve inside ``dest``: one ``realpath`` per folder, not two per file."""

    def __init__(self, dest: Path) -> None:
        self.root = os.path.realpath(dest)
        self._known: dict[str, bool] = {}

    def __call__(self, folder: Path) -> bool:
        key = str(folder)
        found = self._known.get(key)
        if found is None:
            real = os.path.realpath(folder)
            found = real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)
            self._known[key] = found
        return found

    def forget(self) -> None:
        self._known.clear()


def _file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return _sha256(handle)


def _stage(
    archive: Path, dest: Path, staging: Staging, progress: Progress | None, replacing: bool
) -> tuple[dict[str, FileEntry], dict[str, Path]]:
    """Read the archive once: check every member (as :func:`verify_backup`), write each file
    into the staging folder while hashing it, and check the manifest and every checksum.
    Unless ``replacing``, a file already in ``dest`` is only hashed, not staged (restoring a
    few lost notes into a big vault stages those few). Returns the manifest's entries and the
    staged file of each (by vault-relative path)."""
    hashes: dict[str, str] = {}
    staged: dict[str, Path] = {}
    bad: list[str] = []
    manifest_bytes: bytes | None = None
    absent = _Absent(dest)
    with _reading(archive):
        for member, reader in _members(archive, progress):
            problem = member_problem(member)
            if problem:
                bad.append(f"{member.name!r}: {problem}")
            elif member.isdir():
                continue
            elif member.name in hashes or (
                member.name == MANIFEST_NAME and manifest_bytes is not None
            ):
                bad.append(f"{member.name!r}: appears twice")
            elif member.name == MANIFEST_NAME:
                manifest_bytes = reader().read(_MAX_MANIFEST + 1)
            elif bad:  # refused already: its other problems are still listed, nothing staged
                hashes[member.name] = ""
            else:
                rel = member.name[len(FILES_PREFIX) :]
                if replacing or absent(rel):
                    hashes[member.name], staged[rel] = _stage_one(reader(), staging, dest, rel)
                else:  # there already: the plan compares it, and it is not to be replaced
                    hashes[member.name] = _sha256(reader())
    return _checked_entries(archive, bad, manifest_bytes, hashes), staged


def _checked_entries(
    archive: Path, bad: list[str], manifest_bytes: bytes | None, hashes: dict[str, str]
) -> dict[str, FileEntry]:
    """After one read of the archive: its problems refused, else the manifest's entries by
    path, each member's checksum compared with them."""
    if bad:
        raise BackupError(
            f"{archive} has unsafe or malformed entries; nothing was restored:\n  "
            + "\n  ".join(bad[:20])
        )
    manifest = parse_manifest(archive, manifest_bytes)
    entries = {e.path: e for e in manifest_entries(archive, manifest)}
    _compare(archive, entries, hashes)
    return entries


def _stage_one(source: IO[bytes], staging: Staging, dest: Path, rel: str) -> tuple[str, Path]:
    digest = hashlib.sha256()
    with _writing(dest, rel):
        fd, path = staging.new_file(rel)
    try:
        for block in _blocks(source):  # a failed read is the archive's (see _reading)
            digest.update(block)
            with _writing(dest, rel):
                write_all(fd, block)
    finally:
        os.close(fd)
    return digest.hexdigest(), path


class _Placing:
    """Puts the staged files in place: each folder made and checked once, the files' modes and
    times set, their data flushed in one go, then each linked in (never over a file), and each
    folder that received one fsynced once."""

    def __init__(
        self,
        dest: Path,
        entries: dict[str, FileEntry],
        staged: dict[str, Path],
        report: RestoreReport,
        staging: Staging,
    ) -> None:
        self.dest, self.entries, self.staged = dest, entries, staged
        self.report, self.staging = report, staging
        self._inside = _Inside(dest)
        self._folders: dict[str, int] = {}  # folder → an open descriptor (the checked one)
        self._modes: dict[str, int] = {}
        self._made: list[Path] = []  # folders this restore made, each after its parent
        self._linked: list[str] = []  # files put in place so far
        self._moved: list[str] = []  # old versions moved to the trash so far

    def place(self, todo: list[str], progress: Progress | None) -> None:
        """All of ``todo`` in place, or none of it: a failure or an interruption (Ctrl-C)
        part-way takes back what was done (see :meth:`_undo`) before it is raised."""
        try:
            self._place_all(todo, progress)
        except BaseException as exc:
            left = self._undo()
            if left:
                raise BackupError(
                    f"the restore into {self.dest} stopped ({exc}) and "
                    f"{counted(len(left), 'file')} could not be taken back: " + ", ".join(left[:20])
                ) from exc
            self.staging.placed = False  # as before the restore: its folders go too
            raise
        finally:
            for fd in self._folders.values():
                os.close(fd)
        self.report.restored.sort()
        self.report.kept.sort()

    def _place_all(self, todo: list[str], progress: Progress | None) -> None:
        whole = self._whole_folders(todo)
        one_by_one = [rel for rel in todo if rel.split("/", 1)[0] not in whole]
        for rel in one_by_one:
            self._folder(rel)
        for top in whole:
            self._folder(top)  # the destination itself, checked and held open
        for rel in todo:
            self._stamp(rel)
        with _writing(self.dest, todo[0] if todo else ""):
            flush_to_disk(self.dest, [self.staged[rel] for rel in todo])
        done = 0
        for top, files in whole.items():
            if not self._move_in(top, files):
                one_by_one += files  # no such rename here, or the folder appeared meanwhile
                for rel in files:
                    self._folder(rel)
                continue
            done += len(files)
            if progress:
                progress(done, len(todo))
        for rel in one_by_one:
            self._link(rel)
            done += 1
            if progress:
                progress(done, len(todo))
        for folder, fd in self._folders.items():
            with _writing(self.dest, folder):
                _fsync_folder(fd)

    def _whole_folders(self, todo: list[str]) -> dict[str, list[str]]:
        """Top folders to move in whole: every file staged in the mirror under one is to be
        placed (none left out: an identical or kept file is never staged there)."""
        wanted = set(todo)
        return {
            top: files
            for top, files in self.staging.mirrored.items()
            if files and wanted.issuperset(files)
        }

    def _move_in(self, top: str, files: list[str]) -> bool:
        """The mirrored folder ``top`` into the destination by one no-replace rename; False
        where that cannot be done (the files are then linked one by one)."""
        try:
            moved = rename_no_replace(
                self.staging.mirror_path(top), self._folders[str(self.dest)], top
            )
        except FileExistsError:
            return False  # someone made the folder since the plan: file by file into it
        except OSError:
            with _writing(self.dest, top):
                raise
        if not moved:
            return False
        self._made += [self.dest / folder for folder in self.staging.mirror_folders[top]]
        self._linked += files
        self.staging.placed = True
        return True

    def _undo(self) -> list[str]:
        """Take back what this restore did: each file it put in place is unlinked (only if it
        is still the restored one: the same file as staged, or the backup's bytes), each old
        version goes back from the trash, and the folders it made are removed if empty.
        Nothing is lost: what is removed is in the archive. Returns what could not be undone."""
        left: list[str] = []
        for rel in reversed(self._linked):
            try:
                if self._still_restored(rel):
                    os.unlink(self.dest / rel)
            except OSError:
                left.append(rel)
        trash = self.report.trash
        for rel in reversed(self._moved):
            assert trash is not None
            try:
                _put_back(trash / rel, self.dest / rel)
            except (OSError, _Appeared):
                left.append(rel)
        for folder in reversed(self._made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return left

    def _still_restored(self, rel: str) -> bool:
        target, staged = self.dest / rel, self.staged[rel]
        if os.path.lexists(staged):
            return os.path.samefile(staged, target)
        return _file_sha256(target) == self.entries[rel].sha256  # moved or copied in

    def _folder(self, rel: str) -> int:
        """The target's folder, made (0700 in .pixelmem) and found inside the destination,
        as an open descriptor: links go into that folder even if its path is swapped later."""
        parent = (self.dest / rel).parent
        key = str(parent)
        fd = self._folders.get(key)
        if fd is not None:
            return fd
        if not self._inside(parent):
            raise BackupError(f"{rel} would be written outside {self.dest}; stopped")
        private = rel.split("/", 1)[0] == APPDATA_DIRNAME  # app data: 0700 folders
        self._made += missing_folders(parent)
        with _writing(self.dest, rel):
            (make_private_dirs if private else make_dirs)(parent)
            fd = os.open(parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        self._folders[key] = fd
        self._inside.forget()  # the folder exists now: its real path is what counts
        try:
            real = os.stat(os.path.realpath(parent))
        except OSError:
            real = None
        opened = os.fstat(fd)
        if not self._inside(parent) or real is None or (real.st_dev, real.st_ino) != (
            opened.st_dev, opened.st_ino,
        ):  # fmt: skip
            raise BackupError(f"{rel} would be written outside {self.dest}; stopped")
        return fd

    def _stamp(self, rel: str) -> None:
        """The note's own mode (0600 stays private, 0444 read-only); an old backup without
        modes: what a new file in that folder gets. Its modification time."""
        entry, staged = self.entries[rel], self.staged[rel]
        mode = entry.mode
        if mode is None:
            folder = str((self.dest / rel).parent)
            if folder not in self._modes:
                self._modes[folder] = new_file_mode(self.dest / rel)
            mode = self._modes[folder]
        with _writing(self.dest, rel):
            os.chmod(staged, mode)
        with contextlib.suppress(OverflowError, ValueError, OSError):  # e.g. 1e30: keep now
            os.utime(staged, ns=(entry.mtime_ns, entry.mtime_ns))

    def _link(self, rel: str) -> None:
        target = self.dest / rel
        report = self.report
        if report.trash is not None and os.path.lexists(target):
            self._made += missing_folders((report.trash / rel).parent)
            with _writing(self.dest, rel):
                _move_aside(target, report.trash / rel)
            self._moved.append(rel)
            report.replaced.append(rel)
            report.restored.append(rel)
        fd = self._folders[str(target.parent)]
        try:
            with _writing(self.dest, rel):
                _link_no_clobber(self.staged[rel], target, fd)
            self._linked.append(rel)
            self.staging.placed = True
        except _Appeared:  # created by someone else since the plan: theirs wins
            report.restored.remove(rel)
            report.kept.append(rel)


class _Appeared(Exception):
    """The target was created by someone else after the plan was made."""


def _move_aside(target: Path, trashed: Path) -> None:
    make_dirs(trashed.parent)
    os.replace(target, trashed)


def _put_back(trashed: Path, target: Path) -> None:
    """An old version moved aside goes back where it was, never over a file there now."""
    try:
        os.link(trashed, target)
    except FileExistsError:
        raise _Appeared() from None
    except OSError:  # no hard links here: check, then move
        if os.path.lexists(target):
            raise _Appeared() from None
        os.replace(trashed, target)
        return
    os.unlink(trashed)


class _ArchiveUnreadable(Exception):
    """Reading a member failed: the archive's problem, kept apart from a failed write."""


def _blocks(source: IO[bytes]) -> Iterator[bytes]:
    try:
        while block := source.read(_BLOCK):
            yield block
    except OSError as exc:
        raise _ArchiveUnreadable(exc.strerror or str(exc)) from exc


@contextlib.contextmanager
def _writing(dest: Path, rel: str) -> Iterator[None]:
    """A failed write is the destination's problem (a full disk), not the archive's."""
    try:
        yield
    except OSError as exc:
        raise BackupError(
            f"cannot write {rel} into {dest} ({exc.strerror or exc}); the restore "
            "stopped and nothing was restored — the backup is fine"
        ) from None


def _link_no_clobber(staged: Path, target: Path, folder_fd: int) -> None:
    """Link ``staged`` in as ``target`` (in the folder open as ``folder_fd``), never over a
    file that is there; a file system without hard links: check, then move it in."""
    try:
        if os.link in os.supports_dir_fd:
            os.link(staged, target.name, dst_dir_fd=folder_fd)
        else:
            os.link(staged, target)
    except FileExistsError:
        raise _Appeared() from None
    except OSError as exc:
        if os.path.lexists(target):
            raise _Appeared() from None
        if exc.errno == errno.EXDEV:  # a folder on another file system: a copy beside it
            _copy_beside(staged, target)
        else:
            os.replace(staged, target)


def _copy_beside(staged: Path, target: Path) -> None:
    tmp_name = ""
    try:
        with open(staged, "rb") as source, temp_beside(target) as (out, tmp_name):
            shutil.copyfileobj(source, out, _BLOCK)
        shutil.copystat(staged, tmp_name)
        try:
            os.link(tmp_name, target)
        except FileExistsError:
            raise _Appeared() from None
    finally:
        remove_quietly(tmp_name)


def _fsync_folder(fd: int) -> None:
    """Make the links in a folder durable (a file system that cannot: nothing to do)."""
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP):
            raise


@contextlib.contextmanager
def _reading(archive: Path) -> Iterator[None]:
    """Turn the many ways a damaged .tar.gz fails while being read into one BackupError."""
    try:
        yield
    except (tarfile.TarError, EOFError, zlib.error, ValueError) as exc:
        raise BackupError(f"{archive} is damaged or not a .tar.gz backup ({exc})") from None
    except _ArchiveUnreadable as exc:
        raise BackupError(f"cannot read {archive}: {exc}") from None
    except OSError as exc:
        if isinstance(exc, PixelmemError):
            raise
        raise BackupError(f"cannot read {archive}: {exc.strerror or exc}") from None
