"""What keeps ``pixelmem serve`` answering when a client misbehaves.

Every local account can open connections to the service, token or not. uvicorn's h11 protocol
starts no timer until a first request has been answered, so a connection that sends nothing
(or a header a byte at a time) stays open for ever; ~1,000 of them used up the default
1,024-file limit, every other client timed out, and each failed ``accept()`` logged a
traceback (48 MB in 10 s). So here:

- the file limit is raised to what the system allows (the hard limit, at most
  :data:`FILE_LIMIT_GOAL`), and the service takes at most :data:`CONNECTION_SHARE` of it in
  connections, keeping the rest for the vault, the caches and the model;
- a connection over that cap is answered ``503`` at once and closed (a clean refusal, not a
  hang), and a request must arrive whole — request line, headers and body — within
  :data:`REQUEST_READ_SECONDS` of its first byte (or of the connection), else it is closed;
- a request line with raw UTF-8 or spaces in its target (``/v1/search?q=咖啡 研磨``, as the
  README's examples invite typing) is percent-encoded before h11 reads it, instead of a
  plain-text 400;
- the same log message repeated is written once per :data:`LOG_REPEAT_SECONDS` with a count.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

FILE_LIMIT_GOAL = 65536
CONNECTION_SHARE = 0.5  # of the file limit, at most MAX_CONNECTIONS
MAX_CONNECTIONS = 8192
REQUEST_READ_SECONDS = 15.0
LOG_REPEAT_SECONDS = 10.0
_REFUSAL_BODY = (
    b'{"error": {"code": "too_many_connections", "message": "too many open connections; retry"}}'
)
_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"Connection: close\r\nRetry-After: 1\r\nContent-Length: %d\r\n\r\n%s"
) % (len(_REFUSAL_BODY), _REFUSAL_BODY)


def raise_file_limit() -> int:
    """Raise the soft open-file limit towards the hard one; the limit now in force."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return FILE_LIMIT_GOAL
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    goal = FILE_LIMIT_GOAL if hard == resource.RLIM_INFINITY else min(hard, FILE_LIMIT_GOAL)
    if soft != resource.RLIM_INFINITY and soft < goal:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (goal, hard))
            soft = goal
        except (ValueError, OSError):
            log.warning("cannot raise the open-file limit from %d", soft)
    return FILE_LIMIT_GOAL if soft == resource.RLIM_INFINITY else soft


def connection_cap(file_limit: int) -> int:
    return max(16, min(MAX_CONNECTIONS, int(file_limit * CONNECTION_SHARE)))


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a connection cap and a whole-request read timeout."""

    max_connections = MAX_CONNECTIONS  # set by the server from the file limit
    request_read_seconds = REQUEST_READ_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_timer: asyncio.TimerHandle | None = None
        self._reading_line = True  # the next bytes start a request line

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("refused a connection: %d open (the cap)", self.max_connections)
            transport.write(_REFUSAL)
            transport.close()
            return
        self._arm_read_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_read_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._reading_line:
            data, self._reading_line = escaped_request_line(data)
        if self.conn.their_state is h11.IDLE:
            self._arm_read_timer()  # a new request starts: it must arrive whole in time
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._cancel_read_timer()  # read whole (or the connection is done with)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._reading_line = True

    def _arm_read_timer(self) -> None:
        if self._read_timer is None:
            self._read_timer = self.loop.call_later(self.request_read_seconds, self._read_too_slow)

    def _cancel_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _read_too_slow(self) -> None:
        self._read_timer = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            log.info("closed a connection that did not send its request in time")
            self.transport.close()


def escaped_request_line(data: bytes) -> tuple[bytes, bool]:
    """``data`` (the start or the rest of a request line) with raw non-ASCII bytes of the
    line percent-encoded — h11 refuses them; a browser or curl would have encoded them —
    and whether the line goes on in the next bytes."""
    end = data.find(b"\n")
    line = data if end < 0 else data[:end]
    if not line.isascii():
        line = b"".join(b"%%%02X" % byte if byte > 0x7F else bytes((byte,)) for byte in line)
    if end < 0:
        return line, True
    return _spaces_escaped(line) + data[end:], False


def _spaces_escaped(line: bytes) -> bytes:
    """``GET /v1/search?q=two words HTTP/1.1`` (typed into curl as it is) with the spaces of
    its target as ``%20``: a request line is method, target and version."""
    body = line.rstrip(b"\r")
    parts = body.split(b" ")
    if len(parts) <= 3 or not parts[-1].startswith(b"HTTP/"):
        return line
    fixed = b" ".join((parts[0], b"%20".join(parts[1:-1]), parts[-1]))
    return fixed + line[len(body) :]


class RepeatLimiter(logging.Filter):
    """Lets one log message through per :data:`LOG_REPEAT_SECONDS` per (logger, template);
    the next one that passes says how many were held back."""

    def __init__(self, seconds: float = LOG_REPEAT_SECONDS) -> None:
        super().__init__()
        self._seconds = seconds
        self._seen: dict[tuple[str, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = time.monotonic()
        last, held = self._seen.get(key, (float("-inf"), 0))
        if now - last < self._seconds:
            self._seen[key] = (last, held + 1)
            return False
        self._seen[key] = (now, 0)
        if len(self._seen) > 10_000:  # messages with ever-new text: forget the oldest
            self._seen.clear()
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {self._seconds:g} s)"
        return True
