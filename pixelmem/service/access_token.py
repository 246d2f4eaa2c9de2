"""The service's bearer token: random, made on first start, kept in the user config dir (0600)."""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from pathlib import Path

from pixelmem.core.errors import PixelmemError
from pixelmem.core.paths import config_dir

TOKEN_FILENAME = "service-token"
TOKEN_BYTES = 32
WRITER_GRACE_SECONDS = 1.0


def token_path() -> Path:
    return config_dir() / TOKEN_FILENAME


def load_or_create_token(path: Path | None = None) -> str:
    """The token in ``path``; a new random one (file mode 0600) if there is none yet."""
    path = path or token_path()
    existing = _read(path)
    if existing:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    try:
        # O_EXCL: two services starting at once must not each write a different token.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another service made it first: read its token
        existing = _read_once_written(path)
        if existing:
            return existing
        raise PixelmemError(f"the service token file {path} is empty; delete it") from None
    except OSError as exc:
        raise PixelmemError(f"cannot create the service token {path}: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    with contextlib.suppress(OSError):  # the umask may have taken bits away, never added them
        os.chmod(path, 0o600)
    return token


def _read_once_written(path: Path) -> str:
    """The token of a file another process has just created: it opens the file, then writes
    (an instant later), so an empty file is read again for a while before it counts as empty."""
    deadline = time.monotonic() + WRITER_GRACE_SECONDS
    while not (token := _read(path)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return token


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeError) as exc:
        raise PixelmemError(f"cannot read the service token {path}: {exc}") from None
