"""A deterministic stand-in for a chat model asked to extract memories (the plumbing's tests
and ``benchmarks/eval_extraction.py``): simple cue words, no understanding.

It reads the request pixelmem sends (saved memories with ids, then the transcript), and for
each sentence of a user line with a cue ("I prefer", "we decided", "my … is", "我喜欢",
"我们决定", …) proposes an item quoting that sentence. A sentence sharing two or more words
with a saved memory names it in ``updates``, or in ``contradicts`` when it also says a change
("no longer", "instead", "switch", "不再", "改"). To exercise the guards it also proposes one
made-up item and one of the assistant's suggestions per conversation.
"""

from __future__ import annotations

import json
import re
from typing import Any

CUES = {
    "preference": (r"\bi (?:prefer|like|love|hate|don't like|never)\b", r"我(?:更)?喜欢|我不喜欢"),
    "decision": (r"\b(?:we|i) decided\b|\bwe chose\b", r"我们决定|我决定"),
    "fact": (
        r"\bmy \w+(?: \w+)? (?:is|are)\b|\bi (?:work|live|run|am|use)\b|\bour \w+ (?:run|is|are)\b",
        r"我的.{1,8}是|我住在|我女儿|我儿子",
    ),
}
CHANGE = re.compile(r"no longer|instead|switch|now|不再|改")
WORD = re.compile(r"[\u3400-\u9fff]{2}|[a-z0-9]+(?:\.[0-9]+)?")
STOP = {"the", "a", "an", "i", "my", "is", "to", "of", "and", "in", "we", "our", "on", "for"}


def rule_model_reply(body: dict[str, Any]) -> str:
    """The JSON answer for one extraction request."""
    prompt = str((body.get("messages") or [{}])[-1].get("content", ""))
    saved_part, _, talk = prompt.partition("\nConversation:\n")
    saved = re.findall(r'- id "([^"]+)": (.*)', saved_part)
    items = []
    for line in talk.split("\n\n"):
        if not line.startswith("User: "):
            continue
        for sentence in re.split(r"(?<=[.!?。！？])\s*", line.removeprefix("User: ")):
            item = _item(sentence.strip(), saved)
            if item:
                items.append(item)
    items.append(_made_up())
    assistant = next((s for s in talk.split("\n\n") if s.startswith("Assistant: ")), "")
    if assistant:
        quote = assistant.removeprefix("Assistant: ")[:60]
        items.append({"kind": "fact", "title": "Suggestion", "text": quote, "quote": quote})
    return json.dumps({"memories": items}, ensure_ascii=False)


def _item(sentence: str, saved: list[tuple[str, str]]) -> dict[str, str] | None:
    if not sentence or sentence.endswith(("?", "？")):
        return None
    kind = next(
        (
            k
            for k, (en, zh) in CUES.items()
            if re.search(en, sentence, re.I) or re.search(zh, sentence)
        ),
        None,
    )
    if kind is None:
        return None
    item = {"kind": kind, "title": " ".join(sentence.split()[:6])[:60], "text": sentence,
            "quote": sentence, "updates": "", "contradicts": ""}  # fmt: skip
    words = _words(sentence)
    for memory_id, text in saved:
        if len(words & _words(text)) >= 2:
            item["contradicts" if CHANGE.search(sentence.lower()) else "updates"] = memory_id
            break
    return item


def _cued(sentence: str, english: str, chinese: str) -> bool:
    return bool(re.search(english, sentence, re.I) or re.search(chinese, sentence))


def _words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if w not in STOP}


def _made_up() -> dict[str, str]:
    text = "The user owns a yacht called Seabird."
    return {"kind": "fact", "title": "Yacht", "text": text, "quote": "I own a yacht called Seabird"}


__all__ = ["rule_model_reply"]
