"""Back a vault up into one ``.tar.gz``; :mod:`pixelmem.core.archive.restore` reads it back.

The archive holds ``vault/<relative path>`` for every file of the vault that is not hidden
(Markdown memories and the attachments they link to) and everything in ``.obsidian/``
(Obsidian's settings, plugins, hotkeys, themes), the embedding cache and the review inbox
from ``.pixelmem/`` (the trash only on request), and last a manifest, ``pixelmem-backup.json``,
with the format version and each file's size, sha256 and mtime.

Restoring (verify, then write without clobbering) lives in :mod:`pixelmem.core.archive.restore`; its
names are re-exported here so ``from pixelmem.core.archive.backup import restore_backup`` keeps
working.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import stat
import tarfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO

from pixelmem.core.archive.archive_manifest import (
    CACHE_RELPATH,
    FILES_PREFIX,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST_NAME,
    BackupError,
    FileEntry,
    Progress,
    manifest_bytes,
    relpath_problem,
)
from pixelmem.core.archive.restore import (
    RestoreConflict,
    RestoreReport,
    member_problem,
    restore_backup,
    verify_backup,
)
from pixelmem.core.archive.restore_staging import STAGING_PREFIX
from pixelmem.core.files.atomic import fsync_dir, remove_quietly, temp_beside
from pixelmem.core.files.folders import walk_tree
from pixelmem.core.paths import APPDATA_DIRNAME
from pixelmem.core.vault.vault_files import is_hidden

APPDATA_FOLDERS = ("inbox",)  # .pixelmem sub-folders that are the user's data
# Obsidian's settings, plugins, hotkeys, themes and snippets: the vault is not whole without
# them (issue 28); every file in it is kept, hidden ones too (a plugin's ".hotreload").
OBSIDIAN_FOLDER = ".obsidian"


_WRITE_ERRNOS = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)


@dataclass
class BackupReport:
    archive: Path
    files: list[FileEntry] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (relative path, reason)

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)


def backup_sources(
    vault: Path, *, include_trash: bool = False, exclude: tuple[Path, ...] = ()
) -> tuple[list[tuple[str, Path]], list[tuple[str, str]]]:
    """``([(relative path, file)], [(relative path, why skipped)])``, sorted by path."""
    vault = Path(vault)
    excluded = _file_ids(exclude)
    files: list[tuple[str, Path]] = []
    skipped: list[tuple[str, str]] = []
    for folder, dirnames, filenames in walk_tree(vault):  # never follows symlinked folders
        rel_folder = Path(folder).relative_to(vault)
        dirnames[:] = sorted(d for d in dirnames if _enter(rel_folder / d, include_trash))
        for d in dirnames:
            if os.path.islink(os.path.join(folder, d)):
                skipped.append(((rel_folder / d).as_posix(), "symbolic link to a folder"))
        for name in sorted(filenames):
            rel = (rel_folder / name).as_posix()
            if not _wanted(rel):
                continue
            path = Path(folder) / name
            why = _not_backed_up(path, excluded)
            if why is None:
                files.append((rel, path))
            elif why:
                skipped.append((rel, why))
    return sorted(files), sorted(skipped)


def _file_ids(paths: tuple[Path, ...]) -> set[tuple[int, int]]:
    """The (device, inode) of each of ``paths`` that exists: one ``lstat`` per listed file
    then tells whether it is one of them (a ``realpath`` per file took 1.5 s of 50,000)."""
    ids = set()
    for path in paths:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            ids.add((info.st_dev, info.st_ino))
    return ids


def _not_backed_up(path: Path, excluded: set[tuple[int, int]]) -> str | None:
    """None for a regular file to back up; why not, else ("" for an excluded one: the
    archive being written, which is not the user's file)."""
    try:
        info = os.lstat(path)
    except OSError:
        return "not a regular file"  # gone since the folder was listed
    if (info.st_dev, info.st_ino) in excluded:
        return ""
    if stat.S_ISLNK(info.st_mode):
        return "symbolic link (not followed)"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    return None


def _enter(rel: Path, include_trash: bool) -> bool:
    parts = rel.parts
    if parts[0] == OBSIDIAN_FOLDER:
        return True
    if not is_hidden(parts[0]):
        return not any(map(is_hidden, parts))
    if parts[0] != APPDATA_DIRNAME:
        return False
    if len(parts) == 1:
        return True
    return parts[1] in APPDATA_FOLDERS or (include_trash and parts[1] == "trash")


def _wanted(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    if parts[0] == OBSIDIAN_FOLDER:
        return len(parts) > 1
    if parts[0] == APPDATA_DIRNAME:
        if len(parts) > 1 and parts[1].startswith(STAGING_PREFIX):  # a restore's, on its way in
            return False
        return rel == CACHE_RELPATH or (len(parts) > 2 and not is_hidden(parts[-1]))
    return not is_hidden(parts[-1])


def create_backup(
    vault: Path,
    archive: Path,
    *,
    include_trash: bool = False,
    progress: Progress | None = None,
) -> BackupReport:
    """Write ``archive`` (refusing to replace an existing file); return what went in."""
    vault, archive = Path(vault), Path(archive)
    if not vault.is_dir():
        raise BackupError(f"the vault folder {vault} does not exist")
    if archive.exists() or archive.is_symlink():
        raise BackupError(f"{archive} already exists; choose another name (it was not changed)")
    if not archive.parent.is_dir():
        raise BackupError(f"the folder {archive.parent} does not exist")
    report = BackupReport(archive)
    tmp = ""
    try:
        with temp_beside(archive) as (raw, tmp):
            sources, report.skipped = backup_sources(
                vault, include_trash=include_trash, exclude=(archive, Path(tmp))
            )
            with tarfile.open(fileobj=raw, mode="w:gz", compresslevel=6) as tar:
                _add_files(tar, sources, report, progress)
                _add_manifest(tar, vault, report)
        os.chmod(tmp, 0o600)  # it holds the whole vault: for its owner's eyes only
        os.replace(tmp, archive)
        fsync_dir(archive.parent)
    except BaseException as exc:
        remove_quietly(tmp)  # our own unfinished archive (if temp_beside has not already)
        if isinstance(exc, OSError):  # e.g. the disk filled up while writing
            raise BackupError(
                f"cannot write {archive}: {exc.strerror or exc}; no backup was written"
            ) from None
        raise
    return report


def _add_files(
    tar: tarfile.TarFile,
    sources: list[tuple[str, Path]],
    report: BackupReport,
    progress: Progress | None,
) -> None:
    total = sum(_size(path) for _rel, path in sources)
    done = 0
    for rel, path in sources:
        try:
            handle = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:  # nothing written yet: skip it and say so
            report.skipped.append((rel, f"cannot be read: {exc.strerror or exc}"))
            continue
        with handle:
            try:
                entry = _add_file(tar, rel, handle)
            except OSError as exc:  # half a member is in the archive: give up on it
                if exc.errno in _WRITE_ERRNOS:
                    raise  # writing the archive failed, not reading the file
                raise BackupError(
                    f"{rel} could not be read completely ({exc.strerror or exc}); "
                    "no backup was written — run it again"
                ) from None
        report.files.append(entry)
        done += entry.size
        if progress:
            progress(min(done, total), total)
    if progress:
        progress(total, total)


def _add_file(tar: tarfile.TarFile, rel: str, handle: IO[bytes]) -> FileEntry:
    info = os.fstat(handle.fileno())
    mode = stat.S_IMODE(info.st_mode) & 0o777
    member = _tarinfo(FILES_PREFIX + rel, info.st_size, info.st_mtime_ns, mode)
    reader = _HashingReader(handle, info.st_size)
    tar.addfile(member, reader)
    return FileEntry(rel, info.st_size, reader.hexdigest(), info.st_mtime_ns, mode)


def _add_manifest(tar: tarfile.TarFile, vault: Path, report: BackupReport) -> None:
    data = manifest_bytes(vault, report.files)
    member = _tarinfo(MANIFEST_NAME, len(data), datetime.now(UTC).timestamp() * 1e9)
    tar.addfile(member, io.BytesIO(data))


def _tarinfo(name: str, size: int, mtime_ns: float, mode: int = 0o600) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.size = size
    member.mtime = int(mtime_ns // 1_000_000_000)
    member.mode = mode
    member.uname = member.gname = ""
    return member


class _HashingReader:
    """Feeds tarfile exactly ``size`` bytes of a file, hashing them on the way."""

    def __init__(self, handle: IO[bytes], size: int) -> None:
        self._handle = handle
        self._left = size
        self._hash = hashlib.sha256()

    def read(self, n: int = -1) -> bytes:
        n = self._left if n < 0 else min(n, self._left)
        data = self._handle.read(n)
        if len(data) < n:
            raise OSError(errno.EIO, "the file changed while it was read")
        self._left -= len(data)
        self._hash.update(data)
        return data

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


__all__ = [
    "APPDATA_FOLDERS",
    "CACHE_RELPATH",
    "FILES_PREFIX",
    "FORMAT",
    "FORMAT_VERSION",
    "MANIFEST_NAME",
    "BackupError",
    "BackupReport",
    "FileEntry",
    "Progress",
    "RestoreConflict",
    "RestoreReport",
    "backup_sources",
    "create_backup",
    "member_problem",
    "relpath_problem",
    "restore_backup",
    "verify_backup",
]
