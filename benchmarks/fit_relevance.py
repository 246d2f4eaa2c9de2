"""Fit the relevance calibration (pixelmem.core.index.relevance) on development sets, and report it.

    python benchmarks/fit_relevance.py [--sets DIR ...] [--models local,local-multilingual]
                                       [--apply] [--fresh] [--refit-base]

For every BEIR-layout development set and embedding model, each query's memories get their
semantic and keyword evidence and the other features (exactly as search computes them: other
script, short query, named). It prints, in one run, nDCG@10 and Recall@100 per mode, and for
hybrid at the floor the answerable queries whose first hit is relevant and above it and the
unanswerable ones (no judgement) that get nothing: first with the calibration of 06cdce2 and
no extra features (BEFORE, the same-run reference), then with the calibration in the code.

Fitting (``--apply`` reports the fitted calibration too; paste it into CALIBRATIONS): the base
model (intercept, evidence weights, ``behind``) is held fixed (``--refit-base`` fits it again
on the base sets: XQuAD en/zh, the cross-lingual sets, the floor set) and the extra terms are
fitted against it as an offset, each on the rows where it is not zero, classes balanced per
(set, model) pair:

* ``short·kw`` on the short queries (names_bilingual, the floor set's short ones);
* ``cross`` and ``cross·sem`` on the memories in another script than their question
  (xquad_zh2en, xquad_en2zh, xquad_mixed, the floor set), multilingual model only;

then each is made smaller until it lifts no unanswerable question of the floor set to the floor.

Only development data: XQuAD en/zh from shared/eval, the sets built from them by
make_crosslingual.py and make_names.py, and benchmarks/data/floor_bilingual. Never a test split
that is reported as held-out.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._embed_cache import cached_embedder  # noqa: E402
from pixelmem.core.index import relevance as rel  # noqa: E402
from pixelmem.core.index.evaluate import build_eval_engine, load_beir, ndcg_at  # noqa: E402
from pixelmem.core.index.scripts import main_script  # noqa: E402
from pixelmem.core.index.text_tokens import split_query  # noqa: E402
from pixelmem.core.settings import Settings  # noqa: E402

EVAL = ROOT.parent.parent / "shared" / "eval"  # /work/shared/eval beside a worktree
if not EVAL.is_dir():
    EVAL = ROOT.parent / "shared" / "eval"
DATA = ROOT / "benchmarks" / "data"
EXTRA_L2 = 0.01  # ridge on the extra features' coefficients (each pair's weights sum to 1)
FLOOR_MARGIN = 0.1  # logits between the floor and the best unanswerable floor-set query
NEGATIVES = 3  # per query: the strongest distractors, which the floor must keep out
BEHIND_MAX = 1.0
RATIO_TIE = 0.001  # nDCG@10 differences smaller than this are noise on these sets
RATIO_MIN_QUERIES = 200  # the ranking weight is chosen on sets this large (not the floor set)


@dataclass
class Query:
    """One query of a set: every memory's evidence and features, and which are relevant."""

    sem: np.ndarray | None
    kw: np.ndarray | None
    sem_before: np.ndarray | None  # against the one background of 06cdce2 (the reference)
    relevant: np.ndarray
    weight: float  # the engine's semantic weight for it
    cross: np.ndarray  # per memory: written in another script than the query
    short: bool
    named: np.ndarray  # per memory: the query is its name

    def side(self, which: str) -> np.ndarray:
        value = self.sem if which == "sem" else self.kw
        return value if value is not None else np.zeros(len(self.relevant))


@dataclass
class Rows:
    """The queries of one (set, model) pair."""

    name: str
    reads_query: bool
    queries: list[Query] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)  # the query ids, in order


