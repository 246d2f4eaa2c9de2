"""Linux ``renameat2`` through ctypes: swap two names atomically, or rename without replacing.

``exchange(a, b)`` swaps two existing paths in one step (``RENAME_EXCHANGE``);
``rename_noreplace(src, dst)`` fails with ``FileExistsError`` if ``dst`` exists
(``RENAME_NOREPLACE``). Both raise :class:`Unsupported` where the system or the filesystem
cannot do it (not Linux, an old kernel or libc, some network and FUSE filesystems); callers
then fall back to ``os.replace`` and accept its narrow check-then-rename window.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import platform
import sys
from collections.abc import Callable

RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2
_AT_FDCWD = -100
# renameat2's syscall number where glibc < 2.28 has no wrapper.
_SYSCALL_NUMBERS = {"x86_64": 316, "aarch64": 276, "i686": 353, "i386": 353, "armv7l": 382}
_UNSUPPORTED_ERRNOS = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}


class Unsupported(OSError):
    """This system or filesystem has no atomic exchange / no-replace rename."""


@functools.cache
def _load() -> Callable[[bytes, bytes, int], int] | None:
    """renameat2 from the C library, found on first use (``find_library`` runs ``ldconfig``:
    ~10 ms no launch should pay before its first write)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    wrapper = getattr(libc, "renameat2", None)
    if wrapper is not None:
        wrapper.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
        wrapper.argtypes += [ctypes.c_uint]
        wrapper.restype = ctypes.c_int
        return lambda old, new, flags: wrapper(_AT_FDCWD, old, _AT_FDCWD, new, flags)
    number = _SYSCALL_NUMBERS.get(platform.machine())
    if number is None:
        return None
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    return lambda old, new, flags: syscall(
        ctypes.c_long(number),
        ctypes.c_int(_AT_FDCWD),
        ctypes.c_char_p(old),
        ctypes.c_int(_AT_FDCWD),
        ctypes.c_char_p(new),
        ctypes.c_uint(flags),
    )


def available() -> bool:
    """Whether this system has ``renameat2`` at all (a filesystem may still refuse it)."""
    return _load() is not None


def exchange(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
    """Atomically swap the files at ``a`` and ``b`` (both must exist)."""
    _call(a, b, RENAME_EXCHANGE)


def rename_noreplace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """Rename ``src`` to ``dst``; ``FileExistsError`` if ``dst`` exists."""
    _call(src, dst, RENAME_NOREPLACE)


def _call(a: str | os.PathLike[str], b: str | os.PathLike[str], flags: int) -> None:
    renameat2 = _load()
    if renameat2 is None:
        raise Unsupported(errno.ENOSYS, "renameat2 is not available on this system")
    if renameat2(os.fsencode(a), os.fsencode(b), flags) == 0:
        return
    code = ctypes.get_errno()
    message = os.strerror(code)
    if code in _UNSUPPORTED_ERRNOS:
        raise Unsupported(code, message, os.fspath(a))
    raise OSError(code, message, os.fspath(a), None, os.fspath(b))
