"""Which part of the decision hides right answers: the best hit's evidence on a development set.

    python benchmarks/explain_hidden.py --data OUT [--set locomo] [--floor 0.5] [--json FILE]

``OUT`` is a folder of per-conversation BEIR sets as ``benchmarks/make_chat_sets.py`` writes
them (one vault per person under ``OUT/<set>/``). Every question is searched through the real
engine of this tree (hybrid, ``explain=True``, the e5-small model) and its best hit's evidence
is kept: cosine, semantic and keyword evidence, coverage, the words no note holds, margin,
standout, the vault's leave-one-out null, the token lift, and each decision model's
probability. Printed per language (the query id's prefix) and per kind of question — one that
names a date (:func:`~pixelmem.core.index.time_query.parse_time_query` finds one: "what did we
talk about on April 27th", which a note's text seldom holds) or not — how many are hidden
(right note first, below the floor), the median of each feature over the hidden and the shown
ones, which model made the hidden decisions, and the hidden questions that name no date with
their evidence.

``--against leftout`` also searches the questions asked again with their answer left out
(``make_chat_sets.py --realtalk``'s ``leftout/``) and prints how many show something anyway,
how well each feature tells the right-first answers from those best hits (AUC: the chance an
answer's value is the higher), and what moving every decision up by a few tenths of a logit
would give on both (the trade-off a floor can choose on this class).

Development data only: it refuses the held-out folder of ``benchmarks/eval_heldout.py``.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FEATURES = ("cosine", "semantic", "keyword", "coverage", "unknown", "margin", "standout", "loo")
FEATURES += ("lift",)


def collect(data: Path, name: str, floor: float, model: str) -> list[dict]:
    """One row per question: its best hit's evidence and whether a judged note is first."""
    from benchmarks.eval_heldout import open_engine, vault_folders
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.index.time_query import parse_time_query

    rows = []
    for folder in vault_folders(data, name):
        engine, doc_of = open_engine(folder, data / "vaults" / "explain" / folder.name, model)
        _, queries, qrels = load_beir(folder)
        for query_id, text in queries.items():
            hits = engine.search(text, k=3, min_relevance=0.0, explain=True)
            if not hits or hits[0].evidence is None:
                continue
            evidence = hits[0].evidence
            judged = {d for d, grade in qrels.get(query_id, {}).items() if grade > 0}
            left_out = not judged & set(doc_of.values())  # the answer is not in this vault
            row = {field: getattr(evidence, field) for field in FEATURES}
            row.update(
                query=query_id,
                text=text,
                score=float(hits[0].score),
                first=doc_of.get(hits[0].memory_id) in judged,
                dated=parse_time_query(text).range is not None,
                left_out=left_out,
                parts=dict(evidence.parts),
            )
            rows.append(row)
    return rows


def summary(rows: list[dict], floor: float) -> list[str]:
    """Lines of the table: per language and kind, hidden counts and feature medians."""
    lines = []
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        kind = "dated" if row["dated"] else "undated"
        groups.setdefault((row["query"].split("-")[0], kind), []).append(row)
    for (language, kind), group in sorted(groups.items()):
        hidden = [r for r in group if r["first"] and r["score"] < floor]
        shown = [r for r in group if r["first"] and r["score"] >= floor]
        winners = Counter(max(r["parts"], key=r["parts"].get) for r in hidden if r["parts"])
        lines.append(
            f"{language} {kind}: {len(group)} questions, {len(hidden)} hidden"
            f" (right first, < {floor}), {len(shown)} shown; hidden decided by"
            f" {dict(winners) or '-'}"
        )
        for field in FEATURES:
            lines.append(
                f"  {field:9} hidden {_median(hidden, field)}  shown {_median(shown, field)}"
            )
    return lines


def _median(rows: list[dict], field: str) -> str:
    values = [r[field] for r in rows if r[field] is not None]
    return f"{statistics.median(values):7.3f}" if values else "      -"


def examples(rows: list[dict], floor: float) -> list[str]:
    """The hidden questions that name no date, with their evidence."""
    lines = []
    for row in rows:
        if row["first"] and row["score"] < floor and not row["dated"]:
            shown = {f: round(row[f], 2) for f in FEATURES if row[f] is not None}
            parts = {k: round(v, 2) for k, v in row["parts"].items()}
            lines.append(f"  {row['score']:.3f}  {row['text']}\n      {shown}\n      {parts}")
    return lines


SHIFTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # logits every decision is moved up by in the trade-off


def separation(answers: list[dict], left_out: list[dict], floor: float) -> list[str]:
    """How the right-first answers and the left-out questions' best hits compare: shown
    anyway, each feature's AUC, and the trade-off of a floor moved down."""
    right = [r for r in answers if r["first"]]
    lines = [f"asked with the answer left out: {len(left_out)}, something shown anyway "
             f"{sum(r['score'] >= floor for r in left_out)}"]  # fmt: skip
    for field in (*FEATURES, "score"):
        lines.append(f"  AUC {field:9} {_auc(right, left_out, field)}")
    level = math.log(floor / (1 - floor))
    for shift in SHIFTS:
        hidden = sum(_logit(r["score"]) + shift < level for r in right)
        shown = sum(_logit(r["score"]) + shift >= level for r in left_out)
        lines.append(f"  decisions +{shift:.2f}: hidden {hidden} of {len(right)} right first,"
                     f" left-out shown {shown} of {len(left_out)}")  # fmt: skip
    return lines


def _auc(high: list[dict], low: list[dict], field: str) -> str:
    a = [r[field] for r in high if r[field] is not None]
    b = [r[field] for r in low if r[field] is not None]
    if not a or not b:
        return "    -"
    wins = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    return f"{wins / (len(a) * len(b)):.3f}"


def _logit(score: float) -> float:
    score = min(max(score, 1e-9), 1 - 1e-9)
    return math.log(score / (1 - score))


def main() -> None:
    from benchmarks.make_chat_sets import tool_parser, use_development_data

    parser = tool_parser(__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument(
        "--against", default=None, help="a set of the same vaults with the answers left out"
    )
    args = parser.parse_args()
    use_development_data(args.data, "explain_hidden")
    rows = collect(args.data, args.set, args.floor, args.model)
    if args.against:
        left_out = [r for r in collect(args.data, args.against, args.floor, args.model)
                    if r["left_out"]]  # fmt: skip
        print("\n".join(separation(rows, left_out, args.floor)))
    print("\n".join(summary(rows, args.floor)))
    print("hidden, naming no date:")
    print("\n".join(examples(rows, args.floor)) or "  none")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
