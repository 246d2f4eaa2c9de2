"""Streaming chat clients: Ollama (``/api/chat``, NDJSON) and OpenAI-compatible (SSE).

Both expose ``stream_chat(messages, *, cancel) -> AnswerStream``, yielding the answer's text
deltas as they arrive. An answer is complete only when the server says why it ended: OpenAI's
``finish_reason`` (``stop``, or ``length`` at the token limit), Ollama's ``done: true``. A bare
``data: [DONE]`` (llama.cpp ends a stream so when another request interrupts it), a stream that
just stops, or a dropped connection raise :class:`AnswerCutOff` after the text that did arrive;
``AnswerStream.finish_reason`` tells ``stop`` from ``length`` afterwards.

Requests go through :class:`~pixelmem.core.providers.http.JsonClient`, so retries
(429/5xx before the answer starts) and error sentences are the same as the embedders'. A read
timeout applies between two pieces of the stream, not to the whole answer.

Thinking models (:mod:`~pixelmem.core.providers.thinking`): the request says ``think``
(Ollama) or ``chat_template_kwargs.enable_thinking`` (other servers, not OpenAI's own API) as
``chat.think`` says; reasoning that arrives anyway is kept apart in ``AnswerStream.reasoning``
and handed to ``AnswerStream.on_reasoning``, never mixed into the answer's text.

A stream that ends before sending anything at all (llama-cpp-python answers a prompt longer
than its context so: ``200 text/event-stream``, empty body) is asked again once without
streaming, to get the server's real error (``context_length_exceeded``); a refusal names
``chat.context_window`` and the server's own limit where it says it.

Cancelling: set ``cancel`` and the stream stops quietly (no exception) at the next piece. If
``cancel`` is a :class:`CancelToken`, setting it also shuts the socket down at once, so a
blocked read ends immediately even when the model is slow to send its next token.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from pixelmem.core.errors import (
    AnswerCutOff,
    ContextExceeded,
    ProviderError,
    ProviderResponseError,
    ProviderUnavailable,
)
from pixelmem.core.providers.http import (
    JsonClient,
    ProviderTimeout,
    RetryPolicy,
    Service,
    make_timeout,
    redact,
)
from pixelmem.core.providers.server_hints import context_size_hint, server_kind
from pixelmem.core.providers.servers import OLLAMA_BASE_URL as OLLAMA_BASE_URL  # re-exported
from pixelmem.core.providers.servers import OPENAI_BASE_URL as OPENAI_BASE_URL
from pixelmem.core.providers.servers import ollama_service, openai_service
from pixelmem.core.providers.thinking import ThinkTagSplitter
from pixelmem.core.settings import ChatSettings

CHAT_TIMEOUT = httpx.Timeout(120.0, connect=5.0)  # read: the longest silence between tokens
OLLAMA_DEFAULT_MODEL = "llama3.2"
OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
NOT_CONFIGURED = "No chat model is configured — open Settings → Chat"

Message = dict[str, str]
STOP, LENGTH = "stop", "length"
TOKEN_LIMIT = "stopped at the token limit"


class ChatNotConfigured(ProviderError):
    """No chat provider is chosen in the settings."""

    def __init__(self, hint: str = "") -> None:
        super().__init__(NOT_CONFIGURED + hint)


class CancelToken(threading.Event):
    """A ``threading.Event`` that also runs callbacks when set (to abort a blocked read)."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._callbacks_lock = threading.Lock()

    def set(self) -> None:
        super().set()
        with self._callbacks_lock:
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def on_set(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` when set (at once if already set); returns an unregister function."""
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)

                def unregister() -> None:
                    with self._callbacks_lock:
                        if callback in self._callbacks:
                            self._callbacks.remove(callback)

                return unregister
        callback()
        return lambda: None


class ChatClient(Protocol):
    """What the chat pane and ``pixelmem ask`` need from a provider."""

    model: str

    @property
    def label(self) -> str:
        """How to name the model to a person: ``llama3.2 (Ollama)``."""
        ...

    def stream_chat(
        self, messages: list[Message], *, cancel: threading.Event | None = None
    ) -> AnswerStream: ...

    def close(self) -> None: ...


class AnswerStream(Iterator[str]):
    """The answer's text pieces; once exhausted, ``finish_reason`` is ``stop`` or ``length``
    (or ``""`` when the stream was cancelled). A cut-off answer raises instead of ending.

    Reasoning never comes out of the iterator: it collects in ``reasoning`` and goes to
    ``on_reasoning`` (set it before iterating) piece by piece."""

    def __init__(self) -> None:
        self.finish_reason = ""
        self.reasoning = ""
        self.on_reasoning: Callable[[str], None] | None = None
        self._pieces: Generator[str, None, str] | None = None

    def add_reasoning(self, piece: str) -> None:
        if piece:
            self.reasoning += piece
            if self.on_reasoning is not None:
                self.on_reasoning(piece)

    def __next__(self) -> str:
        assert self._pieces is not None
        return next(self._pieces)

    def close(self) -> None:
        if self._pieces is not None:
            self._pieces.close()

    @property
    def hit_token_limit(self) -> bool:
        return self.finish_reason == LENGTH


class StreamingJsonClient(JsonClient):
    """:class:`JsonClient` that reads a streamed answer (``open_stream``) line by line."""

    def __init__(
        self,
        service: Service,
        *,
        api_key: str = "",
        timeout: httpx.Timeout = CHAT_TIMEOUT,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(service, api_key=api_key, timeout=timeout, retry=retry)
        self._http.headers["Accept"] = "application/x-ndjson, text/event-stream, application/json"

    def lines(
        self, response: httpx.Response, cancel: threading.Event | None
    ) -> Generator[str, None, None]:
        """The response's lines; :class:`Cancelled` once ``cancel`` is set; errors explained."""
        where = self.service.where
        unregister = _abort_on_cancel(response, cancel)
        try:
            for line in response.iter_lines():
                _check(cancel)
                yield line
            _check(cancel)
        except httpx.ReadTimeout:
            _check(cancel)
            seconds = self._timeout.read
            hint = self.service.raise_timeout_hint(seconds)
            raise ProviderTimeout(
                f"{where} sent nothing for {seconds:g} s in the middle of the answer; "
                f"the model may be overloaded — try again, or {hint}"
            ) from None
        except httpx.TransportError as exc:
            _check(cancel)  # a shut-down socket is our own doing, not the server's
            if isinstance(exc, httpx.RemoteProtocolError):
                reason = "the server closed the connection"
            else:
                reason = redact(str(exc), self._secrets) or type(exc).__name__
            raise AnswerCutOff(where, f"the connection broke ({reason})") from None
        finally:
            unregister()
            response.close()


class Cancelled(Exception):
    """Raised inside a stream when its cancel event is set; ``stream_chat`` ends quietly."""


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled


def _abort_on_cancel(
    response: httpx.Response, cancel: threading.Event | None
) -> Callable[[], None]:
    """With a CancelToken, shut the socket down on cancel so a blocked read returns now."""
    if not isinstance(cancel, CancelToken):
        return lambda: None
    stream = response.extensions.get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is None:
        return lambda: None

    def shutdown() -> None:
        with contextlib.suppress(OSError):  # already closed
            sock.shutdown(socket.SHUT_RDWR)

    return cancel.on_set(shutdown)


@dataclass(frozen=True)
class ChatCheck:
    """What a one-token test completion showed."""

    model: str  # asked for
    answered_model: str  # what the server says answered
    seconds: float
    warnings: list[str] = field(default_factory=list)


def _same_model(asked: str, answered: str) -> bool:
    """``llama3.2`` is ``llama3.2:latest``; ``gpt-4o-mini`` is ``gpt-4o-mini-2024-07-18``."""
    asked, answered = asked.removesuffix(":latest"), answered.removesuffix(":latest")
    return answered == asked or answered.startswith(asked + "-") or answered.endswith("/" + asked)


class _BaseChatClient:
    provider_name = ""
    path = ""
    models_path = ""
    default_model = ""

    def __init__(
        self,
        base_url: str = "",
        model: str = "",
        *,
        api_key: str = "",
        timeout: httpx.Timeout = CHAT_TIMEOUT,
        retry: RetryPolicy | None = None,
        max_tokens: int = 0,
        context_window: int = 0,
        think: bool = False,
        send_context_window: bool = True,
    ) -> None:
        service = self._service(base_url)
        self.model = model or self.default_model
        self.base_url = service.base_url
        self.max_tokens = max_tokens  # 0: the server's default
        self.context_window = context_window  # 0: the server's default (only Ollama is told)
        self.send_context_window = send_context_window  # False: Ollama keeps its own window
        self.think = think
        self.json_output = False  # ask for JSON (Ollama format, OpenAI response_format)
        self._think_refused = False  # the server refused an optional field: not sent again
        self._client = StreamingJsonClient(service, api_key=api_key, timeout=timeout, retry=retry)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def label(self) -> str:
        return f"{self.model} ({self.provider_name})"

    @property
    def where(self) -> str:
        return self._client.service.where

    def close(self) -> None:
        self._client.close()

    def list_models(self) -> list[str]:
        """The chat models the server offers (``/api/tags``, ``/models``), sorted; models that
        only embed (Ollama's capabilities, or a name like ``text-embedding-3-small``) left out."""
        body = self._client.get(self.models_path)
        return sorted(n for n in set(self._model_names(body)) if self._can_chat(n))

    def _can_chat(self, name: str) -> bool:
        return not _NOT_CHAT.search(name)

    def check(self) -> ChatCheck:
        """A one-token completion: the model that answered, the time, and what looks wrong."""
        start = time.perf_counter()
        payload = self._payload([{"role": "user", "content": "Say OK."}], max_tokens=1)
        payload["stream"] = False
        body = self._client.post(self.path, payload)
        seconds = time.perf_counter() - start
        answered = str(body.get("model") or "") if isinstance(body, dict) else ""
        warnings = []
        if answered and not _same_model(self.model, answered):
            warnings.append(
                f"asked for model '{self.model}' but {self.where} answered as '{answered}': "
                "it may ignore the name and use its default model — check chat.model"
            )
        return ChatCheck(self.model, answered or self.model, seconds, warnings)

    def stream_chat(
        self, messages: list[Message], *, cancel: threading.Event | None = None
    ) -> AnswerStream:
        """The answer's text as it arrives; a ProviderError if the provider fails."""
        stream = AnswerStream()
        stream._pieces = self._generate(messages, cancel, stream)
        return stream

    def _generate(
        self, messages: list[Message], cancel: threading.Event | None, stream: AnswerStream
    ) -> Generator[str, None, str]:
        if cancel is not None and cancel.is_set():
            return ""
        response = self._open(messages)
        lines = _Counted(self._client.lines(response, cancel))
        splitter = ThinkTagSplitter()
        try:
            if response.headers.get("content-type", "").startswith("application/json"):
                pieces = self._whole_answer("\n".join(lines), stream)
            else:
                pieces = self._parse(lines, stream)
            reason = yield from _split_think_tags(pieces, splitter, stream)
        except Cancelled:
            return ""
        except AnswerCutOff:
            if lines.count or (cancel is not None and cancel.is_set()):
                raise
            reason = yield from self._ask_without_streaming(messages, stream)
        finally:
            lines.close()
            response.close()
        stream.finish_reason = reason
        return reason

    def _open(self, messages: list[Message]) -> httpx.Response:
        """The streaming response; a refused thinking switch is dropped and asked again once."""
        try:
            return self._client.open_stream(self.path, self._payload(messages))
        except ContextExceeded as exc:
            raise ContextExceeded(f"{exc}{self._context_hint(str(exc))}") from None
        except ProviderResponseError as exc:
            if self._think_refused or not self._refuses_think_field(str(exc)):
                raise
            self._think_refused = True
            return self._open(messages)

    def _ask_without_streaming(
        self, messages: list[Message], stream: AnswerStream
    ) -> Generator[str, None, str]:
        """A stream that sent nothing at all: the same request without streaming, whose error
        (llama-cpp-python: 400 ``context_length_exceeded``) says what is wrong."""
        payload = self._payload(messages)
        payload["stream"] = False
        try:
            body = self._post_again(payload)
        except ContextExceeded as exc:
            raise ContextExceeded(f"{exc}{self._context_hint(str(exc))}") from None
        text = json.dumps(body) if isinstance(body, dict) else ""
        if not text or text == "{}":
            raise ContextExceeded(
                f"{self.where} sent an empty answer, also when asked without streaming; the "
                f"prompt is probably longer than the server's context{self._context_hint('')}"
            )
        return (yield from _split_think_tags(self._whole_answer(text, stream), None, stream))

    def _post_again(self, payload: dict[str, Any]) -> Any:
        """POST once more; llama-cpp-python resets the kept-alive connection after an empty
        stream, so a reset on the first try is tried again on a new connection."""
        try:
            return self._client.post(self.path, payload)
        except ProviderTimeout:
            raise
        except ProviderUnavailable:
            return self._client.post(self.path, payload)

    def _context_hint(self, error: str) -> str:
        limit = server_context_limit(error)
        kind = server_kind(self._client.server_software, self._client.service.name)
        bigger = context_size_hint(kind)
        if limit and self.context_window:
            return (
                f" — the server's limit is {limit:,} tokens: set chat.context_window to "
                f"{limit:,} (now {self.context_window:,}), start a new chat"
                + (f", or {bigger}" if bigger else "")
            )
        if not self.context_window:
            return " — start a new chat"
        return (
            " — start a new chat, or set chat.context_window to the model's real context size "
            f"(now {self.context_window:,})"
        )

    def _refuses_think_field(self, error: str) -> bool:
        return False

    def _payload(self, messages: list[Message], max_tokens: int = 0) -> dict[str, Any]:
        return {"model": self.model, "messages": messages, "stream": True}

    def _model_names(self, body: Any) -> list[str]:
        raise NotImplementedError

    def _service(self, base_url: str) -> Service:
        """The server at ``base_url`` (the provider's default address if empty)."""
        raise NotImplementedError

    def _parse(self, lines: Iterator[str], stream: AnswerStream) -> Generator[str, None, str]:
        """Yield the text (reasoning to ``stream``); return the finish reason, or raise
        AnswerCutOff without one."""
        raise NotImplementedError

    def _whole_answer(self, text: str, stream: AnswerStream) -> Generator[str, None, str]:
        """A server that ignored ``stream: true`` and answered with one JSON object."""
        raise NotImplementedError

    def _decode(self, text: str) -> dict[str, Any]:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            shown = " ".join(text.split())[:80]
            raise ProviderResponseError(
                f"{self.where} sent a malformed piece of the answer: {shown!r}"
            )
        error = data.get("error")
        if error:
            if isinstance(error, dict):
                error = error.get("message", error)
            raise ProviderResponseError(f"{self.where} stopped with an error: {error}")
        return data

    def _finished(self, reason: str) -> str:
        """``stop`` or ``length``; a reason that means the text was withheld is a cut-off."""
        if reason == "content_filter":
            raise AnswerCutOff(self.where, "the server's content filter stopped it")
        return LENGTH if reason == LENGTH else STOP


class OllamaChat(_BaseChatClient):
    """``POST {base}/api/chat`` with ``stream: true``: one JSON object per line."""

    provider_name = "Ollama"
    path = "/api/chat"
    models_path = "/api/tags"
    default_model = OLLAMA_DEFAULT_MODEL

    def _service(self, base_url: str) -> Service:
        return ollama_service(base_url, "chat")

    def show(self) -> dict[str, Any]:
        """What ``/api/show`` says of the model (``model_info``, ``parameters``,
        ``capabilities``); an empty dict when the answer is not an object."""
        body = self._client.post("/api/show", {"model": self.model})
        return body if isinstance(body, dict) else {}  # see chat_window.facts_from_show

    def running(self) -> list[dict[str, Any]]:
        """The models Ollama has loaded now (``/api/ps``), with their ``context_length``."""
        body = self._client.get("/api/ps")
        models = body.get("models") if isinstance(body, dict) else None
        return [m for m in models or [] if isinstance(m, dict)]

    def _can_chat(self, name: str) -> bool:
        """What ``/api/show`` says the model can do (a model it cannot describe is kept)."""
        try:
            body = self._client.post("/api/show", {"model": name})
        except ProviderError:
            return True
        capabilities = body.get("capabilities") if isinstance(body, dict) else None
        if isinstance(capabilities, list):
            return "completion" in capabilities
        return not _NOT_CHAT.search(name)

    def _model_names(self, body: Any) -> list[str]:
        models = body.get("models") if isinstance(body, dict) else None
        names = [m.get("name") or m.get("model") for m in models or [] if isinstance(m, dict)]
        return [str(n).removesuffix(":latest") for n in names if n]

    def _payload(self, messages: list[Message], max_tokens: int = 0) -> dict[str, Any]:
        payload = super()._payload(messages)
        if not self._think_refused:
            payload["think"] = self.think  # false: a thinking model answers without reasoning
            if self.json_output:
                payload["format"] = "json"
        options = {}
        if max_tokens or self.max_tokens:
            options["num_predict"] = max_tokens or self.max_tokens
        if self.context_window and self.send_context_window:
            options["num_ctx"] = self.context_window  # Ollama's own default is often 2,048
        if options:
            payload["options"] = options
        return payload

    def _refuses_think_field(self, error: str) -> bool:
        # '"llama3.2" does not support thinking'; an old Ollama without "format"
        return "thinking" in error.lower() or "format" in error.lower()

    def _parse(self, lines: Iterator[str], stream: AnswerStream) -> Generator[str, None, str]:
        for line in lines:
            if not line.strip():
                continue
            data = self._decode(line)
            thinking = _get(data, "message", "thinking")
            if isinstance(thinking, str):
                stream.add_reasoning(thinking)
            content = _get(data, "message", "content")
            if isinstance(content, str) and content:
                yield content
            if data.get("done"):
                return self._finished(str(data.get("done_reason") or STOP))
        raise AnswerCutOff(self.where, 'the stream ended without "done"')

    def _whole_answer(self, text: str, stream: AnswerStream) -> Generator[str, None, str]:
        return (yield from self._parse(iter(text.splitlines()), stream))


class OpenAIChat(_BaseChatClient):
    """``POST {base}/chat/completions`` with ``stream: true``: server-sent events."""

    provider_name = "OpenAI-compatible"
    path = "/chat/completions"
    models_path = "/models"
    default_model = OPENAI_DEFAULT_MODEL

    def _service(self, base_url: str) -> Service:
        return openai_service(base_url, "chat")

    def _payload(self, messages: list[Message], max_tokens: int = 0) -> dict[str, Any]:
        payload = super()._payload(messages)
        if max_tokens or self.max_tokens:
            payload["max_tokens"] = max_tokens or self.max_tokens
        if not self._think_refused and not _is_openai_itself(self.base_url):
            # llama.cpp and vLLM pass it to templates that can switch thinking (Qwen3); the
            # others ignore it. OpenAI's own API refuses unknown fields, so it is not told.
            payload["chat_template_kwargs"] = {"enable_thinking": self.think}
        if not self._think_refused and self.json_output:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def _refuses_think_field(self, error: str) -> bool:
        return any(
            f in error for f in ("chat_template_kwargs", "enable_thinking", "response_format")
        )

    def _model_names(self, body: Any) -> list[str]:
        data = body.get("data") if isinstance(body, dict) else None
        return [str(m["id"]) for m in data or [] if isinstance(m, dict) and m.get("id")]

    def _parse(self, lines: Iterator[str], stream: AnswerStream) -> Generator[str, None, str]:
        finish = ""
        for event in _sse_data(lines):
            if event.strip() == "[DONE]":
                if finish:
                    break
                raise AnswerCutOff(
                    self.where,
                    "it sent [DONE] without a finish reason "
                    "(another request may have interrupted it)",
                )
            data = self._decode(event)
            choices = data.get("choices")
            if not isinstance(choices, list) or not choices:
                continue  # a usage-only or keep-alive event
            stream.add_reasoning(_reasoning_of(_get(choices[0], "delta")))
            content = _get(choices[0], "delta", "content")
            if isinstance(content, str) and content:
                yield content
            finish = str(_get(choices[0], "finish_reason") or finish)
        if not finish:
            raise AnswerCutOff(self.where, "the stream ended without a finish reason")
        return self._finished(finish)

    def _whole_answer(self, text: str, stream: AnswerStream) -> Generator[str, None, str]:
        data = self._decode(text)
        choices = data.get("choices")
        content = _get(choices[0], "message", "content") if isinstance(choices, list) else None
        if not choices or not isinstance(content, str | None):
            raise ProviderResponseError(f"{self.where} returned an answer without any text")
        stream.add_reasoning(_reasoning_of(_get(choices[0], "message")))
        if content:
            yield content
        # A whole answer cannot be cut off in transit; no reason given means it stopped.
        return self._finished(str(_get(choices[0], "finish_reason") or STOP))


def _sse_data(lines: Iterator[str]) -> Iterator[str]:
    """The ``data`` of each server-sent event (multi-line data joined; comments skipped)."""
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue  # a comment / keep-alive
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value.removeprefix(" "))
        elif field not in ("event", "id", "retry"):
            data.append(line)  # not SSE at all: let the JSON check explain
    if data:
        yield "\n".join(data)


# Models that do not chat, by the names OpenAI-compatible servers list them under.
_NOT_CHAT = re.compile(
    r"embed|rerank|whisper|tts|dall-e|davinci-00|babbage|moderation|transcribe|bge-|e5-",
    re.IGNORECASE,
)


def _reasoning_of(delta: Any) -> str:
    """The reasoning in an OpenAI-style delta or message, under either name servers use."""
    if not isinstance(delta, dict):
        return ""
    for key in ("reasoning_content", "reasoning"):
        value = delta.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _split_think_tags(
    pieces: Generator[str, None, str], splitter: ThinkTagSplitter | None, stream: AnswerStream
) -> Generator[str, None, str]:
    """``pieces`` with a leading ``<think>…</think>`` block moved to the reasoning."""
    splitter = splitter or ThinkTagSplitter()
    while True:
        try:
            piece = next(pieces)
        except StopIteration as end:
            reasoning, text = splitter.flush()
            stream.add_reasoning(reasoning)
            if text:
                yield text
            return str(end.value or "")
        reasoning, text = splitter.feed(piece)
        stream.add_reasoning(reasoning)
        if text:
            yield text


class _Counted(Iterator[str]):
    """Lines, counting the ones with something in them (an empty stream sent none)."""

    def __init__(self, lines: Generator[str, None, None]) -> None:
        self._lines = lines
        self.count = 0

    def __next__(self) -> str:
        line = next(self._lines)
        if line.strip():
            self.count += 1
        return line

    def close(self) -> None:
        self._lines.close()


_LIMIT_PATTERNS = (
    re.compile(r"maximum context length is (\d[\d,]*)", re.IGNORECASE),
    re.compile(r"context (?:window|length|size) of (\d[\d,]*)", re.IGNORECASE),
    re.compile(r"\bn_ctx\W{0,3}(\d[\d,]*)", re.IGNORECASE),
)


def server_context_limit(error: str) -> int:
    """The context size a server's refusal names (``maximum context length is 2048``), or 0."""
    for pattern in _LIMIT_PATTERNS:
        match = pattern.search(error)
        if match:
            return int(match.group(1).replace(",", ""))
    return 0


def _is_openai_itself(base_url: str) -> bool:
    try:
        return httpx.URL(base_url).host.endswith("openai.com")
    except httpx.InvalidURL:
        return False


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def create_chat_client(
    settings: ChatSettings,
    *,
    timeout: httpx.Timeout | None = None,
    retry: RetryPolicy | None = None,
) -> OllamaChat | OpenAIChat:
    """The client for ``settings.provider``; :class:`ChatNotConfigured` when none is chosen."""
    kwargs: dict[str, Any] = {
        "api_key": settings.effective_api_key(),
        "timeout": timeout or make_timeout(read=settings.timeout),
        "retry": retry,
        "max_tokens": settings.max_tokens,
        "context_window": settings.context_window,
        "think": settings.think == "on",
        # "auto": Ollama keeps the window it loaded the model with (see chat_window)
        "send_context_window": settings.context_window_mode == "pinned",
    }
    if settings.provider == "ollama":
        return OllamaChat(settings.base_url, settings.model, **kwargs)
    if settings.provider == "openai":
        return OpenAIChat(settings.base_url, settings.model, **kwargs)
    raise ChatNotConfigured()


__all__ = [
    "CHAT_TIMEOUT",
    "LENGTH",
    "NOT_CONFIGURED",
    "STOP",
    "TOKEN_LIMIT",
    "AnswerStream",
    "CancelToken",
    "ChatCheck",
    "ChatClient",
    "ChatNotConfigured",
    "Message",
    "OllamaChat",
    "OpenAIChat",
    "StreamingJsonClient",
    "create_chat_client",
    "server_context_limit",
]
