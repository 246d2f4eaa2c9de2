"""Near-duplicates: memories that say the same thing, from their vectors and their words.

A pair is a near-duplicate when the mean of two similarities reaches the model's threshold:

* the cosine of their document vectors (what they are about), and
* the tf-idf cosine of their keyword tokens (:class:`WordWeights`): rare words — names,
  numbers, places, codes — are what tell two meeting notes apart, and a rewording keeps them.

Only pairs whose cosine reaches the rule's ``candidate`` level are compared word by word, so
the cost is one blocked matrix product plus a few word comparisons. A group is a connected set
of near-duplicate pairs; exact copies always qualify.

The numbers were chosen with ``benchmarks/bench_duplicates.py`` on generated vaults with
planted paraphrases (phrases swapped for synonyms, sentences reordered, one added or dropped,
the title reworded) and exact copies among distinct notes on the same subjects. all-MiniLM-L6:
precision 0.95 / recall 0.91 on 600 notes, 0.97 / 0.92 on 1000 (vectors alone at best 0.94 /
0.88). e5 puts unrelated text at cosine 0.7–0.8, so it has its own, stricter rule; on a vault
with 30 % Chinese notes it reaches precision 0.97 / recall 0.81 (600 notes) and 0.93 / 0.82
(1000): its quantised Chinese paraphrases drift further than MiniLM's English ones. Any other
model gets that strict rule too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pixelmem.core.index.text_tokens import STEM_MARK, tokenize
from pixelmem.core.insight.memory_vectors import MemoryVectors

_BLOCK = 2048


@dataclass(frozen=True)
class DuplicateRule:
    candidate: float  # cosine a pair needs before its words are compared
    threshold: float  # (cosine + word similarity) / 2 a near-duplicate reaches


RULES = {
    "all-minilm-l6": DuplicateRule(candidate=0.75, threshold=0.78),
    "e5-small": DuplicateRule(candidate=0.88, threshold=0.85),
    "default": DuplicateRule(candidate=0.88, threshold=0.85),
}


def rule_for(model_id: str) -> DuplicateRule:
    """The near-duplicate rule of the model family ``model_id`` belongs to."""
    key = model_id.casefold()
    family = next((f for f in RULES if f != "default" and f in key), "default")
    return RULES[family]


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that say the same thing; ``score`` is the closest pair's."""

    ids: tuple[str, ...]
    score: float


class WordWeights:
    """tf-idf weighted keyword tokens of a list of texts, to compare any two of them."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._bags = [Counter(t for t in tokenize(text) if t[0] != STEM_MARK) for text in texts]
        df: Counter[str] = Counter()
        for bag in self._bags:
            df.update(bag.keys())
        n = len(texts)
        self._idf = {t: math.log((n + 1) / (d + 0.5)) for t, d in df.items()}
        self._norms = [self._norm(bag) for bag in self._bags]

    def _norm(self, bag: Counter[str]) -> float:
        return math.sqrt(sum((c * self._idf[t]) ** 2 for t, c in bag.items())) or 1.0

    def similarity(self, i: int, j: int) -> float:
        a, b = self._bags[i], self._bags[j]
        if len(a) > len(b):
            a, b = b, a
        dot = sum(c * b[t] * self._idf[t] ** 2 for t, c in a.items() if t in b)
        return dot / (self._norms[i] * self._norms[j])


def candidate_pairs(vectors: MemoryVectors, cosine: float) -> list[tuple[int, int, float]]:
    """Every pair of rows ``(i, j, cosine)`` with ``i < j`` and at least that cosine."""
    v = vectors.vectors
    pairs: list[tuple[int, int, float]] = []
    for start in range(0, len(v), _BLOCK):
        scores = v[start : start + _BLOCK] @ v.T
        rows, cols = np.divmod(np.flatnonzero(scores >= cosine), len(v))
        keep = cols > rows + start
        for r, c in zip(rows[keep].tolist(), cols[keep].tolist(), strict=True):
            pairs.append((r + start, c, float(scores[r, c])))
    return pairs


def duplicate_pairs(
    vectors: MemoryVectors, texts: Sequence[str], rule: DuplicateRule
) -> list[tuple[int, int, float]]:
    """Near-duplicate pairs ``(i, j, score)``, ``i < j``; ``texts[i]`` belongs to row ``i``."""
    pairs = candidate_pairs(vectors, rule.candidate)
    if not pairs:
        return []
    words = WordWeights(texts)
    scored = [(i, j, (cos + words.similarity(i, j)) / 2) for i, j, cos in pairs]
    return [(i, j, s) for i, j, s in scored if s >= rule.threshold]


def duplicate_groups(
    vectors: MemoryVectors, texts: Sequence[str], rule: DuplicateRule
) -> list[DuplicateGroup]:
    """Connected groups of near-duplicate memories, closest first."""
    pairs = duplicate_pairs(vectors, texts, rule)
    parent = list(range(len(vectors)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j, _ in pairs:
        parent[root(i)] = root(j)
    best: dict[int, float] = {}
    for i, _, score in pairs:
        best[root(i)] = max(best.get(root(i), 0.0), score)
    members: dict[int, list[int]] = {r: [] for r in best}
    for i in range(len(vectors)):
        if root(i) in members:
            members[root(i)].append(i)
    groups = [
        DuplicateGroup(tuple(vectors.ids[i] for i in rows), round(best[r], 4))
        for r, rows in members.items()
    ]
    groups.sort(key=lambda g: (-g.score, g.ids))
    return groups


def duplicates_of(
    memory_id: str,
    vectors: MemoryVectors,
    texts: Sequence[str],
    rule: DuplicateRule,
    *,
    limit: int = 5,
) -> list[tuple[str, float]]:
    """The near-duplicates of one memory: ``(id, score)``, closest first."""
    me = vectors.row_of().get(memory_id)
    if me is None:
        return []
    cosines = vectors.vectors @ vectors.vectors[me]
    cosines[me] = -1.0
    rows = np.flatnonzero(cosines >= rule.candidate).tolist()
    if not rows:
        return []
    words = WordWeights(texts)
    scored = [(vectors.ids[i], (float(cosines[i]) + words.similarity(me, i)) / 2) for i in rows]
    found = [(mid, s) for mid, s in scored if s >= rule.threshold]
    found.sort(key=lambda ms: (-ms[1], ms[0]))
    return found[:limit]
