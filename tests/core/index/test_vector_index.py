"""VectorIndex: exact cosine top-k, masks, related-row queries, thread safety."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from pixelmem.core.index.vector_index import VectorIndex, top_k_of_scores


def _unit_rows(n: int, dim: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, dim), dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _reference(matrix: np.ndarray, q: np.ndarray, k: int, mask=None) -> np.ndarray:
    scores = matrix @ (q / np.linalg.norm(q))
    rows = np.arange(len(matrix)) if mask is None else np.flatnonzero(mask)
    return rows[np.argsort(-scores[rows], kind="stable")][:k]


@pytest.mark.parametrize("k", [1, 10, 57, 999, 1000, 5000])
def test_top_k_equals_a_full_sort_on_random_data(k: int) -> None:
    matrix = _unit_rows(1000, 48)
    index = VectorIndex(matrix)
    for q in _unit_rows(5, 48, seed=1):
        idx, scores = index.top_k(q, k)
        assert idx.dtype == np.int64 and scores.dtype == np.float32
        np.testing.assert_array_equal(idx, _reference(matrix, q, k))
        np.testing.assert_allclose(scores, matrix[idx] @ q, rtol=1e-5, atol=1e-6)
        assert np.all(np.diff(scores) <= 0)


@pytest.mark.parametrize("fraction", [0.05, 0.6])  # gathered rows vs. a full product
def test_mask_restricts_rows_on_both_paths(fraction: float) -> None:
    matrix = _unit_rows(2000, 32)
    mask = np.random.default_rng(2).random(2000) < fraction
    index = VectorIndex(matrix)
    q = _unit_rows(1, 32, seed=3)[0]
    idx, scores = index.top_k(q, 20, mask)
    assert mask[idx].all()
    np.testing.assert_array_equal(idx, _reference(matrix, q, 20, mask))
    np.testing.assert_allclose(scores, matrix[idx] @ q, rtol=1e-5, atol=1e-6)


def test_mask_selecting_fewer_rows_than_k_returns_only_those() -> None:
    index = VectorIndex(_unit_rows(100, 8))
    mask = np.zeros(100, bool)
    mask[[3, 70]] = True
    idx, _ = index.top_k(np.ones(8), 10, mask)
    assert sorted(idx.tolist()) == [3, 70]
    idx, scores = index.top_k(np.ones(8), 10, np.zeros(100, bool))
    assert idx.size == 0 and scores.size == 0


def test_hand_made_vectors_give_exact_cosines() -> None:
    e = np.eye(4, dtype=np.float32)
    diagonal = np.array([1, 1, 0, 0], np.float32) / np.sqrt(2)
    index = VectorIndex(np.stack([e[0], e[1], diagonal]))
    idx, scores = index.top_k(np.array([3, 0, 0, 0], np.float32), 3)  # not unit: normalised
    assert idx.tolist() == [0, 2, 1]
    np.testing.assert_allclose(scores, [1.0, 1 / np.sqrt(2), 0.0], atol=1e-6)


def test_ties_are_ordered_by_row() -> None:
    index = VectorIndex(np.tile(np.eye(3, dtype=np.float32)[0], (6, 1)))
    assert index.top_k(np.array([1, 0, 0]), 6)[0].tolist() == [0, 1, 2, 3, 4, 5]
    assert len(set(index.top_k(np.array([1, 0, 0]), 4)[0].tolist())) == 4


def test_edge_cases_and_validation() -> None:
    empty = VectorIndex.empty(16)
    assert len(empty) == 0 and empty.dim == 16
    assert empty.top_k(np.ones(16), 5)[0].size == 0
    index = VectorIndex(_unit_rows(10, 16))
    assert index.top_k(np.ones(16), 0)[0].size == 0
    assert index.top_k(np.zeros(16), 3)[0].size == 3  # a zero query scores 0 everywhere
    with pytest.raises(ValueError, match="dimension 8"):
        index.top_k(np.ones(8), 3)
    with pytest.raises(ValueError, match="mask has shape"):
        index.top_k(np.ones(16), 3, np.ones(4, bool))
    with pytest.raises(ValueError, match="2-D"):
        VectorIndex(np.ones(16, np.float32))


def test_wraps_without_copying_and_leaves_the_callers_array_writable() -> None:
    matrix = _unit_rows(50, 8)
    index = VectorIndex(matrix)
    assert np.shares_memory(index.matrix, matrix)
    assert matrix.flags.writeable and not index.matrix.flags.writeable
    assert index.matrix.flags.c_contiguous and index.matrix.dtype == np.float32


def test_normalise_option_makes_rows_unit_length() -> None:
    raw = np.array([[3, 4], [0, 0], [0, 2]], np.float64)
    index = VectorIndex(raw, normalise=True)
    np.testing.assert_allclose(np.linalg.norm(index.matrix, axis=1), [1, 0, 1])
    np.testing.assert_allclose(index.scores(np.array([0, 1])), [0.8, 0, 1])


def test_nearest_to_rows_mean_and_max_never_return_the_group() -> None:
    e = np.eye(3, dtype=np.float32)
    rows = np.stack([e[0], e[1], (e[0] + e[1]) / np.sqrt(2), e[2], 0.9 * e[0] + 0.436 * e[2]])
    index = VectorIndex(rows, normalise=True)
    idx, scores = index.nearest_to_rows([0, 1], 5)
    assert idx.tolist()[0] == 2 and 0 not in idx and 1 not in idx
    assert scores[0] == pytest.approx(1.0, abs=1e-6)  # the diagonal is the group's mean
    idx, scores = index.nearest_to_rows([0, 1], 2, reduce="max")
    assert idx.tolist() == [4, 2]  # closest to row 0 alone beats the diagonal under max-sim
    mask = np.array([True, True, False, True, True])
    assert 2 not in index.nearest_to_rows([0], 4, mask=mask)[0]
    assert index.nearest_to_rows([], 3)[0].size == 0
    with pytest.raises(ValueError, match="reduce"):
        index.nearest_to_rows([0], 3, reduce="median")  # type: ignore[arg-type]


def test_top_k_of_scores_with_floor_and_mask() -> None:
    scores = np.array([0.1, 0.9, 0.5, 0.7, 0.3], np.float32)
    assert top_k_of_scores(scores, 2)[0].tolist() == [1, 3]
    assert top_k_of_scores(scores, 5, min_score=0.5)[0].tolist() == [1, 3, 2]
    mask = np.array([True, False, True, False, True])
    idx, values = top_k_of_scores(scores, 5, mask, min_score=0.2)
    assert idx.tolist() == [2, 4] and values.tolist() == pytest.approx([0.5, 0.3])
    assert top_k_of_scores(scores, 0)[0].size == 0


def test_concurrent_queries_from_threads_agree_with_serial_ones() -> None:
    matrix = _unit_rows(5000, 32)
    index = VectorIndex(matrix)
    queries = _unit_rows(64, 32, seed=9)
    expected = [index.top_k(q, 10)[0].tolist() for q in queries]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            got = list(pool.map(lambda q: index.top_k(q, 10)[0].tolist(), queries))
            assert got == expected


@pytest.mark.parametrize("kind", ["random", "ascending", "ties"])
def test_large_score_arrays_take_the_sampled_path_exactly(kind: str) -> None:
    n = 70_000
    scores = {
        "random": np.random.default_rng(5).standard_normal(n).astype(np.float32),
        "ascending": np.arange(n, dtype=np.float32),
        "ties": np.ones(n, np.float32),
    }[kind]
    for k in (1, 10, 100):
        idx, values = top_k_of_scores(scores, k)
        np.testing.assert_array_equal(values, np.sort(scores)[::-1][:k])
        assert len(set(idx.tolist())) == k
