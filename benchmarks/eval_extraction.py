"""Precision and recall of memories proposed from conversations (core/assist/extraction.py).

    .venv/bin/python benchmarks/eval_extraction.py                 # the deterministic fake model
    .venv/bin/python benchmarks/eval_extraction.py --server http://127.0.0.1:8000/v1 \
        --provider openai --model smollm2                           # a real model, as it is

The set (benchmarks/data/extraction/conversations.json) holds 16 conversations, English and
Chinese, with the memories each should yield: the words a draft must hold, and whether it is a
new memory, an update of a saved one or supersedes it. A draft is right when it holds every
key word and is the right kind of proposal about the right memory; precision is right drafts /
all drafts, recall right drafts / expected memories. "found" counts the expected memories some
draft holds, whatever its kind (the extraction saw it, but linked it wrongly).

The fake model (tests/extraction_fakes.py) proposes by cue words and adds a made-up item and
one of the assistant's suggestions to every answer: the guards must drop those.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

from extraction_fakes import rule_model_reply  # noqa: E402
from fake_servers import FakeServer  # noqa: E402

from pixelmem.core.archive.inbox import Inbox  # noqa: E402
from pixelmem.core.assist.conversations import ChatMessage, Conversation  # noqa: E402
from pixelmem.core.assist.extraction import ExtractionReport, propose_from_messages  # noqa: E402
from pixelmem.core.errors import PixelmemError  # noqa: E402
from pixelmem.core.index.engine import Engine  # noqa: E402
from pixelmem.core.settings import ChatSettings, Settings  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "extraction" / "conversations.json"


def write_saved(vault: Path, saved: list[dict]) -> None:
    for memory in saved:
        text = f"---\nid: {memory['id']}\ntitle: {memory['title']}\n---\n\n{memory['body']}\n"
        (vault / f"{memory['id']}.md").write_text(text, encoding="utf-8")


def proposal_of(draft) -> tuple[str, str]:
    kind = str(draft.extra.get("proposal") or "new")
    return kind, str(draft.extra.get("target") or "")


def holds(draft, keys: list[str]) -> bool:
    text = draft.body.casefold()
    return all(key.casefold() in text for key in keys)


def score(expected: list[dict], drafts: list) -> tuple[int, int]:
    """(right, found) for one conversation."""
    right = found = 0
    used: set[int] = set()
    for item in expected:
        candidates = [i for i, d in enumerate(drafts) if i not in used and holds(d, item["keys"])]
        if not candidates:
            continue
        found += 1
        wanted = (item["proposal"], item.get("target", ""))
        exact = [i for i in candidates if proposal_of(drafts[i]) == wanted]
        if exact:
            right += 1
            used.add(exact[0])
    return right, found


def run(chat: ChatSettings, settings: Settings, verbose: bool) -> dict:
    data = json.loads(DATA.read_text(encoding="utf-8"))["conversations"]
    totals = {"expected": 0, "drafts": 0, "right": 0, "found": 0, "dropped": 0, "seconds": 0.0}
    totals["unusable"] = 0
    for case in data:
        with tempfile.TemporaryDirectory() as tmp:
            vault = Path(tmp) / "vault"
            vault.mkdir()
            write_saved(vault, case["saved"])
            engine = Engine(vault, settings)
            engine.open()
            messages = [ChatMessage(role, text) for role, text in case["messages"]]
            conversation = Conversation(title=case["title"], messages=messages)
            start = time.perf_counter()
            try:
                report = propose_from_messages(
                    engine, Inbox(vault), chat, messages, conversation=conversation
                )
            except PixelmemError as exc:  # an answer with no JSON at all: nothing proposed
                report = ExtractionReport(dropped=[f"the answer: {exc}"])
                totals["unusable"] += 1
            totals["seconds"] += time.perf_counter() - start
            right, found = score(case["expected"], report.drafts)
            totals["expected"] += len(case["expected"])
            totals["drafts"] += len(report.drafts)
            totals["right"] += right
            totals["found"] += found
            totals["dropped"] += len(report.dropped)
            if verbose:
                kinds = [proposal_of(d)[0] for d in report.drafts]
                print(f"{case['id']}: {len(case['expected'])} expected, drafts {kinds}, "
                      f"right {right}, dropped {report.dropped}")  # fmt: skip
                if not report.drafts and case["expected"]:
                    print(f"   answer: {report.answer[:300]!r}")
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", help="a real chat server's base URL (default: the fake)")
    parser.add_argument("--provider", default="openai", choices=("openai", "ollama"))
    parser.add_argument("--model", default="chat-model")
    parser.add_argument("--context-window", type=int, default=2048)
    parser.add_argument("--keyword", action="store_true", help="keyword search (no model load)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    settings = Settings()
    if args.keyword:
        settings.search.mode = "keyword"
    fake = None
    base_url = args.server
    if base_url is None:
        fake = FakeServer(chat_responder=rule_model_reply).start()
        base_url = fake.openai_url if args.provider == "openai" else fake.url
    chat = ChatSettings(
        provider=args.provider, base_url=base_url, model=args.model,
        context_window=args.context_window, max_tokens=512, timeout=600,
    )  # fmt: skip
    try:
        t = run(chat, settings, args.verbose)
    finally:
        if fake is not None:
            fake.stop()
    precision = t["right"] / t["drafts"] if t["drafts"] else 0.0
    recall = t["right"] / t["expected"] if t["expected"] else 0.0
    who = "fake rule model" if fake else f"{args.model} at {base_url}"
    print(f"extraction ({who}): {t['expected']} expected memories in 16 conversations")
    print(f"  drafts {t['drafts']}, right {t['right']}, found (any kind) {t['found']}")
    print(f"  set aside by the guards {t['dropped']}, answers without JSON {t['unusable']}")
    print(f"  precision {precision:.2f}  recall {recall:.2f}  ({t['seconds']:.1f} s of requests)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
