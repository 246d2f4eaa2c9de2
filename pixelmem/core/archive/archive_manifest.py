"""The backup archive's format: member names, and the manifest that lists every file.

The manifest, ``pixelmem-backup.json``, is the archive's last member: the format name and
version, the pixelmem version, and each file's vault-relative path, size, sha256 and mtime.
Writing (:mod:`pixelmem.core.archive.backup`) and reading (:mod:`pixelmem.core.archive.restore`)
share it here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pixelmem import __version__
from pixelmem.core.errors import PixelmemError
from pixelmem.core.paths import APPDATA_DIRNAME

FORMAT = "pixelmem-backup"
FORMAT_VERSION = 1
MANIFEST_NAME = "pixelmem-backup.json"
FILES_PREFIX = "vault/"
CACHE_RELPATH = f"{APPDATA_DIRNAME}/embeddings.msgpack.zst"

Progress = Callable[[int, int], None]


class BackupError(PixelmemError):
    """The backup could not be written, or an archive is not a usable pixelmem backup."""


@dataclass
class FileEntry:
    path: str  # vault-relative, posix
    size: int
    sha256: str
    mtime_ns: int
    mode: int | None = None  # permission bits (0o777); None: a backup made before they were kept


def manifest_bytes(vault: Path, files: list[FileEntry]) -> bytes:
    """The manifest for a backup of ``vault`` holding ``files``, as UTF-8 JSON."""
    manifest = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "pixelmem": __version__,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "vault": str(vault),
        "files": [vars(entry) for entry in files],
    }
    return json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8")


def parse_manifest(archive: Path, data: bytes | None) -> dict[str, Any]:
    """The manifest read from ``archive`` (None: it had none); a BackupError if unusable."""
    if data is None:
        raise BackupError(f"{archive} is not a pixelmem backup (no {MANIFEST_NAME})")
    try:
        manifest = json.loads(data.decode("utf-8"))
    except ValueError:
        raise BackupError(f"{archive}: the manifest is not valid JSON") from None
    except RecursionError:
        raise BackupError(f"{archive}: the manifest is nested too deeply to read") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{archive} is not a pixelmem backup")
    version = manifest.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise BackupError(
            f"{archive} was made by a newer pixelmem (backup format {version}); update pixelmem"
        )
    return manifest


def manifest_entries(archive: Path, manifest: dict[str, Any]) -> list[FileEntry]:
    """The manifest's file list, each entry checked (types, and a safe relative path)."""
    files = manifest.get("files")
    if not isinstance(files, list):
        raise BackupError(f"{archive}: the manifest has no file list")
    entries = []
    for item in files:
        try:
            mode = item.get("mode")
            entry = FileEntry(
                str(item["path"]),
                int(item["size"]),
                str(item["sha256"]),
                int(item["mtime_ns"]),
                None if mode is None else int(mode) & 0o777,
            )
        except (TypeError, KeyError, ValueError, RecursionError):
            raise BackupError(f"{archive}: a manifest entry is malformed: {_short(item)}") from None
        problem = relpath_problem(entry.path)
        if problem:
            raise BackupError(f"{archive}: the manifest names {entry.path!r}: {problem}")
        entries.append(entry)
    return entries


def _short(value: Any) -> str:
    """A repr for a message: cut short, and safe for values nested too deeply to print."""
    try:
        text = repr(value)
    except RecursionError:
        return "(a value nested too deeply to show)"
    return text if len(text) <= 200 else text[:200] + "…"


def relpath_problem(name: str) -> str | None:
    """Why ``name`` is not a safe relative posix path, or None."""
    if not name or "\0" in name:
        return "an empty name or a NUL character"
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    parts = name.replace("\\", "/").rstrip("/").split("/")
    if any(part == ".." for part in parts):
        return "a '..' component that leaves the destination"
    if any(part in ("", ".") for part in parts):
        return "an empty or '.' path component"
    return None
