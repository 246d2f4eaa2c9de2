"""Search benchmarks: exact top-10, keyword build, hybrid search over a synthetic vault.

Run: ``./dev.sh bench search`` (or ``.venv/bin/python benchmarks/bench_search.py [--quick]``).
Prints numbers and ratios to targets; asserts nothing. faiss-cpu is optional (bench extra).
``--old REF`` measures the vault part of this script against the code of git ref REF too (in a
temporary git worktree, each in a fresh process, old first) and says whether both returned the
same hits (a digest of every hit's id, score, chunk and copies).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pixelmem.core.blas_threads import use_one_blas_thread

# Search as the app and `pixelmem serve` run it: one BLAS thread (they call this before numpy
# loads). With OpenBLAS's own pool on this 2-core VM a hybrid search's p99 went to 100+ ms
# whenever anything else ran. ``--blas-pool`` measures the pool instead.
if "--blas-pool" not in sys.argv:
    use_one_blas_thread()

import numpy as np

from pixelmem.core.index.chunking import Chunk
from pixelmem.core.index.keyword_index import KeywordIndex
from pixelmem.core.index.search import SearchIndex
from pixelmem.core.index.text_tokens import tokenize
from pixelmem.core.index.vector_index import VectorIndex
from pixelmem.core.vault.memory import Memory

DIM = 384
RNG = np.random.default_rng(7)


def unit_rows(n: int) -> np.ndarray:
    m = np.empty((n, DIM), np.float32)
    for start in range(0, n, 100_000):  # in blocks: no float64 temporaries of the whole matrix
        block = RNG.standard_normal((min(100_000, n - start), DIM), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        m[start : start + len(block)] = block
    return m


def timed(fn: Callable[[np.ndarray], object], queries: np.ndarray) -> tuple[float, float]:
    fn(queries[0])  # warm-up (page faults, thread pool start)
    times = []
    for q in queries:
        t = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3, float(np.percentile(times, 99)) * 1e3


def environment() -> None:
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cpus {os.cpu_count()}")
    print(f"load average {os.getloadavg()} (other processes skew every number below)")
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if var in os.environ:
            print(f"  {var}={os.environ[var]}")
    try:
        from threadpoolctl import threadpool_info

        for pool in threadpool_info():
            print(f"  {pool.get('internal_api')} {pool.get('version')} "
                  f"threads={pool.get('num_threads')} arch={pool.get('architecture')}")  # fmt: skip
    except ImportError:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        print(f"  blas: {blas.get('name')} {blas.get('version')} (threadpoolctl not installed)")


def _load_faiss() -> Any:
    try:
        import faiss  # a bench-only dependency, imported lazily
    except ImportError:
        return None
    return faiss


def _faiss_top10(flat: Any) -> Callable[[np.ndarray], object]:
    return lambda q: flat.search(q[None, :], 10)


def bench_top_k(sizes: list[int]) -> None:
    print("\n== exact top-10, cosine over random unit vectors × 384 ==")
    faiss = _load_faiss()
    if faiss is None:
        print("faiss not installed")
    for n in sizes:
        matrix = unit_rows(n)
        index = VectorIndex(matrix)
        queries = unit_rows(20 if n >= 1_000_000 else 60)
        med, p99 = timed(partial(index.top_k, k=10), queries)
        target = 50.0 if n >= 1_000_000 else 5.0
        line = f"n={n:>9,}: numpy median {med:6.2f} ms  p99 {p99:6.2f} ms"
        line += f"  ({matrix.nbytes / med / 1e6:5.1f} GB/s)"
        if n >= 100_000:
            line += f"  median/target({target:.0f} ms) {med / target:.2f}"
        if faiss is not None:
            flat = faiss.IndexFlatIP(DIM)
            flat.add(matrix)
            f_med, f_p99 = timed(_faiss_top10(flat), queries)
            line += f"  | faiss median {f_med:6.2f} ms p99 {f_p99:6.2f}"
            line += f"  numpy/faiss {med / f_med:.2f}"
            del flat
        print(line)
        del matrix, index


def synthetic_vault(memories: int, chunks_per: int = 3) -> tuple[list[Chunk], dict[str, Memory]]:
    """English-like text from a Zipf vocabulary, ~10% Chinese memories, a few rare names."""
    vocab = np.array(["".join(RNG.choice(list("etaoinshrdlucmfwypvbgk"), RNG.integers(2, 10)))
                      for _ in range(30_000)])  # fmt: skip
    weights = 1 / np.arange(1, len(vocab) + 1) ** 1.1
    weights /= weights.sum()
    han = [chr(c) for c in RNG.integers(0x4E00, 0x4E00 + 3000, 3000)]
    chunks, table = [], {}
    for m in range(memories):
        mid = f"m{m:05d}"
        table[mid] = Memory(mid, " ".join(RNG.choice(vocab, 4, p=weights)), topics=["t"])
        for c in range(chunks_per):
            if m % 10 == 9:
                text = "".join(RNG.choice(han, 260)) + "。"
            else:
                text = " ".join(RNG.choice(vocab, 130, p=weights))[:800]
            if m % 1000 == 0 and c == 1:
                text += f" Zorblax-{m} met Okonkwo-Ferreira."
            chunks.append(Chunk(mid, c, c * 800, c * 800 + len(text), text))
    return chunks, table


def bench_vault(memories: int) -> None:
    print(f"\n== synthetic vault: {memories:,} memories ==")
    chunks, table = synthetic_vault(memories)
    texts = [c.text for c in chunks]
    chars = sum(map(len, texts))
    t = time.perf_counter()
    tokens = [tokenize(s) for s in texts]
    t_tok = time.perf_counter() - t
    t = time.perf_counter()
    KeywordIndex.from_tokens(tokens)
    t_idx = time.perf_counter() - t
    print(f"{len(chunks):,} chunks, {chars / 1e6:.1f} M chars: tokenise {t_tok:.2f} s, "
          f"postings {t_idx:.2f} s, keyword build {t_tok + t_idx:.2f} s")  # fmt: skip
    han = [chr(c) for c in RNG.integers(0x4E00, 0x4E00 + 3000, 2000)]
    chinese = ["".join(RNG.choice(han, 267)) for _ in range(len(chunks))]
    t = time.perf_counter()
    for s in chinese:
        tokenize(s)
    print(f"  tokenise {len(chinese):,} all-Chinese chunks of 267 chars (chunk weight 800): "
          f"{time.perf_counter() - t:.2f} s")  # fmt: skip
    try:
        import bm25s

        t = time.perf_counter()
        bm25s.BM25().index(tokens, show_progress=False)
        print(f"  bm25s.index on the same tokens: {time.perf_counter() - t:.2f} s "
              f"(ours, postings only: {t_idx:.2f} s)")  # fmt: skip
    except ImportError:
        print("  bm25s not installed")
    vectors = unit_rows(len(chunks))
    t = time.perf_counter()
    index = SearchIndex.build(chunks, vectors, table)
    print(f"SearchIndex.build (tokenise + postings + metadata): {time.perf_counter() - t:.2f} s")
    edited = list(chunks)
    edited[5] = Chunk(chunks[5].memory_id, 5, 0, 20, "an edited paragraph")
    t = time.perf_counter()
    SearchIndex.build(edited, vectors, table, previous=index)
    print(f"rebuild after editing one chunk (previous=...): {time.perf_counter() - t:.2f} s")
    bench_update(index, chunks)
    words = [w for s in texts[:300] for w in s.split()[:20]]
    queries = [" ".join(RNG.choice(words, RNG.integers(1, 5))) for _ in range(80)]
    queries += ["Zorblax-3000", "Okonkwo-Ferreira budget", texts[29][:6], texts[59][100:104]]
    qvecs = unit_rows(len(queries))
    # The same script measures older checkouts too (before/after figures in one run).
    params = inspect.signature(SearchIndex.search).parameters
    no_floor: dict[str, Any] = {"min_relevance": 0.0} if "min_relevance" in params else {}
    no_floor = no_floor or {"min_score": 0.0}
    if "hubs" in params:  # hub chunks damped as the engine does (core/index/hubs.py)
        from pixelmem.core.index.hubs import HubMeasure

        anchors = np.random.default_rng(7).standard_normal((36, DIM)).astype(np.float32)
        anchors /= np.linalg.norm(anchors, axis=1, keepdims=True)  # RNG's draws stay the old's
        no_floor["hubs"] = HubMeasure.of(anchors, anchors, np.zeros(36, np.int8))
    digest = hashlib.blake2b(digest_size=8)
    pairs = list(zip(queries, qvecs, strict=True))
    # Warm-up: the first queries, and one in Chinese (its first search in a process loads the
    # word segmenter once, ~0.15 s: printed apart, not a search's steady cost).
    chinese = next(p for p in pairs if any("\u4e00" <= ch <= "\u9fff" for ch in p[0]))
    warm = [*pairs[:3], chinese]
    for mode in ("hybrid", "semantic", "keyword"):
        times, cpu = [], []
        for text, vec in warm + pairs:
            t, c = time.perf_counter(), time.thread_time()
            hits = index.search(text, vec, mode=mode, k=5, **no_floor)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            digest.update(_hits_key(hits))
        if mode == "hybrid":
            print(f"first Chinese query of the process (warm-up): {times[3] * 1e3:.1f} ms")
        times, cpu = times[len(warm) :], cpu[len(warm) :]
        med = statistics.median(times) * 1e3
        p99 = float(np.percentile(times, 99)) * 1e3
        # CPU time of the searching thread (one BLAS thread: all of the work) hardly depends
        # on what else the machine runs: the figure to compare on a busy machine.
        c_med, c_p99 = statistics.median(cpu) * 1e3, float(np.percentile(cpu, 99)) * 1e3
        print(f"search {mode:<8} k=5: median {med:5.2f} ms  p99 {p99:5.2f} ms  "
              f"p99/target(10 ms) {p99 / 10:.2f}  (CPU median {c_med:5.2f} p99 {c_p99:5.2f} "
              f"max {max(cpu) * 1e3:5.2f} ms)")  # fmt: skip
    for mode in ("hybrid", "semantic", "keyword"):  # the floor, filters and a deeper k
        for text, vec in zip(queries, qvecs, strict=True):
            hubs = {k: v for k, v in no_floor.items() if k == "hubs"}
            for kwargs in (hubs, {"k": 20, **no_floor}):
                hits = index.search(text, vec, mode=mode, **kwargs)
                digest.update(_hits_key(hits))
    print(f"hits digest: {digest.hexdigest()}")


def _hits_key(hits: list[Any]) -> bytes:
    """Every hit's id, score, chunk and copies; of the hits tied with the last one only the
    score: which of several equal scores make the cut is arbitrary (``np.argpartition``) in the
    old full scan, by index order in the new candidate search."""
    last = hits[-1].score if hits else None
    return repr([
        (h.memory_id, h.score, h.chunk_index, h.semantic_score, h.keyword_score, h.copies)
        if h.score != last else ("tied", h.score)
        for h in hits
    ]).encode()  # fmt: skip


def bench_update(index: SearchIndex, chunks: list[Chunk]) -> None:
    """One memory saved: its chunks replaced in the snapshot (when the code can do that)."""
    if not hasattr(index, "updated"):
        print("SearchIndex.updated: not in this version")
        return
    from pixelmem.core.index.catalog import MemoryChunks

    times = []
    current = index
    rng = np.random.default_rng(11)  # its own: the queries that follow stay those of old runs
    for i in range(20):
        mid = chunks[i * 30].memory_id
        memory = Memory(mid, f"edited note {i}", "")
        texts = [f"an edited paragraph number {i} about bicycles", "and a second one"]
        new = [Chunk(mid, c, 0, len(t), t) for c, t in enumerate(texts)]
        t = time.perf_counter()
        vectors = rng.standard_normal((2, DIM), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        current = current.updated([], [MemoryChunks(mid, memory, new)], vectors=vectors)
        times.append(time.perf_counter() - t)
    print(f"SearchIndex.updated (one memory, 2 new chunks), 20 saves in a row: median "
          f"{statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms")  # fmt: skip


def bench_tokens(rounds: int = 30) -> None:
    """What a borderline decision adds to a search (token_coverage, decision.TokenCheck): the
    e5 model's token vectors of a question and of two chunks of the default size (800
    characters), as SearchIndex._lift asks for them. A search whose decision is not on the
    border asks for none: its cost is a comparison."""
    try:
        from pixelmem.core.providers.embeddings.e5_onnx import E5OnnxEmbedder

        model = E5OnnxEmbedder()
        model.load()
    except Exception as exc:  # the optional model is absent: nothing to measure
        print(f"\ntoken coverage: e5 model unavailable ({exc})")
        return
    words = [
        "the",
        "survey",
        "of",
        "the",
        "river",
        "delta",
        "measured",
        "sediment",
        "after",
        "the",
        "spring",
        "floods",
    ]
    chunk = lambda: " ".join(RNG.choice(words, 140))[:800]  # noqa: E731
    question = "How much sediment did the spring floods leave in the delta?"
    from pixelmem.core.providers.embeddings.local import LocalEmbedder

    minilm = LocalEmbedder()  # the English model: its English decisions are read too
    e5 = model
    for name, language, reader in (
        ("English", lambda t: t, e5),
        ("Chinese", lambda t: "三角洲的沉积物" * 40, e5),
        ("English, MiniLM", lambda t: t, minilm),
    ):
        times = []
        for _ in range(rounds + 1):
            best, other = language(chunk()), language(chunk())
            t = time.perf_counter()
            reader.token_vectors(question, query=True)
            reader.token_vectors(best, query=False)
            reader.token_vectors(other, query=False)
            times.append(time.perf_counter() - t)
        times = times[1:]  # the first run warms the session
        print(f"token coverage of a borderline {name} decision (a question, two 800-character "
              f"chunks): median {statistics.median(times) * 1e3:.1f} ms  "
              f"p99 {float(np.percentile(times, 99)) * 1e3:.1f} ms")  # fmt: skip
    bench_typed_tokens(e5, chunk(), chunk(), question)


def bench_typed_tokens(model: Any, best: str, other: str, question: str) -> None:
    """A question typed word by word, each prefix a borderline search over the same two best
    chunks (what the search panel asks while a person types): the token reads through the
    search's remembering reader (token_coverage.reader_of) against the bare model."""
    from pixelmem.core.index.token_coverage import RememberedTokens

    words = question.split()
    prefixes = [" ".join(words[: i + 1]) for i in range(len(words))]
    for name, reader in (("bare model", model), ("remembered", RememberedTokens(model))):
        t = time.perf_counter()
        for prefix in prefixes:
            reader.token_vectors(prefix, query=True)
            reader.token_vectors(best, query=False)
            reader.token_vectors(other, query=False)
        total = time.perf_counter() - t
        print(f"token coverage while typing {len(prefixes)} prefixes over the same best chunks, "
              f"{name}: {total * 1e3:.0f} ms in all, {total / len(prefixes) * 1e3:.1f} ms a "
              f"search")  # fmt: skip


