"""What the relevance floor decides, per class of question, before and after, in one run.

    python benchmarks/eval_calibration.py [--before REV ...] [--models local-multilingual,local]
                                          [--sets NAME ...] [--floor 0.5]

For every development set (BEIR layout: a vault, questions, judgements; a question without a
judgement is one that no note answers) and embedding model, every question is searched through
the real :class:`~pixelmem.core.index.engine.Engine` (hybrid, the default mode) of the code
being measured: this working tree ("after") and, each in a child process, the trees of the
git revisions ``--before`` ("before", default ``main``; several: one column each, in the
order given). Printed per set and class:

* answerable questions: right note first (P@1), right first *and shown* (at or above the floor),
  and *hidden* (right first, below the floor: what the floor costs);
* questions nothing answers: shown nothing (the share that must stay high);
* nDCG@10 over the answerable ones.

The statement sets (``claims_split``, ``sentences_en``, ``sentences_zh``, ``claims_bio``:
PIXELMEM_STATEMENT_SETS)
are measured by default where that folder is set: answered (``a-``) and nothing-answers (``u-``)
statements over a pair of vaults.

Classes come from the question ids (``para-``, ``x-``, ``none-``…; ``a-``/``u-``/``imp-``;
``nat-``/``form-a``/``form-u``), one class per set otherwise. Vectors come from the on-disk
cache of ``benchmarks/_embed_cache.py``: a re-run costs no model time. Development sets only
(``benchmarks/data``, ``shared/eval``): never a held-out one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
EVAL = ROOT.parent.parent / "shared" / "eval"
if not EVAL.is_dir():
    EVAL = ROOT.parent / "shared" / "eval"
CACHE = Path(os.environ.get("PIXELMEM_EMBED_CACHE", ROOT.parent / "calib-cache"))
SETS = [
    "floor_bilingual", "personal_bilingual", "unans_en_40", "unans_en_700", "unans_zh_40",
    "unans_zh_750", "unans_x_700_en", "unans_x_750_zh", "names_q_en", "names_q_zh",
    "names_bilingual", "xquad_zh2en", "xquad_en2zh", "xquad_mixed", "xquad_en", "xquad_zh",
    "kw_zh2en", "kw_en2zh",
]  # fmt: skip
CROSS_OR_CHINESE = ("unans_x_", "xquad_mixed")  # also beyond an English-only model
# A model that reads one language cannot cross.
CROSS_ONLY = {"xquad_zh2en", "xquad_en2zh", "kw_zh2en", "kw_en2zh"}


# Conversational-memory sets kept outside the repository (their licences), one vault per
# person or pair, under the folder PIXELMEM_CHAT_SETS names: ``make_chat_sets.py --realtalk``
# writes ``locomo/`` and ``leftout/`` there; MemoryBank's (``make_chat_sets.py``'s own
# ``locomo/``) goes in as ``memorybank/``.
CHAT_SETS = {"realtalk": "locomo", "realtalk_leftout": "leftout", "memorybank": "memorybank"}
# Statement sets (a pasted claim or sentence; benchmarks/make_statement_sets.py), kept outside
# the repository under the folder PIXELMEM_STATEMENT_SETS names: each a pair of vaults that
# split one source's articles, a statement answered in one and by nothing in the other.
STATEMENT_SETS = ("claims_split", "sentences_en", "sentences_zh", "claims_bio")
# Korean and Japanese sets (make_qa_sets.py --korquad / --jsquad: KorQuAD's licence keeps them
# out of the repository), under the folder PIXELMEM_CJK_SETS names: CJK scripts the decision
# was not fitted on.
MORE_CJK_SETS = ("unans_ko_40", "unans_ko_700", "unans_ja_40", "unans_ja_700")


def default_sets() -> list[str]:
    """:data:`SETS`, and the statement, Korean and Japanese sets that are in the folders
    PIXELMEM_STATEMENT_SETS and PIXELMEM_CJK_SETS name (a statement folder built before
    ``claims_bio`` existed holds the other three)."""
    sets = list(SETS)
    for variable, names in (
        ("PIXELMEM_STATEMENT_SETS", STATEMENT_SETS),
        ("PIXELMEM_CJK_SETS", MORE_CJK_SETS),
    ):
        folder = os.environ.get(variable)
        if folder:
            sets += [name for name in names if (Path(folder) / name).is_dir()]
    return sets


def folder_of(name: str) -> Path:
    if name in STATEMENT_SETS:
        statements = os.environ.get("PIXELMEM_STATEMENT_SETS")
        if not statements:
            raise SystemExit(f"{name}: set PIXELMEM_STATEMENT_SETS to make_statement_sets.py's OUT")
        return Path(statements) / name
    if name in MORE_CJK_SETS:
        cjk = os.environ.get("PIXELMEM_CJK_SETS")
        if not cjk:
            raise SystemExit(f"{name}: set PIXELMEM_CJK_SETS (make_qa_sets.py --korquad --jsquad)")
        return Path(cjk) / name
    if name in CHAT_SETS:
        chat = os.environ.get("PIXELMEM_CHAT_SETS")
        if not chat:
            raise SystemExit(f"{name}: set PIXELMEM_CHAT_SETS to make_chat_sets.py's OUT")
        return Path(chat) / CHAT_SETS[name]
    return DATA / name if (DATA / name).is_dir() else EVAL / name


def vaults_of(folder: Path) -> list[tuple[str, Path]]:
    """The vaults of a set: itself (prefix ""), or one per subfolder (prefix "<name>/", put
    before its question ids: a set of many small vaults, make_chat_sets.py's)."""
    if (folder / "corpus.jsonl").is_file():
        return [("", folder)]
    return [(f"{p.name}/", p) for p in sorted(folder.iterdir()) if (p / "corpus.jsonl").is_file()]


def judged_in(vault: dict[str, str], qrels: dict[str, int]) -> set[str]:
    """The right notes a vault holds (a question asked with its answer left out has none)."""
    held = set(vault.values())
    return {d for d, g in qrels.items() if g > 0 and d in held}


def class_of(set_name: str, query_id: str, judged: bool) -> str:
    head = query_id.split("-")[0]
    if head in ("para", "kw", "name", "x", "none"):
        return head
    if head in ("a", "u", "imp"):
        return {"a": "answerable", "u": "nothing", "imp": "impossible"}[head]
    if head == "nat":
        return "question"
    if head == "form":
        return "form" if judged else "form-none"
    if "names" in set_name:
        return "name" if judged else "name-none"
    return "answerable" if judged else "nothing"


def eval_engine(folder: Path, work: Path, model: str):
    """An engine over a vault in ``work`` with one memory per corpus document (reused), built
    with calls every revision has (the code measured may be an older one)."""
    from benchmarks._embed_cache import cached_embedder
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.store import MemoryStore

    corpus, _, _ = load_beir(folder)
    store = MemoryStore(work)
    existing = {m.source: m.id for m in store.list() if m.source}
    doc_of = {}
    for doc_id, row in corpus.items():
        memory_id = existing.get(f"beir:{doc_id}")
        if memory_id is None:
            title = str(row.get("title") or "").strip() or doc_id
            memory_id = store.create(title, str(row["text"]), source=f"beir:{doc_id}").id
        doc_of[memory_id] = doc_id
    settings = Settings()
    settings.embedding.provider = model
    engine = Engine(settings=settings, store=store, embedder=cached_embedder(model))
    engine.open()
    return engine, doc_of


def model_reads(model: str, name: str) -> bool:
    """Whether ``model`` is measured on set ``name``: MiniLM (``local``) reads English only."""
    return model != "local" or not (
        name in CROSS_ONLY
        or name in MORE_CJK_SETS
        or "zh" in name
        or name.startswith(CROSS_OR_CHINESE)
    )


def measure(sets: list[str], models: list[str], floor: float, tag: str) -> dict:
    """{set/model: {class: counts}} for the pixelmem on sys.path."""
    from pixelmem.core.index.evaluate import load_beir

    results: dict = {}
    for model in models:
        for name in sets:
            if not model_reads(model, name):
                continue
            table: dict[str, dict[str, float]] = {}
            for prefix, folder in vaults_of(folder_of(name)):
                work = CACHE / "vaults" / tag / f"{name}-{model}" / prefix
                engine, doc_of = eval_engine(folder, work, model)
                _, queries, qrels = load_beir(folder)
                for qid, text in queries.items():
                    judged = judged_in(doc_of, qrels.get(qid, {}))
                    hits = engine.search(text, k=10, min_relevance=0.0)
                    _count(table, name, qid, judged, hits, doc_of, floor)
            results[f"{name}/{model}"] = table
            print(f"  measured {name}/{model} ({tag})", file=sys.stderr)
    return results


def _count(
    table: dict, name: str, qid: str, judged: set[str], hits: list, doc_of: dict, floor: float
) -> None:
    """One question's figures added to its class's row of ``table``."""
    from pixelmem.core.index.evaluate import ndcg_at

    ranked = [doc_of.get(h.memory_id, "") for h in hits]
    top = hits[0].score if hits else 0.0
    empty_row = {"n": 0, "first": 0, "shown": 0, "hidden": 0, "empty": 0, "ndcg": 0.0}
    row = table.setdefault(class_of(name, qid, bool(judged)), empty_row)
    row["n"] += 1
    if judged:
        first = bool(ranked) and ranked[0] in judged
        row["first"] += first
        row["shown"] += first and top >= floor
        row["hidden"] += first and top < floor
        row["ndcg"] += ndcg_at(ranked, {d: 1 for d in judged})
    else:
        row["empty"] += top < floor


def measure_related(vault: Path, models: list[str], floor: float) -> dict:
    """Per model: how many neighbours Related lists per memory of ``vault`` (at or above the
    floor, and with up to 8 in all when the code lists weaker ones)."""
    import numpy as np

    from benchmarks._embed_cache import cached_embedder
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings

    out = {}
    for model in models:
        settings = Settings()
        settings.embedding.provider = model
        engine = Engine(vault, settings, embedder=cached_embedder(model))
        engine.open()
        strict, listed = [], []
        for memory_id in engine.index.memory_ids:
            try:
                hits = engine.related(memory_id, k=8, min_relevance=floor, weaker=8)[:8]
            except TypeError:  # code without weaker neighbours
                hits = engine.related(memory_id, k=8, min_relevance=floor)
            strict.append(sum(not getattr(h, "weaker", False) for h in hits))
            listed.append(len(hits))
        out[model] = {
            "memories": len(strict),
            "median_strict": float(np.median(strict)),
            "median_listed": float(np.median(listed)),
            "none_strict": int(sum(c == 0 for c in strict)),
            "none_listed": int(sum(c == 0 for c in listed)),
        }
        print(f"  related {vault.name}/{model}: {out[model]}", file=sys.stderr)
    return out


def export_tree(revision: str, into: Path) -> Path:
    """The ``pixelmem`` package of ``revision`` unpacked into ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "pixelmem"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def print_table(befores: list[dict], after: dict) -> None:
    """One row per set and class; each cell the revisions' figures and this tree's, joined
    by ">" in the order measured."""
    width = 6 * (len(befores) + 1)
    print(f"\n{'set/model':<38}{'class':<12}{'n':>5}  {'P@1':>{width}}  {'shown':>{width}}  "
          f"{'hidden':>{width}}  {'empty':>{width}}  {'nDCG@10':>{width + 6}}")  # fmt: skip
    for key, table in after.items():
        for cls, row in sorted(table.items()):
            olds = [b.get(key, {}).get(cls) for b in befores]

            def cells(field: str, share: bool = False, olds: list = olds, row: dict = row) -> str:
                def one(r: dict | None) -> str:
                    if not r:
                        return "-"
                    return f"{r[field] / r['n']:.3f}" if share else f"{int(r[field])}"

                return ">".join([one(o) for o in olds] + [one(row)])

            judged = cls not in ("nothing", "none", "form-none", "name-none", "impossible")
            if judged:
                text = (f"{cells('first'):>{width}}  {cells('shown'):>{width}}  "
                        f"{cells('hidden'):>{width}}  {'':>{width}}  "
                        f"{cells('ndcg', True):>{width + 6}}")  # fmt: skip
            else:
                text = f"{'':>{width}}  {'':>{width}}  {'':>{width}}  {cells('empty'):>{width}}"
            print(f"{key:<38}{cls:<12}{row['n']:>5}  {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--before",
        nargs="*",
        default=["main"],
        help="git revisions to compare with (none: this tree alone)",
    )
    parser.add_argument("--models", default="local-multilingual")
    parser.add_argument("--sets", nargs="*", default=default_sets())
    parser.add_argument("--floor", type=float, default=0.5)
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="before", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--related", type=Path, default=None, help="a vault to measure Related on")
    args = parser.parse_args()
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(CACHE / "config"))
    models = args.models.split(",")
    if args.child is not None:  # measuring another revision's code
        sys.path[:0] = [str(args.child), str(ROOT)]
        result = {"sets": measure(args.sets, models, args.floor, args.tag) if args.sets else {}}
        if args.related:
            result["related"] = measure_related(args.related, models, args.floor)
        print(json.dumps(result))
        return
    sys.path.insert(0, str(ROOT))
    befores = [measure_revision(rev, args) for rev in args.before]
    after = {"sets": measure(args.sets, models, args.floor, "after") if args.sets else {}}
    if args.related:
        after["related"] = measure_related(args.related, models, args.floor)
    revisions = " > ".join([*args.before, "this tree"])
    print(f"floor {args.floor}; columns a>b>…: {revisions}")
    print_table([b.get("sets", {}) for b in befores], after["sets"])
    for model, figures in after.get("related", {}).items():
        print(f"\nRelated on {args.related.name} ({model}), {revisions}:")
        for field, value in figures.items():
            old = [str(b.get("related", {}).get(model, {}).get(field, "-")) for b in befores]
            print(f"  {field:<14} {' > '.join([*old, str(value)])}")
    if args.json:
        figures = {"before": dict(zip(args.before, befores, strict=True)), "after": after}
        args.json.write_text(json.dumps(figures, indent=1))


def measure_revision(revision: str, args: argparse.Namespace) -> dict:
    """The figures of ``revision``'s code, measured in a child process."""
    with tempfile.TemporaryDirectory(prefix="pm-before-") as scratch:
        tree = export_tree(revision, Path(scratch))
        related = ["--related", str(args.related.resolve())] if args.related else []
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(tree), "--models", args.models,
             "--floor", str(args.floor), "--tag", f"before-{revision}", *related,
             "--sets", *args.sets],
            capture_output=True, text=True, cwd=scratch,
        )  # fmt: skip
    if out.returncode:
        raise SystemExit(f"measuring {revision} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout)


if __name__ == "__main__":
    main()
