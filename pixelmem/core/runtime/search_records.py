"""What ``pixelmem search`` prints, as plain records: made in-process or by the process that
has the vault open (:mod:`local_channel`), printed by the CLI alike, so both answers are the
same to the byte (the same hits, scores, snippets and ``--json``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from pixelmem.core.errors import PixelmemError
from pixelmem.core.index.engine import Engine, SearchHit
from pixelmem.core.index.time_search import range_argument, time_search


def search_records(
    engine: Engine,
    query: str,
    *,
    mode: str | None = None,
    k: int | None = None,
    min_relevance: float | None = None,
    since: str | None = None,
    until: str | None = None,
    weaker: int = 0,
    explain: bool = False,
) -> dict[str, Any]:
    """The hits of ``query`` (``since``/``until`` as the CLI takes them: a date or a time
    expression) with what the CLI says around them."""
    start, end = time_arguments(since, until)
    found = time_search(
        engine, query, mode=mode, k=k, min_relevance=min_relevance, since=start, until=end,
        weaker=weaker, explain=explain,
    )  # fmt: skip
    floor = engine.settings.search.min_relevance if min_relevance is None else min_relevance
    return {
        "hits": [hit_record(engine, hit) for hit in found.hits],
        "note": found.note(),
        "semantic_error": engine.semantic_error,
        "floor": floor,
        "index_ready": engine.index_ready,
    }


def time_arguments(since: str | None, until: str | None) -> tuple[Any, Any]:
    """``--since``/``--until`` as moments (the start of the first, the end of the second)."""
    try:
        start = range_argument(since).start if since else None
        end = range_argument(until).end if until else None
    except ValueError as exc:
        raise PixelmemError(str(exc)) from None
    return start, end


def hit_record(engine: Engine, hit: SearchHit) -> dict[str, Any]:
    """A hit with its file: the CLI's ``--json`` fields (the raw score; ``--json`` rounds it)
    and, with evidence, the lines ``--explain`` prints."""
    record: dict[str, Any] = {
        "id": hit.memory_id,
        "title": hit.title,
        "score": hit.score,
        "semantic_score": hit.semantic_score,
        "keyword_score": hit.keyword_score,
        "snippet": hit.snippet,
        "chunk": hit.chunk_index,
        "span": [hit.start, hit.end],
        "path": str(engine.memory_path(hit.memory_id)),
        "copies": list(hit.copies),
        "weaker": hit.weaker,
    }
    if hit.evidence is not None:
        fields = dataclasses.asdict(hit.evidence)
        record["evidence"] = {k: v for k, v in fields.items() if v is not None}
        record["evidence_lines"] = list(hit.evidence.lines())
    return record
