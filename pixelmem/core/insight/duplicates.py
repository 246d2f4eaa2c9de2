"""Near-duplicates: memories that say the same thing, from their vectors and their words.

A pair is a near-duplicate when the mean of two similarities reaches :data:`RULE`'s threshold:

* its *nearness*: the cosine of the two document vectors measured against this vault's
  typical cosine, ``(cos − typical) / (1 − typical)`` (:func:`typical_cosine`). Models place
  unrelated text at very different cosines (all-MiniLM near 0.1, multilingual-e5 near 0.8),
  so a raw cosine needs one threshold per model; the nearness needs one for all.
* the similarity of their words (:class:`WordWeights`): the idf-weighted cosine of the *sets*
  of keyword tokens (English words, CJK characters and character pairs). Rare words — names,
  numbers, places, codes — tell two meeting notes apart, and a rewording keeps them. Presence,
  not counts: a phrase repeated in a note and reworded in its copy would otherwise outweigh
  everything the two share (Chinese paraphrases fell to word similarity 0.47 that way).

* the agreement of their *facts* (:func:`facts`): the numbers (dates, times, amounts, in
  digits or Chinese numerals, a pm hour as on a 24-hour clock) and codes (``TP1351``,
  ``sunflower42``) each states. A rewording keeps them: "March 3rd at 9 am" and "3 March, 9 in
  the morning", "六月十八日上午八点" and "6月18日早上8点". Where both notes state facts, the
  better of words and facts counts, and two notes whose facts share nothing are not
  duplicates, however alike their words (two dentist appointments on different days).

Only pairs whose nearness reaches the rule's ``candidate`` level are compared word by word, so
the cost is one blocked matrix product plus a few word comparisons. A group is a connected set
of near-duplicate pairs; exact copies always qualify.

The rule was chosen with ``benchmarks/bench_duplicates.py`` on generated vaults with planted
paraphrases (phrases swapped for synonyms, sentences reordered, one added or dropped, the
title reworded) and exact copies among distinct notes on the same subjects: on 600 notes
(seed 0; e5 with 30 % Chinese notes, MiniLM English) both models keep precision and recall
≥ 0.9 for thresholds 0.72–0.78; :data:`RULE` takes the middle. Held out (1000 notes, seed 7,
e5 with half the notes Chinese, fewer duplicates) it gives the figures in the README.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pixelmem.core.index.text_tokens import STEM_MARK, tokenize
from pixelmem.core.insight.memory_vectors import MemoryVectors

_BLOCK = 2048
SMALL_VAULT = 20  # memories; below this the least similar pair stands in for the typical one
_ALL_PAIRS = 500  # memories; above this a sample of pairs estimates the typical cosine
_SAMPLE_PAIRS = 20_000
_MAX_TYPICAL = 0.95  # a vault of near-copies still leaves room between typical and identical


@dataclass(frozen=True)
class DuplicateRule:
    candidate: float  # nearness a pair needs before its words are compared
    threshold: float  # (nearness + word similarity) / 2 a near-duplicate reaches


RULE = DuplicateRule(candidate=0.7, threshold=0.75)


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that say the same thing; ``score`` is the closest pair's."""

    ids: tuple[str, ...]
    score: float


_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
               "七": 7, "八": 8, "九": 9}  # fmt: skip
_CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_CN_NUMBER = re.compile(f"[{''.join(_CN_DIGITS)}{''.join(_CN_UNITS)}]+")
_AFTERNOON = re.compile(
    r"(?:下午|晚上|傍晚)\s*(\d{1,2})\s*[点:：]|(\d{1,2})(?:[:.]\d{2})?\s*(?:pm|p\.m\.)",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d+")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)\b")
_CODE = re.compile(r"\b(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{3,}\b")


def _chinese_number(run: str) -> str:
    """``三千二百`` → ``3200``, ``十八`` → ``18``, ``二十`` → ``20``, ``一二`` → ``12``."""
    if not any(c in _CN_UNITS for c in run):
        return "".join(str(_CN_DIGITS[c]) for c in run)
    total = section = digit = 0
    for c in run:
        if c in _CN_DIGITS:
            digit = _CN_DIGITS[c]
        elif c == "万":
            total += (section + digit) * 10000
            section = digit = 0
        else:
            section += (digit or 1) * _CN_UNITS[c]
            digit = 0
    return str(total + section + digit)


def facts(text: str) -> frozenset[str]:
    """The numbers and codes a note states, normalised (see the module docstring)."""
    low = _CN_NUMBER.sub(lambda m: f" {_chinese_number(m.group())} ", text.lower())
    low = _ORDINAL.sub(r"\1", low)
    low = _AFTERNOON.sub(
        lambda m: f" {int(m.group(1) or m.group(2)) % 12 + 12} ", low
    )  # 7 pm, 下午两点 → 19, 14
    numbers = {str(int(n)) for n in _NUMBER.findall(low)} - {"0"}
    return frozenset(numbers | set(_CODE.findall(low)))


