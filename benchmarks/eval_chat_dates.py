"""Questions that name a day, asked of a chat vault whose notes carry their days, the app's way.

    python benchmarks/eval_chat_dates.py --data OUT [--set locomo] [--floor 0.5]

``OUT`` is what ``benchmarks/make_chat_sets.py`` writes: one vault per person, one memory per
day, the day its corpus id (``2023-04-27``). Here each memory is written with that day as its
``created`` date, as a diary or a chat export keeps it, and only the questions that name a time
(:func:`~pixelmem.core.index.time_query.parse_time_query`, read with "now" the day after the
person's last one: "on April 27th", "4月27号", "a few days ago") are asked. Their right notes
are the days in the range named — a real judgement, where the set itself judges every day
right for every question. Printed per language: how often that day's note is first and shown
at the floor by :meth:`Engine.search` alone (what ``eval_heldout.py measure`` counts) and by
:func:`~pixelmem.core.index.time_search.time_search` (what the app, the CLI, MCP and the chat
injection search with), and whether it is among the first three there.

Development data only: it refuses the held-out folder of ``benchmarks/eval_heldout.py``.
"""

from __future__ import annotations

import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

COUNTS = ("questions", "search: first and shown", "time_search: first and shown")
COUNTS += ("time_search: in the first 3",)


def day_time(day: str) -> datetime:
    """Noon of ``day`` (ISO) in the local time zone: inside that day wherever the clock is."""
    return datetime.fromisoformat(day).replace(hour=12).astimezone()


def days_named(text: str, days: list[str], now: datetime) -> set[str] | None:
    """The days of ``days`` inside the time ``text`` names (None: it names none)."""
    from pixelmem.core.index.time_query import parse_time_query

    named = parse_time_query(text, now).range
    if named is None:
        return None
    return {day for day in days if named.start <= day_time(day) < named.end}


def dated_engine(folder: Path, work: Path, model: str):
    """An engine over a fresh vault in ``work`` with one memory per day, created that day."""
    from benchmarks._embed_cache import cached_embedder
    from pixelmem.core.index.engine import Engine
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.store import MemoryStore

    corpus, _, _ = load_beir(folder)
    shutil.rmtree(work, ignore_errors=True)
    store = MemoryStore(work)
    day_of = {}
    for day, row in corpus.items():
        when = day_time(day)
        memory = store.create(str(row["title"]), str(row["text"]), created=when, updated=when)
        day_of[memory.id] = day
    settings = Settings()
    settings.embedding.provider = model
    engine = Engine(settings=settings, store=store, embedder=cached_embedder(model))
    engine.open()
    return engine, day_of


def measure(data: Path, name: str, floor: float, model: str) -> dict[str, dict[str, int]]:
    from benchmarks.eval_heldout import vault_folders
    from pixelmem.core.index.evaluate import load_beir
    from pixelmem.core.index.time_search import time_search

    table: dict[str, dict[str, int]] = {}
    for folder in vault_folders(data, name):
        engine, day_of = dated_engine(folder, data / "vaults" / "dated" / folder.name, model)
        days = sorted(day_of.values())
        now = day_time(days[-1]) + timedelta(days=1)
        for query_id, text in load_beir(folder)[1].items():
            right = days_named(text, days, now)
            if not right:
                continue
            plain = engine.search(text, k=10, min_relevance=0.0)
            timed = time_search(engine, text, k=10, min_relevance=floor, now=now).hits
            ranked = [day_of.get(hit.memory_id) for hit in timed]
            row = table.setdefault(query_id.split("-")[0], dict.fromkeys(COUNTS, 0))
            row["questions"] += 1
            row["search: first and shown"] += bool(
                plain and day_of.get(plain[0].memory_id) in right and plain[0].score >= floor
            )
            row["time_search: first and shown"] += bool(ranked and ranked[0] in right)
            row["time_search: in the first 3"] += bool(right & set(ranked[:3]))
    return table


def main() -> None:
    from benchmarks.make_chat_sets import tool_parser, use_development_data

    parser = tool_parser(__doc__.split("\n")[0])
    args = parser.parse_args()
    use_development_data(args.data, "eval_chat_dates")
    table = measure(args.data, args.set, args.floor, args.model)
    print(f"{'language':9}" + "".join(f"{count:>31}" for count in COUNTS))
    for language, row in sorted(table.items()):
        print(f"{language:9}" + "".join(f"{row[count]:>31}" for count in COUNTS))


if __name__ == "__main__":
    main()
