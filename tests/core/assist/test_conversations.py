"""Conversations on disk: exact round trip, newest first, unreadable files left alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pixelmem.core.assist.conversations import (
    ChatMessage,
    Conversation,
    ConversationStore,
    from_markdown,
    to_markdown,
)

TRICKY = "---\ntitle: not frontmatter\n---\n```python\nprint('hi')\n```\n浓缩咖啡 1:2"


def test_a_conversation_comes_back_exactly(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = Conversation(pinned=["m1"], excluded=["m2"])
    conversation.messages += [
        ChatMessage("user", TRICKY),
        ChatMessage("assistant", "answer", "cutoff", "was cut off", [{"id": "m1", "score": 0.7}]),
    ]
    store.save(conversation)
    path = tmp_path / ".pixelmem" / "chats" / f"{conversation.id}.md"
    assert path.read_text(encoding="utf-8").startswith("---\npixelmem_chat: 1\n")
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
    broken = store.folder / "broken.md"
    broken.write_text("---\npixelmem_chat: [\n", encoding="utf-8")
    plain = store.folder / "a note.md"
    plain.write_text("# not a conversation\n", encoding="utf-8")
    assert [c.title for c in store.list()] == ["newer", "older"]
    assert broken.read_text(encoding="utf-8") == "---\npixelmem_chat: [\n"  # left alone


def test_delete_keeps_the_file_aside(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = Conversation(title="gone")
    store.save(conversation)
    store.delete(conversation.id)
    assert store.list() == []
    kept = from_markdown((store.folder / "deleted" / f"{conversation.id}.md").read_text("utf-8"))
    assert kept.title == "gone"


def test_an_id_cannot_leave_the_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        ConversationStore(tmp_path).load("../../settings")


PIECES = [
    "",
    "\n",
    "\n\n",
    "---",
    '<!-- pixelmem:message {"role": "user"} -->',
    "\\<!-- pixelmem:message x",
    "\\\\<!-- pixelmem:message ",
    "-->",
    "```",
    "浓缩咖啡",
    "text",
    "\r\n",
    " ",
]


@pytest.mark.parametrize("seed", range(100))
def test_any_message_text_round_trips_byte_for_byte(seed: int) -> None:
    """Messages made of the hardest pieces (markers, escapes, blank lines, fences) survive."""
    rng = random.Random(seed)
    conversation = Conversation(title=rng.choice(["", "t: x", "--- 标题", "a\nb"]))
    for i in range(rng.randint(0, 5)):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        state = rng.choice(["", "done", "cutoff"])
        error = rng.choice(["", "closed -->", "x"])
        conversation.messages.append(
            ChatMessage("user" if i % 2 == 0 else "assistant", text, state, error)
        )
    assert from_markdown(to_markdown(conversation)) == conversation


def test_how_far_it_was_proposed_from_is_kept(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = Conversation(messages=[ChatMessage("user", "q"), ChatMessage("assistant", "a")])
    assert conversation.unproposed_answers()
    conversation.proposed = 2
    store.save(conversation)
    again = store.load(conversation.id)
    assert again.proposed == 2 and not again.unproposed_answers()
    again.messages += [ChatMessage("user", "q2"), ChatMessage("assistant", "")]  # no text
    assert not again.unproposed_answers()
    again.messages[-1].content = "a2"
    assert again.unproposed_answers()
    assert "proposed" not in to_markdown(Conversation())  # older files: no such key, 0