def fact_agreement(a: frozenset[str], b: frozenset[str]) -> float | None:
    """How far two notes' facts agree, 0–1 (shared over all); 0 when both state facts and
    share none; None when either states none, or when all they share is one small number (a
    "2" in each is chance: it takes a shared code, a number of three digits or more, or two
    shared numbers to count)."""
    if not a or not b:
        return None
    shared = a & b
    if not shared:
        return 0.0  # both state facts, none the same: not the same note
    telling = len(shared) >= 2 or any(len(f) >= 3 or not f.isdigit() for f in shared)
    return len(shared) / len(a | b) if telling else None


class WordWeights:
    """idf-weighted sets of keyword tokens of a list of texts, to compare any two of them."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._sets = [{t for t in tokenize(text) if t[0] != STEM_MARK} for text in texts]
        df: Counter[str] = Counter()
        for tokens in self._sets:
            df.update(tokens)
        n = len(texts)
        self._idf = {t: math.log((n + 1) / (d + 0.5)) for t, d in df.items()}
        self._norms = [self._norm(tokens) for tokens in self._sets]
        self._facts = [facts(text) for text in texts]

    def _norm(self, tokens: set[str]) -> float:
        return math.sqrt(sum(self._idf[t] ** 2 for t in tokens)) or 1.0

    def similarity(self, i: int, j: int) -> float:
        """The idf-weighted overlap of the two notes' words, or their facts' agreement when
        that is higher; 0 when both state facts and share none (different appointments)."""
        shared = self._sets[i] & self._sets[j]
        words = sum(self._idf[t] ** 2 for t in shared) / (self._norms[i] * self._norms[j])
        agreement = fact_agreement(self._facts[i], self._facts[j])
        if agreement is None:
            return words
        return 0.0 if agreement == 0.0 else max(words, agreement)


def typical_cosine(vectors: MemoryVectors) -> float:
    """The median cosine between two memories of this vault (a deterministic estimate).

    Every pair up to ``_ALL_PAIRS`` memories, else ``_SAMPLE_PAIRS`` random pairs (the
    median's error is then about 0.001). A vault of fewer than ``SMALL_VAULT`` memories has no
    typical pair, so its least similar pair stands in.
    """
    v, n = vectors.vectors, len(vectors)
    if n < 2:
        return 0.0
    if n <= _ALL_PAIRS:
        first, second = np.triu_indices(n, 1)
    else:
        rng = np.random.default_rng(0)
        first = rng.integers(0, n, _SAMPLE_PAIRS)
        second = (first + rng.integers(1, n, _SAMPLE_PAIRS)) % n  # never the same row
    values = np.concatenate(
        [
            np.einsum("ij,ij->i", v[first[i : i + _BLOCK]], v[second[i : i + _BLOCK]])
            for i in range(0, len(first), _BLOCK)
        ]
    )
    typical = float(np.median(values) if n >= SMALL_VAULT else values.min())
    return min(typical, _MAX_TYPICAL)


@dataclass(frozen=True)
class Nearness:
    """``(cos − typical) / (1 − typical)`` and back, for one vault."""

    typical: float

    def of(self, cosine: float) -> float:
        return (cosine - self.typical) / (1.0 - self.typical)

    def cosine(self, nearness: float) -> float:
        return self.typical + nearness * (1.0 - self.typical)


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
    vectors: MemoryVectors, texts: Sequence[str], rule: DuplicateRule = RULE
) -> list[tuple[int, int, float]]:
    """Near-duplicate pairs ``(i, j, score)``, ``i < j``; ``texts[i]`` belongs to row ``i``."""
    near = Nearness(typical_cosine(vectors))
    pairs = candidate_pairs(vectors, near.cosine(rule.candidate))
    if not pairs:
        return []
    words = WordWeights(texts)
    scored = [(i, j, (near.of(cos) + words.similarity(i, j)) / 2) for i, j, cos in pairs]
    return [(i, j, s) for i, j, s in scored if s >= rule.threshold]


def duplicate_groups(
    vectors: MemoryVectors, texts: Sequence[str], rule: DuplicateRule = RULE
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
    rule: DuplicateRule = RULE,
    *,
    limit: int = 5,
) -> list[tuple[str, float]]:
    """The near-duplicates of one memory: ``(id, score)``, closest first."""
    me = vectors.row_of().get(memory_id)
    if me is None:
        return []
    near = Nearness(typical_cosine(vectors))
    cosines = vectors.vectors @ vectors.vectors[me]
    cosines[me] = -np.inf
    rows = np.flatnonzero(cosines >= near.cosine(rule.candidate)).tolist()
    if not rows:
        return []
    words = WordWeights(texts)
    scored = [
        (vectors.ids[i], (near.of(float(cosines[i])) + words.similarity(me, i)) / 2) for i in rows
    ]
    found = [(mid, s) for mid, s in scored if s >= rule.threshold]
    found.sort(key=lambda ms: (-ms[1], ms[0]))
    return found[:limit]
