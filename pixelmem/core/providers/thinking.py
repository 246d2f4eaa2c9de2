"""Thinking models: their reasoning kept apart from the answer, and an empty answer explained.

Where reasoning arrives (each protocol as its servers document it):

- Ollama ``/api/chat``: ``message.thinking`` beside ``message.content``; the request's ``think``
  field turns it on or off (``false`` asks the model not to think; a model that cannot think
  refuses ``true`` with a 400 "does not support thinking").
- OpenAI-compatible servers: ``delta.reasoning_content`` (llama.cpp, DeepSeek, vLLM) or
  ``delta.reasoning`` (OpenRouter, LM Studio, newer vLLM); llama.cpp and vLLM read
  ``chat_template_kwargs.enable_thinking`` for templates that can switch it (Qwen3).
- A server that passes the model's raw text on: a leading ``<think>…</think>`` in the content
  (:class:`ThinkTagSplitter` moves it to the reasoning).

The rules: reasoning is shown (collapsed) only, never saved into a memory nor sent back to the
model as history; its tokens count against ``chat.max_tokens`` as the server counts them; an
answer with no text says why (:func:`empty_answer_message`), never just "no answer".
"""

from __future__ import annotations

import math

LENGTH = "length"
OPEN_TAG, CLOSE_TAG = "<think>", "</think>"


def reasoning_tokens(text: str) -> int:
    """About how many tokens ``text`` took (4 characters a token; a CJK character one)."""
    wide = sum(1 for ch in text if "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af")
    return wide + math.ceil((len(text) - wide) / 4)


class ThinkTagSplitter:
    """Splits streamed content into (reasoning, answer) when it opens with ``<think>``.

    Only a block at the very start counts (after whitespace): a ``<think>`` later in an answer
    is text the model wrote about tags. Pieces may cut a tag anywhere.
    """

    def __init__(self) -> None:
        self._state = "start"  # start → thinking → after → answer
        self._held = ""

    def feed(self, piece: str) -> tuple[str, str]:
        """The reasoning and the answer text in ``piece`` (either may be empty)."""
        if self._state == "answer":
            return "", piece
        if self._state == "after":  # the blank lines between the reasoning and the answer
            piece = piece.lstrip()
            if piece:
                self._state = "answer"
            return "", piece
        self._held += piece
        if self._state == "start":
            stripped = self._held.lstrip()
            if not stripped or (OPEN_TAG.startswith(stripped) and stripped != OPEN_TAG):
                return "", ""  # maybe the start of a tag: wait for more
            if not stripped.startswith(OPEN_TAG):
                self._state, text, self._held = "answer", self._held, ""
                return "", text
            self._state, self._held = "thinking", stripped[len(OPEN_TAG) :]
        end = self._held.find(CLOSE_TAG)
        if end >= 0:
            reasoning, answer = self._held[:end], self._held[end + len(CLOSE_TAG) :].lstrip()
            self._state, self._held = ("answer" if answer else "after"), ""
            return reasoning, answer
        keep = _partial_tail(self._held, CLOSE_TAG)
        reasoning, self._held = (
            self._held[: len(self._held) - keep],
            self._held[-keep:] if keep else "",
        )
        return reasoning, ""

    def flush(self) -> tuple[str, str]:
        """What is still held when the stream ends."""
        held, self._held = self._held, ""
        if self._state == "thinking":
            return held, ""
        return "", held


def _partial_tail(text: str, tag: str) -> int:
    """How many last characters of ``text`` could begin ``tag``."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


def empty_answer_message(
    finish_reason: str, reasoning_tokens: int, *, max_tokens: int, context_window: int, think: str
) -> str:
    """Why an answer came with no text, and what to change — by its real cause."""
    if reasoning_tokens and finish_reason == LENGTH:
        if think == "on":
            return (
                f"The model spent the whole answer budget thinking (about {reasoning_tokens:,} "
                f"tokens; chat.max_tokens = {max_tokens:,}) and wrote no answer. Raise "
                "chat.max_tokens, or set chat.think off."
            )
        return (
            f"The model thought anyway (about {reasoning_tokens:,} tokens; the server did not "
            "honour chat.think off) and used up chat.max_tokens "
            f"({max_tokens:,}) before answering. Raise chat.max_tokens."
        )
    if reasoning_tokens:
        return (
            "The model reasoned but wrote no answer (it stopped after thinking). Ask again, "
            "or try another model."
        )
    if finish_reason == LENGTH:
        return (
            "The model stopped before writing anything: the prompt fills its context window "
            f"(chat.context_window = {context_window:,}). Start a new chat, or set "
            "chat.context_window to the model's context size."
        )
    return "The model sent an empty answer (it stopped at once). Ask again, or try another model."


__all__ = ["ThinkTagSplitter", "empty_answer_message", "reasoning_tokens"]
