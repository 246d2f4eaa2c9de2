"""Property: a damaged, truncated, hostile or special file in place of a cache is ignored
(the cache rebuilt), never an exception or a hang (issue 18, items 6 and 8)."""

from __future__ import annotations

import random
from pathlib import Path

import msgpack
import numpy as np
import zstandard

from pixelmem.core.index.cache import CACHE_FILENAME, EmbeddingCache, content_hash
from pixelmem.core.vault import scan_cache
from pixelmem.core.vault.store import MemoryStore

DIM = 4
CASES = 300


def _valid_cache_bytes(path: Path, rng: random.Random) -> bytes:
    cache = EmbeddingCache(path, "m", DIM, {})
    n = rng.randint(1, 20)
    cache.put_many([content_hash(str(i)) for i in range(n)], np.ones((n, DIM), dtype=np.float32))
    cache.save()
    return path.read_bytes()


def _mutate(rng: random.Random, data: bytes) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:  # truncated
        return data[: rng.randrange(len(data))]
    if kind == 1:  # flipped bytes
        raw = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return bytes(raw)
    if kind == 2:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
    if kind == 3:  # a zstd frame announcing a huge size
        return zstandard.ZstdCompressor().compress(b"\x00" * 1000)[:6] + b"\xff" * 12
    if kind == 4:  # valid msgpack with hostile fields
        header = {
            "format": 1,
            "model_id": "m",
            "dim": DIM,
            "chunker": {},
            "hash_size": 16,
            "count": rng.choice([-1, 0, 10**12, "3", None, 2]),
        }
        payload = {
            "header": header,
            "hashes": rng.choice([b"x" * 32, "str", [1, 2], None]),
            "vectors": rng.choice([b"\x00" * 32, np.full(2 * DIM, np.nan, "<f4").tobytes()]),
        }
        return zstandard.ZstdCompressor().compress(msgpack.packb(payload))
    if kind == 5:  # deeply nested msgpack
        nested: object = 1
        for _ in range(rng.choice([100, 2000])):
            nested = [nested]
        try:
            return zstandard.ZstdCompressor().compress(msgpack.packb({"header": nested}))
        except ValueError:
            return b""
    return data  # untouched: must load


def test_hostile_embedding_caches_are_ignored(tmp_path: Path) -> None:
    rng = random.Random(6)
    path = tmp_path / CACHE_FILENAME
    for _ in range(CASES):
        data = _mutate(rng, _valid_cache_bytes(path, rng))
        path.write_bytes(data)
        cache = EmbeddingCache(path, "m", DIM, {})
        warnings = cache.load()
        assert isinstance(warnings, list)
        found, _ = cache.get_many([content_hash(str(i)) for i in range(20)])
        assert np.isfinite(found).all()
        path.unlink()


def test_hostile_scan_caches_are_ignored(vault: Path) -> None:
    rng = random.Random(7)
    (vault / "a.md").write_text("# a\n")
    store = MemoryStore(vault)
    store.scan()
    cache_path = vault / ".pixelmem" / scan_cache.CACHE_FILENAME
    good = cache_path.read_bytes()
    for _ in range(CASES):
        cache_path.write_bytes(_mutate(rng, good))
        result = MemoryStore(vault).scan()
        assert [m.title for m in result.memories] == ["a"]
