"""Markdown files with YAML frontmatter: split, read into a Memory, and edited minimally.

TOML (``+++``) and JSON (``{``) frontmatter are read and edited the same way, line by line,
by :mod:`frontmatter_formats`; what keys such as ``tags`` or ``date`` mean is
:mod:`frontmatter_fields`'.

Parsing is done here rather than with python-frontmatter so that (a) the libyaml C loader is
used, (b) the body is kept byte for byte (no stripping, CRLF kept), and (c) saving can rewrite
only the frontmatter lines of the keys that changed, leaving comments, quoting and the order
of everything else as the user wrote it.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml

from pixelmem.core.errors import InvalidMemoryError
from pixelmem.core.vault import frontmatter_formats as formats
from pixelmem.core.vault import ids
from pixelmem.core.vault.frontmatter_fields import (
    CREATED_KEYS,
    UPDATED_KEYS,
    alias_changes,
    first_key,
    parse_moment,
    read_aliases,
    read_moment,
    read_topics,
    topic_changes,
)
from pixelmem.core.vault.memory import DEFAULT_IMPORTANCE, IMPORTANCE_LEVELS, OWNED_KEYS, Memory
from pixelmem.core.vault.simple_yaml import parse_simple_yaml
from pixelmem.core.vault.titles import (
    TitleRule,
    note_title,
    title_source,
    vault_title_rule,
    with_heading,
)
from pixelmem.core.vault.yaml_guard import MAX_FRONTMATTER_BYTES, YamlLimitError, check_bounds

try:  # the C loader is ~10x faster; fall back quietly where libyaml is missing
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]


class _Loader(_SafeLoader):
    """The safe loader, except that a timestamp naming no real day (``date: 2024-13-45``, a
    typo) is read as the text it is, as Obsidian does, instead of making the note unreadable."""


def _timestamp_or_text(loader: Any, node: Any) -> Any:
    try:
        return loader.construct_yaml_timestamp(node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)

BOM = "\ufeff"
_OPEN_RE = re.compile(r"---[ \t]*(\r\n|\n)")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r\n|\n|$)", re.MULTILINE)
# A top-level key at column 0: double-quoted, single-quoted or plain.
_KEY_RE = re.compile(
    r"""^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'"""
    r"""|([^\s#\-?:,\[\]{}&*!|>'"%@`][^:#]*?|-[^\s:#][^:#]*?))"""
    r"""[ \t]*:(?:[ \t]|\r?\n|$)"""
)


class FrontmatterError(ValueError):
    """The frontmatter block exists but is not a readable YAML mapping."""


class FrontmatterEditRefused(InvalidMemoryError):
    """The frontmatter cannot be changed by rewriting only the lines of the changed keys.

    pixelmem never re-dumps a whole frontmatter (it would change keys, quoting, comments,
    nulls and ``!!omap`` the user did not touch): it refuses the edit instead.
    """


@dataclass
class Document:
    """A Markdown file split into its parts; joining them gives back the original text."""

    data: dict[Any, Any] = field(default_factory=dict)
    body: str = ""
    yaml_text: str = ""
    has_frontmatter: bool = False
    bom: bool = False
    newline: str = "\n"
    open_line: str = "---\n"
    close_line: str = "---\n"
    # The frontmatter uses YAML aliases: its values share objects, so they are not cached.
    aliases: bool = False
    kind: str = "yaml"  # or frontmatter_formats.TOML / JSON

    def text(self) -> str:
        head = BOM if self.bom else ""
        if not self.has_frontmatter:
            return head + self.body
        return head + self.open_line + self.yaml_text + self.close_line + self.body


def parse_document(text: str) -> Document:
    """Split ``text``; raise :class:`FrontmatterError` if its frontmatter is not valid YAML."""
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    first_end = text.find("\n")
    newline = "\r\n" if first_end > 0 and text[first_end - 1] == "\r" else "\n"
    if text.startswith(("+++", "{")):
        other = _parse_other(text, bom, newline)
        if other is not None:
            return other
    opening = _OPEN_RE.match(text)
    closing = _CLOSE_RE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        return Document(body=text, bom=bom, newline=newline)
    yaml_text = text[opening.end() : closing.start()]
    data, aliases = load_yaml_checked(yaml_text)
    return Document(
        data=data,
        body=text[closing.end() :],
        yaml_text=yaml_text,
        has_frontmatter=True,
        bom=bom,
        newline=newline,
        open_line=opening.group(0),
        close_line=closing.group(0),
        aliases=aliases,
    )


