"""TOML (``+++``, Hugo/Zola) and JSON (``{`` … ``}``) frontmatter: read, and edited by lines.

Reading goes through python-frontmatter's handler API: its :class:`JSONHandler`, and a
:class:`TOMLHandler` of the same shape over the standard library's ``tomllib`` (the library's
own TOML handler needs the unmaintained ``toml`` package, which reads TOML 0.5 only).
Writing never re-dumps the block: like the YAML editor in :mod:`frontmatter_io`, only the
lines of the entries that change are rewritten (new keys go at the end of the top-level
table), and the result must parse back to exactly the expected mapping or the edit is refused.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from frontmatter.default_handlers import BaseHandler, JSONHandler

TOML, JSON = "toml", "json"


class TOMLHandler(BaseHandler):
    """python-frontmatter's TOML handler, reading with ``tomllib`` (TOML 1.0)."""

    FM_BOUNDARY = re.compile(r"^\+{3,}\s*$", re.MULTILINE)
    START_DELIMITER = END_DELIMITER = "+++"

    def load(self, fm: str, **kwargs: object) -> Any:
        return tomllib.loads(fm)

    def export(self, metadata: dict[str, object], **kwargs: object) -> str:  # pragma: no cover
        raise NotImplementedError("pixelmem edits TOML frontmatter by lines, never re-dumps it")


HANDLERS: dict[str, BaseHandler] = {TOML: TOMLHandler(), JSON: JSONHandler()}
_TOML_OPEN_RE = re.compile(r"\+\+\+[ \t]*(\r\n|\n)")
_TOML_CLOSE_RE = re.compile(r"^\+\+\+[ \t]*(?:\r\n|\n|$)", re.MULTILINE)
_JSON_OPEN_RE = re.compile(r"\{[ \t]*(\r\n|\n)")
_JSON_CLOSE_RE = re.compile(r"^\}[ \t]*(?:\r\n|\n|$)", re.MULTILINE)
_TOML_KEY_RE = re.compile(
    r"""[ \t]*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*=""",
)
_TOML_TABLE_RE = re.compile(r"[ \t]*\[")
_JSON_KEY_RE = re.compile(r'[ \t]*"((?:[^"\\]|\\.)*)"[ \t]*:')


class FormatError(ValueError):
    """The block is not valid TOML/JSON or not a table/object."""


@dataclass(frozen=True)
class Split:
    kind: str
    open_line: str
    inner: str
    close_line: str
    body_start: int


def split(text: str) -> Split | None:
    """The TOML or JSON frontmatter block at the start of ``text``, if it has one."""
    for kind, opening_re, closing_re in (
        (TOML, _TOML_OPEN_RE, _TOML_CLOSE_RE),
        (JSON, _JSON_OPEN_RE, _JSON_CLOSE_RE),
    ):
        opening = opening_re.match(text)
        if opening is None:
            continue
        closing = closing_re.search(text, opening.end())
        if closing is None:
            return None
        inner = text[opening.end() : closing.start()]
        return Split(kind, opening.group(0), inner, closing.group(0), closing.end())
    return None


