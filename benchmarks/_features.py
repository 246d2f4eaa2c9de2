"""Every memory's evidence for every question of the development sets, as search computes it.

    from benchmarks._features import load_set
    queries = load_set("unans_en_700", "local-multilingual")   # list[QueryFeatures]

For fitting and trying decisions offline: each question is scored by the engine's own
candidate code with every memory a candidate, so the arrays are what search sees (cosine,
its background, BM25, keyword evidence, short, cross, names) plus the query's cosines with
the vault sample and the anchor texts. Kept under ``PIXELMEM_EMBED_CACHE/features`` (a re-run
reads them back). Development sets only.
"""

from __future__ import annotations

import os
import pickle
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CACHE = Path(os.environ.get("PIXELMEM_EMBED_CACHE", ROOT.parent / "calib-cache"))


@dataclass
class QueryFeatures:
    qid: str
    text: str
    cls: str
    relevant: np.ndarray  # per memory (sorted positions)
    values: dict[str, np.ndarray]  # the engine's evidence per memory (_Ranked values)
    score: np.ndarray  # the current relevance per memory
    scripts: np.ndarray  # main_script per memory
    query_script: int
    short: bool
    words: int
    anchors: np.ndarray  # cosines with ANCHOR_TEXTS
    sample: np.ndarray  # cosines with the vault sample
    sample_scripts: np.ndarray
    counts: np.ndarray  # memories per script
    background: np.ndarray  # 2 × 3, as search used it
    extra: dict = field(default_factory=dict)


def _class_of(set_name: str, qid: str, judged: bool) -> str:
    from benchmarks.eval_calibration import class_of

    return class_of(set_name, qid, judged)


def build(name: str, model: str) -> list[QueryFeatures]:
    from benchmarks.eval_calibration import eval_engine, folder_of
    from pixelmem.core.index import search as search_mod
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.index.query import parse_query

    folder = folder_of(name)
    work = CACHE / "vaults" / "features" / f"{name}-{model}"
    engine, doc_of = eval_engine(folder, work, model)
    _, queries, qrels = load_beir(folder)
    index = engine.index
    catalog = index._catalog
    anchors = engine.anchor_vectors()
    out = []
    for qid, text in queries.items():
        judged = {d for d, g in qrels.get(qid, {}).items() if g > 0}
        parsed = parse_query(text)
        vector = engine.query_vector(text)
        bg = index.backgrounds(vector, engine.backgrounds(vector))
        terms = parsed.terms if parsed.terms else None
        mode = "hybrid" if terms is not None else "semantic"
        q = search_mod._Query(
            mode, terms, vector, bg, engine.semantic_weight(text), engine.calibration,
            script=parsed.script, short=parsed.short,
            named=index._named(parsed.key, None),
            names=parsed.names if mode == "hybrid" and parsed.names else None,
            coverage=parsed.coverage,
        )  # fmt: skip
        ranked = index._ranked_candidates(q, None, max(1, catalog.chunk_capacity))
        positions = ranked._sorted_positions
        ids = [str(catalog.ids[m]) for m in positions.tolist()]
        docs = np.array([doc_of.get(i, "") for i in ids])
        sample = index._vault_sample()
        extra_cov = _coverage(index, terms, positions, np.asarray(ranked._sorted_scores))
        out.append(
            QueryFeatures(
                qid=qid, text=text, cls=_class_of(name, qid, bool(judged)),
                relevant=np.isin(docs, list(judged)),
                values={k: np.asarray(v) for k, v in ranked._values.items()},
                score=np.asarray(ranked._sorted_scores),
                scripts=catalog.meta.scripts[positions], query_script=parsed.script,
                short=parsed.short, words=parsed.words,
                anchors=anchors @ vector, sample=sample.vectors @ vector,
                sample_scripts=sample.scripts, counts=sample.counts, background=bg,
                extra={"idf_sum": index._keywords.idf_sum(terms.all) if terms else 0.0,
                       "names": bool(q.names), "named": len(q.named), **extra_cov},
            )
        )  # fmt: skip
    return out


TOP_COVERED = 20


def _coverage(index, terms, positions: np.ndarray, score: np.ndarray) -> dict:
    """Per strong/weak term its idf, and for the TOP_COVERED best memories (by the current
    score and by cosine) which terms each holds (anywhere in its chunks)."""
    from pixelmem.core.index.text_tokens import QueryTerms

    if terms is None:
        return {}
    top = np.argsort(-score, kind="stable")[:TOP_COVERED]
    chosen = positions[top]
    only = index._only(chosen)
    held = {}
    idf = {}
    for term in terms.all:
        idf[term] = index._keywords.idf_sum((term,))
        ids, _ = index._keywords.top_chunks(
            QueryTerms((term,), ()), index._catalog.chunk_capacity, only
        )
        held[term] = np.isin(chosen, index._known_owners(ids))
    return {
        "cov_rows": top,
        "cov_held": held,
        "idf": idf,
        "strong": terms.strong,
        "weak": terms.weak,
    }


def load_set(name: str, model: str = "local-multilingual", fresh: bool = False):
    path = CACHE / "features" / f"{name}-{model}.pickle"
    if path.is_file() and not fresh:
        with path.open("rb") as handle:
            return pickle.load(handle)
    rows = build(name, model)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump(rows, handle)
    return rows


if __name__ == "__main__":
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(CACHE / "config"))
    from benchmarks._features import load_set as load  # pickled under its module name
    from benchmarks.eval_calibration import SETS

    model = sys.argv[1] if len(sys.argv) > 1 else "local-multilingual"
    for set_name in sys.argv[2:] or [*SETS, "xquad_mixed", "unans_x_700_en", "unans_x_750_zh"]:
        rows = load(set_name, model, fresh=True)
        print(set_name, len(rows), file=sys.stderr)