def _parse_other(text: str, bom: bool, newline: str) -> Document | None:
    """A document with TOML or JSON frontmatter, or None if ``text`` has neither."""
    block = formats.split(text)
    if block is None:
        return None
    if len(block.inner) > MAX_FRONTMATTER_BYTES:
        raise FrontmatterError(f"frontmatter larger than {MAX_FRONTMATTER_BYTES // 1024} KB")
    try:
        data = formats.load(block.kind, block.inner)
    except formats.FormatError as exc:
        if block.kind == formats.JSON:  # a note that merely starts with "{": all body
            return None
        raise FrontmatterError(_one_line(exc)) from None
    check_dates(data)
    return Document(
        data=data,
        body=text[block.body_start :],
        yaml_text=block.inner,
        has_frontmatter=True,
        bom=bom,
        newline=newline,
        open_line=block.open_line,
        close_line=block.close_line,
        kind=block.kind,
    )


def load_frontmatter(kind: str, text: str) -> dict[Any, Any]:
    """The mapping of a frontmatter block's text in its format."""
    if kind == "yaml":
        return load_yaml(text)
    try:
        return formats.load(kind, text)
    except formats.FormatError as exc:
        raise FrontmatterError(_one_line(exc)) from None


def load_yaml(yaml_text: str) -> dict[Any, Any]:
    """The frontmatter mapping; raise :class:`FrontmatterError` if it is not one."""
    return load_yaml_checked(yaml_text)[0]


def load_yaml_checked(yaml_text: str) -> tuple[dict[Any, Any], bool]:
    """(the frontmatter mapping, whether it uses aliases); :class:`FrontmatterError` if it is
    not a mapping or is beyond a bound of :mod:`yaml_guard` (size, nesting, alias expansion)."""
    if len(yaml_text) > MAX_FRONTMATTER_BYTES:  # before any parsing, even the fast path
        raise FrontmatterError(f"frontmatter larger than {MAX_FRONTMATTER_BYTES // 1024} KB")
    # Simple frontmatter skips PyYAML (see simple_yaml); None means "not sure, ask PyYAML".
    # Called through this module's name so benchmarks can switch the fast path off here.
    simple = parse_simple_yaml(yaml_text)
    if simple is not None:
        check_dates(simple)
        return simple, False
    try:
        aliases = check_bounds(yaml_text)
        data = yaml.load(yaml_text, Loader=_Loader)  # a safe loader
    except YamlLimitError as exc:
        raise FrontmatterError(str(exc)) from None
    except yaml.YAMLError as exc:
        raise FrontmatterError(f"invalid YAML frontmatter: {_one_line(exc)}") from None
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. a date like 2024-13-45
        raise FrontmatterError(f"invalid YAML frontmatter: {exc}") from None
    except RecursionError:  # pragma: no cover - check_bounds keeps nesting shallow
        raise FrontmatterError("frontmatter nested too deeply") from None
    if data is None:
        return {}, aliases
    if not isinstance(data, dict):
        raise FrontmatterError("frontmatter is not a list of `key: value` lines")
    check_dates(data)
    return data, aliases


# Every date must survive conversion to UTC and to any local time zone (a day each side).
_FIRST_DAY = datetime(1, 1, 2, tzinfo=UTC)
_LAST_DAY = datetime(9999, 12, 30, tzinfo=UTC)


def date_in_range(value: date) -> bool:
    """True if ``value`` (a date, or a naive or aware datetime) converts to any zone safely."""
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    try:
        moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except (OverflowError, ValueError):
        return False
    return _FIRST_DAY <= moment <= _LAST_DAY


