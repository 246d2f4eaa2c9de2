"""Chat conversations kept on disk, one JSON file each in ``<vault>/.pixelmem/chats/``.

Why JSON beside the vault: a conversation belongs to the memories it quotes (it names their
ids), travels with the vault and its backups, and stays out of the memory scan (dot-folder).
JSON rather than Markdown, because a message is itself Markdown — frontmatter-like lines, code
fences, ``---`` — and must come back byte for byte with its role, its state and the memories
it was given. Writes are atomic (temp file, fsync, replace), like memories. A file that cannot
be read is skipped and left alone, never rewritten or deleted.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pixelmem.core.atomic import atomic_write_text
from pixelmem.core.paths import appdata_dir

log = logging.getLogger(__name__)

FOLDER = "chats"
TITLE_CHARS = 60
FORMAT = 1


@dataclass
class ChatMessage:
    """One message; an answer also keeps how it ended and which memories it was given."""

    role: str  # user | assistant
    content: str
    state: str = ""  # an answer's end: done, length, stopped, cutoff, failed
    error: str = ""
    used: list[dict[str, Any]] = field(default_factory=list)  # id, title, score, reason


@dataclass
class Conversation:
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    title: str = ""
    created: str = field(default_factory=lambda: _now())
    updated: str = field(default_factory=lambda: _now())
    messages: list[ChatMessage] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)

    def history(self) -> list[dict[str, str]]:
        """What the model is shown of the past: each question whose answer produced text
        (messages alternate: a question, then its answer)."""
        kept: list[dict[str, str]] = []
        for question, answer in zip(self.messages[::2], self.messages[1::2], strict=False):
            if answer.content and answer.state != "failed":
                kept.append({"role": "user", "content": question.content})
                kept.append({"role": "assistant", "content": answer.content})
        return kept

    def named(self) -> str:
        """The title, or the first question's beginning."""
        if self.title:
            return self.title
        first = next((m.content for m in self.messages if m.role == "user"), "")
        line = " ".join(first.split())
        return line[:TITLE_CHARS] + ("…" if len(line) > TITLE_CHARS else "")


class ConversationStore:
    """The conversations of one vault."""

    def __init__(self, vault: Path) -> None:
        self.folder = appdata_dir(Path(vault)) / FOLDER

    def save(self, conversation: Conversation) -> None:
        conversation.updated = _now()
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, **asdict(conversation)}
        text = json.dumps(data, ensure_ascii=False, indent=1)
        atomic_write_text(self._path(conversation.id), text + "\n")

    def load(self, conversation_id: str) -> Conversation:
        data = json.loads(self._path(conversation_id).read_text(encoding="utf-8"))
        return _from_json(data)

    def list(self) -> list[Conversation]:
        """Every readable conversation, the most recently updated first."""
        found = []
        for path in self.folder.glob("*.json") if self.folder.is_dir() else []:
            try:
                found.append(_from_json(json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError, TypeError, KeyError) as exc:
                log.warning("skipping unreadable conversation %s: %s", path.name, exc)
        return sorted(found, key=lambda c: c.updated, reverse=True)

    def delete(self, conversation_id: str) -> None:
        """Move the file into ``chats/deleted/`` (kept, out of the list)."""
        path = self._path(conversation_id)
        if path.exists():
            target = self.folder / "deleted"
            target.mkdir(exist_ok=True)
            path.replace(target / path.name)

    def _path(self, conversation_id: str) -> Path:
        if not conversation_id.isalnum():
            raise ValueError(f"invalid conversation id {conversation_id!r}")
        return self.folder / f"{conversation_id}.json"


def _from_json(data: dict[str, Any]) -> Conversation:
    messages = [ChatMessage(**m) for m in data.get("messages", [])]
    fields = {k: data[k] for k in ("id", "title", "created", "updated") if k in data}
    conversation = Conversation(**fields, messages=messages)
    conversation.pinned = [str(i) for i in data.get("pinned", [])]
    conversation.excluded = [str(i) for i in data.get("excluded", [])]
    return conversation


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


__all__ = ["ChatMessage", "Conversation", "ConversationStore"]
