"""The one cross-process lock (``filelock``: ``flock`` on POSIX, ``LockFileEx`` on Windows).

The store, the review inbox, the embedding cache and the settings file take it around their
writes, so the app, the CLI and the servers never interleave two writes of one file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from pixelmem.core.files.permissions import PRIVATE_DIR_MODE

LOCK_SUFFIX = ".lock"


@contextlib.contextmanager
def process_lock(folder: Path, name: str, *, timeout: float = -1) -> Iterator[None]:
    """Hold the exclusive cross-process lock ``folder/name`` (also between threads of one
    process). A folder that cannot be created (read-only vault) means no lock: the write
    itself will report the problem."""
    # A new lock object (and file handle) per call: two threads of one process then exclude
    # each other too, as two processes do. Not re-entrant. ``Timeout`` reaches the caller.
    # filelock (with what it imports, ~25 ms) is loaded by the first write, not at launch.
    from filelock import FileLock, Timeout

    lock = FileLock(folder / name, timeout=timeout, mode=0o600)
    try:
        with contextlib.suppress(FileExistsError):  # only the last folder: a vanished vault
            folder.mkdir(mode=PRIVATE_DIR_MODE)  # is not made again
        lock.acquire()
    except Timeout:
        raise
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()
