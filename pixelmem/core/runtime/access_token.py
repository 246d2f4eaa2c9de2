"""The service's bearer token: random, made on first start, kept in the user config dir (0600).

The file is checked before it is believed (it is the one secret between the vault and every
local account): it must be a regular file (not a link to ``/etc/hostname``, not a FIFO that
would hang ``--print-token``), owned by this account and long enough to guess never (a token
of one character is refused). One that other accounts could read (0644) is replaced by a new
token at once, with a warning: whoever read the old one must not keep access.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
import string
import time
from pathlib import Path

from pixelmem.core.errors import PixelmemError
from pixelmem.core.paths import config_dir

log = logging.getLogger(__name__)

TOKEN_FILENAME = "service-token"
TOKEN_BYTES = 32
MIN_TOKEN_CHARS = 32  # token_urlsafe(32) makes 43
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "-_.~+/=")
WRITER_GRACE_SECONDS = 1.0


def token_path() -> Path:
    return config_dir() / TOKEN_FILENAME


def load_or_create_token(path: Path | None = None) -> str:
    """The token in ``path``; a new random one (file mode 0600) if there is none yet."""
    path = path or token_path()
    existing = _read(path)
    if existing and _exposed(path):
        log.warning(
            "the service token in %s could be read by other accounts; a new one was made "
            "(clients need `pixelmem serve --print-token` again)",
            path,
        )
        try:
            os.unlink(path)
        except OSError as exc:
            raise _refused(path, f"cannot be replaced ({exc.strerror})") from None
        existing = ""
    if existing:
        return existing
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise PixelmemError(
            f"cannot create the folder of the service token {path.parent}: {exc.strerror or exc}"
        ) from None
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


def existing_token(path: Path | None = None) -> str:
    """The token a service made, checked as :func:`load_or_create_token` checks it; "" when
    there is none, or when other accounts could read it (nothing is made or replaced: what a
    client asks before it talks to a service)."""
    path = path or token_path()
    token = _read(path)
    return "" if token and _exposed(path) else token


def _read_once_written(path: Path) -> str:
    """The token of a file another process has just created: it opens the file, then writes
    (an instant later), so an empty file is read again for a while before it counts as empty."""
    deadline = time.monotonic() + WRITER_GRACE_SECONDS
    while not (token := _read(path)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return token


def _read(path: Path) -> str:
    """The token in ``path`` ("" if there is no file yet), after the checks above."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        if os.path.islink(path):
            raise _refused(path, "is a symbolic link") from None
        raise PixelmemError(f"cannot read the service token {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refused(path, "is not a regular file")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise _refused(path, "belongs to another account")
        raw = os.read(fd, 4096)
    finally:
        os.close(fd)
    try:
        token = raw.decode("ascii").strip()
    except UnicodeError:
        raise _refused(path, "holds something that is not a token") from None
    if token and (len(token) < MIN_TOKEN_CHARS or not set(token) <= TOKEN_CHARS):
        raise _refused(
            path,
            f"holds a weak or malformed token (at least {MIN_TOKEN_CHARS} "
            "letters, digits or -_.~+/=)",
        )
    return token


def _exposed(path: Path) -> bool:
    """Other accounts may read the token file (group or other permission bits)."""
    if not hasattr(os, "geteuid"):  # Windows: no such bits; the profile folder is private
        return False
    try:
        return bool(os.stat(path, follow_symlinks=False).st_mode & 0o077)
    except OSError:
        return False


def _refused(path: Path, why: str) -> PixelmemError:
    return PixelmemError(
        f"the service token file {path} {why}; it was not used — delete it and a new token "
        "is made on the next start"
    )
