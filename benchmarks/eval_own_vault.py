"""What search decides on a real vault: questions it does not answer, and questions written for
its notes — this checkout and, with ``--old REF``, that ref's code, in one run.

    python benchmarks/eval_own_vault.py VAULT [--questions FILE.tsv] [--outsiders 200]
                                              [--old REF] [--show N]

``VAULT`` (an Obsidian vault, any folder of notes) is copied, never touched, and indexed by each
code with the default multilingual model (vectors through ``benchmarks/_embed_cache``, so a
second run embeds nothing). Printed per code:

* **outsiders shown**: of ``--outsiders`` XQuAD questions per language (``../shared/eval``:
  Wikipedia's subjects — a football final, Warsaw, the Normans — that a personal vault does not
  hold), how many show something above the floor (0.5): what a person would see for a
  question the vault cannot answer. ``--show N`` prints the first N shown, to read (a vault on
  one of those subjects answers some of them);
* **questions**: with ``--questions`` (tab-separated: question, the title of the note that
  answers it, a class such as ``zh->en``), per class how many rank that note first, and how
  many of those show it.

``benchmarks/data/own_vault/`` holds the questions written for a public bilingual research
vault (its README says which, and how to fetch it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
FLOOR = 0.5


def outsiders(count: int, seed: int = 7) -> dict[str, list[str]]:
    """``count`` XQuAD questions per language, the same ones every run."""
    chosen = {}
    for language in ("en", "zh"):
        lines = (EVAL / f"xquad_{language}" / "queries.jsonl").read_text("utf-8").splitlines()
        questions = [json.loads(line)["text"] for line in lines if line.strip()]
        chosen[language] = random.Random(seed).sample(questions, min(count, len(questions)))
    return chosen


def read_questions(path: Path | None) -> list[tuple[str, str, str]]:
    if path is None:
        return []
    rows = []
    for line in path.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, title, kind = [*line.split("\t"), "", ""][:3]
            rows.append((question.strip(), title.strip(), kind.strip() or "all"))
    return rows


def measure(vault: Path, questions: list[tuple[str, str, str]], count: int, show: int) -> dict:
    """The figures of the pixelmem on ``sys.path`` over a copy of ``vault`` (child process)."""
    from benchmarks._embed_cache import cached_embedder
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.settings import Settings

    model = "local-multilingual"
    settings = Settings()
    settings.embedding.provider = model
    engine = Engine(vault, settings, embedder=cached_embedder(model))
    engine.open()
    figures: dict = {"memories": len(engine.store.list()), "outsiders": {}, "shown": []}
    for language, asked in outsiders(count).items():
        shown = 0
        for question in asked:
            hits = engine.search(question, k=3, min_relevance=FLOOR)
            shown += bool(hits)
            if hits and len(figures["shown"]) < show:
                figures["shown"].append(f"{question} -> {hits[0].title} [{hits[0].score:.2f}]")
        figures["outsiders"][language] = [shown, len(asked)]
    first: Counter[str] = Counter()
    visible: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for question, title, kind in questions:
        total[kind] += 1
        hits = engine.search(question, k=1, min_relevance=0.0)
        if hits and hits[0].title == title:
            first[kind] += 1
            visible[kind] += hits[0].score >= FLOOR
    figures["questions"] = {k: [first[k], visible[k], total[k]] for k in sorted(total)}
    return figures


def run_tree(name: str, source: Path, args: argparse.Namespace) -> dict:
    """``measure`` with ``source``'s pixelmem in a child process, on a fresh copy of the vault."""
    with tempfile.TemporaryDirectory(prefix="pm-own-vault-") as folder:
        copy = Path(folder) / "vault"
        shutil.copytree(args.vault, copy, ignore=shutil.ignore_patterns(".pixelmem"))
        env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(Path(folder) / "config"))
        env["PYTHONPATH"] = os.pathsep.join([str(source), str(ROOT)])
        child = [sys.executable, str(Path(__file__).resolve()), "--child", str(copy)]
        child += ["--outsiders", str(args.outsiders), "--show", str(args.show)]
        if args.questions:
            child += ["--questions", str(args.questions)]
        done = subprocess.run(child, env=env, capture_output=True, text=True, check=False)
        if done.returncode:
            sys.stderr.write(done.stderr)
            raise SystemExit(f"{name}: the measurement failed")
        return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("vault", type=Path)
    parser.add_argument(
        "--questions", type=Path, help="tab-separated: question, title of its note, class"
    )
    parser.add_argument(
        "--outsiders", type=int, default=200, help="XQuAD questions per language (200)"
    )
    parser.add_argument("--old", help="a git ref to measure beside this checkout")
    parser.add_argument("--show", type=int, default=0, help="print the first N outsiders shown")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        figures = measure(args.vault, read_questions(args.questions), args.outsiders, args.show)
        print(json.dumps(figures, ensure_ascii=False))
        return 0
    from _old_code import alternate_rounds

    runs = alternate_rounds(
        args.old, 1, lambda name, source: run_tree(name, source, args), "pm-own-vault-old-"
    )
    for name, (figures,) in runs.items():
        print(f"{name}: {figures['memories']} memories")
        for language, (shown, asked) in figures["outsiders"].items():
            print(f"  outsiders ({language}): {shown} of {asked} show something")
        for kind, (first, visible, total) in figures["questions"].items():
            print(f"  questions {kind}: right first {first} of {total}, shown {visible}")
        for line in figures["shown"]:
            print(f"    shown: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
