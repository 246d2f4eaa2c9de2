"""Clusters on the map and their labels: k-means on the 2-D positions, tf-idf-like keywords.

Clustering the positions (not the 384-d vectors) makes a cluster a group the person can see
as one, and a label sits where its points are. ``k`` is the one that separates the map best
(:func:`choose_clusters`). A cluster is named by the words its memories use much more often
than the rest of the vault does, from :func:`~pixelmem.core.index.text_tokens.tokenize` — English
words alike, never stems, stopwords or single characters. Chinese is cut into words by
``rjieba`` (jieba's dictionary, MIT; imported on the map's worker the first time a Chinese
text is labelled, ~0.2 s, never at launch), so a label is a word ("发布服务"), not a pair of
characters across a word boundary ("布服"); without it, the index's character pairs are
joined where they always come together.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from pixelmem.core.index.scripts import has_cjk
from pixelmem.core.index.text_tokens import (
    CJK_STOP_CHARS,
    STEM_MARK,
    STOPWORDS,
    chinese_words,
    tokenize,
)

MAX_CLUSTERS = 24
KEYWORDS_PER_CLUSTER = 3
NEARLY_AS_GOOD = 0.9  # of the best silhouette
_FILE_NAME = re.compile(r"\.[a-z][a-z0-9]{1,4}$")
_ITERATIONS = 30


def cluster_count(n: int) -> int:
    """At most this many clusters for ``n`` memories: ``√(n / 2)``, up to :data:`MAX_CLUSTERS`."""
    return max(1, min(MAX_CLUSTERS, round(math.sqrt(n / 2))))


def choose_clusters(points: np.ndarray, *, seed: int = 0) -> np.ndarray:
    """Cluster numbers for the map: k-means with the ``k`` that separates best.

    Each ``k`` from 2 to :func:`cluster_count` is scored by the simplified silhouette (distance
    to the nearest other centre against distance to one's own, on up to 2000 points); the
    most clusters scoring at least :data:`NEARLY_AS_GOOD` of the best win, so six groups on
    the map give six clusters, not the ten a size rule would, and a map without gaps is not
    cut in two.
    """
    n = len(points)
    top = cluster_count(n)
    if n < 6 or top < 2:
        return np.zeros(n, np.int32)
    rng = np.random.default_rng(seed)
    sample = points if n <= 2000 else points[rng.choice(n, 2000, replace=False)]
    scores = {k: _silhouette(sample, kmeans(sample, k, seed=seed)) for k in range(2, top + 1)}
    best_score = max(scores.values())
    # The most clusters that separate nearly as well as the best: two clear groups stay two,
    # but a map without clear gaps (a help vault of 173 notes) is cut into the several topics
    # a person browses, not into two halves whose silhouette is a hair better.
    best = max(k for k, score in scores.items() if score >= NEARLY_AS_GOOD * best_score)
    return kmeans(points, best, seed=seed)


def _silhouette(points: np.ndarray, labels: np.ndarray) -> float:
    k = int(labels.max()) + 1
    centres = np.array([points[labels == c].mean(axis=0) for c in range(k)])
    d = np.sqrt(((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2))
    own = d[np.arange(len(points)), labels]
    d[np.arange(len(points)), labels] = np.inf
    other = d.min(axis=1)
    return float(np.mean((other - own) / np.maximum(np.maximum(other, own), 1e-12)))


def kmeans(points: np.ndarray, k: int, *, seed: int = 0) -> np.ndarray:
    """Cluster number per point (0..k-1, ordered by cluster size, largest first)."""
    n = len(points)
    if n == 0:
        return np.zeros(0, np.int32)
    k = max(1, min(k, n))
    x = np.asarray(points, np.float64)
    centres = _plus_plus(x, k, np.random.default_rng(seed))
    labels = np.zeros(n, np.int64)
    for _ in range(_ITERATIONS):
        d2 = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        new = d2.argmin(axis=1)
        if np.array_equal(new, labels) and _ > 0:
            break
        labels = new
        for c in range(k):
            members = x[labels == c]
            if len(members):
                centres[c] = members.mean(axis=0)
    sizes = np.bincount(labels, minlength=k)
    rank = np.empty(k, np.int64)
    rank[np.lexsort((np.arange(k), -sizes))] = np.arange(k)
    return rank[labels].astype(np.int32)


def _plus_plus(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ seeding: each next centre far from the ones chosen (deterministic for rng)."""
    centres = [x[rng.integers(len(x))]]
    d2 = ((x - centres[0]) ** 2).sum(axis=1)
    for _ in range(1, k):
        total = d2.sum()
        pick = rng.choice(len(x), p=d2 / total) if total > 0 else rng.integers(len(x))
        centres.append(x[pick])
        d2 = np.minimum(d2, ((x - x[pick]) ** 2).sum(axis=1))
    return np.array(centres)


def label_terms(text: str) -> set[str]:
    """The words of ``text`` that may name a cluster (one set per memory)."""
    cut = chinese_words() if has_cjk(text) else None
    tokens = set(tokenize(text))
    if cut is not None:  # Chinese words from the segmenter, not the index's character pairs
        tokens = {t for t in tokens if not _is_cjk(t)} | {w for w in cut(text) if _is_cjk(w)}
    return {t for t in tokens if _labelable(t)}


def _labelable(token: str) -> bool:
    if token.startswith(STEM_MARK) or token in STOPWORDS or token.isdigit():
        return False
    if len(token) == 1:
        return False  # a lone CJK character or letter names nothing
    if _FILE_NAME.search(token):
        return False  # "lucide-send.svg": an attachment's name, not a topic
    if _is_cjk(token):
        return not any(ch in CJK_STOP_CHARS for ch in token)
    return len(token) >= 3


def _is_cjk(token: str) -> bool:
    return has_cjk(token)


def cluster_keywords(
    terms: Sequence[set[str]], labels: np.ndarray, k: int, *, top: int = KEYWORDS_PER_CLUSTER
) -> list[list[str]]:
    """The ``top`` most distinctive terms of each cluster: share in it × log(N / vault df)."""
    n = len(terms)
    vault_df: Counter[str] = Counter()
    for memory_terms in terms:
        vault_df.update(memory_terms)
    out: list[list[str]] = []
    for c in range(k):
        members = np.flatnonzero(labels == c)
        df: Counter[str] = Counter()
        for i in members.tolist():
            df.update(terms[i])
        least = 2 if len(members) >= 4 else 1
        scored = [
            (df[t] / len(members) * math.log((n + 1) / vault_df[t]), t)
            for t in df
            if df[t] >= least
        ]
        scored.sort(key=lambda st: (-st[0], st[1]))
        out.append(_pick(scored, top))
    return out


def _pick(scored: list[tuple[float, str]], top: int) -> list[str]:
    """Best terms, skipping one already covered (``rust`` after ``rust-lang``).

    CJK pairs that always come together are joined: ``数据`` + ``据库`` → ``数据库``.
    """
    score = {t: sc for sc, t in scored}
    chosen: list[str] = []
    for sc, term in scored:
        if len(chosen) == top:
            break
        if _is_cjk(term) and chinese_words() is None:
            term = _grow(term, sc, score)
        if any(_overlaps(term, c) for c in chosen):
            continue
        chosen.append(term)
    return chosen


def _grow(term: str, sc: float, score: dict[str, float]) -> str:
    """Extend a CJK pair by neighbouring pairs with the same score (a longer word)."""
    for _ in range(4):  # words of up to six characters
        right = [t for t in score if _is_cjk(t) and t[0] == term[-1] and score[t] == sc]
        left = [t for t in score if _is_cjk(t) and t[-1] == term[0] and score[t] == sc]
        right = [t for t in right if len(t) == 2 and t[1] not in term]
        left = [t for t in left if len(t) == 2 and t[0] not in term]
        if right:
            term += min(right)[1]
        elif left:
            term = min(left)[0] + term
        else:
            break
    return term


def _overlaps(a: str, b: str) -> bool:
    if a in b or b in a:
        return True
    return _is_cjk(a) and _is_cjk(b) and (a[1:] == b[:-1] or b[1:] == a[:-1])
