"""The vault's file rules, in one place, and the one lock processes share (GUI + CLI + MCP).

Which files are memories: Markdown files (``.md``/``.markdown``, any case) below the vault
folder, outside every dot-folder, that are regular files or symlinks to files inside the vault
(saving through a link that points outside would write there). Symlinked folders are not
entered. The store's scan, the file watchers (``vault_watch``, ``gui/watcher``), backup, the
review inbox and the importers all ask here instead of spelling the rules out again.

:func:`process_lock` is the one cross-process lock (``filelock``: ``flock`` on POSIX,
``LockFileEx`` on Windows); the store, the inbox, the embedding cache and settings use it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath

from pixelmem.core.vault.file_names import fitted, split_name
from pixelmem.core.vault.permissions import PRIVATE_DIR_MODE

log = logging.getLogger(__name__)

MARKDOWN_SUFFIXES = (".md", ".markdown")
LOCK_SUFFIX = ".lock"


def is_hidden(name: str) -> bool:
    """Dot-files and dot-folders (``.pixelmem/``, ``.git/``, editors' temp files) are never
    memories and never scanned, watched or imported."""
    return name.startswith(".")


def is_markdown(name: str) -> bool:
    return name.lower().endswith(MARKDOWN_SUFFIXES)


def is_memory_relpath(rel: PurePath) -> bool:
    """Whether a path relative to the vault names a memory file (by name alone)."""
    return bool(rel.parts) and is_markdown(rel.name) and not any(map(is_hidden, rel.parts))


def is_inside(resolved: Path, resolved_root: Path) -> bool:
    return resolved == resolved_root or resolved.is_relative_to(resolved_root)


def is_vault_file(entry: os.DirEntry[str], resolved_root: Path) -> bool:
    """A regular file, or a symlink to one inside the vault. A symlink loop counts: reading
    it reports why it is skipped."""
    try:
        if not entry.is_file():
            return False
        return not entry.is_symlink() or is_inside(Path(entry.path).resolve(), resolved_root)
    except OSError:  # ELOOP and the like: the read skips it with the reason
        return True
    except RuntimeError:  # Path.resolve on a loop before Python 3.13
        return False


def iter_memory_entries(
    top: str,
    resolved_root: Path,
    *,
    on_hidden: Callable[[os.DirEntry[str]], None] | None = None,
    on_error: Callable[[str, OSError], None] | None = None,
) -> Iterator[os.DirEntry[str]]:
    """The scandir entries of the memory files below ``top``. Not recursive: a vault may be
    2,000 folders deep. ``on_error(folder, exc)`` hears of unreadable folders (default: log)."""
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as exc:
            if on_error is not None:
                on_error(folder, exc)
            else:
                log.debug("cannot read folder %s: %s", folder, exc)
            continue
        for entry in entries:
            if is_hidden(entry.name):
                if on_hidden is not None:
                    on_hidden(entry)
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif is_markdown(entry.name) and is_vault_file(entry, resolved_root):
                    yield entry
            except OSError:  # vanished between readdir and stat
                continue


def memory_folders(root: Path) -> list[str]:
    """The vault folder and every folder below it that can hold memories (no dot-folders, no
    symlinked folders)."""
    found = [str(root)]
    for folder, dirnames, _files in walk_tree(root):
        dirnames[:] = [
            d for d in dirnames if not is_hidden(d) and not os.path.islink(os.path.join(folder, d))
        ]
        found.extend(os.path.join(folder, d) for d in dirnames)
    return found


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


def unique_path(folder: Path, name: str) -> Path:
    """``folder/name``, or the first free ``name (2)``, ``name (3)``, … beside it (the stem
    shortened where a number would make the name too long)."""
    candidate = folder / name
    stem, suffix = split_name(name)
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = folder / fitted(stem, f" ({number})", suffix)
        number += 1
    return candidate


def walk_tree(top: str | os.PathLike[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top)`` (top-down, symlinked folders listed but not entered), without
    recursion: a vault 2,000 folders deep must not raise RecursionError. Prune ``dirnames``
    in place to skip folders, as with ``os.walk``."""
    pending = [os.fspath(top)]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        dirnames: list[str] = []
        filenames: list[str] = []
        links: set[str] = set()
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirnames if is_dir else filenames).append(entry.name)
            if is_dir and entry.is_symlink():
                links.add(entry.name)
        yield folder, dirnames, filenames
        pending.extend(
            os.path.join(folder, name) for name in reversed(dirnames) if name not in links
        )


def make_dirs(path: Path) -> None:
    """``path.mkdir(parents=True, exist_ok=True)`` without recursion (any depth)."""
    missing: list[Path] = []
    current = Path(path)
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir()
        except FileExistsError:
            if not folder.is_dir():
                raise
