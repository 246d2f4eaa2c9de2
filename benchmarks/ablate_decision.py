"""Which term of the decision hides right answers: each one switched off alone, one run.

    python benchmarks/ablate_decision.py [--knobs none vault_bg ...] [--sets NAME ...]
                                         [--out FILE] [--floor 0.5]

Every question of the development sets (:mod:`eval_calibration`'s, and the conversational ones
under ``PIXELMEM_CHAT_SETS``) is searched through the real engine of this tree (hybrid, e5-small,
vectors from the embedding cache), once per *knob*: the search with one term of the decision
made unable to lower the best hit's score — patched in this process, never a product setting:

* ``none``: the code as it is (the reference);
* ``vault_bg``: "unrelated" measured on the anchor texts alone, never blended with the vault's
  own notes (SearchIndex.backgrounds);
* ``script_bg``: one background for every script (the query's median with all the anchor
  texts), still blended with the vault;
* ``hubs``: hub chunks not damped (hubs.py);
* ``tokens``: no token check (decision.TokenCheck);
* ``names``: no names rule (a question's names' keyword evidence);
* ``margin`` / ``standout``: the best hit's margin over the next memory / its standout set to
  their caps (they can then only raise a decision);
* ``loo``: the leave-one-out null not read (no model weighs it: the reference by construction);
* ``gain``: a long query's keyword evidence not weighed more in ranking (keyword_gain 1);
* ``shared=K`` (K a number): what a vault's notes share taken off its median K times
  (vault_null.shared_subject; 1: as shipped, 0: not at all), and ``subject_share=S``: a
  question is on the vault's subject from a word S of its chunks hold (search.SUBJECT_SHARE)
  — the knobs that are a scale.

Each knob runs in its own child process (a patch never leaks into another knob). Printed: per
set and knob, hidden (right first, below the floor) and shown-anything (questions nothing
answers); per knob, how many of the reference's hidden right-first answers it shows. Writes
every question's top hit and score with ``--out``. Development sets only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KNOBS = ("none", "vault_bg", "script_bg", "hubs", "tokens", "names", "margin", "standout", "loo",
         "gain")  # fmt: skip
SETS = ("realtalk", "realtalk_leftout", "unans_zh_750", "unans_en_700", "xquad_zh", "xquad_en")
MODEL = "local-multilingual"


def patch(knob: str) -> None:
    """Switch ``knob`` off in this process (see the module docstring)."""
    import dataclasses

    import numpy as np

    from pixelmem.core.index import decision, search
    from pixelmem.core.index.relevance import unrelated

    index = search.SearchIndex
    if knob == "vault_bg":
        index.backgrounds = lambda self, vector, anchors=0.0: search._per_script(anchors)  # type: ignore[method-assign]
    elif knob == "script_bg":
        from pixelmem.core.index import engine

        def one_background(self, vector, embedder=None):  # type: ignore[no-untyped-def]
            anchors = self.anchor_vectors(embedder or self._current()[1] or self._embedder)
            if anchors is None or vector is None:
                return np.zeros(3)
            return np.array(unrelated(anchors @ vector))[:, None].repeat(3, axis=1)

        engine.Engine.backgrounds = one_background  # type: ignore[method-assign]
    elif knob == "hubs":
        scoring = index._scoring
        index._scoring = lambda self, hubs: scoring(self, None)  # type: ignore[method-assign]
    elif knob == "tokens":
        decision.token_check = lambda models, best: decision.NO_TOKEN_CHECK
    elif knob == "names":
        index._name_evidence = lambda self, query, positions: None  # type: ignore[method-assign]
    elif knob in ("margin", "standout", "loo"):
        cap = {"margin": decision.MARGIN_CAP, "standout": decision.STANDOUT_CAP, "loo": None}
        decide = search.decide

        def decided(models, best, mode):  # type: ignore[no-untyped-def]
            if knob != "standout" or best.standout is not None:
                best = dataclasses.replace(best, **{knob: cap[knob]})
            return decide(models, best, mode)

        search.decide = decided
    elif knob == "gain":
        search.keyword_gain = lambda terms: 1.0
    elif knob.startswith("shared="):
        scale, shared = float(knob.split("=")[1]), search.shared_subject
        search.shared_subject = lambda vault, anchors: scale * shared(vault, anchors)
    elif knob.startswith("subject_share="):
        search.SUBJECT_SHARE = float(knob.split("=")[1])
    elif knob != "none":
        raise SystemExit(f"unknown knob {knob!r}")


def measure(knob: str, sets: list[str], floor: float) -> list[dict]:
    """One row per question of ``sets``: its class, whether a right note is first, the score."""
    from benchmarks.eval_calibration import (
        CACHE,
        class_of,
        eval_engine,
        folder_of,
        judged_in,
        vaults_of,
    )
    from pixelmem.core.index.evaluate import load_beir

    patch(knob)
    rows = []
    for name in sets:
        for prefix, folder in vaults_of(folder_of(name)):
            work = CACHE / "vaults" / "ablate" / f"{name}-{MODEL}" / prefix
            engine, doc_of = eval_engine(folder, work, MODEL)
            _, queries, qrels = load_beir(folder)
            for qid, text in queries.items():
                judged = judged_in(doc_of, qrels.get(qid, {}))
                hits = engine.search(text, k=3, min_relevance=0.0)
                top = doc_of.get(hits[0].memory_id, "") if hits else ""
                rows.append({
                    "set": name, "query": prefix + qid, "class": class_of(name, qid, bool(judged)),
                    "judged": bool(judged), "first": top in judged,
                    "score": float(hits[0].score) if hits else 0.0,
                })  # fmt: skip
        print(f"  {knob}: measured {name}", file=sys.stderr)
    return rows


def table(results: dict[str, list[dict]], floor: float) -> list[str]:
    """Per set and class: each knob's hidden (answerable) or shown-anything (no answer)."""
    knobs = list(results)
    lines = [f"{'set':<18}{'class':<12}" + "".join(f"{k:>10}" for k in knobs)]
    keys = sorted({(r["set"], r["class"]) for r in results[knobs[0]]})
    for name, cls in keys:
        cells = []
        for knob in knobs:
            rows = [r for r in results[knob] if r["set"] == name and r["class"] == cls]
            if rows and rows[0]["judged"]:
                cells.append(sum(r["first"] and r["score"] < floor for r in rows))
            else:
                cells.append(sum(r["score"] >= floor for r in rows))
        lines.append(f"{name:<18}{cls:<12}" + "".join(f"{c:>10}" for c in cells))
    lines.append("(answerable classes: right first and hidden; others: something shown)")
    reference = {(r["set"], r["query"]): r for r in results.get("none", [])}
    hidden = {k for k, r in reference.items() if r["first"] and r["score"] < floor}
    for knob in knobs:
        rows = {(r["set"], r["query"]): r for r in results[knob]}
        for name in sorted({k[0] for k in hidden}):
            mine = [k for k in hidden if k[0] == name]
            back = sum(rows[k]["first"] and rows[k]["score"] >= floor for k in mine if k in rows)
            lines.append(f"  {knob}: {back} of the reference's {len(mine)} hidden in {name} shown")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--knobs", nargs="*", default=list(KNOBS))
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--floor", type=float, default=0.5)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    from benchmarks.eval_calibration import CACHE

    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(CACHE / "config"))
    if args.child:
        print(json.dumps(measure(args.child, args.sets, args.floor)))
        return
    results = {}
    for knob in args.knobs:
        out = subprocess.run(
            [sys.executable, __file__, "--child", knob, "--floor", str(args.floor),
             "--sets", *args.sets],
            capture_output=True, text=True,
        )  # fmt: skip
        if out.returncode:
            raise SystemExit(f"knob {knob} failed:\n{out.stderr[-3000:]}")
        results[knob] = json.loads(out.stdout)
        print(f"  {knob} done", file=sys.stderr)
        if args.out:
            args.out.write_text(json.dumps(results))
    print("\n".join(table(results, args.floor)))


if __name__ == "__main__":
    main()
