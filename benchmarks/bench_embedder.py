"""Local embedder throughput and query latency (target: ≥ 25 chunks/s of ≤ 256 tokens, 2 cores).

Run: .venv/bin/python benchmarks/bench_embedder.py [--chunks 160] [--rounds 3]
The in-run reference is the same embedder with length-sorting switched off.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pixelmem.core.providers.embeddings.local import LocalEmbedder

PROSE = (
    "the memory of a person is a vault of notes about projects meetings ideas and books that "
    "they want to find again later when a question comes up so search must understand meaning "
    "not only keywords while the index stays fresh as files change on disk every day and the "
    "application never freezes because embedding runs on a worker thread with small batches "
    "sorted by length so little padding is computed on two cores of an ordinary laptop which "
    "should be enough for ten thousand memories with overlapping chunks of eight hundred "
    "characters each including headings code blocks lists tables and links to other notes"
)
WORDS = PROSE.split()


def make_chunks(count: int, seed: int = 7) -> list[str]:
    """English prose chunks of about 120–256 tokens, lengths spread evenly, shuffled."""
    rng = random.Random(seed)
    chunks = []
    for _ in range(count):
        n_words = rng.randint(105, 230)
        words = [rng.choice(WORDS) for _ in range(n_words)]
        sentences, i = [], 0
        while i < len(words):
            step = rng.randint(8, 20)
            sentences.append(" ".join(words[i : i + step]).capitalize() + ".")
            i += step
        chunks.append(" ".join(sentences))
    return chunks


def throughput(embedder: LocalEmbedder, chunks: list[str]) -> tuple[float, float]:
    """(chunks per wall-clock second, CPU seconds per chunk)."""
    wall, cpu = time.perf_counter(), time.process_time()
    embedder.embed_documents(chunks)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return len(chunks) / wall, cpu / len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=160)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    chunks = make_chunks(args.chunks)
    sorted_embedder = LocalEmbedder()
    unsorted_embedder = LocalEmbedder(sort_by_length=False)
    tokenizer = sorted_embedder._ensure_loaded()[1]
    lengths = [len(e.ids) for e in tokenizer.encode_batch(chunks)]
    for embedder in (sorted_embedder, unsorted_embedder):
        embedder.embed_documents(chunks[:32])  # warm-up

    # Interleaved rounds, so a busy neighbour slows both variants alike.
    runs: dict[str, list[tuple[float, float]]] = {"sorted": [], "unsorted": []}
    for _ in range(args.rounds):
        runs["unsorted"].append(throughput(unsorted_embedder, chunks))
        runs["sorted"].append(throughput(sorted_embedder, chunks))

    rng = random.Random(3)
    queries = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10))) for _ in range(50)]
    for q in queries[:5]:
        sorted_embedder.embed_query(q)
    latencies = []
    for q in queries:
        start = time.perf_counter()
        sorted_embedder.embed_query(q)
        latencies.append((time.perf_counter() - start) * 1000)
    latencies.sort()

    print(
        f"{len(chunks)} chunks, tokens min/median/max {min(lengths)}/"
        f"{int(statistics.median(lengths))}/{max(lengths)}; 2 intra-op threads, batches of 16; "
        f"{args.rounds} interleaved rounds"
    )
    best = {}
    for name, results in runs.items():
        rates = [rate for rate, _ in results]
        best[name] = max(rates)
        cpu_ms = statistics.median(cpu for _, cpu in results) * 1000
        print(
            f"{name:>8}: best {max(rates):5.1f} chunks/s, median {statistics.median(rates):5.1f}"
            f" chunks/s, {cpu_ms:5.1f} CPU-ms/chunk"
        )
    print(
        f"target >= 25 chunks/s; sorted/unsorted (best): {best['sorted'] / best['unsorted']:.2f}x"
    )
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    print(
        f"query latency over {len(latencies)} short queries: "
        f"median {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms"
    )


if __name__ == "__main__":
    main()