def check_dates(data: Any) -> None:
    """Raise :class:`FrontmatterError` if any date in ``data`` is out of range."""
    pending, seen = [data], set()
    while pending:
        value = pending.pop()
        if isinstance(value, date):
            if not date_in_range(value):
                raise FrontmatterError(f"the date {value} is out of range (years 1 to 9999)")
        elif isinstance(value, (dict, list, tuple, set)) and id(value) not in seen:
            seen.add(id(value))  # aliases share objects: walk each once
            if isinstance(value, dict):
                pending.extend(value.keys())
                pending.extend(value.values())
            else:
                pending.extend(value)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def format_datetime(value: datetime) -> str:
    """``2026-11-21T10:00:00Z`` (UTC; fractional seconds only when present)."""
    value = value.astimezone(UTC) if value.tzinfo else value
    text = value.replace(tzinfo=None).isoformat()
    return f"{text}Z"


def dump_entry(key: str, value: Any, newline: str = "\n") -> str:
    """One ``key: value`` entry as YAML text ending in ``newline``."""
    if isinstance(value, datetime):
        text = f"{key}: {format_datetime(value)}\n"
    else:
        text = yaml.dump(
            {key: value},
            Dumper=_Dumper,
            allow_unicode=True,
            sort_keys=False,
            default_flow_style=False,
            width=1_000_000,
        )
    return text.replace("\n", newline) if newline != "\n" else text


def dump_mapping(data: Mapping[Any, Any], newline: str = "\n") -> str:
    return "".join(dump_entry(str(key), value, newline) for key, value in data.items())


@dataclass
class _Block:
    key: str | None  # None: comments/blank lines before the first key
    lines: list[str]


def _split_blocks(yaml_text: str) -> list[_Block] | None:
    """Group lines by top-level key; None when the layout is too unusual to edit by lines."""
    blocks: list[_Block] = [_Block(None, [])]
    for line in yaml_text.splitlines(keepends=True):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or line[0] in " \t" or line.startswith("- "):
            blocks[-1].lines.append(line)
            continue
        if line.rstrip("\r\n") == "-":
            blocks[-1].lines.append(line)
            continue
        match = _KEY_RE.match(line)
        if match is None:
            return None
        double, single, plain = match.groups()
        if double is not None:
            key = yaml.load(f'"{double}"', Loader=_Loader)
        elif single is not None:
            key = single.replace("''", "'")
        else:
            key = plain.rstrip()
        blocks.append(_Block(str(key), [line]))
    return blocks


def _indented_like(entry: str, old_lines: list[str]) -> str:
    """A block list written with the indent the old one had (``  - a`` stays indented)."""
    indent = re.match(r"([ \t]+)- ", old_lines[1]) if len(old_lines) > 1 else None
    lines = entry.splitlines(keepends=True)
    if indent is None or len(lines) < 2 or not lines[1].startswith("- "):
        return entry
    return lines[0] + "".join(indent.group(1) + line for line in lines[1:])


_SCALARS = (str, int, float, bool)


def _in_old_style(lines: list[str], tail: list[str], value: Any, ending: str) -> str | None:
    """The one-line entry in the style the old one had, or None for the default style.

    ``tags: [a, b]`` stays a flow list and ``tags: "#a #b"`` keeps its quotes: the person (or
    Obsidian, Hugo…) chose that form, and an edit must change only what it has to.
    """
    if len(lines) - len(tail) != 1:
        return None
    match = _KEY_RE.match(lines[0])
    if match is None or match.group(0).endswith("\n"):
        return None
    old = lines[0][match.end() :].lstrip()
    if (
        old.startswith("[")
        and isinstance(value, list)
        and all(isinstance(item, _SCALARS) for item in value)
    ):
        text = _dump_scalar(value, default_flow_style=True)
    elif old[:1] in ("'", '"') and isinstance(value, str):
        text = _dump_scalar(value, default_style=old[0])
    else:
        return None
    if "\n" in text:  # PyYAML chose several lines: leave it to the default layout
        return None
    return f"{match.group(0)}{text}{ending}"


def _dump_scalar(value: Any, **style: Any) -> str:
    text = yaml.dump(value, Dumper=_Dumper, allow_unicode=True, width=1_000_000, **style)
    return str(text).rstrip("\n")


def _trailing_filler(lines: list[str]) -> list[str]:
    """Blank/comment lines at the end of a block belong to what follows; keep them."""
    index = len(lines)
    while index > 1 and (not lines[index - 1].strip() or lines[index - 1].lstrip().startswith("#")):
        index -= 1
    return lines[index:]


