"""Retrieval evaluation on any BEIR-layout directory, through the real engine.

Each corpus document becomes one memory (title + text) in a scratch vault; every query runs in
the chosen mode; nDCG@10 and Recall@100 are averaged over the queries that have judgements.
"""

from __future__ import annotations

import csv
import json
import math
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.search import MODES
from pixelmem.core.settings import Settings
from pixelmem.core.vault.store import MemoryStore

if TYPE_CHECKING:
    from pixelmem.core.providers.embeddings.base import Embedder

Qrels = dict[str, dict[str, int]]


@dataclass(frozen=True)
class EvalResult:
    mode: str
    queries: int
    ndcg_at_10: float
    recall_at_100: float

    def line(self) -> str:
        return (
            f"mode={self.mode} queries={self.queries} "
            f"nDCG@10={self.ndcg_at_10:.4f} Recall@100={self.recall_at_100:.4f}"
        )


def load_beir(folder: Path, split: str = "test") -> tuple[dict[str, dict], dict[str, str], Qrels]:
    """(corpus id → {title, text}, query id → text, qrels) from a BEIR-layout folder."""
    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / name).is_file():
            raise PixelmemError(f"{folder} is not a BEIR folder: {name} is missing")
    corpus = {row["_id"]: row for row in _jsonl(folder / "corpus.jsonl")}
    queries = {row["_id"]: row["text"] for row in _jsonl(folder / "queries.jsonl")}
    return corpus, queries, _qrels(folder / "qrels" / f"{split}.tsv")


def _jsonl(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise PixelmemError(f"{path.name} line {number} is not JSON: {exc.msg}") from None
            row["_id"] = str(row["_id"])
            yield row


def _qrels(path: Path) -> Qrels:
    qrels: Qrels = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        for row in reader:
            if len(row) < 3 or not row[2].strip().lstrip("-").isdigit():
                continue  # header or blank line
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def ndcg_at(ranked: list[str], relevant: Mapping[str, int], k: int = 10) -> float:
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], relevant: Mapping[str, int], k: int = 100) -> float:
    wanted = {doc for doc, g in relevant.items() if g > 0}
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def build_eval_engine(
    folder: Path,
    work: Path,
    settings: Settings,
    progress: Callable[[int, int], None] | None,
    embedder: Embedder | None = None,
) -> tuple[Engine, dict[str, str]]:
    """A vault in ``work`` holding one memory per corpus document (reused if already there);
    ``embedder`` replaces the one the settings name (a benchmark's cached one)."""
    corpus, _, _ = load_beir(folder)
    store = MemoryStore(work)
    existing = {m.source: m.id for m in store.list() if m.source}
    doc_of: dict[str, str] = {}
    for doc_id, row in corpus.items():
        source = f"beir:{doc_id}"
        memory_id = existing.get(source)
        if memory_id is None:
            title = str(row.get("title") or "").strip() or doc_id
            memory_id = store.create(title, str(row.get("text", "")), source=source).id
        doc_of[memory_id] = doc_id
    engine = Engine(settings=settings, store=store, embedder=embedder)
    engine.open(progress=progress)
    return engine, doc_of


def evaluate(
    folder: Path,
    *,
    modes: Sequence[str] = MODES,
    settings: Settings | None = None,
    work: Path | None = None,
    min_relevance: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
) -> list[EvalResult]:
    """nDCG@10 and Recall@100 of each mode in ``modes``, from one scratch vault and index.

    ``min_relevance`` 0 (the default) ranks every memory, as retrieval metrics expect; pass the
    app's floor to see what a person would be shown.
    """
    settings = settings or Settings()
    _, queries, qrels = load_beir(folder)
    results = []
    with tempfile.TemporaryDirectory(prefix="pixelmem-eval-") as scratch:
        engine, doc_of = build_eval_engine(folder, work or Path(scratch), settings, progress)
        judged = [q for q in queries if qrels.get(q)]
        for mode in modes:
            ndcg = recall = 0.0
            for query_id in judged:
                hits = engine.search(
                    queries[query_id], mode=mode, k=100, min_relevance=min_relevance
                )
                ranked = [doc_of[h.memory_id] for h in hits if h.memory_id in doc_of]
                ndcg += ndcg_at(ranked, qrels[query_id])
                recall += recall_at(ranked, qrels[query_id])
            n = max(1, len(judged))
            results.append(EvalResult(mode, len(judged), ndcg / n, recall / n))
    return results
