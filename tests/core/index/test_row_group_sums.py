"""row_group_sums: per-group row sums in blocks (a numpy call over every row holds the GIL)."""

from __future__ import annotations

import numpy as np

from pixelmem.core.index import vector_side
from pixelmem.core.index.vector_side import row_group_sums


def test_blocks_sum_exactly_what_one_reduceat_sums(monkeypatch) -> None:
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
        np.testing.assert_array_equal(got, expected)


def test_no_groups() -> None:
    assert row_group_sums(lambda ids: ids, [], 4).shape == (0, 4)
