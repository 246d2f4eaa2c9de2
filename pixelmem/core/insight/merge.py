"""Merging near-duplicates into one memory: nothing written by the person is lost.

The kept memory gets the union of the topics (its own first), the higher importance, and the
other memories' bodies after its own, each under a line naming where it came from. The caller
saves it and moves the others to the trash (from where they can be restored).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory


def merged(keep: Memory, others: Sequence[Memory]) -> Memory:
    """A copy of ``keep`` holding everything ``others`` say that it does not already."""
    result = copy.deepcopy(keep)
    seen = {t.casefold() for t in result.topics}
    for other in others:
        for topic in other.topics:
            if topic.casefold() not in seen:
                seen.add(topic.casefold())
                result.topics.append(topic)
        if _rank(other.importance) > _rank(result.importance):
            result.importance = other.importance
        body = other.body.strip()
        if body and body not in result.body:
            result.body = (
                f"{result.body.rstrip()}\n\n---\n\n*Merged from «{other.title}»*\n\n{body}\n"
            )
    return result


def _rank(importance: str) -> int:
    return IMPORTANCE_LEVELS.index(importance) if importance in IMPORTANCE_LEVELS else -1
