"""A chat turn without Qt: pins and exclusions, preparing the prompt, recording the turn."""

from __future__ import annotations

from pathlib import Path

from fakes import HashEmbedder

from pixelmem.core.assist.conversation import ChatMemories, Turn, prepare, record_turn
from pixelmem.core.assist.conversations import Conversation
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings


def test_pinning_excludes_nothing_and_excluding_unpins() -> None:
    memories = ChatMemories()
    memories.pin("a", "Alpha")
    memories.exclude("b")
    memories.exclude("a")
    assert memories.pinned == [] and memories.excluded == ["b", "a"]
    memories.pin("a", "Alpha")
    assert memories.pinned == ["a"] and memories.excluded == ["b"]
    memories.forget("b")
    assert not memories.knows("b") and memories.items(["a"]) == [("a", "Alpha")]


def test_prepare_and_record_a_turn(tmp_path: Path) -> None:
    engine = Engine(tmp_path / "vault", Settings(), embedder=HashEmbedder())
    engine.writes.create("Sourdough", "Feed the starter with rye flour.", topics=["baking"])
    other = engine.writes.create("Bikes", "Chain lube every 300 km.", topics=["bikes"]).value
    engine.open()
    prepared = prepare(engine, "sourdough starter", pinned=[other.id], excluded=set(), history=[])
    assert other.id in [u.id for u in prepared.prompt.used]
    assert prepared.titles[other.id] == "Bikes" and "bikes" in prepared.topics
    turn = Turn(1, "sourdough starter", message=None, prepared=prepared, text="Rye.")
    conversation = Conversation()
    record_turn(conversation, turn, "done")
    assert [m.role for m in conversation.messages] == ["user", "assistant"]
    assert other.id in [u["id"] for u in conversation.messages[1].used]
