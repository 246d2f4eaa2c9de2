"""The search modes, declared once: the engine, settings, CLI, MCP, HTTP and the app's combos
all take their list from :class:`SearchMode` (a new mode is a member here, its scoring in
``core/index/search.py`` or, for a mode that chooses which memories may answer, in
``Engine.search``, and a label in the app; see docs/ARCHITECTURE.md)."""

from __future__ import annotations

from enum import StrEnum


class SearchMode(StrEnum):
    """How a query is matched; the members are plain strings too (``"hybrid"`` …)."""

    HYBRID = "hybrid"  # meaning and keywords, fused: the default
    SEMANTIC = "semantic"  # meaning only (the embedding model)
    KEYWORD = "keyword"  # words only (BM25)
    EXACT = "exact"  # the query as typed, one phrase (core/index/exact.py), ranked by BM25


DEFAULT_MODE = SearchMode.HYBRID


def uses_meaning(mode: str | None) -> bool:
    """Whether ``mode`` (None: the settings' default) asks the embedding model: a note that
    semantic search is unavailable concerns it."""
    return mode not in (SearchMode.KEYWORD, SearchMode.EXACT)
