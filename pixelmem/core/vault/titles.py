"""What a note is called: the same rule for the list, the switcher, search hits, chat
citations, MCP and HTTP (they all read ``Memory.title``, made here once per file read).

Rules (README, "How memories are stored"):

1. A ``title`` key in the frontmatter names the note, in every folder (pixelmem's own notes,
   Hugo, Jekyll and Obsidian vaults that use the key with a plugin).
2. Else, in an **Obsidian vault** (a folder with ``.obsidian/``, which Obsidian makes when it
   opens one), the file name, as Obsidian shows it: a ``# heading`` in the body is a section.
3. Else, in **any other folder** (plain Markdown, MkDocs, a notes folder of another editor),
   the first level-1 heading, as a Markdown reader titles a document, and the file name where
   there is none (or in an Excalidraw drawing, whose headings are its data's: drawings).

A heading counts only outside fenced code blocks, HTML comments and Obsidian's ``%%``
comments: ``# Login`` in a shell snippet is not a title. :func:`title_source` says where a
note's title came from, so an edit of it changes that place (the key, the heading line, or the
file name: a rename, as in Obsidian) and never adds a ``title:`` Obsidian would ignore.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pixelmem.core.vault import drawings, ids

TitleRule = Literal["obsidian", "headings"]
OBSIDIAN: TitleRule = "obsidian"  # the file name names a note
HEADINGS: TitleRule = "headings"  # the first level-1 heading, else the file name
TitleSource = Literal["frontmatter", "heading", "file name"]

OBSIDIAN_FOLDER = ".obsidian"
# Characters Obsidian refuses in a file name (and ``# ^ [ ] |``, which break links to it).
FORBIDDEN_IN_NAME = frozenset('*"\\/<>:|?#^[]')

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_H1_RE = re.compile(r"^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")


def vault_title_rule(root: Path) -> TitleRule:
    """The title rule of the vault at ``root``: Obsidian's where it has ``.obsidian/``."""
    try:
        return OBSIDIAN if os.path.isdir(os.path.join(root, OBSIDIAN_FOLDER)) else HEADINGS
    except (OSError, ValueError):
        return HEADINGS


def frontmatter_title(data: Mapping[Any, Any]) -> str:
    """The ``title`` key's text, spaces folded; empty when there is none."""
    value = data.get("title")
    if value is None or isinstance(value, (dict, list, tuple, bool)):
        return ""
    return " ".join(str(value).split())


def file_title(path: Path) -> str:
    """The file name without its Markdown suffix, printable."""
    return ids.printable_name(path.stem)


def note_title(data: Mapping[Any, Any], body: str, path: Path, rule: TitleRule) -> str:
    """The title of the note at ``path`` by the rules of the module docstring."""
    return _title_and_source(data, body, path, rule)[0]


def title_source(data: Mapping[Any, Any], body: str, rule: TitleRule) -> TitleSource:
    """Where the note's title comes from: its frontmatter, its first heading, its file name."""
    return _title_and_source(data, body, Path("x.md"), rule)[1]


def _title_and_source(
    data: Mapping[Any, Any], body: str, path: Path, rule: TitleRule
) -> tuple[str, TitleSource]:
    title = frontmatter_title(data)
    if title:
        return title, "frontmatter"
    if rule == HEADINGS and not drawings.is_drawing(data, body):  # its headings are data
        heading = first_heading(body)
        if heading is not None:
            return heading[0], "heading"
    return file_title(path), "file name"


def first_heading(body: str) -> tuple[str, tuple[int, int]] | None:
    """The first level-1 ATX heading outside code and comments: its text, spaces folded, and
    the span of its text in ``body``; None when there is none (or only empty ones)."""
    if "#" not in body:
        return None
    fence = ""
    in_comment = ""  # "-->" or "%%" while inside one
    offset = 0
    for line in body.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        text = line.rstrip("\r\n")
        if fence:
            if _closes(text, fence):
                fence = ""
            continue
        if in_comment:
            if in_comment in text:
                in_comment = ""
            continue
        opened = _FENCE_RE.match(text)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            continue
        stripped = text.strip()
        if stripped.startswith("<!--") and "-->" not in stripped[4:]:
            in_comment = "-->"
            continue
        if stripped.startswith("%%") and "%%" not in stripped[2:]:
            in_comment = "%%"
            continue
        heading = _H1_RE.match(text)
        if heading and heading.group(1).strip():
            words = " ".join(heading.group(1).split())
            return words, (start + heading.start(1), start + heading.end(1))
    return None


def _closes(text: str, fence: str) -> bool:
    stripped = text.strip()
    return (
        len(text) - len(text.lstrip(" ")) <= 3
        and stripped.startswith(fence)
        and set(stripped) == {fence[0]}
    )


def name_problem(title: str) -> str | None:
    """Why ``title`` cannot be a file name in an Obsidian vault, or None."""
    bad = sorted({c for c in title if c in FORBIDDEN_IN_NAME})
    if bad:
        return "a file name cannot contain " + " ".join(bad)
    if title.startswith("."):
        return "a file name starting with a dot would hide the note"
    if not title.strip():
        return "a memory needs a title"
    return None


def with_heading(body: str, title: str) -> str:
    """``body`` with its first level-1 heading's text replaced by ``title`` (unchanged when
    it has none)."""
    found = first_heading(body)
    if found is None:
        return body
    start, end = found[1]
    return body[:start] + " ".join(title.split()) + body[end:]


def file_name_for(title: str, suffix: str = ".md") -> str | None:
    """The file name a note called ``title`` has in an Obsidian vault; None when the title
    holds characters a file name cannot (the note keeps a ``title`` key then)."""
    clean = " ".join(title.split())
    if name_problem(clean) is not None or len(clean.encode("utf-8")) > 240:
        return None
    return clean + suffix
