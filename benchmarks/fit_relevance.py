"""Fit the relevance calibration (pixelmem.core.index.relevance) on development sets, and report it.

    python benchmarks/fit_relevance.py [--sets DIR ...] [--models local,local-multilingual]

For every BEIR-layout development set and embedding model, each query's memories get their
semantic and keyword evidence (exactly as search computes it); the candidates a search would
see (top 10 by each side, plus the judged ones) become training rows labelled relevant or not.
One logistic model per mode is fitted on all of them, each (set, model) pair weighted equally;
pairs where the model cannot read the query language (the English model on Chinese queries)
train only the keyword model, as search then leans on keywords alone.

It prints the coefficients (paste them into CALIBRATION), nDCG@10 per set for each mode with
the fitted scores next to reciprocal-rank fusion, and for each floor the share of answerable
queries whose memory is first and above it and the share of unanswerable queries (those with
no judgement in the floor set) that return nothing.

Only development data: XQuAD en/zh from ../shared/eval, the cross-lingual sets built from them
by make_crosslingual.py, and benchmarks/data/floor_bilingual. Never a test split that is
reported as held-out.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pixelmem.core.index import relevance as rel  # noqa: E402
from pixelmem.core.index.evaluate import build_eval_engine, load_beir, ndcg_at  # noqa: E402
from pixelmem.core.index.text_tokens import split_query  # noqa: E402
from pixelmem.core.settings import Settings  # noqa: E402

TOP = 10
NEGATIVES = 3  # per query: the strongest distractors, which the floor must keep out
BEHIND_MAX = 1.0
RATIO_TIE = 0.001  # nDCG@10 differences smaller than this are noise on these sets
RATIO_MIN_QUERIES = 200  # the ranking weight is chosen on sets this large (not the floor set)


@dataclass
class Rows:
    """Training rows of one (set, model) pair."""

    name: str
    reads_query: bool
    sem: list[np.ndarray] = field(default_factory=list)
    kw: list[np.ndarray] = field(default_factory=list)
    label: list[np.ndarray] = field(default_factory=list)
    # per query: (all memories' sem, kw, relevant mask) for ranking metrics
    queries: list[tuple[np.ndarray | None, np.ndarray | None, np.ndarray, float]] = field(
        default_factory=list
    )


def collect(folder: Path, provider: str, work: Path, fresh: bool = False) -> Rows:
    """Rows of one (set, model) pair; kept in ``work`` so a re-run only refits."""
    saved = work / "rows.pickle"
    if saved.is_file() and not fresh:
        with saved.open("rb") as handle:
            return pickle.load(handle)
    rows = _collect(folder, provider, work)
    with saved.open("wb") as handle:
        pickle.dump(rows, handle)
    return rows


def _collect(folder: Path, provider: str, work: Path) -> Rows:
    settings = Settings()
    settings.embedding.provider = provider
    engine, doc_of = build_eval_engine(folder, work, settings, None)
    _, queries, qrels = load_beir(folder)
    index = engine.index
    ids = index.memory_ids
    docs = np.array([doc_of.get(m, "") for m in ids])
    rows = Rows(f"{folder.name}/{provider}", reads_query=True)
    weights = []
    for qid, text in queries.items():
        judged = qrels.get(qid, {})
        vector = engine.query_vector(text)
        weights.append(engine.semantic_weight(text))
        sem, kw = index.evidence(split_query(text), vector, background=engine.background(vector))
        relevant = np.isin(docs, [d for d, g in judged.items() if g > 0])
        rows.queries.append((sem, kw, relevant, weights[-1]))
        pick = relevant.copy()
        for side in (sem, kw):
            if side is not None:
                pick[np.argsort(-side)[:TOP]] = True
        rows.sem.append(sem[pick] if sem is not None else np.zeros(pick.sum()))
        rows.kw.append(kw[pick] if kw is not None else np.zeros(pick.sum()))
        rows.label.append(relevant[pick])
    rows.reads_query = float(np.mean(weights)) >= 0.5
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Weighted logistic regression by Newton's method; returns [intercept, coef...]."""
    X = np.column_stack([np.ones(len(x)), x])
    beta = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(X @ beta, -30, 30)))
        g = X.T @ (w * (p - y)) + l2 * np.r_[0, beta[1:]]
        H = (X * (w * p * (1 - p))[:, None]).T @ X + l2 * np.eye(X.shape[1])
        step = np.linalg.solve(H, g)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def best_ratio(all_rows: list[Rows]) -> float:
    """Semantic-to-keyword weight of hybrid ranking with the best mean nDCG@10 over the pairs."""
    pairs = [r for r in all_rows if r.reads_query and len(r.queries) >= RATIO_MIN_QUERIES]
    print("\nhybrid ranking: semantic weight per unit of keyword weight → mean nDCG@10")
    scores: dict[float, float] = {}
    for ratio in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0):
        per_pair = []
        for rows in pairs:
            total = n = 0
            for sem, kw, relevant, weight in rows.queries:
                if relevant.any() and sem is not None and weight >= 0.5:
                    kw_ = kw if kw is not None else np.zeros(len(relevant))
                    total += ndcg(ratio * sem + kw_, relevant)
                    n += 1
            per_pair.append(total / max(1, n))
        mean = float(np.mean(per_pair))
        print(f"  {ratio:4.1f}: {mean:.4f}  " + " ".join(f"{x:.3f}" for x in per_pair))
        scores[ratio] = mean
    # Near-ties go to the larger semantic weight: XQuAD's questions copy their passage's words
    # (its README says so), which flatters keywords; notes and held-out sets do that less.
    top = max(scores.values())
    return max(r for r, mean in scores.items() if mean >= top - RATIO_TIE)


