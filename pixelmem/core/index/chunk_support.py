"""Support from a memory's other chunks: how much more of it than its best chunk is near a query.

A memory is ranked by its best chunk (search.py). In a vault of long notes — an encyclopedia
article cut into twenty chunks, a chat session into ten — a note one chunk of which happens to
be close to the question outranks the note whose every part is about it. The support is a soft
maximum over the memory's chunk cosines less their maximum:
``SOFT_TEMPERATURE · log Σ exp((cosine − best) / SOFT_TEMPERATURE)``.

Rules:

* It is 0 for a memory with one chunk, and for one whose other chunks are far (more than a few
  temperatures) below its best: a short note, or a long one that mentions the subject once,
  ranks as it did.
* It grows with every chunk near the best one, to at most ``SOFT_TEMPERATURE · log(chunks)``
  (all of them as close as the best): :func:`support_cap` bounds a memory search did not list.
* Only in the query's script: across scripts every cosine sits in a narrow band, so a note's
  chunks are all about as close to a question in another language whatever they say (with
  it, XQuAD zh→en and en→zh right first fell 772 → 758 and 857 → 845 of 1,190); such a
  memory ranks as it did.
* It moves the order only (search adds :data:`SUPPORT_SHARE` of it to the best cosine the rank
  logit reads); the calibrated score of the best hit — the decision — reads the best chunk's
  cosine as before.

Chosen on the development sets (benchmarks/eval_ranking.py, two folds each): Climate-FEVER
claims → Wikipedia articles and REALTALK conversations rise, passage sets of one or two chunks
(SQuAD train, XQuAD en/zh) stay as they were; the support is the soft form of "best chunk and
a share of the next", which lifted two-chunk paragraphs over the one-chunk one that answers
(SQuAD train −0.018).
"""

from __future__ import annotations

import numpy as np

SOFT_TEMPERATURE = 0.01  # cosine: chunks within a few of these of the best one count
SUPPORT_SHARE = 0.7  # of the support added to a memory's best cosine in the order


def support(scores: np.ndarray, chunk_ids: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The support of each memory whose chunks are ``chunk_ids`` (memory after memory,
    ``counts`` each, as :meth:`Catalog.chunk_ids_of` gives them) from every chunk's cosine
    ``scores`` (-inf: a chunk not scored, which counts for nothing); 0 for a memory without
    a scored chunk."""
    out = np.zeros(len(counts), np.float64)
    held = counts > 0
    if not len(chunk_ids) or not held.any():
        return out
    cosines = np.asarray(scores[chunk_ids], np.float64)
    starts = (np.cumsum(counts) - counts)[held]
    best = np.maximum.reduceat(cosines, starts)
    best = np.where(np.isfinite(best), best, 0.0)  # nothing scored: every term below is 0
    near = np.exp((cosines - np.repeat(best, counts[held])) / SOFT_TEMPERATURE)
    out[held] = SOFT_TEMPERATURE * np.log(np.maximum(1.0, np.add.reduceat(near, starts)))
    return out


def support_cap(most_chunks: int) -> float:
    """The most support a memory of at most ``most_chunks`` chunks can have."""
    return SOFT_TEMPERATURE * float(np.log(max(1, most_chunks)))
