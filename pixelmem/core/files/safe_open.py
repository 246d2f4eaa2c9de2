"""Opening files for reading without ever touching a FIFO, socket or device.

Opening a FIFO for reading blocks until a writer appears, forever if none does; a device may
never end. Every file pixelmem reads (memories, caches, settings) is opened here: the path is
checked to be a regular file first, opened non-blocking so a swap in between cannot hang, and
checked again on the open descriptor.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
)


class NotRegularFile(OSError):
    """The path names a FIFO, socket, device or folder: it is not opened."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        super().__init__(errno.EINVAL, f"not a regular file (a {_kind(mode)})", str(path))


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``open(path, "rb")`` for a regular file; raise :class:`NotRegularFile` otherwise."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, mode)
    fd = os.open(path, _FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # swapped for something else since the stat
            raise NotRegularFile(path, mode)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file; :class:`NotRegularFile` for anything else."""
    with open_regular(path) as handle:
        return handle.read()


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "folder"
    return "special file"
