"""Choose the near-duplicate rule: precision and recall of duplicate pairs by threshold.

    .venv/bin/python benchmarks/bench_duplicates.py [--model local|multilingual] [--set dev]

Embeds generated vaults (``benchmarks/_dupgen.py``: distinct notes on shared subjects, planted
paraphrases and exact copies, English and Chinese) with a built-in model, then prints, for each
threshold, the pairs found, precision and recall, and what the shipped rule
(``pixelmem/core/insight/duplicates.py``: ``RULE``) gives. Two sets:

* ``dev``: 600 notes, seed 0, 20 % duplicates, 30 % Chinese for e5 (MiniLM: English only).
  The rule was chosen here: the middle of the thresholds where both models keep precision and
  recall ≥ 0.9.
* ``heldout``: 1000 notes, seed 7, 15 % duplicates, 50 % Chinese for e5. Never used to choose.

With ``--verbose`` the raw-cosine rule (vectors alone) is printed too, for comparison.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._dupgen import generate_notes
from pixelmem.core.index.chunking import embedding_text
from pixelmem.core.insight.duplicates import (
    RULE,
    Nearness,
    WordWeights,
    candidate_pairs,
    duplicate_pairs,
    typical_cosine,
)
from pixelmem.core.insight.memory_vectors import MemoryVectors, unit_rows

SETS = {  # name: (notes, seed, duplicate share, Chinese share with the multilingual model)
    "dev": (600, 0, 0.2, 0.3),
    "heldout": (1000, 7, 0.15, 0.5),
}
THRESHOLDS = [round(t, 2) for t in np.arange(0.66, 0.86, 0.02)]


def embedder(name: str):
    """The built-in model, its vectors kept on disk (benchmarks/_embed_cache.py)."""
    from benchmarks._embed_cache import cached_embedder

    return cached_embedder("local-multilingual" if name == "multilingual" else "local")


def personal_notes() -> tuple[list[tuple[str, str]], set[tuple[int, int]]]:
    """benchmarks/data/dup_personal: notes stating the same facts in other words (the truth),
    notes on the same subjects with other facts, and notes on other subjects."""
    import importlib.util

    path = Path(__file__).resolve().parent / "data" / "dup_personal" / "notes.py"
    spec = importlib.util.spec_from_file_location("dup_personal", path)
    assert spec is not None and spec.loader is not None
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    notes: list[tuple[str, str]] = []
    truth = set()
    for title_a, body_a, title_b, body_b in data.SAME:
        notes += [(title_a, body_a), (title_b, body_b)]
        truth.add((len(notes) - 2, len(notes) - 1))
    return notes + list(data.DIFFERENT) + list(data.OTHER), truth


def run_personal(model) -> None:
    notes, truth = personal_notes()
    texts = [embedding_text(title, body) for title, body in notes]
    ids = tuple(str(i) for i in range(len(notes)))
    vectors = MemoryVectors(ids, unit_rows(model.embed_documents(texts)))
    found = {(i, j) for i, j, _ in duplicate_pairs(vectors, texts)}
    k, p, r = score(found, truth)
    print(f"\npersonal: {len(notes)} notes, {len(truth)} pairs stating the same facts in other "
          f"words, {len(notes) - 2 * len(truth)} on the same subjects or others")  # fmt: skip
    print(f"shipped rule: found {k}, precision {p:.3f}, recall {r:.3f}")
    for i, j in sorted(truth - found):
        print(f"  missed: {notes[i][0]} / {notes[j][0]}")
    for i, j in sorted(found - truth):
        print(f"  wrongly paired: {notes[i][0]} / {notes[j][0]}")


def scored_pairs(vectors: MemoryVectors, texts: list[str]) -> list[tuple[int, int, float, float]]:
    """``(i, j, nearness, score)`` for every pair that reaches half the rule's candidate level."""
    near = Nearness(typical_cosine(vectors))
    words = WordWeights(texts)
    out = []
    for i, j, cos in candidate_pairs(vectors, near.cosine(RULE.candidate / 2)):
        n = near.of(cos)
        out.append((i, j, n, (n + words.similarity(i, j)) / 2))
    return out


def score(found: set, truth: set) -> tuple[int, float, float]:
    hit = len(found & truth)
    return len(found), hit / len(found) if found else 1.0, hit / len(truth) if truth else 1.0


def run_set(model, name: str, chinese_allowed: bool, verbose: bool) -> None:
    n, seed, dup_share, chinese = SETS[name]
    chinese = chinese if chinese_allowed else 0.0
    notes, truth = generate_notes(n, seed, duplicate_share=dup_share, chinese_share=chinese)
    texts = [embedding_text(title, body) for title, body in notes]
    vectors = MemoryVectors(
        tuple(str(i) for i in range(len(notes))), unit_rows(model.embed_documents(texts))
    )
    typical = typical_cosine(vectors)
    print(f"\n{name}: {n} notes, seed {seed}, {dup_share:.0%} duplicates, {chinese:.0%} Chinese;")
    print(f"{len(truth.pairs)} duplicate pairs; typical cosine {typical:.3f}")
    pairs = scored_pairs(vectors, texts)
    print("threshold  found  precision  recall")
    for t in [*THRESHOLDS, RULE.threshold]:
        found = {(i, j) for i, j, near, s in pairs if near >= RULE.candidate and s >= t}
        k, p, r = score(found, truth.pairs)
        mark = "  <- shipped rule" if t == RULE.threshold else ""
        if mark or verbose:
            print(f"{t:9.2f} {k:6d} {p:10.3f} {r:7.3f}{mark}")
    if verbose:
        cos = np.triu(vectors.vectors @ vectors.vectors.T, 1)
        rows = []
        for c in np.arange(0.80, 1.0, 0.01):
            found = set(zip(*(x.tolist() for x in np.nonzero(cos >= c)), strict=True))
            _, p, r = score(found, truth.pairs)
            rows.append((2 * p * r / (p + r) if p + r else 0.0, c, p, r))
        _, c, p, r = max(rows)
        print(f"vectors alone, best F1 of raw cosine ≥ {c:.2f}: P {p:.3f}, R {r:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", choices=("local", "multilingual"), default="multilingual")
    ap.add_argument("--set", choices=(*SETS, "personal", "both"), default="both")
    ap.add_argument("--verbose", action="store_true", help="every threshold")
    args = ap.parse_args()
    model = embedder(args.model)
    print(f"{model.model_id}; rule: nearness ≥ {RULE.candidate}, score ≥ {RULE.threshold}")
    for name in SETS if args.set == "both" else (args.set,):
        if name != "personal":
            run_set(model, name, args.model == "multilingual", args.verbose)
    if args.set in ("personal", "both"):
        run_personal(model)


if __name__ == "__main__":
    main()