def collect(folder: Path, provider: str, work: Path, fresh: bool = False) -> Rows:
    """Rows of one (set, model) pair; kept in ``work`` so a re-run only refits."""
    saved = work / "queries.pickle"
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
    engine, doc_of = build_eval_engine(folder, work, settings, None, cached_embedder(provider))
    _, queries, qrels = load_beir(folder)
    index = engine.index
    docs = np.array([doc_of.get(m, "") for m in index.memory_ids])
    rows = Rows(f"{folder.name}/{provider}", reads_query=True)
    for qid, text in queries.items():
        judged = qrels.get(qid, {})
        vector = engine.query_vector(text)
        background = engine.backgrounds(vector)
        sem, kw = index.evidence(
            split_query(text), vector, background=background, script=main_script(text),
            hubs=engine.hub_measure() if hasattr(engine, "hub_measure") else None,
        )  # fmt: skip
        before, _ = index.evidence(None, vector, background=engine.background(vector))
        relevant = np.isin(docs, [d for d, g in judged.items() if g > 0])
        cross, short, named = index.relevance_features(text)
        weight = engine.semantic_weight(text)
        rows.queries.append(Query(sem, kw, before, relevant, weight, cross, short, named))
    rows.reads_query = float(np.mean([q.weight for q in rows.queries])) >= 0.5
    return rows


def score(query: Query, mode: str, cal: rel.Calibration, features: bool = True) -> np.ndarray:
    """Each memory's relevance in ``mode`` as search computes it (-1: not listed at all).

    ``features`` False scores as search did before the name rule, the short-query and the
    other-script features (with a calibration that has none, the old model exactly).
    """
    extra = {"cross": query.cross, "short": query.short, "named": query.named} if features else {}
    named = query.named if features else np.zeros(len(query.relevant), bool)
    sem = query.sem if features else query.sem_before
    kw = query.side("kw")
    if mode == "semantic" or query.kw is None:
        if sem is None:
            return np.full(len(kw), -1.0)
        return rel.relevance("semantic", sem, None, 1.0, cal, **extra)
    if mode == "keyword" or sem is None:
        listed = rel.relevance("keyword", None, kw, 1.0, cal, **extra)
        return np.where((kw > 0) | named, listed, -1.0)
    return rel.relevance("hybrid", sem, kw, query.weight, cal, **extra)


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    l2: float = 1e-3,
    offset: np.ndarray | None = None,
    intercept: bool = True,
) -> np.ndarray:
    """Weighted logistic regression by Newton's method; returns [intercept, coef...] (no
    intercept with ``intercept`` False). ``offset``: a fixed part of each row's logit."""
    X = np.column_stack([np.ones(len(x)), x]) if intercept else np.asarray(x, np.float64)
    base = np.zeros(len(X)) if offset is None else offset
    beta = np.zeros(X.shape[1])
    ridge = l2 * np.eye(X.shape[1])
    if intercept:
        ridge[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(base + X @ beta, -30, 30)))
        g = X.T @ (w * (p - y)) + ridge @ beta
        H = (X * (w * p * (1 - p))[:, None]).T @ X + ridge + 1e-9 * np.eye(X.shape[1])
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
            for q in rows.queries:
                if q.relevant.any() and q.sem is not None and q.weight >= 0.5:
                    total += ndcg(ratio * q.sem + q.side("kw"), q.relevant)
                    n += 1
            per_pair.append(total / max(1, n))
        mean = float(np.mean(per_pair))
        print(f"  {ratio:4.1f}: {mean:.4f}  " + " ".join(f"{x:.3f}" for x in per_pair))
        scores[ratio] = mean
    # Near-ties go to the larger semantic weight: XQuAD's questions copy their passage's words
    # (its README says so), which flatters keywords; notes and held-out sets do that less.
    top = max(scores.values())
    return max(r for r, mean in scores.items() if mean >= top - RATIO_TIE)


def candidates(
    rows: Rows, mode: str, ratio: float, only: str = ""
) -> tuple[list[Query], list[np.ndarray]]:
    """Each query's relevant memories and its NEGATIVES best non-relevant ones by the mode's own
    ranking (the distractors a floor must keep out), plus, for ``only="cross"``, its NEGATIVES
    best ones in another script. ``only="short"`` keeps the short queries alone."""
    picked_queries, picks = [], []
    for q in rows.queries:
        if only == "short" and not q.short:
            continue
        s_, k_ = q.side("sem"), q.side("kw")
        rank = {"hybrid": ratio * s_ + k_, "semantic": s_, "keyword": k_}[mode]
        order = np.argsort(-rank, kind="stable")
        wrong = order[~q.relevant[order]]
        pick = [np.flatnonzero(q.relevant), wrong[:NEGATIVES]]
        if only == "cross":
            pick.append(wrong[q.cross[wrong]][:NEGATIVES])
        picked_queries.append(q)
        picks.append(np.unique(np.concatenate(pick)))
    return picked_queries, picks


