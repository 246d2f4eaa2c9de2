"""The ``Memory`` record: one Markdown file with YAML frontmatter."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pixelmem.core.vault import drawings

IMPORTANCE_LEVELS = ("low", "medium", "high")
DEFAULT_IMPORTANCE = "medium"

# Frontmatter keys pixelmem owns; every other key is the user's and is preserved untouched.
# ``tags`` (Obsidian, Hugo…) is the same concept as ``topics``; ``aliases``/``alias`` are other
# names of the memory (Obsidian). Saving keeps writing the key the file already uses.
TOPIC_KEYS = ("topics", "tags")
ALIAS_KEYS = ("aliases", "alias")
OWNED_KEYS = ("id", "title", "created", "updated", "importance", "source", *TOPIC_KEYS, *ALIAS_KEYS)


@dataclass
class Memory:
    """One memory as read from (or about to be written to) the vault.

    ``created`` comes from the file's ``created`` (or ``date``…) key; a file without one
    shows the date pixelmem first saw it (kept in the scan cache), never its changing mtime.
    ``path`` is absolute. ``extra`` holds unknown frontmatter keys in file order. ``has_id`` is
    False for foreign files whose id was derived from their path (no ``id`` key on disk).
    """

    id: str
    title: str
    body: str = ""
    topics: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    importance: str = DEFAULT_IMPORTANCE
    created: datetime | None = None
    updated: datetime | None = None
    source: str | None = None
    path: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    has_id: bool = True
    # Fingerprint of the file as read (mtime_ns, sha256 hex); used for the dirty check.
    disk_mtime_ns: int | None = None
    disk_hash: str | None = None
    # Keys of ``extra`` to take out of the file on the next save (a property the person
    # deleted in the editor); never read from a file.
    drop_keys: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """What search sees: the title, then the body."""
        return f"{self.title}\n\n{self.body}" if self.title else self.body


def searchable_title(memory: Memory) -> str:
    """The title and the aliases: what search and embeddings see as the memory's name."""
    if not memory.aliases:
        return memory.title
    return " · ".join([memory.title, *memory.aliases])


_WIKI = re.compile(r"!?\[\[([^\[\]\n|#]*)(?:#([^\[\]\n|]*))?(?:\|([^\[\]\n]*))?\]\]")
_CALLOUT = re.compile(r"^\[![^\]\s]+\][+-]?\s*")
_BLOCK_ID = re.compile(r"\s\^[A-Za-z0-9-]+$")


def _shown_link(match: re.Match[str]) -> str:
    target, heading, alias = match.groups()
    if match.group(0).startswith("!"):  # an embed: its name, as the preview names a missing one
        return (alias if alias and not alias.strip().isdigit() else target).strip()
    return (alias or (f"{target} > {heading}" if heading else target)).strip()


def preview_line(body: str) -> str:
    """The first line of text in the body as a reader sees it: without Markdown heading,
    quote or list marks, a callout's ``[!type]``, a block id, and with ``[[Note|shown]]``
    as "shown"; of an Excalidraw drawing, its words. What a list shows of a memory without
    topics. Applied to its own result it gives it back."""
    if drawings.looks_like_drawing(body):
        body = drawings.first_words(body)
    for line in body.splitlines():
        line = line.strip().lstrip("#>*-+ ").strip()
        line = _CALLOUT.sub("", line)
        line = _BLOCK_ID.sub("", _WIKI.sub(_shown_link, line)).strip().lstrip("#>*-+ ").strip()
        if line:
            return line
    return ""
