"""Excalidraw drawings kept as Markdown: which parts of one are words a person wrote.

Obsidian's Excalidraw plugin (one of its most used) saves a drawing as a ``.md`` note: the
frontmatter key ``excalidraw-plugin``, a warning line ("Switch to EXCALIDRAW VIEW…"), any
notes written on the drawing's back, then its data — ``Text Elements`` (the words on the
canvas, each ending with a block id), ``Element Links``, ``Embedded Files`` and ``Drawing``:
the scene as JSON or compressed JSON, thousands of lines a person never reads. Older versions
put the sections at level 1 (``# Text Elements`` … ``# Drawing``); newer ones under
``# Excalidraw Data`` with the drawing inside a ``%%`` comment.

Search, Related and the map read a drawing by its words (:func:`text_spans`): the back's
notes and the text elements. Indexed whole, a vault's drawings were its noisiest notes: their
JSON chunks came up for unrelated questions in both languages (a Chinese question on fuzzing
over a bilingual research vault: a drawing's "Text Elements" first at 0.56) and the warning
line was what the list showed of them. The file itself is never changed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from typing import Any

DRAWING_KEY = "excalidraw-plugin"  # the plugin's own mark in the frontmatter
_WARNING = re.compile(r"^==⚠.*EXCALIDRAW VIEW", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TEXT_HEADING = re.compile(r"^#{1,2}[ \t]+Text Elements[ \t]*$", re.MULTILINE)
_DRAWING_HEADING = re.compile(r"^#{1,2}[ \t]+Drawing[ \t]*$", re.MULTILINE)
_TEXT_SECTION = "text elements"
_DATA_SECTIONS = frozenset(
    {"excalidraw data", "element links", "embedded files", "embeddable links", "drawing"}
)


def is_drawing(extra: Mapping[str, Any], body: str) -> bool:
    """Whether a note is an Excalidraw drawing: the plugin's frontmatter key, or (where only
    the body is at hand: the list's line) its warning line or its sections."""
    return DRAWING_KEY in extra or looks_like_drawing(body)


def looks_like_drawing(body: str) -> bool:
    """Whether ``body`` is laid out as a drawing: the plugin's warning line at its top, or a
    ``Text Elements`` section and a ``Drawing`` one (substring tests first: most notes are
    not drawings, and the list asks this of each row it paints)."""
    head = body[:2000]
    if "EXCALIDRAW VIEW" in head and any(_WARNING.match(line) for line in head.splitlines()):
        return True
    if "Text Elements" not in body or "Drawing" not in body:
        return False
    return bool(_TEXT_HEADING.search(body)) and bool(_DRAWING_HEADING.search(body))


def text_spans(body: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans of ``body`` holding a drawing's words, in order: every line
    before its data but the warning, and the lines of its ``Text Elements`` section — not the
    section headings, the element links, the embedded files' list, the scene's data, nor the
    ``%%`` lines around it. Lines in fenced code count by the section they are in."""
    spans: list[tuple[int, int]] = []
    for start, end in _kept_lines(body):
        if spans and spans[-1][1] == start:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _kept_lines(body: str) -> Iterator[tuple[int, int]]:
    """The ``[start, end)`` of each line :func:`text_spans` keeps, as the walk finds them."""
    section = "back"  # "back" (before the data), "text", or "data"
    fence = ""
    offset = 0
    for line in io.StringIO(body, newline=""):  # lazily: the first words end the list's walk
        start, offset = offset, offset + len(line)
        keep, section, fence = _read_line(line.rstrip("\r\n"), section, fence)
        if keep:
            yield start, offset


def first_words(body: str) -> str:
    """The drawing's first line of words (empty when it has none): what a list shows of it,
    read without walking the scene (the list asks at each paint; a drawing's file runs to
    150k characters)."""
    for start, end in _kept_lines(body):
        if body[start:end].strip():
            return body[start:end]
    return ""


def _read_line(text: str, section: str, fence: str) -> tuple[bool, str, str]:
    """Whether the line is kept, and the section and open fence after it."""
    opened = _FENCE.match(text)
    if fence:
        if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
            fence = ""
        return section != "data", section, fence
    if opened:
        return section != "data", section, opened.group(1)
    heading = _HEADING.match(text)
    if heading is not None:
        name = " ".join(heading.group(1).split()).lower()
        if name == _TEXT_SECTION:
            return False, "text", fence
        if name in _DATA_SECTIONS:
            return False, "data", fence
    if section == "back" and _WARNING.match(text):
        return False, section, fence
    if text.strip() == "%%":  # the comment that hides the scene in newer versions
        return False, section, fence
    return section != "data", section, fence


def drawing_words(body: str) -> str:
    """The drawing's words (:func:`text_spans`) as one text, line breaks kept."""
    return "".join(body[a:b] for a, b in text_spans(body))


def readable_text(extra: Mapping[str, Any], body: str) -> str:
    """What a reader (exact search, a chat prompt) gets of a note: a drawing's words, any
    other note's body."""
    return drawing_words(body) if is_drawing(extra, body) else body
