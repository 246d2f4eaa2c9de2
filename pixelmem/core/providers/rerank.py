"""Optional reranking through any ``/rerank`` endpoint (Jina, Cohere, TEI, llama.cpp, …).

A reranker improves the order of search hits; it is never required. :func:`rerank_or_fallback`
turns any failure into the un-reranked hits and a warning, so search keeps working.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import httpx

from pixelmem.core.errors import ProviderResponseError
from pixelmem.core.providers.http import JsonClient, RetryPolicy, Service, json_field
from pixelmem.core.settings import RerankSettings

log = logging.getLogger(__name__)

H = TypeVar("H")
# Search is interactive: one quick retry at most, never a long Retry-After wait.
# On the search path: a slow reranker falls back at once rather than waiting twice.
RERANK_RETRY = RetryPolicy(max_retries=1, max_timeout_retries=0, base_delay=0.2, max_delay=0.5)


class Reranker:
    """Scores documents against a query with a cross-encoder behind an HTTP endpoint."""

    def __init__(
        self,
        url: str,
        model: str = "",
        api_key: str = "",
        timeout: float = 10.0,
        *,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.model = model
        service = Service(
            "the reranker",
            self.url,
            base_url_hint="check rerank.url",
            key_setting="rerank.api_key",
            timeout_setting="rerank.timeout",
        )
        timeouts = httpx.Timeout(timeout, connect=min(5.0, timeout))
        self._client = JsonClient(
            service, api_key=api_key, timeout=timeouts, retry=retry or RERANK_RETRY
        )
        self._tei = False  # TEI wants {"query", "texts"}; learnt from its first refusal

    def __repr__(self) -> str:
        return f"Reranker(url={self.url!r}, model={self.model!r})"

    def close(self) -> None:
        self._client.close()

    def rerank(self, query: str, documents: list[str], top_n: int) -> list[tuple[int, float]]:
        """(index into ``documents``, relevance score), best first, at most ``top_n``."""
        if not documents or top_n <= 0:
            return []
        if not self._tei:
            payload: dict[str, Any] = {"query": query, "documents": documents, "top_n": top_n}
            if self.model:
                payload["model"] = self.model
            try:
                return self._ranked(self._client.post("", payload), len(documents), top_n)
            except ProviderResponseError as exc:
                if "texts" not in str(exc):
                    raise
                log.info("%s speaks the TEI shape; sending 'texts'", self._client.service.where)
                self._tei = True
        answer = self._client.post("", {"query": query, "texts": documents, "truncate": True})
        return self._ranked(answer, len(documents), top_n)

    def _ranked(self, answer: Any, count: int, top_n: int) -> list[tuple[int, float]]:
        where = self._client.service.where
        items = answer if isinstance(answer, list) else json_field(answer, "results", list, where)
        ranked: dict[int, float] = {}
        for item in items:
            index = item.get("index") if isinstance(item, dict) else None
            score = item.get("relevance_score", item.get("score")) if index is not None else None
            if type(index) is not int or not 0 <= index < count or index in ranked:
                raise ProviderResponseError(f"{where} returned an invalid document index")
            if not isinstance(score, int | float) or not math.isfinite(score):
                raise ProviderResponseError(f"{where} returned an invalid relevance score")
            ranked[index] = float(score)
        best = sorted(ranked.items(), key=lambda pair: pair[1], reverse=True)
        return best[:top_n]


def reranker_from_settings(settings: RerankSettings) -> Reranker | None:
    """The configured reranker, or None when no URL is set."""
    if not settings.url:
        return None
    return Reranker(settings.url, settings.model, settings.api_key, settings.timeout)


def rerank_or_fallback(
    reranker: Reranker | None,
    query: str,
    hits: Sequence[H],
    text_of: Callable[[H], str],
    top_n: int,
) -> tuple[list[H], str | None]:
    """Hits reordered by the reranker and cut to ``top_n``; on any failure the original order
    cut to ``top_n`` and a warning to show. Hits the reranker left out follow in their order."""
    if reranker is None or not hits:
        return list(hits[:top_n]), None
    try:
        ranked = reranker.rerank(query, [text_of(hit) for hit in hits], top_n)
    except Exception as exc:  # any failure: search must still answer
        warning = f"reranking failed, showing results without it: {exc}"
        log.warning("%s", warning)
        return list(hits[:top_n]), warning
    chosen = [index for index, _ in ranked]
    seen = set(chosen)
    chosen += [index for index in range(len(hits)) if index not in seen]
    return [hits[index] for index in chosen[:top_n]], None
