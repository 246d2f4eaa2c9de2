"""A real ``pixelmem serve`` in a subprocess on a free loopback port, and clients for it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx

from pixelmem.core.settings import Settings

T = TypeVar("T")
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_settings(config_dir: Path, **changes: str) -> Settings:
    """Change the settings file the server reads (as the app would); ``a__b`` is ``a.b``."""
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / "settings.json"
    settings = Settings.load(path)
    for key, value in changes.items():
        settings.set_key(key.replace("__", "."), value)
    settings.save(path)
    return settings


class Server:
    """``python -m pixelmem serve`` for one vault and config dir; stop() on the way out."""

    def __init__(
        self, vault: Path, config_dir: Path, log: Path, *extra: str, **env_vars: str
    ) -> None:
        self.vault, self.config_dir, self.log_path = vault, config_dir, log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PIXELMEM_CONFIG_DIR=str(config_dir), PYTHONUNBUFFERED="1")
        env.update(env_vars)
        env.pop("PIXELMEM_VAULT", None)
        argv = [sys.executable, "-m", "pixelmem", "serve", "--vault", str(vault)]
        argv += ["--port", str(self.port), *extra]
        self._log = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(argv, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._wait_ready()
            self.token = (config_dir / "service-token").read_text().strip()
        except BaseException:
            self.stop()
            raise
        self.http = self.client()

    def client(self, token: str | None = None, **kwargs: Any) -> httpx.Client:
        token = self.token if token is None else token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kwargs.pop("headers", {}))
        return httpx.Client(base_url=self.base, headers=headers, timeout=30, **kwargs)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/v1/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log()}")

    def wait_idle(self, timeout: float = 60.0) -> dict[str, Any]:
        """The status once no index run is pending (the first index is done)."""
        return wait_for(lambda: _idle_status(self.http), timeout)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def terminate(self, timeout: float = 30.0) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.terminate()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if hasattr(self, "http"):
            self.http.close()
        self._log.close()


def _idle_status(http: httpx.Client) -> dict[str, Any] | None:
    status = http.get("/v1/status").json()
    return None if status["indexing"] else status


def wait_for(probe: Callable[[], T | None], timeout: float, step: float = 0.05) -> T:
    """Call ``probe`` until it returns something other than None (or fail after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout} s")
        time.sleep(step)


@contextlib.contextmanager
def running(
    vault: Path, config_dir: Path, log: Path, *extra: str, **env_vars: str
) -> Iterator[Server]:
    server = Server(vault, config_dir, log, *extra, **env_vars)
    try:
        yield server
    finally:
        server.stop()


def search_ids(http: httpx.Client, query: str, **params: Any) -> list[str]:
    answer = http.get("/v1/search", params={"q": query, **params})
    assert answer.status_code == 200, answer.text
    return [r["id"] for r in answer.json()["results"]]


def until(get: Callable[[], T], ok: Callable[[T], bool], timeout: float) -> T:
    """``get()`` again and again until ``ok`` of its value (the value), or fail."""

    def probe() -> T | None:
        value = get()
        return value if ok(value) else None

    return wait_for(probe, timeout)
