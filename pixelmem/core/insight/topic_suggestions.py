"""Topic suggestions for a memory: the topics of its nearest memories, weighted by nearness.

Each of the ``k`` nearest memories (by document vector, copies included) votes for its topics
with its nearness; topics the memory already has are left out. Nearness is the cosine measured
against this vault's typical cosine (the median over all memories, as the Related panel does;
the least similar note in a vault of fewer than SMALL_VAULT): models place unrelated text at
very different cosines (MiniLM near 0.1, e5 near 0.8), so a raw cosine threshold would let
every note of an e5 vault vote. A topic needs votes from at least two neighbours (one in a
vault of up to SMALL_VAULT memories), so one stray neighbour does not suggest its private
topic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from pixelmem.core.insight.memory_vectors import MemoryVectors

NEIGHBOURS = 10
MIN_NEARNESS = 0.3  # (cosine − vault median) / (1 − vault median)
SMALL_VAULT = 20  # memories; below this one neighbour's topic is worth suggesting


def suggest_topics(
    vector: np.ndarray,
    vectors: MemoryVectors,
    topics: Mapping[str, Sequence[str]],
    *,
    exclude_id: str | None = None,
    current: Sequence[str] = (),
    limit: int = 5,
    min_voters: int | None = None,
) -> list[str]:
    """Up to ``limit`` topics for a memory with document vector ``vector``, best first."""
    if not len(vectors):
        return []
    cosines = vectors.vectors @ np.asarray(vector, np.float32)
    order = np.argsort(-cosines, kind="stable")[: NEIGHBOURS + 1]  # best first, ties by row
    # A vault of a few notes has no "typical" note: its least similar one stands in.
    typical = float(np.median(cosines) if len(vectors) >= SMALL_VAULT else cosines.min())
    typical = min(typical, 0.99)
    have = {t.casefold() for t in current}
    votes: dict[str, float] = {}
    voters: dict[str, int] = {}
    shown: dict[str, str] = {}
    for i, s in zip(order.tolist(), cosines[order].tolist(), strict=True):
        mid = vectors.ids[i]
        s = (s - typical) / (1.0 - typical)
        if mid == exclude_id or s < MIN_NEARNESS:
            continue
        for topic in dict.fromkeys(topics.get(mid, ())):
            key = topic.casefold()
            if key in have:
                continue
            votes[key] = votes.get(key, 0.0) + s
            voters[key] = voters.get(key, 0) + 1
            shown.setdefault(key, topic)
    least = min_voters if min_voters is not None else (2 if len(vectors) > SMALL_VAULT else 1)
    ranked = sorted((k for k in votes if voters[k] >= least), key=lambda k: (-votes[k], k))
    return [shown[k] for k in ranked[:limit]]


def suggest_for_memory(
    memory_id: str,
    vectors: MemoryVectors,
    topics: Mapping[str, Sequence[str]],
    limit: int = 5,
    min_voters: int | None = None,
) -> list[str]:
    """Suggestions for a memory that is in ``vectors`` (empty if it is not)."""
    row = vectors.row_of().get(memory_id)
    if row is None:
        return []
    return suggest_topics(
        vectors.vectors[row],
        vectors,
        topics,
        exclude_id=memory_id,
        current=topics.get(memory_id, ()),
        limit=limit,
        min_voters=min_voters,
    )
