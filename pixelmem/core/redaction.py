"""Credentials never shown: a password written into a URL is masked wherever the URL is.

People put credentials into addresses (``http://user:secret@host/v1`` for a proxy in front of
a model server, ``postgresql://user:secret@db/notes``). Any URL pixelmem shows or logs —
``config show``, a warning, an HTTP or MCP answer, the service log — goes through
:func:`masked_url` first; a masked URL typed back into a setting keeps the stored password
(:func:`unmasked_url`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

MASK = "***"


def masked_url(url: str) -> str:
    """``url`` with the password of its user part shown as ``***`` (all else as it is)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # e.g. a bad port: keep nothing of a user part that may hold secrets
        return url.rsplit("@", 1)[-1] if "@" in url else url
    if not password:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:{MASK}@{host}").geturl()


def unmasked_url(url: str, current: str) -> str:
    """``url`` with a ``***`` password replaced by the one in ``current`` (a shown value
    typed back keeps the secret)."""
    try:
        parts = urlsplit(url)
        if parts.password != MASK:
            return url
        password = urlsplit(current).password or ""
    except ValueError:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:{password}@{host}").geturl()


def url_password(url: str) -> str:
    """The password in ``url``'s user part ("" if none), to redact from server messages."""
    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""
