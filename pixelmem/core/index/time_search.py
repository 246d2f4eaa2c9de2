"""Search with time: a query's own time expression puts memories from then first; ``since`` /
``until`` (the CLI's ``--since/--until``, MCP's arguments) keep only memories from then.

A memory is *from* a time when it was created or last updated then: its frontmatter
``created`` (or ``date``…) and ``updated`` (or ``lastmod``…); a file without them, the day
pixelmem first saw it and its modification time.

The order for a query with a time expression (:func:`time_search`):

1. memories from that time that are relevant to the rest of the query (relevance at least
   ``search.min_relevance``), best first;
2. the query's other hits, ranked exactly as without the time (the expression is read, not
   obeyed: "in 2016" in a question about 2016's events must not hide the answer), then what
   the query without its time words finds besides (the time's words can pull a hit under
   the floor);
3. the other memories from that time (the query's words were mostly the time: "what did I do
   last week"), best first.

A query that is nothing but a time ("last week", "上个月") lists the memories from then, newest
first.

A query without a time expression (or with ``search.time_queries`` off), a range that holds no
memory, or one that holds every memory ranks exactly as :meth:`Engine.search` does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pixelmem.core.index.search import SearchHit
from pixelmem.core.index.search_backend import SearchFilters
from pixelmem.core.index.time_query import TimeQuery, TimeRange, parse_time_query
from pixelmem.core.vault.memory import Memory, preview_line

SNIPPET_CHARS = 200


@dataclass(frozen=True)
class TimedHits:
    """The hits, the range read from the query (None: none), and which hits are from then."""

    hits: list[SearchHit]
    range: TimeRange | None = None
    query: str = ""  # the query without its time expression
    in_range: frozenset[str] = field(default_factory=frozenset)
    limit: TimeRange | None = None  # the since/until filter, if any

    def note(self) -> str:
        """One line for a person: the range read, and what it did."""
        parts = []
        if self.range is not None:
            found = sum(1 for h in self.hits if h.memory_id in self.in_range)
            parts.append(
                f"time: {self.range.label()} (from {self.range.text!r}; {found} of these from then)"
            )
        if self.limit is not None:
            parts.append(f"only memories from {self.limit.label()}")
        return "; ".join(parts)


def memory_moments(memory: Memory) -> list[datetime]:
    """When a memory was created and last updated (see the module docstring)."""
    return [m for m in (memory.created, memory.updated) if m is not None]


def is_from(memory: Memory, span: TimeRange) -> bool:
    return any(span.contains(_aware(m)) for m in memory_moments(memory))


def ids_from(memories: Iterable[Memory], span: TimeRange) -> frozenset[str]:
    return frozenset(m.id for m in memories if is_from(m, span))


def limit_range(since: datetime | None, until: datetime | None) -> TimeRange | None:
    """``[since, until)`` for the explicit filter (None: no filter)."""
    if since is None and until is None:
        return None
    start = _aware(since) if since else datetime(1900, 1, 1, tzinfo=UTC)
    end = _aware(until) if until else datetime(2200, 1, 1, tzinfo=UTC)
    return TimeRange(start, end, "since/until")


def read_time(engine: Any, query: str, now: datetime | None = None) -> TimeQuery:
    """The query's time expression, unless ``search.time_queries`` is off."""
    if getattr(engine.settings.search, "time_queries", "on") != "on":
        return TimeQuery(query)
    return parse_time_query(query, now)


def range_argument(text: str, now: datetime | None = None) -> TimeRange:
    """A ``--since``/``--until`` value: a date (``2024-03-05``, ``2024-03``) or any time
    expression the query parser reads ("last week", "上个月"); ValueError if it is neither."""
    parsed = parse_time_query(text.strip(), now)
    if parsed.range is None and text.strip().isdigit():  # a bare year: 2024
        parsed = parse_time_query(f"in {text.strip()}", now)
    if parsed.range is None or parsed.query.strip():
        raise ValueError(f"{text!r} is not a date or time range (try 2024-03-05 or 'last week')")
    return parsed.range


