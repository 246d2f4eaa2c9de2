"""Chat conversations kept on disk, one Markdown file each in ``<vault>/.pixelmem/chats/``.

A conversation belongs to the memories it quotes (it names their ids), travels with the vault
and its backups, and stays out of the memory scan (dot-folder). It is Markdown with YAML
frontmatter, like a memory, so any editor shows it::

    ---
    pixelmem_chat: 1
    id: 3f9a0c1b2d4e
    title: Espresso questions
    ...
    ---

    <!-- pixelmem:message {"role": "user"} -->
    Why is my espresso sour?

    <!-- pixelmem:message {"role": "assistant", "state": "done", "used": [...]} -->
    Grind finer …

A message is itself Markdown (code fences, ``---``, even a line that looks like a marker) and
must come back byte for byte: each message is its marker line, its text, and one blank line;
a text line that starts like a marker gets one more leading backslash (removed on reading).
Writes are atomic (temp file, fsync, replace). A file that cannot be read is skipped and left
alone, never rewritten or deleted.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from pixelmem.core.files.atomic import atomic_write_text
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.paths import appdata_dir

log = logging.getLogger(__name__)

FOLDER = "chats"
TITLE_CHARS = 60
FORMAT = 1
SUFFIX = ".md"
MARKER = "<!-- pixelmem:message "
_MARKER_LIKE = re.compile(r"^(\\*)<!-- pixelmem:message ", re.MULTILINE)
_MARKER_LINE = re.compile(r"^<!-- pixelmem:message (\{.*\}) -->\n", re.MULTILINE)


@dataclass
class ChatMessage:
    """One message; an answer also keeps how it ended and which memories it was given."""

    role: str  # user | assistant
    content: str
    state: str = ""  # an answer's end: done, length, stopped, cutoff, failed
    error: str = ""
    used: list[dict[str, Any]] = field(default_factory=list)  # id, title, score, reason
    reasoning: str = ""  # a thinking model's reasoning: shown, never sent back nor saved as memory


@dataclass
class Conversation:
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    title: str = ""
    created: str = field(default_factory=lambda: _now())
    updated: str = field(default_factory=lambda: _now())
    messages: list[ChatMessage] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    # How many of its messages the chat model was asked for memories from: a conversation is
    # proposed from on its own only when answers came after that (once, across sessions).
    proposed: int = 0

    def unproposed_answers(self) -> bool:
        """Whether an answer with text came after the last proposal from this conversation."""
        return any(
            m.role == "assistant" and m.content for m in self.messages[max(0, self.proposed) :]
        )

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

    def save(self, conversation: Conversation, *, touch: bool = True) -> None:
        """Write it (atomically); ``touch`` False keeps its ``updated`` (an imported one's)."""
        if touch:
            conversation.updated = _now()
        make_private_dirs(self.folder)
        atomic_write_text(self._path(conversation.id), to_markdown(conversation))

    def load(self, conversation_id: str) -> Conversation:
        return from_markdown(self._path(conversation_id).read_text(encoding="utf-8"))

    def list(self) -> list[Conversation]:
        """Every readable conversation, the most recently updated first."""
        found = []
        for path in self.folder.glob(f"*{SUFFIX}") if self.folder.is_dir() else []:
            try:
                found.append(from_markdown(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, TypeError, KeyError, yaml.YAMLError) as exc:
                log.warning("skipping unreadable conversation %s: %s", path.name, exc)
        return sorted(found, key=lambda c: c.updated, reverse=True)

    def delete(self, conversation_id: str) -> None:
        """Move the file into ``chats/deleted/`` (kept, out of the list)."""
        path = self._path(conversation_id)
        if path.exists():
            target = self.folder / "deleted"
            make_private_dirs(target)
            path.replace(target / path.name)

    def _path(self, conversation_id: str) -> Path:
        if not conversation_id.isalnum():
            raise ValueError(f"invalid conversation id {conversation_id!r}")
        return self.folder / f"{conversation_id}{SUFFIX}"


def to_markdown(conversation: Conversation) -> str:
    """The file text of ``conversation`` (see the module docstring)."""
    head = {
        "pixelmem_chat": FORMAT,
        "id": conversation.id,
        "title": conversation.title,
        "created": conversation.created,
        "updated": conversation.updated,
        "pinned": list(conversation.pinned),
        "excluded": list(conversation.excluded),
    }
    if conversation.proposed:
        head["proposed"] = conversation.proposed
    parts = ["---\n", yaml.safe_dump(head, allow_unicode=True, sort_keys=False), "---\n"]
    for message in conversation.messages:
        meta = {k: v for k, v in asdict(message).items() if k != "content" and v not in ("", [])}
        # "\u003e" keeps "-->" in an error text from closing the comment in a Markdown viewer.
        line = json.dumps(meta, ensure_ascii=False).replace(">", "\\u003e")
        text = _MARKER_LIKE.sub(lambda m: "\\" + m.group(0), message.content)
        parts += ["\n", f"{MARKER}{line} -->\n", text, "\n"]
    return "".join(parts)


def from_markdown(text: str) -> Conversation:
    """The conversation in a file written by :func:`to_markdown`; ValueError if it is not one."""
    if not text.startswith("---\n"):
        raise ValueError("no frontmatter")
    end = text.find("\n---\n", 3)
    if end < 0:
        raise ValueError("unterminated frontmatter")
    head = yaml.safe_load(text[4 : end + 1])
    if not isinstance(head, dict) or head.get("pixelmem_chat") != FORMAT:
        raise ValueError("not a pixelmem conversation")
    body = text[end + 5 :]
    markers = list(_MARKER_LINE.finditer(body))
    messages = []
    for i, marker in enumerate(markers):
        stop = markers[i + 1].start() if i + 1 < len(markers) else len(body)
        chunk = body[marker.end() : stop]
        if not chunk.endswith("\n\n") and i + 1 < len(markers):
            raise ValueError("damaged message")
        content = chunk[:-2] if i + 1 < len(markers) else chunk.removesuffix("\n")
        content = _MARKER_LIKE.sub(lambda m: m.group(0)[1:] if m.group(1) else m.group(0), content)
        meta = json.loads(marker.group(1))
        messages.append(ChatMessage(content=content, **meta))
    conversation = Conversation(messages=messages)
    for key in ("id", "title", "created", "updated"):
        if key in head:
            setattr(conversation, key, str(head[key]))
    conversation.pinned = [str(i) for i in head.get("pinned") or []]
    conversation.excluded = [str(i) for i in head.get("excluded") or []]
    proposed = head.get("proposed")
    conversation.proposed = proposed if isinstance(proposed, int) and proposed > 0 else 0
    return conversation


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


__all__ = ["ChatMessage", "Conversation", "ConversationStore"]
