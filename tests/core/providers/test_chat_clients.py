"""Streaming chat clients against a real HTTP server on 127.0.0.1, both protocols.

Tokens must arrive while the server is still answering, cancel must stop a stream (at once with
a CancelToken), and every fault must read like the embedders' errors.
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from chat_fakes import GatedServer
from fake_servers import FakeServer, free_port

from pixelmem.core.errors import (
    AnswerCutOff,
    ContextExceeded,
    ProviderAuthError,
    ProviderError,
    ProviderModelNotFound,
    ProviderResponseError,
    ProviderUnavailable,
)
from pixelmem.core.providers.chat import (
    NOT_CONFIGURED,
    CancelToken,
    ChatNotConfigured,
    OllamaChat,
    OpenAIChat,
    create_chat_client,
)
from pixelmem.core.providers.chat_window import fitted_settings
from pixelmem.core.providers.http import EndpointNotFound, ProviderTimeout, RetryPolicy
from pixelmem.core.settings import ChatSettings

SECRET = "sk-chat-DO-NOT-LEAK-0987654321"
REPLY = "Paris is the capital of France, as your note says."
TOKENS = ["Paris ", "is ", "the ", "capital ", "of ", "France, ", "as ", "your ", "note ", "says."]
PROVIDERS = ["ollama", "openai"]
CHAT_PATH = {"ollama": "/api/chat", "openai": "/v1/chat/completions"}
MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "capital?"}]


def make(kind: str, base: str, sleeps: list[float] | None = None, **kwargs):
    retry = RetryPolicy(sleep=(sleeps if sleeps is not None else []).append)
    cls = OllamaChat if kind == "ollama" else OpenAIChat
    return cls(base, kwargs.pop("model", "chat-model"), retry=retry, **kwargs)


def base_of(kind: str, server: FakeServer) -> str:
    return server.url if kind == "ollama" else server.openai_url


def where(kind: str, server: FakeServer) -> str:
    name = "Ollama" if kind == "ollama" else "the OpenAI-compatible server"
    return f"{name} at {base_of(kind, server)}"


@pytest.fixture
def server():
    with FakeServer(chat_reply=REPLY) as fake:
        yield fake


@pytest.fixture
def gated():
    with GatedServer(chat_reply=REPLY) as fake:
        yield fake


# -- streaming ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_the_answer_streams_token_by_token(kind: str, server: FakeServer) -> None:
    client = make(kind, base_of(kind, server))
    assert list(client.stream_chat(MESSAGES)) == TOKENS
    body = server.bodies(CHAT_PATH[kind])[0]
    # Thinking is asked off by default, in each protocol's own words.
    switch = (
        {"think": False}
        if kind == "ollama"
        else {"chat_template_kwargs": {"enable_thinking": False}}
    )
    assert body == {"model": "chat-model", "messages": MESSAGES, "stream": True, **switch}


@pytest.mark.parametrize("kind", PROVIDERS)
def test_the_first_token_arrives_before_the_server_has_finished(
    kind: str, gated: GatedServer
) -> None:
    stream = make(kind, base_of(kind, gated)).stream_chat(MESSAGES)
    assert next(stream) == "Paris "
    assert gated.held.wait(5), "the server should be holding the second token back"
    gated.release()
    assert "".join(stream) == REPLY.removeprefix("Paris ")


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_set_event_stops_the_stream_at_the_next_token(kind: str, gated: GatedServer) -> None:
    cancel = threading.Event()
    stream = make(kind, base_of(kind, gated)).stream_chat(MESSAGES, cancel=cancel)
    received = [next(stream)]
    cancel.set()
    gated.release()
    received += list(stream)  # ends quietly: no exception, no more text
    assert received == ["Paris "]


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_cancel_token_stops_a_blocked_read_at_once(kind: str, gated: GatedServer) -> None:
    cancel = CancelToken()
    stream = make(kind, base_of(kind, gated)).stream_chat(MESSAGES, cancel=cancel)
    assert next(stream) == "Paris "
    assert gated.held.wait(5)
    timer = threading.Timer(0.05, cancel.set)  # from another thread, as the GUI's Stop does
    started = time.monotonic()
    timer.start()
    assert list(stream) == []  # the server still holds its next token: the read was aborted
    assert time.monotonic() - started < 5
    assert gated.held.is_set()


@pytest.mark.parametrize("kind", PROVIDERS)
def test_an_already_cancelled_request_is_not_sent(kind: str, server: FakeServer) -> None:
    cancel = threading.Event()
    cancel.set()
    assert list(make(kind, base_of(kind, server)).stream_chat(MESSAGES, cancel=cancel)) == []
    assert server.requests == []


def test_the_cancel_token_runs_callbacks_once_and_at_once_when_already_set() -> None:
    token, calls = CancelToken(), []
    unregister = token.on_set(lambda: calls.append("a"))
    token.on_set(lambda: calls.append("b"))()  # unregistered before the set
    token.set()
    token.set()
    unregister()
    token.on_set(lambda: calls.append("late"))
    assert calls == ["a", "late"]


# -- errors ------------------------------------------------------------------------------------


def test_ollama_not_running_says_how_to_start_it() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ProviderUnavailable) as info:
        list(make("ollama", base).stream_chat(MESSAGES))
    assert str(info.value) == f"Ollama is not running at {base} — start it with `ollama serve`"


def test_an_openai_server_not_running_says_check_the_base_url() -> None:
    base = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ProviderUnavailable) as info:
        list(make("openai", base).stream_chat(MESSAGES))
    message = str(info.value)
    assert message.startswith(f"cannot connect to the OpenAI-compatible server at {base}")
    assert "connection refused" in message and "chat.base_url" in message


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_rejected_key_is_a_401_sentence_without_the_key(kind: str) -> None:
    with FakeServer(api_key="the-right-key") as server:
        client = make(kind, base_of(kind, server), api_key=SECRET)
        with pytest.raises(ProviderAuthError) as info:
            list(client.stream_chat(MESSAGES))
    assert str(info.value) == f"{where(kind, server)} rejected the API key (401)"
    assert SECRET not in repr(info.value)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_the_key_is_sent_as_a_bearer_token(kind: str) -> None:
    with FakeServer(api_key=SECRET, chat_reply="ok") as server:
        assert list(make(kind, base_of(kind, server), api_key=SECRET).stream_chat(MESSAGES))
        assert server.requests[0].headers["Authorization"] == f"Bearer {SECRET}"


@pytest.mark.parametrize("kind", PROVIDERS)
def test_an_unknown_model_is_named(kind: str) -> None:
    with FakeServer(models={"other"}) as server, pytest.raises(ProviderModelNotFound) as info:
        list(make(kind, base_of(kind, server), model="llama9").stream_chat(MESSAGES))
    message = str(info.value)
    assert message.startswith(f"model 'llama9' not found on {where(kind, server)}")
    if kind == "ollama":
        assert message.endswith("pull it with `ollama pull llama9`")


def test_a_wrong_base_url_is_a_missing_endpoint(server: FakeServer) -> None:
    with pytest.raises(EndpointNotFound) as info:
        list(make("openai", server.url).stream_chat(MESSAGES))  # forgot the /v1
    assert "/chat/completions" in str(info.value) and "chat.base_url" in str(info.value)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_500_is_retried_once_then_explained(kind: str, server: FakeServer) -> None:
    sleeps: list[float] = []
    server.fail(status=500, times=4)
    with pytest.raises(ProviderUnavailable) as info:
        list(make(kind, base_of(kind, server), sleeps).stream_chat(MESSAGES))
    assert sleeps == [0.5]
    assert str(info.value).startswith(f"{where(kind, server)} failed with HTTP 500")


@pytest.mark.parametrize("kind", PROVIDERS)
def test_503s_are_retried_with_backoff(kind: str, server: FakeServer) -> None:
    sleeps: list[float] = []
    server.fail(status=503, times=3)
    assert "".join(make(kind, base_of(kind, server), sleeps).stream_chat(MESSAGES)) == REPLY
    assert sleeps == [0.5, 1.0, 2.0]


@pytest.mark.parametrize(
    "status, body",
    [
        (400, '{"error": "bad request"}'),
        (422, '{"error": "invalid field"}'),
        (500, '{"error": {"message": "model does not support chat"}}'),
        (500, '{"error": "unsupported value for temperature"}'),
    ],
)
def test_permanent_failures_are_not_retried(status: int, body: str, server: FakeServer) -> None:
    sleeps: list[float] = []
    server.fail(status=status, body=body, times=2)
    with pytest.raises(ProviderError):
        list(make("openai", server.openai_url, sleeps).stream_chat(MESSAGES))
    assert sleeps == []
    assert len(server.bodies("/v1/chat/completions")) == 1


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_429_honours_retry_after_and_then_streams(kind: str, server: FakeServer) -> None:
    sleeps: list[float] = []
    server.fail(status=429, retry_after="3")
    assert "".join(make(kind, base_of(kind, server), sleeps).stream_chat(MESSAGES)) == REPLY
    assert sleeps == [3.0]


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_429_that_persists_says_rate_limited(kind: str, server: FakeServer) -> None:
    server.fail(status=429, times=4)
    with pytest.raises(ProviderUnavailable, match=r"rate-limiting requests \(429\)"):
        list(make(kind, base_of(kind, server)).stream_chat(MESSAGES))


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_malformed_line_mid_stream_is_explained(kind: str, server: FakeServer) -> None:
    server.fail(malformed=True)
    received: list[str] = []
    with pytest.raises(ProviderResponseError) as info:
        received.extend(make(kind, base_of(kind, server)).stream_chat(MESSAGES))
    assert received == ["Paris "]  # what came before the bad line was delivered
    assert str(info.value) == (
        f"{where(kind, server)} sent a malformed piece of the answer: 'this is not json'"
    )


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_connection_dropped_mid_stream_is_a_cut_off(kind: str, server: FakeServer) -> None:
    server.fail(disconnect=True)
    received: list[str] = []
    with pytest.raises(AnswerCutOff) as info:
        received.extend(make(kind, base_of(kind, server)).stream_chat(MESSAGES))
    assert received == ["Paris "]
    assert str(info.value) == (
        f"the answer from {where(kind, server)} was cut off: "
        "the connection broke (the server closed the connection)"
    )


# -- how a stream ends -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", PROVIDERS)
def test_a_complete_answer_has_the_stop_reason(kind: str, server: FakeServer) -> None:
    stream = make(kind, base_of(kind, server)).stream_chat(MESSAGES)
    assert "".join(stream) == REPLY
    assert stream.finish_reason == "stop" and not stream.hit_token_limit


@pytest.mark.parametrize(
    "kind, ending, reason",
    [
        ("openai", "bare_done", "it sent [DONE] without a finish reason"),
        ("openai", "eof", "the stream ended without a finish reason"),
        ("ollama", "bare_done", 'the stream ended without "done"'),
    ],
)
def test_a_stream_without_a_finish_reason_is_cut_off(
    kind: str, ending: str, reason: str, server: FakeServer
) -> None:
    server.fail(ending=ending)
    received: list[str] = []
    with pytest.raises(AnswerCutOff) as info:
        received.extend(make(kind, base_of(kind, server)).stream_chat(MESSAGES))
    assert "".join(received) == REPLY  # every token arrived, but the end was never confirmed
    assert str(info.value).startswith(f"the answer from {where(kind, server)} was cut off: ")
    assert reason in str(info.value)


@pytest.mark.parametrize("kind", PROVIDERS)
def test_length_is_a_complete_answer_at_the_token_limit(kind: str, server: FakeServer) -> None:
    server.fail(ending="length")
    stream = make(kind, base_of(kind, server)).stream_chat(MESSAGES)
    assert "".join(stream) == REPLY
    assert stream.finish_reason == "length" and stream.hit_token_limit


@pytest.mark.parametrize("kind", PROVIDERS)
def test_max_tokens_is_sent_and_the_server_stops_there(kind: str, server: FakeServer) -> None:
    stream = make(kind, base_of(kind, server), max_tokens=3, context_window=2048).stream_chat(
        MESSAGES
    )
    assert "".join(stream) == "Paris is the "
    assert stream.hit_token_limit
    body = server.bodies(CHAT_PATH[kind])[0]
    if kind == "ollama":
        assert body["options"] == {"num_predict": 3, "num_ctx": 2048}
    else:
        assert body["max_tokens"] == 3 and "num_ctx" not in str(body)


def test_a_prompt_over_the_context_is_said_plainly_with_the_setting(server: FakeServer) -> None:
    server.context_limit = 10  # llama.cpp answers 400 "exceeds the available context size"
    client = make("openai", server.openai_url, max_tokens=4, context_window=4096)
    with pytest.raises(ContextExceeded) as info:
        list(client.stream_chat(MESSAGES))
    message = str(info.value)
    assert "does not fit the model's context" in message
    assert "set chat.context_window to the model's real context size (now 4,096)" in message
    assert len(server.bodies("/v1/chat/completions")) == 1  # a 400 is never retried


@pytest.mark.parametrize("kind", PROVIDERS)
def test_silence_longer_than_the_read_timeout_mid_stream(kind: str, gated: GatedServer) -> None:
    timeout = httpx.Timeout(0.3, connect=5.0)
    stream = make(kind, base_of(kind, gated), timeout=timeout).stream_chat(MESSAGES)
    assert next(stream) == "Paris "
    with pytest.raises(ProviderTimeout, match=r"sent nothing for 0\.3 s in the middle") as info:
        list(stream)
    assert str(info.value).endswith("raise chat.timeout (now 0.3 s)")


def test_the_timeout_setting_reaches_the_client(server: FakeServer) -> None:
    settings = ChatSettings(provider="ollama", base_url=server.url, timeout=7.5)
    client = create_chat_client(settings)
    assert client._client._timeout.read == 7.5


@pytest.mark.parametrize("kind", PROVIDERS)
def test_an_error_object_instead_of_an_answer_is_shown(kind: str, server: FakeServer) -> None:
    """Both report a failure during generation as an ``error`` object, sometimes with a 200."""
    server.fail(status=200, body='{"error": "out of memory"}')
    with pytest.raises(ProviderResponseError) as info:
        list(make(kind, base_of(kind, server)).stream_chat(MESSAGES))
    assert str(info.value) == f"{where(kind, server)} stopped with an error: out of memory"


# -- configuration -----------------------------------------------------------------------------


def test_no_provider_configured_is_a_clear_message() -> None:
    with pytest.raises(ChatNotConfigured) as info:
        create_chat_client(ChatSettings())
    assert (
        str(info.value) == NOT_CONFIGURED == ("No chat model is configured — open Settings → Chat")
    )


def test_the_factory_builds_each_provider_with_defaults(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    ollama = create_chat_client(ChatSettings(provider="ollama"))
    openai = create_chat_client(ChatSettings(provider="openai", model="gpt-x"))
    assert isinstance(ollama, OllamaChat) and ollama.base_url == "http://localhost:11434"
    assert ollama.label == "llama3.2 (Ollama)"
    assert isinstance(openai, OpenAIChat) and openai.base_url == "https://api.openai.com/v1"
    assert openai.label == "gpt-x (OpenAI-compatible)"
    assert SECRET not in repr(openai)


def test_the_factory_client_talks_to_the_configured_server(server: FakeServer) -> None:
    settings = ChatSettings(provider="openai", base_url=server.openai_url, model="m")
    assert "".join(create_chat_client(settings).stream_chat(MESSAGES)) == REPLY


def test_without_api_show_the_setting_stands(server: FakeServer) -> None:
    openai = ChatSettings(provider="openai", base_url=server.openai_url, context_window=8192)
    assert fitted_settings(openai) is openai and server.requests == []
    proxy = ChatSettings(provider="ollama", base_url=server.url + "/v1", context_window=8192)
    assert fitted_settings(proxy).context_window == 8192  # a 404 is not an error here
