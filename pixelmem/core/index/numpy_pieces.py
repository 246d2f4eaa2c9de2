"""Numpy passes over millions of elements that let other threads run every millisecond or so.

Most numpy calls release the GIL while they loop (ufuncs, sorts, fancy indexing, bincount),
but some keep it for all of their work, and the window's thread waits for them: ``np.repeat``
(~10 ms over 6M tokens, 110 ms while the pages of its output were fresh), ``np.concatenate``
of many small arrays (15-40 ms for the 31k chunks of a 10k-memory vault), ``np.cumsum`` over
booleans (its cast; 5-20 ms over 6M). ``benchmarks/bench_gil_holds.py`` finds such calls.

The functions here return exactly what the one numpy call returns, with the work split into
pieces of about :data:`PIECE` elements, one call each: between two calls Python code runs and
the GIL changes hands. Between two pieces, work nobody waits for lets a late window run first
(:func:`~pixelmem.core.step_aside.step_aside`): a GIL that changes hands every switch interval
still gives the window only slices of it between pieces (bench_ui --why, 10k memories: a
keyword snapshot's concatenation in the stalls of the first index's start).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pixelmem.core.step_aside import step_aside

PIECE = 1 << 18  # elements per call: ~1 ms of copying on the development VM


def concatenate(parts: Sequence[np.ndarray], dtype: np.dtype | type) -> np.ndarray:
    """``np.concatenate(parts)`` (1-D ``parts``, cast to ``dtype``), a few at a time."""
    sizes = [len(part) for part in parts]
    out = np.empty(sum(sizes), dtype)
    at = first = gathered = 0
    for i, size in enumerate(sizes):
        gathered += size
        if gathered >= PIECE or i == len(sizes) - 1:
            np.concatenate(parts[first : i + 1], out=out[at : at + gathered])
            at, first, gathered = at + gathered, i + 1, 0
            step_aside()
    return out


def repeat(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``np.repeat(values, counts)`` for 1-D ``values``, a span of values at a time."""
    ends = np.cumsum(counts, dtype=np.int64)
    total = int(ends[-1]) if len(ends) else 0
    out = np.empty(total, values.dtype)
    # The value spans whose output ends near each multiple of PIECE.
    cuts = np.searchsorted(ends, np.arange(PIECE, total, PIECE), side="right").tolist()
    first = 0
    for last in [*cuts, len(values)]:
        if last <= first:
            continue
        start = int(ends[first - 1]) if first else 0
        out[start : int(ends[last - 1])] = np.repeat(values[first:last], counts[first:last])
        first = last
        step_aside()
    return out


def count_up(mask: np.ndarray) -> np.ndarray:
    """``np.cumsum(mask)`` of a boolean array (int64): the cast first, so the sum runs
    without the GIL."""
    return np.cumsum(mask.astype(np.int64))
