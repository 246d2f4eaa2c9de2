"""The words a Markdown text is written in, without its markup: what its language is read from.

A note's code, link targets, attachment names, web addresses, HTML tags and math are letters in
no human language. Counted as words, they told the language wrong: in a public Chinese vault a
chunk holding a heading and a few pasted screenshots (``## 立字-字腹 ![[boxcnUhFH8Oy….png]]``)
and one holding a shell command under a Chinese heading (``### 删除会话 ```bash tmux
kill-session …``) were read as English, and every Chinese question on anything was measured
against unrelated *English* text there — the best hit of 187 of 200 unrelated Chinese questions.

:func:`prose_of` keeps what a person wrote in a language: a link's shown text (its alias, else
its target: a note's name is words), an image's alt text, a note embed's name; it drops fenced
and inline code, attachment embeds, addresses, tags and math. :func:`chunks_prose` reads a note's
chunks so: a long code block is cut into chunks that hold no fence (each of its ``# comment``
lines starts one), so where its code is is read from the whole note.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from pixelmem.core.index.chunking import Chunk, text_weight
from pixelmem.core.index.scripts import CJK_LETTERS
from pixelmem.core.vault.links import WikiLink, parse_links

# Three or more backticks or tildes (code_blocks keeps those at a line's start: CommonMark).
_FENCE = re.compile(r"(```+|~~~+)([^\n]*)")
_INLINE_CODE = re.compile(r"(`+)[^`\n].*?\1", re.S)
# file.png, clip.mp4: an attachment's name (a note's has no extension, or .md)
_ATTACHMENT_NAME = re.compile(r"\.(?!md$)[A-Za-z0-9]{1,5}$")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")
_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
# $$…$$ and $…$ (no blank inside either dollar, none a digit after the closing one: "$5 and
# $10" is money), as Obsidian reads math
_MATH = re.compile(r"\$\$.+?\$\$|\$(?=[^\s$])[^$\n]*?[^\s$\\]\$(?!\d)|\$[^\s$\d]\$", re.S)


def prose_of(markdown: str) -> str:
    """``markdown`` less its code, link targets, attachments, addresses, HTML tags and
    math."""
    text = markdown  # each pattern only where its mark is: most text has none of them
    if "`" in text or "~~~" in text:
        text = _INLINE_CODE.sub(" ", _without(text, code_blocks(text)))
    if "[[" in text:
        text = _links_read(text)
    if "](" in text:
        text = _MD_LINK.sub(_first, text)
    if "://" in text:
        text = _without_addresses(text)
    if "<" in text:
        text = _TAG.sub(" ", text)
    if "$" in text:
        text = _MATH.sub(" ", text)
    return text


def without_addresses(text: str) -> str:
    """``text`` less its web addresses, bare or a link's (whose text stays): the words of a
    page's address ("whogan.scholars.harvard.edu") are not words the note writes."""
    if "://" not in text:
        return text
    return _without_addresses(_MD_LINK.sub(_web_link_text, text) if "](" in text else text)


def _web_link_text(link: re.Match[str]) -> str:
    """A Markdown link to a web page as its bracketed text; any other link as it is."""
    return f"[{link.group(1)}]" if "://" in link.group(0) else link.group(0)


def words_weight(prose: str) -> int:
    """The weight (:func:`~pixelmem.core.index.chunking.text_weight`) of the words in
    ``prose``: its runs of two letters or more, and its CJK characters, outside the pieces
    between spaces that hold ``=``, ``<`` or ``>``. Numbers, the coordinates of a drawing
    ("C-273 251.81,"), a page's escapes ("%5D)") and the attributes of its HTML
    (``fill="#f97316"></circle>``: a chunk cut inside a tag holds no whole tag) are no
    words. Two passes of regular expressions: it is read for every chunk of a vault."""
    if "=" in prose or "<" in prose or ">" in prose:
        prose = _CODE_PIECE.sub(" ", prose)
    return text_weight("".join(_WORD.findall(prose)))


