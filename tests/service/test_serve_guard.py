"""The request guard and CORS, in process (Starlette's TestClient; no server, no lifespan)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pixelmem.commands import serve
from pixelmem.core.errors import PixelmemError
from pixelmem.core.runtime.access_token import load_or_create_token
from pixelmem.core.runtime.freshness import SERVICE
from pixelmem.core.runtime.tools import PixelmemService
from pixelmem.core.runtime.vault_runtime import VaultRuntime
from pixelmem.service.app import AppOptions, create_app
from pixelmem.service.guard import GuardSettings

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)

TOKEN = "t" * 43
APP_ORIGIN = "https://notes.example"


def _client(vault: Path, cors: tuple[str, ...] = ()) -> TestClient:
    guard = GuardSettings.for_bind(TOKEN, "127.0.0.1", cors_origins=cors)
    app = create_app(
        PixelmemService(vault, SERVICE, runtime=VaultRuntime.open(vault, SERVICE)),
        AppOptions(guard, cors, watch=False),
    )
    return TestClient(app, base_url="http://127.0.0.1:8733")


def test_cors_only_for_configured_origins(vault: Path) -> None:
    preflight = {
        "Origin": APP_ORIGIN,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
    }
    plain = _client(vault)
    assert plain.options("/v1/search", headers=preflight).status_code == 403
    configured = _client(vault, (APP_ORIGIN,))
    answer = configured.options("/v1/search", headers=preflight)
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == APP_ORIGIN
    auth = {"Authorization": f"Bearer {TOKEN}", "Origin": APP_ORIGIN}
    health = configured.get("/v1/health", headers=auth)
    assert health.headers["access-control-allow-origin"] == APP_ORIGIN
    assert configured.get("/v1/openapi.json", headers={"Origin": APP_ORIGIN}).status_code == 401
    other = configured.get("/v1/health", headers={"Origin": "https://other.example"})
    assert other.status_code == 403


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("[::1]:8733", 200),
        ("[::1]", 200),
        ("LOCALHOST:8733", 200),
        ("127.0.0.1", 200),
        ("[::1].evil.example", 421),
        ("localhost.evil.example:8733", 421),
        ("127.0.0.2:8733", 421),
    ],
)
def test_host_names(vault: Path, host: str, status: int) -> None:
    assert _client(vault).get("/v1/health", headers={"Host": host}).status_code == status


def test_the_token_is_made_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "service-token"
    first = load_or_create_token(path)
    assert load_or_create_token(path) == first and len(first) >= 40
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text("")
    with pytest.raises(PixelmemError, match="empty"):
        load_or_create_token(path)


def test_a_token_file_being_written_by_another_service_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "service-token"
    path.touch(mode=0o600)  # the other service has created the file, not yet written it
    theirs = "their-token-" + "x" * 32
    writer = threading.Timer(0.2, lambda: path.write_text(theirs + "\n", encoding="ascii"))
    writer.start()
    try:
        assert load_or_create_token(path) == theirs
    finally:
        writer.join()


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda p: p.symlink_to("/etc/hostname"), "symbolic link"),
        (lambda p: os.mkfifo(p, 0o600), "not a regular file"),  # would hang a plain read
        (lambda p: p.mkdir(), "not a regular file"),
        (lambda p: p.write_text("a\n"), "weak or malformed"),
        (lambda p: p.write_text("x" * 40 + " y\n"), "weak or malformed"),
        (lambda p: (p.write_text("t" * 43), os.chown(p, 65534, 65534)), "another account"),
    ],
    ids=["symlink", "fifo", "folder", "one-char", "spaces", "other-owner"],
)
def test_a_token_file_that_cannot_be_trusted_is_refused(tmp_path: Path, make, why: str) -> None:
    path = tmp_path / "service-token"
    if why == "another account" and os.geteuid() != 0:
        pytest.skip("only root can give a file to another account")
    make(path)
    with pytest.raises(PixelmemError, match=f"{why}.*delete it"):
        load_or_create_token(path)


def test_a_token_others_could_read_is_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "service-token"
    old = load_or_create_token(path)
    path.chmod(0o644)
    new = load_or_create_token(path)
    assert new != old and path.stat().st_mode & 0o777 == 0o600
    assert "could be read by other accounts" in caplog.text and old not in caplog.text
    assert load_or_create_token(path) == new


def test_print_token_on_a_fifo_answers_at_once(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    os.mkfifo(config / "service-token", 0o600)
    done = subprocess.run(
        [sys.executable, "-m", "pixelmem", "serve", "--print-token"],
        env={**os.environ, "PIXELMEM_CONFIG_DIR": str(config)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "not a regular file" in done.stderr
    assert done.stderr.count("\n") == 1


def test_remote_binding_warns(capsys: pytest.CaptureFixture[str]) -> None:
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.5"):
        serve._check_bind(argparse.Namespace(host=host, allow_remote=False))
    assert capsys.readouterr().err == ""
    with pytest.raises(PixelmemError, match="--allow-remote"):
        serve._check_bind(argparse.Namespace(host="0.0.0.0", allow_remote=False))
    serve._check_bind(argparse.Namespace(host="0.0.0.0", allow_remote=True, allow_host=[]))
    err = capsys.readouterr().err
    assert "warning" in err and "--allow-host" in err


def test_websockets_are_closed(vault: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    headers = {"Authorization": f"Bearer {TOKEN}"}
    with pytest.raises(WebSocketDisconnect), _client(vault).websocket_connect("/mcp", headers):
        pass


def test_a_port_in_use_is_a_clear_error() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(PixelmemError, match="another --port"):
            serve._check_port_free("127.0.0.1", port)
    serve._check_port_free("127.0.0.1", port)  # free again


def test_an_address_that_cannot_be_bound_is_not_blamed_on_another_serve() -> None:
    with pytest.raises(PixelmemError) as raised:
        serve._check_port_free("no-such-host.invalid", 8733)
    message = str(raised.value)
    assert "another" not in message and "no-such-host.invalid" in message
    assert "\n" not in message


@pytest.mark.parametrize("command", ["serve", "mcp", "backup"])
def test_a_vault_that_is_a_file_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from pixelmem.cli import main

    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    extra = [str(tmp_path / "b.tar.gz")] if command == "backup" else []
    assert main([command, *extra, "--vault", str(a_file)]) == 1
    err = capsys.readouterr().err
    assert err == f"pixelmem: error: the vault {a_file} is not a folder\n"
