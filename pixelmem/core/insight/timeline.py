"""The timeline: how many memories were written each week, by topic.

Rules:

* A memory belongs to the week (Monday to Sunday, local time) of its ``created`` date; one
  without it, of its ``updated`` date; one with neither is left out. A memory edited today
  still counts in the week it was written.
* Weeks run without gaps from the first memory's week to the last one's, so an empty week
  shows as a gap in the strip.
* Colours are topic groups: each memory counts once, for its first topic that is among the
  :data:`TOP_TOPICS` most used ones (by first topic, case-insensitively); others count as
  :data:`OTHER`, memories without topics as :data:`NO_TOPIC`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pixelmem.core.step_aside import step_aside
from pixelmem.core.vault.memory import Memory

if TYPE_CHECKING:  # numpy is imported by the functions that count: the memory list's filters
    import numpy as np  # and the empty strip use this module before the window's first paint

TOP_TOPICS = 8
# Memories between two steps of a build (~10 µs of Python each, 0.1-0.2 s at 10k on a worker):
# a late window, or a search someone types, goes first (core/step_aside).
STEP_MEMORIES = 512
OTHER = "\x00other"  # the group of memories whose first topic is not among the top ones
NO_TOPIC = "\x00none"  # the group of memories without topics
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class Timeline:
    """``counts[w, g]``: memories of week ``weeks[w]`` in topic group ``groups[g]``."""

    weeks: tuple[date, ...]  # the Monday of each week, oldest first, consecutive
    groups: tuple[str, ...]  # top topics (as first written), then OTHER, then NO_TOPIC
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.weeks)

    @property
    def totals(self) -> np.ndarray:
        import numpy as np

        return self.counts.sum(axis=1) if len(self.weeks) else np.zeros(0, np.int64)

    def week_of(self, day: date) -> int | None:
        """The index of the week ``day`` falls in, or None outside the timeline."""
        if not self.weeks:
            return None
        index = (week_start(day) - self.weeks[0]).days // 7
        return index if 0 <= index < len(self.weeks) else None


def memory_day(memory: Memory) -> date | None:
    """The local calendar day a memory counts on (created, else updated)."""
    stamp = memory.created or memory.updated
    return local_day(stamp) if stamp is not None else None


def local_day(stamp: datetime) -> date:
    return stamp.astimezone().date() if stamp.tzinfo is not None else stamp.date()


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


_NO_COUNTS: Any = ()  # the counts of no weeks: never indexed (every use checks len first)
EMPTY_TIMELINE = Timeline((), (), _NO_COUNTS)  # the timeline of no (dated) memories


def build_timeline(memories: Iterable[Memory], *, top: int = TOP_TOPICS) -> Timeline:
    """Memories per week and topic group (see the module's rules)."""
    dated = []
    for number, memory in enumerate(memories, 1):
        if (day := memory_day(memory)) is not None:
            dated.append((day, memory.topics))
        if number % STEP_MEMORIES == 0:
            step_aside()
    if not dated:
        return EMPTY_TIMELINE
    import numpy as np

    firsts = Counter(topics[0].casefold() for _, topics in dated if topics)
    shown: dict[str, str] = {}
    for _, topics in dated:
        for topic in topics[:1]:
            shown.setdefault(topic.casefold(), topic)
    best = sorted(firsts, key=lambda t: (-firsts[t], t))[:top]
    groups = (*(shown[t] for t in best), OTHER, NO_TOPIC)
    column = {t: i for i, t in enumerate(best)}
    first_week = week_start(min(d for d, _ in dated))
    last_week = week_start(max(d for d, _ in dated))
    counts = np.zeros(((last_week - first_week).days // 7 + 1, len(groups)), np.int64)
    for number, (day, topics) in enumerate(dated, 1):
        if number % STEP_MEMORIES == 0:
            step_aside()
        row = (week_start(day) - first_week).days // 7
        group = next((column[t.casefold()] for t in topics if t.casefold() in column), None)
        if group is None:
            group = len(groups) - 2 if topics else len(groups) - 1
        counts[row, group] += 1
    weeks = tuple(first_week + i * WEEK for i in range(len(counts)))
    return Timeline(weeks, groups, counts)