def load(kind: str, inner: str) -> dict[Any, Any]:
    """The mapping of a block's inner text; :class:`FormatError` if it is not one."""
    text = "{\n" + inner + "}" if kind == JSON else inner
    try:
        data = HANDLERS[kind].load(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise FormatError(f"invalid {kind.upper()} frontmatter: {exc}") from None
    if not isinstance(data, dict):
        raise FormatError(f"{kind.upper()} frontmatter is not a table of keys")
    return data


# ---------------------------------------------------------------- editing by lines


@dataclass
class _Block:
    key: str | None  # None: lines before the first entry, or (TOML) the sub-tables after
    lines: list[str]


def edit(
    kind: str, inner: str, changes: Mapping[str, Any], removals: set[str], newline: str
) -> str | None:
    """``inner`` with only the entries of ``changes``/``removals`` rewritten; None if the
    layout cannot be edited by lines or a value cannot be written in this format."""
    try:
        if kind == TOML:
            return _edit_toml(inner, changes, removals, newline)
        return _edit_json(inner, changes, removals, newline)
    except _Unwritable:
        return None


class _Unwritable(Exception):
    pass


def _edit_toml(inner: str, changes: Mapping[str, Any], removals: set[str], nl: str) -> str:
    head: list[str] = []
    blocks: list[_Block] = []
    tail: list[str] = []  # from the first [table] on: sub-tables are never edited
    depth = 0  # open brackets: > 0 inside a multi-line array or inline table
    for line in inner.splitlines(keepends=True):
        if tail or (depth == 0 and _TOML_TABLE_RE.match(line)):
            tail.append(line)
            continue
        match = _TOML_KEY_RE.match(line) if depth == 0 else None
        if match is not None:
            double, single, bare = match.groups()
            key = json.loads(f'"{double}"') if double is not None else single or bare
            blocks.append(_Block(key, [line]))
        elif depth == 0 and line.strip() and not line.lstrip().startswith("#"):
            blocks.append(_Block(None, [line]))  # a dotted key or the like: kept as written
        elif blocks:
            blocks[-1].lines.append(line)
        else:
            head.append(line)
        depth += _depth(line, "[{", "]}", ("'", '"'), comment="#")
    out = list(head)
    seen: set[str] = set()
    for block in blocks:
        if block.key in seen and block.key in {*changes, *removals}:
            raise _Unwritable
        if block.key is not None:
            seen.add(block.key)
        if block.key in removals:
            continue
        if block.key is not None and block.key in changes:
            ending = _line_ending(block.lines[-1]) or nl
            out.append(f"{_toml_key(block.key)} = {_toml_value(changes[block.key])}{ending}")
        else:
            out.extend(block.lines)
    if out and not out[-1].endswith("\n"):
        out[-1] += nl
    filler: list[str] = []  # blank lines and comments before a [table] stay right above it
    while out and (not out[-1].strip() or out[-1].lstrip().startswith("#")):
        filler.insert(0, out.pop())
    for key, value in changes.items():
        if key not in seen:
            out.append(f"{_toml_key(key)} = {_toml_value(value)}{nl}")
    return "".join(out + filler + tail)


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime):
        return _iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + ", ".join(items) + " }"
    raise _Unwritable  # None and other types TOML has no word for


def _iso(value: datetime) -> str:
    if value.tzinfo is None:
        return value.isoformat()
    return value.astimezone(UTC).replace(tzinfo=None).isoformat() + "Z"


def _edit_json(inner: str, changes: Mapping[str, Any], removals: set[str], nl: str) -> str:
    head: list[str] = []
    blocks: list[_Block] = []
    depth = 0
    for line in inner.splitlines(keepends=True):
        match = _JSON_KEY_RE.match(line) if depth == 0 else None
        if match is not None:
            blocks.append(_Block(json.loads(f'"{match.group(1)}"'), [line]))
        elif blocks:
            blocks[-1].lines.append(line)
        else:
            head.append(line)
        depth += _depth(line, "[{", "]}", ('"',), comment=None)
    if depth != 0 or any(line.strip() for line in head):
        raise _Unwritable
    indent = _indent(blocks[0].lines[0]) if blocks else "  "
    entries: list[tuple[str, str]] = []  # (text without its line ending, line ending)
    seen: set[str] = set()
    for block in blocks:
        key = str(block.key)
        if key in seen and key in {*changes, *removals}:
            raise _Unwritable
        seen.add(key)
        if key in removals:
            continue
        text = "".join(block.lines)
        ending = _line_ending(text)
        if key in changes:
            entry = _json_entry(key, changes[key])
            text = f"{_indent(block.lines[0])}{entry},{ending}"
        entries.append((text[: len(text) - len(ending)], ending or nl))
    for key, value in changes.items():
        if key not in seen:
            entries.append((f"{indent}{_json_entry(key, value)},", nl))
    # Each entry but the last needs its comma; an entry whose comma is right keeps its bytes.
    out = head[:]
    for index, (text, ending) in enumerate(entries):
        has_comma = text.rstrip().endswith(",")
        if index < len(entries) - 1 and not has_comma:
            text = text.rstrip() + ","
        elif index == len(entries) - 1 and has_comma:
            text = text.rstrip()[:-1]
        out.append(text + ending)
    return "".join(out)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _json_entry(key: str, value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=_json_default, allow_nan=False)
    except (TypeError, ValueError):
        raise _Unwritable from None
    return f"{json.dumps(key, ensure_ascii=False)}: {text}"


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return _iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(type(value).__name__)


def json_ready(value: Any) -> Any:
    """``value`` as JSON would read it back (dates become their text)."""
    return json.loads(json.dumps(value, default=_json_default))


def _depth(
    text: str, opening: str, closing: str, quotes: tuple[str, ...], comment: str | None
) -> int:
    depth, quote, escaped = 0, "", False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in quotes:
            quote = char
        elif comment and char == comment:
            quote = "\n"  # to the end of the line
        elif char in opening:
            depth += 1
        elif char in closing:
            depth -= 1
    return depth


def _line_ending(text: str) -> str:
    return "\r\n" if text.endswith("\r\n") else "\n" if text.endswith("\n") else ""
