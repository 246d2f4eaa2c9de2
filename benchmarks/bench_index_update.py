"""One saved memory → an up-to-date search snapshot, at 7,500 memories / 30k chunks.

Run: ``.venv/bin/python benchmarks/bench_index_update.py [--memories N] [--old REF]``.
Measures ``Indexer.build(memories, previous=snapshot)`` after editing one memory (what the app
does after every save), with the embedding cache on disk and without a cache. ``--old REF`` also
measures the code of git ref REF (a temporary git worktree, fresh processes, old first).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DIM = 384


class RandomEmbedder:
    """Instant unit vectors (what is measured is the indexing around the model)."""

    model_id = "bench-random"
    dim = DIM

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        rng = np.random.default_rng(len(texts))
        m = rng.standard_normal((len(texts), DIM), dtype=np.float32)
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


def memories(n: int) -> list:
    from pixelmem.core.vault.memory import Memory

    rng = np.random.default_rng(3)
    vocab = [
        "".join(rng.choice(list("etaoinshrdlucmfw"), rng.integers(2, 9))) for _ in range(20000)
    ]
    weights = 1 / np.arange(1, len(vocab) + 1) ** 1.1
    weights /= weights.sum()
    out = []
    for i in range(n):
        paragraphs = [" ".join(rng.choice(vocab, 120, p=weights)) for _ in range(3)]
        memory = Memory(f"m{i:06d}", f"note {i}", "\n\n".join(paragraphs), topics=["t"])
        memory.disk_hash = f"file-{i}"  # as the store reads it: equal hash, same file
        out.append(memory)
    return out


def measure(n: int, with_cache: bool, work: Path) -> dict[str, float]:
    from pixelmem.core.index.cache import EmbeddingCache
    from pixelmem.core.index.chunking import ChunkerSettings
    from pixelmem.core.index.indexer import Indexer
    from pixelmem.core.vault.memory import Memory

    table = memories(n)
    chunker = ChunkerSettings()
    cache = None
    if with_cache:
        cache = EmbeddingCache(work / "cache.msgpack.zst", "bench-random", DIM, chunker.as_dict())
    indexer = Indexer(RandomEmbedder(), cache, chunker)  # type: ignore[arg-type]
    t = time.perf_counter()
    snapshot, report = indexer.build(table)
    first = time.perf_counter() - t
    times = []
    for edit in range(8):
        i = edit * 97 % n
        old = table[i]
        table[i] = Memory(old.id, old.title, old.body + f" edited {edit}", topics=old.topics)
        table[i].disk_hash = f"file-{i}-edit-{edit}"
        t = time.perf_counter()
        snapshot, report = indexer.build(table, previous=snapshot)
        times.append(time.perf_counter() - t)
    return {
        "chunks": report.chunks, "first": first, "median": statistics.median(times),
        "max": max(times), "embedded": report.embedded,
    }  # fmt: skip


def run_child(source: Path, n: int, with_cache: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(source))
    with tempfile.TemporaryDirectory() as work:
        args = [sys.executable, __file__, "--child", "--memories", str(n), "--work", work]
        out = subprocess.run(
            args + (["--cache"] if with_cache else []), env=env, capture_output=True, text=True,
            check=True,
        ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=7_500)  # 30k chunks
    parser.add_argument("--old", help="git ref of the code to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cache", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.memories, args.cache, Path(args.work))))
        return
    print(f"load average {os.getloadavg()} (other processes skew every number below)")
    trees = [("new", ROOT)]
    with tempfile.TemporaryDirectory() as tmp:
        if args.old:
            old_tree = Path(tmp) / "old"
            subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old_tree),
                            args.old], cwd=ROOT, check=True)  # fmt: skip
            trees.insert(0, (f"old {args.old}", old_tree))
        try:
            for with_cache in (False, True):
                for name, source in trees:
                    r = run_child(source, args.memories, with_cache)
                    cache = "disk" if with_cache else "none"
                    print(f"{name:<14} cache={cache:<4} {r['chunks']:,.0f} chunks: first build "
                          f"{r['first']:.1f} s; one memory saved → snapshot: median "
                          f"{r['median'] * 1e3:.0f} ms, max {r['max'] * 1e3:.0f} ms "
                          f"({r['embedded']:.0f} embedded)")  # fmt: skip
        finally:
            if args.old:
                subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)],
                               cwd=ROOT, check=False)  # fmt: skip


if __name__ == "__main__":
    main()
