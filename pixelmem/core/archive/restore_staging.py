"""Where a restore keeps the archive's files between reading them and linking them into place.

A restore reads the archive once (:func:`~pixelmem.core.archive.restore.restore_backup`): each
member is checked and hashed, and each file to be placed is written into a private staging
folder inside the destination
(``<dest>/.pixelmem/.restore-<random>``, on the destination's file system, so a file gets into
place by a hard link: never a copy, never over an existing file). Nothing outside that folder
changes until every member and checksum has been checked; if anything fails, the folder goes,
and so do the folders the restore made (a destination it created included).

Durable without a ``fsync`` per file (one each took 92 of 135 s for 50,000 small notes): the
staged files are flushed by one ``syncfs`` of the destination's file system (``os.sync``
where there is no ``syncfs``) before the first link, and each folder that received a link is
fsynced once after. Where neither exists (Windows), each staged file is fsynced as before.

Staged files sit under ``tree/`` at their own relative paths (their folders made with the
modes placing would give them), so a folder the destination lacks altogether goes into place
whole, by one ``renameat2(RENAME_NOREPLACE)`` (:func:`rename_no_replace`: never over anything
that is there) instead of a link per file. A name the tree cannot hold (a clash of case on a
case-insensitive disk, a path too long) is staged in a numbered folder instead and linked.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path

from pixelmem.core.archive.archive_manifest import BackupError
from pixelmem.core.files.folders import make_dirs
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.paths import APPDATA_DIRNAME

PER_FOLDER = 256
STAGING_PREFIX = ".restore-"
TREE = "tree"  # staged files at their own relative paths
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
        self._tree_folders: set[str] = {""}  # relative folders made under tree/
        self.placed = False  # set once a file is in place: the folders made then stay

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
        (folder / TREE).mkdir(0o700)
        self.folder = folder
        return self

    @property
    def tree(self) -> Path:
        assert self.folder is not None
        return self.folder / TREE

    def new_file(self, rel: str | None = None) -> tuple[int, Path]:
        """A new staged file for ``rel``, open for writing (0600), and its path: at ``rel``
        under :attr:`tree` where it can be, else numbered (:meth:`numbered_file`)."""
        if rel is not None:
            path = self.tree / rel
            try:
                self._tree_folder(rel.rpartition("/")[0])
                return os.open(path, _OPEN_FLAGS, 0o600), path
            except OSError as exc:
                if exc.errno in _DISK_FULL:
                    raise
        return self.numbered_file()

    def _tree_folder(self, rel_folder: str) -> None:
        """``tree/rel_folder`` and its parents, each made with the mode placing gives a new
        folder (the umask's; 0700 in the app's data): a whole one can then be moved in."""
        if rel_folder in self._tree_folders:
            return
        self._tree_folder(rel_folder.rpartition("/")[0])
        path = self.tree / rel_folder
        os.mkdir(path, 0o777)
        if rel_folder.split("/", 1)[0] == APPDATA_DIRNAME:
            os.chmod(path, 0o700)
        self._tree_folders.add(rel_folder)

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        if not self.placed:  # nothing restored: leave the destination as it was
            for made in reversed(self._made):
                with contextlib.suppress(OSError):
                    made.rmdir()

    def numbered_file(self) -> tuple[int, Path]:
        """A new staged file, open for writing (0600), and its path: :data:`PER_FOLDER` to a
        sub-folder (a file system without hashed directories looks through every name of a
        folder at each create: 50,000 in one took 8× as long as in folders of a few hundred)."""
        assert self.folder is not None
        number = self._count
        self._count += 1
        bucket = self.folder / str(number // PER_FOLDER)
        if number % PER_FOLDER == 0:
            bucket.mkdir(0o700)
        path = bucket / str(number % PER_FOLDER)
        return os.open(path, _OPEN_FLAGS, 0o600), path


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


_DISK_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EIO, errno.EROFS)
_RENAME_NOREPLACE = 1
_AT_FDCWD = -100
_renameat2: list[object] = []  # libc's renameat2 once looked up (None: there is none)


def rename_no_replace(source: Path, folder_fd: int, name: str) -> bool:
    """Move ``source`` (a file or a whole folder) to ``name`` in the folder open as
    ``folder_fd``, never over anything there: ``renameat2(RENAME_NOREPLACE)``. False where
    that cannot be done (something is there now, no such call on this system or file system,
    another file system): the caller then links file by file."""
    call = _libc_renameat2()
    if call is None:
        return False
    result = call(_AT_FDCWD, os.fsencode(source), folder_fd, os.fsencode(name), _RENAME_NOREPLACE)
    if result == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.EEXIST, errno.ENOTEMPTY, errno.EXDEV):
        return False
    if error in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        _renameat2[:] = [None]  # not on this kernel or file system: not asked again
        return False
    raise OSError(error, os.strerror(error))


def can_rename_no_replace() -> bool:
    return _libc_renameat2() is not None


def _libc_renameat2() -> ctypes._CFuncPtr | None:
    if not _renameat2:
        found = None
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
                found = libc.renameat2
                found.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                  ctypes.c_uint]  # fmt: skip
                found.restype = ctypes.c_int
            except (OSError, AttributeError):
                found = None
        _renameat2.append(found)
    return _renameat2[0]  # type: ignore[return-value]


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
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        syncfs = libc.syncfs
    except (OSError, AttributeError):
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
