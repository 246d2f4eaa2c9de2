"""File names that fit: every name pixelmem makes from another one stays within ``NAME_MAX``.

A note may be named up to 255 bytes (84 CJK characters + ``.md`` is 255), and the names
pixelmem derives from it — the temp file of a save, ``name (2)`` in the trash, ``name
(conflict …)`` — are longer. Each is built here by shortening the stem at a character
boundary, never the suffix, so any valid note name can be saved, trashed, restored and copied.
"""

from __future__ import annotations

import os

NAME_MAX = 255  # bytes: ext4, XFS, Btrfs, APFS, NTFS (in UTF-16 units, which UTF-8 bounds)
TEMP_STEM_BYTES = 64  # of the target's name kept in its temp file's name (recognisable)


def truncated(text: str, max_bytes: int) -> str:
    """``text`` cut to at most ``max_bytes`` of UTF-8, at a character boundary."""
    data = text.encode("utf-8", "surrogateescape")
    if len(data) <= max_bytes:
        return text
    return data[: max(0, max_bytes)].decode("utf-8", "ignore")


def fitted(stem: str, tail: str, suffix: str = "", max_bytes: int = NAME_MAX) -> str:
    """``stem + tail + suffix`` with ``stem`` shortened until the name fits ``max_bytes``."""
    room = max_bytes - len(os.fsencode(tail + suffix))
    return f"{truncated(stem, room)}{tail}{suffix}"


def split_name(name: str) -> tuple[str, str]:
    """``("note", ".md")`` for ``note.md``; a dot-file or a name without a dot has no suffix."""
    stem, suffix = os.path.splitext(name)
    return stem, suffix


def temp_prefix(name: str) -> str:
    """The prefix of a temp file written beside ``name``: ``.<shortened name>.`` — with the
    random part and ``.tmp`` a temp name is at most ~80 bytes, whatever the target's length."""
    stem, suffix = split_name(name)
    return "." + fitted(stem, "", suffix, TEMP_STEM_BYTES) + "."
