"""numpy_pieces: the same arrays as the one numpy call, built in pieces (small pieces here, so
every boundary case is crossed)."""

from __future__ import annotations

import numpy as np
import pytest

from pixelmem.core.index import numpy_pieces


@pytest.fixture(params=[1, 3, 7, 1 << 18])
def piece(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(numpy_pieces, "PIECE", request.param)
    return int(request.param)


def _counts(rng: np.random.Generator, n: int) -> np.ndarray:
    counts = rng.integers(0, 9, n)
    counts[rng.random(n) < 0.2] = 0  # empty documents: spans that add nothing
    if n:
        counts[rng.integers(0, n)] = 40  # one longer than several pieces
    return counts


def test_repeat_is_np_repeat(piece: int) -> None:
    rng = np.random.default_rng(piece)
    for n in (0, 1, 2, 17, 500):
        counts = _counts(rng, n)
        values = rng.integers(-(1 << 62), 1 << 62, n)
        got = numpy_pieces.repeat(values, counts)
        assert got.dtype == np.repeat(values, counts).dtype
        np.testing.assert_array_equal(got, np.repeat(values, counts))
    floats = rng.random(30).astype(np.float32)
    np.testing.assert_array_equal(
        numpy_pieces.repeat(floats, _counts(rng, 30) * 0), np.zeros(0, np.float32)
    )


def test_concatenate_is_np_concatenate(piece: int) -> None:
    rng = np.random.default_rng(piece + 1)
    for n in (0, 1, 5, 300):
        parts = [rng.integers(0, 1 << 40, int(c)) for c in _counts(rng, n)]
        got = numpy_pieces.concatenate(parts, np.int64)
        expected = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, expected)


def test_count_up_is_cumsum() -> None:
    rng = np.random.default_rng(5)
    for n in (0, 1, 1000):
        mask = rng.random(n) < 0.3
        got = numpy_pieces.count_up(mask)
        assert got.dtype == np.cumsum(mask).dtype
        np.testing.assert_array_equal(got, np.cumsum(mask))


def test_a_late_window_runs_between_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each piece is one numpy call that keeps the GIL: work nobody waits for offers the
    window a step after every one (core/step_aside), not once per whole array."""
    steps: list[int] = []
    monkeypatch.setattr(numpy_pieces, "PIECE", 4)
    monkeypatch.setattr(numpy_pieces, "step_aside", lambda: steps.append(1) or False)
    parts = [np.arange(3, dtype=np.int64) for _ in range(8)]  # 24 elements: 6 pieces of 4
    numpy_pieces.concatenate(parts, np.int64)
    assert len(steps) >= 4
    steps.clear()
    numpy_pieces.repeat(np.arange(6, dtype=np.int64), np.full(6, 4))  # 24 out: 6 pieces
    assert len(steps) >= 4
