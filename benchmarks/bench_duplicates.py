"""Choose the near-duplicate threshold: precision and recall of duplicate pairs by threshold.

    .venv/bin/python benchmarks/bench_duplicates.py [--n 600] [--model local|multilingual]

Embeds a generated vault (``benchmarks/_dupgen.py``: distinct notes on shared subjects, planted
paraphrases and exact copies, English and Chinese) with a built-in model, then prints, for each
threshold, the pairs found, precision and recall. The thresholds in
``pixelmem/core/insight/duplicates.py`` are the ones this picks (best F1 with both ≥ 0.9).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._dupgen import generate_notes
from pixelmem.core.index.indexer import embedding_text
from pixelmem.core.insight.duplicates import WordWeights, candidate_pairs, rule_for
from pixelmem.core.insight.memory_vectors import MemoryVectors, unit_rows


def embedder(name: str):
    if name == "multilingual":
        from pixelmem.core.providers.embeddings.multilingual import MultilingualEmbedder

        return MultilingualEmbedder()
    from pixelmem.core.providers.embeddings.local import LocalEmbedder

    return LocalEmbedder()


def sweep(vectors, texts, truth, candidates, thresholds) -> list[tuple]:
    """(candidate, threshold, found, precision, recall, f1) per rule, plus vectors alone
    (candidate = threshold, no words) for comparison: those rows have threshold 0."""
    pairs = candidate_pairs(vectors, min(candidates))
    words = WordWeights(texts)
    scored = [(i, j, cos, (cos + words.similarity(i, j)) / 2) for i, j, cos in pairs]
    rows = []
    for c in candidates:
        rows.append((c, 0.0, *_score({(i, j) for i, j, cos, _ in scored if cos >= c}, truth)))
        for t in thresholds:
            found = {(i, j) for i, j, cos, both in scored if cos >= c and both >= t}
            rows.append((c, t, *_score(found, truth)))
    return rows


def _score(found: set, truth: set) -> tuple[int, float, float, float]:
    hit = len(found & truth)
    p = hit / len(found) if found else 1.0
    r = hit / len(truth) if truth else 1.0
    return len(found), p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", choices=("local", "multilingual"), default="local")
    ap.add_argument("--chinese", type=float, default=None, help="share of Chinese notes")
    ap.add_argument("--verbose", action="store_true", help="every pair of thresholds")
    args = ap.parse_args()
    chinese = args.chinese if args.chinese is not None else (0.0 if args.model == "local" else 0.3)
    notes, truth = generate_notes(args.n, args.seed, chinese_share=chinese)
    model = embedder(args.model)
    texts = [embedding_text(title, body) for title, body in notes]
    vectors = MemoryVectors(
        tuple(str(i) for i in range(len(notes))), unit_rows(model.embed_documents(texts))
    )
    candidates = [round(t, 2) for t in np.arange(0.70, 0.99, 0.01)]
    thresholds = [round(t, 2) for t in np.arange(0.70, 0.99, 0.01)]
    rule = rule_for(model.model_id)
    print(f"{model.model_id}: {len(notes)} notes, {len(truth.pairs)} duplicate pairs")
    print("candidate  threshold  found  precision  recall   f1   (threshold 0: vectors alone)")
    rows = sweep(vectors, texts, truth.pairs, candidates, thresholds)
    for row in rows:
        c, t, found, p, r, f1 = row
        if args.verbose or (c, t) == (rule.candidate, rule.threshold):
            print(f"{c:9.2f} {t:10.2f} {found:6d} {p:10.3f} {r:7.3f} {f1:6.3f}")
    alone = max((row for row in rows if row[1] == 0.0), key=lambda row: row[5])
    print(f"vectors alone, best F1: cosine {alone[0]:.2f}: P {alone[3]:.3f}, R {alone[4]:.3f}")
    good = [row for row in rows if row[3] >= 0.9 and row[4] >= 0.9 and row[1] > 0]
    if good:
        c, t, _, p, r, _ = max(good, key=lambda row: row[5])
        print(f"best rule with P, R >= 0.9: candidate {c:.2f}, threshold {t:.2f}:", end=" ")
        print(f"P {p:.3f}, R {r:.3f}")
    else:
        print("no rule reaches precision and recall 0.9")


if __name__ == "__main__":
    main()