def compare_with(old_ref: str) -> None:
    """The vault benchmark on ``old_ref``'s code and on this checkout, in fresh processes."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old_tree), old_ref],
                       cwd=root, check=True)  # fmt: skip
        try:
            outputs = {}
            for name, source in (("old " + old_ref, old_tree), ("new", root)):
                # One string hash seed: BM25 sums its terms in hash order, so float rounding
                # (and thus the digest) differs between processes with different seeds.
                env = dict(os.environ, PYTHONPATH=str(source), PYTHONHASHSEED="0")
                outputs[name] = subprocess.run(
                    [sys.executable, __file__, "--vault-only"], env=env, capture_output=True,
                    text=True, check=True,
                ).stdout  # fmt: skip
                print(f"\n######## {name} ({source})\n{outputs[name]}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)],
                           cwd=root, check=False)  # fmt: skip
    digests = [line for out in outputs.values() for line in out.splitlines()
               if line.startswith("hits digest")]  # fmt: skip
    same = len(digests) == 2 and digests[0] == digests[1]
    print(f"\nsame hits (ids, scores, chunks, copies; ties at the cut: scores) old vs new: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the 1M-vector run")
    parser.add_argument("--vault-only", action="store_true", help="only the 10k-memory vault")
    parser.add_argument("--old", help="also run the vault part on this git ref's code")
    parser.add_argument("--blas-pool", action="store_true", help="BLAS's own thread pool")
    parser.add_argument("--tokens", action="store_true",
                        help="only what a borderline decision's token coverage costs")  # fmt: skip
    args = parser.parse_args()
    if args.tokens:
        bench_tokens()
        return
    if args.old:
        compare_with(args.old)
        return
    environment()
    if not args.vault_only:
        bench_top_k([10_000, 100_000] + ([] if args.quick else [1_000_000]))
    bench_vault(10_000)


if __name__ == "__main__":
    main()
