"""Shared HTTP plumbing for providers: timeouts, retries with backoff, errors a person understands.

Every provider (embeddings, reranker, chat) talks JSON over httpx through :class:`JsonClient`.
It retries only what may pass by itself — 408/429/502/503/504 and timeouts with exponential
backoff (honouring ``Retry-After``), a 500 once unless its text says it is permanent — never
another 4xx (the same request would fail the same way). It turns transport
failures and error statuses into :class:`ProviderError` subclasses with one readable sentence,
and scrubs the API key out of anything a server echoes back, so a key never reaches a message
or a log line.
"""

from __future__ import annotations

import email.utils
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from pixelmem.core.errors import (
    ContextExceeded,
    ProviderAuthError,
    ProviderError,
    ProviderModelNotFound,
    ProviderResponseError,
    ProviderUnavailable,
)
from pixelmem.core.redaction import MASK, masked_url, url_password

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=5.0)
RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})  # a 500 is retried once, if not permanent
_MISSING_MODEL = re.compile(
    r"model.*(not found|does not exist|doesn't exist|not exist|unknown|no such)"
    r"|(unknown|no such|invalid) model",
    re.IGNORECASE | re.DOTALL,
)
# llama.cpp: "the request exceeds the available context size"; OpenAI/vLLM: "maximum context
# length is 4096 tokens"; Ollama: "input length exceeds the context length".
_CONTEXT_EXCEEDED = re.compile(
    r"context[ _](length|size|window)|maximum context|exceeds? the (available )?context"
    r"|context_length_exceeded|exceed_context_size|n_ctx|prompt is too long|too many tokens",
    re.IGNORECASE,
)
# A 500 that says the request itself is wrong: retrying cannot help.
_PERMANENT = re.compile(
    r"not found|does not exist|not support|unsupported|invalid|exceed|too long|too large"
    r"|context|out of memory|no such",
    re.IGNORECASE,
)


class ProviderTimeout(ProviderUnavailable):
    """The provider accepted the connection but did not answer in time."""


class EndpointNotFound(ProviderUnavailable):
    """The server answered 404 for the path itself (wrong base URL, or an old server)."""


