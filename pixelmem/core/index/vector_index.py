"""Exact cosine top-k over one contiguous float32 matrix of L2-normalised chunk vectors.

``matrix @ query`` is one BLAS sgemv that streams the matrix once, which is as fast as exact
search gets: at 100k × 384 (150 MB) it runs from the L3 cache, at 1M (1.5 GB) it is bound by
memory bandwidth. Everything else is kept off that path: the scores go into a per-thread buffer
(a fresh 4 MB array per query costs page faults), ``np.argpartition`` selects the k best
without sorting the rest, and only those k are sorted. A narrow filter mask scores just the
selected rows instead of all of them.

The index is immutable (its arrays are read-only), so any number of threads may query it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal

import numpy as np

_EMPTY = (np.zeros(0, np.int64), np.zeros(0, np.float32))
for _array in _EMPTY:
    _array.flags.writeable = False
# Below this fraction of selected rows, gathering them beats scoring every row.
_GATHER_FRACTION = 0.25
_MAX_SIM_BLOCK = 1 << 16
_SAMPLE = 4096


def top_k_of_scores(
    scores: np.ndarray,
    k: int,
    mask: np.ndarray | None = None,
    *,
    min_score: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Indices and values of the ``k`` largest ``scores``, best first.

    Only rows where ``mask`` is True and the score is ``>= min_score`` are eligible, so fewer
    than ``k`` may come back. Equal scores are ordered by row (which of several rows tied at the
    k-th place is kept is up to ``np.argpartition``). Returns copies, never views.
    """
    if k <= 0 or scores.size == 0:
        return _EMPTY
    if mask is None and min_score is None:
        return _top_k(scores, None, k)
    keep = np.ones(scores.shape, bool) if mask is None else np.asarray(mask, bool)
    if min_score is not None:
        keep = keep & (scores >= min_score)
    rows = np.flatnonzero(keep)
    return _top_k(scores[rows], rows, k)


def top_k_set(
    scores: np.ndarray,
    k: int,
    mask: np.ndarray | None = None,
    *,
    min_score: float | None = None,
) -> tuple[np.ndarray, float | None]:
    """The rows :func:`top_k_of_scores` returns for the same arguments, in no order, and the
    lowest score among them (None when there are none): for callers that need the set and
    its cut, not the order (sorting 18k rows was most of a deep search pass)."""
    if k <= 0 or scores.size == 0:
        return _EMPTY[0], None
    rows = None
    if mask is not None or min_score is not None:
        keep = np.ones(scores.shape, bool) if mask is None else np.asarray(mask, bool)
        if min_score is not None:
            keep = keep & (scores >= min_score)
        rows = np.flatnonzero(keep)
        scores = scores[rows]
        if scores.size == 0:
            return _EMPTY[0], None
    best = _best_unsorted(scores, k)
    lowest = float(scores[best].min())
    return (best.astype(np.int64) if rows is None else rows[best]), lowest


