"""Where a restore keeps the archive's files between reading them and linking them into place.

A restore reads the archive once (:func:`~pixelmem.core.archive.restore.restore_backup`): each
member is checked and hashed, and each file to be placed is written into a private staging
folder inside the destination
(``<dest>/.pixelmem/.restore-<random>``, on the destination's file system, so a file gets into
place by a hard link: never a copy, never over an existing file). Nothing outside that folder
changes until every member and checksum has been checked; if anything fails, the folder goes,
and so do the folders the restore made (a destination it created included).

A file whose top folder is not in the destination (restoring into an empty folder: every file)
is staged under its own path in a mirror of the vault (``tree/<folder>/…``), so that the whole
folder goes into place by one no-replace rename (:func:`rename_no_replace`) instead of a link
per file and an unlink per staged name (50,000 notes: 1.7 s of 6.1). Any other file — at the
vault's top, in the app's data, in a folder the destination has, or whose mirrored path would
be too long — is staged by number, :data:`PER_FOLDER` to a folder, and linked on its own.

Durable without a ``fsync`` per file (one each took 92 of 135 s for 50,000 small notes): the
staged files are flushed by one ``syncfs`` of the destination's file system (``os.sync``
where there is no ``syncfs``) before the first link, and each folder that received a link is
fsynced once after. Where neither exists (Windows), each staged file is fsynced as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from pixelmem.core.archive.archive_manifest import BackupError
from pixelmem.core.files.folders import make_dirs
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.paths import APPDATA_DIRNAME

PER_FOLDER = 256
STAGING_PREFIX = ".restore-"
MIRROR = "tree"  # the staging folder's mirror of the vault's folders
_PATH_ROOM = 3800  # bytes: a longer mirrored path is staged by number (PATH_MAX is 4096)
_RENAME_NOREPLACE = 1
_AT_FDCWD = -100
_OWNER = "owner"  # the restoring process's id: a folder whose process is gone is abandoned
_OPEN_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
)


class Staging:
    """A private folder of staged files, numbered in the order they were read."""

    def __init__(self, dest: Path) -> None:
        self.dest = dest
        self.folder: Path | None = None
        self._made: list[Path] = []  # folders this restore created, outermost first
        self._count = 0
        self.placed = False  # set once a file is in place: the folders made then stay
        self.mirrored: dict[str, list[str]] = {}  # top folder → its files staged in the mirror
        self.mirror_folders: dict[str, list[str]] = {}  # top folder → its folders, outer first
        self._tops: dict[str, bool] = {}  # top folder → whether it is mirrored
        self._made_mirror: set[str] = set()

    def __enter__(self) -> Staging:
        appdata = self.dest / APPDATA_DIRNAME
        self._made = missing_folders(self.dest)
        if self._made or not (appdata.exists() or appdata.is_symlink()):
            self._made.append(appdata)
        make_dirs(self.dest)
        make_private_dirs(appdata)
        _remove_abandoned(appdata)
        folder = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=appdata))  # 0700
        (folder / _OWNER).write_text(str(os.getpid()))
        inside = os.path.realpath(self.dest).rstrip(os.sep) + os.sep
        if not os.path.realpath(folder).startswith(inside):  # a .pixelmem linked elsewhere
            shutil.rmtree(folder, ignore_errors=True)
            raise BackupError(f"{APPDATA_DIRNAME} in {self.dest} leads outside it; stopped")
        self.folder = folder
        return self

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        if not self.placed:  # nothing restored: leave the destination as it was
            for made in reversed(self._made):
                with contextlib.suppress(OSError):
                    made.rmdir()

    def new_file(self, rel: str) -> tuple[int, Path]:
        """A new staged file for the vault-relative ``rel``, open for writing (0600), and its
        path: in the mirror where its top folder is new to the destination, else numbered."""
        assert self.folder is not None
        top = self._mirrored_top(rel)
        if top is not None:
            path = self.folder / MIRROR / rel
            if len(os.fsencode(path)) < _PATH_ROOM:
                self._make_mirror_folders(top, rel)
                self.mirrored[top].append(rel)
                return os.open(path, _OPEN_FLAGS, 0o600), path
            self._tops[top] = False  # one file too deep: the folder is placed file by file
            self.mirrored.pop(top, None)
        return self._numbered_file()

    def mirror_path(self, top: str) -> Path:
        assert self.folder is not None
        return self.folder / MIRROR / top

    def _mirrored_top(self, rel: str) -> str | None:
        top, slash, _ = rel.partition("/")
        if not slash or top == APPDATA_DIRNAME:
            return None
        mirrored = self._tops.get(top)
        if mirrored is None:
            mirrored = not os.path.lexists(self.dest / top)
            self._tops[top] = mirrored
            if mirrored:
                self.mirrored[top] = []
                self.mirror_folders[top] = []
        return top if mirrored else None

    def _make_mirror_folders(self, top: str, rel: str) -> None:
        """The folders of ``rel`` in the mirror (as a new folder in the vault gets them)."""
        assert self.folder is not None
        folders = self.mirror_folders[top]
        parts = rel.split("/")[:-1]
        for depth in range(len(parts)):
            folder = "/".join(parts[: depth + 1])
            if folder in self._made_mirror:
                continue
            (self.folder / MIRROR / folder).mkdir(parents=depth == 0)
            self._made_mirror.add(folder)
            folders.append(folder)

    def _numbered_file(self) -> tuple[int, Path]:
        """:data:`PER_FOLDER` to a sub-folder (a file system without hashed directories looks
        through every name of a folder at each create: 50,000 in one took 8× as long as in
        folders of a few hundred)."""
        assert self.folder is not None
        number = self._count
        self._count += 1
        bucket = self.folder / str(number // PER_FOLDER)
        if number % PER_FOLDER == 0:
            bucket.mkdir(0o700)
        path = bucket / str(number % PER_FOLDER)
        return os.open(path, _OPEN_FLAGS, 0o600), path


def rename_no_replace(source: Path, folder_fd: int, name: str) -> bool:
    """Move the folder ``source`` to ``name`` in the folder open as ``folder_fd``, never over
    anything there (``renameat2`` with ``RENAME_NOREPLACE``, Linux). False where there is no
    such rename (another system, an old C library, a file system without it) — the caller
    places the files one by one instead. :class:`FileExistsError` if ``name`` appeared."""
    rename = _libc_function("renameat2")
    if rename is None:
        return False
    if rename(_AT_FDCWD, os.fsencode(source), folder_fd, os.fsencode(name), _RENAME_NOREPLACE):
        error = ctypes.get_errno()
        if error in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            return False
        raise OSError(error, os.strerror(error), str(source))
    return True


@functools.cache
def _libc_function(name: str) -> Any:
    """The C library's ``name`` (Linux: errno kept for ctypes.get_errno), None where there is
    none. Looked up once: find_library runs ``ldconfig``, milliseconds a call."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return getattr(libc, name)
    except (OSError, AttributeError):
        return None


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def flush_to_disk(dest: Path, staged: list[Path]) -> None:
    """Make the staged files' data durable before they are linked into place."""
    if _syncfs(dest):
        return
    if hasattr(os, "sync"):
        os.sync()
        return
    for path in staged:  # no whole-file-system flush here: one fsync per file
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _syncfs(dest: Path) -> bool:
    """``syncfs(2)`` on the file system holding ``dest`` (Linux); False where there is none."""
    syncfs = _libc_function("syncfs")
    if syncfs is None:
        return False
    fd = os.open(dest, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))
    finally:
        os.close(fd)
    return True


def missing_folders(path: Path) -> list[Path]:
    """The folders of ``path`` that do not exist yet, outermost first."""
    missing: list[Path] = []
    current = Path(path)
    while not current.exists() and not current.is_symlink():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    return list(reversed(missing))


def _remove_abandoned(appdata: Path) -> None:
    """Staging folders left by a restore that was killed (nothing of theirs is in place, or
    what is was complete: a staged file is a copy of the archive's): removed when the process
    that made them is gone. Only where a process can be asked about without touching it."""
    if os.name != "posix":
        return
    for folder in appdata.glob(STAGING_PREFIX + "*"):
        try:
            pid = int((folder / _OWNER).read_text())
        except (OSError, ValueError):
            continue  # not ours to judge
        if pid != os.getpid() and not _alive(pid):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # exists, another account's
        return True
    return True