def make_timeout(connect: float = 5.0, read: float = 60.0) -> httpx.Timeout:
    """Connect/read timeouts in seconds (writes and pool waits share the read timeout)."""
    return httpx.Timeout(read, connect=connect)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or HTTP date), else None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait before retrying a 429/5xx answer."""

    max_retries: int = 3
    max_500_retries: int = 1  # an internal error that is not marked permanent: once
    max_timeout_retries: int = 1  # a timeout already cost the whole timeout: once
    base_delay: float = 0.5
    max_delay: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        """Wait before retry number ``attempt`` (0-based): Retry-After if given, else backoff."""
        wanted = parse_retry_after(retry_after)
        if wanted is None:
            wanted = self.base_delay * (2**attempt)
        return min(wanted, self.max_delay)


@dataclass(frozen=True)
class Service:
    """How to name a server in messages, and what to suggest when something goes wrong."""

    name: str  # "Ollama", "the OpenAI-compatible server", "the reranker"
    base_url: str
    not_running_hint: str = ""  # "start it with `ollama serve`"
    pull_hint: str = ""  # " — pull it with `ollama pull {model}`"
    base_url_hint: str = "check the base URL"
    key_setting: str = ""  # "embedding.api_key": where to set a missing key
    timeout_setting: str = ""  # "embedding.timeout": where to raise the timeout

    def raise_timeout_hint(self, seconds: float | None) -> str:
        """``raise embedding.timeout (now 60 s)``, or a generic hint without a setting."""
        if not self.timeout_setting:
            return "raise the timeout"
        return f"raise {self.timeout_setting} (now {_seconds(seconds)})"

    @property
    def shown_url(self) -> str:
        """The base URL as messages show it (a password in it masked)."""
        return masked_url(self.base_url)

    @property
    def where(self) -> str:
        return f"{self.name} at {self.shown_url}"


def check_api_key(api_key: str) -> None:
    """Refuse a key that cannot be sent in a header (the error never repeats the key)."""
    if api_key and not (api_key.isascii() and api_key.isprintable() and " " not in api_key):
        raise ProviderAuthError(
            "the API key contains spaces, line breaks or non-ASCII characters; paste it again"
        )


def redact(text: str, secrets: Sequence[str]) -> str:
    """``text`` with each secret masked, also when a server echoed it in another case or
    %-encoded (wholly, partly, or twice: ``%2541``), as URLs and error pages do."""
    for secret in secrets:
        if secret:
            text = _secret_pattern(secret).sub(MASK, text)
    return text


def _secret_pattern(secret: str) -> re.Pattern[str]:
    # Each character as itself or as its UTF-8 bytes in %XX / %25XX, any case.
    parts = (
        f"(?:{re.escape(char)}|{''.join(f'%(?:25)?{b:02x}' for b in char.encode())})"
        for char in secret
    )
    return re.compile("".join(parts), re.IGNORECASE)


class JsonClient:
    """A JSON-over-HTTP client for one provider; thread-safe, reuses connections."""

    def __init__(
        self,
        service: Service,
        *,
        api_key: str = "",
        timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
    ) -> None:
        check_api_key(api_key)
        self.service = service
        self._api_key = api_key
        # What a server's message or an error text may repeat and must not be shown.
        self._secrets = (api_key, url_password(service.base_url))
        self._retry = retry or RetryPolicy()
        self.server_software = ""  # the last answer's Server header (which server this is)
        self._timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        # A proxy from the environment is for the internet; sending a local Ollama's traffic
        # through it is a classic "Ollama is not running" that is not true.
        self._http = httpx.Client(
            timeout=self._timeout, headers=headers, trust_env=not _is_loopback(service.base_url)
        )

    def __repr__(self) -> str:
        return f"JsonClient({self.service.where!r})"

    def close(self) -> None:
        self._http.close()

    def post(self, path: str, payload: dict[str, Any]) -> Any:
        """POST ``payload`` to ``base_url + path``; the parsed JSON answer, or a ProviderError."""
        response = self._send("POST", path, payload)
        self._raise_for_status(response, path, payload)
        return self._json(response)

    def open_stream(self, path: str, payload: dict[str, Any]) -> httpx.Response:
        """POST with retries; the 2xx response with its body unread (the caller closes it)."""
        response = self._send("POST", path, payload, stream=True)
        if response.status_code >= 400:
            try:
                response.read()  # the error text, for the message
            except httpx.HTTPError:
                pass
            finally:
                response.close()
        self._raise_for_status(response, path, payload)
        return response

    def get(self, path: str) -> Any:
        response = self._send("GET", path, None)
        self._raise_for_status(response, path, {})
        return self._json(response)

    def _send(
        self, method: str, path: str, payload: dict[str, Any] | None, *, stream: bool = False
    ) -> httpx.Response:
        url = self.service.base_url + path
        retry = self._retry
        retried = {"status": 0, "500": 0, "timeout": 0}
        while True:
            attempt = sum(retried.values())
            try:
                response = self._request(method, url, payload, stream)
            except ProviderTimeout:
                if retried["timeout"] >= retry.max_timeout_retries or attempt >= retry.max_retries:
                    raise
                retried["timeout"] += 1
                self._wait(retry.delay(attempt), "timed out")
                continue
            self.server_software = response.headers.get("server", "")  # for hints
            kind = self._retry_kind(response)
            limit = retry.max_500_retries if kind == "500" else retry.max_retries
            if kind is None or retried[kind] >= limit or attempt >= retry.max_retries:
                return response
            retried[kind] += 1
            wait = retry.delay(attempt, response.headers.get("Retry-After"))
            response.close()
            self._wait(wait, f"answered {response.status_code}")

    def _retry_kind(self, response: httpx.Response) -> str | None:
        """Which retry budget a response draws on, or None when retrying cannot help."""
        status = response.status_code
        if status in RETRY_STATUSES:
            return "status"
        if status != 500:
            return None
        try:
            text = response.read().decode("utf-8", errors="replace")
        except httpx.HTTPError:
            text = ""
        return None if _PERMANENT.search(text) else "500"

    def _wait(self, seconds: float, what: str) -> None:
        log.info("%s %s; retrying in %.1f s", self.service.where, what, seconds)
        self._retry.sleep(seconds)

    def _request(
        self, method: str, url: str, payload: dict[str, Any] | None, stream: bool = False
    ) -> httpx.Response:
        try:
            if stream:
                request = self._http.build_request(method, url, json=payload)
                return self._http.send(request, stream=True)
            return self._http.request(method, url, json=payload)
        except httpx.ConnectTimeout:
            raise ProviderUnavailable(
                f"cannot connect to {self.service.where} "
                f"(no answer within {_seconds(self._timeout.connect)})"
            ) from None
        except httpx.TimeoutException:
            hint = self.service.raise_timeout_hint(self._timeout.read)
            raise ProviderTimeout(
                f"{self.service.where} did not answer within {_seconds(self._timeout.read)}; "
                f"it may be busy (loading a model?) — try again, or {hint}"
            ) from None
        except httpx.ConnectError as exc:
            raise self._unreachable(str(exc)) from None
        except (httpx.UnsupportedProtocol, httpx.InvalidURL):
            raise ProviderError(
                f"the address {masked_url(url)!r} is not a valid http:// or https:// URL"
            ) from None
        except httpx.TransportError as exc:
            reason = redact(str(exc), self._secrets) or type(exc).__name__
            raise ProviderUnavailable(
                f"the connection to {self.service.where} failed ({reason})"
            ) from None

    def _unreachable(self, detail: str) -> ProviderUnavailable:
        refused = "refused" in detail.lower()
        if refused and self.service.not_running_hint:
            return ProviderUnavailable(
                f"{self.service.name} is not running at {self.service.shown_url} — "
                f"{self.service.not_running_hint}"
            )
        if refused:
            reason = "connection refused"
        elif "name or service not known" in detail.lower() or "getaddrinfo" in detail.lower():
            reason = "host not found"
        else:
            reason = detail or "network error"
        hint = self.service.base_url_hint
        return ProviderUnavailable(
            f"cannot connect to {self.service.where} ({reason}) — is it running? "
            f"{hint[:1].upper()}{hint[1:]}"
        )

    def _raise_for_status(
        self, response: httpx.Response, path: str, payload: dict[str, Any]
    ) -> None:
        status = response.status_code
        if status < 400:
            return
        where = self.service.where
        detail = self._server_message(response)
        suffix = f": {detail}" if detail else ""
        if status in (401, 403):
            if self._api_key:
                raise ProviderAuthError(f"{where} rejected the API key ({status})")
            where_to_set = self.service.key_setting or "the API key"
            raise ProviderAuthError(f"{where} requires an API key ({status}) — set {where_to_set}")
        model = str(payload.get("model") or "")
        if status in (400, 404, 422) and model and _MISSING_MODEL.search(detail):
            hint = self.service.pull_hint.format(model=model)
            raise ProviderModelNotFound(f"model '{model}' not found on {where}{hint}")
        if status in (400, 413, 422, 500) and _CONTEXT_EXCEEDED.search(detail):
            raise ContextExceeded(
                f"{where} says the prompt does not fit the model's context{suffix}"
            )
        if status == 404:
            raise EndpointNotFound(
                f"{where} has no {path or 'such'} endpoint (404) — {self.service.base_url_hint}"
            )
        if status == 429:
            raise ProviderUnavailable(f"{where} is rate-limiting requests (429) — try again later")
        if status >= 500:
            raise ProviderUnavailable(f"{where} failed with HTTP {status}{suffix}")
        raise ProviderResponseError(f"{where} refused the request (HTTP {status}){suffix}")

    def _server_message(self, response: httpx.Response) -> str:
        """The server's own error text, one line, key scrubbed, at most 200 characters."""
        try:
            text = response.text
        except (httpx.HTTPError, httpx.StreamError, UnicodeDecodeError):
            return ""  # a stream closed unread: the status alone still explains
        try:
            body = json.loads(text)
        except ValueError:
            body = text
        if isinstance(body, dict):
            error = body.get("error", body.get("message", body.get("detail", body)))
            if isinstance(error, dict):
                error = error.get("message", error)
            body = error
        message = " ".join(str(body).split())
        message = redact(message, self._secrets)
        return message[:200] + ("…" if len(message) > 200 else "")

    def _json(self, response: httpx.Response) -> Any:
        try:
            return json.loads(response.content)
        except (ValueError, UnicodeDecodeError):
            raise ProviderResponseError(f"{self.service.where} returned malformed JSON") from None


def _is_loopback(url: str) -> bool:
    try:
        host = httpx.URL(url).host
    except httpx.InvalidURL:
        return False
    return host == "localhost" or host == "::1" or host.startswith("127.")


def _seconds(value: float | None) -> str:
    return f"{value:g} s" if value is not None else "the time limit"


def json_field(body: Any, name: str, kind: type, where: str) -> Any:
    """``body[name]``, checked to be of ``kind``; a ProviderResponseError otherwise."""
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, kind):
        raise ProviderResponseError(f"{where} returned an answer without a valid '{name}' field")
    return value
