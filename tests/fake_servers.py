"""A real HTTP server on 127.0.0.1 that speaks the provider protocols, with scriptable faults.

Endpoints (one server, one random free port):

- Ollama: ``POST /api/embed`` (list ``input``), ``POST /api/embeddings`` (one ``prompt``),
  ``GET /api/tags``, ``POST /api/chat`` (NDJSON stream, or one JSON with ``"stream": false``),
  ``POST /api/show`` (``model_info`` context length, ``parameters``, ``capabilities``),
  ``GET /api/ps`` (loaded models with their ``context_length``)
- OpenAI-compatible: ``POST /v1/embeddings``, ``POST /v1/chat/completions`` (SSE stream, or one
  JSON with ``"stream": false``)

Thinking (``thinking="…"``): Ollama streams it in ``message.thinking`` before the answer unless
the request says ``think: false``, and refuses ``think: true`` with a 400 for a model without
the capability; OpenAI-compatible servers stream it in ``delta.reasoning_content`` (or
``delta.reasoning`` with ``reasoning_field="reasoning"``) unless
``chat_template_kwargs.enable_thinking`` is false. Reasoning tokens count against the answer's
``num_predict`` / ``max_tokens`` as real servers count them. ``ignores_think=True``: a model that
thinks whatever the request says. ``strict_fields=True``: an OpenAI-like server that refuses
fields it does not know (400 "Unrecognized request argument").

``overflow="empty_stream"``: a prompt over ``context_limit`` on ``/v1`` gets what
llama-cpp-python sends: ``200 text/event-stream`` with an empty body when streaming, and
``400 context_length_exceeded`` ("This model's maximum context length is N tokens…") when not.
- rerank: ``POST /rerank`` and ``/v1/rerank`` in the Jina/Cohere shape (``documents`` →
  ``results``) or, with ``rerank_shape="tei"``, the TEI shape (``texts`` → a bare list)

Usage::

    with FakeServer(dim=8) as server:
        server.fail(status=429, retry_after="1")       # next request: 429, then normal
        server.fail(status=500, times=2)               # fail twice, then succeed
        server.fail(delay=2.0, path="/api/embed")      # only that path is slowed down
        ...
        server.requests                                 # every request: method, path, headers, body
        server.batch_sizes("/v1/embeddings")            # len(input) of each embeddings call

Vectors are deterministic per text (same text, same vector) and not normalised, as real servers'
often are not. Every request is recorded before any fault applies.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import socket
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

OLLAMA_MODEL_MISSING = 'model "{model}" not found, try pulling it first'
TEI_MISSING_TEXTS = (
    "Failed to deserialize the JSON body into the target type: missing field `texts`"
)


@dataclass
class Fault:
    """What to do instead of (or on top of) a normal answer, for the next matching request."""

    status: int = 0  # answer with this HTTP status and an error body
    body: str | None = None  # the raw error body (default: the protocol's JSON error)
    retry_after: str | None = None  # a Retry-After header to send with the status
    malformed: bool = False  # answer 200 with a body that is not JSON (mid-stream for chat)
    dim: int | None = None  # vectors of this dimension instead of the server's
    ragged: bool = False  # the last vector one number short
    nan: bool = False  # a NaN in the first vector
    delay: float = 0.0  # seconds to wait before answering (ends early when the server stops)
    disconnect: bool = False  # close the connection without answering (mid-stream for chat)
    path: str | None = None  # only a request to this path takes the fault
    # How a chat stream ends instead of normally: "bare_done" (OpenAI: `data: [DONE]` with no
    # finish_reason, as llama.cpp does when a second request interrupts; Ollama: the last line
    # without "done"), "eof" (the stream just stops), "length" (finish reason: token limit),
    # "empty" (200 and a stream that ends before its first event).
    ending: str = ""


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it is not JSON


@dataclass
class _State:
    faults: list[Fault] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)


class _Server(ThreadingHTTPServer):
    """Knows its open connections, so stopping ends them: a client that kept one alive left
    its handler thread waiting on it for the rest of the test run (~40 by the suite's end)."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def end_connections(self) -> None:
        with self._open_lock:
            connections = list(self._open)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)  # its handler reads EOF and ends


