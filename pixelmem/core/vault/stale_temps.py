"""Removing the temp files that killed processes left in ``<vault>/.pixelmem/``.

An atomic write (:mod:`pixelmem.core.files.atomic`) goes through ``.<name>.<8 random>.tmp`` beside
its target; a process killed before the rename leaves it behind, and caches are large (the
audit found 1 GB after 100 kills). At start, a temp file is removed when it is older than this
run and than :data:`MIN_AGE_SECONDS`, and no live process holds it open. Where open files
cannot be listed (no ``/proc``), an hour without a change stands for "not held".
"""

from __future__ import annotations

import logging
import os
import re
import time
from pathlib import Path

log = logging.getLogger(__name__)

RUN_STARTED = time.time()
MIN_AGE_SECONDS = 10  # margin for a writer this process cannot see (another user)
UNKNOWN_HOLDERS_AGE_SECONDS = 3600
_TEMP_RE = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
_SKIPPED_FOLDERS = frozenset({"trash"})  # user files live there, whatever their names


def remove_stale_temps(appdata: Path, *, now: float | None = None) -> list[Path]:
    """Remove leftover temp files in ``appdata`` and its sub-folders; the paths removed."""
    now = time.time() if now is None else now
    candidates = [(path, age) for path in _temp_files(appdata) if (age := _age(path, now))]
    if not candidates:
        return []
    held = open_files()
    removed = []
    for path, age in candidates:
        if held is None and age < UNKNOWN_HOLDERS_AGE_SECONDS:
            continue
        if held is not None and os.path.realpath(path) in held:
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    if removed:
        log.info("removed %d temp file(s) left by interrupted writes in %s", len(removed), appdata)
    return removed


def _temp_files(appdata: Path) -> list[Path]:
    found: list[Path] = []
    folders = [appdata]
    while folders:
        folder = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if folder == appdata and entry.name not in _SKIPPED_FOLDERS:
                        folders.append(Path(entry.path))
                elif _TEMP_RE.match(entry.name) and entry.is_file(follow_symlinks=False):
                    found.append(Path(entry.path))
            except OSError:
                continue
    return found


def _age(path: Path, now: float) -> float | None:
    """Seconds since ``path`` last changed, if it is old enough to be a leftover."""
    try:
        mtime = path.stat(follow_symlinks=False).st_mtime
    except OSError:
        return None
    if mtime >= RUN_STARTED or now - mtime < MIN_AGE_SECONDS:
        return None
    return now - mtime


def open_files() -> set[str] | None:
    """The real paths every visible process has open (Linux ``/proc``), or None if unknown."""
    proc = "/proc"
    if not os.path.isdir(os.path.join(proc, "self", "fd")):
        return None
    held: set[str] = set()
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        fd_dir = os.path.join(proc, pid, "fd")
        try:
            fds = os.listdir(fd_dir)
        except OSError:  # gone, or another user's: it cannot write our files anyway
            continue
        for fd in fds:
            try:
                held.add(os.readlink(os.path.join(fd_dir, fd)))
            except OSError:
                continue
    return held
