"""Ollama's context window read from the server (``/api/show``, ``/api/ps``), raised as well as
lowered, and pinned on request; a prompt over a server's context named with its limit."""

from __future__ import annotations

import pytest
from fake_servers import FakeServer

from pixelmem.core.errors import ContextExceeded
from pixelmem.core.providers.chat import OpenAIChat, create_chat_client, server_context_limit
from pixelmem.core.providers.chat_window import (
    facts_from_show,
    fitted_settings,
    forget_windows,
    loaded_window,
    model_facts,
)
from pixelmem.core.settings import ChatSettings

MESSAGES = [{"role": "user", "content": "one two three four five six seven eight nine ten"}]


@pytest.fixture(autouse=True)
def fresh_cache():
    forget_windows()
    yield
    forget_windows()


@pytest.fixture
def server():
    with FakeServer(chat_reply="fine thanks") as fake:
        yield fake


def ollama(server: FakeServer, **fields) -> ChatSettings:
    return ChatSettings(provider="ollama", base_url=server.url, model="m", **fields)


def test_a_loaded_model_sets_the_window_raised_and_no_num_ctx_is_sent(server: FakeServer) -> None:
    server.loaded = {"m": 32768}
    fitted = fitted_settings(ollama(server, context_window=4096))
    assert fitted.context_window == 32768  # raised: Ollama runs the model with 32k
    client = create_chat_client(fitted)
    assert "".join(client.stream_chat(MESSAGES)) == "fine thanks"
    options = server.bodies("/api/chat")[0].get("options", {})
    assert "num_ctx" not in options  # no reload for a window unlike other clients'


def test_a_loaded_model_with_a_smaller_window_lowers_it(server: FakeServer) -> None:
    server.loaded = {"m": 2048}
    assert fitted_settings(ollama(server, context_window=8192)).context_window == 2048


def test_not_loaded_the_setting_capped_by_the_trained_length_is_sent(server: FakeServer) -> None:
    server.context_limit = 2048  # trained length in /api/show
    fitted = fitted_settings(ollama(server, context_window=8192))
    assert (fitted.context_window, fitted.context_window_mode) == (2048, "pinned")
    create_chat_client(fitted).stream_chat(MESSAGES).close()
    list(create_chat_client(fitted).stream_chat(MESSAGES))
    assert server.bodies("/api/chat")[-1]["options"]["num_ctx"] == 2048
    assert len(server.bodies("/api/show")) == 1  # asked once per server and model
    fitted_settings(ollama(server, context_window=8192))
    assert len(server.bodies("/api/show")) == 1


def test_a_modelfile_num_ctx_is_ollamas_own_choice(server: FakeServer) -> None:
    server.modelfile_num_ctx = 16384
    fitted = fitted_settings(ollama(server, context_window=4096))
    assert (fitted.context_window, fitted.context_window_mode) == (16384, "auto")


def test_a_pinned_window_is_always_sent_and_only_lowered_to_the_trained_length(
    server: FakeServer,
) -> None:
    server.loaded = {"m": 32768}
    server.context_limit = 65536
    fitted = fitted_settings(ollama(server, context_window=8192, context_window_mode="pinned"))
    assert (fitted.context_window, fitted.context_window_mode) == (8192, "pinned")
    list(create_chat_client(fitted).stream_chat(MESSAGES))
    assert server.bodies("/api/chat")[0]["options"]["num_ctx"] == 8192
    server.context_limit = 4096
    forget_windows()
    pinned = ollama(server, context_window=8192, context_window_mode="pinned")
    assert fitted_settings(pinned).context_window == 4096


def test_without_api_show_or_ps_the_setting_stands(server: FakeServer) -> None:
    proxy = ChatSettings(provider="ollama", base_url=server.url + "/v1", context_window=8192)
    assert fitted_settings(proxy).context_window == 8192  # 404s are not errors here


