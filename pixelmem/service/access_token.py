"""The service's bearer token: random, made on first start, kept in the user config dir (0600)."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from pixelmem.core.errors import PixelmemError
from pixelmem.core.paths import config_dir

TOKEN_FILENAME = "service-token"
TOKEN_BYTES = 32


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
    except FileExistsError:
        existing = _read(path)
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


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeError) as exc:
        raise PixelmemError(f"cannot read the service token {path}: {exc}") from None
