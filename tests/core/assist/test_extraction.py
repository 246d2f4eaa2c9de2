"""Memories proposed from a conversation, through the review inbox: the request sent to a real
HTTP chat server, the guards, update and supersede proposals, and what accepting each does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from extraction_fakes import rule_model_reply
from fake_servers import FakeServer
from fakes import HashEmbedder

from pixelmem.core.archive.inbox import Inbox
from pixelmem.core.archive.proposals import ProposalStale
from pixelmem.core.assist.conversations import ChatMessage, Conversation
from pixelmem.core.assist.extraction import (
    extract,
    parse_answer,
    propose_from_messages,
    quoted_in,
)
from pixelmem.core.index.engine import Engine
from pixelmem.core.providers.chat import OpenAIChat
from pixelmem.core.settings import ChatSettings, Settings

TALK = [
    ChatMessage(
        "user", "My grinder is a Niche Zero. We decided to switch the app database to Postgres."
    ),
    ChatMessage("assistant", "Postgres is a solid choice. You could also try SQLite."),
    ChatMessage("user", "I run 10 km every Sunday, usually with my sister Anna."),
]


@pytest.fixture
def engine(vault: Path) -> Engine:
    for memory_id, title, body in [
        ("mem-db", "App database", "The app database is MySQL 8."),
        ("mem-run", "Running", "I run 10 km every Sunday."),
    ]:
        text = f"---\nid: {memory_id}\ntitle: {title}\n---\n\n{body}\n"
        (vault / f"{memory_id}.md").write_text(text, encoding="utf-8")
    found = Engine(vault, Settings(), embedder=HashEmbedder())
    found.open()
    return found


@pytest.fixture
def server():
    with FakeServer(chat_responder=rule_model_reply) as fake:
        yield fake


def chat(server: FakeServer) -> ChatSettings:
    return ChatSettings(provider="openai", base_url=server.openai_url, model="m")


def test_proposals_reach_the_inbox_and_nothing_the_vault(
    engine: Engine, vault: Path, server: FakeServer
) -> None:
    before = {m.id: m.body for m in engine.store.list()}
    conversation = Conversation(title="Setup talk", messages=TALK)
    report = propose_from_messages(
        engine, Inbox(vault), chat(server), TALK, conversation=conversation
    )
    kinds = {d.extra.get("proposal", "new"): d for d in report.drafts}
    assert set(kinds) == {"new", "supersede", "update"}
    assert "Niche Zero" in kinds["new"].body
    assert kinds["supersede"].extra["target"] == "mem-db"
    assert kinds["update"].extra["target"] == "mem-run" and "Anna" in kinds["update"].body
    assert kinds["update"].body.lstrip().startswith("I run 10 km every Sunday.")  # whole body
    for draft in report.drafts:  # each cites the conversation
        assert draft.extra["conversation"] == conversation.id
        assert "“Setup talk”" in draft.body and "\n> " in draft.body
    assert any("Yacht" in d for d in report.dropped)  # made up
    assert any("Suggestion" in d for d in report.dropped)  # the assistant's words
    engine.store.scan()
    assert {m.id: m.body for m in engine.store.list()} == before
    request = server.bodies("/v1/chat/completions")[0]
    assert request["response_format"] == {"type": "json_object"}
    assert request["chat_template_kwargs"] == {"enable_thinking": False}
    assert 'id "mem-db"' in request["messages"][1]["content"]


def test_accepting_each_kind_of_proposal(engine: Engine, vault: Path, server: FakeServer) -> None:
    inbox = Inbox(vault)
    report = propose_from_messages(engine, inbox, chat(server), TALK)
    by_kind = {d.extra.get("proposal", "new"): d for d in report.drafts}
    written = engine.writes.accept_draft(inbox, by_kind["update"].id)
    assert written.changes.updated == ("mem-run",)
    assert "Anna" in engine.store.get("mem-run").body
    written = engine.writes.accept_draft(inbox, by_kind["supersede"].id)
    new_id = written.value.id
    assert written.changes.created == (new_id,) and written.changes.updated == ("mem-db",)
    old = engine.store.get("mem-db")
    assert (
        old.extra["superseded_by"] == new_id and old.body.strip() == "The app database is MySQL 8."
    )
    assert engine.store.get(new_id).extra["supersedes"] == "mem-db"
    assert "proposal" not in engine.store.get(new_id).extra
    new = engine.writes.accept_draft(inbox, by_kind["new"].id).value
    assert new.extra.get("kind") == "fact" and "target" not in new.extra
    assert inbox.count() == 0


def test_an_update_to_a_memory_changed_since_is_refused(
    engine: Engine, vault: Path, server: FakeServer
) -> None:
    inbox = Inbox(vault)
    report = propose_from_messages(engine, inbox, chat(server), TALK)
    update = next(d for d in report.drafts if d.extra.get("proposal") == "update")
    memory = engine.store.get("mem-run")
    memory.body = "I run 12 km now."
    engine.store.update(memory)
    with pytest.raises(ProposalStale, match="changed since"):
        inbox.accept(update.id, engine.store)
    assert inbox.get(update.id)  # still waiting
    assert engine.store.get("mem-run").body.strip() == "I run 12 km now."


def test_a_proposal_whose_memory_is_gone_says_so(
    engine: Engine, vault: Path, server: FakeServer
) -> None:
    inbox = Inbox(vault)
    report = propose_from_messages(engine, inbox, chat(server), TALK)
    supersede = next(d for d in report.drafts if d.extra.get("proposal") == "supersede")
    engine.writes.delete("mem-db")
    with pytest.raises(ProposalStale, match="no longer exists"):
        inbox.accept(supersede.id, engine.store)


def test_nothing_new_is_no_proposal(engine: Engine, vault: Path) -> None:
    reply = {"memories": [{"kind": "fact", "title": "Run", "text": "I run 10 km every Sunday.",
                           "quote": "I run 10 km every Sunday", "updates": "mem-run"}]}  # fmt: skip
    with FakeServer(chat_reply=json.dumps(reply)) as server:
        talk = [ChatMessage("user", "I run 10 km every Sunday, as always.")]
        client = OpenAIChat(server.openai_url, "m")
        report = extract(engine, Inbox(vault), client, talk)
    assert report.drafts == [] and "already in a saved memory" in report.dropped[0]


@pytest.mark.parametrize(
    "answer",
    [
        '{"memories": [{"kind": "Fact", "title": "T", "text": "x", "quote": "q"}]}',
        'Here you go:\n```json\n[{"kind": "fact", "title": "T", "text": "x", "quote": "q"}]\n```',
        'Sure! {"memories": [{"kind": "fact", "title": "T", "text": "x", "quote": "q"}]} Done.',
    ],
)
def test_answers_in_the_shapes_small_models_write(answer: str) -> None:
    [item] = parse_answer(answer)
    assert (item.kind, item.title, item.quote) == ("fact", "T", "q")


def test_an_answer_without_json_is_an_error_with_a_sentence() -> None:
    with pytest.raises(Exception, match="no JSON"):
        parse_answer("I could not find anything.")


def test_quotes_are_checked_against_the_users_words_only() -> None:
    talk = [
        ChatMessage("user", "我喜欢浅烘焙的咖啡豆。"),
        ChatMessage("assistant", "试试水温92度。"),
    ]
    assert quoted_in("我喜欢浅烘焙的咖啡豆", talk)
    assert quoted_in("I", [ChatMessage("user", "I")])
    assert not quoted_in("水温92度", talk)
    assert not quoted_in("", talk)
