"""Measure a vault's leave-one-out null: what a question about a thing the vault does not hold,
answered by a sibling, looks like in THIS vault — and whether it separates questions nothing
answers from right answers better than the standout does.

    python benchmarks/loo_null_probe.py [--sets unans_zh_750 xquad_zh ...] [--probes 150]

For each development vault: up to ``--probes`` memories spread over it; each one's first
sentence is searched (hybrid, explain) in the vault without that memory (SearchFilters
memory_ids: everything else); the best hit's evidence is that vault's null. Printed: the null's
quantiles per vault, then, from fit_decision's cached rows, the standout (and the decision) of
the right-first answers and of the questions nothing answers, as they are and less their
vault's null median, with the AUC between the two. Development sets only.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.eval_calibration import eval_engine, folder_of  # noqa: E402
from benchmarks.fit_decision import CACHE, collect, label  # noqa: E402

FIELDS = ("standout", "semantic", "margin", "coverage", "rank", "score")


def first_sentence(text: str) -> str:
    text = text.strip()
    piece = re.split(r"(?<=[。！？!?])|(?<=\.)\s", text, maxsplit=1)[0]
    return piece[:200].strip()


def probe(name: str, model: str, probes: int) -> dict[str, np.ndarray]:
    from pixelmem.core.index.search_backend import SearchFilters
    from pixelmem.core.vault.store import MemoryStore

    engine, doc_of = eval_engine(
        folder_of(name), CACHE / "vaults" / "decision" / f"{name}-{model}", model
    )
    store = MemoryStore(CACHE / "vaults" / "decision" / f"{name}-{model}")
    memories = {m.id: m for m in store.list()}
    ids = sorted(doc_of)
    step = max(1, len(ids) // probes)
    out: dict[str, list[float]] = {f: [] for f in FIELDS}
    for left_out in ids[::step][:probes]:
        question = first_sentence(memories[left_out].body)
        if not question:
            continue
        others = frozenset(ids) - {left_out}
        hits = engine.search(question, k=3, min_relevance=0.0, explain=True,
                             filters=SearchFilters(memory_ids=others))  # fmt: skip
        if not hits or hits[0].evidence is None:
            continue
        ev = hits[0].evidence
        out["standout"].append(np.nan if ev.standout is None else ev.standout)
        out["semantic"].append(np.nan if ev.semantic is None else ev.semantic)
        out["margin"].append(ev.margin)
        out["coverage"].append(ev.coverage)
        out["rank"].append(float(np.log(ev.rank / max(1e-12, 1 - ev.rank))))
        out["score"].append(hits[0].score)
    return {k: np.asarray(v, float) for k, v in out.items()}


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    pos, neg = pos[np.isfinite(pos)], neg[np.isfinite(neg)]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="stable")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def quant(values: np.ndarray) -> str:
    v = values[np.isfinite(values)]
    if not len(v):
        return "-"
    q = np.percentile(v, [10, 50, 90])
    return f"p10 {q[0]:6.2f} p50 {q[1]:6.2f} p90 {q[2]:6.2f} (n={len(v)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="*", default=["unans_zh_750", "xquad_zh", "unans_zh_40",
                        "unans_en_700", "xquad_en", "unans_en_40"])  # fmt: skip
    parser.add_argument("--model", default="local-multilingual")
    parser.add_argument("--probes", type=int, default=150)
    args = parser.parse_args()
    nulls = {}
    for name in args.sets:
        nulls[name] = probe(name, args.model, args.probes)
        print(
            f"null {name:14s}",
            *(f"{f}: {quant(nulls[name][f])}" for f in ("standout", "semantic")),
            sep="\n  ",
        )
        scores = nulls[name]["score"]
        print(f"  shown at the floor 0.5: {int((scores >= 0.5).sum())} of {len(scores)} probes")
    for field in ("standout", "semantic"):
        print(f"\n== {field}: as is | less the vault's null median")
        pos_all, neg_all, pos_c, neg_c = [], [], [], []
        for name in args.sets:
            rows = collect(name, args.model)
            centre = float(np.nanmedian(nulls[name][field]))
            for want, bucket, moved in ((1.0, pos_all, pos_c), (0.0, neg_all, neg_c)):
                vals = np.array([r.evidence.get(field, np.nan) for r in rows if label(r) == want])
                if len(vals):
                    bucket.append(vals)
                    moved.append(vals - centre)
                    kind = "right first" if want else "nothing answers"
                    print(f"  {name:14s} {kind:15s} {quant(vals)} | {quant(vals - centre)}")
        if pos_all and neg_all:
            print(
                f"  AUC all sets: as is {auc(np.concatenate(pos_all), np.concatenate(neg_all)):.3f}"
                f"  less null {auc(np.concatenate(pos_c), np.concatenate(neg_c)):.3f}"
            )


if __name__ == "__main__":
    main()
