"""Fit the decision on the best hit (pixelmem.core.index.decision) on development sets, and report.

    python benchmarks/fit_decision.py [--models local-multilingual,local] [--fresh] [--apply]
                                      [--only FAMILY:PART ...] [--extend FAMILY:PART ...]
                                      [--add FAMILY:PART ...]

Every question of every development set is searched through the real engine of this tree
(hybrid, ``explain=True``); the best hit's evidence as the decision reads it (semantic,
keyword, coverage, margin, standout, other script, a held short query, names, named) is kept
with whether that hit is the right note and the question's class. Vectors come from the
on-disk cache (``benchmarks/_embed_cache.py``) and the rows are kept beside it, so a refit
costs no model time (``--fresh`` collects again: needed when ranking or evidence changes).
The rows do not depend on the models shipped (an explained search measures every feature,
its margin made certain whatever the models read), so ``--fresh`` on a tree gives that tree's
fit back: the tree that fitted e5-small's models (da1beab) gives them to the last digit; a
later tree gives others when it changed the evidence since (round 4: hub damping, short
questions), and whether to ship such a refit is the figures' call, not the fit's.

Fitting, per model family (and "default" on all of them together):

1. each model by weighted logistic regression on the rows it decides (``both``: the best hit in
   the query's script with keyword evidence; ``meaning``: in the query's script, by meaning
   alone; ``across``: in another script), the right notes ranked first against the best hits
   of questions nothing answers, each set's classes weighed by what its target asks
   (:data:`WEIGHT`); a weight that comes out negative is dropped and the rest refitted (every
   weight ≥ 0: more evidence never lowers the decision);
2. their intercepts moved by coordinate search to where the decisions miss the targets
   (:data:`HIDDEN`, :data:`SHOWN`: hidden answers, shown unrelated notes) least, summed over
   the sets; a model that does not beat the rank logit alone by :data:`SIMPLER` is the rank
   logit alone;
3. all of it done on each half of the questions (by a hash of their id) and the other half's
   figures printed (two-fold cross-validation: what the choosing is worth on questions it
   did not see), then on all of them: the models written with ``--apply``.

``--extend e5-small:same_cjk`` fits nothing anew: it adds a sibling's words (``elsewhere``,
the words the best hit lacks and a next-ranked memory holds) to a shipped model, its weight
and the intercept chosen by the cost, and prints before and after (each half's choice on the
other half first); ``--extend e5-small:same_cjk:loo`` adds the vault's own null instead;
``--only`` makes
``--apply`` write only the models named. ``--add e5-small:across_short`` fits only the models
named (a query form's own model, which the calibration may lack), every other one as shipped,
its intercept then held where no set shows more of its questions nothing answers than its
target (:func:`within_targets`). ``--add e5-small:statement --no-loss`` chooses it on a grid
instead, where no set hides or shows more than as shipped (:func:`no_loss`: Calibration.statement).

Development data only (benchmarks/data and shared/eval): never a held-out set.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.fit_relevance import fit_logistic  # noqa: E402
from pixelmem.core.index.decision import NAME_LOGIT, Decision  # noqa: E402
from pixelmem.core.index.relevance import Calibration  # noqa: E402

FITTED_WITHOUT = ("claims_bio",)  # measured by eval_calibration, not in the shipped fit

CACHE = Path(os.environ.get("PIXELMEM_EMBED_CACHE", ROOT.parent / "calib-cache"))
SETS = [
    "floor_bilingual", "personal_bilingual", "unans_en_40", "unans_en_700", "unans_zh_40",
    "unans_zh_750", "unans_x_700_en", "unans_x_750_zh", "names_q_en", "names_q_zh",
    "names_bilingual", "xquad_zh2en", "xquad_en2zh", "xquad_mixed", "xquad_en", "xquad_zh",
    "kw_zh2en", "kw_en2zh",
]  # fmt: skip
ENGLISH_QUESTIONS = {"unans_en_40", "unans_en_700", "names_q_en", "xquad_en", "xquad_en2zh",
                     "unans_x_750_zh", "realtalk", "realtalk_leftout", "kw_en2zh",
                     # statements: ≥ 95 of 100 claims nothing answers shown nothing
                     "claims_split", "sentences_en"}  # fmt: skip
CROSS_SETS = {"xquad_zh2en", "xquad_en2zh", "kw_zh2en", "kw_en2zh"}
# Targets: the share of right-first answers a set may hide, and of questions nothing answers
# it may show something for (issue 30; the personal and floor sets hold hand-written
# questions of every kind, the names set bare names).
HIDDEN = {"xquad_zh2en": 0.30, "xquad_en2zh": 0.30, "xquad_mixed": 0.15,
          # a topic looked up in the other language (同步 over an English vault): as questions
          "kw_zh2en": 0.30, "kw_en2zh": 0.30,
          "personal_bilingual": 0.05}  # fmt: skip
SHOWN = {"floor_bilingual": 0.10, "personal_bilingual": 0.15, "names_bilingual": 0.06,
         # The 700-note English set is harder than the held-out one the 5 % target is set on:
         # the code that showed 14 of these 100 showed 4 of those.
         "unans_en_700": 0.14,
         # Questions asked again with their answer left out of a chat vault: a guard, not a
         # target (people repeat a fact across days: the best sibling session often holds it
         # too); today's share (main, 2026-11-27: 239 of 367), so answers are not shown by
         # showing more of these.
         "realtalk_leftout": 0.65}  # fmt: skip
FEATURES = {
    "meaning": ("semantic", "standout", "loo", "short"),
    # English questions: a sibling's words gave no decision that hides fewer XQuAD en answers
    # at as many EN-700 shown (calib5: the frontier is the same): not read there.
    "same": ("rank", "coverage", "margin", "standout", "loo", "short", "unknown"),
    "same_cjk": ("rank", "coverage", "margin", "standout", "loo", "short", "unknown", "elsewhere"),
    "across": ("rank", "coverage", "margin", "standout", "short"),
    "across_cjk": ("rank", "coverage", "margin", "standout", "short"),
    # A look-up of a few words across scripts (Calibration.across_short): fitted with --add.
    "across_short": ("rank", "coverage", "margin", "standout"),
    "across_cjk_short": ("rank", "coverage", "margin", "standout"),
    # A long statement in an alphabet (Calibration.statement): fitted with --add.
    "statement": ("rank", "coverage", "margin", "standout", "unknown"),
}
SIGNED = {"short"}  # not evidence about the hit: its weight may have either sign
AGAINST = {
    "unknown",
    "elsewhere",
}  # words the vault never holds never make an answer likelier: weight ≤ 0
MIN_ROWS = 40  # of each kind (right first, nothing answers) for a model to be fitted
SHIFTS = np.round(np.arange(-2.0, 2.0001, 0.05), 2)  # logits tried for each intercept
# Multiples of the fitted weight tried for evidence against (AGAINST), with the intercept: the
# pooled logistic fit weighs every set alike, the targets do not (a sibling's words decide the
# few unanswerables near the cut, not the many far from it).
AGAINST_SCALES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
# Logits per logit of margin below which the margin is left out: reading it costs the search
# a certain second-best memory (deeper candidate lists) for next to no change.
SLIGHT = 0.1
SIMPLER = 0.01  # cost: the rank logit alone decides unless the fitted model is this much better
SILENT = 0.1  # coverage below this: the keyword side has (almost) nothing to say
FAMILY = {"local": "all-minilm-l6", "local-multilingual": "e5-small"}


def hidden_target(name: str) -> float:
    return HIDDEN.get(name, 0.01)


def shown_target(name: str) -> float:
    return SHOWN.get(name, 0.05 if name in ENGLISH_QUESTIONS else 0.10)


@dataclass
class Row:
    """The best hit of one question."""

    set: str
    qid: str
    cls: str
    answerable: bool
    right: bool  # the best hit is a right note
    evidence: dict[str, float]  # the Best fields, None as nan
    ranked: list[bool] = field(default_factory=list)  # right notes among the top 10, in order
    judged: int = 0  # right notes in all


def collect(name: str, model: str, fresh: bool = False) -> list[Row]:
    """The rows of one set and model (kept in the cache)."""
    saved = CACHE / "decision" / f"{name}-{model}.pickle"
    if saved.is_file() and not fresh:
        with saved.open("rb") as handle:
            return statements_read(name, [Row(**row) for row in pickle.load(handle)])
    from benchmarks.eval_calibration import folder_of, vaults_of

    rows = []
    for prefix, folder in vaults_of(folder_of(name)):
        rows += _collect_vault(name, prefix, folder, model)
    saved.parent.mkdir(parents=True, exist_ok=True)
    with saved.open("wb") as handle:
        pickle.dump([dataclasses.asdict(row) for row in rows], handle)  # plain: any importer
    print(f"  collected {name}/{model}", file=sys.stderr)
    return rows


def statements_read(name: str, rows: list[Row]) -> list[Row]:
    """``rows`` with each question's ``statement`` flag as this tree reads its text
    (ParsedQuery.statement): the flag decides which model applies, not what was measured."""
    from benchmarks.eval_calibration import folder_of, vaults_of
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.index.query import parse_query

    texts = {}
    for prefix, folder in vaults_of(folder_of(name)):
        texts |= {prefix + qid: text for qid, text in load_beir(folder)[1].items()}
    for row in rows:
        if row.evidence and row.qid in texts:
            row.evidence["statement"] = float(getattr(parse_query(texts[row.qid]), "statement", 0))
    return rows


def _collect_vault(name: str, prefix: str, folder: Path, model: str) -> list[Row]:
    """The rows of one vault of a set (``prefix`` before its question ids)."""
    from benchmarks.eval_calibration import class_of, eval_engine, judged_in
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.index.query import parse_query
    from pixelmem.core.index.scripts import CJK_SCRIPT, main_script

    work = CACHE / "vaults" / "decision" / f"{name}-{model}" / prefix
    engine, doc_of = eval_engine(folder, work, model)
    _, queries, qrels = load_beir(folder)
    rows = []
    for qid, text in queries.items():
        judged = judged_in(doc_of, qrels.get(qid, {}))
        qid = prefix + qid
        hits = engine.search(text, k=10, min_relevance=0.0, explain=True)
        ranked = [doc_of.get(h.memory_id, "") in judged for h in hits]
        best = hits[0].evidence if hits else None
        evidence = {}
        if best is not None:
            evidence = {
                "semantic": best.semantic, "keyword": best.keyword, "coverage": best.coverage,
                "unknown": best.unknown, "elsewhere": best.elsewhere,
                "margin": best.margin, "standout": best.standout, "loo": best.loo,
                "cross": float(best.cross),
                "held": float(best.short), "names_keyword": best.names_keyword,
                "names_held": float(best.names_held), "named": float(best.named),
                "rank": float(np.log(best.rank / max(1e-12, 1 - best.rank))),
                "cjk": float(main_script(text) == CJK_SCRIPT),
                "short": float(parse_query(text).short),
                "statement": float(getattr(parse_query(text), "statement", False)),
            }  # fmt: skip
        rows.append(Row(name, qid, class_of(name, qid, bool(judged)), bool(judged),
                        bool(ranked and ranked[0]), {k: np.nan if v is None else float(v)
                        for k, v in evidence.items()}, ranked, len(judged)))  # fmt: skip
    return rows


def reads(name: str) -> bool:
    """Whether the English-only model is measured on a set (no Chinese, no crossing)."""
    return (
        name not in CROSS_SETS
        and "zh" not in name
        and "unans_x" not in name
        and ("mixed" not in name)
    )


def families(table: dict[str, dict[str, list[Row]]]) -> dict[str, list[list[Row]]]:
    """The sets of each model family, and "default": all of them."""
    out = {FAMILY.get(m, m): list(sets.values()) for m, sets in table.items()}
    out["default"] = [rows for sets in table.values() for rows in sets.values()]
    return out


def label(row: Row) -> float | None:
    """1: the right note first (it should be shown); 0: a question nothing answers (its best
    hit should not); None: neither (a wrong note first; SQuAD's unanswerable questions written
    against a passage of the vault, which is on their subject)."""
    if row.answerable:
        return 1.0 if row.right else None
    return None if row.cls == "impossible" else 0.0


def half_of(row: Row) -> int:
    """The half a question falls in: by a hash of its id, or of its vault's in a set of many
    vaults (``vault/qid``), the vaults of one pair of people together (``-wo-sN``: the pair
    with an answer left out) — two-fold by person, not by question."""
    if "/" in row.qid:
        vault = row.qid.split("/")[0].split("-wo-")[0]
        return zlib.crc32(vault.encode()) % 2
    return zlib.crc32(f"{row.set}/{row.qid}".encode()) % 2


class Block:
    """The labelled rows of one set as arrays, with what the fixed parts give them."""

    def __init__(self, rows: list[Row], base: Calibration) -> None:
        kept = [r for r in rows if label(r) is not None and r.evidence]
        self.name = rows[0].set if rows else ""
        self.y = np.array([label(r) for r in kept], np.float64)
        get = lambda key: np.array([r.evidence.get(key, np.nan) for r in kept], np.float64)  # noqa: E731
        self.x = {key: get(key) for key in
                  ("semantic", "keyword", "coverage", "unknown", "elsewhere", "margin", "standout",
                   "loo", "cross", "held", "names_keyword", "names_held", "named", "rank", "cjk",
                   "short", "statement")}  # fmt: skip
        self.fixed = self._fixed(base)

    def _fixed(self, base: Calibration) -> np.ndarray:
        """The parts the fit does not move: a held short query's words, a question's names,
        the name rule (decision.decide)."""
        x = self.x
        kw = np.nan_to_num(x["keyword"])
        words = np.where((x["held"] > 0) & ~np.isnan(x["keyword"]),
                         base.keyword.logit(0.0, kw), -np.inf)  # fmt: skip
        names = np.where(
            (x["names_held"] > 0) & ~np.isnan(x["names_keyword"]),
            np.maximum(base.hybrid.logit(np.nan_to_num(x["semantic"]),
                                         np.nan_to_num(x["names_keyword"]), x["cross"], 1.0),
                       base.keyword.logit(0.0, np.nan_to_num(x["names_keyword"]))),
            -np.inf,
        )  # fmt: skip
        return np.maximum(words, names)

    def matrix(self, part: str) -> np.ndarray:
        return np.column_stack([np.nan_to_num(self.x[f]) for f in FEATURES[part]])

    def fitted_on(self, part: str) -> np.ndarray:
        """The rows a model is fitted on: those it decides; for ``meaning``, those whose
        keyword side is silent (it speaks for paraphrases: fitted where words also speak, it
        would learn what words usually come with and show what they do not)."""
        rows = self.applies(part, short_apart=True)
        if part == "meaning":
            rows = rows & (np.nan_to_num(self.x["coverage"]) < SILENT)
        return rows

    def applies(self, part: str, short_apart: bool = False) -> np.ndarray:
        """The rows ``part`` decides; ``short_apart``: a model of its own takes a query form
        of a part (the short queries of an ``across`` part; the statements of ``same``)."""
        same = self.x["cross"] <= 0
        if part == "meaning":
            return same & ~np.isnan(self.x["semantic"])
        cjk = self.x["cjk"] > 0
        mine = cjk if "_cjk" in part else ~cjk
        if part.endswith("_short"):
            return ~same & mine & (self.x["short"] > 0)
        if part.startswith("across"):
            return ~same & mine & ~((self.x["short"] > 0) & short_apart)
        statement = np.nan_to_num(self.x["statement"]) > 0
        if part == "statement":
            return same & ~np.isnan(self.x["semantic"]) & ~cjk & statement
        return same & ~np.isnan(self.x["semantic"]) & mine & ~(statement & short_apart)

    def decision(self, models: dict[str, Decision | None]) -> np.ndarray:
        out = self.fixed.copy()
        for part, model in models.items():
            if model is None:  # a calibration without a look-up model: its question model
                continue
            logit = model.intercept + self.matrix(part) @ np.array(
                [getattr(model, f) for f in FEATURES[part]]
            )
            apart = models.get({"same": "statement"}.get(part, f"{part}_short")) is not None
            out = np.maximum(out, np.where(self.applies(part, apart), logit, -np.inf))
        semantic_missing = np.isnan(self.x["semantic"])
        out = np.where(semantic_missing, self.x["rank"], out)
        return np.where(self.x["named"] > 0, np.maximum(out, NAME_LOGIT), out)

    def misses(self, models: dict[str, Decision]) -> tuple[float, float, int, int]:
        """(share of right-first hidden, share of nothing-questions shown, n of each)."""
        d = self.decision(models)
        pos, neg = self.y > 0, self.y <= 0
        hidden = float((d[pos] < 0).mean()) if pos.any() else 0.0
        shown = float((d[neg] >= 0).mean()) if neg.any() else 0.0
        return hidden, shown, int(pos.sum()), int(neg.sum())


def weight(name: str, positive: bool) -> float:
    """How much a set's class weighs in the logistic fit: missing an answer the target allows
    at 1 % weighs four times one a cross-language target allows at 30 %; an English question
    nothing answers (target 5 %) 1.5 times a Chinese one (10 %)."""
    if positive:
        return 1.0 if hidden_target(name) > 0.01 else 4.0
    return 1.5 if shown_target(name) <= 0.05 else 1.0


def fit_part(blocks: list[Block], part: str, base: Calibration) -> Decision:
    """One model by weighted logistic regression on the rows it decides, every weight on
    evidence ≥ 0. Where fewer than :data:`MIN_ROWS` rows of a kind say more (an English-only
    model's questions across scripts; paraphrases no word of which the note holds): the rank
    logit alone, and for ``meaning`` the calibration's semantic model (P(relevant) by the
    cosine alone)."""
    features = list(FEATURES[part])
    labels = np.concatenate([b.y[b.fitted_on(part)] for b in blocks])
    if (labels > 0).sum() < MIN_ROWS or (labels <= 0).sum() < MIN_ROWS:
        if part == "meaning":
            return Decision(base.semantic.intercept, semantic=base.semantic.semantic)
        return Decision(0.0, rank=1.0)
    while True:
        xs, ys, ws = [], [], []
        for b in blocks:
            keep = b.fitted_on(part)
            if not keep.any():
                continue
            y = b.y[keep]
            for positive in (True, False):
                sel = (y > 0) == positive
                if sel.any():
                    cols = [np.nan_to_num(b.x[f][keep][sel]) for f in features]
                    xs.append(np.column_stack(cols))
                    ys.append(y[sel])
                    ws.append(np.full(sel.sum(), weight(b.name, positive) / sel.sum()))
        beta = fit_logistic(np.concatenate(xs), np.concatenate(ys), np.concatenate(ws))
        negative = [
            f for f, w in zip(features, beta[1:], strict=True)
            if (w < 0 and f not in SIGNED | AGAINST) or (w > 0 and f in AGAINST)
            or (f == "margin" and w < SLIGHT)
        ]  # fmt: skip
        if not negative:
            weights = {f: round(float(w), 3) for f, w in zip(features, beta[1:], strict=True)}
            return Decision(round(float(beta[0]), 3), **weights)
        features.remove(max(negative, key=lambda f: abs(beta[1 + features.index(f)])))


def cost(blocks: list[Block], models: dict[str, Decision]) -> float:
    """How far the decisions miss the targets, summed over the sets (plus a little of every
    miss, so that among equal shortfalls the fewer misses win)."""
    total = 0.0
    for b in blocks:
        hidden, shown, npos, nneg = b.misses(models)
        if npos:
            total += max(0.0, hidden - hidden_target(b.name)) + 0.02 * hidden
        if nneg:
            total += max(0.0, shown - shown_target(b.name)) + 0.02 * shown
    return total


def tune(
    blocks: list[Block], models: dict[str, Decision], parts: list[str] | None = None
) -> dict[str, Decision]:
    """The intercepts (of ``parts``, default all) moved to where :func:`cost` is least: each
    in turn over a grid of shifts (:data:`SHIFTS`), and with them the weight of a sibling's
    words (``elsewhere``) over :data:`AGAINST_SCALES` of the fitted one, until none moves
    (the cost is a step function: no gradient)."""
    models = dict(models)
    parts = list(models) if parts is None else parts
    fitted = {part: models[part].elsewhere for part in parts}
    for _ in range(4):
        moved = False
        for part in parts:
            here = models[part]
            scales = AGAINST_SCALES if fitted[part] < 0 else (1.0,)
            trials = [dataclasses.replace(here, intercept=round(here.intercept + d, 3),
                                          elsewhere=round(fitted[part] * x, 3) or 0.0)
                      for x in scales for d in SHIFTS]  # fmt: skip
            costs = [cost(blocks, {**models, part: t}) for t in trials]
            best = int(np.argmin(costs))
            if costs[best] < cost(blocks, models) - 1e-9:
                models[part], moved = trials[best], True
        if not moved:
            break
    return models


def report(blocks: list[Block], models: dict[str, Decision], title: str) -> None:
    print(f"  {title}: cost {cost(blocks, models):.3f}")
    for b in blocks:
        hidden, shown, npos, nneg = b.misses(models)
        cells = []
        if npos:
            mark = " !" if hidden > hidden_target(b.name) + 1e-9 else ""
            cells.append(f"hidden {round(hidden * npos):4d}/{npos:<4d}{mark}")
        if nneg:
            mark = " !" if shown > shown_target(b.name) + 1e-9 else ""
            cells.append(f"shown {round(shown * nneg):4d}/{nneg:<4d}{mark}")
        print(f"    {b.name:<20}" + "   ".join(cells))


def choose(blocks: list[Block], base: Calibration) -> dict[str, Decision]:
    """The decision models fitted and tuned on ``blocks``: each model's weights by logistic
    regression, its intercept by :func:`tune`; the rank logit alone wherever the fitted model
    does not lower the cost by :data:`SIMPLER` (the simpler model, where evidence is thin)."""
    models = {part: fit_part(blocks, part, base) for part in FEATURES}
    models = {p: m for p, m in models.items() if any(b.applies(p).any() for b in blocks)}
    models = tune(blocks, models)
    for part in [p for p in models if p != "meaning"]:
        plain = tune(blocks, {**models, part: Decision(0.0, rank=1.0)})
        if cost(blocks, plain) < cost(blocks, models) + SIMPLER:
            models = plain
    return models


AGAINST_WEIGHTS = np.round(np.arange(-10.0, 0.0001, 0.5), 1)  # tried by :func:`extend`
FOR_WEIGHTS = np.round(np.arange(0.0, 3.0001, 0.1), 1)  # the same for evidence for (loo)


def extend(
    family: str, members: list[list[Row]], part: str, feature: str = "elsewhere"
) -> Decision:
    """The shipped model ``part`` of ``family`` with one piece of evidence its shipped weights
    lack added (``feature``: ``elsewhere``, a sibling's words, over :data:`AGAINST_WEIGHTS`;
    ``loo``, the vault's own null, over :data:`FOR_WEIGHTS`): that weight and the intercept
    (over :data:`SHIFTS`) where :func:`cost` is least, every other weight and model as
    shipped. Adding one piece of evidence to a tuned decision moves two numbers, not all of
    them (a refit of every model moves the ones the new evidence does not touch, and their
    targets with them). The choice made on each half of the questions is printed on the other
    half first (two-fold cross-validation), against the shipped model on that half."""
    from pixelmem.core.index.relevance import CALIBRATIONS

    base = CALIBRATIONS[family]
    models = {p: getattr(base, p) for p in FEATURES}
    here = dataclasses.replace(models[part], **{feature: 0.0})
    weights = AGAINST_WEIGHTS if feature in AGAINST else FOR_WEIGHTS
    trials = [dataclasses.replace(here, intercept=round(here.intercept + d, 3),
                                  **{feature: float(w)})
              for w in weights for d in SHIFTS]  # fmt: skip

    def best_on(blocks: list[Block]) -> Decision:
        costs = [cost(blocks, {**models, part: t}) for t in trials]
        return trials[int(np.argmin(costs))]

    halves = [[Block([r for r in rows if half_of(r) == h], base) for rows in members]
              for h in (0, 1)]  # fmt: skip
    for seen, unseen in ((0, 1), (1, 0)):
        picked = best_on(halves[seen])
        report(halves[unseen], {**models, part: here}, f"half {unseen}: {part} as shipped")
        report(halves[unseen], {**models, part: picked},
               f"half {unseen}, {feature} chosen on half {seen}: {short_form(picked)}")  # fmt: skip
    blocks = [Block(rows, base) for rows in members]
    chosen = best_on(blocks)
    report(blocks, {**models, part: here}, f"{part} as shipped, without {feature}")
    report(blocks, {**models, part: chosen}, f"{part} with it: {short_form(chosen)}")
    return chosen


def add(family: str, members: list[list[Row]], parts: list[str]) -> dict[str, Decision | None]:
    """The shipped models of ``family`` with ``parts`` fitted anew (a model the calibration
    lacks, such as a look-up model: Calibration.across_short), every other one as shipped: each
    part's weights by logistic regression on the rows it decides, its intercept by
    :func:`tune`; a part that does not lower the cost by :data:`SIMPLER` stays absent (None).
    The choice made on each half of the questions is printed on the other half first
    (two-fold cross-validation), against the shipped models on that half."""
    from pixelmem.core.index.relevance import CALIBRATIONS

    base = CALIBRATIONS[family]
    shipped = {p: getattr(base, p) for p in FEATURES}

    def chosen_on(blocks: list[Block]) -> dict[str, Decision | None]:
        models = dict(shipped)
        for part in parts:
            models[part] = fit_part(blocks, part, base)
        models = tune(blocks, models, parts)
        for part in parts:
            models[part] = within_targets(blocks, models, part)
        for part in parts:
            without = {**models, part: None}
            if cost(blocks, without) < cost(blocks, models) + SIMPLER:
                models = without
        return models

    halves = [[Block([r for r in rows if half_of(r) == h], base) for rows in members]
              for h in (0, 1)]  # fmt: skip
    for seen, unseen in ((0, 1), (1, 0)):
        picked = chosen_on(halves[seen])
        report(halves[unseen], shipped, f"half {unseen}: as shipped")
        report(halves[unseen], picked, f"half {unseen}, {' '.join(parts)} chosen on half {seen}")
    blocks = [Block(rows, base) for rows in members]
    models = chosen_on(blocks)
    report(blocks, shipped, "all: as shipped")
    report(blocks, models, f"all, {' '.join(parts)} chosen on all")
    for part in parts:
        print(f"    {part}={short_form(models[part]) if models[part] else None},")
    return models


# The grid :func:`no_loss` searches: weights on evidence beside the rank logit (weight 1),
# and the intercept.
NO_LOSS_GRID = {
    "coverage": (0.0, 0.5, 1.0, 2.0, 3.0, 4.0),
    "margin": (0.0, 0.5, 1.0),
    "standout": (0.0, 0.5, 1.0),
    "intercept": tuple(np.round(np.arange(-4.0, 1.0001, 0.25), 2)),
}


def no_loss(family: str, members: list[list[Row]], part: str) -> Decision:
    """``part`` (a query form's own model the calibration has no data-driven reason to trust
    more than the question model it takes over from: Calibration.statement) chosen on a grid
    (:data:`NO_LOSS_GRID`, the rank logit at weight 1): the one that shows the fewest
    questions nothing answers among the rows it decides while no set hides more right-first
    answers, nor shows more unanswered ones, than as shipped. The pooled cost trades one for
    the other; here a hidden answer is never the price (claims nothing answers are on the
    vault's subject: at Climate-FEVER's evidence, AUC ≤ 0.75 for every feature, the cost's
    choice hid 119 of 804 answers to leave half of them empty). The choice made on each half
    is printed on the other half first (two-fold cross-validation), then on all."""
    import itertools

    from pixelmem.core.index.relevance import CALIBRATIONS

    base = CALIBRATIONS[family]
    shipped: dict[str, Decision | None] = {p: getattr(base, p) for p in FEATURES}
    shipped[part] = None
    grid = [Decision(i, rank=1.0, coverage=c, margin=m, standout=z) for c, m, z, i in
            itertools.product(*NO_LOSS_GRID.values())]  # fmt: skip

    def chosen_on(blocks: list[Block]) -> Decision:
        reference = {b.name: b.misses(shipped) for b in blocks}
        best: tuple[float, Decision] | None = None
        for candidate in grid:
            models = {**shipped, part: candidate}
            shown, worse = 0.0, False
            for b in blocks:
                hidden, shown_share, _, nneg = b.misses(models)
                worse |= hidden > reference[b.name][0] + 1e-9
                worse |= shown_share > reference[b.name][1] + 1e-9
                if b.applies(part).any():
                    shown += shown_share * nneg
            if not worse and (best is None or shown < best[0] - 1e-9):
                best = (shown, candidate)
        assert best is not None  # the grid holds models that show no more than the rank logit
        return best[1]

    halves = [[Block([r for r in rows if half_of(r) == h], base) for rows in members]
              for h in (0, 1)]  # fmt: skip
    for seen, unseen in ((0, 1), (1, 0)):
        picked = chosen_on(halves[seen])
        report(halves[unseen], shipped, f"half {unseen}: as shipped")
        report(halves[unseen], {**shipped, part: picked},
               f"half {unseen}, {part} chosen on half {seen}: {short_form(picked)}")  # fmt: skip
    blocks = [Block(rows, base) for rows in members]
    model = chosen_on(blocks)
    report(blocks, shipped, "all: as shipped")
    report(blocks, {**shipped, part: model}, f"all, {part} chosen on all")
    print(f"    {part}={short_form(model)},")
    return model


def within_targets(blocks: list[Block], models: dict[str, Decision | None], part: str) -> Decision:
    """``part`` with its intercept lowered until it shows no set's questions nothing answers
    more often than that set's target (:func:`shown_target`), or than without it where that
    was more. The cost trades misses on both sides one for one, so where a model's answerable
    questions are fewer than its unanswerable ones it buys each answer shown with more than
    one unrelated note shown: a new model of a query form starts inside the targets."""
    model = models[part]
    assert model is not None
    without = {**models, part: None}
    limit = {b.name: max(shown_target(b.name), b.misses(without)[1]) for b in blocks}

    def over(candidate: Decision) -> bool:
        trial = {**models, part: candidate}
        return any(b.misses(trial)[1] > limit[b.name] + 1e-9 for b in blocks
                   if b.applies(part).any() and (b.y <= 0).any())  # fmt: skip

    for _ in range(80):  # at most 4 logits down
        if not over(model):
            break
        model = dataclasses.replace(model, intercept=round(model.intercept - 0.05, 3))
    return model


def fit_family(family: str, members: list[list[Row]]) -> dict[str, Decision]:
    """The decision models of one family, chosen on all its questions; the figures each half
    of the questions gets from the models chosen on the other half are printed first (two-fold
    cross-validation: what the choosing is worth on questions it did not see)."""
    from pixelmem.core.index.relevance import CALIBRATIONS

    base = CALIBRATIONS[family]
    halves = [[Block([r for r in rows if half_of(r) == h], base) for rows in members]
              for h in (0, 1)]  # fmt: skip
    for seen, unseen in ((0, 1), (1, 0)):
        chosen = choose(halves[seen], base)
        report(halves[unseen], chosen, f"half {unseen}, chosen on half {seen}")
    every = [Block(rows, base) for rows in members]
    models = choose(every, base)
    report(every, models, "all, chosen on all")
    return models


def apply(fitted: dict[str, dict[str, Decision]]) -> None:
    """Write the fitted models into CALIBRATIONS in relevance.py: in each family's block,
    everything after its ``behind=`` line (where the decision models are)."""
    path = ROOT / "pixelmem" / "core" / "index" / "relevance.py"
    text = path.read_text(encoding="utf-8")
    for family, models in fitted.items():
        start = text.index(f'    "{family}": Calibration(')
        keep = text.index("\n", text.index("        behind=", start)) + 1
        end = text.index("\n    ),\n", keep - 1) + 1  # the block's own closing line
        lines = "".join(
            f"        {part}={short_form(m)},\n" for part, m in models.items() if m is not None
        )
        text = text[:keep] + lines + text[end:]
    path.write_text(text, encoding="utf-8")
    print(f"written into {path.relative_to(ROOT)} (run ruff format on it)")


def only(
    fitted: dict[str, dict[str, Decision]], chosen: list[str]
) -> dict[str, dict[str, Decision]]:
    """The fitted models named ``family:part`` in ``chosen``; every other one as relevance.py
    has it (a refit of a model whose evidence did not change need not move it)."""
    from pixelmem.core.index.relevance import CALIBRATIONS

    out = {}
    for family, models in fitted.items():
        current = CALIBRATIONS[family]
        out[family] = {part: model if f"{family}:{part}" in chosen else getattr(current, part)
                       for part, model in models.items()}  # fmt: skip
    return out


def short_form(decision: Decision) -> str:
    """``Decision(...)`` with the weights that are not 0, rounded as fitted."""
    fields = [f"{float(decision.intercept)!r}"] + [
        f"{f.name}={getattr(decision, f.name)!r}"
        for f in dataclasses.fields(decision)[1:]
        if getattr(decision, f.name)
    ]
    return f"Decision({', '.join(fields)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="local-multilingual,local")
    parser.add_argument("--sets", nargs="*", default=None, help="default: eval_calibration's")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--apply", action="store_true", help="write the fit into relevance.py")
    parser.add_argument(
        "--extend", nargs="*", default=None, metavar="FAMILY:PART[:FEATURE]",
        help="instead of refitting: add a sibling's words (or :loo, the vault's null) to "
             "these shipped models (see extend)",
    )  # fmt: skip
    parser.add_argument(
        "--add", nargs="*", default=None, metavar="FAMILY:PART",
        help="instead of refitting: fit these models anew (e.g. e5-small:across_short), "
             "every other one as shipped",
    )  # fmt: skip
    parser.add_argument(
        "--no-loss", action="store_true",
        help="with --add: choose on a grid where no set loses (see no_loss), not by the cost",
    )  # fmt: skip
    parser.add_argument(
        "--only", nargs="*", default=None, metavar="FAMILY:PART",
        help="with --apply: write only these models (e.g. e5-small:same_cjk), the rest as they are",
    )  # fmt: skip
    args = parser.parse_args()
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(CACHE / "config"))
    if args.sets is None:  # the statement sets too where PIXELMEM_STATEMENT_SETS is set
        from benchmarks.eval_calibration import default_sets

        # The shipped models were fitted without claims_bio (a later development set that
        # measures a class, not one to fit on unasked): a default refit reproduces them.
        args.sets = [name for name in default_sets() if name not in FITTED_WITHOUT]
    for model in args.models.split(","):
        for name in args.sets:
            if model != "local" or reads(name):
                collect(name, model, args.fresh)
    table = {m: {n: collect(n, m) for n in args.sets if m != "local" or reads(n)}
             for m in args.models.split(",")}  # fmt: skip
    fitted = {}
    if args.add is not None:
        from pixelmem.core.index.relevance import CALIBRATIONS

        grouped = families(table)
        wanted: dict[str, list[str]] = {}
        for target in args.add:
            family, part = target.split(":")
            wanted.setdefault(family, []).append(part)
        for family, parts in wanted.items():
            print(f"\n[{family}] {' '.join(parts)}")
            if args.no_loss:
                models = {p: getattr(CALIBRATIONS[family], p) for p in FEATURES}
                fitted[family] = models | {p: no_loss(family, grouped[family], p) for p in parts}
            else:
                fitted[family] = add(family, grouped[family], parts)
        if args.apply:
            apply(fitted)
        return
    if args.extend is not None:
        from pixelmem.core.index.relevance import CALIBRATIONS

        grouped = families(table)
        for target in args.extend:
            family, part, *feature = target.split(":")
            print(f"\n[{family}] {part} {' '.join(feature)}")
            models = fitted.setdefault(family, {p: getattr(CALIBRATIONS[family], p)
                                                for p in FEATURES})  # fmt: skip
            models[part] = extend(family, grouped[family], part, *feature)
        if args.apply:
            apply(fitted)
        return
    for family, members in families(table).items():
        print(f"\n[{family}]")
        fitted[family] = fit_family(family, members)
    print("\nPaste into CALIBRATIONS (relevance.py):")
    for family, models in fitted.items():
        print(f"  {family}:")
        for part, decision in models.items():
            print(f"    {part}={short_form(decision)},")
    if args.apply:
        if args.only is not None:
            fitted = only(fitted, args.only)
        apply(fitted)


if __name__ == "__main__":
    main()
