"""Merging near-duplicates into one memory: nothing written by the person is lost.

The kept memory gets the union of the topics (its own first), the higher importance, and the
other memories' bodies after its own, each under a line naming where it came from
(:func:`merged`). :func:`merge_memories` writes that, points every ``[[link]]`` that led to
one of the others at the kept memory (:func:`~pixelmem.core.vault.links.plan_retarget`) and
moves the others to the trash (from where they can be restored): one change set.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from pixelmem.core.vault.links import plan_retarget
from pixelmem.core.vault.memory import IMPORTANCE_LEVELS, Memory
from pixelmem.core.writes import (
    ChangeSet,
    LinkUpdateResult,
    MemoryWrites,
    TrashRecord,
    Written,
)


@dataclass(frozen=True)
class MergeResult:
    kept: Memory  # as saved with the others' text, before any of its own links were rewritten
    trashed: tuple[TrashRecord, ...]
    links: LinkUpdateResult  # the memories whose links now lead to the kept one


def merge_memories(
    writes: MemoryWrites, keep_id: str, other_ids: Sequence[str]
) -> Written[MergeResult]:
    """Merge ``other_ids`` into ``keep_id`` (see the module's rules).

    The kept memory is saved first: if its file changed since it was read, ``ConflictError``
    stops the merge before anything else is written; so does a read-only one among them
    (``NoteNotWritable``). A memory whose links are to be rewritten
    but that changed meanwhile is left alone and named in ``links.failed``.
    """
    store = writes.store
    keep = store.get(keep_id)
    others = [store.get(i) for i in dict.fromkeys(other_ids) if i != keep_id]
    for memory in (keep, *others):  # before anything is written: no half-done merge
        store.check_writable(memory.id, "merged")
    saved = writes.update(merged(keep, others))
    kept = saved.value
    plan = plan_retarget(store.list(), store.root, {other.id: kept for other in others})
    linked = writes.apply_link_updates(plan)
    trashed = [writes.delete(other.id) for other in others]
    changes = ChangeSet.from_pairs(
        [
            *saved.changes.pairs(),
            *linked.changes.pairs(),
            *(pair for t in trashed for pair in t.changes.pairs()),
        ]
    )
    result = MergeResult(kept, tuple(t.value for t in trashed), linked.value)
    return Written(result, changes)


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
