"""Chat histories exported from ChatGPT and Claude, kept as pixelmem conversations.

Both services export a ``conversations.json`` (alone, or inside the ``.zip`` they send):

- ChatGPT: a list of conversations, each a tree of messages (``mapping``: node id → ``message``,
  ``parent``, ``children``); the conversation as the person last saw it is the path from the
  root to ``current_node`` (edited and regenerated branches are left out). Text is in
  ``content.parts``; system, tool, hidden and reasoning messages ("thoughts") are skipped.
- Claude: a list of conversations with ``chat_messages`` (``sender`` human/assistant, ``text``
  or ``content`` blocks of ``type`` text; ``thinking`` blocks are skipped).

Each becomes one file in ``.pixelmem/chats/`` (the chat pane lists it) with an id drawn from
the service's own conversation id, so importing the same export twice adds nothing. Messages are
paired as pixelmem keeps them (a question, then its answer): consecutive messages of one role
are joined, and a question the export has no answer to gets an empty one.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pixelmem.core.assist.conversations import ChatMessage, Conversation, ConversationStore
from pixelmem.core.errors import ImportFailed

EXPORT_NAME = "conversations.json"
MAX_EXPORT_BYTES = 1024 * 1024 * 1024
SKIPPED_CONTENT = {"thoughts", "reasoning_recap", "tether_browsing_display", "system_error"}


@dataclass
class ChatImport:
    """What an import did."""

    service: str = ""
    imported: list[Conversation] = field(default_factory=list)
    already: int = 0  # imported before (same conversation id)
    empty: int = 0  # no message with text


def import_chat_export(path: Path, store: ConversationStore) -> ChatImport:
    """Read ``path`` (a ``conversations.json`` or an export ``.zip``) into ``store``."""
    data = _load(Path(path))
    service, conversations = read_export(data)
    known = {c.id for c in store.list()}
    result = ChatImport(service)
    for conversation in conversations:
        if conversation.id in known:
            result.already += 1
        elif not conversation.messages:
            result.empty += 1
        else:
            store.save(conversation, touch=False)
            known.add(conversation.id)
            result.imported.append(conversation)
    return result


def read_export(data: Any) -> tuple[str, list[Conversation]]:
    """The service ("ChatGPT" or "Claude") and its conversations; ImportFailed otherwise."""
    if isinstance(data, dict) and isinstance(data.get("conversations"), list):
        data = data["conversations"]
    if not isinstance(data, list):
        raise ImportFailed("not a ChatGPT or Claude export: conversations.json holds no list")
    items = [c for c in data if isinstance(c, dict)]
    if any("mapping" in c for c in items):
        return "ChatGPT", [c for c in map(from_chatgpt, items) if c is not None]
    if any("chat_messages" in c for c in items):
        return "Claude", [c for c in map(from_claude, items) if c is not None]
    if not items:
        return "", []
    raise ImportFailed(
        "not a ChatGPT or Claude export: its conversations have neither 'mapping' (ChatGPT) "
        "nor 'chat_messages' (Claude)"
    )


def from_chatgpt(item: dict[str, Any]) -> Conversation | None:
    mapping = item.get("mapping")
    if not isinstance(mapping, dict):
        return None
    turns = []
    for node in _current_path(mapping, item.get("current_node")):
        message = node.get("message") if isinstance(node, dict) else None
        role, text = _chatgpt_text(message)
        if text:
            turns.append((role, text))
    source_id = str(item.get("conversation_id") or item.get("id") or item.get("title") or "")
    created = _moment(item.get("create_time"))
    updated = _moment(item.get("update_time")) or created
    return _conversation(
        "chatgpt", source_id, str(item.get("title") or ""), created, updated, turns
    )


def _current_path(mapping: dict[str, Any], current: Any) -> list[Any]:
    """Root → ``current_node`` (the last leaf when the export does not say it)."""
    if current not in mapping:
        leaves = [k for k, v in mapping.items() if isinstance(v, dict) and not v.get("children")]
        current = leaves[-1] if leaves else None
    path, seen = [], set()
    while current in mapping and current not in seen:  # a loop in a damaged file ends here
        seen.add(current)
        node = mapping[current]
        path.append(node)
        current = node.get("parent") if isinstance(node, dict) else None
    return path[::-1]


def _chatgpt_text(message: Any) -> tuple[str, str]:
    if not isinstance(message, dict):
        return "", ""
    role = str((message.get("author") or {}).get("role") or "")
    metadata = message.get("metadata") or {}
    if role not in ("user", "assistant") or metadata.get("is_visually_hidden_from_conversation"):
        return role, ""
    content = message.get("content") or {}
    if content.get("content_type") in SKIPPED_CONTENT:
        return role, ""
    parts = content.get("parts") or (
        [content["text"]] if isinstance(content.get("text"), str) else []
    )
    texts = [p for p in parts if isinstance(p, str)]
    texts += [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return role, "\n\n".join(t for t in texts if t.strip()).strip()


def from_claude(item: dict[str, Any]) -> Conversation | None:
    messages = item.get("chat_messages")
    if not isinstance(messages, list):
        return None
    turns = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = {"human": "user", "assistant": "assistant"}.get(str(message.get("sender")), "")
        text = _claude_text(message)
        if role and text:
            turns.append((role, text))
    source_id = str(item.get("uuid") or item.get("name") or "")
    created = _moment(item.get("created_at"))
    updated = _moment(item.get("updated_at")) or created
    title = str(item.get("name") or "")
    return _conversation("claude", source_id, title, created, updated, turns)


def _claude_text(message: dict[str, Any]) -> str:
    blocks = message.get("content")
    if isinstance(blocks, list) and blocks:
        texts = [
            str(b.get("text") or "")
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "text"
        ]
        return "\n\n".join(t for t in texts if t.strip()).strip()
    return str(message.get("text") or "").strip()


def _conversation(
    service: str,
    source_id: str,
    title: str,
    created: str,
    updated: str,
    turns: list[tuple[str, str]],
) -> Conversation:
    digest = hashlib.sha256(f"{service}:{source_id}".encode()).hexdigest()[:12]
    conversation = Conversation(id=digest, title=" ".join(title.split())[:200])
    conversation.created = created or conversation.created
    conversation.updated = updated or conversation.created
    conversation.messages = list(_paired(turns))
    return conversation


def _paired(turns: list[tuple[str, str]]) -> Iterator[ChatMessage]:
    """Question, answer, question, answer…: one role's run joined, a missing answer empty."""
    runs: list[tuple[str, str]] = []
    for role, text in turns:
        if runs and runs[-1][0] == role:
            runs[-1] = (role, f"{runs[-1][1]}\n\n{text}")
        else:
            runs.append((role, text))
    if runs and runs[0][0] == "assistant":
        runs.insert(0, ("user", ""))  # a conversation the assistant opened
    for i in range(0, len(runs), 2):
        question = runs[i][1]
        answer = runs[i + 1][1] if i + 1 < len(runs) else ""
        yield ChatMessage("user", question)
        yield ChatMessage("assistant", answer, "done" if answer else "stopped")


