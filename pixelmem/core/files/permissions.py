"""File permissions: private by default, and the user's own respected.

Private by default: nothing pixelmem writes is more readable than the notes it copies.

``<vault>/.pixelmem/`` holds every note's text (the scan cache, the embedding cache, chats,
the inbox, the trash), so it is a 0700 folder and its files are 0600 — another account on the
machine reads none of it, whatever the user's umask. An existing ``.pixelmem`` made by an
earlier version (0755, files 0644) is tightened when the vault is opened.

A new file takes no more than its folder lets others reach: in a folder other accounts cannot
enter (no ``x`` for group or others), group and other read/write bits are left off. So a note
created in a private vault folder is private too, and a note in an ordinary 0755 folder gets
the umask's usual 0644.

Respected: a save replaces a note by renaming a new file over it, which needs only the
folder's permission — so a read-only note (no write bit) or one this account may not write
(another user's) would be replaced silently. :func:`write_refusal` says why such a note must
be left alone; the store refuses to save it, and deletes it only when told to (``force``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def umask() -> int:
    """The process's umask (reading it means setting it: done once per call, restored)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def new_file_mode(path: Path) -> int:
    """The mode for a new file at ``path``: the umask's default, minus what its folder keeps
    other accounts from reaching anyway."""
    mode = 0o666 & ~umask()
    try:
        folder = os.stat(path.parent).st_mode
    except OSError:
        return mode
    if not folder & stat.S_IXGRP:
        mode &= ~0o070
    if not folder & stat.S_IXOTH:
        mode &= ~0o007
    return mode


def copy_mode(source: Path, target: Path) -> int:
    """The mode for a new copy of ``source`` at ``target``: :func:`new_file_mode` less the
    group and other permissions ``source`` does not grant — an imported copy of a private
    (0600) file stays private in an ordinary 0755 vault folder. The owner's bits are the new
    file's (the copy is the user's to edit)."""
    mode = new_file_mode(target)
    try:
        return mode & (stat.S_IMODE(os.stat(source).st_mode) | 0o700)
    except OSError:
        return mode & 0o700  # a source that cannot be read back: the private choice


def no_more_open_than(source: Path, target: Path) -> None:
    """Narrow an existing ``target`` to :func:`copy_mode` (for a file another writer made)."""
    try:
        current = stat.S_IMODE(os.stat(target).st_mode)
        narrowed = current & (copy_mode(source, target) | 0o700)
        if narrowed != current:
            os.chmod(target, narrowed)
    except OSError as exc:  # the copy is made; say why its mode could not be narrowed
        log.warning("could not narrow the permissions of %s: %s", target, exc)


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and any missing parents as 0700 folders (existing ones untouched)."""
    missing: list[Path] = []
    current = Path(folder)
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            if not path.is_dir():
                raise
        else:
            _chmod_quietly(path, PRIVATE_DIR_MODE)  # mkdir's mode passes through the umask


def secure_appdata(appdata: Path) -> None:
    """Make an existing ``.pixelmem`` folder 0700 and the files directly in it 0600, where
    this account owns them (a folder shared on purpose by another owner is left alone)."""
    if not hasattr(os, "geteuid"):  # Windows: no mode bits to tighten
        return
    try:
        info = os.stat(appdata)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return
    if info.st_mode & 0o077:
        _chmod_quietly(appdata, PRIVATE_DIR_MODE)
        log.info("made %s private (mode 0700)", appdata)
    with contextlib.suppress(OSError), os.scandir(appdata) as entries:
        for entry in entries:
            _tighten_entry(entry)


def _tighten_entry(entry: os.DirEntry[str]) -> None:
    with contextlib.suppress(OSError):
        info = entry.stat(follow_symlinks=False)
        if info.st_uid != os.geteuid() or not info.st_mode & 0o077:
            return
        if stat.S_ISDIR(info.st_mode):
            os.chmod(entry.path, PRIVATE_DIR_MODE)
        elif stat.S_ISREG(info.st_mode):
            os.chmod(entry.path, stat.S_IMODE(info.st_mode) & ~0o077)


def _chmod_quietly(path: Path, mode: int) -> None:
    with contextlib.suppress(OSError):
        os.chmod(path, mode)


def write_refusal(path: Path) -> str | None:
    """Why the note at ``path`` must not be rewritten or trashed unasked (None: it may be).

    A file without any write bit is read-only on purpose, even for root (who could write it);
    otherwise this account must be allowed to write it (another user's note is theirs)."""
    try:
        info = os.stat(path)
    except OSError:
        return None  # gone or unreachable: the write itself reports it
    if not info.st_mode & 0o222:
        return "is read-only"
    if not os.access(path, os.W_OK):
        return "is not writable by you"
    return None