def _balanced(y: np.ndarray) -> np.ndarray:
    """Weights that give the relevant and the other rows of one pair half the say each: 0.5 is
    where relevant and not are equally likely, whatever the share of relevant candidates."""
    pos = max(1.0, y.sum())
    neg = max(1.0, len(y) - y.sum())
    return np.where(y > 0, 0.5 / pos, 0.5 / neg)


FAMILY = {"local": "all-minilm-l6", "local-multilingual": "e5-small"}


def family_of(rows: Rows) -> str:
    return FAMILY.get(rows.name.split("/")[-1], "default")


def fit_mode(rows_list: list[Rows], mode: str, ratio: float = 1.0) -> rel.Logistic:
    """The base model of one mode (intercept and the evidence, no extra feature) over the base
    sets of ``rows_list``, each pair's classes balanced."""
    xs, ys, ws = [], [], []
    for rows in rows_list:
        if not is_base(rows) or (mode != "keyword" and not rows.reads_query):
            continue
        queries, picks = candidates(rows, mode, ratio)
        x = np.concatenate(
            [
                {"hybrid": ratio * q.side("sem") + q.side("kw"), "semantic": q.side("sem"),
                 "keyword": q.side("kw")}[mode][pick]
                for q, pick in zip(queries, picks, strict=True)
            ]
        )  # fmt: skip
        y = np.concatenate([q.relevant[pick] for q, pick in zip(queries, picks, strict=True)])
        xs.append(x)
        ys.append(y.astype(float))
        ws.append(_balanced(y))
    intercept, slope = fit_logistic(np.concatenate(xs), np.concatenate(ys), np.concatenate(ws))
    sem_coef = {"hybrid": slope * ratio, "semantic": slope, "keyword": 0.0}[mode]
    kw_coef = {"hybrid": slope, "semantic": 0.0, "keyword": slope}[mode]
    return rel.Logistic(
        round(float(intercept), 3), round(float(sem_coef), 3), round(float(kw_coef), 3)
    )


def is_base(rows: Rows) -> bool:
    """The sets the base model is fitted on (the extra features are fitted on all of them)."""
    return "names" not in rows.name and "mixed" not in rows.name


def fit_extra(
    rows_list: list[Rows], model: rel.Logistic, mode: str, ratio: float, feature: str
) -> rel.Logistic:
    """``model`` with the coefficients of one extra ``feature`` fitted on the rows where it is
    non-zero, the base model's logit held fixed as an offset: where the feature is 0 nothing
    changes, so the base sets' ranking and floor stay what they were.

    ``short``: the ``short·kw`` coefficient, on the short queries; ``cross``: ``cross`` and
    ``cross·sem``, on the memories in another script than their query."""
    xs, ys, ws, offsets = [], [], [], []
    for rows in rows_list:
        if not rows.reads_query or (feature == "cross" and not multilingual(rows)):
            continue  # an English-only model cannot cross languages: nothing to learn there
        queries, picks = candidates(rows, mode, ratio, only=feature)
        x_, y_, o_ = [], [], []
        for q, pick in zip(queries, picks, strict=True):
            if q.sem is None or q.weight < 0.5 or (mode == "hybrid" and q.kw is None):
                continue  # search scores these with the keyword model
            sem, kw = q.side("sem")[pick], q.side("kw")[pick]
            keep = q.cross[pick] if feature == "cross" else np.ones(len(pick), bool)
            x = np.column_stack([np.ones(len(pick)), sem]) if feature == "cross" else kw[:, None]
            x_.append(x[keep])
            y_.append(q.relevant[pick][keep])
            o_.append(model.logit(sem, kw if mode == "hybrid" else 0.0)[keep])
        if not x_ or not sum(len(y) for y in y_):
            continue
        y = np.concatenate(y_).astype(float)
        xs.append(np.concatenate(x_))
        ys.append(y)
        ws.append(_balanced(y))
        offsets.append(np.concatenate(o_))
    if not xs:
        return model
    beta = fit_logistic(
        np.concatenate(xs), np.concatenate(ys), np.concatenate(ws),
        l2=EXTRA_L2, offset=np.concatenate(offsets), intercept=False,
    )  # fmt: skip
    if feature == "short":
        return dataclasses.replace(model, short_keyword=round(max(0.0, float(beta[0])), 3))
    # More cosine must never lower the score (search bounds unlisted memories by it).
    cross_semantic = max(-model.semantic, float(beta[1]))
    return dataclasses.replace(
        model, cross=round(float(beta[0]), 3), cross_semantic=round(cross_semantic, 3)
    )