def _moment(value: Any) -> str:
    """An ISO time from an epoch number (ChatGPT) or ISO text (Claude); "" if neither."""
    try:
        if isinstance(value, int | float) and value > 0:
            moment = datetime.fromtimestamp(float(value), tz=UTC)
        elif isinstance(value, str) and value.strip():
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        else:
            return ""
    except (ValueError, OverflowError, OSError):
        return ""
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _load(path: Path) -> Any:
    try:
        if zipfile.is_zipfile(path):
            return _load_zip(path)
        if path.stat().st_size > MAX_EXPORT_BYTES:
            raise ImportFailed(f"{path.name} is larger than 1 GB")
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ImportFailed(f"{path} does not exist") from None
    except IsADirectoryError:
        raise ImportFailed(f"{path} is a folder; give its conversations.json") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportFailed(f"{path.name} is not readable JSON ({exc})") from None
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from None


def _load_zip(path: Path) -> Any:
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == EXPORT_NAME]
        if not names:
            raise ImportFailed(f"{path.name} holds no {EXPORT_NAME}")
        info = archive.getinfo(min(names, key=len))
        if info.file_size > MAX_EXPORT_BYTES:
            raise ImportFailed(f"{EXPORT_NAME} in {path.name} is larger than 1 GB")
        return json.loads(archive.read(info).decode("utf-8-sig"))


__all__ = ["ChatImport", "from_chatgpt", "from_claude", "import_chat_export", "read_export"]
