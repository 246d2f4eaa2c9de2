"""Thinking models in both protocols: the reasoning kept apart from the answer, ``think`` sent as
``chat.think`` says, and an answer with no text explained by its real cause."""

from __future__ import annotations

import pytest
from fake_servers import FakeServer

from pixelmem.core.errors import ProviderError
from pixelmem.core.providers.chat import OllamaChat, OpenAIChat, create_chat_client
from pixelmem.core.providers.thinking import (
    ThinkTagSplitter,
    empty_answer_message,
    reasoning_tokens,
)
from pixelmem.core.settings import ChatSettings

REASONING = "The user asks for a capital. France's capital is Paris. Answer briefly."
REPLY = "Paris."
MESSAGES = [{"role": "user", "content": "capital of France?"}]
PATH = {"ollama": "/api/chat", "openai": "/v1/chat/completions"}


def client(kind: str, server: FakeServer, **kwargs):
    if kind == "ollama":
        return OllamaChat(server.url, "qwen3", **kwargs)
    return OpenAIChat(server.openai_url, "qwen3", **kwargs)


@pytest.fixture
def server():
    with FakeServer(chat_reply=REPLY, thinking=REASONING) as fake:
        yield fake


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_with_think_on_the_reasoning_arrives_apart_before_the_answer(
    kind: str, server: FakeServer
) -> None:
    seen: list[tuple[str, str]] = []
    stream = client(kind, server, think=True).stream_chat(MESSAGES)
    stream.on_reasoning = lambda piece: seen.append(("reasoning", piece))
    for piece in stream:
        seen.append(("answer", piece))
    assert "".join(p for k, p in seen if k == "answer") == REPLY
    assert stream.reasoning == REASONING
    kinds = [k for k, _ in seen]
    assert kinds.index("answer") > max(i for i, k in enumerate(kinds) if k == "reasoning")
    body = server.bodies(PATH[kind])[0]
    if kind == "ollama":
        assert body["think"] is True
    else:
        assert body["chat_template_kwargs"] == {"enable_thinking": True}


def test_openai_servers_that_call_it_reasoning_are_read_too(server: FakeServer) -> None:
    server.reasoning_field = "reasoning"  # OpenRouter, LM Studio, newer vLLM
    stream = client("openai", server, think=True).stream_chat(MESSAGES)
    assert "".join(stream) == REPLY and stream.reasoning == REASONING


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_with_think_off_the_model_is_asked_not_to_think(kind: str, server: FakeServer) -> None:
    stream = client(kind, server).stream_chat(MESSAGES)
    assert "".join(stream) == REPLY and stream.reasoning == ""
    body = server.bodies(PATH[kind])[0]
    assert body.get("think", body.get("chat_template_kwargs", {}).get("enable_thinking")) is False


@pytest.mark.parametrize("kind", ["ollama", "openai"])
def test_reasoning_that_uses_up_max_tokens_is_named_as_such(kind: str, server: FakeServer) -> None:
    server.ignores_think = True  # the server thinks whatever it is told
    stream = client(kind, server, max_tokens=5).stream_chat(MESSAGES)
    assert "".join(stream) == ""
    assert stream.finish_reason == "length" and stream.reasoning
    message = empty_answer_message(
        stream.finish_reason,
        reasoning_tokens(stream.reasoning),
        max_tokens=5,
        context_window=4096,
        think="off",
    )
    assert "thought anyway" in message and "chat.max_tokens" in message
    assert "context window" not in message


def test_a_model_that_cannot_think_is_asked_again_without_the_switch(server: FakeServer) -> None:
    server.capabilities = {"llama3.2": ["completion"]}
    chat = OllamaChat(server.url, "llama3.2", think=True)
    assert "".join(chat.stream_chat(MESSAGES)) == REPLY
    bodies = server.bodies("/api/chat")
    assert [("think" in b) for b in bodies] == [True, False]
    assert "".join(chat.stream_chat(MESSAGES)) == REPLY  # not asked with the switch again
    assert len(server.bodies("/api/chat")) == 3


def test_openais_own_api_is_never_sent_the_template_switch() -> None:
    chat = OpenAIChat("https://api.openai.com/v1", "gpt-4o-mini")
    assert "chat_template_kwargs" not in chat._payload(MESSAGES)


def test_a_server_that_refuses_unknown_fields_is_asked_again_without(server: FakeServer) -> None:
    server.strict_fields = True
    stream = client("openai", server).stream_chat(MESSAGES)
    assert "".join(stream) == REPLY
    assert ["chat_template_kwargs" in b for b in server.bodies("/v1/chat/completions")] == [
        True,
        False,
    ]


def test_think_follows_the_setting() -> None:
    on = create_chat_client(ChatSettings(provider="ollama", model="q", think="on"))
    off = create_chat_client(ChatSettings(provider="ollama", model="q"))
    assert on._payload(MESSAGES)["think"] is True and off._payload(MESSAGES)["think"] is False


@pytest.mark.parametrize(
    "pieces",
    [
        ["<think>plan it</think>\n\nParis."],
        ["<th", "ink>plan", " it</thi", "nk>", "\n\nParis."],
        ["  <think>", "plan it", "</think>Paris."],
    ],
)
def test_a_leading_think_block_in_the_content_is_reasoning(pieces: list[str]) -> None:
    splitter = ThinkTagSplitter()
    reasoning, answer = "", ""
    for piece in pieces:
        r, a = splitter.feed(piece)
        reasoning, answer = reasoning + r, answer + a
    r, a = splitter.flush()
    assert (reasoning + r).strip() == "plan it" and (answer + a) == "Paris."


def test_a_think_tag_later_in_the_answer_is_text() -> None:
    splitter = ThinkTagSplitter()
    r1, a1 = splitter.feed("Use a <think> tag")
    r2, a2 = splitter.flush()
    assert (r1 + r2, a1 + a2) == ("", "Use a <think> tag")


def test_an_answer_that_only_thinks_via_tags_is_split_in_the_stream(server: FakeServer) -> None:
    server.thinking = ""
    server.chat_reply = "<think> weigh it </think> Paris."
    stream = client("openai", server).stream_chat(MESSAGES)
    assert "".join(stream).strip() == "Paris." and "weigh it" in stream.reasoning


@pytest.mark.parametrize(
    ("reason", "tokens", "think", "expected"),
    [
        ("length", 900, "on", "spent the whole answer budget thinking"),
        ("length", 900, "off", "thought anyway"),
        ("stop", 50, "on", "reasoned but wrote no answer"),
        ("length", 0, "off", "chat.context_window = 4,096"),
        ("stop", 0, "off", "empty answer"),
    ],
)
def test_every_empty_answer_names_its_cause(
    reason: str, tokens: int, think: str, expected: str
) -> None:
    text = empty_answer_message(reason, tokens, max_tokens=1024, context_window=4096, think=think)
    assert expected in text


def test_an_error_object_still_fails_with_thinking_on(server: FakeServer) -> None:
    server.fail(status=500, body='{"error": "model crashed: out of memory"}')
    with pytest.raises(ProviderError, match="out of memory"):
        list(client("ollama", server, think=True).stream_chat(MESSAGES))
