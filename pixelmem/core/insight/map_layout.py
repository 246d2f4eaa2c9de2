"""2-D layout of unit vectors: PCA, then a neighbour-graph refinement (UMAP's idea, in numpy).

Why not a library: umap-learn pulls numba + llvmlite + scikit-learn + scipy (see the README of
``benchmarks/bench_map.py`` for the sizes measured) and JIT-compiles for seconds on first use;
openTSNE needs scipy too. What the map needs is small: points that are neighbours in the
embedding space end up close, clusters separate, and the same input gives the same picture.

How:

1. Exact k nearest neighbours by cosine (blocked matrix products; 10k × 384 in well under 1 s).
2. Start from the first two principal components (deterministic: signs fixed), so the global
   arrangement is meaningful and the refinement has little to do.
3. Epochs of batched gradient steps on UMAP's objective with ``a = b = 1``: every neighbour
   edge pulls its ends together by ``2 / (1 + d²)``; a few random non-neighbours per edge push
   apart by ``2 / ((ε + d²)(1 + d²))``; moves are clipped and the step shrinks linearly.

Everything random comes from ``numpy.random.default_rng(seed)``: a seed fixes the layout.
:func:`place_new` puts memories added later beside their nearest placed neighbours without
moving anything else.
"""

from __future__ import annotations

import numpy as np

from pixelmem.core.insight.memory_vectors import nearest, unit_rows
from pixelmem.core.step_aside import step_aside

NEIGHBOURS = 15
NEGATIVES = 6  # random non-neighbours per point per epoch
EPOCHS = 150
LARGE = 5000  # memories
REDUCED_DIM = 64
STEP = 4.0
REPULSION = 5.0  # UMAP's negative samples per edge
CLIP = 4.0
SPREAD = 10.0  # the initial layout's standard deviation per axis
_EPS = 1e-3


def layout(vectors: np.ndarray, *, seed: int = 0, epochs: int | None = None) -> np.ndarray:
    """``[n, 2]`` float32 positions for ``n`` unit vectors, deterministic for ``seed``."""
    n = len(vectors)
    if epochs is None:
        # The PCA start already places the clusters; on 10k clustered vectors 100 epochs keep
        # 99.4 % of 2-D neighbours in their cluster (150: 100 %) for a third less time.
        epochs = EPOCHS if n <= LARGE else EPOCHS * 2 // 3
    if n == 0:
        return np.zeros((0, 2), np.float32)
    components = principal_components(vectors, REDUCED_DIM)
    y = _spread(components[:, :2])
    if n <= 2:
        return y
    k = min(NEIGHBOURS, n - 1)
    # Neighbours in the top principal components: 6× fewer flops than in all 384 dimensions
    # and the same neighbours for nearly every point (the rest is mostly noise).
    reduced = unit_rows(components)
    idx, _ = nearest(reduced, reduced, k + 1)
    heads = np.repeat(np.arange(n), k)
    tails = _drop_self(idx, k).reshape(-1)
    rng = np.random.default_rng(seed)
    y = y + rng.normal(0.0, 1e-4 * SPREAD, y.shape).astype(np.float32)  # split exact copies
    degree = np.bincount(heads, minlength=n) + np.bincount(tails, minlength=n)
    scale = (STEP / np.maximum(degree, 1)).astype(np.float32)
    for epoch in range(epochs):
        step_aside()  # a search someone is typing goes first (core/step_aside)
        y = _epoch(y, heads, tails, 1.0 - epoch / epochs, scale, rng)
    return (y - y.mean(axis=0)).astype(np.float32)


def pca_2d(vectors: np.ndarray) -> np.ndarray:
    """The first two principal components, scaled to :data:`SPREAD`, signs made canonical."""
    return _spread(principal_components(vectors, 2))


def principal_components(vectors: np.ndarray, dims: int) -> np.ndarray:
    """``vectors`` centred and projected on their first ``dims`` principal axes (float32).

    An axis's sign is arbitrary; each is turned so its largest loading is positive, which
    keeps the picture the same from run to run and machine to machine.
    """
    x = np.asarray(vectors, np.float32)
    n, d = x.shape
    dims = min(dims, d)
    if n < 2:
        return np.zeros((n, dims), np.float32)
    x = x - x.mean(axis=0)
    cov = (x.T @ x).astype(np.float64)
    _, axes = np.linalg.eigh(cov)
    axes = axes[:, ::-1][:, :dims]
    signs = np.sign(axes[np.abs(axes).argmax(axis=0), np.arange(dims)])
    signs[signs == 0] = 1.0
    return (x @ (axes * signs).astype(np.float32)).astype(np.float32)


