"""The vault's other files (images, PDFs, canvases, bases…): found the way Obsidian finds
``![[name]]``, and listed for ``pixelmem doctor``.

Resolution of an embed or link name (Obsidian's rule for ``![[diagram.png]]``):

1. a name with a ``/`` is a path: from the vault's root, else from the note's folder;
2. a bare name: the file of that name in the note's folder, else in the vault's attachment
   folder (``attachmentFolderPath`` in ``.obsidian/app.json``), else the one with the
   shortest path anywhere in the vault (then the first by path).

Names compare case-insensitively, as on the file systems most vaults live on. Dot-folders
(``.obsidian/``, ``.pixelmem/``, ``.git/``) are never looked into. The index is one walk of
the vault; callers keep it while the vault does not change (the preview makes one per
rendering on a worker: ~20 ms for 5,000 files).
"""

from __future__ import annotations

import json
import os
import posixpath
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pixelmem.core.files.safe_open import read_regular_bytes
from pixelmem.core.vault.vault_files import is_hidden, is_markdown

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".svg", ".webp", ".avif", ".ico")
MAX_FILES = 200_000  # a vault larger than this is not indexed further (a home folder by mistake)


def attachment_folder(root: Path) -> str:
    """The vault's attachment folder from ``.obsidian/app.json`` (``""`` for the root or
    when unset); ``./x`` (below the note's folder) is returned as written."""
    try:
        data = json.loads(read_regular_bytes(root / ".obsidian" / "app.json"))
    except (OSError, ValueError):
        return ""
    folder = data.get("attachmentFolderPath") if isinstance(data, dict) else None
    if not isinstance(folder, str) or folder in ("/", "."):
        return ""
    return folder.strip("/")


def is_image(name: str) -> bool:
    return name.lower().endswith(IMAGE_SUFFIXES)


@dataclass(frozen=True)
class OtherFile:
    """A file of the vault that is not a Markdown note."""

    rel: str  # posix path below the vault

    @property
    def kind(self) -> str:
        """``canvas``, ``base``, ``image``, ``pdf``, ``audio``, ``video`` or ``other``."""
        suffix = posixpath.splitext(self.rel)[1].lower()
        if suffix in (".canvas", ".base"):
            return suffix[1:]
        if suffix in IMAGE_SUFFIXES:
            return "image"
        if suffix == ".pdf":
            return "pdf"
        if suffix in (".mp3", ".wav", ".m4a", ".ogg", ".3gp", ".flac", ".webm"):
            return "audio" if suffix != ".webm" else "video"
        if suffix in (".mp4", ".ogv", ".mov", ".mkv"):
            return "video"
        return "other"


class AttachmentIndex:
    """Every non-Markdown file below ``root`` (outside dot-folders), by name and by path."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.folder = attachment_folder(self.root)
        self.files: list[str] = []  # posix paths below root, sorted
        self._by_path: dict[str, str] = {}
        self._by_name: dict[str, list[str]] = {}
        self._walk()

    def _walk(self) -> None:
        pending = [""]
        while pending and len(self.files) < MAX_FILES:
            rel_dir = pending.pop()
            try:
                with os.scandir(self.root / rel_dir if rel_dir else self.root) as listing:
                    entries = list(listing)
            except OSError:
                continue
            for entry in entries:
                if is_hidden(entry.name):
                    continue
                rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(rel)
                    elif entry.is_file() and not is_markdown(entry.name):
                        self.files.append(rel)
                except OSError:
                    continue
        self.files.sort()
        for rel in self.files:
            self._by_path.setdefault(rel.casefold(), rel)
            name = rel.rsplit("/", 1)[-1].casefold()
            self._by_name.setdefault(name, []).append(rel)

    def find(self, name: str, note_folder: str = "") -> Path | None:
        """The file ``name`` names from a note in ``note_folder`` (posix, below the root)."""
        rel = self.find_rel(name, note_folder)
        return self.root / rel if rel is not None else None

    def find_rel(self, name: str, note_folder: str = "") -> str | None:
        name = name.strip().replace("\\", "/").lstrip("/")
        if not name:
            return None
        if "/" in name:
            for candidate in (name, posixpath.join(note_folder, name)):
                found = self._by_path.get(posixpath.normpath(candidate).casefold())
                if found is not None:
                    return found
            name = name.rsplit("/", 1)[1]
        matches = self._by_name.get(name.casefold(), [])
        if not matches:
            return None
        for folder in (note_folder, self._attachment_folder(note_folder)):
            for rel in matches:
                if posixpath.dirname(rel).casefold() == folder.casefold():
                    return rel
        return min(matches, key=lambda rel: (rel.count("/"), rel))

    def _attachment_folder(self, note_folder: str) -> str:
        if self.folder.startswith("./"):
            return posixpath.normpath(posixpath.join(note_folder, self.folder[2:]))
        return self.folder

    def others(self) -> list[OtherFile]:
        return [OtherFile(rel) for rel in self.files]


def count_by_kind(files: list[OtherFile]) -> dict[str, int]:
    """How many files of each kind, most first."""
    return dict(Counter(f.kind for f in files).most_common())
