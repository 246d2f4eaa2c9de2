"""Embedding cache save/load of 100k × 384 (target: load ≤ 0.3 s, save ≤ 0.5 s).

Run: .venv/bin/python benchmarks/bench_cache.py [--rows 100000]
The in-run reference is np.save / np.load of the same matrix (no hashes, no compression).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from pixelmem.core.index.cache import EmbeddingCache, content_hash
from pixelmem.core.index.chunking import ChunkerSettings

DIM = 384
MODEL_ID = "local:all-MiniLM-L6-v2-int8"


def median_seconds(fn: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    matrix = rng.standard_normal((args.rows, DIM), dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    hashes = [content_hash(f"chunk {i}") for i in range(args.rows)]
    chunker = ChunkerSettings().as_dict()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "embeddings.msgpack.zst"
        cache = EmbeddingCache(path, MODEL_ID, DIM, chunker)
        cache.put_many(hashes, matrix)

        def save() -> None:
            cache._dirty = True  # force a full write each run
            cache.save()

        def load() -> None:
            fresh = EmbeddingCache(path, MODEL_ID, DIM, chunker)
            assert not fresh.load() and len(fresh) == args.rows

        save_s = median_seconds(save)
        encode_s = median_seconds(cache._encode)
        load_s = median_seconds(load)
        loaded = EmbeddingCache(path, MODEL_ID, DIM, chunker)
        loaded.load()
        get_many_s = median_seconds(lambda: loaded.get_many(hashes))
        size = path.stat().st_size

        npy = Path(tmp) / "matrix.npy"
        np_save_s = median_seconds(lambda: np.save(npy, matrix))
        np_load_s = median_seconds(lambda: np.load(npy))
        npy_size = os.path.getsize(npy)

    print(f"{args.rows} x {DIM} float32 ({matrix.nbytes / 1e6:.0f} MB raw), median of 3 runs")
    print(
        f"cache save: {save_s * 1e3:5.0f} ms (target <= 500)  np.save {np_save_s * 1e3:5.0f} ms"
        f"  ratio {save_s / np_save_s:.2f}x  (cache save includes fsync, np.save does not)"
    )
    print(f"  of which msgpack + zstd encoding: {encode_s * 1e3:.0f} ms (the rest: write + fsync)")
    print(
        f"cache load: {load_s * 1e3:5.0f} ms (target <= 300)  np.load {np_load_s * 1e3:5.0f} ms"
        f"  ratio {load_s / np_load_s:.2f}x"
    )
    print(f"get_many of all {args.rows} hashes after load: {get_many_s * 1e3:.0f} ms")
    print(
        f"file size:  {size / 1e6:5.1f} MB  .npy {npy_size / 1e6:5.1f} MB"
        f"  ratio {size / npy_size:.2f}"
    )


if __name__ == "__main__":
    main()
