"""ChatGPT and Claude exports imported as conversations, through ``pixelmem import-chats`` in
the forms README shows, and proposals drawn from them."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from extraction_fakes import rule_model_reply
from fake_servers import FakeServer

from pixelmem.cli import main
from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.assist.chat_exports import import_chat_export, read_export
from pixelmem.core.assist.conversations import ConversationStore
from pixelmem.core.errors import ImportFailed
from pixelmem.core.settings import Settings


def node(node_id, parent, children, role=None, text=None, **content):
    message = None
    if role is not None:
        body = {"content_type": "text", "parts": [text]} if text is not None else content
        message = {"id": node_id, "author": {"role": role}, "content": body,
                   "create_time": 1717000000.0, "metadata": {}}  # fmt: skip
    return {"id": node_id, "message": message, "parent": parent, "children": children}


CHATGPT = [
    {
        "title": "Espresso grinder",
        "create_time": 1717000000.0,
        "update_time": 1717003600.5,
        "conversation_id": "6650a1b2-0000-4000-8000-000000000001",
        "current_node": "a2",
        "mapping": {
            "root": node("root", None, ["sys"]),
            "sys": node("sys", "root", ["u1"], "system", ""),
            "u1": node("u1", "sys", ["a1"], "user", "My grinder is a Niche Zero."),
            "a1": node("a1", "u1", ["u2", "u2b"], "assistant", "Nice grinder."),
            "u2b": node("u2b", "a1", [], "user", "An edited question (another branch)"),
            "u2": node("u2", "a1", ["t1"], "user", "I prefer light roasts."),
            "t1": node(
                "t1",
                "u2",
                ["a2"],
                "assistant",
                None,
                content_type="thoughts",
                thoughts=[{"content": "reasoning"}],
            ),
            "a2": node("a2", "t1", [], "assistant", "Light roasts suit a Niche."),
        },
    },
    {"title": "Empty", "conversation_id": "x2", "mapping": {"r": node("r", None, [])}},
]
CLAUDE = [
    {
        "uuid": "c9d1e2f3-0000-4000-8000-000000000002",
        "name": "Database move",
        "created_at": "2024-05-01T10:00:00.000000Z",
        "updated_at": "2024-05-01T10:05:00.000000Z",
        "chat_messages": [
            {
                "sender": "human",
                "text": "We decided to switch the database to Postgres.",
                "content": [
                    {"type": "text", "text": "We decided to switch the database to Postgres."}
                ],
            },
            {
                "sender": "assistant",
                "text": "",
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "text", "text": "Good choice."},
                ],
            },
            {"sender": "human", "text": "Thanks!", "content": []},
        ],
    }
]


def test_chatgpt_follows_the_current_branch_and_skips_what_is_not_said(vault: Path) -> None:
    service, [conversation, empty] = read_export(CHATGPT)
    assert service == "ChatGPT" and empty.messages == []
    said = [(m.role, m.content) for m in conversation.messages]
    assert said == [
        ("user", "My grinder is a Niche Zero."),
        ("assistant", "Nice grinder."),
        ("user", "I prefer light roasts."),
        ("assistant", "Light roasts suit a Niche."),
    ]
    assert (
        conversation.created.startswith("2024-05-29") and conversation.title == "Espresso grinder"
    )


def test_claude_text_blocks_are_read_and_thinking_left_out() -> None:
    service, [conversation] = read_export(CLAUDE)
    assert service == "Claude"
    said = [(m.role, m.content, m.state) for m in conversation.messages]
    assert said == [
        ("user", "We decided to switch the database to Postgres.", ""),
        ("assistant", "Good choice.", "done"),
        ("user", "Thanks!", ""),
        ("assistant", "", "stopped"),  # a question without an answer
    ]
    assert conversation.updated.startswith("2024-05-01T10:05")


def test_importing_twice_adds_nothing_and_the_pane_can_read_them(vault: Path, tmp_path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(CHATGPT), encoding="utf-8")
    store = ConversationStore(vault)
    first = import_chat_export(export, store)
    assert (len(first.imported), first.already, first.empty) == (1, 0, 1)
    again = import_chat_export(export, store)
    assert (len(again.imported), again.already) == (0, 1)
    [saved] = store.list()
    assert saved.history()[0]["content"] == "My grinder is a Niche Zero."
    assert saved.updated.startswith("2024-05-29")  # the export's time, not the import's


def test_a_zip_export_is_read(vault: Path, tmp_path: Path) -> None:
    archive = tmp_path / "data-2024.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("conversations.json", json.dumps(CLAUDE))
        out.writestr("users.json", "[]")
    assert len(import_chat_export(archive, ConversationStore(vault)).imported) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not readable JSON"),
        ('{"a": 1}', "holds no list"),
        ('[{"title": "x"}]', "neither 'mapping'"),
    ],
)
def test_a_file_that_is_no_export_says_why(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ImportFailed, match=message):
        import_chat_export(path, ConversationStore(tmp_path))


def test_the_cli_imports_and_proposes(vault: Path, tmp_path: Path, capsys) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(CLAUDE), encoding="utf-8")
    with FakeServer(chat_responder=rule_model_reply) as server:
        settings = Settings()
        settings.chat.provider, settings.chat.base_url = "openai", server.openai_url
        settings.embedding.provider = "local"
        settings.search.mode = "keyword"
        settings.save()
        assert main(["import-chats", str(export), "--vault", str(vault), "--propose"]) == 0
    out = capsys.readouterr().out
    assert "imported 1 conversations (4 messages) from Claude" in out
    assert "1 proposals wait in the review inbox" in out
    [draft] = Inbox(vault).list()
    assert "Postgres" in draft.body and "“Database move”" in draft.body
    [talk] = ConversationStore(vault).list()
    assert talk.proposed == 4  # the app will not propose from it again on its own
    assert main(["chats", "--vault", str(vault)]) == 0
    assert "Database move" in capsys.readouterr().out
    assert main(["import-chats", str(tmp_path / "missing.json"), "--vault", str(vault)]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_propose_memories_without_a_chat_model_says_so(vault: Path, capsys) -> None:
    assert main(["propose-memories", "--latest", "--vault", str(vault)]) == 1
    assert "name conversations by id" in capsys.readouterr().err
