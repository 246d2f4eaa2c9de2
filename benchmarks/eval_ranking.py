"""Ranking on the development sets, per search mode, for several code trees in one run.

    python benchmarks/eval_ranking.py [--trees main .] [--sets climate squad_train ...]
                                      [--modes hybrid semantic keyword] [--data DIR]
                                      [--model local-multilingual] [--json FILE]

Every question of every set runs through the real :class:`~pixelmem.core.index.engine.Engine`
(default settings, ``min_relevance`` 0: ranking only) of each tree — a git revision's
``pixelmem`` exported beside this checkout, or ``.`` for this one — each in a child process,
and per set and mode it prints nDCG@10 (graded where the set grades), P@1 (a judged note
first) and recall@10, each tree's figure joined by ">" in the order given (``--json`` also
holds each query's nDCG@10 per mode). Two folds (the
queries split by a hash of their id) are printed too for hybrid: a change that helps must
help on both.

The sets are BEIR folders under ``--data`` (default ``../rank-data`` beside the repository,
env ``PIXELMEM_RANK_DATA``): those ``benchmarks/make_rank_sets.py`` builds (``climate``,
``squad_train``, ``dbpedia_s``, ``msmarco_s``, ``business``), ``xquad_en``/``xquad_zh`` from
``../shared/eval`` and ``xquad_mixed`` (English and Chinese passages in one vault, half the
questions across languages) from ``benchmarks/data``, and ``realtalk``: a folder of BEIR
folders, one vault per conversation (``benchmarks/make_chat_sets.py --realtalk``'s
``OUT/locomo``; each session a memory, questions judged by their evidence sessions). Vectors
come from ``benchmarks/_embed_cache.py`` (``PIXELMEM_EMBED_CACHE``, default ``<data>/cache``).
Development sets only: issue 30's held-out sets (SciFact, LoCoMo, SQuAD dev, CMRC 2018) are
measured by ``eval_heldout.py``, never here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PIXELMEM_RANK_DATA", ROOT.parent / "rank-data"))
SHARED = ROOT.parent.parent / "shared" / "eval"  # /work/shared/eval beside a worktree
if not SHARED.is_dir():  # ... or beside a checkout
    SHARED = ROOT.parent / "shared" / "eval"
SETS = ("climate", "squad_train", "dbpedia_s", "xquad_en", "xquad_zh", "xquad_mixed", "realtalk")
# Asked for by name: make_rank_sets.py's other two, and make_statement_sets.py's claim sets
# (linked or copied under --data; each a folder of vaults).
MORE_SETS = ("msmarco_s", "business", "claims_split", "claims_bio")
MODES = ("hybrid", "semantic", "keyword")
FIELDS = ("ndcg", "p1", "r10")


def folder_of(data: Path, name: str) -> Path:
    for folder in (data / name, ROOT / "benchmarks" / "data" / name):
        if (folder / "corpus.jsonl").is_file():
            return folder
    return SHARED / name


def fold_of(query_id: str) -> int:
    return hashlib.sha1(query_id.encode()).digest()[0] % 2


def measure_set(data: Path, name: str, modes: list[str], model: str, tag: str) -> dict:
    """{mode: {"all"|"fold0"|"fold1": {n, ndcg, p1, r10}}, "queries": {id: [ndcg per mode]}}."""
    from benchmarks.eval_heldout import vault_folders

    table: dict = {mode: {} for mode in modes}
    per_query: dict[str, list[float]] = {}
    folder = folder_of(data, name)
    vaults = [folder] if (folder / "corpus.jsonl").is_file() else vault_folders(data, name)
    for vault in vaults:
        work = data / "vaults" / tag / name
        started = time.perf_counter()
        _measure_vault(vault, work / vault.name if vault != folder else work, modes, model,
                       table, per_query)  # fmt: skip
        print(f"  {tag}: {name}/{vault.name} ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr)  # fmt: skip
    return {"modes": table, "queries": per_query}


def _measure_vault(
    folder: Path, work: Path, modes: list[str], model: str, table: dict, per_query: dict
) -> None:
    """One vault's questions added to ``table`` and ``per_query`` (measure_set's)."""
    from benchmarks.eval_calibration import eval_engine
    from pixelmem.core.index.evaluate import load_beir, ndcg_at

    engine, doc_of = eval_engine(folder, work, model)
    _, queries, qrels = load_beir(folder)
    for query_id, text in queries.items():
        graded = {d: g for d, g in qrels.get(query_id, {}).items() if g > 0}
        if not graded:
            continue
        for mode in modes:
            hits = engine.search(text, mode=mode, k=10, min_relevance=0.0)
            ranked = [doc_of.get(h.memory_id, "") for h in hits]
            ndcg = ndcg_at(ranked, graded)
            figures = {"ndcg": ndcg, "p1": float(bool(ranked) and ranked[0] in graded),
                       "r10": len(set(ranked[:10]) & set(graded)) / len(graded)}  # fmt: skip
            per_query.setdefault(query_id, []).append(round(ndcg, 4))
            for part in ("all", f"fold{fold_of(query_id)}"):
                row = table[mode].setdefault(part, {"n": 0, **dict.fromkeys(FIELDS, 0.0)})
                row["n"] += 1
                for field in FIELDS:
                    row[field] += figures[field]


def child(args: argparse.Namespace) -> None:
    sys.path[:0] = [str(args.child), str(ROOT)]
    os.environ.setdefault("PIXELMEM_EMBED_CACHE", str(args.data / "cache"))
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(args.data / "config"))
    figures = {name: measure_set(args.data, name, args.modes, args.model, args.tag)
               for name in args.sets}  # fmt: skip
    print(json.dumps(figures))


def measure_tree(tree: str, args: argparse.Namespace) -> dict:
    from benchmarks.eval_heldout import tree_figures

    return tree_figures(tree, "pm-rank-", lambda code, tag: [
        __file__, "--child", str(code), "--tag", tag, "--model", args.model,
        "--data", str(args.data), "--sets", *args.sets, "--modes", *args.modes,
    ])  # fmt: skip


def print_table(trees: list[str], results: list[dict], modes: list[str]) -> None:
    print(f"\nranking on the development sets; cells: {' > '.join(trees)}")
    lines = [("set", "mode", "n", "nDCG@10", "P@1", "R@10")]
    for name in results[0]:
        for mode in modes:
            parts = ["all", "fold0", "fold1"] if mode == "hybrid" else ["all"]
            for part in parts:
                rows = [r[name]["modes"][mode].get(part) for r in results]
                label = mode if part == "all" else f"  {part}"
                n = str(int(rows[-1]["n"])) if rows[-1] else "0"
                lines.append((name, label, n, *(_cells(rows, f) for f in FIELDS)))
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))


def _cells(rows: list[dict | None], field: str) -> str:
    return " > ".join(f"{r[field] / r['n']:.4f}" if r else "-" for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trees", nargs="+", default=["main", "."])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS + MORE_SETS)
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument("--model", default="local-multilingual")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.data = args.data.resolve()
    sys.path.insert(0, str(ROOT))
    if args.child is not None:
        child(args)
        return
    load = os.getloadavg()
    results = [measure_tree(tree, args) for tree in args.trees]
    print_table(args.trees, results, args.modes)
    from benchmarks.eval_heldout import finish

    finish(load, args.trees, results, args.json)


if __name__ == "__main__":
    main()
