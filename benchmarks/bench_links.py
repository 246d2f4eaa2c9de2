"""Wiki links and the quick switcher on a large vault: how long the Backlinks panel's and the
quick switcher's work takes (all of it runs on workers; these figures say how stale a panel
can be, not how long the window freezes).

    .venv/bin/python benchmarks/bench_links.py [--n 10000] [--repeat 5]

Memories are generated in memory (titles of 2-4 words, some aliases, bodies of ~120 words
with three [[links]] each, one with a heading, one with an alias). The reference, measured in
the same run, is one pass of ``str.casefold()`` over every body: the least any scan of the
text can cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pixelmem.core.vault.links import LinkGraph, plan_rename
from pixelmem.core.vault.memory import Memory
from pixelmem.core.vault.quick_switch import rank_memories

WORDS = [
    "index",
    "query",
    "latency",
    "memory",
    "cache",
    "vector",
    "garden",
    "tomato",
    "recipe",
    "budget",
    "invoice",
    "meeting",
    "deadline",
    "train",
    "ticket",
    "museum",
    "chapter",
    "author",
    "guitar",
    "chord",
    "kernel",
    "process",
    "thread",
    "backup",
    "archive",
    "schedule",
    "review",
    "summary",
    "insight",
    "pattern",
    "habit",
    "sleep",
    "exercise",
    "coffee",
    "compiler",
]


def generate(n: int, seed: int = 0) -> list[Memory]:
    rng = random.Random(seed)
    titles = [
        f"{' '.join(rng.sample(WORDS, rng.randint(2, 4))).capitalize()} {i}" for i in range(n)
    ]
    memories = []
    for i, title in enumerate(titles):
        words = [rng.choice(WORDS) for _ in range(120)]
        links = rng.sample(titles, 3)
        words[10] = f"[[{links[0]}]]"
        words[50] = f"[[{links[1]}#Notes]]"
        words[90] = f"[[{links[2]}|see there]]"
        words[100] = titles[rng.randrange(n)].lower()  # an unlinked mention
        aliases = [f"alias {i}"] if i % 10 == 0 else []
        path = Path(f"/vault/notes/{i:05d}.md")
        memories.append(
            Memory(id=f"m{i}", title=title, body=" ".join(words), aliases=aliases, path=path)
        )
    return memories


def timed(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    memories = generate(args.n)
    root = Path("/vault")
    reference = timed(lambda: [m.body.casefold() for m in memories], args.repeat)
    print(f"{args.n} memories; reference (casefold every body): {reference:.1f} ms")
    graph = LinkGraph(memories, root)
    target = memories[123].id
    rows = [
        ("build the link graph", lambda: LinkGraph(memories, root)),
        ("backlinks of one memory", lambda: graph.backlinks(target)),
        ("unlinked mentions of one memory", lambda: graph.unlinked_mentions(target)),
        ("plan a rename (links to rewrite)", lambda: plan_rename(memories, root, target, "New")),
    ]
    rows += [
        (f"quick switcher, query {q!r}", lambda q=q: rank_memories(memories, q))
        for q in ("", "c", "cof", "coffee", "cfsch", "alias 12")
    ]
    for label, fn in rows:
        ms = timed(fn, args.repeat)
        print(f"  {label:<36} {ms:8.1f} ms  ({ms / reference:5.1f}x reference)")


if __name__ == "__main__":
    main()
