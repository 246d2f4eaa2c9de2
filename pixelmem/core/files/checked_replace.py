"""Replace a file only if it still holds what we read: no lost update, even against programs
that do not take our lock (an editor saving by rename, a sync client).

A plain "read + hash, then write a temp file, then rename it over" loses any change saved
between the check and the rename. Here the last check happens *after* the switch:

1. the new bytes go to a fsynced temp file beside the target, and the target is hashed once
   more (most outside saves are caught here, before anything is swapped);
2. ``renameat2(RENAME_EXCHANGE)`` swaps temp and target in one step, so the old target is
   now at the temp path — whatever it was at that instant, nobody else can replace it there;
3. if those old bytes still hash to what the caller checked, the swap stands and the temp
   path (the old version) is removed; otherwise another program saved in between: the swap
   is undone and :class:`ContentChanged` is raised, so the caller reports a conflict and the
   other program's change stays in the file.

Residual windows, documented rather than hidden:
- where ``renameat2`` is missing or the filesystem refuses it (not Linux, some network/FUSE
  filesystems) step 1's hash is followed by a plain ``os.replace``: a save landing in the
  microseconds between that hash and the rename is still lost;
- when step 3 fails, our version is visible at the target for the microseconds until the
  swap back; a program that reads it exactly then and saves on top of it builds on it;
- a program writing *in place* through a file descriptor it opened before the swap writes
  into the old inode; if it writes after step 3's check, that write goes with the old version;
- if a second outside save lands between the swap and the swap back, the newer outside
  version is kept beside the target as ``<stem> (conflict …)<suffix>`` rather than removed.
"""

from __future__ import annotations

import hashlib
import os
import stat
from datetime import datetime
from pathlib import Path

from pixelmem.core.files import rename_ops
from pixelmem.core.files.atomic import fsync_dir, remove_quietly, write_temp
from pixelmem.core.files.folders import unique_path


class ContentChanged(Exception):
    """The file no longer holds what the caller checked; nothing of it was overwritten."""


def _after_write(path: Path) -> None:
    """Test seam: runs once the temp file is written, before any check (a racing save here
    is what the store's own read-and-hash check cannot see)."""


def _before_swap(path: Path) -> None:
    """Test seam: runs after the last check, right before the exchange or rename."""


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def checked_replace(path: Path, data: bytes, expected_hash: str | None) -> None:
    """Make ``path`` hold ``data`` if it now hashes to ``expected_hash``; else raise
    :class:`ContentChanged` and leave it as it is. ``None`` replaces unconditionally."""
    path = Path(path)
    tmp = write_temp(path, data)
    try:
        _after_write(path)
        if expected_hash is None:
            os.replace(tmp, path)
        else:
            _swap_checked(path, tmp, data, expected_hash)
    finally:
        remove_quietly(tmp)
    fsync_dir(path.parent)


def write_new(path: Path, data: bytes, mode: int | None = None) -> None:
    """Create ``path`` with ``data`` (and ``mode``, set before the file has its name);
    ``FileExistsError`` if something appeared there."""
    path = Path(path)
    tmp = write_temp(path, data)
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        _after_write(path)
        _before_swap(path)
        try:
            rename_ops.rename_noreplace(tmp, path)
        except rename_ops.Unsupported:
            if os.path.lexists(path):
                raise FileExistsError(path) from None
            os.replace(tmp, path)
    finally:
        remove_quietly(tmp)
    fsync_dir(path.parent)


def _swap_checked(path: Path, tmp: str, data: bytes, expected_hash: str) -> None:
    # Hash once more first: most outside saves are caught here, before the swap would show
    # our version for the microseconds until the swap back (a reader could catch it then).
    checked = _check_unchanged(path, expected_hash)
    _before_swap(path)
    try:
        rename_ops.exchange(tmp, path)
    except rename_ops.Unsupported:  # the residual window: from the check above to here
        os.replace(tmp, path)
        return
    except FileNotFoundError:  # deleted since the check
        raise ContentChanged(f"{path.name} was deleted") from None
    # The same inode first (one stat: a rename-saving editor is caught at once), then its
    # bytes (an in-place write keeps the inode).
    try:
        swapped_out = os.lstat(tmp)
        same = (swapped_out.st_ino, swapped_out.st_dev) == (checked.st_ino, checked.st_dev)
        old = _read(tmp)[0] if same else None
    except OSError:  # e.g. a symlink put there by another program: not what we checked
        old = None
    if old is None or content_hash(old) != expected_hash:
        _swap_back(path, tmp, data)
        raise ContentChanged(f"{path.name} was changed by another program")


def _swap_back(path: Path, tmp: str, data: bytes) -> None:
    """Put the other program's version back; keep anything newer that arrived meanwhile."""
    try:
        rename_ops.exchange(tmp, path)
        ours = _read(tmp)[0] == data
    except OSError:  # e.g. the file was deleted meanwhile: keep the other version beside it
        ours = False
    if not ours and os.path.lexists(tmp):
        stamp = datetime.now().strftime("%Y-%m-%d %H%M%S")
        os.replace(tmp, unique_path(path.parent, f"{path.stem} (conflict {stamp}){path.suffix}"))


def _check_unchanged(path: Path, expected_hash: str) -> os.stat_result:
    """The identity of the file at ``path`` if it hashes to ``expected_hash``."""
    try:
        current, info = _read(path)
    except FileNotFoundError:
        raise ContentChanged(f"{path.name} was deleted") from None
    except OSError:
        current = None
    if current is None or content_hash(current) != expected_hash:
        raise ContentChanged(f"{path.name} was changed by another program")
    return info


def _read(name: str | Path) -> tuple[bytes | None, os.stat_result]:
    """The bytes of a regular file (``None`` for anything else: never blocks on a FIFO)."""
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        return (handle.read() if stat.S_ISREG(info.st_mode) else None), info