def _spread(xy: np.ndarray) -> np.ndarray:
    out = np.zeros((len(xy), 2), np.float32)
    if len(xy) < 2:
        return out
    out[:, : xy.shape[1]] = xy
    std = out.std(axis=0)
    std[std < 1e-12] = 1.0
    return (out / std * SPREAD).astype(np.float32)


def _drop_self(idx: np.ndarray, k: int) -> np.ndarray:
    """Each row's k neighbours without the row itself (exact copies may precede it)."""
    n = len(idx)
    rows = np.arange(n)[:, None]
    not_self = idx != rows
    # keep the first k entries that are not the row itself
    rank = np.cumsum(not_self, axis=1)
    keep = not_self & (rank <= k)
    out = idx[keep].reshape(n, k) if keep.sum() == n * k else idx[:, 1 : k + 1]
    return out


def _epoch(
    y: np.ndarray,
    heads: np.ndarray,
    tails: np.ndarray,
    step: float,
    scale: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """One batched pass: every edge pulls, random pairs push; moves scaled per point."""
    n = len(y)
    px, py = y[:, 0], y[:, 1]  # 1-D gathers are twice as fast as gathering [n, 2] rows
    dx, dy = px[heads] - px[tails], py[heads] - py[tails]
    pull = -2.0 / (1.0 + dx * dx + dy * dy)
    ax, ay = np.clip(pull * dx, -CLIP, CLIP), np.clip(pull * dy, -CLIP, CLIP)
    mx = np.bincount(heads, ax, n) - np.bincount(tails, ax, n)
    my = np.bincount(heads, ay, n) - np.bincount(tails, ay, n)
    # Non-neighbours: REPULSION per edge in UMAP; the same total push from fewer random pairs
    # per point, weighted up, gives the same picture at a fraction of the cost.
    others = rng.integers(0, n, (NEGATIVES, n))
    weight = REPULSION * len(heads) / (NEGATIVES * n)
    for row in others:
        dx, dy = px - px[row], py - py[row]
        d2 = dx * dx + dy * dy
        push = 2.0 / ((_EPS + d2) * (1.0 + d2))
        mx += np.clip(push * dx, -CLIP, CLIP) * weight
        my += np.clip(push * dy, -CLIP, CLIP) * weight
    out = np.empty_like(y)
    out[:, 0] = px + mx * scale * step
    out[:, 1] = py + my * scale * step
    return out


def place_new(
    placed_xy: np.ndarray,
    placed_vectors: np.ndarray,
    new_vectors: np.ndarray,
    new_ids: list[str] | tuple[str, ...],
    *,
    k: int = 5,
) -> np.ndarray:
    """Positions for new memories beside their nearest placed neighbours; nothing else moves.

    Each goes to the similarity-weighted mean of its ``k`` nearest placed points, nudged by a
    small offset derived from its id (so two copies do not hide each other, and the result
    does not depend on the order memories arrive in).
    """
    m = len(new_vectors)
    if m == 0:
        return np.zeros((0, 2), np.float32)
    if len(placed_xy) == 0:
        return pca_2d(new_vectors)
    idx, sim = nearest(placed_vectors, new_vectors, k)
    weights = np.maximum(sim, 0.0) ** 4 + 1e-6
    xy = (placed_xy[idx] * weights[..., None]).sum(axis=1) / weights.sum(axis=1)[:, None]
    return (xy + np.array([_nudge(mid) for mid in new_ids])).astype(np.float32)


def _nudge(memory_id: str) -> tuple[float, float]:
    import zlib

    h = zlib.crc32(memory_id.encode())
    angle = (h & 0xFFFF) / 0xFFFF * 2 * np.pi
    radius = 0.15 + 0.25 * ((h >> 16) & 0xFF) / 0xFF
    return float(np.cos(angle) * radius), float(np.sin(angle) * radius)