def multilingual(rows: Rows) -> bool:
    return rows.name.endswith("/local-multilingual")


def guard_floor(
    model: rel.Logistic, floor_sets: list[Rows], feature: str, mode: str = "hybrid"
) -> rel.Logistic:
    """``model`` with ``feature``'s part made smaller until it lifts no unanswerable query of
    the floor sets to within FLOOR_MARGIN logits of the floor: the extra features are fitted
    on answerable sets, and a question no note answers must still get nothing."""
    off = {"short_keyword": 0.0} if feature == "short" else {"cross": 0.0, "cross_semantic": 0.0}
    without = dataclasses.replace(model, **off)
    for _ in range(400):
        lifted = False
        for rows in floor_sets:
            for q in rows.queries:
                if q.sem is None or q.kw is None or q.weight < 1.0 or q.relevant.any():
                    continue
                kw = q.kw if mode == "hybrid" else 0.0
                args = (q.sem, kw, q.cross.astype(float), float(q.short))
                top, top_without = model.logit(*args).max(), without.logit(*args).max()
                lifted |= bool(top > -FLOOR_MARGIN and top > top_without)
        if not lifted:
            return model
        if feature == "short" and model.short_keyword > 0:
            model = dataclasses.replace(
                model, short_keyword=round(max(0.0, model.short_keyword - 0.02), 3)
            )
        elif feature == "cross":
            model = dataclasses.replace(model, cross=round(model.cross - 0.02, 3))
        else:
            return model
    return model


def fit(all_rows: list[Rows], refit_base: bool = False) -> dict[str, rel.Calibration]:
    """A calibration per model family seen, and "default" from all of them together.

    The base model of each (intercept, evidence weights, ``behind``) is :data:`BEFORE`, fitted
    on the base sets by this script before the extra terms existed (``refit_base``: fit it
    again, as :func:`fit_base` does); held fixed, it is the offset the extra terms are fitted
    against, so same-language questions of more than a few words score exactly as before."""
    out = {}
    families = [*sorted({family_of(r) for r in all_rows}), "default"]
    for family in families:
        members = [r for r in all_rows if family in ("default", family_of(r))]
        base = fit_base(all_rows, members) if refit_base else BEFORE[family]
        ratio = base.hybrid.semantic / base.hybrid.keyword
        floor_sets = [r for r in members if "floor" in r.name]
        hybrid = fit_extra(members, base.hybrid, "hybrid", ratio, "short")
        hybrid = guard_floor(hybrid, floor_sets, "short")
        hybrid = fit_extra(members, hybrid, "hybrid", ratio, "cross")
        hybrid = guard_floor(hybrid, floor_sets, "cross")
        semantic = fit_extra(members, base.semantic, "semantic", 1.0, "cross")
        semantic = guard_floor(semantic, floor_sets, "cross", "semantic")
        trial = dataclasses.replace(base, hybrid=hybrid, semantic=semantic)
        hybrid = ranks_no_worse(trial, members, "hybrid")
        semantic = ranks_no_worse(trial, members, "semantic")
        tuned = tune_intercepts(
            dataclasses.replace(base, hybrid=hybrid, semantic=semantic), members
        )
        print(f"\n[{family}]\n  {tuned}")
        out[family] = tuned
    return out


def ranks_no_worse(calibration: rel.Calibration, rows_list: list[Rows], mode: str) -> rel.Logistic:
    """``mode``'s model of ``calibration``, without its cross terms when they lower the mean
    nDCG@10 of the sets (once the floor guard has moved them, they may only reorder worse)."""
    model = getattr(calibration, mode)
    plain = dataclasses.replace(model, cross=0.0, cross_semantic=0.0)
    means = []
    for candidate in (model, plain):
        trial = dataclasses.replace(calibration, **{mode: candidate})
        per_set = [
            np.mean([ndcg(score(q, mode, trial), q.relevant) for q in answerable])
            for r in rows_list
            if any(q.cross.any() for q in r.queries)
            and (answerable := [q for q in r.queries if q.relevant.any()])
        ]
        means.append(float(np.mean(per_set)) if per_set else 0.0)
    print(f"  {mode} cross terms: mean nDCG@10 {means[0]:.4f} with, {means[1]:.4f} without")
    return model if means[0] >= means[1] else plain


