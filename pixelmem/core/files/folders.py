"""Folder helpers without recursion (a vault may be 2,000 folders deep) and free file names."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from pixelmem.core.files.file_names import fitted, split_name


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
