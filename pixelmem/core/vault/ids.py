"""Memory ids, path-derived ids for foreign files, and filename slugs.

An id is only ever a key into the store's table; the store never builds a path from one. The
checks here are a second wall against ids like ``../../etc/passwd`` arriving from MCP or the CLI.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from datetime import datetime

from pixelmem.core.errors import InvalidIdError

MAX_ID_LENGTH = 128
PATH_ID_PREFIX = "path-"
SLUG_MAX_CHARS = 40

# `:` is refused too: on Windows ``C:name`` is a drive-relative path.
_FORBIDDEN_ID_CHARS = frozenset('/\\:*?"<>|')
# The common case (our uuid hex ids, path ids) answered without a per-character loop.
_PLAIN_ASCII_ID = re.compile(r"[A-Za-z0-9_\-][A-Za-z0-9_\-.+=@~]*")


def new_id() -> str:
    """A fresh pixelmem id: 32 lowercase hex characters (uuid4)."""
    return uuid.uuid4().hex


def path_id(relpath: str) -> str:
    """The stable id of a file that has no ``id`` key, from its vault-relative posix path."""
    digest = hashlib.sha256(name_bytes(relpath)).hexdigest()
    return f"{PATH_ID_PREFIX}{digest[:12]}"


def name_bytes(name: str) -> bytes:
    """A file name's bytes; one that is not UTF-8 arrives with surrogates (PEP 383)."""
    try:
        return name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that no file system decoding made
        return name.encode("utf-8", "surrogatepass")


def printable_name(name: str) -> str:
    """``name`` with whatever is not UTF-8 shown as U+FFFD, safe to print or to encode."""
    return name_bytes(name).decode("utf-8", "replace")


def id_problem(memory_id: object) -> str | None:
    """Why ``memory_id`` is not acceptable, or None when it is."""
    if not isinstance(memory_id, str):
        return "not a string"
    if not memory_id:
        return "empty"
    if len(memory_id) > MAX_ID_LENGTH:
        return f"longer than {MAX_ID_LENGTH} characters"
    if _PLAIN_ASCII_ID.fullmatch(memory_id) and ".." not in memory_id:
        return None
    if memory_id != memory_id.strip():
        return "leading or trailing whitespace"
    if any(unicodedata.category(ch)[0] == "C" for ch in memory_id):
        return "control characters"
    if any(ch in _FORBIDDEN_ID_CHARS for ch in memory_id):
        return "path separators or reserved characters"
    if ".." in memory_id or memory_id.startswith("."):
        return "dots that could name a parent folder"
    return None


def validate_id(memory_id: object) -> str:
    """Return ``memory_id`` if it is a safe id, else raise :class:`InvalidIdError`."""
    problem = id_problem(memory_id)
    if problem:
        raise InvalidIdError(str(memory_id)[:200], problem)
    assert isinstance(memory_id, str)
    return memory_id


def is_valid_id(memory_id: object) -> bool:
    return id_problem(memory_id) is None


def slugify(text: str, max_chars: int = SLUG_MAX_CHARS) -> str:
    """A short filesystem-safe slug; letters of any script (CJK included) are kept."""
    text = unicodedata.normalize("NFKC", text).lower()
    words = re.split(r"[^\w]+|_+", text)
    slug = "-".join(word for word in words if word)
    slug = slug[:max_chars].strip("-")
    return slug or "note"


def memory_filename(created: datetime, slug_source: str, memory_id: str) -> str:
    """``memory_YYYY-MM-DD_<slug>_<id8>.md``."""
    return f"memory_{created:%Y-%m-%d}_{slugify(slug_source)}_{memory_id[:8]}.md"