def fit_base(all_rows: list[Rows], members: list[Rows]) -> rel.Calibration:
    """The base model of one family: the hybrid weight by nDCG, the logistic fits on the base
    sets, the floor centred on the floor set, ``behind`` by likelihood."""
    ratio = best_ratio([r for r in members if is_base(r)])
    floor_sets = [r for r in members if "floor" in r.name]
    calibration = rel.Calibration(
        hybrid=centre_on_floor(fit_mode(members, "hybrid", ratio), floor_sets),
        semantic=centre_on_floor(fit_mode(members, "semantic"), floor_sets, "semantic"),
        keyword=fit_mode(all_rows, "keyword"),
    )
    base = [r for r in members if is_base(r)]
    return dataclasses.replace(calibration, behind=fit_behind(calibration, base))


LEAK_WEIGHT = 2.0  # a question nothing answers that shows something, against a hidden answer
IMPOSSIBLE = "imp-"  # SQuAD 2.0's own unanswerable questions: on the vault's subject


def question_class(set_name: str, query_id: str, answerable: bool) -> str:
    """The class a query is judged in (the prefix of its id, else answerable or not)."""
    head = query_id.split("-")[0]
    if head == "form":
        head = "form-a" if answerable else "form-u"
    elif head not in ("para", "kw", "name", "x", "none", "nat", "u", "a"):
        head = "answerable" if answerable else "nothing"
    return f"{set_name}:{head}"


def decisions(calibration: rel.Calibration, rows_list: list[Rows]) -> dict[str, np.ndarray]:
    """Per class of question: for each query and each model (both sides, semantic alone,
    keyword alone), its best logit and whether that memory is relevant, whether it is
    answerable and whether the name rule names a memory (which is shown whatever the score)."""
    out: dict[str, list] = {}
    for rows in rows_list:
        ids = rows.ids or [""] * len(rows.queries)
        for q, qid in zip(rows.queries, ids, strict=True):
            if qid.startswith(IMPOSSIBLE):
                continue  # showing the passage on the subject is not wrong
            s, k, x = q.side("sem"), q.side("kw"), q.cross.astype(float)
            none = np.full(len(s), -np.inf)
            if q.sem is not None and q.kw is not None and q.weight >= 0.5:
                models = [  # as relevance.combined: the words alone speak for short queries
                    calibration.hybrid.logit(s, k, x, float(q.short)),
                    calibration.semantic.logit(s, 0.0, x),
                    calibration.keyword.logit(0.0, k) if q.short else none,
                ]
            elif q.sem is not None and q.kw is None:
                models = [none, calibration.semantic.logit(s, 0.0, x), none]
            else:
                models = [none, none, np.where(k > 0, calibration.keyword.logit(0.0, k), -np.inf)]
            tops = [int(np.argmax(m)) for m in models]
            row = [float(m[t]) for m, t in zip(models, tops, strict=True)]
            row += [float(q.relevant[t]) for t in tops]
            row += [float(q.relevant.any()), float(q.named.any())]
            # The semantic model's best evidence: its slope may be scaled (tune_intercepts).
            row += [float(s[tops[1]]) if np.isfinite(row[1]) else 0.0]
            name = question_class(rows.name.split("/")[0], qid, bool(q.relevant.any()))
            out.setdefault(name, []).append(row)
    return {name: np.array(rows) for name, rows in out.items()}


