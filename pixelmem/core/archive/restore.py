"""Restore a backup made by :mod:`pixelmem.core.archive.backup` without ever overwriting a file.

Restoring reads the archive twice: first every member is checked (regular files only, no
absolute or ``..`` names, no links or devices: ``tarfile.data_filter`` where Python has it, plus
our own checks) and every checksum verified, and nothing is written unless all of it holds.
Then files are written atomically and without clobbering (``os.link`` of a finished temp file).
An existing file that differs is a conflict: by default nothing is restored and the conflicts
are listed; ``keep_existing`` restores only what is missing and ``overwrite`` first moves the
existing versions into ``.pixelmem/trash/restore-<time>/``. The embedding cache is derived data:
a differing one is kept unless ``overwrite``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
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


def member_problem(member: tarfile.TarInfo, dest: Path) -> str | None:
    """Why ``member`` must not be extracted into ``dest``, or None."""
    if not (member.isreg() or member.isdir()):
        kind = "a link" if member.issym() or member.islnk() else "a device or special file"
        return f"{kind}, not a regular file"
    name = member.name
    if name == MANIFEST_NAME:
        return None if member.isreg() else "the manifest is not a file"
    if not name.startswith(FILES_PREFIX) and name.rstrip("/") != FILES_PREFIX.rstrip("/"):
        return "outside the archive's vault/ folder"
    problem = relpath_problem(name)
    if problem:
        return problem
    data_filter = getattr(tarfile, "data_filter", None)
    if data_filter is not None:
        try:
            data_filter(member, str(dest))
        except tarfile.FilterError as exc:
            return str(exc)
    return None


def verify_backup(
    archive: Path, dest: Path, progress: Progress | None = None
) -> dict[str, FileEntry]:
    """Check every member and checksum of ``archive``; its files by vault-relative path.

    Raises :class:`BackupError` naming every problem; ``dest`` is where it would be restored.
    """
    hashes: dict[str, str] = {}
    bad: list[str] = []
    manifest_bytes: bytes | None = None
    with _reading(archive):
        for member, reader in _members(archive, progress):
            problem = member_problem(member, dest)
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
    if bad:
        raise BackupError(
            f"{archive} has unsafe or malformed entries; nothing was restored:\n  "
            + "\n  ".join(bad[:20])
        )
    manifest = parse_manifest(archive, manifest_bytes)
    entries = {e.path: e for e in manifest_entries(archive, manifest)}
    _compare(archive, entries, hashes)
    return entries


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
        handle = tar.extractfile(member)
        if handle is None:
            raise BackupError(f"{member.name} has no data")
        return handle

    return open_member


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
    """Verify ``archive``, then write its files under ``dest`` (see the module docstring)."""
    archive, dest = Path(archive), Path(dest)
    entries = verify_backup(archive, dest, verify_progress)
    report = RestoreReport(dest)
    conflicts = _plan(entries, dest, report)
    blocking = [c for c in conflicts if c != CACHE_RELPATH]
    if blocking and not (overwrite or keep_existing):
        raise RestoreConflict(dest, blocking)
    replace = set(conflicts) if overwrite else set()
    report.kept = sorted(set(conflicts) - replace)
    if dry_run:
        report.replaced = sorted(replace)
        return report
    if replace:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        report.trash = dest / APPDATA_DIRNAME / "trash" / f"restore-{stamp}"
    todo = {FILES_PREFIX + p for p in report.restored} | {FILES_PREFIX + p for p in replace}
    _extract(archive, dest, entries, todo, report, progress)
    return report


def _plan(entries: dict[str, FileEntry], dest: Path, report: RestoreReport) -> list[str]:
    """Sort entries into new (``report.restored``), identical, and conflicts (returned)."""
    conflicts = []
    for path, entry in sorted(entries.items()):
        target = dest / path
        if not _inside(dest, target):
            raise BackupError(f"{path} would be written outside {dest} (a symlinked folder?)")
        if not os.path.lexists(target):
            report.restored.append(path)
        elif target.is_file() and not target.is_symlink() and _file_sha256(target) == entry.sha256:
            report.identical.append(path)
        else:
            conflicts.append(path)
    return conflicts


def _inside(dest: Path, target: Path) -> bool:
    root = os.path.realpath(dest)
    parent = os.path.realpath(target.parent)
    return parent == root or parent.startswith(root.rstrip(os.sep) + os.sep)


def _file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return _sha256(handle)


def _extract(
    archive: Path,
    dest: Path,
    entries: dict[str, FileEntry],
    todo: set[str],
    report: RestoreReport,
    progress: Progress | None,
) -> None:
    make_dirs(dest)
    with _reading(archive):
        for member, reader in _members(archive, progress):
            if member.name not in todo:
                continue
            entry = entries[member.name[len(FILES_PREFIX) :]]
            target = dest / entry.path
            if report.trash is not None and os.path.lexists(target):
                _move_aside(target, report.trash / entry.path)
                report.replaced.append(entry.path)
                report.restored.append(entry.path)
            try:
                _place(reader(), dest, entry)
            except _Appeared:  # created by someone else since the plan: theirs wins
                report.restored.remove(entry.path)
                report.kept.append(entry.path)
    report.restored.sort()
    report.kept.sort()


class _Appeared(Exception):
    pass


def _move_aside(target: Path, trashed: Path) -> None:
    make_dirs(trashed.parent)
    os.replace(target, trashed)


def _place(source: IO[bytes], dest: Path, entry: FileEntry) -> None:
    """Write a verified file next to its target, then link it in place (never clobbering)."""
    target = dest / entry.path
    if not _inside(dest, target):
        raise BackupError(f"{entry.path} would be written outside {dest}; stopped")
    private = entry.path.split("/", 1)[0] == APPDATA_DIRNAME  # app data: 0700 folders
    with _writing(dest, entry):
        (make_private_dirs if private else make_dirs)(target.parent)
    if not _inside(dest, target):  # a symlinked folder swapped in meanwhile
        raise BackupError(f"{entry.path} would be written outside {dest}; stopped")
    tmp_name = ""
    try:
        digest = hashlib.sha256()
        with _writing(dest, entry), temp_beside(target) as (out, tmp_name):
            for block in _blocks(source):  # a failed read is the archive's (see _reading)
                digest.update(block)
                out.write(block)
        if digest.hexdigest() != entry.sha256:
            raise BackupError(f"{entry.path}: checksum mismatch while restoring; stopped")
        # The note's own mode (0600 stays private, 0444 read-only); an old backup without
        # modes: what a new file in that folder gets.
        os.chmod(tmp_name, new_file_mode(target) if entry.mode is None else entry.mode)
        with contextlib.suppress(OverflowError, ValueError, OSError):  # e.g. 1e30: keep now
            os.utime(tmp_name, ns=(entry.mtime_ns, entry.mtime_ns))
        _link_no_clobber(tmp_name, target)
    finally:
        remove_quietly(tmp_name)  # our temp file (the restored file is a second link to it)


class _ArchiveUnreadable(Exception):
    """Reading a member failed: the archive's problem, kept apart from a failed write."""


def _blocks(source: IO[bytes]) -> Iterator[bytes]:
    try:
        while block := source.read(_BLOCK):
            yield block
    except OSError as exc:
        raise _ArchiveUnreadable(exc.strerror or str(exc)) from exc


@contextlib.contextmanager
def _writing(dest: Path, entry: FileEntry) -> Iterator[None]:
    """A failed write is the destination's problem (a full disk), not the archive's."""
    try:
        yield
    except OSError as exc:
        raise BackupError(
            f"cannot write {entry.path} into {dest} ({exc.strerror or exc}); the restore "
            "stopped there — files restored so far are complete, the backup is fine"
        ) from None


def _link_no_clobber(tmp_name: str, target: Path) -> None:
    try:
        os.link(tmp_name, target)
    except FileExistsError:
        raise _Appeared() from None
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(target):
            raise _Appeared() from None
        os.replace(tmp_name, target)


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
