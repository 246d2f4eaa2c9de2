"""The timeline: memories per week by topic group."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from pixelmem.core.insight.timeline import NO_TOPIC, OTHER, build_timeline, memory_day, week_start
from pixelmem.core.vault.memory import Memory

MONDAY = datetime(2025, 3, 3, 12, tzinfo=UTC)  # a Monday, noon UTC: the same day everywhere


def _memory(mid: str, days: int, topics=(), *, created: bool = True) -> Memory:
    stamp = MONDAY + timedelta(days=days)
    return Memory(mid, mid, topics=list(topics), created=stamp if created else None, updated=stamp)


def test_weeks_are_consecutive_with_gaps_and_counts_by_group():
    memories = [
        _memory("a", 0, ["Rust"]),
        _memory("b", 6, ["rust", "work"]),  # Sunday: still the first week
        _memory("c", 7, ["garden"]),
        _memory("d", 21, []),  # two weeks later; the week between stays empty
        _memory("e", 22, ["rare"]),
    ]
    timeline = build_timeline(memories, top=2)
    assert timeline.weeks == tuple(date(2025, 3, 3) + timedelta(weeks=w) for w in range(4))
    assert timeline.groups == ("Rust", "garden", OTHER, NO_TOPIC)
    assert timeline.counts.tolist() == [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1]]
    assert timeline.totals.tolist() == [2, 1, 0, 2]
    assert timeline.week_of(date(2025, 3, 12)) == 1
    assert timeline.week_of(date(2025, 3, 2)) is None


def test_a_memory_counts_for_its_first_topic_among_the_top_ones():
    memories = [_memory(str(i), 0, ["common"]) for i in range(3)]
    memories.append(_memory("x", 0, ["rare", "common"]))
    timeline = build_timeline(memories, top=1)
    assert timeline.groups == ("common", OTHER, NO_TOPIC)
    assert timeline.counts.tolist() == [[4, 0, 0]]


def test_created_else_updated_and_undated_memories_are_left_out():
    fallback = _memory("u", 10, created=False)
    assert memory_day(fallback) == (MONDAY + timedelta(days=10)).astimezone().date()
    undated = Memory("n", "n")
    assert memory_day(undated) is None
    timeline = build_timeline([undated, fallback])
    assert int(timeline.totals.sum()) == 1
    assert build_timeline([undated]).weeks == ()
    assert week_start(date(2025, 3, 9)) == date(2025, 3, 3)


def test_a_big_timeline_is_built_in_steps(monkeypatch):
    """~10 µs of Python per memory on a worker: a late window or a search goes first."""
    from pixelmem.core.insight import timeline

    steps: list[int] = []
    monkeypatch.setattr(timeline, "step_aside", lambda: steps.append(1))
    memories = [_memory(str(i), i % 14, ["t"]) for i in range(timeline.STEP_MEMORIES * 2)]
    built = build_timeline(memories)
    assert len(steps) == 4  # two while reading the days, two while counting
    first_week = sum(1 for i in range(len(memories)) if i % 14 < 7)
    assert built.counts.tolist() == [[first_week, 0, 0], [len(memories) - first_week, 0, 0]]