def candidates(rows: Rows, mode: str, ratio: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(semantic, keyword, label) of each query's relevant memories and its NEGATIVES best
    non-relevant ones by the mode's own ranking: the distractors a floor must keep out."""
    sems, kws, labels = [], [], []
    for sem, kw, relevant, _ in rows.queries:
        n = len(relevant)
        s_ = sem if sem is not None else np.zeros(n)
        k_ = kw if kw is not None else np.zeros(n)
        rank = {"hybrid": ratio * s_ + k_, "semantic": s_, "keyword": k_}[mode]
        order = np.argsort(-rank)
        negatives = order[~relevant[order]][:NEGATIVES]
        pick = np.concatenate([np.flatnonzero(relevant), negatives])
        sems.append(s_[pick])
        kws.append(k_[pick])
        labels.append(relevant[pick])
    return np.concatenate(sems), np.concatenate(kws), np.concatenate(labels).astype(float)


FAMILY = {"local": "all-minilm-l6", "local-multilingual": "e5-small"}


def family_of(rows: Rows) -> str:
    return FAMILY.get(rows.name.split("/")[-1], "default")


def fit_mode(rows_list: list[Rows], mode: str, ratio: float = 1.0) -> rel.Logistic:
    """One mode's logistic model over ``rows_list``, each pair's classes balanced."""
    xs, ys, ws = [], [], []
    for rows in rows_list:
        if mode != "keyword" and not rows.reads_query:
            continue
        sem, kw, y = candidates(rows, mode, ratio)
        xs.append({"hybrid": ratio * sem + kw, "semantic": sem, "keyword": kw}[mode])
        ys.append(y)
        # Classes balanced within each pair: 0.5 is where relevant and not are equally
        # likely, whatever the share of relevant candidates in a set.
        pos = max(1.0, y.sum())
        neg = max(1.0, len(y) - y.sum())
        ws.append(np.where(y > 0, 0.5 / pos, 0.5 / neg))
    intercept, slope = fit_logistic(np.concatenate(xs), np.concatenate(ys), np.concatenate(ws))
    sem_coef = {"hybrid": slope * ratio, "semantic": slope, "keyword": 0.0}[mode]
    kw_coef = {"hybrid": slope, "semantic": 0.0, "keyword": slope}[mode]
    return rel.Logistic(
        round(float(intercept), 3), round(float(sem_coef), 3), round(float(kw_coef), 3)
    )


def fit(all_rows: list[Rows]) -> dict[str, rel.Calibration]:
    """A calibration per model family seen, and "default" from all of them together."""
    keyword = fit_mode(all_rows, "keyword")
    out = {}
    families = [*sorted({family_of(r) for r in all_rows}), "default"]
    for family in families:
        members = [r for r in all_rows if family in ("default", family_of(r))]
        print(f"\n[{family}]", end="")
        ratio = best_ratio(members)
        hybrid = fit_mode(members, "hybrid", ratio)
        floor_sets = [r for r in members if "floor" in r.name]
        calibration = rel.Calibration(
            hybrid=centre_on_floor(hybrid, floor_sets),
            semantic=fit_mode(members, "semantic"),
            keyword=keyword,
        )
        out[family] = dataclasses.replace(calibration, behind=fit_behind(calibration, members))
    return out


def fit_behind(calibration: rel.Calibration, rows_list: list[Rows]) -> float:
    """The ``behind`` penalty with the best class-balanced likelihood of the hybrid decisions.

    Capped at BEHIND_MAX: every development set has one relevant memory per query, which
    rewards pushing every second hit down; notes often have two or three that matter.
    """
    best, best_ll = 0.0, -np.inf
    for behind in np.arange(0.0, BEHIND_MAX + 1e-9, 0.25):
        trial = dataclasses.replace(calibration, behind=float(behind))
        ll = 0.0
        for rows in rows_list:
            pos_ll = neg_ll = 0.0
            pos = neg = 0
            for sem, kw, relevant, weight in rows.queries:
                if sem is None or kw is None or not relevant.any():
                    continue
                p = np.clip(rel.relevance("hybrid", sem, kw, weight, trial), 1e-9, 1 - 1e-9)
                order = np.argsort(-p)
                negatives = order[~relevant[order]][:NEGATIVES]
                pos_ll += float(np.log(p[relevant]).sum())
                neg_ll += float(np.log(1 - p[negatives]).sum())
                pos += int(relevant.sum())
                neg += len(negatives)
            if pos and neg:
                ll += 0.5 * pos_ll / pos + 0.5 * neg_ll / neg
        if ll > best_ll:
            best, best_ll = float(behind), ll
    print(f"  behind: {best}")
    return best


def centre_on_floor(model: rel.Logistic, floor_sets: list[Rows]) -> rel.Logistic:
    """Shift the intercept so the floor (0.5) sits midway, in logit, between the best
    unanswerable query's top score and the worst answerable query's right first hit.

    The floor sets are the only development data with questions that nothing answers; the
    logistic fit alone places 0.5 between relevant passages and same-article distractors.
    """
    answered, unanswered = [], []
    for rows in floor_sets:
        for sem, kw, relevant, weight in rows.queries:
            if sem is None or kw is None or weight < 1.0:
                continue  # only queries the hybrid model itself scores
            logit = model.logit(sem, kw)
            top = int(np.argmax(logit))
            if not relevant.any():
                unanswered.append(float(logit[top]))
            elif relevant[top]:
                answered.append(float(logit[top]))
    if not answered or not unanswered or min(answered) <= max(unanswered):
        return model
    middle = (min(answered) + max(unanswered)) / 2
    print(f"  floor centring: intercept {model.intercept} -> {model.intercept - middle:.3f}")
    return dataclasses.replace(model, intercept=round(model.intercept - middle, 3))


def rrf(sem: np.ndarray, kw: np.ndarray, weight: float) -> np.ndarray:
    fused = np.zeros(len(sem))
    for side, w in ((sem, weight), (kw, 1.0)):
        order = np.argsort(-side)[:50]
        order = order[np.isfinite(side[order]) & ((side[order] > 0) | (side is sem))]
        fused[order] += w / (61 + np.arange(len(order)))
    return fused


def ndcg(score: np.ndarray, relevant: np.ndarray) -> float:
    order = np.argsort(-score, kind="stable")[:10]
    return ndcg_at([str(i) for i in order], {str(i): 1 for i in np.flatnonzero(relevant)})


def report(all_rows: list[Rows], floors: tuple[float, ...]) -> None:
    print(f"\n{'set/model':<36} {'kw':>7} {'sem':>7} {'rrf':>7} {'hybrid':>7}")
    for rows in all_rows:
        totals = np.zeros(4)
        for sem, kw, relevant, weight in rows.queries:
            if not relevant.any():
                continue
            kw_ = kw if kw is not None else np.zeros(len(relevant))
            cal = rel.CALIBRATIONS.get(family_of(rows), rel.CALIBRATIONS["default"])
            k_score = np.where(kw_ > 0, rel.relevance("keyword", None, kw_, 1.0, cal), -1)
            s_score = rel.relevance("semantic", sem, None, 1.0, cal)
            h_score = rel.relevance("hybrid", sem, kw_, weight, cal)
            totals += [
                ndcg(k_score, relevant),
                ndcg(s_score, relevant),
                ndcg(rrf(sem, kw_, weight), relevant),
                ndcg(h_score, relevant),
            ]
        n = sum(1 for q in rows.queries if q[2].any())
        print(f"{rows.name:<36} " + " ".join(f"{t / n:7.4f}" for t in totals))
    floor_rows = [r for r in all_rows if "floor" in r.name]
    for rows in floor_rows:
        print(f"\nfloor on {rows.name}: answered-first-above / unanswerable-empty")
        for floor in floors:
            good = empty = n_good = n_none = 0
            for sem, kw, relevant, weight in rows.queries:
                kw_ = kw if kw is not None else np.zeros(len(relevant))
                cal = rel.CALIBRATIONS.get(family_of(rows), rel.CALIBRATIONS["default"])
                score = rel.relevance("hybrid", sem, kw_, weight, cal)
                top = int(np.argmax(score))
                if relevant.any():
                    n_good += 1
                    good += bool(relevant[top] and score[top] >= floor)
                else:
                    n_none += 1
                    empty += bool(score[top] < floor)
            print(f"  floor {floor:.2f}: {good}/{n_good}  {empty}/{n_none}")
        if os.environ.get("FIT_VERBOSE"):
            for i, (sem, kw, relevant, weight) in enumerate(rows.queries):
                kw_ = kw if kw is not None else np.zeros(len(relevant))
                cal = rel.CALIBRATIONS.get(family_of(rows), rel.CALIBRATIONS["default"])
                score = rel.relevance("hybrid", sem, kw_, weight, cal)
                top = int(np.argmax(score))
                want = int(np.argmax(relevant)) if relevant.any() else -1
                print(
                    f"  q{i + 1:02d} top={top} want={want} score={score[top]:.3f} "
                    f"sem={sem[top] if sem is not None else 0:.3f} kw={kw_[top]:.3f} "
                    f"want_score={score[want] if want >= 0 else 0:.3f} "
                    f"want_sem={sem[want] if sem is not None and want >= 0 else 0:.3f} "
                    f"want_kw={kw_[want] if want >= 0 else 0:.3f} w={weight:.2f}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", type=Path, default=None)
    parser.add_argument("--models", default="local,local-multilingual")
    parser.add_argument(
        "--crosslingual",
        nargs="*",
        type=Path,
        default=[],
        help="sets whose queries and passages differ in language: multilingual models only",
    )
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pm-fit")
    parser.add_argument("--apply", action="store_true", help="score with the fitted model")
    parser.add_argument("--fresh", action="store_true", help="recollect, ignore saved rows")
    args = parser.parse_args()
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(args.work / "config"))
    sets = args.sets or [
        ROOT.parent / "shared/eval/xquad_en",
        ROOT.parent / "shared/eval/xquad_zh",
        ROOT / "benchmarks/data/floor_bilingual",
    ]
    all_rows = []
    for folder in sets:
        for model in args.models.split(","):
            work = args.work / f"{folder.name}-{model}"
            all_rows.append(collect(folder, model, work, args.fresh))
            print(f"collected {all_rows[-1].name} (reads queries: {all_rows[-1].reads_query})")
    for folder in args.crosslingual:
        for model in args.models.split(","):
            if model in ("local-multilingual",):
                work = args.work / f"{folder.name}-{model}"
                all_rows.append(collect(folder, model, work, args.fresh))
                print(f"collected {all_rows[-1].name}")
    print("\nwith the current CALIBRATION:")
    report(all_rows, (0.3, 0.4, 0.5, 0.6, 0.7))
    fitted = fit(all_rows)
    print("\nfitted:")
    for family, calibration in fitted.items():
        print(f"    {family!r}: {calibration},")
    if args.apply:
        rel.CALIBRATIONS.update(fitted)
        print("\nwith the fitted CALIBRATION:")
        report(all_rows, (0.3, 0.4, 0.5, 0.6, 0.7))
    _ = math


if __name__ == "__main__":
    main()
