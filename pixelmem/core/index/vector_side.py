"""The local vector side: exact cosine over an append-only float32 matrix.

Chunk id ``i`` is row ``i``. An upsert appends rows (into spare capacity when there is some, so
an edit copies nothing but its own vectors); a removal only marks rows dead. Rows past a
snapshot's own length are invisible to it, so appending never disturbs a search running on an
older snapshot. Every query is one ``matrix @ q`` over all rows, as in
:class:`~pixelmem.core.index.vector_index.VectorIndex`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from pixelmem.core.index.search_backend import Allowed, ChunkBatch, ChunkIds, Scores
from pixelmem.core.index.vector_index import VectorIndex, top_k_of_scores, top_k_set
from pixelmem.core.step_aside import step_aside


class _Buffer:
    """Rows shared by successive snapshots; ``used`` is how far any of them has written."""

    def __init__(self, rows: np.ndarray, used: int) -> None:
        self.rows = rows
        self.used = used
        # Rows' cosines with one direction (hub_values), computed up to their length: rows
        # below ``used`` never change, so a later snapshot computes only those appended.
        self.hub: tuple[bytes, np.ndarray] | None = None


class LocalVectorSide:
    """Unit vectors of chunk ids 0..n-1 (some dead) and their memory positions."""

    def __init__(
        self,
        buffer: _Buffer,
        n: int,
        owners: np.ndarray,
        alive: np.ndarray | None,
        penalty: np.ndarray | None = None,
    ) -> None:
        """Use :meth:`from_matrix`; ``owners`` maps chunk id → memory position."""
        self._buffer, self._n = buffer, n
        self._index = VectorIndex(buffer.rows[:n])
        self._owners, self._alive = owners, alive
        self._live = n if alive is None else int(np.count_nonzero(alive))
        self._penalty = penalty
        self._memo = threading.local()

    @classmethod
    def from_matrix(cls, matrix: np.ndarray, owners: np.ndarray) -> LocalVectorSide:
        """Rows of unit vectors, used without a copy when C-ordered float32."""
        rows = np.ascontiguousarray(matrix, dtype=np.float32)
        return cls(_Buffer(rows, len(rows)), len(rows), owners, None)

    def hub_values(self, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Each row's cosine with ``direction`` (:mod:`~pixelmem.core.index.hubs`), and the
        live rows (:attr:`alive`). Kept with the rows: a snapshot after an edit computes only
        the rows appended since."""
        key = np.asarray(direction, np.float32).tobytes()
        kept = self._buffer.hub
        values = kept[1] if kept is not None and kept[0] == key else np.zeros(0, np.float32)
        if len(values) < self._n:
            more = self._buffer.rows[len(values) : self._n] @ np.asarray(direction, np.float32)
            values = np.concatenate([values, more])
            self._buffer.hub = (key, values)
        return values[: self._n], self._alive

    def damped(self, penalty: np.ndarray) -> LocalVectorSide:
        """The same rows, each cosine less ``penalty[row]`` (:mod:`~pixelmem.core.index.hubs`:
        the hub chunks'); the rows are shared, not copied."""
        return LocalVectorSide(self._buffer, self._n, self._owners, self._alive, penalty)

    @property
    def dim(self) -> int:
        return self._index.dim

    def __len__(self) -> int:
        return self._live

    @property
    def matrix(self) -> np.ndarray:
        """The read-only rows, dead ones included (see :attr:`alive`)."""
        return self._index.matrix

    @property
    def penalty(self) -> np.ndarray | None:
        """What is taken off each row's cosine (:meth:`damped`; None: nothing)."""
        return self._penalty

    @property
    def owners(self) -> np.ndarray:
        """Each row's memory position (-1: a row never written)."""
        return self._owners

    @property
    def alive(self) -> np.ndarray | None:
        """Which rows are live (None: all of them)."""
        return self._alive

    # -- the seam --------------------------------------------------------------------------

    def top_chunks(
        self, query: np.ndarray, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, Scores]:
        scores = self.scores(query)
        if allowed is None:
            return top_k_of_scores(scores, k, self._alive)
        if allowed.chunk_ids is not None:  # a few memories' chunks: no pass over every row
            return top_of_ids(allowed.chunk_ids, scores, k, None)
        mask = allowed.mask[self._owners]
        return top_k_of_scores(scores, k, mask if self._alive is None else mask & self._alive)

    def top_chunk_set(
        self, query: np.ndarray, k: int, allowed: Allowed | None
    ) -> tuple[ChunkIds, float | None]:
        """The chunk ids :meth:`top_chunks` lists, unsorted, and the lowest cosine among them."""
        if allowed is not None and allowed.chunk_ids is not None:
            ids, top = self.top_chunks(query, k, allowed)
            return ids, float(top[-1]) if len(top) else None
        scores = self.scores(query)
        mask = self._alive if allowed is None else allowed.mask[self._owners]
        if allowed is not None and self._alive is not None:
            mask = mask & self._alive
        return top_k_set(scores, k, mask)

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine of ``query`` with every row (dead rows too), kept for the thread's last query:
        fusion asks again for a few memories' chunks, and this pass already scored them."""
        key = np.asarray(query, np.float32).tobytes()
        memo = getattr(self._memo, "last", None)
        if memo is not None and memo[0] == key:
            kept: np.ndarray = memo[1]
            return kept
        scores = self._index.scores(query)
        if self._penalty is not None:
            scores -= self._penalty  # a new array: no copy needed
        self._memo.last = (key, scores)
        return scores

    def vectors(self, ids: ChunkIds) -> np.ndarray:
        return self._index.matrix[np.asarray(ids, np.int64)]

    def upsert(self, batch: ChunkBatch) -> LocalVectorSide:
        if batch.vectors is None or len(batch.vectors) != len(batch):
            raise ValueError("the vector side needs one vector per upserted chunk")
        ids = np.asarray(batch.ids, np.int64)
        size = max(self._n, int(ids.max(initial=-1)) + 1)
        buffer = self._room_for(size)
        buffer.rows[ids] = batch.vectors
        buffer.used = size
        if buffer.hub is not None and len(ids) and int(ids.min()) < len(buffer.hub[1]):
            key, values = buffer.hub  # a row written again: computed again from there
            buffer.hub = (key, values[: int(ids.min())])
        owners = _grown(self._owners, size, -1)
        owners[ids] = batch.owners
        alive = _grown(self._alive_or_all(), size, False)
        alive[ids] = True
        return LocalVectorSide(buffer, size, owners, None if alive.all() else alive)

    def remove(self, ids: ChunkIds) -> LocalVectorSide:
        alive = self._alive_or_all().copy()
        alive[np.asarray(ids, np.int64)] = False
        return LocalVectorSide(self._buffer, self._n, self._owners, alive)

    # -- internals -------------------------------------------------------------------------

    def _room_for(self, size: int) -> _Buffer:
        """A buffer holding this snapshot's rows with room up to ``size`` that no other
        snapshot writes into: the shared one while this snapshot is its newest, else a copy."""
        buffer = self._buffer
        if buffer.used == self._n and size <= len(buffer.rows):
            return buffer
        capacity = max(size, len(buffer.rows) + len(buffer.rows) // 4, 64)
        rows = np.zeros((capacity, self.dim), np.float32)
        rows[: self._n] = buffer.rows[: self._n]
        return _Buffer(rows, self._n)

    def _alive_or_all(self) -> np.ndarray:
        return np.ones(self._n, bool) if self._alive is None else self._alive


def top_of_ids(
    ids: np.ndarray, scores: np.ndarray, k: int, min_score: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best of the chunk ids ``ids`` (live ones, as the caller vouches)."""
    ids = np.asarray(ids, np.int64)
    found, top = top_k_of_scores(scores[ids], k, min_score=min_score)
    return ids[found], top


def _grown(array: np.ndarray, size: int, fill: int | bool) -> np.ndarray:
    out = np.full(size, fill, array.dtype)
    out[: len(array)] = array
    return out


# Rows gathered and added per numpy call in row_group_sums: 2048 × 384 floats (3 MB), ~1 ms.
_GROUP_BLOCK_ROWS = 2048


def row_group_sums(
    rows_of: Callable[[np.ndarray], np.ndarray], groups: Sequence[np.ndarray], dim: int
) -> np.ndarray:
    """float32[len(groups), dim]: the sum of each group's rows (``rows_of(ids)`` gives them).

    Only numpy steps that let the GIL go while they run: a gather by index and an ``add``
    (``np.add.reduceat`` keeps it: ~1.8 ms per block of 2,048 rows, 80 ms for a 100k-chunk
    index, and a thread holding it that loses its CPU freezes the window as long —
    bench_ui --why, typing a search with the map open). The groups are ordered longest first,
    so the j-th rows of every group that has one are a prefix: each pass adds them to that
    prefix of the sums, in blocks (a few ms each, :func:`step_aside` between them). The rows
    are added in each group's order, as ``reduceat`` adds them: the same sums to the bit.
    An empty group sums to zeros.
    """
    out = np.zeros((len(groups), dim), np.float32)
    if not len(groups):
        return out
    lengths = np.concatenate([  # a block at a time: each C loop over 33k len() holds the GIL
        np.fromiter(map(len, groups[first : first + _GROUP_BLOCK_ROWS]), np.int64)
        for first in range(0, len(groups), _GROUP_BLOCK_ROWS)
    ])  # fmt: skip
    order = np.argsort(-lengths, kind="stable")
    ranked = lengths[order]  # longest first
    firsts = np.cumsum(lengths) - lengths  # where each group starts in ``flat``
    flat = _concatenated(groups)
    sums = np.zeros_like(out)  # in ``order``
    for j in range(int(ranked[0])):
        having = int(np.searchsorted(-ranked, -j, side="left"))  # groups with > j rows
        for first in range(0, having, _GROUP_BLOCK_ROWS):
            step_aside()
            last = min(having, first + _GROUP_BLOCK_ROWS)
            ids = flat[firsts[order[first:last]] + j]
            np.add(sums[first:last], rows_of(ids), out=sums[first:last])
    for first in range(0, len(order), _GROUP_BLOCK_ROWS):
        out[order[first : first + _GROUP_BLOCK_ROWS]] = sums[first : first + _GROUP_BLOCK_ROWS]
    return out


def _concatenated(groups: Sequence[np.ndarray]) -> np.ndarray:
    """The groups end to end, concatenated a block of groups at a time (one call over 33k
    small arrays holds the GIL for all of them)."""
    parts = [
        np.concatenate(groups[first : first + _GROUP_BLOCK_ROWS])
        for first in range(0, len(groups), _GROUP_BLOCK_ROWS)
    ]
    return np.concatenate(parts).astype(np.int64, copy=False)