class FakeServer:
    """The server; use it as a context manager or call :meth:`start` / :meth:`stop`."""

    def __init__(
        self,
        *,
        dim: int = 8,
        models: Collection[str] | None = None,
        api_key: str | None = None,
        legacy_ollama: bool = False,
        rerank_shape: str = "jina",
        reverse_order: bool = False,
        chat_reply: str = "Hello from the fake server.",
        chat_responder: Callable[[dict[str, Any]], str] | None = None,
        token_delay: float = 0.0,
        context_limit: int | None = None,
        served_model: str | None = None,
        thinking: str = "",
        reasoning_field: str = "reasoning_content",
        ignores_think: bool = False,
        strict_fields: bool = False,
        overflow: str = "",
        capabilities: dict[str, list[str]] | None = None,
        modelfile_num_ctx: int = 0,
    ) -> None:
        self.dim = dim
        self.models = set(models) if models is not None else None  # None: every model exists
        self.api_key = api_key  # when set, every request needs "Authorization: Bearer <key>"
        self.legacy_ollama = legacy_ollama  # an Ollama older than 0.3: no /api/embed
        self.rerank_shape = rerank_shape  # "jina" or "tei"
        self.reverse_order = reverse_order  # OpenAI embeddings answered in reverse index order
        self.chat_reply = chat_reply
        self.chat_responder = chat_responder  # the reply for a request body, instead of chat_reply
        self.token_delay = token_delay
        # The model's context in (fake) tokens: a prompt plus max_tokens beyond it is refused
        # like llama.cpp does (400) on /v1, or answered empty with done_reason "length" by
        # Ollama. Token counts: words and punctuation, 4 more per message.
        self.context_limit = context_limit
        self.served_model = served_model  # answer as this model, whatever was asked
        self.thinking = thinking  # the reasoning a thinking model streams before its answer
        self.reasoning_field = reasoning_field
        self.ignores_think = ignores_think
        self.strict_fields = strict_fields
        self.overflow = overflow
        self.capabilities = capabilities or {}  # model -> /api/show capabilities
        self.modelfile_num_ctx = modelfile_num_ctx  # a Modelfile's num_ctx in /api/show
        self.loaded: dict[str, int] = {}  # model -> context_length in /api/ps
        self.server_header = ""  # e.g. "llama.cpp" or "uvicorn": the Server header to send
        self.prompt_tokens: list[int] = []  # the count of each chat request, for tests
        self._state = _State()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> FakeServer:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
        # A short poll interval keeps stop() (and so every test's teardown) fast.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.end_connections()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "start the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def rerank_url(self) -> str:
        return f"{self.url}/rerank"

    # -- scripting and inspection --------------------------------------------------------------

    def fail(self, fault: Fault | None = None, *, times: int = 1, **fields: Any) -> None:
        """Queue a fault for the next ``times`` matching requests (``Fault`` fields as keywords)."""
        fault = fault or Fault(**fields)
        with self._lock:
            self._state.faults.extend([fault] * times)

    def clear_faults(self) -> None:
        with self._lock:
            self._state.faults.clear()

    @property
    def requests(self) -> list[Request]:
        with self._lock:
            return list(self._state.requests)

    def bodies(self, path: str) -> list[Any]:
        return [r.body for r in self.requests if r.path == path]

    def batch_sizes(self, path: str) -> list[int]:
        """How many texts each request to an embeddings ``path`` carried."""
        sizes = []
        for body in self.bodies(path):
            value = body.get("input", body.get("prompt")) if isinstance(body, dict) else None
            sizes.append(len(value) if isinstance(value, list) else 1)
        return sizes

    def _record(self, request: Request) -> Fault | None:
        with self._lock:
            self._state.requests.append(request)
            for i, fault in enumerate(self._state.faults):
                if fault.path in (None, request.path):
                    return self._state.faults.pop(i)
        return None

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)

    def _model_known(self, model: Any) -> bool:
        if self.models is None:
            return True
        return str(model) in self.models or str(model).removesuffix(":latest") in self.models


