"""The vault's own null: what "a question about a thing this vault does not hold, answered by a
sibling" scores in this vault, measured leave-one-out.

Up to :data:`LOO_PROBES` sampled memories per script each take their first chunk as a question
and find the nearest chunk of another memory; the mean and standard deviation of those
cosines is the null of that script (nan under :data:`LOO_MIN` memories: too few to say). A
vault of one topic's articles gets a high null, a vault of unrelated notes a low one; a search's
best hit is measured against it (decision.Best.loo). Bounded: at most LOO_PROBES per script,
once per snapshot, one matrix product per :data:`LOO_BATCH` probes on a local vector side, the
side's own search otherwise (the PostgreSQL side).

**How much the vault's notes share** (:func:`closeness`, :func:`shared_subject`): the median
cosine between two notes of the vault in one script, less that between two of the anchor texts
(everyday sentences on unrelated subjects) in that script. A vault of articles, of projects, of
recipes has notes about as far apart as unrelated sentences, or farther (every development vault
of ours: −0.03 to +0.015); a vault whose notes are all about the same people — a chat history, a
diary — has them far closer (REALTALK's pairs: +0.08 to +0.12). What they share, a question
about those people shares with every one of them, so the vault's own notes are no measure of
what *unrelated* text scores for it (SearchIndex.backgrounds takes the excess off their median).
"""

from __future__ import annotations

import numpy as np

from pixelmem.core.index.catalog import Catalog
from pixelmem.core.index.relevance import MIN_SPREAD
from pixelmem.core.index.scripts import SCRIPTS
from pixelmem.core.index.search_backend import VectorSide

LOO_PROBES = 150
LOO_MIN = 30
LOO_DEPTH = 24  # chunks asked for per probe: enough to pass its own memory's chunks
LOO_BATCH = 32  # probes per matrix product (32 × 100k chunks: 13 MB of cosines)
CLOSENESS_MIN = 5  # notes of a script: fewer cannot say how close its notes are to each other


def loo_nulls(
    side: VectorSide | None,
    catalog: Catalog,
    chosen: np.ndarray,
    vectors: np.ndarray,
    counts: np.ndarray,
) -> np.ndarray:
    """float[2, scripts]: the null's mean and deviation per script, from the sampled memories
    ``chosen`` (their first chunks' ``vectors``) of a vault with ``counts`` memories per
    script."""
    nulls = np.full((2, len(SCRIPTS)), np.nan)
    if side is None:
        return nulls
    owners = catalog.owners
    scripts = catalog.meta.scripts[chosen]
    for script in SCRIPTS[1:]:
        mine = np.flatnonzero(scripts == script)
        if counts[script] < LOO_MIN or len(mine) < LOO_MIN:
            continue
        mine = mine[:: max(1, len(mine) // LOO_PROBES)][:LOO_PROBES]
        best = nearest_others(side, vectors[mine], chosen[mine], owners)
        if len(best) >= LOO_MIN:
            nulls[:, script] = np.mean(best), max(MIN_SPREAD, float(np.std(best)))
    return nulls


def nearest_others(
    side: VectorSide, probes: np.ndarray, mine: np.ndarray, owners: np.ndarray
) -> list[float]:
    """Each probe's cosine with the nearest chunk of another memory than its own (``mine``):
    one matrix product per batch on a local side, the side's own search otherwise."""
    matrix = getattr(side, "matrix", None)
    if matrix is None:  # a database side: ask it
        best = []
        for probe, own in zip(probes, mine.tolist(), strict=True):
            ids, top = side.top_chunks(probe, LOO_DEPTH, None)
            other = owners[np.asarray(ids, np.int64)] != own
            if other.any():
                best.append(float(np.asarray(top)[other][0]))
        return best
    alive = getattr(side, "alive", None)
    owners = side.owners if hasattr(side, "owners") else owners
    rows = min(len(owners), len(matrix))
    out: list[float] = []
    for start in range(0, len(probes), LOO_BATCH):
        cosines = probes[start : start + LOO_BATCH] @ matrix[:rows].T
        cosines[owners[None, :] == mine[start : start + LOO_BATCH, None]] = -np.inf
        if alive is not None:
            cosines[:, ~alive[:rows]] = -np.inf
        out.extend(float(v) for v in cosines.max(axis=1) if np.isfinite(v))
    return out


def closeness(vectors: np.ndarray, scripts: np.ndarray) -> np.ndarray:
    """float[scripts]: the median cosine between two different rows of ``vectors`` (normalised
    texts, one per note) of each script (column 0: all of them), nan with fewer than
    :data:`CLOSENESS_MIN` rows there."""
    vectors = np.asarray(vectors, np.float32)
    scripts = np.asarray(scripts)
    out = np.full(len(SCRIPTS), np.nan)
    for script in SCRIPTS:
        mine = vectors if script == 0 else vectors[scripts == script]
        if len(mine) < CLOSENESS_MIN:
            continue
        pairs = mine @ mine.T
        out[script] = float(np.median(pairs[np.triu_indices(len(mine), k=1)]))
    return out


def shared_subject(vault: np.ndarray, anchors: np.ndarray | None) -> np.ndarray:
    """float[scripts]: how much closer the vault's notes are to each other than unrelated
    texts are (:func:`closeness` of each, per script), never below 0; 0 where either cannot
    say (see the module docstring)."""
    if anchors is None:
        return np.zeros(len(SCRIPTS))
    excess = np.asarray(vault, np.float64) - np.asarray(anchors, np.float64)
    return np.where(np.isfinite(excess), np.maximum(excess, 0.0), 0.0)
