"""The optional reranker against a real /rerank server, and the fallback when it fails."""

from __future__ import annotations

import logging

import pytest
from fake_servers import FakeServer, free_port

from pixelmem.core.errors import ProviderAuthError, ProviderResponseError
from pixelmem.core.providers.http import RetryPolicy
from pixelmem.core.providers.rerank import Reranker, rerank_or_fallback, reranker_from_settings
from pixelmem.core.settings import RerankSettings

SECRET = "sk-rerank-DO-NOT-LEAK-7"
DOCS = ["bananas are yellow", "apple pie recipe", "apple", "car repair"]
HITS = [{"id": f"m{i}", "text": text} for i, text in enumerate(DOCS)]


@pytest.fixture
def server():
    with FakeServer() as fake:
        yield fake


def reranker(url: str, sleeps: list[float] | None = None, **kwargs) -> Reranker:
    retry = RetryPolicy(max_retries=1, sleep=(sleeps if sleeps is not None else []).append)
    return Reranker(url, retry=retry, **kwargs)


def test_jina_cohere_shape(server: FakeServer) -> None:
    ranked = reranker(server.rerank_url, model="jina-reranker-v2").rerank("apple pie", DOCS, 2)
    assert ranked == [(2, 1.0), (1, pytest.approx(2 / 3))]
    assert server.requests[-1].body == {
        "query": "apple pie",
        "documents": DOCS,
        "top_n": 2,
        "model": "jina-reranker-v2",
    }


def test_model_is_left_out_when_not_set(server: FakeServer) -> None:
    reranker(server.rerank_url).rerank("apple", DOCS, 1)
    assert "model" not in server.requests[-1].body


def test_tei_shape_is_learnt_once() -> None:
    with FakeServer(rerank_shape="tei") as server:
        client = reranker(server.rerank_url)
        assert client.rerank("apple pie", DOCS, 3)[0] == (2, 1.0)
        assert len(client.rerank("car", DOCS, 1)) == 1
        bodies = server.bodies("/rerank")
    assert "documents" in bodies[0]
    assert bodies[1] == {"query": "apple pie", "texts": DOCS, "truncate": True}
    assert bodies[2]["texts"] == DOCS and len(bodies) == 3


def test_api_key_is_sent_and_a_rejection_is_explained(server: FakeServer) -> None:
    server.api_key = "sk-right"
    with pytest.raises(ProviderAuthError) as caught:
        reranker(server.rerank_url, api_key=SECRET).rerank("apple", DOCS, 2)
    assert str(caught.value) == f"the reranker at {server.rerank_url} rejected the API key (401)"
    assert server.requests[-1].headers["Authorization"] == f"Bearer {SECRET}"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('{"results": [{"index": 9, "relevance_score": 0.5}]}', "invalid document index"),
        ('{"results": [{"index": 0, "relevance_score": NaN}]}', "invalid relevance score"),
        ('[{"index": 0, "score": 1}, {"index": 0, "score": 1}]', "invalid document index"),
        ('{"ranking": []}', "without a valid 'results' field"),
    ],
)
def test_unusable_answers_are_errors(server: FakeServer, body: str, problem: str) -> None:
    server.fail(status=200, body=body)
    with pytest.raises(ProviderResponseError, match=problem):
        reranker(server.rerank_url).rerank("apple", DOCS, 2)


def test_from_settings() -> None:
    assert reranker_from_settings(RerankSettings()) is None
    made = reranker_from_settings(RerankSettings(url="http://127.0.0.1:9/rerank", model="m"))
    assert made is not None and made.model == "m"
    assert SECRET not in repr(Reranker("http://127.0.0.1:9/rerank", api_key=SECRET))


# -- fallback -----------------------------------------------------------------------------------


def text_of(hit: dict[str, str]) -> str:
    return hit["text"]


def test_fallback_reorders_on_success(server: FakeServer) -> None:
    hits, warning = rerank_or_fallback(
        reranker(server.rerank_url), "apple pie", HITS, text_of, top_n=2
    )
    assert [hit["id"] for hit in hits] == ["m2", "m1"]
    assert warning is None


def test_hits_the_reranker_left_out_follow_in_their_order(server: FakeServer) -> None:
    server.fail(status=200, body='{"results": [{"index": 3, "relevance_score": 0.9}]}')
    hits, _ = rerank_or_fallback(reranker(server.rerank_url), "car", HITS, text_of, top_n=3)
    assert [hit["id"] for hit in hits] == ["m3", "m0", "m1"]


def test_no_reranker_or_no_hits() -> None:
    assert rerank_or_fallback(None, "q", HITS, text_of, 2) == (HITS[:2], None)
    assert rerank_or_fallback(reranker("http://127.0.0.1:9/rerank"), "q", [], text_of, 2) == (
        [],
        None,
    )


@pytest.mark.parametrize("fault", ["down", "500", "timeout", "malformed", "bad key"])
def test_any_failure_falls_back_to_the_original_order(
    server: FakeServer, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    url = server.rerank_url
    options: dict[str, object] = {"api_key": SECRET}
    if fault == "down":
        url = f"http://127.0.0.1:{free_port()}/rerank"
    elif fault == "500":
        server.fail(status=500, times=5)
    elif fault == "timeout":
        server.fail(delay=3.0, times=2)  # a timeout may be retried once
        options["timeout"] = 0.2
    elif fault == "malformed":
        server.fail(malformed=True)
    else:
        server.api_key = "sk-other"
    sleeps: list[float] = []
    hits, warning = rerank_or_fallback(
        reranker(url, sleeps, **options), "apple pie", HITS, text_of, top_n=3
    )
    assert hits == HITS[:3]
    assert warning is not None and warning.startswith("reranking failed, showing results without")
    assert warning in caplog.text
    assert any(record.levelno == logging.WARNING for record in caplog.records)
    assert SECRET not in warning and SECRET not in caplog.text


def test_default_retry_is_short_for_interactive_search(server: FakeServer) -> None:
    server.fail(status=503, retry_after="120")
    hits, warning = rerank_or_fallback(
        Reranker(server.rerank_url, timeout=2), "apple pie", HITS, text_of, top_n=1
    )
    assert warning is None and hits[0]["id"] == "m2"
