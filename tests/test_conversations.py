"""Conversations on disk: exact round trip, newest first, unreadable files left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pixelmem.core.conversations import ChatMessage, Conversation, ConversationStore

TRICKY = "---\ntitle: not frontmatter\n---\n```python\nprint('hi')\n```\n浓缩咖啡 1:2"


def test_a_conversation_comes_back_exactly(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = Conversation(pinned=["m1"], excluded=["m2"])
    conversation.messages += [
        ChatMessage("user", TRICKY),
        ChatMessage("assistant", "answer", "cutoff", "was cut off", [{"id": "m1", "score": 0.7}]),
    ]
    store.save(conversation)
    assert (tmp_path / ".pixelmem" / "chats" / f"{conversation.id}.json").is_file()
    assert store.load(conversation.id) == conversation
    assert list(tmp_path.joinpath(".pixelmem", "chats").glob(".*.tmp")) == []  # atomic


def test_history_keeps_the_turns_whose_answer_has_text() -> None:
    conversation = Conversation()
    conversation.messages += [
        ChatMessage("user", "q1"),
        ChatMessage("assistant", "a1", "done"),
        ChatMessage("user", "q2"),
        ChatMessage("assistant", "", "failed", "down"),
        ChatMessage("user", "q3"),
        ChatMessage("assistant", "a3 partial", "cutoff"),
    ]
    assert [m["content"] for m in conversation.history()] == ["q1", "a1", "q3", "a3 partial"]
    assert conversation.named() == "q1"


def test_the_list_is_newest_first_and_skips_unreadable_files(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    older, newer = Conversation(title="older"), Conversation(title="newer")
    store.save(older)
    store.save(newer)
    broken = store.folder / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert [c.title for c in store.list()] == ["newer", "older"]
    assert broken.read_text(encoding="utf-8") == "{not json"  # left alone


def test_delete_keeps_the_file_aside(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = Conversation(title="gone")
    store.save(conversation)
    store.delete(conversation.id)
    assert store.list() == []
    kept = json.loads((store.folder / "deleted" / f"{conversation.id}.json").read_text("utf-8"))
    assert kept["title"] == "gone"


def test_an_id_cannot_leave_the_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        ConversationStore(tmp_path).load("../../settings")