def _top_k(scores: np.ndarray, rows: np.ndarray | None, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k of ``scores``; ``rows`` maps positions back to row numbers (None: identity)."""
    if scores.size == 0:
        return _EMPTY
    best = _best_unsorted(scores, k)
    best = best[np.lexsort((best, -scores[best]))]
    top = scores[best].astype(np.float32)
    return (best.astype(np.int64) if rows is None else rows[best]), top


def _best_unsorted(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` largest scores, in no particular order."""
    n = scores.size
    if k >= n:
        return np.arange(n)
    if n >= 16 * _SAMPLE and 4 * k <= _SAMPLE:
        # A cut from a strided sample: at least 4k scores (the sample's own best) reach it, so
        # the k best are among the rows that do, and selecting among those few is cheaper than
        # partitioning all n (1.5 ms → 0.6 ms at n = 1M).
        sample = scores[:: n // _SAMPLE]
        cut = np.partition(sample, sample.size - 4 * k)[sample.size - 4 * k]
        pool = np.flatnonzero(scores >= cut)
        return pool[np.argpartition(scores[pool], pool.size - k)[pool.size - k :]]
    return np.argpartition(scores, n - k)[n - k :]


class VectorIndex:
    """Rows of L2-normalised float32 vectors; exact cosine similarity by matrix-vector product."""

    __slots__ = ("_local", "_matrix")

    def __init__(self, matrix: np.ndarray, *, normalise: bool = False) -> None:
        """Wrap ``matrix`` [n, dim] without copying it when it already is C-ordered float32.

        Set ``normalise`` when the rows are not unit length yet (zero rows stay zero).
        """
        m = np.ascontiguousarray(matrix, dtype=np.float32)
        if m.ndim != 2:
            raise ValueError(f"expected a 2-D matrix of vectors, got shape {m.shape}")
        if normalise:
            norms = np.linalg.norm(m, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            m = (m / norms).astype(np.float32)
        self._matrix = m.view()
        self._matrix.flags.writeable = False  # on the view: the caller's array stays as it was
        self._local = threading.local()

    @classmethod
    def empty(cls, dim: int) -> VectorIndex:
        return cls(np.zeros((0, dim), np.float32))

    def __len__(self) -> int:
        return self._matrix.shape[0]

    @property
    def dim(self) -> int:
        return self._matrix.shape[1]

    @property
    def matrix(self) -> np.ndarray:
        """The read-only [n, dim] matrix."""
        return self._matrix

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine similarity of ``query`` with every row (a new float32 array)."""
        return self._matrix @ self._query(query)

    def top_k(
        self, query: np.ndarray, k: int, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` rows most similar to ``query``: ``(indices int64, cosines float32)``.

        ``mask`` (bool per row) restricts the search to rows where it is True.
        """
        q = self._query(query)
        return self._top_k(q, k, mask)

    def nearest_to_rows(
        self,
        rows: Sequence[int] | np.ndarray,
        k: int,
        *,
        mask: np.ndarray | None = None,
        reduce: Literal["mean", "max"] = "mean",
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` rows nearest to a group of rows (see :meth:`group_scores`), never the
        group itself: ``(indices int64, scores float32)``."""
        group = np.unique(np.asarray(rows, dtype=np.int64))
        if group.size == 0 or k <= 0:
            return _EMPTY
        keep = np.ones(len(self), bool) if mask is None else np.array(mask, bool)
        keep[group] = False
        return top_k_of_scores(self.group_scores(group, reduce=reduce), k, keep)

    def group_scores(
        self, rows: Sequence[int] | np.ndarray, *, reduce: Literal["mean", "max"] = "mean"
    ) -> np.ndarray:
        """Similarity of every row to a group of rows (float32 per row).

        ``reduce="mean"``: cosine with the normalised mean of the group, one matrix-vector
        product (the usual document vector). ``reduce="max"``: each row's best cosine with any
        group member, so a row close to one section of a long memory scores high.
        """
        members = self._matrix[np.asarray(rows, dtype=np.int64)]
        if reduce == "mean":
            return self._matrix @ self.mean_vector(rows)
        if reduce != "max":
            raise ValueError(f"reduce must be 'mean' or 'max', not {reduce!r}")
        scores = np.empty(len(self), np.float32)
        for start in range(0, len(self), _MAX_SIM_BLOCK):
            block = self._matrix[start : start + _MAX_SIM_BLOCK]
            np.max(block @ members.T, axis=1, out=scores[start : start + len(block)])
        return scores

    def mean_vector(self, rows: Sequence[int] | np.ndarray) -> np.ndarray:
        """The normalised mean of some rows: a group's (a memory's) one vector."""
        return _unit(self._matrix[np.asarray(rows, dtype=np.int64)].mean(axis=0))

    def _query(self, query: np.ndarray) -> np.ndarray:
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise ValueError(f"query has dimension {q.shape[0]}, the index has {self.dim}")
        return _unit(q)

    def _top_k(
        self, q: np.ndarray, k: int, mask: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        n = len(self)
        if k <= 0 or n == 0:
            return _EMPTY
        selected = None
        if mask is not None:
            mask = np.asarray(mask, bool)
            if mask.shape != (n,):
                raise ValueError(f"mask has shape {mask.shape}, expected ({n},)")
            selected = np.flatnonzero(mask)
            if selected.size < _GATHER_FRACTION * n:
                return _top_k(self._matrix[selected] @ q, selected, k)
        scores = self._buffer(n)
        np.matmul(self._matrix, q, out=scores)
        return _top_k(scores if selected is None else scores[selected], selected, k)

    def _buffer(self, n: int) -> np.ndarray:
        buf: np.ndarray | None = getattr(self._local, "scores", None)
        if buf is None:
            buf = self._local.scores = np.empty(n, np.float32)
        return buf


def _unit(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to unit length (float32); a zero vector stays zero."""
    norm = float(np.linalg.norm(vector))
    v = vector.astype(np.float32, copy=False)
    return v / np.float32(norm) if norm > 0 else v
