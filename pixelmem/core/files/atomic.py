"""Atomic file writes: a reader sees the old bytes or the new bytes, never a mix."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pixelmem.core.files.file_names import temp_prefix
from pixelmem.core.files.permissions import new_file_mode


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temp file in the same folder, fsync and ``os.replace``.

    The temp file lives beside the target so the rename never crosses filesystems. On any
    failure (disk full, permission) the temp file is removed and the original stays intact.
    """
    path = Path(path)
    put_in_place(write_temp(path, data), path)


def put_in_place(tmp_name: str, path: Path) -> None:
    """Move the finished temp file ``tmp_name`` over ``path`` and make the rename durable;
    the temp file is removed if the move fails."""
    try:
        os.replace(tmp_name, path)
    except BaseException:
        remove_quietly(tmp_name)
        raise
    fsync_dir(path.parent)


def write_temp(path: Path, data: bytes) -> str:
    """``data`` in a new fsynced temp file beside ``path`` (``.<name>.<random>.tmp``, the name
    shortened so that any valid ``path`` has a temp name that fits), with ``path``'s mode;
    the temp file is removed again if writing fails."""
    with temp_beside(path) as (handle, tmp_name):
        handle.write(data)
    return tmp_name


@contextlib.contextmanager
def temp_beside(path: Path) -> Iterator[tuple[BinaryIO, str]]:
    """A new temp file beside ``path`` (named as :func:`write_temp` says) open for writing,
    and its name: flushed, fsynced and given ``path``'s mode (else a new file's) when the block
    ends; removed again if the block fails. The one temp + fsync every file write builds on:
    the caller then replaces, links or renames it into place."""
    fd, tmp_name = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle, tmp_name
            handle.flush()
            os.fsync(handle.fileno())
        _keep_mode(path, tmp_name)
    except BaseException:
        remove_quietly(tmp_name)
        raise


def remove_quietly(name: str | Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _keep_mode(path: Path, tmp_name: str) -> None:
    """mkstemp creates 0600 files; keep the existing file's mode (and, where this process may,
    its owner), else the mode a new file in that folder gets (permissions.new_file_mode)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        os.chmod(tmp_name, new_file_mode(path))
        return
    os.chmod(tmp_name, info.st_mode & 0o7777)
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        # Only root gets here with a file it may replace: keep it the owner's file.
        with contextlib.suppress(OSError):
            os.chown(tmp_name, info.st_uid, info.st_gid)


def fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not supported on every platform/filesystem.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
