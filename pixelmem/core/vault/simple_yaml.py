"""A fast path for simple YAML frontmatter: ``key: scalar`` lines and lists, without PyYAML.

PyYAML spends ~50 µs per file building Python objects even with the C parser, most of a
10k-file scan. Frontmatter as pixelmem and most tools write it is a handful of
`key: scalar` lines and lists, so those are parsed here; anything else (or anything this
parser is not sure YAML would read the same way) goes to PyYAML. A differential test in
tests/core/vault/test_store_frontmatter.py checks the two agree on many tricky inputs.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

# Characters YAML accepts in a plain one-line scalar, minus tab, BOM and Unicode line breaks.
_SAFE = "\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff"
_PLAIN = rf"[^\W\d_][{_SAFE}]*"  # starts with a letter: never a number, date or indicator
_FLOW_ITEM = r"[^\W\d_][^,\[\]{}:#\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]*"
_SIMPLE_LINE = re.compile(
    r"(?P<key>[A-Za-z_][A-Za-z0-9_-]*):"
    r"(?:$| (?P<value>.*))"
)
_SIMPLE_ITEM = re.compile(r"(?P<indent> *)- (?P<value>.*)")
_PLAIN_RE = re.compile(_PLAIN)
_SAFE_NO_QUOTE = _SAFE.replace("\x20-\x7e", "\x20-\x26\x28-\x7e")
_SINGLE_RE = re.compile(rf"'((?:[{_SAFE_NO_QUOTE}]|'')*)'")
_DOUBLE_RE = re.compile(r'"([^"\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]*)"')
_FLOW_RE = re.compile(rf"\[ *(?:{_FLOW_ITEM}(?: *, *{_FLOW_ITEM})*)? *\]")
_INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)")
# Digit-first words with a letter and no `._:-+` (uuid hex ids): strings unless 0x…/0b… ints.
_DIGIT_WORD_RE = re.compile(r"[0-9][0-9A-Za-z]*[A-Za-z][0-9A-Za-z]*")
_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")  # not \d: it matches ٢ too
_STAMP_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?Z"
)
# Plain words YAML 1.1 (PyYAML) reads as booleans or null.
_SPECIAL = frozenset(
    variant
    for word in ("yes", "no", "true", "false", "on", "off", "null")
    for variant in (word, word.capitalize(), word.upper())
)


class _NotSimple(Exception):
    pass


def parse_simple_yaml(yaml_text: str) -> dict[str, Any] | None:
    """The mapping for simple frontmatter, or None to let PyYAML decide."""
    data: dict[str, Any] = {}
    pending: str | None = None  # a `key:` line with no value: a block list may follow
    indent: str | None = None
    try:
        for raw in yaml_text.split("\n"):
            line = raw[:-1] if raw.endswith("\r") else raw
            if not line or line.startswith("#"):
                if line and pending is not None:
                    return None  # comments between list items: leave it to PyYAML
                continue
            item = _SIMPLE_ITEM.fullmatch(line)
            if item and pending is not None:
                if indent is None:
                    indent = item["indent"]
                    data[pending] = []
                elif indent != item["indent"]:
                    return None
                data[pending].append(_scalar(item["value"]))
                continue
            match = _SIMPLE_LINE.fullmatch(line)
            if match is None or match["key"] in _SPECIAL:
                return None
            key, value = match["key"], match["value"]
            pending, indent = (key, None) if value is None else (None, None)
            data[key] = None if value is None else _value(value)
    except (_NotSimple, ValueError):
        return None
    return data


def _value(text: str) -> Any:
    if text.startswith("["):
        if not _FLOW_RE.fullmatch(text):
            raise _NotSimple
        inner = text[1:-1].strip()
        return [_scalar(part.strip()) for part in inner.split(",")] if inner else []
    return _scalar(text)


def _scalar(text: str) -> Any:
    if _PLAIN_RE.fullmatch(text):
        if text in _SPECIAL or ": " in text or " #" in text or text.endswith((":", " ")):
            raise _NotSimple
        return text
    if text.startswith("'"):
        single = _SINGLE_RE.fullmatch(text)
        if single is None:
            raise _NotSimple
        return single.group(1).replace("''", "'")
    if text.startswith('"'):
        double = _DOUBLE_RE.fullmatch(text)
        if double is None:
            raise _NotSimple
        return double.group(1)
    if _INT_RE.fullmatch(text):
        return int(text)
    if _DIGIT_WORD_RE.fullmatch(text) and text[:2].lower() not in ("0x", "0b"):
        return text
    stamp = _STAMP_RE.fullmatch(text)
    if stamp:
        year, month, day_, hour, minute, second = (int(part) for part in stamp.groups()[:6])
        micro = int((stamp.group(7) or "0").ljust(6, "0"))
        return datetime(year, month, day_, hour, minute, second, micro, tzinfo=UTC)
    day = _DATE_RE.fullmatch(text)
    if day:
        return date(*map(int, day.groups()))
    raise _NotSimple
