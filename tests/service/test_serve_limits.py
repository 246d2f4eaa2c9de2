"""A misbehaving client cannot take the service down (service/limits.py).

In-process, with small limits: a request that does not arrive whole in time is closed, a
connection over the cap gets a 503 at once, raw UTF-8 in the request line is read. Against a
real ``pixelmem serve``: 1,100 idle connections, and other clients are still answered at once
with a log that does not grow.
"""

from __future__ import annotations

import contextlib
import logging
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from serve_helpers import free_port, running, write_settings

from pixelmem.core.vault.store import MemoryStore
from pixelmem.service.limits import (
    BoundedH11Protocol,
    RepeatLimiter,
    connection_cap,
    escaped_request_line,
    raise_file_limit,
)


async def _echo_path(scope, receive, send) -> None:
    if scope["type"] != "http":
        return
    body = f"{scope['path']}?{scope['query_string'].decode()}".encode()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


class _Bounded(BoundedH11Protocol):
    max_connections = 3
    request_read_seconds = 0.5


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    port = free_port()
    config = uvicorn.Config(_echo_path, port=port, http=_Bounded, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield port
    server.should_exit = True
    thread.join(10)


def _ask(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(raw)
        return _read_all(conn)


def _read_all(conn: socket.socket) -> bytes:
    chunks = []
    while chunk := conn.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_raw_utf8_in_the_request_line_is_read(port: int) -> None:
    request = "GET /v1/search?q=咖啡 研磨 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    answer = _ask(port, request.encode())
    assert answer.startswith(b"HTTP/1.1 200"), answer
    assert b"/v1/search?q=%E5%92%96%E5%95%A1%20%E7%A0%94%E7%A3%A8\r\n" in answer, answer


def test_a_request_line_split_across_packets_is_escaped_whole() -> None:
    first, more = escaped_request_line("GET /?q=咖".encode())
    rest, more_after = escaped_request_line("啡 HTTP/1.1\r\nX-Name: 名\r\n".encode())
    assert more and not more_after
    assert first == b"GET /?q=%E5%92%96"
    assert rest.startswith(b"%E5%95%A1 HTTP/1.1\r\n") and "X-Name: 名".encode() in rest


def test_a_request_that_does_not_arrive_in_time_is_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        started = time.monotonic()
        assert _read_all(slow) == b""  # closed by the server
        assert time.monotonic() - started < 3
    with socket.create_connection(("127.0.0.1", port), timeout=5) as idle:
        assert _read_all(idle) == b""  # sends nothing at all: closed too


def test_a_connection_over_the_cap_is_refused_at_once(port: int) -> None:
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
    try:
        time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as extra:
            answer = _read_all(extra)
        assert answer.startswith(b"HTTP/1.1 503") and b"too_many_connections" in answer
    finally:
        for conn in held:
            conn.close()
    time.sleep(0.2)
    assert _ask(port, b"GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )


def test_the_file_limit_is_raised_and_the_cap_stays_below_it() -> None:
    limit = raise_file_limit()
    assert limit >= resource.getrlimit(resource.RLIMIT_NOFILE)[0] or limit == 65536
    assert 16 <= connection_cap(limit) < limit
    assert connection_cap(1024) == 512


def test_repeated_log_lines_are_counted_not_written(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("test.flood")
    limiter = RepeatLimiter(seconds=60)
    logger.addFilter(limiter)
    try:
        with caplog.at_level(logging.ERROR, logger="test.flood"):
            for n in range(1000):
                logger.error("accept failed: %s", n)
            logger.error("something else")
    finally:
        logger.removeFilter(limiter)
    assert [r.getMessage() for r in caplog.records] == ["accept failed: 0", "something else"]


@pytest.mark.slow
def test_idle_connections_do_not_starve_other_clients(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2400:
        pytest.skip(f"the hard file limit ({hard}) cannot hold 1,100 connections each side")
    vault, config = tmp_path / "vault", tmp_path / "config"
    MemoryStore(vault).create("Heat pump", "Bleed the radiators before winter.")
    write_settings(config, embedding__provider="local")
    log_path = tmp_path / "server.log"
    # The service starts with the usual limit (1,024 here), the test's client gets more.
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 1024), hard))
    with running(vault, config, log_path) as served, contextlib.ExitStack() as stack:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2400), hard))
        served.wait_idle()
        before = log_path.stat().st_size
        idle = [
            stack.enter_context(socket.create_connection(("127.0.0.1", served.port), timeout=5))
            for _ in range(1100)
        ]
        for conn in idle[::2]:
            conn.sendall(b"GET /v1/status HTTP/1.1\r\n")  # half of them start a request
        worst = 0.0
        for _ in range(20):
            started = time.monotonic()
            answer = served.http.get("/v1/status")
            worst = max(worst, time.monotonic() - started)
            assert answer.status_code == 200, answer.text
        assert worst < 1.0, worst
        assert log_path.stat().st_size - before < 1_000_000
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