def test_show_and_ps_answers_are_read_as_ollama_documents_them() -> None:
    body = {
        "parameters": "temperature 0.7\nnum_ctx 8192",
        "model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960},
        "capabilities": ["completion", "thinking", "tools"],
    }
    facts = facts_from_show(body)
    assert (facts.trained, facts.modelfile_window) == (40960, 8192)
    assert facts.can_chat and "thinking" in (facts.capabilities or ())
    assert not facts_from_show({"capabilities": ["embedding"]}).can_chat
    assert facts_from_show({}).can_chat  # an Ollama that does not say: assume it can
    running = [{"name": "qwen3:latest", "model": "qwen3:latest", "context_length": 4096}]
    assert loaded_window(running, "qwen3") == 4096
    assert loaded_window(running, "llama3.2") == 0
    assert loaded_window([{"name": "qwen3:latest"}], "qwen3") == 0  # an older Ollama


def test_model_facts_say_which_models_only_embed(server: FakeServer) -> None:
    server.capabilities = {"nomic-embed-text": ["embedding"]}
    embed = ChatSettings(provider="ollama", base_url=server.url, model="nomic-embed-text")
    assert not model_facts(embed).can_chat
    assert model_facts(ollama(server)).can_chat


@pytest.mark.parametrize(
    ("error", "limit"),
    [
        ("This model's maximum context length is 2048 tokens. However, you requested 2900", 2048),
        ("Requested tokens (2900) exceed context window of 2048", 2048),
        ("the request exceeds the available context size (n_ctx: 4,096)", 4096),
        ("the request exceeds the available context size, try increasing it", 0),
    ],
)
def test_the_servers_limit_is_read_from_its_refusal(error: str, limit: int) -> None:
    assert server_context_limit(error) == limit


def test_an_empty_stream_is_asked_again_without_streaming_and_named(server: FakeServer) -> None:
    """llama-cpp-python: 200 text/event-stream with no body for a prompt over n_ctx."""
    server.context_limit, server.overflow = 12, "empty_stream"
    server.server_header = "uvicorn"  # llama-cpp-python's server
    client = OpenAIChat(server.openai_url, "m", max_tokens=4, context_window=4096)
    with pytest.raises(ContextExceeded) as caught:
        list(client.stream_chat(MESSAGES))
    message = str(caught.value)
    assert message.endswith("or start llama-cpp-python's server with a larger --n_ctx")
    assert "maximum context length is 12 tokens" in message
    assert "the server's limit is 12 tokens: set chat.context_window to 12 (now 4,096)" in message
    bodies = server.bodies("/v1/chat/completions")
    assert [b["stream"] for b in bodies] == [True, False]  # retried once, without streaming
    assert "cut off" not in message


def test_an_empty_stream_whose_request_succeeds_without_streaming_answers(
    server: FakeServer,
) -> None:
    server.fail(ending="empty", path="/v1/chat/completions")
    stream = OpenAIChat(server.openai_url, "m").stream_chat(MESSAGES)
    assert "".join(stream) == "fine thanks" and stream.finish_reason == "stop"
    assert [b["stream"] for b in server.bodies("/v1/chat/completions")] == [True, False]


def test_a_stream_with_events_but_no_finish_reason_stays_cut_off(server: FakeServer) -> None:
    server.fail(ending="eof", path="/v1/chat/completions")
    with pytest.raises(Exception, match="cut off"):
        list(OpenAIChat(server.openai_url, "m").stream_chat(MESSAGES))
    assert len(server.bodies("/v1/chat/completions")) == 1  # only an empty stream is retried


def test_the_picker_lists_only_models_that_chat(server: FakeServer) -> None:
    from pixelmem.core.providers.chat import OllamaChat, OpenAIChat

    server.models = {"llama3.2", "qwen3", "nomic-embed-text"}
    server.capabilities = {"nomic-embed-text": ["embedding"], "qwen3": ["completion", "thinking"]}
    assert OllamaChat(server.url).list_models() == ["llama3.2", "qwen3"]
    server.models = {"gpt-4o-mini", "text-embedding-3-small", "whisper-1", "o4-mini"}
    assert OpenAIChat(server.openai_url).list_models() == ["gpt-4o-mini", "o4-mini"]
