"""row_group_sums: per-group row sums in GIL-free steps (reduceat holds the GIL)."""

from __future__ import annotations

import numpy as np

from pixelmem.core.index import vector_side
from pixelmem.core.index.vector_side import row_group_sums


def test_blocks_sum_what_one_reduceat_sums(monkeypatch) -> None:
    """The same sums, to float32 rounding (reduceat adds a group's rows after its first in
    another order)."""
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((500, 8), dtype=np.float32)
    sizes = rng.integers(1, 9, 120)
    order = rng.integers(0, 500, int(sizes.sum()))
    groups = np.split(order, np.cumsum(sizes)[:-1])
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    expected = np.add.reduceat(matrix[np.concatenate(groups)], starts, axis=0)
    for rows_per_block in (1, 7, 64, 10_000):  # a group per block … all in one
        monkeypatch.setattr(vector_side, "_GROUP_BLOCK_ROWS", rows_per_block)
        got = row_group_sums(lambda ids: matrix[ids], groups, 8)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_no_groups() -> None:
    assert row_group_sums(lambda ids: ids, [], 4).shape == (0, 4)


def test_groups_of_every_size_and_empty_ones_in_any_order(monkeypatch) -> None:
    rng = np.random.default_rng(5)
    matrix = rng.standard_normal((300, 6), dtype=np.float32)
    sizes = rng.permutation([0, 0, 1, 1, 1, 2, 3, 5, 8, 13, 40, 2, 1, 0, 7])
    groups = [rng.integers(0, 300, int(n)) for n in sizes]
    expected = np.array([matrix[g].sum(axis=0) if len(g) else np.zeros(6) for g in groups])
    monkeypatch.setattr(vector_side, "_GROUP_BLOCK_ROWS", 3)
    got = row_group_sums(lambda ids: matrix[ids], groups, 6)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