def time_search(
    engine: Any,
    query: str,
    *,
    mode: str | None = None,
    k: int | None = None,
    min_relevance: float | None = None,
    filters: SearchFilters | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    now: datetime | None = None,
    weaker: int = 0,
    explain: bool = False,
) -> TimedHits:
    """:meth:`Engine.search` with time (module docstring); ``since``/``until`` filter.
    ``weaker`` and ``explain`` as :meth:`Engine.search`; the weaker tail only when the query
    names no time that tells memories apart (the time's own ordering decides then)."""
    limit = limit_range(since, until)
    parsed = read_time(engine, query, now)
    memories = engine.store.list() if limit is not None or parsed.range is not None else []
    if limit is not None:
        filters = _only(filters, ids_from(memories, limit))
        memories = [m for m in memories if m.id in filters.memory_ids]  # type: ignore[operator]
    options: dict[str, Any] = dict(mode=mode, k=k, filters=filters)
    if explain:
        options["explain"] = True
    tail = {"weaker": weaker} if weaker else {}
    if parsed.range is None:
        hits = engine.search(query, min_relevance=min_relevance, **options, **tail)
        return TimedHits(hits, None, query, limit=limit)
    inside = ids_from(memories, parsed.range)
    if not inside or len(inside) == len(memories):  # the time tells no memory apart
        hits = engine.search(query, min_relevance=min_relevance, **options, **tail)
        return TimedHits(hits, parsed.range, parsed.query, inside, limit)
    size = k or engine.settings.search.top_k
    if not parsed.query.strip():  # nothing but the time: its memories, newest first
        from_then = newest_hits([m for m in memories if m.id in inside], parsed.range, size)
        return TimedHits(from_then, parsed.range, "", inside, limit)
    plain = engine.search(query, min_relevance=min_relevance, **options)
    # The time's words can pull a hit under the floor ("上个月的笔记 espresso"): what the rest of
    # the query finds comes after the plain hits, never before them.
    rest_hits = engine.search(parsed.query, min_relevance=min_relevance, **options)
    seen = {h.memory_id for h in plain}
    others = [h for h in plain if h.memory_id not in inside]
    others += [h for h in rest_hits if h.memory_id not in inside and h.memory_id not in seen]
    within = dict(options, filters=_only(filters, inside))
    from_then = engine.search(parsed.query, min_relevance=0.0, **within)
    relevant = engine.settings.search.min_relevance
    first = [h for h in from_then if h.score >= relevant]
    rest = [h for h in from_then if h.score < relevant]
    return TimedHits((first + others + rest)[:size], parsed.range, parsed.query, inside, limit)


def newest_hits(memories: list[Memory], span: TimeRange, k: int) -> list[SearchHit]:
    """Memories from ``span`` as hits, the newest first (no words left to rank them by)."""

    def latest(memory: Memory) -> datetime:
        return max(_aware(m) for m in memory_moments(memory) if span.contains(_aware(m)))

    chosen = sorted(memories, key=latest, reverse=True)[:k]
    return [_as_hit(m) for m in chosen]


def _as_hit(memory: Memory) -> SearchHit:
    body = memory.body
    end = min(len(body), SNIPPET_CHARS)
    snippet = body[:end] or preview_line(body)
    return SearchHit(memory.id, memory.title, 0.0, snippet, 0, 0, end, None, None, ())


def _only(filters: SearchFilters | None, ids: frozenset[str]) -> SearchFilters:
    if filters is not None and filters.memory_ids is not None:
        ids = ids & filters.memory_ids
    return dataclasses.replace(filters or SearchFilters(), memory_ids=ids)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


__all__ = [
    "TimedHits",
    "ids_from",
    "is_from",
    "limit_range",
    "memory_moments",
    "newest_hits",
    "range_argument",
    "read_time",
    "time_search",
]
