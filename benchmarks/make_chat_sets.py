"""Conversational-memory development sets: questions a person asks about their own chat history.

    python benchmarks/make_chat_sets.py EVAL_DATA OUT
    python benchmarks/eval_heldout.py measure --sets locomo --data OUT --trees 8a76ba1 main

EVAL_DATA is ``eval_data/`` of zhongwanjun/MemoryBank-SiliconFriend (MIT licence): 15 users'
ten days of chat with an AI companion, in English and in Chinese, and 100 probing questions per
language ("I recommended a science fiction movie before, what was it?", "4月30号我做了一道什么
菜？"). Each user becomes a vault with one memory per day ("Name: …" / "AI: …" lines). The set
has no judgement of which day answers a question, so every day is marked relevant: what it
measures is how many questions about the user's own history show nothing at the floor ("hidden"
in eval_heldout's table; its P@1 and nDCG are 1 by construction). Some questions ask by date
only ("what did we talk about on April 27th"), which the notes' text does not hold: those show
nothing in every version. The folders are written under OUT/locomo/ so that eval_heldout's
per-conversation layout reads them; the query ids start with ``en-`` or ``cn-`` (one row per
language). Not a held-out set: it is ours to tune on, unlike LoCoMo.

    python benchmarks/make_chat_sets.py --realtalk REALTALK_DATA OUT

REALTALK_DATA is ``data/`` of danny911kr/REALTALK (only its own ``Chat_*.json``: 21 days of
real messaging between two people, ten pairs; its ``data/locomo/`` is LoCoMo, held out, and is
never read): one vault per pair, one memory per session (as LoCoMo's converter writes them,
``_heldout_sets.locomo``), the questions of categories 1-3 with evidence, each judged by its
evidence sessions — written under ``OUT/locomo/rt-<pair>``. And the negatives of the same
class, "leave the answer out": every question whose evidence lies in one session asked again
of the same vault without that session (its siblings about the same two people stay), under
``OUT/leftout/rt-<pair>-wo-s<N>``, judged by the session left out (in no note of the vault: a
best hit shown there is an answer shown where the vault holds none).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LANGUAGES = ("en", "cn")


def convert(eval_data: Path, out: Path) -> dict[str, int]:
    counts = {}
    for language in LANGUAGES:
        memories = json.loads((eval_data / language / f"memory_bank_{language}.json").read_text())
        questions = _questions(eval_data / language / f"probing_questions_{language}.jsonl")
        counts[language] = sum(
            _write_user(out / "locomo", language, name.strip(), user, questions)
            for name, user in memories.items()
        )
    return counts


def realtalk(source: Path, out: Path) -> tuple[int, int]:
    """REALTALK's pairs under ``out`` (see the module docstring): (questions, left-out ones)."""
    from benchmarks._heldout_sets import write_beir

    answerable = left_out = 0
    for path in sorted(source.glob("Chat_*.json")):
        chat = json.loads(path.read_text(encoding="utf-8"))
        corpus = _realtalk_sessions(chat)
        sessions = {row["_id"] for row in corpus}
        queries, qrels, single = [], [], {}
        for number, qa in enumerate(chat.get("qa", [])):
            right = sorted({f"s{s}" for e in qa.get("evidence") or []
                            for s in _EVIDENCE.findall(str(e))} & sessions)  # fmt: skip
            if not right:
                continue
            query = {"_id": f"c{qa.get('category', 0)}-{number}", "text": str(qa["question"])}
            queries.append(query)
            qrels.extend((query["_id"], s) for s in right)
            if len(right) == 1:
                single.setdefault(right[0], []).append(query)
        slug = f"rt-{path.stem}"
        write_beir(out / "locomo" / slug, corpus, queries, qrels)
        answerable += len(queries)
        for session, asked in single.items():
            kept = [row for row in corpus if row["_id"] != session]
            pairs = [(query["_id"], session) for query in asked]
            write_beir(out / "leftout" / f"{slug}-wo-{session}", kept, asked, pairs)
            left_out += len(asked)
    return answerable, left_out


_EVIDENCE = re.compile(r"D(\d+):")


def _realtalk_sessions(chat: dict) -> list[dict]:
    """REALTALK's sessions written as LoCoMo's are (one memory per session, a turn a line)."""
    from benchmarks._heldout_sets import _locomo_sessions

    return _locomo_sessions(chat, text="clean_text")[0]


def _questions(path: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            for name, asked in json.loads(line).items():
                found[name.strip()] = list(asked)
    return found


def _write_user(
    root: Path, language: str, name: str, user: dict, questions: dict[str, list[str]]
) -> int:
    slug = name.replace(" ", "_")
    folder = root / f"{language}-{slug}"
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    days = list(user["history"])
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as corpus:
        for day, turns in user["history"].items():
            lines = [f"{who}: {turn[key]}" for turn in turns for who, key in _speakers(name)]
            title = f"Conversation on {day}" if language == "en" else f"{day} 的对话"
            row = {"_id": day, "title": title, "text": "\n".join(lines)}
            corpus.write(json.dumps(row, ensure_ascii=False) + "\n")
    asked = questions.get(name, [])
    with (
        (folder / "queries.jsonl").open("w", encoding="utf-8") as queries,
        (folder / "qrels" / "test.tsv").open("w", encoding="utf-8") as qrels,
    ):
        qrels.write("query-id\tcorpus-id\tscore\n")
        for number, text in enumerate(asked):
            query_id = f"{language}-{slug}{number}"
            queries.write(json.dumps({"_id": query_id, "text": text}, ensure_ascii=False) + "\n")
            qrels.writelines(f"{query_id}\t{day}\t1\n" for day in days)
    return len(asked)


def _speakers(name: str) -> tuple[tuple[str, str], tuple[str, str]]:
    return (name, "query"), ("AI", "response")


def tool_parser(description: str) -> argparse.ArgumentParser:
    """The options of a tool that measures these sets (explain_hidden, eval_chat_dates)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data", type=Path, required=True, help="make_chat_sets.py's OUT")
    parser.add_argument("--set", default="locomo", help="the folder of vaults under --data")
    parser.add_argument("--floor", type=float, default=0.5)
    parser.add_argument("--model", default="local-multilingual")
    return parser


def use_development_data(data: Path, tool: str) -> None:
    """Refuse the held-out folder (never tuned on); keep the vectors and settings with the set."""
    from benchmarks.eval_heldout import DATA

    held_out = (
        data.resolve() == DATA.resolve()
        or any((data / name).exists() for name in ("scifact", "squad"))
        or any((data / "locomo").glob("conv-*"))  # LoCoMo's conversations, wherever kept
    )
    if held_out:
        raise SystemExit(f"{tool} reads development sets only, not the held-out folder")
    os.environ.setdefault("PIXELMEM_EMBED_CACHE", str(data / "cache"))
    os.environ.setdefault("PIXELMEM_CONFIG_DIR", str(data / "config"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("eval_data", type=Path, help="MemoryBank-SiliconFriend's eval_data/")
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--realtalk", action="store_true", help="the source is REALTALK's data/ (its Chat_*.json)"
    )
    args = parser.parse_args()
    if args.realtalk:
        answerable, left_out = realtalk(args.eval_data, args.out)
        print(f"realtalk: {answerable} questions, {left_out} asked again with the answer left out")
        return
    for language, count in convert(args.eval_data, args.out).items():
        print(f"{language}: {count} questions")


if __name__ == "__main__":
    main()