def edit_yaml(
    yaml_text: str,
    original: Mapping[Any, Any],
    changes: Mapping[str, Any],
    removals: Iterable[str] = (),
    newline: str = "\n",
    kind: str = "yaml",
) -> str:
    """Rewrite only the entries of ``changes``/``removals``; everything else stays as written.

    ``kind`` is the block's format (YAML, or TOML/JSON through :mod:`frontmatter_formats`).

    New keys are appended at the end. The result is checked by parsing it again; if the
    layout defeats the line editor (duplicate or complex keys, a key YAML reads as null, …)
    :class:`FrontmatterEditRefused` is raised: the whole mapping is never re-dumped.
    """
    removals = set(removals)
    expected: dict[Any, Any] = {}
    for key, value in original.items():
        skey = str(key)
        if skey in removals:
            continue
        expected[key] = changes.get(skey, value)
    known = {str(key) for key in original}
    for key, value in changes.items():
        if key not in known and key not in removals:
            expected[key] = value
    if not changes and not removals:
        return yaml_text
    if kind == "yaml":
        edited = _edit_lines(yaml_text, changes, removals, newline)
    else:
        edited = formats.edit(kind, yaml_text, changes, removals, newline)
    if edited is not None and _same_mapping(edited, expected, kind):
        return edited
    keys = ", ".join(sorted({*changes, *removals}))
    if kind != "yaml":
        raise FrontmatterEditRefused(
            f"pixelmem cannot write {keys} into this file's {kind.upper()} frontmatter line "
            "by line (a value the format cannot hold, such as an empty one in TOML, or a "
            "layout pixelmem cannot edit); nothing was saved. Edit the frontmatter in a text "
            "editor instead."
        )
    raise FrontmatterEditRefused(
        f"pixelmem cannot change {keys} without rewriting this file's whole frontmatter "
        "(it has duplicate, complex or null keys, or a layout pixelmem cannot edit line by "
        "line); nothing was saved. Edit the frontmatter in a text editor instead."
    )


def _edit_lines(
    yaml_text: str, changes: Mapping[str, Any], removals: set[str], newline: str
) -> str | None:
    blocks = _split_blocks(yaml_text)
    if blocks is None:
        return None
    seen: set[str] = set()
    out: list[str] = []
    for block in blocks:
        key = block.key
        if key is None or (key not in changes and key not in removals):
            out.extend(block.lines)
            continue
        if key in seen:
            return None  # a duplicated key: let the full dump sort it out
        seen.add(key)
        tail = _trailing_filler(block.lines)
        if key not in removals:  # the entry keeps the ending its first line had
            ending = _ending(block.lines[0]) or newline
            entry = _in_old_style(block.lines, tail, changes[key], ending)
            if entry is None:
                entry = _indented_like(dump_entry(key, changes[key], ending), block.lines)
            out.append(entry)
        out.extend(tail)
    if out and not out[-1].endswith("\n"):
        out[-1] += newline
    for key, value in changes.items():
        if key not in seen and key not in removals:
            out.append(dump_entry(key, value, newline))
    return "".join(out)


def _same_mapping(yaml_text: str, expected: Mapping[Any, Any], kind: str = "yaml") -> bool:
    try:
        data = load_frontmatter(kind, yaml_text)
    except FrontmatterError:
        return False
    if kind == formats.JSON:  # JSON has no dates: they are written, and read back, as text
        expected = formats.json_ready(dict(expected))
    if kind != "yaml":
        # Order aside (a new key goes before TOML's [tables], which read back last): dict
        # equality ignores it, and the sorted reprs let NaN equal NaN as below.
        return data == dict(expected) or repr(sorted(data.items(), key=str)) == repr(
            sorted(dict(expected).items(), key=str)
        )
    if list(data.items()) == list(expected.items()):
        return True
    # NaN is never equal to itself: same text, same types and order count as the same.
    return repr(list(data.items())) == repr(list(expected.items()))


