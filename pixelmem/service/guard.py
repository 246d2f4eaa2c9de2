"""The checks every request passes before a route sees it, as one ASGI middleware.

In order: the Host header must name this machine (DNS rebinding: a web page on
``evil.example`` that resolves to 127.0.0.1 sends ``Host: evil.example``); an ``Origin``, when a
browser sends one, must be a loopback origin or one the user allowed for CORS; the bearer
token must match (every path but ``/v1/health`` and CORS preflights); the body must fit the
limit (checked on ``Content-Length`` and again while it streams in).
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
OPEN_PATHS = frozenset({"/v1/health"})
DEFAULT_MAX_BODY = 1024 * 1024


@dataclass(frozen=True)
class GuardSettings:
    token: str
    allowed_hosts: frozenset[str] = LOOPBACK_HOSTS  # host names, without port
    cors_origins: frozenset[str] = frozenset()  # exact origins, e.g. https://app.example
    max_body: int = DEFAULT_MAX_BODY
    open_paths: frozenset[str] = field(default=OPEN_PATHS)

    @classmethod
    def for_bind(
        cls,
        token: str,
        bind_host: str,
        *,
        extra_hosts: Iterable[str] = (),
        cors_origins: Iterable[str] = (),
        max_body: int = DEFAULT_MAX_BODY,
    ) -> GuardSettings:
        hosts = set(LOOPBACK_HOSTS) | {h.strip("[]").lower() for h in extra_hosts}
        if bind_host not in ("0.0.0.0", "::", ""):
            hosts.add(bind_host.strip("[]").lower())
        return cls(
            token, frozenset(hosts), frozenset(o.rstrip("/") for o in cors_origins), max_body
        )


class Guard:
    """ASGI middleware enforcing :class:`GuardSettings` on HTTP requests."""

    def __init__(self, app: ASGIApp, settings: GuardSettings) -> None:
        self.app = app
        self.settings = settings
        self._expected = f"Bearer {settings.token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # nothing here speaks WebSocket: no unguarded door
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _send_error(send, *refusal)
            return
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.settings.max_body:
            await _send_error(send, *self._too_large())
            return
        body = await _read_body(receive, self.settings.max_body)
        if body is None:
            await _send_error(send, *self._too_large())
            return
        await _completed(self.app, scope, _replaying(body, receive), send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        host = _hostname(headers.get("host", ""))
        if host not in self.settings.allowed_hosts:
            return (421, "bad_host", f"requests must be addressed to this machine, not {host!r}")
        origin = headers.get("origin")
        if origin is not None and not self._origin_allowed(origin):
            return (403, "bad_origin", f"requests from {origin!r} are not allowed")
        preflight = scope["method"] == "OPTIONS" and origin in self.settings.cors_origins
        if scope["path"] in self.settings.open_paths or preflight:
            return None
        given = headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, self._expected):
            what = "a wrong" if given else "no"
            return (401, "unauthorized", f"{what} bearer token; see `pixelmem serve --print-token`")
        return None

    def _origin_allowed(self, origin: str) -> bool:
        if origin.rstrip("/") in self.settings.cors_origins:
            return True
        # An origin is scheme://host[:port], nothing more: a user part, a path or a backslash
        # (which browsers read as "/", so "https://evil.com\\@127.0.0.1" is evil.com) is not.
        if "@" in origin or "\\" in origin:
            return False
        try:
            parts = urlsplit(origin)
            hostname = parts.hostname or ""
            parts.port  # noqa: B018 - a malformed port raises here
        except ValueError:
            return False
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            return False
        return parts.scheme in ("http", "https") and hostname in LOOPBACK_HOSTS

    def _too_large(self) -> tuple[int, str, str]:
        limit = self.settings.max_body
        return (413, "too_large", f"the request body is larger than {limit:,} bytes")


async def _completed(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """Run ``app``; if it returns halfway through a response, end the response cleanly.

    An MCP event stream cancelled by shutdown returns mid-stream, which uvicorn logs as an
    error on every stop; the client only needs the stream to end."""
    state = {"started": False, "done": False}

    async def tracking(message: Message) -> None:
        if message["type"] == "http.response.start":
            state["started"] = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            state["done"] = True
        await send(message)

    await app(scope, receive, tracking)
    if state["started"] and not state["done"]:
        with contextlib.suppress(Exception):  # the client may be gone already
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body (a chunked one has no Content-Length); None past ``limit``."""
    parts: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: nothing to answer
            return b""
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > limit:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the buffered body over once, then listens for the disconnect."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay


def _headers(scope: Scope) -> dict[str, str]:
    """The headers (names lower case); a repeated header keeps its first value."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _hostname(host: str) -> str:
    """``localhost:8733`` → ``localhost``; ``[::1]:8733`` → ``::1``; anything odd as it is."""
    host = host.strip().lower()
    if host.startswith("["):
        inside, _, rest = host[1:].partition("]")
        return inside if rest == "" or (rest[:1] == ":" and rest[1:].isdigit()) else host
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    return name if port.isdigit() else host


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="pixelmem"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