def decision_cost(table: dict[str, np.ndarray], shift: np.ndarray, report: bool = False) -> float:
    """Mean over classes of: the share of answerable queries whose right note ranks first but
    falls under the floor, and twice the share of unanswerable ones that show something.
    ``shift``: the three intercepts' moves, and the semantic model's extra slope."""
    cost = []
    for name, t in table.items():
        logits = t[:, :3] + shift[:3]
        logits[:, 1] += shift[3] * t[:, 8]
        win = np.argmax(logits, axis=1)
        top = logits[np.arange(len(t)), win]
        right = t[np.arange(len(t)), 3 + win] > 0
        shown = (top >= 0) | (t[:, 7] > 0)
        answerable = t[:, 6] > 0
        if answerable.any():
            first = right & answerable
            hidden = (first & ~shown).sum() / max(1, first.sum())
            cost.append(hidden)
            if report:
                print(f"    {name:<28} right first {first.sum():5d}/{answerable.sum():<5d} "
                      f"hidden {hidden:.3f}")  # fmt: skip
        if (~answerable).any():
            leaked = (shown & ~answerable).sum() / (~answerable).sum()
            cost.append(LEAK_WEIGHT * leaked)
            if report:
                print(f"    {name:<28} nothing answers {(~answerable).sum():5d}  "
                      f"shown {leaked:.3f}")  # fmt: skip
    return float(np.mean(cost))


def tune_intercepts(calibration: rel.Calibration, rows_list: list[Rows]) -> rel.Calibration:
    """The three models' intercepts moved (coordinate descent over a 0.05 grid) to where the
    floor decides best (:func:`decision_cost`) on every class of question of the sets: right
    notes shown, questions nothing answers left empty. Slopes, and so the ranking within a
    model, stay as fitted."""
    table = decisions(calibration, rows_list)
    shift = np.zeros(4)
    best = decision_cost(table, shift)
    grid = np.arange(-3.0, 3.0001, 0.05)
    slope = calibration.semantic.semantic
    for _ in range(6):
        moved = False
        for i in range(4):
            for value in grid if i < 3 else slope * np.arange(-0.5, 1.0001, 0.05):
                trial = shift.copy()
                trial[i] = value
                cost = decision_cost(table, trial)
                if cost < best - 1e-9:
                    best, shift, moved = cost, trial, True
        if not moved:
            break
    print(f"  shifts (intercepts of both, semantic, keyword; semantic slope): "
          f"{np.round(shift, 3)}, cost {best:.4f}")  # fmt: skip
    decision_cost(table, shift, report=True)

    def moved_by(model: rel.Logistic, by: float) -> rel.Logistic:
        return dataclasses.replace(model, intercept=round(model.intercept + float(by), 3))

    return dataclasses.replace(
        calibration,
        hybrid=moved_by(calibration.hybrid, shift[0]),
        semantic=dataclasses.replace(
            moved_by(calibration.semantic, shift[1]),
            semantic=round(calibration.semantic.semantic + float(shift[3]), 3),
        ),
        keyword=moved_by(calibration.keyword, shift[2]),
    )


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
            for q in rows.queries:
                if q.sem is None or q.kw is None or not q.relevant.any():
                    continue
                p = np.clip(score(q, "hybrid", trial), 1e-9, 1 - 1e-9)
                order = np.argsort(-p)
                negatives = order[~q.relevant[order]][:NEGATIVES]
                pos_ll += float(np.log(p[q.relevant]).sum())
                neg_ll += float(np.log(1 - p[negatives]).sum())
                pos += int(q.relevant.sum())
                neg += len(negatives)
            if pos and neg:
                ll += 0.5 * pos_ll / pos + 0.5 * neg_ll / neg
        if ll > best_ll:
            best, best_ll = float(behind), ll
    print(f"  behind: {best}")
    return best


def centre_on_floor(
    model: rel.Logistic, floor_sets: list[Rows], mode: str = "hybrid"
) -> rel.Logistic:
    """Shift the intercept so the floor (0.5) sits midway, in logit, between the best
    unanswerable query's top score and the worst answerable query's right first hit.

    The floor sets are the only development data with questions that nothing answers; the
    logistic fit alone places 0.5 between relevant passages and same-article distractors.
    """
    answered, unanswered = [], []
    for rows in floor_sets:
        for q in rows.queries:
            if q.sem is None or q.weight < 1.0 or (mode == "hybrid" and q.kw is None):
                continue  # only queries the model itself scores
            kw = q.side("kw") if mode == "hybrid" else 0.0
            logit = model.logit(q.sem, kw, q.cross.astype(float), float(q.short))
            top = int(np.argmax(logit))
            if not q.relevant.any():
                unanswered.append(float(logit[top]))
            elif q.relevant[top]:
                answered.append(float(logit[top]))
    if not answered or not unanswered or min(answered) <= max(unanswered):
        print(f"  floor centring ({mode}): no gap, intercept kept")
        return model
    middle = (min(answered) + max(unanswered)) / 2
    print(
        f"  floor centring ({mode}): intercept {model.intercept} -> {model.intercept - middle:.3f}"
    )
    return dataclasses.replace(model, intercept=round(model.intercept - middle, 3))


