"""Drafts that propose a change to an existing memory, and what accepting one does.

A review-inbox draft is a proposal when its frontmatter says so:

- ``proposal: update`` with ``target: <id>``: the draft's body is the target memory's new body
  (the inbox shows the difference). Accepting rewrites the target's body — refused, with the
  reason, when the target changed since the proposal was made (``target_hash``) or is gone.
- ``proposal: supersede`` with ``target: <id>``: the draft is a new memory that contradicts the
  target. Accepting creates it (``supersedes: <old id>``) and marks the old memory
  ``superseded_by: <new id>``; the old one is kept, never deleted.

``conversation``/``kind``/``quote`` (where a proposal came from) stay on the new memory; the
proposal's own keys do not.
"""

from __future__ import annotations

import difflib
from typing import Any

from pixelmem.core.errors import InvalidIdError, MemoryNotFound, PixelmemError
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.store import MemoryStore

PROPOSAL, TARGET, TARGET_HASH = "proposal", "target", "target_hash"
UPDATE, SUPERSEDE = "update", "supersede"
SUPERSEDED_BY, SUPERSEDES = "superseded_by", "supersedes"
PROPOSAL_KEYS = (PROPOSAL, TARGET, TARGET_HASH)


class ProposalStale(PixelmemError):
    """The memory a proposal would change is gone or changed since the proposal was made."""


def is_proposal(draft: Any) -> bool:
    return draft.extra.get(PROPOSAL) in (UPDATE, SUPERSEDE)


def proposal_extra(kind: str, target: Memory) -> dict[str, Any]:
    """The frontmatter keys of a proposal about ``target``."""
    extra: dict[str, Any] = {PROPOSAL: kind, TARGET: target.id}
    if kind == UPDATE and target.disk_hash:
        extra[TARGET_HASH] = target.disk_hash
    return extra


def kept_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """A draft's extra keys that the accepted memory keeps."""
    return {k: v for k, v in extra.items() if k not in PROPOSAL_KEYS}


def target_of(draft: Any, store: MemoryStore) -> Memory:
    """The memory a proposal is about; :class:`ProposalStale` if it is gone."""
    target_id = str(draft.extra.get(TARGET) or "")
    try:
        return store.get(target_id)
    except (MemoryNotFound, InvalidIdError):
        raise ProposalStale(
            f"the memory {target_id!r} this draft would change no longer exists; reject the "
            "draft, or remove its 'proposal' line to keep it as a new memory"
        ) from None


def apply_proposal(draft: Any, store: MemoryStore) -> tuple[Memory, list[tuple[str, str]]]:
    """Accept a proposal (module docstring): the memory to show, and the ``(action, id)``s."""
    target = target_of(draft, store)
    if draft.extra[PROPOSAL] == UPDATE:
        wanted = draft.extra.get(TARGET_HASH)
        if wanted and target.disk_hash and wanted != target.disk_hash:
            raise ProposalStale(
                f"'{target.title}' changed since this update was proposed; open it, merge by "
                "hand, and reject the draft"
            )
        target.body = draft.body
        saved = store.update(target)
        return saved, [("updated", saved.id)]
    extra = dict(kept_extra(draft.extra), **{SUPERSEDES: target.id})
    created = store.create(
        draft.title,
        draft.body,
        topics=list(draft.topics),
        importance=draft.importance,
        source=draft.source,
        extra=extra,
    )
    target.extra[SUPERSEDED_BY] = created.id
    store.update(target)
    return created, [("created", created.id), ("updated", target.id)]


def describe(draft: Any, store: MemoryStore) -> tuple[str, Memory | None]:
    """("update" | "supersede" | "", the target memory or None if it is gone)."""
    if not is_proposal(draft):
        return "", None
    try:
        return str(draft.extra[PROPOSAL]), target_of(draft, store)
    except ProposalStale:
        return str(draft.extra[PROPOSAL]), None


def body_diff(old: str, new: str) -> list[tuple[str, str]]:
    """The lines of an update, each ``(" ", line)`` kept, ``("+", line)`` added or
    ``("-", line)`` removed (with a few lines of context around each change)."""
    lines = []
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=2)
    for line in diff:
        if line.startswith(("---", "+++", "@@")):
            continue
        lines.append((line[:1] or " ", line[1:]))
    return lines


__all__ = [
    "PROPOSAL_KEYS",
    "SUPERSEDE",
    "SUPERSEDED_BY",
    "UPDATE",
    "ProposalStale",
    "apply_proposal",
    "body_diff",
    "describe",
    "is_proposal",
    "kept_extra",
    "proposal_extra",
    "target_of",
]
