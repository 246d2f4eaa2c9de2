"""A cache file holding NaN or infinite vectors: those entries are dropped on load and
embedded again, so semantic search keeps working (issue 18, item 8)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fakes import HashEmbedder

from pixelmem.core.index.cache import CACHE_FILENAME, EmbeddingCache, content_hash
from pixelmem.core.index.engine import Engine
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

DIM = 8


def _poison(cache: EmbeddingCache, rows: dict[int, float]) -> None:
    """Write the cache with the given rows set to a non-finite value (as a damaged file has)."""
    for row, value in rows.items():
        cache._matrix[row, row % cache.dim] = value
    cache._dirty = True
    cache.save()


def test_nonfinite_entries_are_dropped_on_load(vault: Path) -> None:
    path = vault / ".pixelmem" / CACHE_FILENAME
    keys = [content_hash(f"chunk {i}") for i in range(6)]
    rng = np.random.default_rng(8)
    cache = EmbeddingCache(path, "m", DIM, {})
    cache.put_many(keys, rng.standard_normal((6, DIM)).astype(np.float32))
    _poison(cache, {1: np.nan, 4: np.inf, 5: -np.inf})

    loaded = EmbeddingCache(path, "m", DIM, {})
    assert loaded.load() == []
    assert [h in loaded for h in keys] == [True, False, True, True, False, False]
    found, misses = loaded.get_many(keys)
    assert misses == [1, 4, 5] and np.isfinite(found).all()


def test_semantic_search_works_after_a_poisoned_cache(vault: Path) -> None:
    store = MemoryStore(vault)
    store.create("Espresso ratio", "Use 18 g of coffee for 36 g of espresso.")
    store.create("Zorblax-7 launch", "The Zorblax-7 probe launched from Kourou.")
    engine = Engine(vault, Settings(), embedder=HashEmbedder(), store=store)
    engine.open()
    cache = EmbeddingCache(engine.cache_path, HashEmbedder().model_id, HashEmbedder().dim, {})
    cache.chunker = engine._open_cache(HashEmbedder()).chunker  # type: ignore[union-attr]
    assert cache.load() == []
    cache._matrix[: len(cache)] = np.nan
    cache._dirty = True
    cache.save()

    embedder = HashEmbedder()
    report = Engine(vault, Settings(), embedder=embedder).open()
    assert report.embedded == report.chunks > 0  # every poisoned entry embedded again
    again = Engine(vault, Settings(), embedder=HashEmbedder())
    again.open()
    hits = again.search("Zorblax-7 probe Kourou", mode="semantic")
    assert hits and np.isfinite([hit.score for hit in hits]).all()


def test_rows_are_checked_in_blocks_and_none_is_missed(monkeypatch) -> None:
    from pixelmem.core.index import cache as cache_module

    monkeypatch.setattr(cache_module, "_ROWS_PER_CALL", 3)  # blocks end inside the data
    vectors = np.ones((10, 4), np.float32)
    vectors[[2, 3, 9]] = np.nan
    hashes = b"".join(bytes([i]) * 16 for i in range(10))
    kept, rows = cache_module._finite_rows(hashes, vectors)
    assert len(rows) == 7 and np.isfinite(rows).all()
    assert kept == b"".join(bytes([i]) * 16 for i in (0, 1, 4, 5, 6, 7, 8))
