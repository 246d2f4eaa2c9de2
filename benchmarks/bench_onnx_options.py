"""What onnxruntime still leaves on the table for e5-small int8 (E5OnnxEmbedder) here.

    .venv/bin/python benchmarks/bench_onnx_options.py [--rounds 3]

The same 200 English and 200 Chinese chunks (XQuAD passages cut by pixelmem's chunker, as
bench_models) embedded by variants of today's set-up, rounds interleaved so machine load hits
every variant alike; each variant's chunks/s (median round) and its vectors' least cosine with
today's (the target: ≥ 0.999). The variants change one thing each: graph optimisation level,
spinning threads, intra-op threads, several texts at once on one-thread runs (streams: what
the embedder does since round 13, against round 12's one text at a time on two threads), and,
for e5 (one text per call: its activations are quantised per call), nothing batched.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_models import EVAL, chunks_of

from pixelmem.core.providers.embeddings.base import normalise_rows
from pixelmem.core.providers.embeddings.e5_onnx import PASSAGE_PREFIX, E5OnnxEmbedder

TODAY = "today: 2 texts at once × 1 thread (E5OnnxEmbedder)"


def session(
    path: Path, threads: int, level: str = "all", spin: bool = False, save: Path | None = None
):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = {
        "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
        "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
    }[level]
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    if save is not None:
        options.optimized_model_filepath = str(save)
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def e5_variants(embedder: E5OnnxEmbedder) -> dict[str, Callable[[list[str]], np.ndarray]]:
    embedder.load()
    model = embedder.model_dir / "graph.onnx"

    def ids_of(texts: list[str]) -> list[np.ndarray]:
        return [np.asarray(embedder.token_ids(PASSAGE_PREFIX + t), np.int64) for t in texts]

    def one(sess, ids: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids[None, :], "attention_mask": np.ones((1, len(ids)), np.int64)}
        return normalise_rows(sess.run(None, feeds)[0].mean(axis=1))[0]

    def sequential(sess):
        return lambda texts: np.stack([one(sess, x) for x in ids_of(texts)])

    def streams(sess, n: int):
        """``n`` texts at once on one session (its runs release the GIL), one per run."""
        pool = ThreadPoolExecutor(n)
        return lambda texts: np.stack(list(pool.map(lambda x: one(sess, x), ids_of(texts))))

    # The optimised graph names its weights relative to itself: keep them beside it.
    folder = Path(tempfile.mkdtemp(prefix="e5-optimised-"))
    os.link(embedder.model_dir / "weights.bin", folder / "weights.bin")
    saved = folder / "graph.onnx"
    session(model, 2, save=saved)
    return {
        TODAY: embedder.embed_documents,
        "round 12: 2 threads, one text at a time": sequential(session(model, 2)),
        "3 streams × 1 thread": streams(session(model, 1), 3),
        "2 streams × 2 threads": streams(session(model, 2), 2),
        "1 thread, one text at a time": sequential(session(model, 1)),
        "2 threads, EXTENDED optimisation": sequential(session(model, 2, "extended")),
        "2 threads, spinning": sequential(session(model, 2, spin=True)),
        "2 threads, cached optimised graph (BASIC)": sequential(session(saved, 2, "basic")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sets = {"en": chunks_of(EVAL / "xquad_en", 200), "zh": chunks_of(EVAL / "xquad_zh", 200)}
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()}")
    variants = e5_variants(E5OnnxEmbedder())
    reference = {lang: variants[TODAY](c) for lang, c in sets.items()}
    rates: dict[str, dict[str, list[float]]] = {v: {"en": [], "zh": []} for v in variants}
    cosines: dict[str, float] = dict.fromkeys(variants, 1.0)
    for round_no in range(args.rounds):
        for name, embed in variants.items():
            for lang, chunks in sets.items():
                start = time.perf_counter()
                vectors = embed(chunks)
                rates[name][lang].append(len(chunks) / (time.perf_counter() - start))
                least = float(np.min(np.sum(vectors * reference[lang], axis=1)))
                cosines[name] = min(cosines[name], least)
            print(f"  round {round_no + 1} {name:44} en {rates[name]['en'][-1]:5.1f} "
                  f"zh {rates[name]['zh'][-1]:5.1f} chunks/s", flush=True)  # fmt: skip
    print(f"\nmedian of {args.rounds} rounds, load {os.getloadavg()}:")
    base = statistics.median(rates[TODAY]["en"] + rates[TODAY]["zh"])
    for name in variants:
        en, zh = (statistics.median(rates[name][lang]) for lang in ("en", "zh"))
        both = statistics.median(rates[name]["en"] + rates[name]["zh"])
        print(f"  {name:44} en {en:5.1f} zh {zh:5.1f} chunks/s  ×{both / base:.2f} today  "
              f"least cosine with today's {cosines[name]:.5f}")  # fmt: skip


if __name__ == "__main__":
    main()