def normalise_datetime(value: Any) -> datetime | None:
    """Dates, timestamps and date strings in their common forms as an aware UTC datetime;
    None if not a date at all (see :func:`frontmatter_fields.parse_moment`)."""
    return parse_moment(value)


def normalise_text(value: Any) -> str | None:
    """YAML scalars that PyYAML typed (numbers, dates, booleans) back to the text shown."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return format_datetime(value) if value.tzinfo else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return ", ".join(t for t in (normalise_text(v) for v in value) if t)
    return str(value)


def normalise_topics(value: Any) -> list[str]:
    """A list of non-empty strings; a single string may hold comma-separated topics."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else str(value).split(",")
    if isinstance(value, (list, tuple)) and len(items) == 0:
        return []
    topics: list[str] = []
    for item in items:
        text = normalise_text(item)
        text = text.strip() if text else ""
        if text and text not in topics:
            topics.append(text)
    return topics


# ---------------------------------------------------------------- Memory <-> file


def relpath(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def memory_from_document(
    doc: Document, path: Path, vault_root: Path, mtime_ns: int, rule: TitleRule | None = None
) -> Memory:
    """Map frontmatter to fields, normalising what PyYAML typed (dates, numbers). ``rule`` is
    the vault's title rule (:mod:`titles`; found from ``vault_root`` when not given)."""
    data = doc.data
    if rule is None:
        rule = vault_title_rule(vault_root)
    raw_id = normalise_text(data.get("id"))
    has_id = raw_id is not None and ids.is_valid_id(raw_id)
    mtime = mtime_datetime(mtime_ns)
    importance = str(data.get("importance") or "").strip().lower()
    return Memory(
        id=raw_id if has_id and raw_id else ids.path_id(relpath(path, vault_root)),
        title=note_title(data, doc.body, path, rule),
        body=doc.body,
        topics=read_topics(data),
        aliases=read_aliases(data),
        importance=importance if importance in IMPORTANCE_LEVELS else DEFAULT_IMPORTANCE,
        # None when the file has no date: the scan gives it the date it was first seen.
        created=read_moment(data, CREATED_KEYS),
        updated=read_moment(data, UPDATED_KEYS) or mtime,
        source=normalise_text(data.get("source")),
        path=path,
        extra={str(key): value for key, value in data.items() if str(key) not in OWNED_KEYS},
        has_id=has_id,
        disk_mtime_ns=mtime_ns,
    )


def mtime_datetime(mtime_ns: int) -> datetime:
    """A file time as a UTC datetime; one out of datetime's range becomes the epoch."""
    try:
        moment = datetime.fromtimestamp(mtime_ns / 1e9, tz=UTC).replace(microsecond=0)
    except (OverflowError, ValueError, OSError):
        return datetime.fromtimestamp(0, tz=UTC)
    return moment if date_in_range(moment) else datetime.fromtimestamp(0, tz=UTC)


def refuse_unencodable(text: str, what: str) -> None:
    """Refuse a lone UTF-16 surrogate (``"\\ud800"`` in JSON from an API client): UTF-8, and
    so the file, cannot hold it, and the atomic write would fail with an encoding error."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise InvalidMemoryError(
            f"{what} contains a lone surrogate (U+{ord(bad):04X}), which is not a character "
            "a UTF-8 file can hold"
        ) from None


def checked_body(body: str) -> str:
    """Refuse text the vault could not read back (it would be skipped as binary) or write."""
    if "\x00" in body:
        raise InvalidMemoryError(
            "the text contains a NUL character (binary data); a Markdown memory cannot hold it"
        )
    refuse_unencodable(body, "the text")
    return body


def checked_fields(
    title: str,
    topics: Iterable[str],
    importance: str,
    source: str | None,
    extra: Mapping[str, Any] | None,
    aliases: Iterable[str] = (),
) -> dict[str, Any]:
    clean_title = " ".join(str(title or "").split())
    if "\x00" in clean_title:
        raise InvalidMemoryError("the title contains a NUL character")
    if not clean_title:
        raise InvalidMemoryError("a memory needs a title")
    refuse_unencodable(clean_title, "the title")
    if importance not in IMPORTANCE_LEVELS:
        raise InvalidMemoryError(
            f"importance must be one of {', '.join(IMPORTANCE_LEVELS)}, not {importance!r}"
        )
    if isinstance(topics, str):
        raise InvalidMemoryError("topics must be a list of strings")
    if isinstance(aliases, str):
        raise InvalidMemoryError("aliases must be a list of strings")
    topics, aliases = list(topics), list(aliases)
    for label, texts in (("a topic", topics), ("an alias", aliases)):
        for text in texts:
            refuse_unencodable(str(text), label)
    owned = sorted(set(extra or {}) & set(OWNED_KEYS))
    if owned:
        raise InvalidMemoryError(f"extra keys may not include {', '.join(owned)}")
    return {
        "title": clean_title,
        "topics": normalise_topics(list(topics)),
        "aliases": [" ".join(a.split()) for a in normalise_topics(list(aliases))],
        "importance": importance,
        "source": source or None,
        "extra": dict(extra or {}),
    }


def new_file_text(
    memory_id: str,
    fields: dict[str, Any],
    created: datetime,
    updated: datetime,
    body: str,
    *,
    title_key: bool = True,
) -> str:
    """The text of a new pixelmem file: owned keys in a fixed order, then the extra keys.
    ``title_key=False`` for a file whose name is its title (an Obsidian vault's)."""
    data: dict[str, Any] = {"id": memory_id}
    if title_key:
        data["title"] = fields["title"]
    data.update(created=created, updated=updated, tags=fields["topics"])
    if fields.get("aliases"):
        data["aliases"] = fields["aliases"]
    data["importance"] = fields["importance"]
    if fields["source"]:
        data["source"] = fields["source"]
    data.update(fields["extra"])
    return "---\n" + dump_mapping(data) + "---\n" + with_final_newline(body, "\n")


def without_final_newline(body: str) -> str:
    """``body`` less the one line break every save ends it with (to compare with edited text)."""
    if body.endswith("\r\n"):
        return body[:-2]
    return body[:-1] if body.endswith("\n") else body


def with_final_newline(body: str, newline: str) -> str:
    """``body`` ending in a line break (``echo >> file`` must start a new line): the one its
    last line break is, else ``newline``."""
    if not body or body.endswith("\n"):
        return body
    last = body.rfind("\n")
    if last >= 0:
        newline = "\r\n" if last > 0 and body[last - 1] == "\r" else "\n"
    return body + newline


def body_in_file_endings(body: str, old: str, newline: str) -> str:
    """``body`` with the line endings the file's body has (not its frontmatter's).

    Editors hand back text with ``\n`` only: an unchanged body stays byte for byte, a body
    that used ``\r\n`` throughout keeps it, and in a body with mixed endings the unchanged
    lines keep theirs while new lines get the most common one.
    """
    if body == old or "\r" in body:
        return body
    crlf, lines = old.count("\r\n"), old.count("\n")
    if lines == 0:  # no line break yet: the frontmatter's
        return body.replace("\n", "\r\n") if newline == "\r\n" else body
    if crlf == 0:
        return body
    if crlf == lines:
        return body.replace("\n", "\r\n")
    return _merge_lines(body, old, "\r\n" if crlf * 2 > lines else "\n")


def _merge_lines(body: str, old: str, newline: str) -> str:
    old_lines = old.splitlines(keepends=True)
    new_lines = body.splitlines(keepends=True)
    bare = [line.rstrip("\r\n") + ("\n" if line.endswith("\n") else "") for line in old_lines]
    # Common first and last lines are matched by position before diffing the rest, as diff
    # tools do: among identical lines (blank ones) the matcher's choice is arbitrary and would
    # hand one blank line's ending to another.
    head = 0
    while head < min(len(bare), len(new_lines)) and bare[head] == new_lines[head]:
        head += 1
    tail = 0
    while (
        tail < min(len(bare), len(new_lines)) - head
        and bare[len(bare) - 1 - tail] == new_lines[len(new_lines) - 1 - tail]
    ):
        tail += 1
    out = old_lines[:head]
    middle_old = slice(head, len(bare) - tail)
    middle_new = new_lines[head : len(new_lines) - tail]
    old_mid, bare_mid = old_lines[middle_old], bare[middle_old]
    matcher = difflib.SequenceMatcher(None, bare_mid, middle_new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(old_mid[i1:i2])
        elif tag == "replace" and i2 - i1 == j2 - j1:  # lines edited in place: their endings
            for old_line, line in zip(old_mid[i1:i2], middle_new[j1:j2], strict=True):
                out.append(_with_ending(line, _ending(old_line) or newline))
        else:
            out.extend(_with_ending(line, newline) for line in middle_new[j1:j2])
    out.extend(old_lines[len(old_lines) - tail :] if tail else [])
    return "".join(out)


def _ending(line: str) -> str:
    return "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""


def _with_ending(line: str, newline: str) -> str:
    """``line`` (ending in ``\n`` or in nothing) with ``newline`` for its ``\n``."""
    return line[:-1] + newline if line.endswith("\n") else line


def _same_value(old: Any, new: Any) -> bool:
    """Equal, or NaN-holding values with the same text (NaN is never equal to itself)."""
    return old == new or (type(old) is type(new) and repr(old) == repr(new))


def render_update(
    memory: Memory,
    fields: dict[str, Any],
    doc: Document,
    current: Memory | None,
    now: datetime,
    rule: TitleRule = "headings",
    *,
    rename_ok: bool = False,
) -> bytes | None:
    """The new file bytes, or None when ``memory`` says nothing the file does not already say.

    A new title goes where the title comes from (:func:`titles.title_source`): the
    ``title`` key, the first heading's line, or, with ``rename_ok``, nowhere in the file (the
    caller renames the file); without ``rename_ok`` a ``title`` key is added."""
    present = {str(key) for key in doc.data}
    base = current or Memory(id=memory.id, title="", importance="", has_id=memory.has_id)
    changes: dict[str, Any] = {}
    removals: list[str] = []
    if memory.has_id and (base.id != memory.id or "id" not in present):
        changes["id"] = memory.id
    if fields["title"] != base.title:
        source = title_source(doc.data, doc.body, rule)
        if source == "heading":  # the title is the first heading: that line changes
            memory = dataclasses.replace(memory, body=with_heading(memory.body, fields["title"]))
        elif source == "frontmatter" or not rename_ok:
            changes["title"] = fields["title"]
    if fields["topics"] != base.topics:
        changes.update(topic_changes(doc.data, fields["topics"]))
    if fields["aliases"] != base.aliases:
        changes.update(alias_changes(doc.data, fields["aliases"]))
    if fields["importance"] != base.importance:
        changes["importance"] = fields["importance"]
    if fields["source"] != base.source:
        if fields["source"] is None:
            removals.append("source")
        else:
            changes["source"] = fields["source"]
    created_key = first_key(doc.data, CREATED_KEYS)
    if memory.has_id and created_key is None:
        changes["created"] = memory.created or now
    elif (
        memory.created
        and memory.created != base.created
        and created_key is not None
        # A value that reads as no date (a typo) is the person's text: the first-seen date
        # shown in its place must not overwrite it on the next save.
        and read_moment(doc.data, CREATED_KEYS) is not None
    ):
        changes[created_key] = memory.created
    for key, value in fields["extra"].items():
        if key not in base.extra or not _same_value(base.extra[key], value):
            changes[key] = value
    for key in memory.drop_keys:
        if key in present and key not in OWNED_KEYS and key not in changes:
            removals.append(key)
    body = body_in_file_endings(memory.body, doc.body, doc.newline)
    if not changes and not removals and body == doc.body and current is not None:
        return None
    updated_key = first_key(doc.data, UPDATED_KEYS)
    if memory.has_id or updated_key is not None:
        changes[updated_key or "updated"] = now
    doc = dataclasses.replace(doc, body=with_final_newline(body, doc.newline))
    if doc.has_frontmatter and not doc.body and not doc.close_line.endswith("\n"):
        doc.close_line += doc.newline
    if changes or removals:
        doc.yaml_text = edit_yaml(
            doc.yaml_text, doc.data, changes, removals, doc.newline, kind=doc.kind
        )
        if not doc.has_frontmatter:
            nl = doc.newline
            doc.has_frontmatter, doc.open_line, doc.close_line = True, f"---{nl}", f"---{nl}"
    return doc.text().encode("utf-8")