def ndcg(score: np.ndarray, relevant: np.ndarray) -> float:
    order = np.argsort(-score, kind="stable")[:10]
    return ndcg_at([str(i) for i in order], {str(i): 1 for i in np.flatnonzero(relevant)})


def recall(score: np.ndarray, relevant: np.ndarray, k: int = 100) -> float:
    order = np.argsort(-score, kind="stable")[:k]
    listed = order[score[order] >= 0]  # -1: a keyword search does not list it
    return float(relevant[listed].sum() / max(1, relevant.sum()))


# The calibration before the name rule and the short-query and other-script features (commit
# 06cdce2): the same-run reference of the report.
BEFORE: dict[str, rel.Calibration] = {
    "all-minilm-l6": rel.Calibration(
        hybrid=rel.Logistic(intercept=-2.901, semantic=6.213, keyword=2.485),
        semantic=rel.Logistic(intercept=-2.236, semantic=5.266, keyword=0.0),
        keyword=rel.Logistic(intercept=-1.261, semantic=0.0, keyword=3.798),
        behind=1.0,
    ),
    "e5-small": rel.Calibration(
        hybrid=rel.Logistic(intercept=-1.745, semantic=3.72, keyword=0.93),
        semantic=rel.Logistic(intercept=-1.534, semantic=4.228, keyword=0.0),
        keyword=rel.Logistic(intercept=-1.261, semantic=0.0, keyword=3.798),
        behind=1.0,
    ),
    "default": rel.Calibration(
        hybrid=rel.Logistic(intercept=-1.8, semantic=4.09, keyword=1.169),
        semantic=rel.Logistic(intercept=-1.716, semantic=4.519, keyword=0.0),
        keyword=rel.Logistic(intercept=-1.261, semantic=0.0, keyword=3.798),
        behind=1.0,
    ),
}


def report(all_rows: list[Rows], calibrations: dict[str, rel.Calibration], features: bool,
           floor: float) -> dict[str, list[float]]:  # fmt: skip
    """Per pair and mode: nDCG@10, Recall@100; for hybrid, answerable queries whose first hit
    is relevant and at least ``floor``, and unanswerable ones whose best score is under it."""
    print(f"\n{'set/model':<34} {'kw nDCG':>7} {'R@100':>6} {'sem':>7} {'R@100':>6} "
          f"{'hyb':>7} {'R@100':>6}  {'first>=floor':>12} {'unans empty':>11}")  # fmt: skip
    table = {}
    for rows in all_rows:
        cal = calibrations.get(family_of(rows), calibrations["default"])
        sums = np.zeros(6)
        good = empty = answerable = unanswerable = 0
        for q in rows.queries:
            hybrid = score(q, "hybrid", cal, features)
            if not q.relevant.any():
                unanswerable += 1
                empty += bool(hybrid.max() < floor)
                continue
            answerable += 1
            for i, mode in enumerate(("keyword", "semantic", "hybrid")):
                s = hybrid if mode == "hybrid" else score(q, mode, cal, features)
                sums[2 * i] += ndcg(s, q.relevant)
                sums[2 * i + 1] += recall(s, q.relevant)
            top = int(np.argmax(hybrid))
            good += bool(q.relevant[top] and hybrid[top] >= floor)
        row = [*(sums / max(1, answerable)), good, answerable, empty, unanswerable]
        table[rows.name] = row
        print(
            f"{rows.name:<34} "
            + " ".join(f"{v:7.4f}" if i % 2 == 0 else f"{v:6.3f}" for i, v in enumerate(row[:6]))
            + f"  {good:>5}/{answerable:<6} {empty:>4}/{unanswerable:<6}"
        )
    return table