_CODE_PIECE = re.compile(r"\S*[=<>]\S*")
_WORD = re.compile(f"[^\\W\\d_]{{2,}}|[{CJK_LETTERS}]")


def _without_addresses(text: str) -> str:
    """``text`` less each word holding ``://`` (a web address, an app's link)."""
    at = text.find("://")
    while at >= 0:
        start = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at)) + 1
        end = min(i for i in (text.find(" ", at), text.find("\n", at), len(text)) if i >= 0)
        text = f"{text[:start]} {text[end:]}"
        at = text.find("://", start)
    return text


def _links_read(text: str) -> str:
    """``text`` with each wiki link (:func:`~pixelmem.core.vault.links.parse_links`) made its
    alias or its target's name, an attachment embed a space."""
    pieces, at = [], 0
    for link in parse_links(text):
        pieces += [text[at : link.start], " " if _attachment(link) else link.alias or link.target]
        at = link.end
    pieces.append(text[at:])
    return "".join(pieces)


def _attachment(link: WikiLink) -> bool:
    return link.embed and _ATTACHMENT_NAME.search(link.target) is not None


def _first(link: re.Match[str]) -> str:
    return link.group(1)


def chunks_prose(chunks: Sequence[Chunk | None], owners: np.ndarray) -> list[str]:
    """:func:`prose_of` each chunk (a gone one: ""), its fenced code found in its whole note:
    ``owners[i]`` is chunk i's note, whose chunks are consecutive."""
    out = [""] * len(chunks)
    i = 0
    while i < len(chunks):
        j = i + 1
        if chunks[i] is not None and owners[i] >= 0:
            while j < len(chunks) and owners[j] == owners[i] and chunks[j] is not None:
                j += 1
            out[i:j] = _note_prose([c for c in chunks[i:j] if c is not None])
        i = j
    return out


def code_blocks(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans of ``text``'s fenced code blocks, fences included; one left
    open runs to the end (a chunk cut inside a block)."""
    spans, opened = [], None
    for fence in _FENCE.finditer(text):
        line = text.rfind("\n", 0, fence.start()) + 1
        if fence.start() - line > 3 or text[line : fence.start()].strip(" \t"):
            continue  # not at a line's start
        mark = fence.group(1)
        if opened is None:
            if mark[0] != "`" or "`" not in fence.group(2):  # ```a`b is inline code
                opened = (line, mark)
        elif mark[0] == opened[1][0] and len(mark) >= len(opened[1]) and not fence.group(2).strip():
            spans.append((opened[0], fence.end()))
            opened = None
    if opened is not None:
        spans.append((opened[0], len(text)))
    return spans


def _without(text: str, spans: list[tuple[int, int]], offset: int = 0) -> str:
    """``text`` (at ``offset`` in its note) with the note's ``spans`` each made one space."""
    pieces, at = [], 0
    for a, b in spans:
        a, b = max(a - offset, at), min(b - offset, len(text))
        if a < b:
            pieces.append(text[at:a])
            pieces.append(" ")
            at = b
    pieces.append(text[at:])
    return "".join(pieces)


def _note_prose(chunks: list[Chunk]) -> list[str]:
    if len(chunks) == 1 or not any("```" in c.text or "~~~" in c.text for c in chunks):
        return [prose_of(c.text) for c in chunks]
    code = code_blocks(_stitched(chunks))
    return [prose_of(_without(c.text, code, c.start)) for c in chunks]


def _stitched(chunks: list[Chunk]) -> str:
    """The note's text as its chunks hold it (overlapping; what lies between two, blanks the
    chunker trimmed, is a line break)."""
    pieces, at = [], 0
    for c in sorted(chunks, key=lambda c: c.start):
        if c.start > at:
            pieces.append("\n" * (c.start - at))
            at = c.start
        if c.end > at:
            pieces.append(c.text[at - c.start :])
            at = c.end
    return "".join(pieces)
