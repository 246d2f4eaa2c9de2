"""What the frontmatter keys of other tools mean to pixelmem, read and written back in kind.

Obsidian, Logseq, Hugo and Zola name things differently: ``tags`` (a list, a comma or space
separated string, ``#tag`` forms) is what pixelmem calls topics; ``aliases``/``alias`` are
other names of a note; ``date``, ``lastmod`` and friends are its dates, in many spellings.
Reading folds them into the :class:`~pixelmem.core.vault.memory.Memory` fields; writing
(:func:`topic_changes`, :func:`alias_changes`) rewrites the key the file already uses, in
the form it already has (a list stays a list, ``"#a #b"`` stays a string of ``#`` words),
and never adds a second key for the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from pixelmem.core.vault.memory import ALIAS_KEYS, TOPIC_KEYS

# First key found wins; pixelmem's own name first.
CREATED_KEYS = ("created", "date", "created_at", "date created", "creation date")
UPDATED_KEYS = ("updated", "lastmod", "modified", "updated_at", "date modified", "last modified")
_TAG_SPLIT_RE = re.compile(r"[,\s]+")
_DATE_FORMATS = (
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d",
    "%Y.%m.%d",
    "%d.%m.%Y",
    "%d.%m.%Y %H:%M",
)
_FIRST_DAY = datetime(1, 1, 2, tzinfo=UTC)
_LAST_DAY = datetime(9999, 12, 30, tzinfo=UTC)


# ---------------------------------------------------------------- dates


def parse_moment(value: Any) -> datetime | None:
    """A date in its common forms as an aware UTC datetime; None if it is not one.

    YAML/TOML dates and datetimes, ISO text (``2024-01-05``, ``2024-01-05T10:00``,
    ``2024-01-05 10:00``, with or without zone, ``Z``), ``2024/01/05``, ``05.01.2024``.
    A time without a zone is read as UTC, as pixelmem writes.
    """
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime(value.year, value.month, value.day)
    elif isinstance(value, str) and value.strip():
        found = _parse_text(value.strip())
        if found is None:
            return None
        moment = found
    else:
        return None
    try:
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (OverflowError, ValueError):
        return None
    return moment if _FIRST_DAY <= moment <= _LAST_DAY else None


def _parse_text(text: str) -> datetime | None:
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        return datetime.fromisoformat(iso)
    except ValueError:
        pass
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern)
        except ValueError:
            continue
    return None


def _present(data: Mapping[Any, Any], keys: tuple[str, ...]) -> list[Any]:
    """The frontmatter's own keys among ``keys``, in ``keys``' order, matched regardless of
    case (``Date:`` counts); the exact-spelling test first keeps a scan fast."""
    exact = [key for key in keys if key in data]
    if exact or all(type(key) is str and key.islower() for key in data):
        return exact
    folded = {str(key).lower(): key for key in data}
    return [folded[key] for key in keys if key in folded]


def first_key(data: Mapping[Any, Any], keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` the frontmatter has (matched case-insensitively)."""
    present = _present(data, keys)
    return str(present[0]) if present else None


def read_moment(data: Mapping[Any, Any], keys: tuple[str, ...]) -> datetime | None:
    """The first of ``keys`` whose value reads as a date."""
    for key in _present(data, keys):
        moment = parse_moment(data[key])
        if moment is not None:
            return moment
    return None


# ---------------------------------------------------------------- topics and aliases


def read_topics(data: Mapping[Any, Any]) -> list[str]:
    """``topics`` and ``tags`` as one list, in file order, without ``#`` and duplicates."""
    topics: list[str] = []
    for key in TOPIC_KEYS:
        for topic in _items(data.get(key), tags=key != "topics"):
            if topic not in topics:
                topics.append(topic)
    return topics


def read_aliases(data: Mapping[Any, Any]) -> list[str]:
    aliases: list[str] = []
    for key in ALIAS_KEYS:
        for alias in _items(data.get(key), tags=False, split=False):
            if alias not in aliases:
                aliases.append(alias)
    return aliases


def _items(value: Any, *, tags: bool, split: bool = True) -> list[str]:
    """The texts a list or string value holds; tags split on commas and spaces too."""
    if value is None or isinstance(value, (dict, bool)):
        return []
    if isinstance(value, (list, tuple)):
        raw = [_text(item) for item in value]
    elif not split:
        raw = [_text(value)]
    elif tags:
        raw = _TAG_SPLIT_RE.split(_text(value))
    else:
        raw = _text(value).split(",")
    out: list[str] = []
    for item in raw:
        text = " ".join(item.split())
        if tags:
            text = text.lstrip("#").strip()
        if text and text not in out:
            out.append(text)
    return out


def _text(value: Any) -> str:
    if value is None or isinstance(value, (dict, list, tuple)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return str(value)


def topic_changes(data: Mapping[Any, Any], topics: list[str]) -> dict[str, Any]:
    """The entries to write so the file's topics become ``topics``, in the file's own keys.

    One key used: it gets the whole list. None: ``tags``, the key Obsidian's tag pane and
    search read (issue 28). Both ``topics`` and ``tags``: each keeps the topics it held that
    remain, new ones go to ``tags``.
    """
    used = [key for key in TOPIC_KEYS if key in data]
    if not used:
        return {"tags": list(topics)} if topics else {}
    if len(used) == 1:
        key = used[0]
        return _changed(data, key, _in_form(data[key], topics, tags=key != "topics"))
    held_by_topics = set(_items(data.get("topics"), tags=False))
    share = {
        "topics": [t for t in topics if t in held_by_topics],
        "tags": [t for t in topics if t not in held_by_topics],
    }
    changes: dict[str, Any] = {}
    for key in used:
        changes.update(_changed(data, key, _in_form(data[key], share[key], tags=key != "topics")))
    return changes


def alias_changes(data: Mapping[Any, Any], aliases: list[str]) -> dict[str, Any]:
    key = next((k for k in ALIAS_KEYS if k in data), None)
    if key is None:
        return {"aliases": list(aliases)} if aliases else {}
    value = data[key]
    new: Any = list(aliases)
    if isinstance(value, str) and len(aliases) <= 1:
        new = aliases[0] if aliases else ""
    return _changed(data, key, new)


def _changed(data: Mapping[Any, Any], key: str, value: Any) -> dict[str, Any]:
    return {} if data.get(key) == value else {key: value}


def _in_form(old: Any, topics: list[str], *, tags: bool) -> Any:
    """``topics`` written the way ``old`` was: list or string, ``#`` or not, commas or spaces."""
    if isinstance(old, (list, tuple)):
        hashed = bool(old) and all(str(item).startswith("#") for item in old)
        return [f"#{t}" if hashed else t for t in topics]
    if isinstance(old, str):
        if tags and any(" " in t or "," in t for t in topics):
            return list(topics)  # a tags string splits on spaces: only a list keeps these
        hashed = tags and old.strip().startswith("#")
        words = [f"#{t}" if hashed else t for t in topics]
        spaced = tags and "," not in old and old.strip() != ""
        return (" " if spaced else ", ").join(words)
    return list(topics)
