"""Near-duplicates: memories whose document vectors are almost the same.

Two memories are near-duplicates when the cosine of their document vectors (the normalised
mean of their chunk vectors) reaches the model family's threshold; a group is a connected
set of such pairs. Exact copies (cosine 1) are always included.

The thresholds were chosen with ``benchmarks/bench_duplicates.py`` on a generated vault with
planted paraphrases (words swapped for synonyms, sentences reordered, a sentence added or
dropped) and exact copies among distinct notes on shared subjects; see that file for the
precision and recall at each threshold. Models spread cosines differently (e5 puts unrelated
text at 0.7–0.8), so each built-in model has its own; any other model gets the strictest.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pixelmem.core.memory_vectors import MemoryVectors

THRESHOLDS = {
    "all-minilm-l6": 0.86,
    "e5-small": 0.95,
    "default": 0.95,
}
_BLOCK = 2048


def threshold_for(model_id: str) -> float:
    """The near-duplicate cosine threshold for the model family ``model_id`` belongs to."""
    key = model_id.casefold()
    family = next((f for f in THRESHOLDS if f != "default" and f in key), "default")
    return THRESHOLDS[family]


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that say the same thing; ``similarity`` is the closest pair's cosine."""

    ids: tuple[str, ...]
    similarity: float


def duplicate_pairs(vectors: MemoryVectors, threshold: float) -> list[tuple[int, int, float]]:
    """Every pair of rows ``(i, j, cosine)`` with ``i < j`` and ``cosine >= threshold``."""
    v = vectors.vectors
    pairs: list[tuple[int, int, float]] = []
    for start in range(0, len(v), _BLOCK):
        scores = v[start : start + _BLOCK] @ v.T
        rows, cols = np.nonzero(scores >= threshold)
        keep = cols > rows + start
        for r, c in zip(rows[keep].tolist(), cols[keep].tolist(), strict=True):
            pairs.append((r + start, c, float(scores[r, c])))
    return pairs


def duplicate_groups(vectors: MemoryVectors, threshold: float) -> list[DuplicateGroup]:
    """Connected groups of near-duplicate memories, closest first."""
    pairs = duplicate_pairs(vectors, threshold)
    parent = list(range(len(vectors)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    best: dict[int, float] = {}
    for i, j, _ in pairs:
        parent[root(i)] = root(j)
    for i, _, sim in pairs:
        r = root(i)
        best[r] = max(best.get(r, 0.0), sim)
    members: dict[int, list[int]] = {}
    for i, _, _ in pairs:
        members.setdefault(root(i), [])
    for i in range(len(vectors)):
        if root(i) in members:
            members[root(i)].append(i)
    groups = [
        DuplicateGroup(tuple(vectors.ids[i] for i in rows), round(best[r], 4))
        for r, rows in members.items()
    ]
    groups.sort(key=lambda g: (-g.similarity, g.ids))
    return groups


def duplicates_of(
    memory_id: str, vectors: MemoryVectors, threshold: float, *, limit: int = 5
) -> list[tuple[str, float]]:
    """The memories within ``threshold`` of one memory: ``(id, cosine)``, closest first."""
    rows = vectors.row_of()
    me = rows.get(memory_id)
    if me is None:
        return []
    scores = vectors.vectors @ vectors.vectors[me]
    scores[me] = -1.0
    found = np.flatnonzero(scores >= threshold)
    found = found[np.lexsort((found, -scores[found]))][:limit]
    return [(vectors.ids[i], float(scores[i])) for i in found]
