"""A local channel to a process that has the vault open: only this account reaches it.

When the app, ``pixelmem serve`` or ``pixelmem mcp`` has a vault open, its index is loaded
and its model warm; ``pixelmem search`` asks it over this channel instead of loading them
itself (~0.1 s instead of ~0.5 s), and falls back to searching in-process, silently, when
nothing answers.

The rules, as for the HTTP service (:mod:`access_token`):

* The socket is a Unix socket in a private folder of this account: ``$XDG_RUNTIME_DIR/pixelmem``
  or ``<tmp>/pixelmem-<uid>``, used only when it is a real folder (not a link) owned by this
  account with no access for others (mode 0700); the socket itself is 0600. It is named after
  the vault's resolved path, so each vault has its own.
* Every request carries the service token (the ``service-token`` file, checked as the service
  checks it; none, or one other accounts could read, and the client does not ask). The server
  compares it in constant time, and where the system tells (Linux), also refuses a peer that
  runs as another account.
* One JSON request per connection, one JSON answer; requests are small (64 KB at most) and a
  client that stops talking is dropped after a few seconds. Where AF_UNIX is missing (older
  Windows Pythons), there is no channel and the CLI searches in-process.

The first process to open a vault serves it; another one finding a live socket leaves it
alone, and a socket left by a process that died is replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import socket
import stat
import struct
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pixelmem.core.errors import PixelmemError
from pixelmem.core.files.permissions import make_private_dirs
from pixelmem.core.runtime.access_token import existing_token, load_or_create_token

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024
MAX_ANSWER = 64 * 1024 * 1024
IO_TIMEOUT = 5.0  # seconds a peer may take to send its request or read the answer
MAX_CLIENTS = 8

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def available() -> bool:
    return hasattr(socket, "AF_UNIX") and hasattr(os, "getuid")


def channel_path(vault: Path) -> Path | None:
    """Where the channel of ``vault`` is (None: no private folder for it on this system)."""
    folder = _private_folder()
    if folder is None:
        return None
    key = hashlib.blake2b(str(Path(vault).resolve()).encode(), digest_size=8).hexdigest()
    return folder / f"vault-{key}.sock"


def _private_folder() -> Path | None:
    if not available():
        return None
    base = os.environ.get("XDG_RUNTIME_DIR")
    candidates = [Path(base) / "pixelmem"] if base else []
    candidates.append(Path(tempfile.gettempdir()) / f"pixelmem-{os.getuid()}")
    for folder in candidates:
        with contextlib.suppress(OSError):
            make_private_dirs(folder)
            info = os.lstat(folder)
            mine = stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
            if mine and not info.st_mode & 0o077:
                return folder
    return None


# ---------------------------------------------------------------- the client


def ask(vault: Path, request: dict[str, Any], timeout: float = 30.0) -> dict[str, Any] | None:
    """The answer of the process serving ``vault`` to ``request``; None when there is none,
    it refuses, or anything goes wrong (the caller then does the work itself)."""
    path = channel_path(vault)
    if path is None or not path.exists():
        return None
    try:
        token = existing_token()
    except PixelmemError:
        return None
    if not token:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(str(path))
            _send(conn, {"token": token, **request})
            answer = _receive(conn, MAX_ANSWER)
    except (OSError, ValueError) as exc:
        log.debug("no answer on the local channel %s: %s", path, exc)
        return None
    return answer if isinstance(answer, dict) and answer.get("ok") else None


# ---------------------------------------------------------------- the server


class ChannelServer:
    """Answers requests for one vault with ``handler`` on a thread per connection."""

    def __init__(self, vault: Path, handler: Handler) -> None:
        self.vault = vault
        self._handler = handler
        self._socket: socket.socket | None = None
        self._path: Path | None = None
        self._inode = 0
        self._token = ""
        self._slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self._thread: threading.Thread | None = None

    @property
    def path(self) -> Path | None:
        """The socket, while this server listens on it."""
        return self._path

    def start(self) -> bool:
        """Listen (False, logged at debug level: no channel on this system, or another live
        process serves the vault)."""
        path = channel_path(self.vault)
        if path is None:
            return False
        try:
            self._token = load_or_create_token()
            listener = self._bind(path)
        except (OSError, PixelmemError) as exc:
            log.debug("no local channel for %s: %s", self.vault, exc)
            return False
        if listener is None:
            return False
        self._socket, self._path = listener, path
        self._thread = threading.Thread(target=self._serve, name="pixelmem-channel", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        listener, path, self._socket, self._path = self._socket, self._path, None, None
        if listener is None:
            return
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        with contextlib.suppress(OSError):  # ours still (not another server's since)
            if path is not None and os.lstat(path).st_ino == self._inode:
                os.unlink(path)
        if self._thread is not None:
            self._thread.join(2)

    def _bind(self, path: Path) -> socket.socket | None:
        if path.exists() or path.is_symlink():
            if _answers(path):
                log.debug("another process serves %s on %s", self.vault, path)
                return None
            os.unlink(path)  # left by a process that ended
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            # The folder is 0700 already: nobody else reaches the socket between these two.
            # (Not a umask: it is the process's, and the app's workers write notes meanwhile.)
            listener.bind(str(path))
            os.chmod(path, 0o600)
            listener.listen(MAX_CLIENTS)
            self._inode = os.lstat(path).st_ino
        except OSError:
            listener.close()
            raise
        return listener

    def _serve(self) -> None:
        listener = self._socket
        while listener is not None and self._socket is listener:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # stopped
            if not self._slots.acquire(blocking=False):
                conn.close()  # too many at once: that client searches in-process
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            with conn:
                conn.settimeout(IO_TIMEOUT)
                if not _same_account(conn):
                    return
                request = _receive(conn, MAX_REQUEST)
                if not isinstance(request, dict) or not self._token_ok(request.pop("token", "")):
                    _send(conn, {"ok": False, "error": "refused"})
                    return
                conn.settimeout(None)  # the work may take a while (a model's first load)
                try:
                    answer = {"ok": True, **self._handler(request)}
                except PixelmemError as exc:
                    answer = {"ok": False, "error": str(exc)}
                except Exception:
                    log.exception("the local channel could not answer a request")
                    answer = {"ok": False, "error": "internal error"}
                conn.settimeout(IO_TIMEOUT)
                _send(conn, answer)
        except (OSError, ValueError) as exc:
            log.debug("a local channel client went away: %s", exc)
        finally:
            self._slots.release()

    def _token_ok(self, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token.encode(), self._token.encode())


def _answers(path: Path) -> bool:
    """Whether a process listens on the socket at ``path``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _same_account(conn: socket.socket) -> bool:
    """The peer runs as this account (Linux tells; elsewhere the folder's mode decides)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, 12))
    except OSError:
        return False
    return uid == os.geteuid()


# ---------------------------------------------------------------- framing


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message, ensure_ascii=False).encode("utf-8")
    conn.sendall(struct.pack(">I", len(data)) + data)


def _receive(conn: socket.socket, limit: int) -> Any:
    (size,) = struct.unpack(">I", _exactly(conn, 4))
    if size > limit:
        raise ValueError(f"a message of {size} bytes")
    return json.loads(_exactly(conn, size).decode("utf-8"))


def _exactly(conn: socket.socket, size: int) -> bytes:
    parts, left = [], size
    while left:
        part = conn.recv(min(left, 1 << 20))
        if not part:
            raise ValueError("the peer closed the connection")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
