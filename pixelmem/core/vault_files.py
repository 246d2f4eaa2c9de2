"""Files that several processes share in a vault (GUI + MCP server): a lock, and free names."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def process_lock(folder: Path, name: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``folder/name`` where the system has one (advisory)."""
    handle = None
    if fcntl is not None:
        try:
            folder.mkdir(exist_ok=True)
            handle = open(folder / name, "a+b")  # noqa: SIM115 - closed below
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        except OSError:  # read-only vault: the write itself will report it
            if handle is not None:
                handle.close()
            handle = None
    try:
        yield
    finally:
        if handle is not None:
            handle.close()


def unique_path(folder: Path, name: str) -> Path:
    """``folder/name``, or the first free ``name (2)``, ``name (3)``, … beside it."""
    candidate = folder / name
    stem, suffix = os.path.splitext(name)
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = folder / f"{stem} ({number}){suffix}"
        number += 1
    return candidate
