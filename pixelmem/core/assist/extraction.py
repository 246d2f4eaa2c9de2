"""Memories drawn out of a conversation: the chat model proposes, the review inbox holds, the
person decides. Nothing reaches the vault without an accept.

One request per conversation: the transcript, plus the saved memories the conversation's
questions find (so the model can say which one a statement restates or contradicts), and the
instruction to answer with JSON ``{"memories": [{kind, title, text, quote, updates,
contradicts}]}`` — facts, decisions and preferences *the user* stated, each with the exact
words it came from. Ollama is asked for ``format: json`` and other servers for
``response_format: json_object`` (constrained decoding where the server has it).

What is kept, and how it becomes a draft (tested in ``tests/core/assist/test_extraction.py``):

1. An item needs a known kind, a title, a text, and a quote from one of the *user's* messages
   (the words, case and spacing aside; at least 80 % of its words in one message): a
   statement the model made up, or the assistant's own suggestion, is dropped.
2. ``contradicts`` naming a memory shown to the model → a ``supersede`` proposal: the draft is
   the new memory; accepting it marks the old one ``superseded_by``.
3. ``updates`` naming a memory shown, or a memory the item's text finds with relevance at
   least :data:`RESTATES` → an ``update`` proposal: the draft's body is that memory's body
   with the new statement added (nothing new — its text already there — is no proposal).
4. Otherwise a new-memory draft. Every draft cites where it came from: the quote, the
   conversation's title and date in its body, ``conversation: <id>`` in its frontmatter.
5. Two items with the same text (case and spacing aside) make one draft.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pixelmem.core.archive.inbox import Draft, Inbox
from pixelmem.core.archive.proposals import SUPERSEDE, UPDATE, proposal_extra
from pixelmem.core.assist.conversations import Conversation
from pixelmem.core.errors import InvalidIdError, MemoryNotFound, ProviderResponseError
from pixelmem.core.vault.memory import Memory

KINDS = ("fact", "decision", "preference")
RESTATES = 0.85  # relevance at which a statement is taken to restate a saved memory
RELATED_K = 6  # saved memories shown to the model
RELATED_FLOOR = 0.3  # a loose match is still worth showing: the model decides
RELATED_CHARS = 400  # of each one's body
TRANSCRIPT_CHARS = 24_000  # the newest part of a long conversation
QUOTE_WORDS = 0.8

INSTRUCTIONS = """You extract long-term memories from a conversation between a user and an \
assistant. Keep only what the USER stated about themselves, their work or their world that \
is worth remembering later: facts (names, numbers, places, how things are set up), decisions \
(what they chose or will do), preferences (what they like, want or avoid). Skip questions, \
small talk, the assistant's suggestions, and anything uncertain.

Answer with JSON only, in this shape:
{"memories": [{"kind": "fact|decision|preference", "title": "a short title", "text": "one \
self-contained sentence", "quote": "the user's exact words it comes from", "updates": "", \
"contradicts": ""}]}

If a saved memory below says the same thing, put its id in "updates"; if the user now says \
something that contradicts it, put its id in "contradicts". If there is nothing worth \
keeping, answer {"memories": []}."""


@dataclass(frozen=True)
class Extracted:
    """One statement the model proposed."""

    kind: str
    title: str
    text: str
    quote: str
    updates: str = ""
    contradicts: str = ""


@dataclass
class ExtractionReport:
    """What one extraction proposed, and what it set aside (with the reason)."""

    drafts: list[Draft] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    answer: str = ""  # the model's raw answer, for a person who wants to see it


_SPEAKER = re.compile(
    r"^\s*(user|human|me|you|assistant|ai|claude|chatgpt|model|用户|助手)\s*[:：]\s?", re.I
)


def messages_from_text(text: str) -> list[dict[str, str]]:
    """A pasted transcript ("User: …" / "Assistant: …" lines) as messages; text without such
    lines is one message of the user's."""
    messages: list[dict[str, str]] = []
    for line in text.splitlines():
        match = _SPEAKER.match(line)
        if match:
            speaker = match.group(1).lower()
            role = "user" if speaker in ("user", "human", "me", "用户") else "assistant"
            messages.append({"role": role, "content": line[match.end() :]})
        elif messages:
            messages[-1]["content"] += "\n" + line
    if not messages:
        return [{"role": "user", "content": text.strip()}]
    return [{"role": m["role"], "content": m["content"].strip()} for m in messages]


