"""The search modes, declared once: the engine, settings, CLI, MCP, HTTP and the app's combos
all take their list from :class:`SearchMode` (a new mode is a member here, its scoring in
``core/index/search.py`` and a label in the app; see docs/ARCHITECTURE.md)."""

from __future__ import annotations

from enum import StrEnum


class SearchMode(StrEnum):
    """How a query is matched; the members are plain strings too (``"hybrid"`` …)."""

    HYBRID = "hybrid"  # meaning and keywords, fused: the default
    SEMANTIC = "semantic"  # meaning only (the embedding model)
    KEYWORD = "keyword"  # words only (BM25)


DEFAULT_MODE = SearchMode.HYBRID
