"""How many tokens a prompt takes, and which part of the history fits the model's context.

No tokenizer is at hand for whatever model a server runs, and asking the server (llama.cpp's
``/tokenize``; Ollama and OpenAI have none) would cost a round trip per message, so counts are
estimated on the safe side: a CJK character (kana and hangul too) is one token — real tokenizers
spend 0.6–1.5 — and other text one token per 3 characters (English averages about 4); each
message adds 4 for its framing. Too high an estimate only drops an old turn a little early; too
low a one makes the server refuse the prompt.

The budget: ``context_window`` minus the answer's room (``max_tokens``, at most half the
context) is for the prompt. The system prompt with its memories and the user's message always
go; the memories are cut to half the prompt's room first. Then the newest turns of the history,
oldest dropped first, a kept history never starting with an answer whose question is gone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from pixelmem.core.index.scripts import CJK_WIDE

Message = dict[str, str]

MESSAGE_OVERHEAD = 4  # role and separators, per message
CHARS_PER_TOKEN = 3.0  # non-CJK text; conservative (English is ~4)
_WIDE = re.compile(f"[{CJK_WIDE}]")  # about one token each (scripts.CJK_WIDE_RANGES)


def estimate_tokens(text: str) -> int:
    """A safe over-estimate of ``text``'s tokens (see the module docstring)."""
    wide = len(_WIDE.findall(text))
    return wide + math.ceil((len(text) - wide) / CHARS_PER_TOKEN)


def message_tokens(messages: Sequence[Message]) -> int:
    return sum(MESSAGE_OVERHEAD + estimate_tokens(m.get("content", "")) for m in messages)


def prompt_room(context_window: int, max_tokens: int) -> int:
    """Tokens the prompt may take: the context less the answer's room (at most half of it)."""
    return context_window - min(max_tokens, context_window // 2)


def fit_history(history: Sequence[Message], room: int) -> tuple[list[Message], int]:
    """The newest messages of ``history`` within ``room`` tokens, and how many were left out."""
    kept: list[Message] = []
    used = 0
    for message in reversed(history):
        cost = MESSAGE_OVERHEAD + estimate_tokens(message.get("content", ""))
        if used + cost > room:
            break
        kept.append(message)
        used += cost
    kept.reverse()
    while kept and kept[0].get("role") == "assistant":
        kept.pop(0)  # an answer without its question
    return kept, len(history) - len(kept)


__all__ = ["estimate_tokens", "fit_history", "message_tokens", "prompt_room"]