def transcript(messages: Sequence[Any]) -> str:
    """``User: …`` / ``Assistant: …`` lines, the newest :data:`TRANSCRIPT_CHARS` of them."""
    lines = []
    for message in messages:
        role = "User" if _role(message) == "user" else "Assistant"
        text = _content(message).strip()
        if text:
            lines.append(f"{role}: {text}")
    text = "\n\n".join(lines)
    return text[-TRANSCRIPT_CHARS:]


def extraction_messages(conversation_text: str, related: Sequence[Memory]) -> list[dict[str, str]]:
    """The request: the instructions, the saved memories to compare with, the transcript."""
    saved = "\n".join(
        f'- id "{m.id}": {m.title} — {" ".join(m.body.split())[:RELATED_CHARS]}' for m in related
    )
    user = (
        f"Saved memories:\n{saved or '(none)'}\n\nConversation:\n{conversation_text}\n\n"
        "The memories to keep, as JSON:"
    )
    return [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": user}]


def parse_answer(text: str) -> list[Extracted]:
    """The items in a model's answer: JSON, perhaps in a code fence or after some words."""
    data = _first_json(text)
    items = data.get("memories") if isinstance(data, dict) else data
    found = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        values = {k: str(item.get(k) or "").strip() for k in Extracted.__dataclass_fields__}
        values["kind"] = values["kind"].lower()
        found.append(Extracted(**values))
    return found


def _first_json(text: str) -> Any:
    text = re.sub(r"```(?:json)?", "", text)
    decoder = json.JSONDecoder()
    for start, char in enumerate(text):
        if char in "[{":
            try:
                return decoder.raw_decode(text[start:])[0]
            except ValueError:
                continue
    raise ProviderResponseError("the model's answer held no JSON list of memories")


def quoted_in(quote: str, messages: Sequence[Any]) -> bool:
    """Whether ``quote`` is words from one of the user's messages (rule 1)."""
    wanted = _words(quote)
    if not wanted:
        return False
    for message in messages:
        if _role(message) != "user":
            continue
        said = _words(_content(message))
        if " ".join(wanted) in " ".join(said):
            return True
        present = set(said)
        if sum(w in present for w in wanted) >= QUOTE_WORDS * len(wanted):
            return True
    return False


def _words(text: str) -> list[str]:
    return re.findall(r"[\u3400-\u9fff]|\w+", text.casefold())


def related_memories(engine: Any, messages: Sequence[Any]) -> list[Memory]:
    """The saved memories the conversation's own messages find (best first, unique)."""
    floor = min(RELATED_FLOOR, engine.settings.search.min_relevance)
    seen: dict[str, float] = {}
    for message in messages:
        if _role(message) != "user" or not _content(message).strip():
            continue
        for hit in engine.search(_content(message)[:2000], k=3, min_relevance=floor):
            seen[hit.memory_id] = max(seen.get(hit.memory_id, 0.0), hit.score)
    ranked = sorted(seen, key=lambda mid: -seen[mid])[:RELATED_K]
    return [m for m in (_get(engine, mid) for mid in ranked) if m is not None]


def propose_from_messages(
    engine: Any,
    inbox: Inbox,
    chat: Any,
    messages: Sequence[Any],
    *,
    conversation: Conversation | None = None,
    source: str = "chat",
) -> ExtractionReport:
    """:func:`extract` with a client for the chat settings ``chat`` (the model's own window,
    JSON asked for, no thinking: reasoning is never a memory)."""
    from pixelmem.core.providers.chat import create_chat_client
    from pixelmem.core.providers.chat_window import fitted_settings

    fitted = fitted_settings(chat)
    client = create_chat_client(fitted)
    client.json_output, client.think = True, False
    room = fitted.context_window - min(fitted.max_tokens, fitted.context_window // 2)
    try:
        return extract(
            engine, inbox, client, messages, conversation=conversation, source=source,
            max_chars=max(2000, room * 3 - 4000),
        )  # fmt: skip
    finally:
        client.close()


def extract(
    engine: Any,
    inbox: Inbox,
    client: Any,
    messages: Sequence[Any],
    *,
    conversation: Conversation | None = None,
    source: str = "chat",
    max_chars: int = TRANSCRIPT_CHARS,
) -> ExtractionReport:
    """Ask the model (``client``) and put its proposals in the inbox (module docstring)."""
    related = related_memories(engine, messages)
    request = extraction_messages(transcript(messages)[-max_chars:], related)
    answer = "".join(client.stream_chat(request))
    report = ExtractionReport(answer=answer)
    shown = {m.id: m for m in related}
    done: set[str] = set()
    for item in parse_answer(answer):
        problem = _problem(item, messages)
        key = " ".join(_words(item.text))
        if problem or key in done:
            report.dropped.append(f"{item.title or item.text[:40]!r}: {problem or 'a repeat'}")
            continue
        done.add(key)
        draft = _draft(engine, inbox, item, shown, conversation, source)
        if draft is None:
            report.dropped.append(f"{item.title!r}: already in a saved memory")
        else:
            report.drafts.append(draft)
    return report


def _problem(item: Extracted, messages: Sequence[Any]) -> str:
    if item.kind not in KINDS:
        return f"unknown kind {item.kind!r}"
    if not item.title or not item.text:
        return "no title or text"
    if not quoted_in(item.quote, messages):
        return "its quote is not in the conversation"
    return ""


def _draft(
    engine: Any,
    inbox: Inbox,
    item: Extracted,
    shown: dict[str, Memory],
    conversation: Conversation | None,
    source: str,
) -> Draft | None:
    body = cited_body(item, conversation)
    extra: dict[str, Any] = {"kind": item.kind}
    if conversation is not None:
        extra["conversation"] = conversation.id
    old = shown.get(item.contradicts)
    if old is not None:
        extra.update(proposal_extra(SUPERSEDE, old))
        return inbox.add(item.title, body, old.topics, source=source, extra=extra)
    target = shown.get(item.updates) or _restated(engine, item.text)
    if target is None:
        return inbox.add(item.title, body, source=source, extra=extra)
    if " ".join(_words(item.text)) in " ".join(_words(target.body)):
        return None  # nothing new
    new_body = f"{target.body.rstrip()}\n\n{body}\n"
    extra.update(proposal_extra(UPDATE, target))
    return inbox.add(target.title, new_body, target.topics, source=source, extra=extra)


def cited_body(item: Extracted, conversation: Conversation | None) -> str:
    """The statement, its quote, and where it was said."""
    where = "a conversation"
    if conversation is not None:
        where = f"the conversation “{conversation.named()}” ({conversation.created[:10]})"
    return f"{item.text}\n\n> {item.quote}\n\n— from {where}"


def _restated(engine: Any, text: str) -> Memory | None:
    hits = engine.search(text, k=1, min_relevance=RESTATES)
    return _get(engine, hits[0].memory_id) if hits else None


def _get(engine: Any, memory_id: str) -> Memory | None:
    try:
        return engine.store.get(memory_id)
    except (MemoryNotFound, InvalidIdError):
        return None


def _role(message: Any) -> str:
    return str(message.get("role") if isinstance(message, dict) else message.role)


def _content(message: Any) -> str:
    return str(message.get("content") if isinstance(message, dict) else message.content)


__all__ = [
    "INSTRUCTIONS",
    "KINDS",
    "Extracted",
    "ExtractionReport",
    "extract",
    "extraction_messages",
    "messages_from_text",
    "parse_answer",
    "propose_from_messages",
    "quoted_in",
    "related_memories",
    "transcript",
]
