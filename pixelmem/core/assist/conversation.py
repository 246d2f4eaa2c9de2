"""One chat, without Qt: pinned and excluded memories, preparing a turn, recording it.

A turn is a question and its answer. :func:`prepare` searches and injects (on a worker in the
app, inline in ``pixelmem ask``): the prompt, fitted to the model's context window, plus the
titles and topics to show. :func:`record_turn` appends the finished turn to the saved
:class:`~pixelmem.core.assist.conversations.Conversation`. The chat pane renders and routes;
both it and ``pixelmem ask`` prepare turns here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pixelmem.core.assist.conversations import ChatMessage, Conversation
from pixelmem.core.assist.injection import (
    DEFAULT_MODE,
    InjectedPrompt,
    Message,
    UsedMemory,
    build_prompt_for,
)
from pixelmem.core.errors import InvalidIdError, MemoryNotFound
from pixelmem.core.providers.chat import CancelToken
from pixelmem.core.providers.chat_window import fitted_settings

MAX_DRAFT_TOPICS = 3
ACTIVE_STATES = ("searching", "waiting", "thinking", "streaming")


class ChatMemories:
    """Which memories this chat always sends (pinned, in order) and never sends (excluded)."""

    def __init__(self) -> None:
        self.pinned: list[str] = []
        self.excluded: list[str] = []
        self.titles: dict[str, str] = {}

    def pin(self, memory_id: str, title: str) -> None:
        self.titles[memory_id] = title
        if memory_id not in self.pinned:
            self.pinned.append(memory_id)
        _discard(self.excluded, memory_id)

    def unpin(self, memory_id: str) -> None:
        _discard(self.pinned, memory_id)

    def exclude(self, memory_id: str) -> None:
        if memory_id not in self.excluded:
            self.excluded.append(memory_id)
        _discard(self.pinned, memory_id)

    def include(self, memory_id: str) -> None:
        _discard(self.excluded, memory_id)

    def forget(self, memory_id: str) -> None:
        """The memory is gone (deleted): it can be neither pinned nor excluded any more."""
        _discard(self.pinned, memory_id)
        _discard(self.excluded, memory_id)

    def knows(self, memory_id: str) -> bool:
        return memory_id in self.pinned or memory_id in self.excluded

    def items(self, ids: list[str]) -> list[tuple[str, str]]:
        """``(id, title)`` pairs for chips."""
        return [(memory_id, self.titles.get(memory_id, memory_id)) for memory_id in ids]


def _discard(items: list[str], memory_id: str) -> None:
    if memory_id in items:
        items.remove(memory_id)


@dataclass
class Prepared:
    """What the prompt worker hands back: the prompt, and the titles and topics to show."""

    prompt: InjectedPrompt
    titles: dict[str, str]  # every id the memories panel names (used and dropped)
    topics: list[str]  # topics of the memories used, to pre-fill a draft
    chat: Any = None  # the chat settings the prompt was fitted to (the model's own window)


def prepare(
    engine: Any,
    question: str,
    *,
    pinned: list[str],
    excluded: set[str],
    history: list[Message],
    chat: Any = None,
    mode: str = DEFAULT_MODE,
) -> Prepared:
    """Search and injection: the prompt, plus names for the panel. ``chat`` is fitted to the
    model's own window first (Ollama says it; asked once); None means the engine's settings."""
    if chat is not None:
        chat = fitted_settings(chat)
    prompt = build_prompt_for(
        engine, question, pinned=pinned, excluded=excluded, history=history, chat=chat, mode=mode
    )
    titles = {used.id: used.title for used in prompt.used}
    topics: list[str] = []
    for memory_id in [u.id for u in prompt.used] + prompt.dropped_for_budget:
        try:
            memory = engine.store.get(memory_id)
        except (MemoryNotFound, InvalidIdError):
            continue  # deleted since
        titles.setdefault(memory_id, memory.title)
        if memory_id not in prompt.dropped_for_budget:
            topics += [t for t in memory.topics if t not in topics]
    return Prepared(prompt, titles, topics[:MAX_DRAFT_TOPICS], chat)


@dataclass
class Turn:
    """One question and its answer, from the search to the last token."""

    number: int
    question: str
    message: Any  # the answer's MessageWidget
    cancel: CancelToken = field(default_factory=CancelToken)
    prepared: Prepared | None = None
    text: str = ""
    reasoning: str = ""  # a thinking model's, kept apart from the answer
    # searching, waiting, thinking, streaming, done, stopped, cutoff, failed, unconfigured
    state: str = "searching"

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES


def record_turn(conversation: Conversation, turn: Turn, state: str, error: str = "") -> None:
    """Append the turn's question and answer (how it ended, what it was given)."""
    used = []
    if turn.prepared is not None:
        used = [
            {"id": u.id, "title": u.title, "score": u.score, "reason": u.reason, "part": u.part}
            for u in turn.prepared.prompt.used
        ]
    conversation.messages.append(ChatMessage("user", turn.question))
    answer = ChatMessage("assistant", turn.text, state, error, used, reasoning=turn.reasoning)
    conversation.messages.append(answer)


def empty_answer_text(turn: Turn, reason: str, chat: Any) -> str:
    """Why ``turn``'s answer has no text (its real cause; see providers.thinking)."""
    from pixelmem.core.providers.thinking import empty_answer_message, reasoning_tokens

    return empty_answer_message(
        reason,
        reasoning_tokens(turn.reasoning),
        max_tokens=chat.max_tokens,
        context_window=chat.context_window,
        think=getattr(chat, "think", "off"),
    )


def restored_prompt(message: ChatMessage) -> InjectedPrompt:
    """A saved answer's memories, for its panel (the prompt text itself is not kept)."""
    used = [
        UsedMemory(
            str(u.get("id", "")),
            str(u.get("title", "")),
            u.get("score"),
            u.get("reason", "automatic"),
            u.get("part", "whole"),
        )
        for u in message.used
    ]
    return InjectedPrompt(system="", messages=[], used=used)
