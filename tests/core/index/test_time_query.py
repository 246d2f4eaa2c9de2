"""The time expressions a query may hold, English and Chinese: a full table of what each reads
as (on Wednesday 25 November 2026), and ordinary queries that hold none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pixelmem.core.index.time_query import parse_time_query

NOW = datetime(2026, 11, 25, 10, 30, tzinfo=UTC)  # a Wednesday

TABLE = [
    # query, the range as a label, the query left
    ("what did I decide last week", "2026-11-16 – 2026-11-22", "what did I decide"),
    ("notes from this week", "2026-11-23 – 2026-11-29", "notes"),
    ("this month", "2026-11-01 – 2026-11-30", ""),
    ("budget last month", "2026-10-01 – 2026-10-31", "budget"),
    ("goals this year", "2026-01-01 – 2026-12-31", "goals"),
    ("taxes last year", "2025-01-01 – 2025-12-31", "taxes"),
    ("past week", "2026-11-19 – 2026-11-25", ""),
    ("today", "2026-11-25", ""),
    ("yesterday's standup", "2026-11-24", "'s standup"),
    ("the day before yesterday", "2026-11-23", ""),
    ("3 days ago", "2026-11-22", ""),
    ("two weeks ago", "2026-11-09 – 2026-11-15", ""),
    ("a month ago", "2026-10-01 – 2026-10-31", ""),
    ("a couple of weeks ago", "2026-11-09 – 2026-11-15", ""),
    ("in the last 10 days", "2026-11-16 – 2026-11-25", ""),
    ("the past 3 months", "2026-08-25 – 2026-11-25", ""),
    ("earlier this month", "2026-11-01 – 2026-11-25", ""),
    ("last weekend", "2026-11-21 – 2026-11-22", ""),
    ("on Monday", "2026-11-23", ""),
    ("last wednesday", "2026-11-18", ""),
    ("in March 2024", "2024-03-01 – 2024-03-31", ""),
    ("trip in March", "2026-03-01 – 2026-03-31", "trip"),
    ("in December", "2025-12-01 – 2025-12-31", ""),  # December 2026 has not begun
    ("Dec 2023 review", "2023-12-01 – 2023-12-31", "review"),
    ("March 5, 2024", "2024-03-05", ""),
    ("the 5th of March", "2026-03-05", ""),
    ("5 June 2021", "2021-06-05", ""),
    ("in may", "2026-05-01 – 2026-05-31", ""),
    ("in 2023", "2023-01-01 – 2023-12-31", ""),
    ("since 2023", "2023-01-01 – 2026-11-25", ""),
    ("before 2022", "before 2022-01-01", ""),
    ("after March 2026", "2026-04-01 – 2026-11-25", ""),
    ("Q1 2024", "2024-01-01 – 2024-03-31", ""),
    ("2024-03-05", "2024-03-05", ""),
    ("2024/03", "2024-03-01 – 2024-03-31", ""),
    ("上个月的会议", "2026-10-01 – 2026-10-31", "会议"),
    ("上周的决定", "2026-11-16 – 2026-11-22", "决定"),
    ("这周", "2026-11-23 – 2026-11-29", ""),
    ("本月", "2026-11-01 – 2026-11-30", ""),
    ("今天", "2026-11-25", ""),
    ("昨天", "2026-11-24", ""),
    ("前天", "2026-11-23", ""),
    ("今年的目标", "2026-01-01 – 2026-12-31", "目标"),
    ("去年", "2025-01-01 – 2025-12-31", ""),
    ("前年", "2024-01-01 – 2024-12-31", ""),
    ("2023年5月 旅行", "2023-05-01 – 2023-05-31", "旅行"),
    ("2023年5月3日", "2023-05-03", ""),
    ("2023年", "2023-01-01 – 2023-12-31", ""),
    ("二〇二三年", "2023-01-01 – 2023-12-31", ""),
    ("三月", "2026-03-01 – 2026-03-31", ""),
    ("十二月", "2025-12-01 – 2025-12-31", ""),
    ("5月3号", "2026-05-03", ""),
    ("三天前", "2026-11-22", ""),
    ("两个月前", "2026-09-01 – 2026-09-30", ""),
    ("最近3个月", "2026-08-25 – 2026-11-25", ""),
    ("过去两周", "2026-11-12 – 2026-11-25", ""),
    ("最近一周", "2026-11-19 – 2026-11-25", ""),
    ("2023年以来", "2023-01-01 – 2026-11-25", ""),
    ("2022年以前", "before 2022-01-01", ""),
    ("上周一", "2026-11-16", ""),
    ("周日的计划", "2026-11-22", "计划"),
    ("星期三", "2026-11-25", ""),
]


@pytest.mark.parametrize(("query", "label", "rest"), TABLE)
def test_each_expression_reads_as_its_range(query: str, label: str, rest: str) -> None:
    found = parse_time_query(query, NOW)
    assert found.range is not None, query
    assert (found.range.label(), found.query) == (label, rest)


NOT_TIME = [
    "may I use python for this",
    "march of the penguins",
    "python 3.11 release notes",
    "how to fix sour espresso",
    "最近天气很热",
    "咖啡 研磨 太细",
    "What happened in 1755",  # before 1900: an event, not a memory's date
    "the second brain method",
    "version 2 may break the build",
    "Windows 10 tips",
    "我们三个人",
    "to mar the surface",
]


@pytest.mark.parametrize("query", NOT_TIME)
def test_ordinary_queries_hold_no_time(query: str) -> None:
    found = parse_time_query(query, NOW)
    assert found.range is None and found.query == query


def test_a_range_contains_its_start_and_not_its_end() -> None:
    span = parse_time_query("in March 2024", NOW).range
    assert span is not None
    assert span.contains(datetime(2024, 3, 1, tzinfo=UTC))
    assert span.contains(datetime(2024, 3, 31, 23, 59, tzinfo=UTC))
    assert not span.contains(datetime(2024, 4, 1, tzinfo=UTC))


def test_ranges_are_in_the_local_time_zone_of_now() -> None:
    from datetime import timedelta, timezone

    shanghai = timezone(timedelta(hours=8))
    span = parse_time_query("昨天", datetime(2026, 11, 25, 7, tzinfo=shanghai)).range
    assert span is not None and span.start == datetime(2026, 11, 24, tzinfo=shanghai)
    # 23:30 UTC on the 23rd is the 24th in Shanghai.
    assert span.contains(datetime(2026, 11, 23, 23, 30, tzinfo=UTC))
