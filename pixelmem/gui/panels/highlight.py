"""Search hits as safe HTML: the text is escaped first, then the matched words are marked."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from pixelmem.core.index.query import highlight_terms

SNIPPET_CHARS = 260
_SPACES = re.compile(r"\s+")
# Markdown marks that read as noise in a one-line snippet: headings (the core's snippets may
# already be joined into one line) and, at line starts, list and quote marks.
_MARKS = re.compile(r"(?m)(?:^|(?<=\s))#{1,6}(?:\s+|(?=…?$))|^\s*(?:[-*+>]|\d+\.)\s+")
_WORD = re.compile(r"^\w+$", re.ASCII)


def hit_terms(query: str, text: str, matched: Iterable[str] = ()) -> list[str]:
    """What to highlight in ``text``: the index's matched terms, else the query's words in it."""
    terms = [t for t in matched if t and t.strip()]
    return terms or (list(highlight_terms(query, text)) if query else [])


def compact(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One line of text, cut at a word near ``limit`` with an ellipsis."""
    text = _SPACES.sub(" ", _MARKS.sub("", text)).strip()
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", int(limit * 0.8), limit)
    return text[: cut if cut > 0 else limit].rstrip() + "…"


def _pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    unique = sorted({t.strip() for t in terms if t.strip()}, key=len, reverse=True)
    if not unique:
        return None
    # Latin words match whole words only ("art" must not light up "start"); CJK anywhere.
    parts = [rf"\b{re.escape(t)}\b" if _WORD.match(t) else re.escape(t) for t in unique]
    return re.compile("|".join(parts), re.IGNORECASE)


def highlight_html(text: str, terms: Iterable[str], style: str) -> str:
    """``text`` HTML-escaped, each occurrence of ``terms`` in ``<span style=...>``."""
    pattern = _pattern(terms)
    if pattern is None:
        return html.escape(text)
    out, pos = [], 0
    for match in pattern.finditer(text):
        out.append(html.escape(text[pos : match.start()]))
        out.append(f'<span style="{style}">{html.escape(match.group())}</span>')
        pos = match.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def highlight_spans(text: str, terms: Iterable[str]) -> list[tuple[int, int]]:
    """The ``(start, length)`` of each occurrence of ``terms`` in ``text`` (as
    :func:`highlight_html` marks them)."""
    pattern = _pattern(terms)
    if pattern is None:
        return []
    return [(m.start(), m.end() - m.start()) for m in pattern.finditer(text)]