def verbose(all_rows: list[Rows], calibrations: dict[str, rel.Calibration]) -> None:
    """Every query of the floor and names sets whose decision is wrong at 0.5 (FIT_VERBOSE=1)."""
    for rows in all_rows:
        if "floor" not in rows.name and "names" not in rows.name:
            continue
        cal = calibrations.get(family_of(rows), calibrations["default"])
        for i, q in enumerate(rows.queries):
            p = score(q, "hybrid", cal)
            top = int(np.argmax(p))
            want = int(np.argmax(q.relevant)) if q.relevant.any() else -1
            ok = (want >= 0 and top == want and p[top] >= 0.5) or (want < 0 and p[top] < 0.5)
            if not ok:
                print(
                    f"  {rows.name} q{i} top={top} want={want} p={p[top]:.3f} "
                    f"sem={q.side('sem')[top]:.3f} kw={q.side('kw')[top]:.3f} "
                    f"want_p={p[want] if want >= 0 else 0:.3f} "
                    f"want_sem={q.side('sem')[want] if want >= 0 else 0:.3f} "
                    f"want_kw={q.side('kw')[want] if want >= 0 else 0:.3f} short={q.short} "
                    f"cross={q.cross[want] if want >= 0 else '-'} w={q.weight:.2f}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", type=Path, default=None)
    parser.add_argument("--models", default="local,local-multilingual")
    parser.add_argument(
        "--crosslingual",
        nargs="*",
        type=Path,
        default=None,
        help="sets whose queries and passages differ in language: multilingual models only",
    )
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pm-fit")
    parser.add_argument("--apply", action="store_true", help="also report the fitted model")
    parser.add_argument("--fresh", action="store_true", help="recollect, ignore saved rows")
    parser.add_argument("--floor", type=float, default=rel.DEFAULT_MIN_RELEVANCE)
    parser.add_argument("--refit-base", action="store_true", help="fit the base model too")
    parser.add_argument(
        "--tune", action="store_true", help="only move the code's intercepts (tune_intercepts)"
    )
    args = parser.parse_args()
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(args.work / "config"))
    sets = args.sets or [
        EVAL / "xquad_en",
        EVAL / "xquad_zh",
        DATA / "floor_bilingual",
        DATA / "names_bilingual",
        DATA / "xquad_mixed",
    ]
    crosslingual = (
        args.crosslingual
        if args.crosslingual is not None
        else [DATA / "xquad_zh2en", DATA / "xquad_en2zh"]
    )
    all_rows = []
    for folder in sets:
        for model in args.models.split(","):
            work = args.work / f"{folder.name}-{model}"
            all_rows.append(collect(folder, model, work, args.fresh))
            all_rows[-1].ids = list(load_beir(folder)[1])
            print(f"collected {all_rows[-1].name} (reads queries: {all_rows[-1].reads_query})")
    for folder in crosslingual:
        for model in args.models.split(","):
            if model in ("local-multilingual",):
                work = args.work / f"{folder.name}-{model}"
                all_rows.append(collect(folder, model, work, args.fresh))
                all_rows[-1].ids = list(load_beir(folder)[1])
                print(f"collected {all_rows[-1].name}")
    print(f"\nBEFORE (reference: the calibration of 06cdce2, no name rule / new features), "
          f"floor {args.floor}:")  # fmt: skip
    report(all_rows, BEFORE, False, args.floor)
    print(f"\nNOW (pixelmem.core.index.relevance as it is), floor {args.floor}:")
    report(all_rows, rel.CALIBRATIONS, True, args.floor)
    if args.tune:
        fitted = {}
        for family in [*sorted({family_of(r) for r in all_rows}), "default"]:
            members = [r for r in all_rows if family in ("default", family_of(r))]
            print(f"\n[{family}]")
            fitted[family] = tune_intercepts(rel.CALIBRATIONS[family], members)
    else:
        fitted = fit(all_rows, args.refit_base)
    print("\nfitted:")
    for family, calibration in fitted.items():
        print(f"    {family!r}: {calibration},")
    if args.apply:
        print(f"\nFITTED, floor {args.floor}:")
        report(all_rows, fitted, True, args.floor)
        if os.environ.get("FIT_VERBOSE"):
            verbose(all_rows, fitted)


if __name__ == "__main__":
    main()
