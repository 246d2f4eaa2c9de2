"""Search with time over a real engine: memories from the query's time first, the rest as before;
``--since/--until`` and MCP's since/until as filters; the chat prompt names the range."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from fakes import HashEmbedder

from pixelmem.cli import main
from pixelmem.core.assist.injection import build_prompt_for
from pixelmem.core.index.engine import Engine
from pixelmem.core.index.time_search import range_argument, time_search
from pixelmem.core.settings import Settings

NOW = datetime(2026, 11, 25, 10, tzinfo=UTC)
NOTES = [
    (
        "db-2024-03",
        "Database choice",
        "We decided to use Postgres for the app database.",
        "2024-03-12",
    ),
    (
        "db-2025-06",
        "Database review",
        "We decided to keep Postgres and add read replicas.",
        "2025-06-03",
    ),
    (
        "db-2026-11",
        "Database migration",
        "We decided to migrate the database to Postgres 17.",
        "2026-11-18",
    ),
    ("trip-2023-05", "Kyoto trip", "旅行 Kyoto temples and the tea ceremony.", "2023-05-20"),
    ("bike-2026-10", "Bike service", "Chain replaced and brakes bled at the shop.", "2026-10-07"),
]


def write_vault(vault: Path) -> None:
    for memory_id, title, body, day in NOTES:
        text = (
            f"---\nid: {memory_id}\ntitle: {title}\ncreated: {day}T09:00:00Z\n"
            f"updated: {day}T09:00:00Z\n---\n\n{body}\n"
        )
        (vault / f"{memory_id}.md").write_text(text, encoding="utf-8")


@pytest.fixture
def engine(vault: Path) -> Engine:
    write_vault(vault)
    found = Engine(vault, Settings(), embedder=HashEmbedder())
    found.open()
    return found


def ids(hits) -> list[str]:
    return [h.memory_id for h in hits]


def test_a_time_in_the_query_puts_the_memory_from_then_first(engine: Engine) -> None:
    plain = ids(engine.search("what did we decide about the database", k=5, min_relevance=0))
    found = time_search(engine, "what did we decide about the database last week", now=NOW)
    assert found.range is not None and found.range.label() == "2026-11-16 – 2026-11-22"
    assert ids(found.hits)[0] == "db-2026-11"
    march = time_search(engine, "database decision in March 2024", now=NOW)
    assert ids(march.hits)[0] == "db-2024-03"
    assert plain  # the same words without a time still find the database notes


def test_chinese_time_expressions_work_the_same(engine: Engine) -> None:
    assert ids(time_search(engine, "2023年5月 旅行", now=NOW).hits)[0] == "trip-2023-05"
    assert ids(time_search(engine, "上个月", now=NOW).hits) == ["bike-2026-10"]


def test_a_query_without_time_ranks_exactly_as_before(engine: Engine) -> None:
    query = "database Postgres decided"
    found = time_search(engine, query, k=5, now=NOW)
    assert found.range is None
    assert ids(found.hits) == ids(engine.search(query, k=5))


def test_a_range_with_no_memory_changes_nothing(engine: Engine) -> None:
    query = "database Postgres in 2019"
    found = time_search(engine, query, k=5, now=NOW)
    assert found.range is not None and not found.in_range
    assert ids(found.hits) == ids(engine.search(query, k=5))


def test_the_time_expression_is_off_with_the_setting(engine: Engine) -> None:
    engine.settings.search.time_queries = "off"
    found = time_search(engine, "database last week", k=5, now=NOW)
    assert found.range is None


def test_since_and_until_keep_only_memories_from_then(engine: Engine) -> None:
    since = range_argument("2025-01", NOW).start
    found = time_search(engine, "database Postgres", k=5, min_relevance=0, since=since)
    assert set(ids(found.hits)) <= {"db-2025-06", "db-2026-11", "bike-2026-10"}
    assert "db-2024-03" not in ids(found.hits)
    until = range_argument("2024", NOW).end
    early = time_search(engine, "database Postgres", k=5, min_relevance=0, until=until)
    assert set(ids(early.hits)) <= {"db-2024-03", "trip-2023-05"} and ids(early.hits)


def test_a_bad_since_value_is_named() -> None:
    with pytest.raises(ValueError, match="not a date"):
        range_argument("the blue moon", NOW)


def test_the_chat_prompt_names_the_range_and_the_dates(engine: Engine) -> None:
    engine.settings.chat.context_window = 8192
    prompt = build_prompt_for(engine, "what did we decide about the database in March 2024")
    assert prompt.used[0].id == "db-2024-03"
    assert prompt.time_range == "2024-03-01 – 2024-03-31"
    assert "[Database choice] (2024-03-12)" in prompt.system


def test_the_cli_takes_since_until_and_shows_the_range(
    vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_vault(vault)
    settings = Settings()
    settings.embedding.provider = "local"  # never loaded: keyword search is enough here
    assert main(["search", "database", "--vault", str(vault), "--mode", "keyword",
                 "--since", "2025-01-01", "--until", "2025-12-31"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Database review" in out and "Database choice" not in out
    assert "only memories from 2025-01-01 – 2025-12-31" in out
    assert main(["search", "database in March 2024", "--vault", str(vault),
                 "--mode", "keyword"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "time: 2024-03-01 – 2024-03-31" in out
    assert out.splitlines()[1].startswith("1. Database choice")
    assert main(["search", "x", "--vault", str(vault), "--since", "someday soon"]) == 1
    assert "not a date" in capsys.readouterr().err


def test_a_hit_the_time_words_pull_under_the_floor_still_comes(engine: Engine) -> None:
    found = time_search(engine, "上个月的笔记 Kyoto temples tea ceremony", now=NOW)
    assert found.range is not None and "trip-2023-05" in ids(found.hits)
    ranked = ids(found.hits)
    if "bike-2026-10" in ranked:  # from then, but nothing like the rest of the query: after
        assert ranked.index("trip-2023-05") < ranked.index("bike-2026-10")
