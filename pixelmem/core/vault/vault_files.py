"""The vault's file rules, in one place.

Which files are memories: Markdown files (``.md``/``.markdown``, any case) below the vault
folder, outside every dot-folder, that are regular files or symlinks to files inside the vault
(saving through a link that points outside would write there). Symlinked folders are not
entered. The store's scan, the runtime's watcher, backup, the review inbox and the importers
all ask here instead of spelling the rules out again. The cross-process lock and the folder
helpers are file primitives below the vault (:mod:`pixelmem.core.files`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath

from pixelmem.core.files.folders import walk_tree
from pixelmem.core.step_aside import step_aside

log = logging.getLogger(__name__)
# Entries looked at between two steps aside: ~2-4 µs each (a stat, a name check), so a
# vault of 10k files listed at its window's first show offers the window a turn every ~1 ms.
STEP_ENTRIES = 256

MARKDOWN_SUFFIXES = (".md", ".markdown")


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
    seen = 0
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
            seen += 1
            if seen % STEP_ENTRIES == 0:
                step_aside()  # a late or building window first (core/step_aside)
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


def memory_folders(root: Path) -> tuple[list[str], int]:
    """The vault folder and every folder below it that can hold memories (no dot-folders, no
    symlinked folders), and how many entries (files and folders) they hold."""
    found = [str(root)]
    entries = 0
    for folder, dirnames, files in walk_tree(root):
        entries += len(dirnames) + len(files)
        dirnames[:] = [
            d for d in dirnames if not is_hidden(d) and not os.path.islink(os.path.join(folder, d))
        ]
        found.extend(os.path.join(folder, d) for d in dirnames)
    return found, entries