def free_port() -> int:
    """A port on 127.0.0.1 with nothing listening (connections to it are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def count_tokens(text: str) -> int:
    """The fake servers' tokenizer: a word, a punctuation mark or a CJK character each."""
    return len(re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|\w+|[^\w\s]", text))


def fake_vector(text: str, dim: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return [float(x) for x in np.random.default_rng(seed).standard_normal(dim) * 3.0]


class _Handler(BaseHTTPRequestHandler):
    fake: FakeServer
    protocol_version = "HTTP/1.1"
    _limited = False  # the last stream stopped at max_tokens
    _reply_text = ""

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def version_string(self) -> str:
        return self.fake.server_header or super().version_string()

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    # -- dispatch ------------------------------------------------------------------------------

    def _handle(self) -> None:
        try:
            self._dispatch()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (a timeout test)

    def _dispatch(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", errors="replace") if length else ""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        path = self.path.split("?")[0]
        fault = self.fake._record(Request(self.command, path, dict(self.headers), body)) or Fault()
        if fault.delay:
            self.fake._wait(fault.delay)
        if fault.disconnect and not path.endswith(("/chat", "/completions")):
            self._drop()
            return
        if fault.status:
            self._error(fault.status, path, fault.body, fault.retry_after)
            return
        if fault.malformed and not path.endswith(("/chat", "/completions")):
            self._send(200, '{"embeddings": [[0.1, 0.2', "application/json")
            return
        if not self._authorised(path):
            return
        responder = self.fake.chat_responder
        wants = body if isinstance(body, dict) else {}
        chat = path.endswith(("/chat", "/completions"))
        self._reply_text = responder(wants) if responder and chat else self.fake.chat_reply
        route = ROUTES.get((self.command, path))
        if route is None:
            self._send(404, "404 page not found", "text/plain")
            return
        route(self, body if isinstance(body, dict) else {}, fault)

    def _authorised(self, path: str) -> bool:
        key = self.fake.api_key
        given = self.headers.get("Authorization", "")
        if key is None or given == f"Bearer {key}":
            return True
        shown = given.removeprefix("Bearer ") or "(none)"
        # Like OpenAI, echo the key received: the client must scrub it from its messages.
        message = f"Incorrect API key provided: {shown}"
        self._json(401, {"error": {"message": message, "code": "invalid_api_key"}})
        return False

    # -- Ollama --------------------------------------------------------------------------------

    def _ollama_embed(self, body: dict[str, Any], fault: Fault) -> None:
        if self.fake.legacy_ollama:
            self._send(404, "404 page not found", "text/plain")
            return
        if self._ollama_model_missing(body):
            return
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else texts
        self._json(200, {"model": body["model"], "embeddings": self._vectors(texts, fault)})

    def _ollama_embeddings(self, body: dict[str, Any], fault: Fault) -> None:
        if self._ollama_model_missing(body):
            return
        vector = self._vectors([str(body.get("prompt", ""))], fault)[0]
        self._json(200, {"embedding": vector})

    def _ollama_tags(self, body: dict[str, Any], fault: Fault) -> None:
        names = sorted(self.fake.models or {"nomic-embed-text"})
        models = [{"name": f"{n}:latest", "model": f"{n}:latest", "size": 1} for n in names]
        self._json(200, {"models": models})

    def _ollama_show(self, body: dict[str, Any], fault: Fault) -> None:
        if self._ollama_model_missing(body):
            return
        window = self.fake.context_limit or 131072
        info = {"general.architecture": "llama", "llama.context_length": window}
        num_ctx = self.fake.modelfile_num_ctx
        parameters = f"stop <|eot_id|>\nnum_ctx {num_ctx}" if num_ctx else ""
        answer = {"modelfile": "", "parameters": parameters, "model_info": info}
        answer["capabilities"] = self._capabilities(str(body.get("model")))
        self._json(200, answer)

    def _capabilities(self, model: str) -> list[str]:
        default = ["completion", "thinking"] if self.fake.thinking else ["completion"]
        return self.fake.capabilities.get(model.removesuffix(":latest"), default)

    def _ollama_ps(self, body: dict[str, Any], fault: Fault) -> None:
        models = [
            {"name": f"{m}:latest", "model": f"{m}:latest", "size": 1, "context_length": n}
            for m, n in sorted(self.fake.loaded.items())
        ]
        self._json(200, {"models": models})

    def _ollama_model_missing(self, body: dict[str, Any]) -> bool:
        if self.fake._model_known(body.get("model")):
            return False
        self._json(404, {"error": OLLAMA_MODEL_MISSING.format(model=body.get("model"))})
        return True

    def _ollama_chat(self, body: dict[str, Any], fault: Fault) -> None:
        if self._ollama_model_missing(body):
            return
        model = self.fake.served_model or body["model"]
        options = body.get("options") or {}
        if body.get("think") is True and "thinking" not in self._capabilities(str(model)):
            self._json(400, {"error": f'"{model}" does not support thinking'})
            return
        if not self._fits(body, options.get("num_predict")):
            self._start_stream("application/x-ndjson")
            final = {"model": model, "message": {"role": "assistant", "content": ""}}
            self._chunk(json.dumps({**final, "done": True, "done_reason": "length"}) + "\n")
            self._end_stream()
            return
        thinks = self._thinks(body.get("think") is not False)
        if body.get("stream") is False:
            message = {"role": "assistant", "content": self._reply_text}
            if thinks:
                message["thinking"] = self.fake.thinking
            self._json(200, {"model": model, "message": message, "done": True})
            return
        self._start_stream("application/x-ndjson")

        def emit(token: str, reasoning: bool = False) -> None:
            message = {"role": "assistant", "content": ""}
            message["thinking" if reasoning else "content"] = token
            self._chunk(json.dumps({"model": model, "message": message, "done": False}) + "\n")

        budget = options.get("num_predict")
        if not self._stream(fault, emit, "this is not json\n", budget, thinks):
            return
        if fault.ending in ("bare_done", "eof"):
            self._end_stream()
            return
        reason = "length" if fault.ending == "length" or self._limited else "stop"
        final = {"model": model, "message": {"role": "assistant", "content": ""}}
        self._chunk(json.dumps({**final, "done": True, "done_reason": reason}) + "\n")
        self._end_stream()

    # -- OpenAI-compatible ---------------------------------------------------------------------

    def _openai_embeddings(self, body: dict[str, Any], fault: Fault) -> None:
        if self._openai_model_missing(body):
            return
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else texts
        vectors = self._vectors(texts, fault)
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        if self.fake.reverse_order:
            data.reverse()
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
        self._json(200, {"object": "list", "data": data, "model": body["model"], "usage": usage})

    def _openai_model_missing(self, body: dict[str, Any]) -> bool:
        if self.fake._model_known(body.get("model")):
            return False
        message = f"The model `{body.get('model')}` does not exist or you do not have access to it."
        error = {"message": message, "type": "invalid_request_error", "code": "model_not_found"}
        self._json(404, {"error": error})
        return True

    def _openai_chat(self, body: dict[str, Any], fault: Fault) -> None:
        if self._openai_model_missing(body):
            return
        model = self.fake.served_model or body["model"]
        if self.fake.strict_fields and "chat_template_kwargs" in body:
            message = "Unrecognized request argument supplied: chat_template_kwargs"
            self._json(400, {"error": {"message": message, "type": "invalid_request_error"}})
            return
        if not self._fits(body, body.get("max_tokens")):
            self._openai_overflow(body)
            return
        switch = (body.get("chat_template_kwargs") or {}).get("enable_thinking")
        thinks = self._thinks(switch is not False)
        field = self.fake.reasoning_field
        if not body.get("stream"):
            message = {"role": "assistant", "content": self._reply_text}
            if thinks:
                message[field] = self.fake.thinking
            choice = {"index": 0, "message": message, "finish_reason": "stop"}
            self._json(200, {"id": "chatcmpl-fake", "model": model, "choices": [choice]})
            return
        self._start_stream("text/event-stream")
        if fault.ending == "empty":
            self._end_stream()
            return

        def emit(token: str, reasoning: bool = False) -> None:
            delta = {"content": None, field: token} if reasoning else {"content": token}
            choice = {"index": 0, "delta": delta, "finish_reason": None}
            self._event({"id": "chatcmpl-fake", "model": model, "choices": [choice]})

        budget = body.get("max_tokens")
        if not self._stream(fault, emit, "data: this is not json\n\n", budget, thinks):
            return
        if fault.ending in ("bare_done", "eof"):
            if fault.ending == "bare_done":
                self._chunk("data: [DONE]\n\n")
            self._end_stream()
            return
        reason = "length" if fault.ending == "length" or self._limited else "stop"
        choice = {"index": 0, "delta": {}, "finish_reason": reason}
        self._event({"id": "chatcmpl-fake", "model": model, "choices": [choice]})
        self._chunk("data: [DONE]\n\n")
        self._end_stream()

    def _openai_overflow(self, body: dict[str, Any]) -> None:
        """A prompt over the context: llama.cpp's 400, or llama-cpp-python's empty stream."""
        if self.fake.overflow == "empty_stream":
            if body.get("stream"):
                self._start_stream("text/event-stream")
                self._end_stream()
                self.close_connection = True  # and drops the kept-alive connection after it
                return
            limit, asked = self.fake.context_limit, self.fake.prompt_tokens[-1]
            message = (
                f"This model's maximum context length is {limit} tokens. However, you requested "
                f"{asked} tokens ({asked} in the messages, 0 in the completion). Please reduce "
                "the length of the messages or completion."
            )
            error = {"message": message, "type": "invalid_request_error",
                     "param": "messages", "code": "context_length_exceeded"}  # fmt: skip
            self._json(400, {"error": error})
            return
        message = "the request exceeds the available context size, try increasing it"
        error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
        self._json(400, {"error": error})

    def _openai_models(self, body: dict[str, Any], fault: Fault) -> None:
        names = sorted(self.fake.models or {"chat-model"})
        data = [{"id": n, "object": "model", "owned_by": "fake"} for n in names]
        self._json(200, {"object": "list", "data": data})

    # -- rerank --------------------------------------------------------------------------------

    def _rerank(self, body: dict[str, Any], fault: Fault) -> None:
        query = str(body.get("query", ""))
        if self.fake.rerank_shape == "tei":
            texts = body.get("texts")
            if not isinstance(texts, list):
                self._json(422, {"error": TEI_MISSING_TEXTS, "error_type": "Validation"})
                return
            scored = _scores(query, texts)
            self._json(200, [{"index": i, "score": s} for i, s in scored])
            return
        documents = body.get("documents")
        if not isinstance(documents, list):
            self._json(400, {"detail": "'documents' is required"})
            return
        scored = _scores(query, documents)[: int(body.get("top_n") or len(documents))]
        results = [{"index": i, "relevance_score": s} for i, s in scored]
        self._json(200, {"model": body.get("model", ""), "results": results})

    # -- helpers -------------------------------------------------------------------------------

    def _vectors(self, texts: list[Any], fault: Fault) -> list[list[float]]:
        dim = fault.dim or self.fake.dim
        vectors = [fake_vector(str(text), dim) for text in texts]
        if fault.nan and vectors:
            vectors[0][0] = float("nan")
        if fault.ragged and vectors:
            vectors[-1] = vectors[-1][:-1]
        return vectors

    def _fits(self, body: dict[str, Any], max_tokens: Any) -> bool:
        """Whether the prompt plus the answer's room fits ``context_limit`` (recorded)."""
        messages = body.get("messages") or []
        count = sum(4 + count_tokens(str(m.get("content", ""))) for m in messages)
        self.fake.prompt_tokens.append(count)
        limit = self.fake.context_limit
        return limit is None or count + int(max_tokens or 0) <= limit

    def _thinks(self, asked: bool) -> bool:
        """Whether this answer streams reasoning (a thinking model, not told to stop)."""
        return bool(self.fake.thinking) and (asked or self.fake.ignores_think)

    def _stream(
        self,
        fault: Fault,
        emit: Callable[..., None],
        garbage: str,
        max_tokens: Any = None,
        thinks: bool = False,
    ) -> bool:
        """Emit the reasoning (if any), then the reply, token by token, both within
        ``max_tokens``; False when a fault dropped the connection."""
        reasoning = re.findall(r"\S+\s*", self.fake.thinking) if thinks else []
        tokens = re.findall(r"\S+\s*", self._reply_text)
        budget = int(max_tokens) if max_tokens else None
        self._limited = budget is not None and len(reasoning) + len(tokens) > budget
        if budget is not None:
            reasoning = reasoning[:budget]
            tokens = tokens[: max(0, budget - len(reasoning))]
        for piece in reasoning:
            emit(piece, True)
        for i, token in enumerate(tokens):
            if i == 1 and fault.malformed:
                self._chunk(garbage)
            if i == 1 and fault.disconnect:
                self._drop()
                return False
            if self.fake.token_delay:
                self.fake._wait(self.fake.token_delay)
            emit(token)
        return True

    def _drop(self) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def _error(self, status: int, path: str, body: str | None, retry_after: str | None) -> None:
        if body is None:
            message = f"fake server fault {status}"
            error: Any = {"message": message} if path.startswith("/v1") else message
            body = json.dumps({"error": error})
        headers = {"Retry-After": retry_after} if retry_after else {}
        self._send(status, body, "application/json", headers)

    def _json(self, status: int, payload: Any) -> None:
        self._send(status, json.dumps(payload), "application/json")

    def _send(
        self, status: int, text: str, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _chunk(self, text: str) -> None:
        data = text.encode("utf-8")
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _event(self, payload: dict[str, Any]) -> None:
        self._chunk(f"data: {json.dumps(payload)}\n\n")

    def _end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def _scores(query: str, documents: list[Any]) -> list[tuple[int, float]]:
    """Word overlap with the query, best first (ties keep document order)."""
    words = set(query.lower().split())
    scores = []
    for i, doc in enumerate(documents):
        doc_words = set(str(doc).lower().split())
        scores.append((i, len(words & doc_words) / (len(doc_words) or 1)))
    return sorted(scores, key=lambda pair: -pair[1])


ROUTES = {
    ("POST", "/api/embed"): _Handler._ollama_embed,
    ("POST", "/api/embeddings"): _Handler._ollama_embeddings,
    ("GET", "/api/tags"): _Handler._ollama_tags,
    ("POST", "/api/chat"): _Handler._ollama_chat,
    ("POST", "/api/show"): _Handler._ollama_show,
    ("GET", "/api/ps"): _Handler._ollama_ps,
    ("POST", "/v1/embeddings"): _Handler._openai_embeddings,
    ("POST", "/v1/chat/completions"): _Handler._openai_chat,
    ("GET", "/v1/models"): _Handler._openai_models,
    ("POST", "/rerank"): _Handler._rerank,
    ("POST", "/v1/rerank"): _Handler._rerank,
}

__all__ = ["FakeServer", "Fault", "Request", "count_tokens", "fake_vector", "free_port"]
